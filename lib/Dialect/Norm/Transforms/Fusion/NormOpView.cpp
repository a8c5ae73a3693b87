//===- NormOpView.cpp - one view of norm.rms_norm and norm.layer_norm ----===//

#include "NormOpView.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The results of a tensor-form norm op, in `outs` order: y, then whichever
/// of the optional outputs are present.
template <typename OpTy>
void assignResults(OpTy op, ArrayRef<Value> optionalInits,
                   ArrayRef<Value *> slots, Value &y) {
  unsigned next = 0;
  y = op->getResult(next++);
  for (auto [init, slot] : llvm::zip(optionalInits, slots))
    *slot = init ? op->getResult(next++) : Value();
}

} // namespace

std::optional<NormOpView> NormOpView::get(Operation *op) {
  if (!op || op->getNumResults() == 0)
    return std::nullopt; // memref form: nothing to rewrite at tensor level
  NormOpView view;
  view.op = op;
  if (auto rms = dyn_cast<RMSNormOp>(op)) {
    view.isLayerNorm = false;
    view.input = rms.getInput();
    view.residual = rms.getResidual();
    view.weight = rms.getWeight();
    assignResults(rms, {rms.getSumInit(), rms.getRstdInit()},
                  {&view.sum, &view.rstd}, view.y);
    view.epsilon = rms.getEpsilonAttr();
    view.weightOffset = rms.getWeightOffsetAttr();
    view.accType = rms.getAccTypeAttr();
    view.epsMode = rms.getEpsMode();
    view.partial = rms.getPartialAttr();
    view.rank = rms.getInputType().getRank();
    view.normalizedAxis = rms.getNormalizedAxis();
    return view;
  }
  if (auto ln = dyn_cast<LayerNormOp>(op)) {
    view.isLayerNorm = true;
    view.input = ln.getInput();
    view.residual = ln.getResidual();
    view.weight = ln.getWeight();
    view.bias = ln.getBias();
    assignResults(ln, {ln.getSumInit(), ln.getMeanInit(), ln.getRstdInit()},
                  {&view.sum, &view.mean, &view.rstd}, view.y);
    view.epsilon = ln.getEpsilonAttr();
    view.weightOffset = ln.getWeightOffsetAttr();
    view.accType = ln.getAccTypeAttr();
    view.epsMode = ln.getEpsMode();
    view.rank = ln.getInputType().getRank();
    view.normalizedAxis = ln.getNormalizedAxis();
    return view;
  }
  return std::nullopt;
}

std::string NormOpView::whyNoFusedForm() const {
  if (normalizedAxis != rank - 1)
    return "it normalizes more than the last dim";
  if (partial)
    return "pRMSNorm's prefix statistics have no fused form";
  for (Value stat : {mean, rstd})
    if (stat && !stat.use_empty())
      return "its statistics results are used";
  return "";
}
