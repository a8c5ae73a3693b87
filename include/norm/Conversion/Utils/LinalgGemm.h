//===- LinalgGemm.h - linalg matmuls the project's GEMMs take ---*- C++ -*-===//
//
// One recognizer, shared by the CPU (`convert-norm-to-vector`) and GPU
// (`convert-norm-to-gpu`) `lower-matmuls` rewrites, of the memref-form linalg
// matmuls that the fused kernels' GEMM computes with no prologue.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_LINALGGEMM_H
#define NORM_CONVERSION_UTILS_LINALGGEMM_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

/// C += A·W as linalg defines it: A and W of one element type (f32, bf16 or
/// f16, the body extending them to f32), C f32, all identity-layout memrefs;
/// W indexed (k, n) or, transposed, (n, k). A 16-bit C is never matched:
/// linalg rounds every partial sum to it, which an f32-accumulating GEMM
/// would not reproduce.
struct LinalgGemm {
  Value a, w, c;
  bool transposeW = false;
  /// For a batch of independent matmuls ((b, m, n, k) loops: the named
  /// batch matmul, or a generic whose batch dim sits in front or in the
  /// middle of an operand), each operand's batch dim (0 or 1); empty for a
  /// single matmul.
  SmallVector<int64_t, 3> batchDims;

  bool isBatched() const { return !batchDims.empty(); }
};

/// Whether `body` is `yield(out + a·b)` (in either operand order) over its
/// block arguments (a, b, out), a and b possibly extended to out's type.
bool isLinalgMultiplyAccumulate(Block &body);

/// The GEMM form of `op` (a linalg.matmul, linalg.batch_matmul or a
/// linalg.generic of that structure), or nullopt with the reason in `whyNot`.
std::optional<LinalgGemm> matchLinalgGemm(linalg::LinalgOp op,
                                          std::string &whyNot);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_LINALGGEMM_H
