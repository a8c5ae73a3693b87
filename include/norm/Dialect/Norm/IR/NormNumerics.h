//===- NormNumerics.h - the statistics arithmetic of every norm -*- C++ -*-===//
//
// The arithmetic that DESIGN.md §4 fixes for every norm, written once and
// emitted by the decomposition (the numerical reference) and by every
// kernel, CPU and GPU, row kernel and GEMM: where ε goes and how 1/σ is
// spelled are decided here and nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMNUMERICS_H
#define NORM_DIALECT_NORM_IR_NORMNUMERICS_H

#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// The numerics attributes of a norm or fused norm/matmul op, read once:
/// what the decomposition, the row kernels and the GEMMs need to compute
/// its statistics and apply its weight as the op defines them.
struct NormNumerics {
  /// acc_type, or its default (f32; f64 for f64 data).
  FloatType accType;
  double epsilon = 0.0;
  double weightOffset = 0.0;
  /// Where the normalized value rounds to the input's element type. The
  /// fused norm → matmul ops honour it only with `roundsNormalized`.
  CastMode castMode = CastMode::after_weight;
  /// A norm → matmul op with `cast_mode`: its normalized activations are
  /// rounded to the input's element type as the standalone norm's result
  /// (castMode says where), and the GEMM reads them so. Without it (and in
  /// the other fused ops) they are never rounded: one rounding, of C.
  bool roundsNormalized = false;
  /// pRMSNorm's fraction p: the statistics over the first ⌈p·n⌉ elements
  /// (1 for every other op).
  double partial = 1.0;
  EpsMode epsMode = EpsMode::inside_sqrt;
  /// The type a before_weight op applies γ and β in: their element type,
  /// which is the input's or wider (f32 γ with bf16 x); the input's when
  /// the op has neither; acc_type for a quantized result, which is never
  /// rounded before its quantization. The normalized value is rounded to
  /// the input's element type first, then widened to this type.
  Type weightType;
};

/// Whether `type` may be the element type of γ, β or the result `y` of a
/// standalone norm whose input has element type `inputType`: that type, or a
/// float type wider than it and no wider than `accType` (f32 γ with bf16 x),
/// so that the arithmetic in `accType` never rounds it.
bool isWidenedElementType(Type type, Type inputType, FloatType accType);

/// Whether a matmul → norm op with operands (A, W) of element type
/// `inputType` may round its pre-norm sum S, and so its result, to the
/// narrower `outputType`: f32 operands and a 16-bit float output (bf16 or
/// f16), the f32 product rounded once to the type of the norm that reads
/// it (docs/design.md, "Mixed element types in the fused ops").
bool isNarrowedOutputType(Type outputType, Type inputType);

/// The numerics of `op`, one of norm.rms_norm, norm.layer_norm and the four
/// fused ops.
NormNumerics getNormNumerics(Operation *op);

/// The numerics of the input norm of a matmul → norm op with
/// `input_epsilon` (the norm.rms_norm_matmul prologue it stands for): its
/// ε, weight offset, cast mode and γ's type, the op's acc_type and eps_mode.
NormNumerics getInputNormNumerics(MatmulRMSNormOp op);

/// r = 1/σ from a row statistic `s` (RMSNorm: the mean of squares;
/// LayerNorm: the variance), a scalar or vector of float type, with ε as
/// `mode` places it: 1 / √(s + ε) (`inside_sqrt`) or 1 / (√s + ε)
/// (`outside_sqrt`). Spelled as a division by `math.sqrt`, never
/// `math.rsqrt`, which targets may lower to an approximation: every path
/// must compute the same correctly rounded r as the reference.
Value createReciprocalStd(OpBuilder &b, Location loc, Value s, EpsMode mode,
                          double epsilon);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_IR_NORMNUMERICS_H
