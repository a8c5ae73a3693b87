//===- LinalgContraction.h - general contractions as GEMM loops -*- C++ -*-===//
//
// The einsum-like linalg contractions that are not one matmul or batch
// matmul (matchLinalgGemm) but a loop nest of them: the forms MLIR's shard
// partitioner and torch-mlir/IREE write (a batch dim absent from one
// operand, several reduction dims, rows or columns spread over several
// dims, any dim order). Each is read as C += A·W over 2-D views: one group
// of row dims M, one of column dims N and one of reduction dims K, each
// contiguous in the operands that hold it; every other loop dim is fixed
// by an outer loop (parallel dims over the threads, reduction dims in
// sequence, each GEMM accumulating into C).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_LINALGCONTRACTION_H
#define NORM_CONVERSION_UTILS_LINALGCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

/// One operand of a LinalgContraction: how its memref is collapsed
/// (memref.collapse_shape's reassociation; a GEMM group's dims become one)
/// and, for each collapsed dim, the outer loop that fixes it (an index into
/// LinalgContraction::outerDims) or -1 for the GEMM dims, which stay in
/// the order of the 2-D view.
struct ContractionOperand {
  Value memref;
  SmallVector<ReassociationIndices> collapse;
  SmallVector<int64_t> fixedBy;

  /// Whether collapse merges any dims.
  bool needsCollapse() const;
};

/// C += A·W per outer index, with A viewed M×K, W K×N (or N×K with
/// `transposeW`) and C M×N, each with a unit-stride last dim. A and W may
/// be the op's operands in either order (C's columns are the dims of the
/// second).
struct LinalgContraction {
  ContractionOperand a, w, c;
  bool transposeW = false;
  /// The loop dims of the outer loops, in loop order, with whether each is
  /// a reduction (run in sequence) and where its size is read: an operand
  /// (0 = A, 1 = W, 2 = C) and that operand's dim before collapsing.
  struct OuterDim {
    int64_t loop;
    bool reduction;
    int64_t operand, dim;
  };
  SmallVector<OuterDim> outerDims;
};

/// The loop nest of GEMMs that computes `op`, or nullopt with the reason in
/// `whyNot`. Like matchLinalgGemm: two memref inputs of one element type
/// (f32, bf16 or f16) and an f32 output, identity layouts, body
/// out + a·b.
std::optional<LinalgContraction> matchLinalgContraction(linalg::LinalgOp op,
                                                        std::string &whyNot);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_LINALGCONTRACTION_H
