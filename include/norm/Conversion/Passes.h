//===- Passes.h - norm-mlir conversion passes -------------------*- C++ -*-===//

#ifndef NORM_CONVERSION_PASSES_H
#define NORM_CONVERSION_PASSES_H

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/NormToVector/NormToVector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_DECL
#include "norm/Conversion/Passes.h.inc"

/// Parses `text`, options of convert-norm-to-vector as a pass pipeline
/// writes them (`accumulators=8 gemm-gemv-rows=4`), into `options` with the
/// pass's own option parser: the options `text` names are set, the others
/// keep their value. A pipeline forwards its tuning knobs this way; an
/// unknown option or a bad value is reported through `errorHandler`.
LogicalResult parseConvertNormToVectorPassOptions(
    StringRef text, ConvertNormToVectorPassOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Checks the values of convert-norm-to-vector's options (the target, the
/// accumulator count, the GEMM's tile and block sizes), reporting each bad
/// one through `emitError` (a message without the pass's name).
LogicalResult verifyConvertNormToVectorPassOptions(
    const ConvertNormToVectorPassOptions &options,
    function_ref<void(const Twine &)> emitError);

/// Parses `text` into convert-norm-to-gpu's `options`, as
/// parseConvertNormToVectorPassOptions does for the CPU.
LogicalResult parseConvertNormToGPUPassOptions(
    StringRef text, ConvertNormToGPUPassOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Checks the values of convert-norm-to-gpu's options (the chip, the row
/// kernels' thresholds, the split-K limit), reporting each bad one through
/// `emitError` (a message without the pass's name).
LogicalResult
verifyConvertNormToGPUPassOptions(const ConvertNormToGPUPassOptions &options,
                                  function_ref<void(const Twine &)> emitError);

#define GEN_PASS_REGISTRATION
#include "norm/Conversion/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_PASSES_H
