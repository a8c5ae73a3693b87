//===- RowNormProblem.h - a standalone norm as rows -------------*- C++ -*-===//
//
// What the CPU and GPU code generators both see of a memref-form
// norm.rms_norm / norm.layer_norm: its buffers viewed as rows of n
// contiguous elements, evenly spaced (a row stride, which strided views such
// as a column slice of wider rows have), and its numerics. Shared by
// NormToVector and NormToGPU (and the fused GEMM's row views).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H
#define NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir {
namespace norm {

/// One standalone norm, with every buffer viewed as rows of `n` contiguous
/// elements: x, residual, y and sum as memref<R x n>, γ and β as memref<n>,
/// mean and rstd as memref<R>. A buffer with the identity layout gets the
/// identity-layout view; a strided one keeps its offset and row stride
/// (memref<R x n, strided<[S, 1], offset: O>>, memref<R, strided<[S],
/// offset: O>>, memref<n, strided<[1], offset: O>>). Absent operands are
/// null. The numerics are the op's (NormNumerics).
struct RowNormProblem : NormNumerics {
  bool isLayerNorm = false;
  Value x, residual, weight, bias;
  Value y, sum, mean, rstd;
  Value rows, n; // index values
  /// Statistics gathered elsewhere (the CPU matmul → norm GEMM's epilogue),
  /// per row (length rows, acc type): the spread (RMSNorm: the mean square;
  /// LayerNorm: the variance) and LayerNorm's mean as shift + correction (a
  /// pivot and the small mean of the row minus it, kept apart so that
  /// (s − shift) − correction loses nothing when |μ| ≫ σ). With givenSpread
  /// the row kernel only normalizes.
  Value givenSpread, givenShift, givenCorrection;
  /// GroupNorm (norm.group_norm): a row is one (sample, group) run of
  /// `channelsPerGroup` channels of `channelLength` elements each; γ and β
  /// are per channel (memref<C>), channel (row mod groups) · channelsPerGroup
  /// + j / channelLength for element j of a row. Null for the other norms.
  Value channelLength;
  int64_t groups = 1, channelsPerGroup = 1;
  /// A quantized y (DESIGN.md §8): its type and scale as the op has them,
  /// with the dynamic `scales` viewed as rows (memref<R>, or memref<R x
  /// n/G> per group). Unset for an unquantized op.
  std::optional<NormQuantization> quant;
  /// The rotary embedding (null without one): `cos` and `sin` as rows of n
  /// angles; row r of x takes angle row (r / ropeInnerRows) mod (their
  /// rows), the positions being one run of x's row dims followed by
  /// broadcast ones (ropeInnerRows rows of x share an angle row).
  Value cos, sin, ropeInnerRows;
  /// The row of the whole problem that row 0 is, for the angle row, when
  /// this problem is a block of its rows (null: 0).
  Value ropeFirstRow;
  bool ropeInterleaved = false;
  /// `rope_rounding = each_step`: the normalized value and each step of the
  /// rotation round to y's element type.
  bool ropeEachStep = false;

  Type elementType() const {
    return cast<MemRefType>(x.getType()).getElementType();
  }
  /// n when it is a compile-time constant.
  std::optional<int64_t> staticRowLength() const;
};

/// Whether `value` is a memref with the identity layout (contiguous, offset
/// 0), the form the row views need.
bool hasIdentityLayout(Value value);

/// Why the row views cannot take a buffer of type `type` whose first
/// `rowDims` dims are rows and whose other dims make up the row, or an empty
/// string when they can: the layout must be strided, the row's dims
/// contiguous with a unit inner stride, and the row dims must merge into one
/// row stride (static or dynamic). Dims of static size 1 do not count.
std::string unsupportedRowLayoutReason(MemRefType type, int64_t rowDims);

/// The first operand of the standalone norm `op` (RMSNormOp or LayerNormOp)
/// that is not a memref the row views take, as "operand #i (type) <why>",
/// or why its rotary embedding's angles are not rows RowNormProblem
/// describes, or an empty string when every operand is one. A quantized
/// output is refused unless `quantizedOutputs` (the caller's kernels write
/// one); its scalar `scale` is then no buffer to view.
std::string unsupportedRowOperandReason(Operation *op,
                                        bool quantizedOutputs = false);

/// Why the rotary angles of the standalone norm `op` (or of the per-head
/// norm.matmul_rms_norm `op`, against its output viewed as heads) are not
/// rows that RowNormProblem describes (one run of position dims, then
/// broadcast ones), or an empty string when they are or `op` has no rotary
/// embedding. Reads shapes only, so it answers for tensor-form ops too.
std::string unsupportedRotaryAnglesReason(Operation *op);

/// The product of dims [from, to) of the memref `mem`, folded to a constant
/// when static.
OpFoldResult dimProduct(OpBuilder &b, Location loc, Value mem, int64_t from,
                        int64_t to);

/// `mem` (identity layout) as a memref of the given 1-D or 2-D sizes; null
/// for a null `mem`.
Value viewAs(OpBuilder &b, Location loc, Value mem,
             ArrayRef<OpFoldResult> sizes);

/// `mem` as rows: its first `rowDims` dims merged into the rows (sizes[0],
/// absent when rowDims is 0) and the other dims into the row (sizes.back(),
/// absent when rowDims is its rank). An identity layout gives viewAs's view;
/// another layout (one unsupportedRowLayoutReason accepts) keeps its offset
/// and row stride, taken from the type when static, else from
/// memref.extract_strided_metadata. Null for a null `mem`.
Value viewAsRows(OpBuilder &b, Location loc, Value mem, int64_t rowDims,
                 ArrayRef<OpFoldResult> sizes);

/// The offset (in elements) and row stride of a 1-D or 2-D row view as index
/// values (for a 1-D view, its only stride); constants when the view's type
/// has them static.
std::pair<Value, Value> rowViewOffsetAndStride(OpBuilder &b, Location loc,
                                               Value view);

/// The row views and numerics of a memref-form op whose operands
/// unsupportedRowOperandReason accepts.
RowNormProblem describeRowNorm(RMSNormOp op, OpBuilder &b);
RowNormProblem describeRowNorm(LayerNormOp op, OpBuilder &b);
/// norm.group_norm as the LayerNorm of the [N·G, C/G·ΠS] rows, with
/// per-channel γ/β (`channelLength` set) and mean/rstd viewed as [N·G].
RowNormProblem describeRowNorm(GroupNormOp op, OpBuilder &b);

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
/// `head_dim`, the norm of `sum` and `y` viewed as rows of one head each;
/// with a rotary embedding too, viewed as [..., H, D] (the angles' frame).
Operation *createNormOfSum(OpBuilder &b, Location loc, Operation *fusedOp,
                           Value sum, Value y);

/// How many leading elements of a row the statistics cover: n, or for
/// pRMSNorm k = ⌈partial · n⌉, computed in f64 as the decomposition does.
Value emitStatisticLength(OpBuilder &b, Location loc, const RowNormProblem &p);
/// The same for a row of `n` elements (an index value) and a fraction
/// `partial` (1: n itself), for the fused GEMMs' K.
Value emitStatisticLength(OpBuilder &b, Location loc, Value n, double partial);

/// LayerNorm's corrected two-pass variance from a row's moments about a
/// shift: Σd/count is the `correction` (the row's mean minus the shift), and
/// the variance Σd²/count − correction², clamped at zero. `count` is n as a
/// float of the moments' type.
Value emitCorrectedVariance(OpBuilder &b, Location loc, Value sumD, Value sumD2,
                            Value count, Value &correction);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_ROWNORMPROBLEM_H
