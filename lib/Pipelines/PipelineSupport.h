//===- PipelineSupport.h - what both pipelines share ------------*- C++ -*-===//
//
// The registration of a module pipeline (by hand rather than with
// PassPipelineRegistration, so that a misplaced pipeline, nested under
// func.func where the module passes it adds are not allowed, and a bad
// option are diagnostics instead of fatal errors), and the options a
// pipeline hands its conversion pass: its own user-level values plus the
// tuning knobs it forwards as written, which the pass's parser and checks
// judge, so that each option is declared once; and the tensor stages both
// pipelines run (Bufferization.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_PIPELINES_PIPELINESUPPORT_H
#define NORM_LIB_PIPELINES_PIPELINESUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace norm {

/// How a pipeline adds its passes: nothing, and an error through
/// `errorHandler`, for a bad option.
template <typename OptionsT>
using PipelineBuilder =
    LogicalResult (*)(OpPassManager &pm, const OptionsT &options,
                      function_ref<LogicalResult(const Twine &)> errorHandler);

/// Registers the pipeline `name` on builtin.module, with options `OptionsT`
/// (a PassPipelineOptions) that `build` turns into passes.
template <typename OptionsT>
void registerModulePipeline(StringRef name, StringRef description,
                            PipelineBuilder<OptionsT> build) {
  registerPassPipeline(
      name, description,
      [name, build](OpPassManager &pm, StringRef optionsText,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName() &&
            anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler(name +
                              " runs on 'builtin.module', not nested "
                              "under '" +
                              anchor + "'");
        OptionsT options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        return build(pm, options, errorHandler);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(OptionsT());
      });
}

/// Completes `options`, a conversion pass's options in which the pipeline
/// `pipeline` has set its own values (`ownOptions` names them), with
/// `knobs`, the text of the pipeline's option `knobsOption` forwarded as
/// written: `parse` reads it with the pass's option parser and `verify`
/// checks every value. `sameOwnOptions` tells whether the knobs left the
/// pipeline's own values alone (they are not the knobs' to set). The first
/// problem goes to `errorHandler`, prefixed with the pipeline's name.
template <typename PassOptionsT>
LogicalResult forwardPassOptions(
    StringRef pipeline, StringRef knobsOption, StringRef knobs,
    StringRef ownOptions, PassOptionsT &options,
    LogicalResult (*parse)(StringRef, PassOptionsT &,
                           function_ref<LogicalResult(const Twine &)>),
    LogicalResult (*verify)(const PassOptionsT &,
                            function_ref<void(const Twine &)>),
    bool (*sameOwnOptions)(const PassOptionsT &, const PassOptionsT &),
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  PassOptionsT given = options;
  if (failed(parse(knobs, options, [&](const Twine &message) {
        return errorHandler(pipeline + ": " + knobsOption + ": " + message);
      })))
    return failure();
  if (!sameOwnOptions(given, options))
    return errorHandler(pipeline + ": " + ownOptions +
                        " are options of the pipeline, not of " + knobsOption);
  std::string error;
  if (failed(verify(options, [&](const Twine &message) {
        if (error.empty())
          error = (pipeline + ": " + message).str();
      })))
    return errorHandler(error);
  return success();
}

/// Adds the tensor-level clean-up of model IR: canonicalization, elementwise
/// arith/math on tensors as linalg.generic, named ops generalized, and
/// elementwise fusion, by norm-fuse-elementwise (`keepMatmulsWhole`: the
/// matmuls stay whole for the GEMM kernels) or upstream's.
void addTensorCleanupStage(OpPassManager &pm, bool keepMatmulsWhole);

/// Adds one-shot bufferization (norm ops bufferize to their memref form)
/// with ownership-based deallocation. With `deviceMemory`, every buffer of
/// a host function is made GPU-accessible: globals copied into allocations,
/// allocations as managed memory.
void addBufferizationStage(OpPassManager &pm, bool deviceMemory);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_PIPELINES_PIPELINESUPPORT_H
