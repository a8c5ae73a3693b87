//===- DecomposePass.cpp - the norm-decompose pass -----------------------===//
//
// Replaces every norm op by its AggregatedOpInterface decomposition. Fused ops
// decompose into norm ops, which are decomposed in turn, until none is left.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMDECOMPOSEPASS
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

bool isNormOp(Operation *op) { return isa<NormDialect>(op->getDialect()); }

LogicalResult decompose(RewriterBase &rewriter,
                        linalg::AggregatedOpInterface op) {
  rewriter.setInsertionPoint(op);
  FailureOr<SmallVector<Value>> replacements = op.decomposeOperation(rewriter);
  if (failed(replacements))
    return failure();
  rewriter.replaceOp(op, *replacements);
  return success();
}

struct DecomposeNormOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (!isNormOp(op))
      return rewriter.notifyMatchFailure(op, "not a norm op");
    return decompose(rewriter, op);
  }
};

struct NormDecomposePass
    : public norm::impl::NormDecomposePassBase<NormDecomposePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Each round removes one level of nesting (fused op -> norm op -> linalg);
    // a walk, not the greedy driver, so nothing but norm ops is touched.
    while (true) {
      SmallVector<linalg::AggregatedOpInterface> worklist;
      getOperation()->walk([&](linalg::AggregatedOpInterface op) {
        if (isNormOp(op))
          worklist.push_back(op);
      });
      if (worklist.empty())
        return;
      for (linalg::AggregatedOpInterface op : worklist) {
        if (failed(decompose(rewriter, op))) {
          op->emitOpError("could not be decomposed into linalg");
          return signalPassFailure();
        }
      }
    }
  }
};
} // namespace

void mlir::norm::populateNormDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeNormOp>(patterns.getContext());
}
