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

/// One GEMM (GemmProblem, shared with the GPU) of one element type (f32,
/// f16 or bf16), with what only the CPU kernels take. The statistics of a
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
  /// combineSegmentStatistics (SegmentStatistics.h) merges per row.
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
