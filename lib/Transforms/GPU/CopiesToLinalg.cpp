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

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUCOPIESTOLINALGPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

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
      if (!source || !target || source.getRank() == 0)
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
