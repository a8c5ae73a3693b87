//===- FuseMatmulPass.cpp - the norm-fuse-matmul pass --------------------===//
//
// Visits every tensor-form norm once, makes an add feeding it its residual,
// tries norm → matmul, then matmul → norm, takes the rotary embedding after
// a norm left standalone, and (with `remarks`) says on the norm what
// happened. A walk rather
// than the greedy driver: each norm is one decision, and the remarks must be
// emitted once per norm.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMFUSEMATMULPASS
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Records erased ops: the cleanup of dead producers can erase a norm that
/// is still on the worklist (a norm feeding only a fused norm).
struct ErasedOps : RewriterBase::Listener {
  llvm::DenseSet<Operation *> erased;
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
};

struct NormFuseMatmulPass
    : public norm::impl::NormFuseMatmulPassBase<NormFuseMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> norms;
    getOperation()->walk([&](Operation *op) {
      if (isa<RMSNormOp, LayerNormOp>(op) && op->getNumResults() > 0)
        norms.push_back(op);
    });
    ErasedOps erasedOps;
    IRRewriter rewriter(&getContext(), &erasedOps);
    for (Operation *op : norms)
      if (!erasedOps.erased.contains(op))
        fuseOne(rewriter, op);
  }

  void fuseOne(IRRewriter &rewriter, Operation *op) {
    Location loc = op->getLoc();
    std::string name = op->getName().getStringRef().str();

    std::string whyNotAbsorbed;
    if (residualAdd) {
      FailureOr<Operation *> absorbed =
          absorbResidualAdd(rewriter, op, whyNotAbsorbed);
      if (succeeded(absorbed)) {
        op = *absorbed;
        if (remarks)
          emitRemark(loc) << name << " took the add of its input as its "
                                     "residual";
      } else if (remarks && !whyNotAbsorbed.empty()) {
        emitRemark(loc) << name << " kept the add of its input: "
                        << whyNotAbsorbed;
      }
    }

    std::string whyNotConsumers = "disabled", whyNotProducer = "disabled";
    unsigned numFused = 0;
    if (normIntoMatmul &&
        succeeded(fuseNormIntoConsumerMatmuls(rewriter, op, foldWeights,
                                              whyNotConsumers, &numFused))) {
      if (remarks)
        emitRemark(loc) << name << " fused into " << numFused
                        << " consuming matmul(s)";
      return;
    }
    // A per-head norm of a product (norm → matmul → norm, or a plain
    // matmul's heads): a rotation after the norm goes into the norm first,
    // and the fused op takes it along (Qwen3's q/k norms); without one
    // (Gemma 3's bf16 rotation, which the norm does not take) the norm
    // fuses alone. Taken after the fusion, it would stay where it is: the
    // rotation is matched after a standalone norm only.
    if (rope && matmulIntoNorm && readsProductHeads(op))
      op = absorbRotaryEmbeddingWithRemark(rewriter, op);
    if (matmulIntoNorm &&
        succeeded(fuseProducerMatmulIntoNorm(rewriter, op, whyNotProducer))) {
      if (remarks)
        emitRemark(loc) << name << " fused with its producing matmul";
      return;
    }
    if (remarks)
      emitRemark(loc) << name << " not fused: into consumers: "
                      << whyNotConsumers
                      << "; with a producer: " << whyNotProducer;
    if (rope && !getNormRotary(op))
      absorbRotaryEmbeddingWithRemark(rewriter, op);
  }

  /// Takes the rotary embedding after `op` into it, with a remark either
  /// way; returns the norm now in its place.
  Operation *absorbRotaryEmbeddingWithRemark(IRRewriter &rewriter,
                                             Operation *op) {
    Location loc = op->getLoc();
    std::string name = op->getName().getStringRef().str();
    std::string whyNotRope;
    FailureOr<Operation *> absorbed =
        absorbRotaryEmbedding(rewriter, op, whyNotRope);
    if (succeeded(absorbed)) {
      if (remarks)
        emitRemark(loc) << name << " took the rotary embedding after it";
      return *absorbed;
    }
    if (remarks && !whyNotRope.empty())
      emitRemark(loc) << name
                      << " kept the rotary embedding after it: " << whyNotRope;
    return op;
  }
};

} // namespace
