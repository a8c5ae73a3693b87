//===- CopiesToLinalg.cpp - host memref.copy ops as linalg.copy -----------===//
//
// norm-gpu-copies-to-linalg: the copies bufferization leaves in host code
// become linalg.copy, so that --norm-lower-to-nvvm makes them kernels like
// every other linalg op instead of host loops over managed memory.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUCOPIESTOLINALGPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `buffer` is (a view of) a gpu.alloc, which a kernel can read and
/// write. A host buffer (memref.alloc, a global, an argument the caller may
/// have allocated on the host) keeps its copy on the host.
bool isGPUAllocated(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (isa<gpu::AllocOp>(def))
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    buffer = view.getViewSource();
  }
  return false;
}

struct NormGPUCopiesToLinalgPass
    : norm::impl::NormGPUCopiesToLinalgPassBase<NormGPUCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      // Device code copies are the kernels' own business.
      if (copy->getParentOfType<gpu::LaunchOp>() ||
          copy->getParentOfType<gpu::GPUModuleOp>())
        return;
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      // A rank-0 copy is one element: a kernel launch would cost more.
      if (!source || !target || source.getRank() == 0 ||
          !isGPUAllocated(copy.getSource()) ||
          !isGPUAllocated(copy.getTarget()))
        return;
      copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
