//===- NormOpView.cpp - one view of norm.rms_norm and norm.layer_norm ----===//

#include "NormOpView.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The view of a tensor-form norm op.
template <typename OpTy> NormOpView viewOf(OpTy op) {
  constexpr bool isLayerNorm = std::is_same_v<OpTy, LayerNormOp>;
  NormOpView view;
  view.op = op;
  view.isLayerNorm = isLayerNorm;
  view.input = op.getInput();
  view.residual = op.getResidual();
  view.weight = op.getWeight();
  view.cos = op.getCos();
  view.sin = op.getSin();
  view.ropeMode = op.getRopeModeAttr();
  view.ropeRounding = op.getRopeRoundingAttr();
  // The results in `outs` order: y, then whichever of the optional outputs
  // are present.
  unsigned next = 0;
  auto resultFor = [&](Value init) {
    return init ? op->getResult(next++) : Value();
  };
  view.y = op->getResult(next++);
  view.sum = resultFor(op.getSumInit());
  if constexpr (isLayerNorm) {
    view.bias = op.getBias();
    view.mean = resultFor(op.getMeanInit());
  } else {
    view.partial = op.getPartialAttr();
  }
  view.rstd = resultFor(op.getRstdInit());
  view.epsilon = op.getEpsilonAttr();
  view.weightOffset = op.getWeightOffsetAttr();
  view.accType = op.getAccTypeAttr();
  view.epsMode = op.getEpsMode();
  view.castMode = op.getCastMode();
  view.rank = op.getInputType().getRank();
  view.normalizedAxis = op.getNormalizedAxis();
  return view;
}

} // namespace

std::optional<NormOpView> NormOpView::get(Operation *op) {
  if (!op || op->getNumResults() == 0)
    return std::nullopt; // memref form: nothing to rewrite at tensor level
  if (auto rms = dyn_cast<RMSNormOp>(op))
    return viewOf(rms);
  if (auto ln = dyn_cast<LayerNormOp>(op))
    return viewOf(ln);
  return std::nullopt;
}

std::string NormOpView::whyNoFusedForm(bool normFirst) const {
  if (cos && (normFirst || isLayerNorm))
    return normFirst ? "its rotary embedding (rope) has no norm → matmul form"
                     : "its rotary embedding (rope) has a fused form on "
                       "matmul_rms_norm only";
  if (normalizedAxis != rank - 1)
    return "it normalizes more than the last dim";
  if (partial && !normFirst)
    return "pRMSNorm's prefix statistics have no matmul → norm form";
  // γ/β wider than x fuse (the fused ops compute in acc_type, as
  // after_weight does); a wider result does not: a fused op's norm result
  // has the type the norm reads.
  Type elementType = getElementTypeOrSelf(input.getType());
  if (getElementTypeOrSelf(y.getType()) != elementType)
    return "its result is wider than its input (a fused op's norm result has "
           "the type the norm reads)";
  Value param = weight ? weight : bias;
  if (!normFirst && castMode == CastMode::before_weight && param &&
      getElementTypeOrSelf(param.getType()) != elementType)
    return "cast_mode = before_weight rounds the normalized value to its "
           "input's type before the wider weight (the fused ops round once, "
           "after it)";
  return "";
}

std::pair<Value, Value> NormOpView::usedStatistics() const {
  auto used = [](Value stat) {
    return stat && !stat.use_empty() ? stat : Value();
  };
  return {used(mean), used(rstd)};
}

CastModeAttr NormOpView::castModeToCarry() const {
  Type elementType = getElementTypeOrSelf(input.getType());
  if (elementType.getIntOrFloatBitWidth() >=
      getNormNumerics(op).accType.getWidth())
    return CastModeAttr();
  return CastModeAttr::get(op->getContext(), castMode);
}
