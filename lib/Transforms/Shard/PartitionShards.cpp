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
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"
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
    for (auto function : module.getOps<func::FuncOp>())
      if (usesSharding(function) && failed(runPipeline(pm, function)))
        return signalPassFailure();
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
