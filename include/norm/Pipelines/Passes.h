//===- Passes.h - norm-mlir pass pipelines ----------------------*- C++ -*-===//
//
// End-to-end pipelines: `norm-lower-to-cpu` takes a module of norm ops plus
// upstream linalg/tensor/arith/math/scf/func on tensors to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_PIPELINES_PASSES_H
#define NORM_PIPELINES_PASSES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace norm {

struct NormCPUPipelineOptions
    : public PassPipelineOptions<NormCPUPipelineOptions> {
  PassOptions::Option<bool> decompose{
      *this, "decompose",
      llvm::cl::desc("Lower norm ops through --norm-decompose (the upstream "
                     "linalg path). Only path available so far."),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize the decomposed linalg ops with upstream "
                     "linalg vectorization before lowering to loops"),
      llvm::cl::init(false)};
};

/// Adds the passes of `norm-lower-to-cpu` to `pm` (a module pass manager).
void buildNormLowerToCPUPipeline(OpPassManager &pm,
                                 const NormCPUPipelineOptions &options);

/// Registers `norm-lower-to-cpu` with the global pipeline registry.
void registerNormPipelines();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PASSES_H
