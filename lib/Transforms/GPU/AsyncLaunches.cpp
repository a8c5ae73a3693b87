//===- AsyncLaunches.cpp - a host function's GPU work on one stream -------===//
//
// norm-gpu-async-launches: the GPU ops of each host function chained on one
// async token, so that the kernels queue on one stream without the host
// waiting for each, and a blocking gpu.wait only where the host needs the
// kernels' results.
//
// gpu-to-llvm lowers `gpu.wait async` without dependencies to
// mgpuStreamCreate, an async op to a call on its one dependency's stream
// (its token is that stream again), and a blocking `gpu.wait` to
// mgpuStreamSynchronize + mgpuStreamDestroy. A chain of async ops is
// therefore one stream, and the stream runs them in the order the host
// issued them. The ops of an scf region that holds only GPU ops and
// host-only arithmetic (a split-K branch, a loop of launches) depend on the
// token of the enclosing chain before the region, and the chain goes on
// after the region from that same token: they are all on that one stream,
// so what comes after the region runs after what the region queued, and a
// blocking wait on that token waits for both.
//
// A gpu.dealloc on the chain is queued after every kernel that was launched
// before it on the same stream, so it never frees a buffer a queued kernel
// still uses (mgpuMemFree's cuMemFree also waits for the device's pending
// work before it frees).
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUASYNCLAUNCHESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// A GPU op that goes on the chain: every async-capable GPU op but the
/// waits and managed allocations, in its synchronous form.
bool isChainable(Operation *op) {
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  if (!async || isa<gpu::WaitOp>(op) || async.getAsyncToken() ||
      !async.getAsyncDependencies().empty())
    return false;
  auto alloc = dyn_cast<gpu::AllocOp>(op);
  return !alloc || !alloc.getHostShared();
}

/// Whether the host may run `op` while queued kernels still run: it reads
/// and writes no buffer (it is pure, or it only allocates a fresh buffer,
/// managed memory included), or it reads only a buffer's address and shape
/// (a TMA descriptor). Ops with regions are judged by `isThreadable`.
bool runsBesideKernels(Operation *op) {
  if (isa<nvgpu::TmaCreateDescriptorOp>(op))
    return true;
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return alloc.getHostShared() && !alloc.getAsyncToken() &&
           alloc.getAsyncDependencies().empty();
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Allocate>(effect.getEffect());
  });
}

/// Whether `op`, with regions, may go on the enclosing chain's stream as a
/// whole: an op whose effects are its regions' (scf.if, scf.for, ...),
/// holding only chainable GPU ops, ops that run beside kernels and the
/// regions' own terminators. A wait inside would destroy the stream the
/// enclosing chain goes on with.
bool isThreadable(Operation *op) {
  if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
      isa<FunctionOpInterface>(op))
    return false;
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    if (nested->getNumRegions() != 0)
      return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (isChainable(nested) || runsBesideKernels(nested) ||
        (nested->hasTrait<OpTrait::IsTerminator>() &&
         !isa<FunctionOpInterface>(nested->getParentOp())))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Rewrites the blocking form `norm-gpu-async-allocs` and `convert-norm-to-
/// gpu` write for a device allocation or a deallocation
///
///   %t0 = gpu.wait async
///   %m, %t1 = gpu.alloc async [%t0] (...)
///   gpu.wait [%t1]
///
/// back to the synchronous op, so that it joins the chain like any other.
void unwrapBlockingForm(gpu::WaitOp wait) {
  if (wait.getAsyncToken() || wait.getAsyncDependencies().size() != 1)
    return;
  Value done = wait.getAsyncDependencies().front();
  Operation *op = done.getDefiningOp();
  if (!op || !done.hasOneUse() || !isa<gpu::AllocOp, gpu::DeallocOp>(op))
    return;
  auto async = cast<gpu::AsyncOpInterface>(op);
  if (async.getAsyncDependencies().size() != 1)
    return;
  Value start = async.getAsyncDependencies().front();
  auto startWait = start.getDefiningOp<gpu::WaitOp>();
  if (!startWait || !start.hasOneUse() ||
      !startWait.getAsyncDependencies().empty() ||
      startWait->getBlock() != op->getBlock() ||
      wait->getBlock() != op->getBlock())
    return;
  OpBuilder b(op);
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    auto sync = gpu::AllocOp::create(
        b, alloc.getLoc(), alloc.getMemref().getType(), /*asyncToken=*/Type(),
        ValueRange{}, alloc.getDynamicSizes(), alloc.getSymbolOperands(),
        alloc.getHostShared());
    alloc.getMemref().replaceAllUsesWith(sync.getMemref());
  } else {
    gpu::DeallocOp::create(b, op->getLoc(), /*asyncToken=*/Type(), ValueRange{},
                           cast<gpu::DeallocOp>(op).getMemref());
  }
  wait.erase();
  op->erase();
  startWait.erase();
}

/// Threads the chain through the blocks of one host function.
class Chainer {
public:
  explicit Chainer(MLIRContext *context)
      : tokenType(gpu::AsyncTokenType::get(context)) {}

  /// Chains the GPU ops of `block`, starting from `token` (null: none yet).
  /// On a function's own blocks (`nested` false) every terminator waits;
  /// in a threadable region's, the enclosing chain goes on after it.
  Value chainBlock(Block &block, Value token, bool nested) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      OpBuilder b(&op);
      if (isChainable(&op)) {
        if (!token)
          token = startStream(b, op.getLoc());
        token = makeAsync(b, &op, token);
        continue;
      }
      if (op.hasTrait<OpTrait::IsTerminator>() && nested)
        continue;
      if (op.getNumRegions() != 0 && isThreadable(&op)) {
        bool hasGPUOps = op.walk([](Operation *inner) {
                             return isChainable(inner) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
                           }).wasInterrupted();
        if (hasGPUOps && !token)
          token = startStream(b, op.getLoc());
        for (Region &region : op.getRegions())
          for (Block &inner : region)
            chainBlock(inner, token, /*nested=*/true);
        continue;
      }
      if (!op.hasTrait<OpTrait::IsTerminator>() && runsBesideKernels(&op))
        continue;
      // A host op that may touch a kernel's buffer (or the function's
      // end): the host waits for everything queued so far.
      if (token)
        gpu::WaitOp::create(b, op.getLoc(), Type(), ValueRange{token});
      token = Value();
      // Its regions' blocks run on the host: each gets chains of its own.
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          chainBlock(inner, Value(), /*nested=*/false);
    }
    return token;
  }

private:
  /// A fresh stream (gpu-to-llvm: mgpuStreamCreate).
  Value startStream(OpBuilder &b, Location loc) {
    return gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
  }

  /// `op` in its async form, after `token`; returns its token. As upstream's
  /// gpu-async-region: the op cloned with a token result added.
  Value makeAsync(OpBuilder &b, Operation *op, Value token) {
    cast<gpu::AsyncOpInterface>(op).addAsyncDependency(token);
    SmallVector<Type> resultTypes(op->getResultTypes());
    resultTypes.push_back(tokenType);
    Operation *async = Operation::create(
        op->getLoc(), op->getName(), resultTypes, op->getOperands(),
        op->getDiscardableAttrDictionary(), op->getPropertiesStorage(),
        op->getSuccessors(), op->getNumRegions());
    b.insert(async);
    op->replaceAllUsesWith(async->getResults().drop_back());
    op->erase();
    return async->getResults().back();
  }

  Type tokenType;
};

struct NormGPUAsyncLaunchesPass
    : norm::impl::NormGPUAsyncLaunchesPassBase<NormGPUAsyncLaunchesPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> functions;
    getOperation()->walk([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto function = dyn_cast<func::FuncOp>(op))
        if (!function.isExternal())
          functions.push_back(function);
      return WalkResult::advance();
    });
    Chainer chainer(&getContext());
    for (func::FuncOp function : functions) {
      SmallVector<gpu::WaitOp> waits;
      function.walk([&](gpu::WaitOp wait) { waits.push_back(wait); });
      for (gpu::WaitOp wait : waits)
        unwrapBlockingForm(wait);
      for (Block &block : function.getBody())
        chainer.chainBlock(block, Value(), /*nested=*/false);
    }
  }
};

} // namespace
