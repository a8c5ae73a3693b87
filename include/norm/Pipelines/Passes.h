//===- Passes.h - norm-mlir pass pipelines ----------------------*- C++ -*-===//
//
// End-to-end pipelines: `norm-lower-to-cpu` takes a module of norm ops plus
// upstream linalg/tensor/arith/math/scf/func on tensors to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_PIPELINES_PASSES_H
#define NORM_PIPELINES_PASSES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace norm {

/// Options of `norm-lower-to-cpu`.
struct NormCPUPipelineOptions
    : public PassPipelineOptions<NormCPUPipelineOptions> {
  PassOptions::Option<std::string> codegen{
      *this, "codegen",
      llvm::cl::desc("How norm ops are compiled: 'vector' (the project's "
                     "vector kernels) or 'upstream' (--norm-decompose into "
                     "linalg, then upstream MLIR's loops and LLVM's "
                     "auto-vectorizer: what MLIR gives without this project)"),
      llvm::cl::init("vector")};
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Vector ISA: host, avx512, avx512-bf16, avx2 or generic "
                     "(128-bit)"),
      llvm::cl::init("host")};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("OpenMP threads for large ops (0: the OpenMP default, "
                     "e.g. OMP_NUM_THREADS or all cores)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> accumulators{
      *this, "accumulators",
      llvm::cl::desc("Independent vector accumulators per row statistic"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> parallelThreshold{
      *this, "parallel-threshold",
      llvm::cl::desc("Bytes an op must touch to run on several threads "
                     "(-1: never)"),
      llvm::cl::init(int64_t(1) << 20)};
  PassOptions::Option<int64_t> streamingThreshold{
      *this, "streaming-threshold",
      llvm::cl::desc("Output bytes from which stores bypass the cache (0: "
                     "the host's last-level cache size; -1: never)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> pipelineRows{
      *this, "pipeline-rows",
      llvm::cl::desc("Gather row r+1's statistics during row r's normalize "
                     "sweep"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("Prefetch the next row's input while normalizing the "
                     "current one"),
      llvm::cl::init(true)};
};

/// Adds the passes of `norm-lower-to-cpu` to `pm` (a module pass manager).
void buildNormLowerToCPUPipeline(OpPassManager &pm,
                                 const NormCPUPipelineOptions &options);

/// Registers `norm-lower-to-cpu` with the global pipeline registry.
void registerNormPipelines();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PASSES_H
