//===- DeviceIntermediates.cpp - GPU-only buffers made device memory ------===//
//
// norm-gpu-device-intermediates: the managed buffers (gpu.alloc host_shared)
// of a host function that no host op touches become device memory
// (gpu.alloc), so the kernels that pass them along read and write them
// without the driver's page migration.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUDEVICEINTERMEDIATESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// Whether every use of `buffer`, followed through its views, is on the GPU
/// or reads only its address and shape. Anything else (a host load, store
/// or copy, a call, a branch or yield operand, the return) may read or
/// write its elements on the host, which device memory does not allow.
bool onlyGPUTouches(Value buffer) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<gpu::LaunchFuncOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
            nvgpu::TmaCreateDescriptorOp, memref::DimOp,
            memref::ExtractStridedMetadataOp,
            memref::ExtractAlignedPointerAsIndexOp>(user))
      continue;
    // A view (or cast) aliases the buffer: its uses are the buffer's.
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    bool isView = (view && view.getViewSource() == use.get()) ||
                  isa<memref::CastOp>(user);
    if (!isView || !llvm::all_of(user->getResults(), onlyGPUTouches))
      return false;
  }
  return true;
}

struct NormGPUDeviceIntermediatesPass
    : norm::impl::NormGPUDeviceIntermediatesPassBase<
          NormGPUDeviceIntermediatesPass> {
  void runOnOperation() override {
    SmallVector<gpu::AllocOp> allocs;
    getOperation()->walk([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      auto alloc = dyn_cast<gpu::AllocOp>(op);
      // Only the synchronous form bufferization writes; an async one
      // belongs to whoever chained it.
      if (alloc && alloc.getHostShared() && !alloc.getAsyncToken() &&
          alloc.getAsyncDependencies().empty() &&
          onlyGPUTouches(alloc.getMemref()))
        allocs.push_back(alloc);
      return WalkResult::advance();
    });
    // Synchronous device allocations are what norm-gpu-async-allocs (or
    // norm-gpu-async-launches) put in the form gpu-to-llvm lowers.
    for (gpu::AllocOp alloc : allocs)
      alloc.setHostShared(false);
  }
};

} // namespace
