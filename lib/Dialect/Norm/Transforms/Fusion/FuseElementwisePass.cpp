//===- FuseElementwisePass.cpp - elementwise fusion that keeps matmuls ---===//
//
// Upstream's elementwise fusion patterns with a control function that keeps
// contractions whole: a producer is fused into a linalg op with a reduction
// iterator only when it copies (a permutation of its one input), and a
// reshape is never folded into, or out of, such an op. See the pass
// description in Passes.td for why.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/Transforms/Passes.h"

#include "HeadViews.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMFUSEELEMENTWISEPASS
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// A linalg op with a reduction iterator (a matmul, a reduction).
bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() > 0;
}

/// A generic that copies its one input, permuted (a transpose, or a plain
/// copy), into an identity-mapped output.
bool isPermutedCopy(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && norm::copyPermutation(generic) &&
         generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
             .isIdentity();
}

/// Upstream's rule (a producer used once), and contractions kept whole.
bool shouldFuse(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  Operation *consumer = fusedOperand->getOwner();
  if (!producer || !fusedOperand->get().hasOneUse())
    return false;
  if (isContraction(producer))
    return false;
  if (isContraction(consumer))
    return isPermutedCopy(producer);
  return true;
}

/// Reshapes fold by expansion only between ops that are not contractions.
bool shouldFoldReshape(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  Operation *consumer = fusedOperand->getOwner();
  if (isContraction(producer) || isContraction(consumer))
    return false;
  return fusedOperand->get().hasOneUse();
}

struct NormFuseElementwisePass
    : public norm::impl::NormFuseElementwisePassBase<NormFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      shouldFoldReshape);
    linalg::populateConstantFoldLinalgOperations(patterns, shouldFuse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
