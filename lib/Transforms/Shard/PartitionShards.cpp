//===- PartitionShards.cpp - partition a sharded module, or drop it ----===//
//
// norm-partition-shards: MLIR 22's sharding-propagation and shard-partition
// on the functions that use shard ops in a module that has a shard.grid
// (nothing without one, so the CPU pipeline, which runs it first, is
// unchanged for unsharded IR).
// norm-drop-sharding: the same annotated module as the one-process program,
// the reference of an MPI run.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMPARTITIONSHARDSPASS
#define GEN_PASS_DEF_NORMDROPSHARDINGPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

bool hasGrid(ModuleOp module) {
  return !module.getOps<shard::GridOp>().empty();
}

bool usesSharding(func::FuncOp function) {
  return function
      .walk([](Operation *op) {
        return isa_and_nonnull<shard::ShardDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The constant a linalg.fill writes, or null.
Attribute filledConstant(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  Attribute constant;
  if (!fill || !matchPattern(fill.value(), m_Constant(&constant)))
    return {};
  return constant;
}

/// Whether `condition` depends on the process's index in a grid: the
/// partition's lead-process test (index in the reduction group == 0). The
/// pattern is for that scf.if only; 22's partition refuses a sharded
/// function with an scf.if of its own (no sharding interface), so this
/// says what the pattern is for more than it filters. A few ops deep is
/// enough for what the partition writes (process_multi_index, its
/// linearization, cmpi).
bool testsProcessIndex(Value condition) {
  SmallVector<std::pair<Value, int>> worklist = {{condition, 0}};
  while (!worklist.empty()) {
    auto [value, depth] = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def)
      continue;
    if (isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp>(def))
      return true;
    if (depth < 6)
      for (Value operand : def->getOperands())
        worklist.push_back({operand, depth + 1});
  }
  return false;
}

/// Linalg's partition of a split reduction gives the init to the lead
/// process and a fill of the combiner's neutral element to the others,
/// through an scf.if. When the init is that same fill already (a
/// contraction from zero), every process can start from it; the scf.if
/// would hide the fill from the CPU pipeline, which then lowers the
/// contraction as plain loops instead of the GEMM (4x slower at the large
/// Llama layer's o and down products).
struct FoldSelectOfEqualFills : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumResults() != 1 || op.getElseRegion().empty() ||
        !op.thenBlock()->without_terminator().empty() ||
        !testsProcessIndex(op.getCondition()))
      return failure();
    Value init = op.thenYield().getOperand(0);
    Value neutral = op.elseYield().getOperand(0);
    // Only the neutral element's tensor.empty and fill in the else branch.
    if (op.getThenRegion().isAncestor(init.getParentRegion()) ||
        llvm::range_size(op.elseBlock()->without_terminator()) != 2 ||
        init.getType() != neutral.getType())
      return failure();
    Attribute initValue = filledConstant(init);
    if (!initValue || initValue != filledConstant(neutral))
      return failure();
    rewriter.replaceOp(op, init);
    return success();
  }
};

struct NormPartitionShardsPass
    : public norm::impl::NormPartitionShardsPassBase<NormPartitionShardsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasGrid(module))
      return;
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(createConvertElementwiseToLinalgPass());
    pm.addPass(shard::createShardingPropagation());
    pm.addPass(shard::createPartition());
    pm.addPass(createCanonicalizerPass());
    // Only the functions that use sharding: the others (a driver calling
    // MPI, declarations) are the same program on every process.
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldSelectOfEqualFills>(&getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!usesSharding(function))
        continue;
      if (failed(runPipeline(pm, function)) ||
          failed(applyPatternsGreedily(function, frozen)))
        return signalPassFailure();
    }
  }
};

struct NormDropShardingPass
    : public norm::impl::NormDropShardingPassBase<NormDropShardingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> annotations;
    WalkResult result = module.walk([&](Operation *op) {
      if (!isa_and_nonnull<shard::ShardDialect>(op->getDialect()))
        return WalkResult::advance();
      if (!isa<shard::ShardOp, shard::ShardingOp, shard::GridOp>(op)) {
        op->emitOpError("is not a sharding annotation: the module is "
                        "already partitioned");
        return WalkResult::interrupt();
      }
      annotations.push_back(op);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Users first: each shard.shard before the sharding it uses.
    for (Operation *op : llvm::reverse(annotations)) {
      if (auto shardOp = dyn_cast<shard::ShardOp>(op))
        shardOp.getResult().replaceAllUsesWith(shardOp.getSrc());
      op->erase();
    }
  }
};

} // namespace
