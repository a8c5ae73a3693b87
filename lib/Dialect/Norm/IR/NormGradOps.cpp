//===- NormGradOps.cpp - accessors and verifiers of the gradient ops ------===//
//
// norm.rms_norm_grad and norm.layer_norm_grad: attribute accessors with the
// forward ops' defaults, the verifier (the forward's rules for the shared
// operands, NormGradOps.td for the rest), memory effects and result-shape
// reification.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "NormOpsSupport.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::detail;

#define GET_OP_CLASSES
#include "norm/Dialect/Norm/IR/NormGradOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

namespace {
double floatAttrOr(Attribute attr, double defaultValue) {
  if (auto floatAttr = llvm::dyn_cast_if_present<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  return defaultValue;
}
} // namespace

#define NORM_DEFINE_GRAD_ACCESSORS(OpTy)                                       \
  FloatType OpTy::getAccumulationType() {                                      \
    if (std::optional<FloatType> accType = getAccType())                       \
      return *accType;                                                         \
    if (getInputType().getElementType().isF64())                               \
      return Float64Type::get(getContext());                                   \
    return Float32Type::get(getContext());                                     \
  }                                                                            \
  double OpTy::getEpsilonValue() {                                             \
    return floatAttrOr(getEpsilonAttr(), kDefaultEpsilon);                     \
  }                                                                            \
  double OpTy::getWeightOffsetValue() {                                        \
    return floatAttrOr(getWeightOffsetAttr(), 0.0);                            \
  }                                                                            \
  int64_t OpTy::getNormalizedAxis() {                                          \
    int64_t axis = getAxis();                                                  \
    return axis < 0 ? axis + getInputType().getRank() : axis;                  \
  }                                                                            \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getNormEffects(getOperation(), effects);                                   \
  }                                                                            \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &b, ReifiedRankedShapedTypeDims &reifiedReturnShapes) {        \
    return reifyFromInits(getOperation(), b, reifiedReturnShapes);             \
  }

NORM_DEFINE_GRAD_ACCESSORS(RMSNormGradOp)
NORM_DEFINE_GRAD_ACCESSORS(LayerNormGradOp)
#undef NORM_DEFINE_GRAD_ACCESSORS

double RMSNormGradOp::getPartialValue() {
  return floatAttrOr(getPartialAttr(), 1.0);
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

namespace {
/// The operands both gradient ops share, read once.
struct GradOperands {
  Value grad, input, sumGrad, weight;
  /// (value, keyword) of the statistics operands.
  SmallVector<std::pair<Value, StringRef>> stats;
  /// (value, keyword) of dγ and dβ.
  SmallVector<std::pair<Value, StringRef>> paramGrads;
  Value init;
};

template <typename OpTy>
LogicalResult verifyGrad(OpTy op, const GradOperands &ops) {
  if (failed(verifyRequiredOperands(op)))
    return failure();
  NormVerifier verifier(op);
  ShapedType inputType = op.getInputType();
  Type elementType = inputType.getElementType();
  if (failed(verifier.checkRows(inputType, op.getAxis())))
    return failure();
  int64_t normAxis = op.getNormalizedAxis();
  ArrayRef<int64_t> shape = inputType.getShape();
  ArrayRef<int64_t> rowShape = shape.take_front(normAxis);
  ArrayRef<int64_t> normShape = shape.drop_front(normAxis);
  if (failed(verifier.checkAttributes(op.getEpsilonAttr(),
                                      op.getWeightOffsetAttr(), op.getAccType(),
                                      elementType)))
    return failure();
  FloatType accType = op.getAccumulationType();
  if (failed(verifier.checkOperand(ops.grad, "grad", elementType, shape,
                                   "the input shape")) ||
      failed(verifier.checkOperand(ops.sumGrad, "sum_grad", elementType, shape,
                                   "the input shape")) ||
      failed(verifier.checkWidenedElementType(ops.weight, "weight", elementType,
                                              accType)) ||
      failed(verifier.checkShape(ops.weight, "weight", normShape,
                                 "the normalized dimensions of the input")))
    return failure();
  for (auto [value, name] : ops.stats)
    if (failed(verifier.checkStatistic(value, name, accType, rowShape)))
      return failure();

  if (!ops.init && llvm::none_of(ops.paramGrads, [](auto paramGrad) {
        return static_cast<bool>(paramGrad.first);
      }))
    return op.emitOpError("has no result: give at least one of 'outs', ")
           << (ops.paramGrads.size() == 2
                   ? "'weight_grad_outs' or 'bias_grad_outs'"
                   : "'weight_grad_outs'");
  if (failed(verifier.checkWidenedElementType(ops.init, "outs", elementType,
                                              accType)) ||
      failed(verifier.checkShape(ops.init, "outs", shape, "the input shape")))
    return failure();
  // dγ and dβ: γ's element type (x's without a weight) or wider.
  Type paramType = ops.weight ? getElementTypeOrSelf(ops.weight) : elementType;
  for (auto [value, name] : ops.paramGrads) {
    if (!value)
      continue;
    if (failed(verifier.checkShape(value, name, normShape,
                                   "the normalized dimensions of the input")))
      return failure();
    Type actual = getElementTypeOrSelf(value);
    if (!isWidenedElementType(actual, paramType, accType))
      return op.emitOpError()
             << "'" << name << "' element type " << actual
             << " does not match the " << (ops.weight ? "'weight'" : "input")
             << " element type " << paramType
             << " and is not a wider float type up to the accumulation type "
             << accType;
  }
  return success();
}
} // namespace

LogicalResult RMSNormGradOp::verify() {
  if (std::optional<Attribute> partial = getPartial()) {
    double value = cast<FloatAttr>(*partial).getValueAsDouble();
    if (!(value > 0.0 && value <= 1.0))
      return emitOpError("'partial' must be in (0, 1], got ") << *partial;
  }
  GradOperands ops{getGrad(),
                   getInput(),
                   getSumGrad(),
                   getWeight(),
                   {{getRstd(), "rstd"}},
                   {{getWeightGradInit(), "weight_grad_outs"}},
                   getInit()};
  return verifyGrad(*this, ops);
}

LogicalResult LayerNormGradOp::verify() {
  if (static_cast<bool>(getMean()) != static_cast<bool>(getRstd()))
    return emitOpError("'mean' and 'rstd' must be given together (without "
                       "them both are recomputed from the input)");
  GradOperands ops{getGrad(),
                   getInput(),
                   getSumGrad(),
                   getWeight(),
                   {{getMean(), "mean"}, {getRstd(), "rstd"}},
                   {{getWeightGradInit(), "weight_grad_outs"},
                    {getBiasGradInit(), "bias_grad_outs"}},
                   getInit()};
  return verifyGrad(*this, ops);
}
