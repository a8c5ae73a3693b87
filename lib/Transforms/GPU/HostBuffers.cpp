//===- HostBuffers.cpp - host functions' buffers made GPU-accessible -----===//
//
// Two passes that make every buffer a host function uses readable by GPU
// kernels, for a function compiled whole for the GPU (norm-run
// --target=cuda runs them between one-shot bufferization and
// norm-lower-to-nvvm): norm-gpu-copy-globals copies each global (host
// memory) into an allocated buffer, norm-gpu-host-shared-allocs makes every
// allocation managed memory (gpu.alloc host_shared).
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUCOPYGLOBALSPASS
#define GEN_PASS_DEF_NORMGPUHOSTSHAREDALLOCSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Replaces every memref.get_global of a function by a fresh memref.alloc
/// holding a copy (memref.copy) of the global: a global lives in host
/// memory, where a kernel cannot read it.
struct NormGPUCopyGlobalsPass
    : public norm::impl::NormGPUCopyGlobalsPassBase<NormGPUCopyGlobalsPass> {
  void runOnOperation() override {
    SmallVector<memref::GetGlobalOp> globals;
    for (auto func : getOperation().getOps<func::FuncOp>())
      func.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp op : globals) {
      MemRefType type = op.getType();
      if (!type.getLayout().isIdentity() || !type.hasStaticShape()) {
        op.emitError("norm-gpu-copy-globals: cannot copy a constant of type ")
            << type << " into GPU-accessible memory";
        return signalPassFailure();
      }
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      // The result of memref.get_global has no memory space; keep the type.
      Value copy = memref::AllocOp::create(b, op.getLoc(), type);
      auto copyOp =
          memref::CopyOp::create(b, op.getLoc(), op.getResult(), copy);
      op.getResult().replaceAllUsesExcept(copy, copyOp);
    }
  }
};

/// Makes every buffer a host function allocates managed memory:
/// memref.alloc → gpu.alloc host_shared (mgpuMemAlloc, cuMemAllocManaged)
/// and memref.dealloc → gpu.dealloc (mgpuMemFree; synchronous, which
/// norm-gpu-async-allocs puts in the async form that gpu-to-llvm lowers).
/// After the deallocation pipeline, every alloc and dealloc is rewritten and
/// the two always match.
struct NormGPUHostSharedAllocsPass
    : public norm::impl::NormGPUHostSharedAllocsPassBase<
          NormGPUHostSharedAllocsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      func.walk([&](memref::AllocOp op) { allocs.push_back(op); });
      func.walk([&](memref::DeallocOp op) { deallocs.push_back(op); });
    }
    for (memref::AllocOp op : allocs) {
      OpBuilder b(op);
      auto alloc = gpu::AllocOp::create(
          b, op.getLoc(), op.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), op.getDynamicSizes(),
          op.getSymbolOperands(), /*hostShared=*/true);
      op.getResult().replaceAllUsesWith(alloc.getMemref());
      op.erase();
    }
    for (memref::DeallocOp op : deallocs) {
      OpBuilder b(op);
      gpu::DeallocOp::create(b, op.getLoc(), /*asyncToken=*/Type(),
                             ValueRange(), op.getMemref());
      op.erase();
    }
  }
};

} // namespace
