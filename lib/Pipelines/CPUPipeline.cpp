//===- CPUPipeline.cpp - the norm-lower-to-cpu pipeline --------------------===//
//
// From a module of norm ops plus upstream linalg/tensor/arith/math/scf/func on
// tensors to the LLVM dialect, runnable with mlir-runner. For now the norm ops
// go through --norm-decompose; the project's own vector code generation will
// replace that stage under the same pipeline name.
//
//===----------------------------------------------------------------------===//

#include "norm/Pipelines/Passes.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
/// Upstream tensor-level clean-up of the surrounding model IR.
void addTensorCleanupStage(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createLinalgGeneralizeNamedOpsPass());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
}

/// Tensors to buffers (norm ops included: they bufferize to their memref
/// form), with ownership-based deallocation.
void addBufferizationStage(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Model IR loops over layers with the hidden state loop-carried; a norm
  // whose outs is a fresh tensor.empty yields a new buffer each iteration.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOptions);
}

/// Norm ops (now on memrefs) to linalg. After deallocation on purpose: the
/// decomposition frees its own temporaries with memref.dealloc, which the
/// ownership-based deallocation refuses to see in its input.
void addNormLoweringStage(OpPassManager &pm) {
  pm.addPass(createNormDecomposePass());
}

/// Loops, then everything to the LLVM dialect. bf16/f16 conversions are
/// expanded to integer arithmetic so no compiler-rt helper is needed.
void addLLVMStage(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  expandOptions.includeF4E2M1 = false;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}
} // namespace

void mlir::norm::buildNormLowerToCPUPipeline(
    OpPassManager &pm, const NormCPUPipelineOptions &options) {
  addTensorCleanupStage(pm);
  addBufferizationStage(pm);
  addNormLoweringStage(pm);
  addLLVMStage(pm);
}

void mlir::norm::registerNormPipelines() {
  // Registered by hand rather than with PassPipelineRegistration so that a
  // misplaced pipeline (e.g. nested under func.func, where the module passes
  // it adds are not allowed) is a diagnostic instead of a fatal error.
  registerPassPipeline(
      "norm-lower-to-cpu",
      "Lower norm ops and upstream tensor-level IR to the LLVM dialect for "
      "CPU execution",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName() &&
            anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler("norm-lower-to-cpu runs on 'builtin.module', "
                              "not nested under '" +
                              anchor + "'");
        NormCPUPipelineOptions options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        buildNormLowerToCPUPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionHandler) {
        optionHandler(NormCPUPipelineOptions());
      });
}
