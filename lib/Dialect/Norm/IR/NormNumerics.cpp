//===- NormNumerics.cpp - the statistics arithmetic of every norm ---------===//
//
// The numerics of the norm ops read in one place, and the one spelling of
// 1/σ (NormNumerics.h).
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::norm;

/// A constant of `like`'s type (a splat when `like` is a vector).
static Value constantLike(OpBuilder &b, Location loc, Value like,
                          double value) {
  Type type = like.getType();
  auto elementType = cast<FloatType>(getElementTypeOrSelf(type));
  TypedAttr attr = b.getFloatAttr(elementType, value);
  if (auto vectorType = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vectorType, attr);
  return arith::ConstantOp::create(b, loc, attr);
}

namespace {
template <typename OpTy> NormNumerics readNumerics(OpTy op) {
  NormNumerics num;
  num.accType = op.getAccumulationType();
  num.epsilon = op.getEpsilonValue();
  num.weightOffset = op.getWeightOffsetValue();
  num.epsMode = op.getEpsMode();
  num.weightType = op.getInputType().getElementType();
  return num;
}
Value getBias(RMSNormOp) { return Value(); }
Value getBias(LayerNormOp op) { return op.getBias(); }
Value getBias(RMSNormMatmulOp) { return Value(); }
Value getBias(LayerNormMatmulOp op) { return op.getBias(); }
/// γ's type, else β's, else the input's: what before_weight applies them in.
template <typename OpTy> void readWeightType(OpTy op, NormNumerics &num) {
  if (Value param = op.getWeight() ? op.getWeight() : getBias(op))
    num.weightType = getElementTypeOrSelf(param.getType());
}
} // namespace

NormNumerics mlir::norm::getNormNumerics(Operation *op) {
  return llvm::TypeSwitch<Operation *, NormNumerics>(op)
      .Case<RMSNormOp, LayerNormOp>([](auto norm) {
        NormNumerics num = readNumerics(norm);
        num.castMode = norm.getCastMode();
        readWeightType(norm, num);
        // A quantized y is never rounded before its quantization (DESIGN.md
        // §8): before_weight still rounds the normalized value to x's type,
        // but the weight step runs in acc_type.
        if (isQuantizedElementType(getElementTypeOrSelf(norm.getInit())))
          num.weightType = num.accType;
        if constexpr (std::is_same_v<decltype(norm), RMSNormOp>)
          num.partial = norm.getPartialValue();
        return num;
      })
      .Case<RMSNormMatmulOp, LayerNormMatmulOp>([](auto fused) {
        NormNumerics num = readNumerics(fused);
        if (std::optional<CastMode> mode = fused.getCastMode()) {
          num.castMode = *mode;
          num.roundsNormalized = true;
        }
        readWeightType(fused, num);
        if constexpr (std::is_same_v<decltype(fused), RMSNormMatmulOp>)
          num.partial = fused.getPartialValue();
        return num;
      })
      .Case<MatmulRMSNormOp, MatmulLayerNormOp>(
          [](auto fused) { return readNumerics(fused); })
      .Default([](Operation *) -> NormNumerics {
        llvm_unreachable("not a norm op");
      });
}

NormNumerics mlir::norm::getInputNormNumerics(MatmulRMSNormOp op) {
  NormNumerics num = readNumerics(op);
  num.epsilon = cast<FloatAttr>(op.getInputEpsilonAttr()).getValueAsDouble();
  num.weightOffset = 0.0;
  if (auto offset =
          dyn_cast_if_present<FloatAttr>(op.getInputWeightOffsetAttr()))
    num.weightOffset = offset.getValueAsDouble();
  if (std::optional<CastMode> mode = op.getInputCastMode()) {
    num.castMode = *mode;
    num.roundsNormalized = true;
  }
  if (Value gamma = op.getInputWeight())
    num.weightType = getElementTypeOrSelf(gamma.getType());
  return num;
}

bool mlir::norm::isWidenedElementType(Type type, Type inputType,
                                      FloatType accType) {
  if (type == inputType)
    return true;
  auto floatType = dyn_cast<FloatType>(type);
  return floatType &&
         floatType.getWidth() > inputType.getIntOrFloatBitWidth() &&
         floatType.getWidth() <= accType.getWidth();
}

bool mlir::norm::isNarrowedOutputType(Type outputType, Type inputType) {
  return inputType.isF32() && (outputType.isBF16() || outputType.isF16());
}

Value mlir::norm::createReciprocalStd(OpBuilder &b, Location loc, Value s,
                                      EpsMode mode, double epsilon) {
  Value eps = constantLike(b, loc, s, epsilon);
  Value denominator =
      mode == EpsMode::inside_sqrt
          ? math::SqrtOp::create(b, loc, arith::AddFOp::create(b, loc, s, eps))
                .getResult()
          : arith::AddFOp::create(b, loc, math::SqrtOp::create(b, loc, s), eps)
                .getResult();
  return arith::DivFOp::create(b, loc, constantLike(b, loc, s, 1.0),
                               denominator);
}
