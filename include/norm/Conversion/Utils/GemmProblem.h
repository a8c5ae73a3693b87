//===- GemmProblem.h - the GEMM of a fused norm/matmul op -------*- C++ -*-===//
//
// The one description of the GEMM that a fused op (DESIGN.md §3) or a
// linalg matmul becomes, built once from the op and used by both back
// ends: NormToVector's packed GEMM and GEMV (which add their CPU-only
// fields in FusedGemmProblem) and NormToGPU's kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_GEMMPROBLEM_H
#define NORM_CONVERSION_UTILS_GEMMPROBLEM_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// What is folded into the GEMM. `RMSNorm`/`LayerNorm`: C = norm(A) · W
/// (+ matmulBias), the statistics gathered from the A tiles the GEMM loads
/// anyway and the per-row scale applied when C is stored. `None`: C = A · W
/// (+ matmulBias) (+ residual), the pre-norm sum of a matmul → norm op or a
/// plain matmul.
enum class GemmPrologue { None, RMSNorm, LayerNorm };

/// One GEMM on 2-D identity-layout memrefs: A is M×K, W is K×N (or N×K
/// with `transposeW`), C and residual are M×N, γ/β are [K], matmulBias is
/// [N]. A fused op's buffers are viewed so (all leading dims of the input
/// as M). Absent operands are null. Accumulated in f32, C rounded to its
/// element type once.
///
/// With a norm prologue, `aResidual` (M×K, the residual add of a pre-norm
/// block) replaces A by S = round(A + aResidual), added in f32 and rounded
/// to the element type once; the statistics and the product use S, which
/// is also written to `aSum` (M×K) when present.
struct GemmProblem : NormNumerics {
  GemmPrologue prologue = GemmPrologue::None;
  Value a, w, c;
  bool transposeW = false;
  Value matmulBias;
  Value m, n, k; // index values
  Value gamma, beta, residual;
  Value aResidual, aSum;
  /// norm → matmul's saved statistics (`mean_outs`, `rstd_outs`), memref<M>
  /// of f32, written once per row by whoever computes the row's statistics;
  /// null when not asked.
  Value mean, rstd;
  /// matmul → norm per head (`head_dim`, QK-norm): each row of C is N /
  /// headDim heads normalized on their own; 0 when the norm takes whole rows.
  int64_t headDim = 0;
  /// norm → matmul whose normalized activations round (`cast_mode`,
  /// `roundsNormalized`) or whose statistics cover a prefix (pRMSNorm): the
  /// norm cannot be split into a scale after the product, so each row of A
  /// is normalized before it is multiplied, A = round(x̂·γ' (+ β)) (the
  /// rounding only with cast_mode), its statistics (over the first
  /// ⌈partial·K⌉ columns for RMSNorm) from a pass of its own over the row;
  /// `prologue` is then None and the rest of the GEMM is a plain one. This
  /// says which norm (None: A is used as it is, or the prologue applies).
  GemmPrologue normalizesA = GemmPrologue::None;

  Type elementType() const {
    return cast<MemRefType>(a.getType()).getElementType();
  }
  /// C's element type: the input type, or a wider one (f32 from 16-bit A
  /// and W: a plain matmul, or a fused op's output; the matmul bias and,
  /// for matmul → norm, the residual then have C's type too).
  Type outputType() const {
    return cast<MemRefType>(c.getType()).getElementType();
  }
  /// M × N from C's static type (M: the product of its leading dims), for
  /// choices made while emitting, before `m` and `n` fold; none when C's
  /// shape is dynamic.
  std::optional<std::pair<int64_t, int64_t>> staticOutputShape() const {
    auto type = cast<MemRefType>(c.getType());
    if (!type.hasStaticShape() || type.getRank() < 1)
      return std::nullopt;
    int64_t cols = type.getShape().back();
    return std::make_pair(cols ? type.getNumElements() / cols : 0, cols);
  }
};

/// norm → matmul (norm.rms_norm_matmul, norm.layer_norm_matmul): the norm
/// as the GEMM's prologue, C the op's output.
GemmProblem describeNormMatmulGemm(Operation *fusedOp, OpBuilder &b);

/// matmul → norm (norm.matmul_rms_norm, norm.matmul_layer_norm): the GEMM
/// that writes the pre-norm sum S = A·W + bias + residual. C is the op's
/// `sum_outs` viewed as M×N, or null when the op has none: the caller
/// gives the GEMM a temporary for S, then normalizes S into the op's output.
GemmProblem describeMatmulNormGemm(Operation *fusedOp, OpBuilder &b);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_GEMMPROBLEM_H
