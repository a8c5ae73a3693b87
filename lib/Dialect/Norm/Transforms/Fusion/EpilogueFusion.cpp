//===- EpilogueFusion.cpp - matmul → norm into one fused op --------------===//
//
// A norm whose input is a matmul (+ bias) (+ residual add) becomes one
// norm.matmul_{rms,layer}_norm. The residual comes from the norm's own
// `residual` operand or from an add between the matmul and the norm; when the
// residual stream reads that sum, the fused op returns it (`sum_outs`).
//
//===----------------------------------------------------------------------===//

#include "DeadProducers.h"
#include "MatmulMatching.h"
#include "NormOpView.h"

#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The matmul feeding `norm`, directly or through a residual add.
struct ProducerMatch {
  MatmulMatch matmul;
  Value residual;
  /// The add of `residual` between the matmul and the norm, if any.
  Operation *residualAdd = nullptr;
};

FailureOr<ProducerMatch> matchProducer(const NormOpView &norm,
                                       std::string &why) {
  ProducerMatch producer;
  producer.residual = norm.residual;
  FailureOr<MatmulMatch> match = matchMatmulProducing(norm.input, why);
  if (failed(match) && norm.residual) {
    // norm(x + product): the sum commutes, so x is the residual.
    std::string residualWhy;
    match = matchMatmulProducing(norm.residual, residualWhy);
    if (succeeded(match))
      producer.residual = norm.input;
  }
  if (failed(match) && !norm.residual) {
    // norm(product + r): the add is the residual stream's.
    Operation *add = norm.input.getDefiningOp();
    for (Value operand : add ? add->getOperands() : OperandRange(nullptr, 0)) {
      Value residual = matchSameShapeAdd(add, operand);
      if (!residual)
        continue;
      std::string addWhy;
      match = matchMatmulProducing(operand, addWhy);
      if (succeeded(match)) {
        producer.residual = residual;
        producer.residualAdd = add;
        break;
      }
    }
  }
  if (failed(match))
    return failure();
  producer.matmul = *match;
  for (Operation *step : {producer.matmul.matmul.getOperation(),
                          producer.matmul.biasAdd, producer.residualAdd}) {
    if (step && step->getBlock() != norm.op->getBlock()) {
      why = "the matmul is in another block (fusing would move it into a "
            "loop body or out of one)";
      return failure();
    }
  }
  Operation *consumer = producer.residualAdd ? producer.residualAdd : norm.op;
  Value product = producer.matmul.result;
  if (!product.hasOneUse() || *product.getUsers().begin() != consumer) {
    why = "the matmul's result has other users";
    return failure();
  }
  if (getElementTypeOrSelf(producer.matmul.lhs.getType()) !=
      getElementTypeOrSelf(norm.y.getType())) {
    why = "the matmul and the norm have different element types";
    return failure();
  }
  return producer;
}

} // namespace

LogicalResult mlir::norm::fuseProducerMatmulIntoNorm(RewriterBase &rewriter,
                                                     Operation *op,
                                                     std::string &why) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm) {
    why = "not a norm.rms_norm / norm.layer_norm on tensors";
    return failure();
  }
  why = norm->whyNoFusedForm();
  if (!why.empty())
    return failure();
  FailureOr<ProducerMatch> producer = matchProducer(*norm, why);
  if (failed(producer))
    return failure();

  // The residual stream's other readers of the sum take the fused op's sum
  // result, which is defined where the norm is.
  SmallVector<OpOperand *> sumReaders;
  if (producer->residualAdd &&
      failed(collectSumReadersAfter(producer->residualAdd->getResult(0), op,
                                    sumReaders))) {
    why = "the residual sum is read before the norm";
    return failure();
  }
  bool returnsSum = norm->sum || !sumReaders.empty();
  auto yType = cast<RankedTensorType>(norm->y.getType());
  Value sumValue = norm->sum ? norm->sum
                   : producer->residualAdd
                       ? producer->residualAdd->getResult(0)
                       : Value();
  if (returnsSum && sumValue.getType() != yType) {
    why = "the pre-norm sum and the norm's result have different types";
    return failure();
  }

  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  MatmulMatch &mm = producer->matmul;
  Value init = createFusedInit(rewriter, loc, mm, mm.lhs, yType);
  Value sumInit =
      returnsSum ? createFusedInit(rewriter, loc, mm, mm.lhs, yType) : Value();
  SmallVector<Type> resultTypes{yType};
  if (returnsSum)
    resultTypes.push_back(yType);
  Operation *fused;
  if (norm->isLayerNorm)
    fused = MatmulLayerNormOp::create(
        rewriter, loc, resultTypes, mm.lhs, mm.rhs, mm.bias,
        producer->residual, norm->weight, norm->bias, init, sumInit,
        norm->epsilon, norm->weightOffset, norm->accType, norm->epsMode,
        mm.transposeRhs);
  else
    fused = MatmulRMSNormOp::create(
        rewriter, loc, resultTypes, mm.lhs, mm.rhs, mm.bias,
        producer->residual, norm->weight, init, sumInit, norm->epsilon,
        norm->weightOffset, norm->accType, norm->epsMode, mm.transposeRhs);

  Value fusedSum = returnsSum ? fused->getResult(1) : Value();
  for (OpOperand *use : sumReaders)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(fusedSum); });
  rewriter.replaceAllUsesWith(norm->y, fused->getResult(0));
  if (norm->sum)
    rewriter.replaceAllUsesWith(norm->sum, fusedSum);
  SmallVector<Operation *> dead{op};
  if (producer->residualAdd)
    dead.push_back(producer->residualAdd);
  if (mm.biasAdd)
    dead.push_back(mm.biasAdd);
  dead.push_back(mm.matmul);
  eraseWithDeadProducers(rewriter, dead);
  return success();
}
