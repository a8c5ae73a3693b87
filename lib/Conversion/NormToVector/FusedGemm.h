//===- FusedGemm.h - packed GEMM with norm prologue/epilogue ----*- C++ -*-===//
//
// Private to NormToVector: the description of one GEMM C = op(A) · W with
// an optional row normalization folded in (DESIGN.md §3), and the entry to
// the emitter of its cache-blocked, packed, register-tiled vector code, which
// is the folder Gemm/ (Gemm/GemmEmitter.h lists its parts).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_FUSEDGEMM_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_FUSEDGEMM_H

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Utils/GemmProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir {
namespace norm {

/// One GEMM (GemmProblem, shared with the GPU) of one input element type
/// (f32, f16 or bf16; γ/β and C may be wider, each buffer loaded at its own
/// type), with what only the CPU kernels take. The statistics of a
/// norm prologue are gathered while A is packed and the per-row scale is
/// applied when C is stored.
struct FusedGemmProblem : GemmProblem {
  /// C += A · W (linalg.matmul's semantics) instead of C = ...; C must be
  /// f32 and the prologue None.
  bool accumulateIntoC = false;
  /// The first half of matmul → norm: statistics of C as stored (rounded to
  /// the element type), per row and segment of L columns
  /// (`statisticsSegmentWidth`), gathered in the epilogue from the
  /// registers that hold C; each is M × ⌈N/L⌉ f32. RMSNorm: Σ s² (segSumSq).
  /// LayerNorm: a pivot (the segment's first element), Σ (s − pivot) and
  /// M2 = Σ (s − segment mean)² (segPivot, segDelta, segM2), which
  /// normalizeRowsFromSegments (below) merges per row.
  Value segSumSq, segPivot, segDelta, segM2;
  /// matmul → norm: normalizes rows [first, end) of C once their segment
  /// statistics are complete. The GEMM calls it for every row exactly once:
  /// in the epilogue, after a row block's last K block, when one column
  /// chunk holds whole rows (N ≤ NC: the rows are still in L2, DESIGN.md
  /// §3's "normalize in the epilogue when N fits one tile"); otherwise, and
  /// for the GEMV, once for all rows after the product.
  std::function<void(OpBuilder &, Value first, Value end)> finishRows;
};

/// L, the columns per segment of the epilogue statistics.
int64_t statisticsSegmentWidth(const NormVectorCodegenOptions &options);

// The second half of matmul → norm (SegmentStatistics.cpp): the segment
// statistics the epilogue leaves are allocated, merged per row into what the
// row kernel needs to normalize C without a statistics pass of its own
// (RowNormProblem::given*), and freed.

/// Allocates the segment buffers of `p` (M × ⌈N/L⌉ f32 each: RMSNorm one,
/// LayerNorm three) and the per-row statistics of `rows` (given*).
void allocateSegmentStatistics(OpBuilder &b, Location loc, FusedGemmProblem &p,
                               RowNormProblem &rows, int64_t lanes);

/// Rows [first, end) of `rows` (the norm of p's C): their statistics merged
/// from the segments (in parallel over rows; RMSNorm the mean square,
/// LayerNorm the variance and the mean as shift + correction, by Chan's
/// combination of the segments' moments), then normalized by the row
/// kernel, given them. `p.finishRows` calls this.
void normalizeRowsFromSegments(OpBuilder &b, Location loc,
                               const FusedGemmProblem &p,
                               const RowNormProblem &rows, int64_t lanes,
                               Value first, Value end,
                               const NormVectorCodegenOptions &options);

/// Frees what allocateSegmentStatistics allocated.
void deallocateSegmentStatistics(OpBuilder &b, Location loc,
                                 const FusedGemmProblem &p,
                                 const RowNormProblem &rows);

/// Emits the GEMM at the builder's insertion point. The caller checks
/// `canEmitFusedGemm` first.
void emitFusedGemm(OpBuilder &b, Location loc, const FusedGemmProblem &problem,
                   const NormVectorCodegenOptions &options);

/// Whether the kernel handles this accumulation type (f32 only: the
/// micro-kernel is written for f32 lanes).
bool canEmitFusedGemm(FloatType accType);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_FUSEDGEMM_H
