//===- RowNormProblem.h - a standalone norm as rows -------------*- C++ -*-===//
//
// What the CPU and GPU code generators both see of a memref-form
// norm.rms_norm / norm.layer_norm: its buffers viewed as rows of n
// contiguous elements, and its numerics. Shared by NormToVector and
// NormToGPU (and the fused GEMM's row views).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H
#define NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir {
namespace norm {

/// One standalone norm, with every buffer viewed as rows of `n` contiguous
/// elements: x, residual, y and sum as memref<R x n>, γ and β as memref<n>,
/// mean and rstd as memref<R>. Absent operands are null. The numerics are
/// the op's (NormNumerics).
struct RowNormProblem : NormNumerics {
  bool isLayerNorm = false;
  Value x, residual, weight, bias;
  Value y, sum, mean, rstd;
  Value rows, n;        // index values
  double partial = 1.0; // RMSNorm only
  /// Statistics gathered elsewhere (the CPU matmul → norm GEMM's epilogue),
  /// per row (length rows, acc type): the spread (RMSNorm: the mean square;
  /// LayerNorm: the variance) and LayerNorm's mean as shift + correction (a
  /// pivot and the small mean of the row minus it, kept apart so that
  /// (s − shift) − correction loses nothing when |μ| ≫ σ). With givenSpread
  /// the row kernel only normalizes.
  Value givenSpread, givenShift, givenCorrection;

  Type elementType() const {
    return cast<MemRefType>(x.getType()).getElementType();
  }
  /// n when it is a compile-time constant.
  std::optional<int64_t> staticRowLength() const;
};

/// Whether `value` is a memref with the identity layout (contiguous, offset
/// 0), the form the row views need.
bool hasIdentityLayout(Value value);

/// The product of dims [from, to) of the memref `mem`, folded to a constant
/// when static.
OpFoldResult dimProduct(OpBuilder &b, Location loc, Value mem, int64_t from,
                        int64_t to);

/// `mem` (identity layout) as a memref of the given 1-D or 2-D sizes; null
/// for a null `mem`.
Value viewAs(OpBuilder &b, Location loc, Value mem,
             ArrayRef<OpFoldResult> sizes);

/// The row views and numerics of a memref-form op with identity layouts.
RowNormProblem describeRowNorm(RMSNormOp op, OpBuilder &b);
RowNormProblem describeRowNorm(LayerNormOp op, OpBuilder &b);

/// Splits `sizes` into a static shape (kDynamic where unknown) and the
/// index values of its dynamic entries, as memref/gpu alloc ops take them.
void splitMixedSizes(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                     SmallVectorImpl<int64_t> &staticSizes,
                     SmallVectorImpl<Value> &dynamicSizes);

/// The `head_dim` D of a per-head matmul → norm op (QK-norm), if it has one.
std::optional<int64_t> headDimOf(Operation *fusedOp);

/// The M × N rows `rows` (identity layout, N static) as M·(N/D) rows of
/// `headDim` = D: one row per head.
Value viewAsHeads(OpBuilder &b, Location loc, Value rows, int64_t headDim);

/// The second half of a matmul → norm op `fusedOp` (MatmulRMSNormOp or
/// MatmulLayerNormOp) once its GEMM has written the pre-norm sum `sum`
/// (M × N rows): the standalone norm of `sum` into `y`, with the op's γ, β,
/// ε, weight offset, eps mode and acc_type, rounded after the weight. With
/// `head_dim`, the norm of `sum` and `y` viewed as rows of one head each.
Operation *createNormOfSum(OpBuilder &b, Location loc, Operation *fusedOp,
                           Value sum, Value y);

/// How many leading elements of a row the statistics cover: n, or for
/// pRMSNorm k = ⌈partial · n⌉, computed in f64 as the decomposition does.
Value emitStatisticLength(OpBuilder &b, Location loc, const RowNormProblem &p);

/// LayerNorm's corrected two-pass variance from a row's moments about a
/// shift: Σd/count is the `correction` (the row's mean minus the shift), and
/// the variance Σd²/count − correction², clamped at zero. `count` is n as a
/// float of the moments' type.
Value emitCorrectedVariance(OpBuilder &b, Location loc, Value sumD, Value sumD2,
                            Value count, Value &correction);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H
