//===- NormQuantization.cpp - quantized outputs of the norms --------------===//
//
// The quantization arithmetic of DESIGN.md §8 (NormQuantization.h).
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormQuantization.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Support/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;

bool mlir::norm::isQuantizedElementType(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type) ||
         type.isSignlessInteger(8);
}

double mlir::norm::getQuantizedMax(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return APFloat::getLargest(floatType.getFloatSemantics()).convertToDouble();
  return 127.0;
}

FloatLayout mlir::norm::getFloatLayout(FloatType type) {
  return {static_cast<int64_t>(type.getFPMantissaWidth()) - 1,
          1 - APFloat::semanticsMinExponent(type.getFloatSemantics())};
}

double mlir::norm::getDefaultScaleMin(Type type) {
  return 1.0 / (getQuantizedMax(type) * 512.0);
}

namespace {
template <typename OpTy>
std::optional<NormQuantization> quantizationOf(OpTy op) {
  Type type = getElementTypeOrSelf(op.getInit().getType());
  if (!isQuantizedElementType(type))
    return std::nullopt;
  NormQuantization quant;
  quant.type = type;
  quant.scale = op.getScale();
  quant.scales = op.getScaleInit();
  quant.groupSize = op.getGroupSize().value_or(0);
  quant.scaleMin = getDefaultScaleMin(type);
  if (auto scaleMin =
          llvm::dyn_cast_if_present<FloatAttr>(op.getScaleMinAttr()))
    quant.scaleMin = scaleMin.getValueAsDouble();
  return quant;
}

/// A constant of element type `elementType` shaped like `like` (a splat
/// when `like` is a vector).
Value constantLike(OpBuilder &b, Location loc, Value like, Type elementType,
                   double value) {
  TypedAttr attr = isa<FloatType>(elementType)
                       ? TypedAttr(b.getFloatAttr(elementType, value))
                       : TypedAttr(b.getIntegerAttr(
                             elementType, static_cast<int64_t>(value)));
  if (auto vectorType = dyn_cast<VectorType>(like.getType()))
    attr = DenseElementsAttr::get(vectorType.clone(elementType), attr);
  return arith::ConstantOp::create(b, loc, attr);
}

/// The fp8 bits of `v` (float, |v| ≤ the format's largest finite value or
/// NaN), rounded to nearest even. Normal results: the source's exponent and
/// mantissa bits shifted down with round-half-even on the dropped bits and
/// the exponent rebiased (a mantissa carry rolls into the exponent, as it
/// must). Subnormal results: |v| scaled exactly by a power of two so that
/// one unit is the format's smallest subnormal, then math.roundeven; a
/// round-up to 2^m is the smallest normal's bit pattern, also as it must.
Value encodeFloat8(OpBuilder &b, Location loc, Value v, FloatType type) {
  auto source = cast<FloatType>(getElementTypeOrSelf(v.getType()));
  unsigned width = source.getWidth();
  auto [sourceMantissa, sourceBias] = getFloatLayout(source);
  auto [mantissa, bias] = getFloatLayout(type);
  Type intType = withElementType(v.getType(), b.getIntegerType(width));
  Type byteType = withElementType(v.getType(), b.getI8Type());
  auto intConst = [&](int64_t value) {
    return constantLike(b, loc, v, b.getIntegerType(width), value);
  };
  auto byteConst = [&](int64_t value) {
    return constantLike(b, loc, v, b.getI8Type(), value);
  };

  Value bits = arith::BitcastOp::create(b, loc, intType, v);
  Value sign = arith::TruncIOp::create(
      b, loc, byteType,
      arith::ShRUIOp::create(b, loc, bits, intConst(width - 1)));
  sign = arith::ShLIOp::create(b, loc, sign, byteConst(7));
  Value magnitude = math::AbsFOp::create(b, loc, v);
  Value magnitudeBits = arith::BitcastOp::create(b, loc, intType, magnitude);

  int64_t shift = sourceMantissa - mantissa;
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, magnitudeBits, intConst(shift)),
      intConst(1));
  Value rounded = arith::AddIOp::create(
      b, loc, magnitudeBits, intConst((int64_t(1) << (shift - 1)) - 1));
  rounded = arith::AddIOp::create(b, loc, rounded, lsb);
  rounded = arith::ShRUIOp::create(b, loc, rounded, intConst(shift));
  Value normal = arith::SubIOp::create(
      b, loc, rounded, intConst((sourceBias - bias) << mantissa));

  Value units = arith::MulFOp::create(
      b, loc, magnitude,
      constantLike(b, loc, v, source, std::ldexp(1.0, bias - 1 + mantissa)));
  Value subnormal = arith::FPToUIOp::create(
      b, loc, intType, math::RoundEvenOp::create(b, loc, units));
  Value isSubnormal = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, magnitude,
      constantLike(b, loc, v, source, std::ldexp(1.0, 1 - bias)));
  Value result = arith::TruncIOp::create(
      b, loc, byteType,
      arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal));
  result = arith::OrIOp::create(b, loc, result, sign);
  // 0x7F (S.1111.111 / S.11111.11) is NaN in both formats.
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  result = arith::SelectOp::create(
      b, loc, isNaN, arith::OrIOp::create(b, loc, sign, byteConst(0x7F)),
      result);
  return arith::BitcastOp::create(b, loc, withElementType(v.getType(), type),
                                  result);
}
} // namespace

std::optional<NormQuantization> mlir::norm::getNormQuantization(Operation *op) {
  if (auto rms = dyn_cast<RMSNormOp>(op))
    return quantizationOf(rms);
  if (auto ln = dyn_cast<LayerNormOp>(op))
    return quantizationOf(ln);
  return std::nullopt;
}

Value mlir::norm::createQuantize(OpBuilder &b, Location loc, Value v,
                                 Value invScale, Type type) {
  Type floatType = getElementTypeOrSelf(v.getType());
  double qmax = getQuantizedMax(type);
  Value t = arith::MulFOp::create(b, loc, v, invScale);
  if (auto fp8 = dyn_cast<FloatType>(type)) {
    // minimumf / maximumf keep a NaN.
    t = arith::MinimumFOp::create(b, loc, t,
                                  constantLike(b, loc, v, floatType, qmax));
    t = arith::MaximumFOp::create(b, loc, t,
                                  constantLike(b, loc, v, floatType, -qmax));
    return encodeFloat8(b, loc, t, fp8);
  }
  // i8: maxnumf / minnumf send a NaN to a bound rather than to fptosi's
  // poison.
  t = math::RoundEvenOp::create(b, loc, t);
  t = arith::MaxNumFOp::create(b, loc, t,
                               constantLike(b, loc, v, floatType, -qmax - 1));
  t = arith::MinNumFOp::create(b, loc, t,
                               constantLike(b, loc, v, floatType, qmax));
  return arith::FPToSIOp::create(b, loc, withElementType(v.getType(), type), t);
}

Value mlir::norm::createDynamicScale(OpBuilder &b, Location loc, Value amax,
                                     const NormQuantization &quant) {
  Type f32 = b.getF32Type();
  Value scale = arith::DivFOp::create(
      b, loc, amax,
      constantLike(b, loc, amax, f32, getQuantizedMax(quant.type)));
  return arith::MaximumFOp::create(
      b, loc, scale, constantLike(b, loc, amax, f32, quant.scaleMin));
}
