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

/// Options of `norm-lower-to-cpu`. None yet: the norm ops go through the
/// decomposition; the vector code generation will add the target and
/// threading options here.
struct NormCPUPipelineOptions
    : public PassPipelineOptions<NormCPUPipelineOptions> {};

/// Adds the passes of `norm-lower-to-cpu` to `pm` (a module pass manager).
void buildNormLowerToCPUPipeline(OpPassManager &pm,
                                 const NormCPUPipelineOptions &options);

/// Registers `norm-lower-to-cpu` with the global pipeline registry.
void registerNormPipelines();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PASSES_H
