//===- MapHostLoops.cpp - host scf.parallel loops onto blocks and threads -===//
//
// norm-gpu-map-host-loops: the loops that the linalg ops around the norms
// (elementwise chains, softmax, transposes, matmuls the GEMM does not take)
// become on the host, collapsed, tiled and mapped one element a thread, so
// that upstream's convert-parallel-loops-to-gpu makes them kernels.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUMAPHOSTLOOPSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `loop` mapped to `processor` (one dimension) or run sequentially (every
/// dimension).
void mapLoop(scf::ParallelOp loop, std::optional<gpu::Processor> processor) {
  MLIRContext *context = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
      loop.getNumLoops(),
      gpu::ParallelLoopDimMappingAttr::get(
          context, processor.value_or(gpu::Processor::Sequential), identity,
          identity));
  // Cannot fail: one attribute a dimension, each processor at most once.
  (void)gpu::setMappingAttr(loop, mapping);
}

struct NormGPUMapHostLoopsPass
    : public norm::impl::NormGPUMapHostLoopsPassBase<NormGPUMapHostLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation()->emitError()
          << "norm-gpu-map-host-loops: block-size must be in [1, 1024], got "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    // The outermost host loops: those in kernels already run on the GPU.
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->getParentOfType<gpu::LaunchOp>() ||
          loop->getParentOfType<gpu::GPUModuleOp>() ||
          loop.getNumReductions() != 0 ||
          loop->hasAttr(gpu::getMappingAttrName()))
        return;
      loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      // One dimension, so that any shape fills whole blocks and the grid
      // has no per-dimension limit to meet (y and z stop at 65535).
      if (loop.getNumLoops() > 1) {
        std::vector<unsigned> dims(loop.getNumLoops());
        std::iota(dims.begin(), dims.end(), 0);
        Operation *next = loop->getNextNode();
        collapseParallelLoops(rewriter, loop, {dims});
        loop = cast<scf::ParallelOp>(next->getPrevNode());
      }
      // Constant in-tile bounds (a guard for the tail instead of a min):
      // the launch's block size.
      scf::ParallelOp blocks, threads;
      std::tie(blocks, threads) =
          scf::tileParallelLoop(loop, {blockSize}, /*noMinMaxBounds=*/true);
      mapLoop(blocks, gpu::Processor::BlockX);
      mapLoop(threads, gpu::Processor::ThreadX);
      threads->walk([&](scf::ParallelOp nested) {
        if (nested != threads)
          mapLoop(nested, std::nullopt);
      });
    }
  }
};

} // namespace
