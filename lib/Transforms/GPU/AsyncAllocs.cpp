//===- AsyncAllocs.cpp - gpu.alloc/dealloc in forms gpu-to-llvm lowers ---===//
//
// MLIR 22's gpu-to-llvm lowers gpu.alloc and gpu.dealloc only in one form
// each: device memory (no host_shared) and every gpu.dealloc must be async
// with exactly one dependency, managed memory (gpu.alloc host_shared) must be
// synchronous with no dependency. Any other form is left in the host code
// (and translation to LLVM IR fails on it), e.g. the plain
//
//   %m = gpu.alloc (%n) : memref<?xf32>
//   gpu.dealloc %m : memref<?xf32>
//
// that `convert-norm-to-gpu` used to emit and that tests and users write.
// These patterns rewrite each such op into the lowered form around it, with
// the same ordering:
//
//   sync  op [deps]          →  %t0 = gpu.wait async [deps]
//                               %t1 = op async [%t0]
//                               gpu.wait [%t1]        (the host blocks)
//   %t = op async [deps]     →  %t0 = gpu.wait async [deps]
//   (deps ≠ exactly one)        %t = op async [%t0]
//   host_shared, async or
//   with deps                →  gpu.wait [deps]       (when there are any)
//                               %m = gpu.alloc host_shared
//                               %t = gpu.wait async   (when async)
//
// gpu-to-llvm turns `gpu.wait async` into a fresh stream (that waits on the
// dependencies' events) and the blocking `gpu.wait` into a stream
// synchronization, so a synchronous op still completes, on the host, before
// anything after it runs, as its semantics say; and everything it depended
// on completed before it. Synchronous gpu.launch_func ops are synchronized
// with the host by the launch itself (a stream created, synchronized and
// destroyed around each), so a synchronous gpu.dealloc after them frees the
// buffer only once they have finished.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/GPU/GPUTransforms.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUASYNCALLOCSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Whether gpu-to-llvm lowers `op` as it is: async with exactly one
/// dependency.
bool hasOneStream(gpu::AsyncOpInterface op) {
  return op.getAsyncToken() && op.getAsyncDependencies().size() == 1;
}

/// A token that completes after `dependencies`, on a fresh stream.
Value startAfter(OpBuilder &b, Location loc, ValueRange dependencies) {
  return gpu::WaitOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                             dependencies)
      .getAsyncToken();
}

struct DeviceAllocToStream : OpRewritePattern<gpu::AllocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::AllocOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getHostShared() || hasOneStream(op))
      return rewriter.notifyMatchFailure(op, "lowered by gpu-to-llvm as is");
    Location loc = op.getLoc();
    Value start = startAfter(rewriter, loc, op.getAsyncDependencies());
    auto alloc = gpu::AllocOp::create(
        rewriter, loc, op.getMemref().getType(), start.getType(),
        ValueRange{start}, op.getDynamicSizes(), op.getSymbolOperands());
    Value done = alloc.getAsyncToken();
    if (!op.getAsyncToken()) {
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{done});
      rewriter.replaceOp(op, alloc.getMemref());
    } else {
      rewriter.replaceOp(op, {alloc.getMemref(), done});
    }
    return success();
  }
};

struct HostSharedAllocToSync : OpRewritePattern<gpu::AllocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::AllocOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getHostShared() ||
        (!op.getAsyncToken() && op.getAsyncDependencies().empty()))
      return rewriter.notifyMatchFailure(op, "lowered by gpu-to-llvm as is");
    Location loc = op.getLoc();
    if (!op.getAsyncDependencies().empty())
      gpu::WaitOp::create(rewriter, loc, Type(), op.getAsyncDependencies());
    auto alloc = gpu::AllocOp::create(
        rewriter, loc, op.getMemref().getType(), /*asyncToken=*/Type(),
        ValueRange{}, op.getDynamicSizes(), op.getSymbolOperands(),
        /*hostShared=*/true);
    if (op.getAsyncToken())
      rewriter.replaceOp(op, {alloc.getMemref(),
                              startAfter(rewriter, loc, ValueRange{})});
    else
      rewriter.replaceOp(op, alloc.getMemref());
    return success();
  }
};

struct DeallocToStream : OpRewritePattern<gpu::DeallocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::DeallocOp op,
                                PatternRewriter &rewriter) const override {
    if (hasOneStream(op))
      return rewriter.notifyMatchFailure(op, "lowered by gpu-to-llvm as is");
    Location loc = op.getLoc();
    Value start = startAfter(rewriter, loc, op.getAsyncDependencies());
    auto dealloc = gpu::DeallocOp::create(rewriter, loc, start.getType(),
                                          ValueRange{start}, op.getMemref());
    Value done = dealloc.getAsyncToken();
    if (!op.getAsyncToken()) {
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{done});
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, done);
    }
    return success();
  }
};

struct NormGPUAsyncAllocsPass
    : public norm::impl::NormGPUAsyncAllocsPassBase<NormGPUAsyncAllocsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGPUAllocToLowerableFormPatterns(patterns);
    // One walk: the rewritten ops are in the lowered forms and match no
    // pattern; nothing else is folded or erased.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

Value mlir::norm::createDeviceAlloc(OpBuilder &b, Location loc,
                                    MemRefType type, ValueRange dynamicSizes) {
  Value start = startAfter(b, loc, ValueRange{});
  auto alloc = gpu::AllocOp::create(b, loc, type, start.getType(),
                                    ValueRange{start}, dynamicSizes,
                                    /*symbolOperands=*/ValueRange{});
  gpu::WaitOp::create(b, loc, Type(), ValueRange{alloc.getAsyncToken()});
  return alloc.getMemref();
}

void mlir::norm::createDeviceDealloc(OpBuilder &b, Location loc,
                                     Value memref) {
  Value start = startAfter(b, loc, ValueRange{});
  auto dealloc = gpu::DeallocOp::create(b, loc, start.getType(),
                                        ValueRange{start}, memref);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{dealloc.getAsyncToken()});
}

void mlir::norm::populateGPUAllocToLowerableFormPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DeviceAllocToStream, HostSharedAllocToSync, DeallocToStream>(
      patterns.getContext());
}
