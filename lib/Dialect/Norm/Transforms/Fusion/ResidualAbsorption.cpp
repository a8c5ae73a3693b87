//===- ResidualAbsorption.cpp - an add feeding a norm becomes its residual ===//
//
// `s = x + r; y = norm(s)` with a separate elementwise add (hand-written
// linalg, or what is left once other passes ran) becomes
// `y, s = norm(x) residual(r) sum_outs(...)`: the norm reads x and r and
// writes s itself, so s is not written and read back in a second sweep, and
// the fusions that follow carry the residual into the fused ops (the
// residual-add → norm → matmul chain of a pre-norm block, DESIGN.md §3).
//
// Exact: the norm ops round the sum to the element type before normalizing
// (NormOps.td), as the add did.
//
//===----------------------------------------------------------------------===//

#include "DeadProducers.h"
#include "MatmulMatching.h"
#include "NormOpView.h"

#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The add producing the norm's input and its two operands.
struct ResidualAdd {
  Operation *add;
  Value input, residual;
};

FailureOr<ResidualAdd> matchResidualAdd(const NormOpView &norm,
                                        std::string &why) {
  // Nothing to absorb: no reason to give.
  if (norm.residual)
    return failure();
  Operation *add = norm.input.getDefiningOp();
  Value other = add ? matchSameShapeAdd(add, add->getOperand(0)) : Value();
  if (!other)
    return failure();
  Type type = norm.input.getType();
  if (add->getOperand(0).getType() != type || other.getType() != type) {
    why = "the add's operands differ in type from its result";
    return failure();
  }
  if (add->getBlock() != norm.op->getBlock()) {
    why = "the add is in another block";
    return failure();
  }
  return ResidualAdd{add, add->getOperand(0), other};
}

/// The `tensor.empty` that receives the sum: `like`'s type and sizes.
Value createEmptyLike(OpBuilder &b, Location loc, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, like, i)));
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

/// `op` rebuilt with `x` as input, `r` as residual and, when `sumInit` is
/// set, a sum result right after y (the results' `outs` order).
Operation *rebuildWithResidual(RewriterBase &rewriter, Operation *op, Value x,
                               Value r, Value sumInit) {
  SmallVector<Type> resultTypes{op->getResult(0).getType()};
  if (sumInit)
    resultTypes.push_back(sumInit.getType());
  for (Value result : op->getResults().drop_front())
    resultTypes.push_back(result.getType());
  Location loc = op->getLoc();
  if (auto rms = dyn_cast<RMSNormOp>(op))
    return RMSNormOp::create(
        rewriter, loc, resultTypes, x, r, rms.getWeight(), rms.getScale(),
        rms.getCos(), rms.getSin(), rms.getInit(), sumInit, rms.getRstdInit(),
        rms.getScaleInit(), rms.getGroupSizeAttr(), rms.getScaleMinAttr(),
        rms.getAxisAttr(), rms.getEpsilonAttr(), rms.getWeightOffsetAttr(),
        rms.getPartialAttr(), rms.getAccTypeAttr(), rms.getCastModeAttr(),
        rms.getEpsModeAttr(), rms.getRopeModeAttr(), rms.getRopeRoundingAttr());
  auto ln = cast<LayerNormOp>(op);
  return LayerNormOp::create(
      rewriter, loc, resultTypes, x, r, ln.getWeight(), ln.getBias(),
      ln.getScale(), ln.getCos(), ln.getSin(), ln.getInit(), sumInit,
      ln.getMeanInit(), ln.getRstdInit(), ln.getScaleInit(),
      ln.getGroupSizeAttr(), ln.getScaleMinAttr(), ln.getAxisAttr(),
      ln.getEpsilonAttr(), ln.getWeightOffsetAttr(), ln.getAccTypeAttr(),
      ln.getCastModeAttr(), ln.getEpsModeAttr(), ln.getRopeModeAttr(),
      ln.getRopeRoundingAttr());
}

} // namespace

FailureOr<Operation *> mlir::norm::absorbResidualAdd(RewriterBase &rewriter,
                                                     Operation *op,
                                                     std::string &why) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm)
    return failure();
  FailureOr<ResidualAdd> match = matchResidualAdd(*norm, why);
  if (failed(match))
    return failure();

  SmallVector<OpOperand *> sumReaders;
  if (failed(collectSumReadersAfter(match->add->getResult(0), op,
                                    sumReaders))) {
    why = "the sum is read before the norm";
    return failure();
  }

  rewriter.setInsertionPoint(op);
  // Sized from x: the add's result goes away.
  Value sumInit = sumReaders.empty()
                      ? Value()
                      : createEmptyLike(rewriter, op->getLoc(), match->input);
  Operation *absorbed = rebuildWithResidual(rewriter, op, match->input,
                                            match->residual, sumInit);
  for (OpOperand *use : sumReaders)
    rewriter.modifyOpInPlace(use->getOwner(),
                             [&] { use->set(absorbed->getResult(1)); });
  // y, then the statistics after the new sum result.
  unsigned shift = sumInit ? 1 : 0;
  rewriter.replaceAllUsesWith(op->getResult(0), absorbed->getResult(0));
  for (unsigned i = 1, e = op->getNumResults(); i < e; ++i)
    rewriter.replaceAllUsesWith(op->getResult(i),
                                absorbed->getResult(i + shift));
  eraseWithDeadProducers(rewriter, {op, match->add});
  return absorbed;
}
