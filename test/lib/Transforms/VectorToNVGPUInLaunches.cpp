//===- VectorToNVGPUInLaunches.cpp - upstream vector-to-nvgpu, scoped -----===//
//
// Test-only: --norm-test-vector-to-nvgpu-in-launches runs upstream MLIR's
// vector → nvgpu mma.sync conversion (what --convert-vector-to-gpu=
// use-nvgpu=true does) on the bodies of gpu.launch ops only. The upstream
// pass walks the whole module and, in MLIR 22, fails on any scalar
// arith.mulf or arith.muli outside the matmul ("unhandled vector to mma
// type"), which the host code of an execution test is full of.
// test/Integration/GPU/Emulated/mma-sync-layout.mlir uses it to get
// upstream's ldmatrix / mma.sync lane code for the emulator to run.
//
//===----------------------------------------------------------------------===//

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct VectorToNVGPUInLaunchesPass
    : PassWrapper<VectorToNVGPUInLaunchesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorToNVGPUInLaunchesPass)

  StringRef getArgument() const final {
    return "norm-test-vector-to-nvgpu-in-launches";
  }
  StringRef getDescription() const final {
    return "Test only: upstream's vector-to-nvgpu (mma.sync) conversion on "
           "the bodies of gpu.launch ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, gpu::GPUDialect,
                    memref::MemRefDialect, nvgpu::NVGPUDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches) {
      RewritePatternSet patterns(&getContext());
      populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
      if (failed(applyPatternsGreedily(launch.getBody(), std::move(patterns))))
        return signalPassFailure();
      IRRewriter rewriter(&getContext());
      if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, launch)))
        return signalPassFailure();
    }
  }
};

} // namespace

namespace mlir::norm::test {
void registerVectorToNVGPUInLaunchesPass() {
  PassRegistration<VectorToNVGPUInLaunchesPass>();
}
} // namespace mlir::norm::test
