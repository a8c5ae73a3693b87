//===- Passes.h - norm-mlir passes over upstream IR -------------*- C++ -*-===//
//
// The passes of include/norm/Transforms/Passes.td: they transform upstream
// dialects' IR (vectorizing linalg, adapting GPU IR to MLIR 22's lowerings,
// making bufferization deterministic, emitting each distinct kernel once,
// checking what a pipeline left), one library a job: NormVectorize,
// NormGPUTransforms, NormBufferizeTransforms, NormOutline, NormCheckLowered.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_PASSES_H
#define NORM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_DECL
#include "norm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "norm/Transforms/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_PASSES_H
