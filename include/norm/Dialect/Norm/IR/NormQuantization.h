//===- NormQuantization.h - quantized outputs of the norms ------*- C++ -*-===//
//
// DESIGN.md §8 written once: which element types quantize, the scale of a
// standalone norm's quantized output as its operands and attributes say,
// and the arithmetic `q = sat(rne(y · inv_s))` and `s = max(amax / qmax,
// s_min)` in upstream arith/math only, for the decomposition (the reference
// path) and the kernels alike. Works on scalars and on vectors.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMQUANTIZATION_H
#define NORM_DIALECT_NORM_IR_NORMQUANTIZATION_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir {
namespace norm {

/// Whether `type` is a quantized element type of a norm's result: f8E4M3FN,
/// f8E5M2 or (signless) i8.
bool isQuantizedElementType(Type type);

/// qmax: the largest finite value of the quantized type `type` (448, 57344,
/// 127). i8 also reaches −128, fp8 −qmax.
double getQuantizedMax(Type type);

/// A float format as the fp8 encoders see it: its explicit mantissa bits
/// and exponent bias.
struct FloatLayout {
  int64_t mantissa;
  int64_t bias;
};
FloatLayout getFloatLayout(FloatType type);

/// The default `scale_min`: 1 / (qmax · 512), as vLLM uses.
double getDefaultScaleMin(Type type);

/// How a standalone norm (norm.rms_norm, norm.layer_norm) quantizes its
/// result `y`: read once from its operands and attributes.
struct NormQuantization {
  /// The element type of `outs`: f8E4M3FN, f8E5M2 or i8.
  Type type;
  /// The static scale operand (f32 or 0-d), or null when dynamic.
  Value scale;
  /// The dynamic scales output (`scale_outs`), or null when static.
  Value scales;
  /// Elements per dynamic scale along the flattened normalized dims; 0 for
  /// one scale per row.
  int64_t groupSize = 0;
  double scaleMin = 0.0;

  bool isDynamic() const { return static_cast<bool>(scales); }
};

/// The quantization of `op`'s result, or nullopt when `op` is not a
/// standalone norm with a quantized `outs`.
std::optional<NormQuantization> getNormQuantization(Operation *op);

/// q = sat(rne(v · invScale)) as an element (or vector) of `type`: `v` and
/// `invScale` share one float type (f32 or f64). fp8: clamped to ±qmax with
/// NaN kept, then rounded to nearest even by integer arithmetic on the bits
/// (arith.truncf to fp8 has no LLVM lowering), subnormals included. i8:
/// math.roundeven, clamped to [−128, 127] (a NaN gives −128, not poison).
Value createQuantize(OpBuilder &b, Location loc, Value v, Value invScale,
                     Type type);

/// s = max(amax / qmax, s_min), `amax` f32 (scalar or vector).
Value createDynamicScale(OpBuilder &b, Location loc, Value amax,
                         const NormQuantization &quant);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_IR_NORMQUANTIZATION_H
