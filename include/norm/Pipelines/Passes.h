//===- Passes.h - norm-mlir pass pipelines ----------------------*- C++ -*-===//
//
// End-to-end pipelines: `norm-lower-to-cpu` takes a module of norm ops plus
// upstream linalg/tensor/arith/math/scf/func on tensors to the LLVM dialect;
// `norm-lower-to-nvvm` takes the same IR (or its memref form) to NVIDIA GPU
// kernels (gpu.binary) and host code calling the mgpu* runtime.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_PIPELINES_PASSES_H
#define NORM_PIPELINES_PASSES_H

#include "norm/Conversion/Passes.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace norm {

/// Options of `norm-lower-to-cpu`: what a user chooses. The defaults of the
/// options convert-norm-to-vector also has (target, lower-matmuls) are the
/// pass's; its tuning knobs (accumulators, thresholds, gemm-*) are forwarded
/// as `vector-options`, parsed by the pass's own options.
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
                     "(128-bit), as convert-norm-to-vector's target"),
      llvm::cl::init(ConvertNormToVectorPassOptions().target)};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("OpenMP threads for large ops (0: the OpenMP default, "
                     "e.g. OMP_NUM_THREADS or all cores)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> lowerMatmuls{
      *this, "lower-matmuls",
      llvm::cl::desc("With codegen=vector, compile linalg matmuls with an f32 "
                     "C with the project's packed GEMM (else upstream loops), "
                     "as convert-norm-to-vector's lower-matmuls"),
      llvm::cl::init(ConvertNormToVectorPassOptions().lowerMatmuls)};
  PassOptions::Option<std::string> vectorOptions{
      *this, "vector-options",
      llvm::cl::desc("With codegen=vector, more options of "
                     "convert-norm-to-vector, forwarded to it as written, "
                     "e.g. vector-options={accumulators=8 gemm-gemv-rows=4}; "
                     "its parallel-threshold also applies to the elementwise "
                     "code"),
      llvm::cl::init("")};
  PassOptions::Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("With codegen=vector, emit each distinct kernel (norm, "
                     "matmul, elementwise op) once as a function called from "
                     "every site (norm-outline-kernels), so that repeated "
                     "layers are compiled once"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> mpiImplementation{
      *this, "mpi-implementation",
      llvm::cl::desc("For a module with a shard.grid: the MPI ABI its "
                     "collectives are lowered to when the module does not "
                     "say (a DLTI \"MPI:Implementation\" entry): MPICH (the "
                     "default) or OpenMPI, as norm-lower-shard-to-mpi's"),
      llvm::cl::init(NormLowerShardToMPIPassOptions().mpiImplementation)};
};

/// Options of `norm-lower-to-nvvm`: what a user chooses. The defaults of the
/// options convert-norm-to-gpu also has (chip, lower-matmuls) are the pass's;
/// its tuning knobs (block-row-threshold, register-elements, max-split-k)
/// are forwarded as `gpu-options`, parsed by the pass's own options.
struct NormNVVMPipelineOptions
    : public PassPipelineOptions<NormNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture, sm_70 or newer (sm_80: A100, sm_90: "
                     "H100, sm_100: B200, sm_120: RTX 50xx), as LLVM's "
                     "NVPTX back end names it (also sm_90a, sm_100a, "
                     "sm_100f, ...)"),
      llvm::cl::init(ConvertNormToGPUPassOptions().chip)};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA level for LLVM's NVPTX back end, e.g. +ptx80 "
                     "(PTX ISA 8.0); at least the chip's minimum (sm_80: "
                     "+ptx70, sm_90: +ptx78, sm_100: +ptx86, sm_120: "
                     "+ptx87). Empty (the default): +ptx80, or the chip's "
                     "minimum where that is higher"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel format in the gpu.binary: 'isa' (PTX text, "
                     "JIT-compiled by the driver), 'bin' (cubin from the "
                     "CUDA toolkit's ptxas) or 'fatbin'"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root whose ptxas/fatbinary make "
                     "cubin/fatbin (default: the toolkit found at build "
                     "time; then PATH)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX back end (0 to 3)"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> lowerMatmuls{
      *this, "lower-matmuls",
      llvm::cl::desc("Also run memref linalg.matmuls with an f32 C on the "
                     "GEMM kernel, as convert-norm-to-gpu's lower-matmuls"),
      llvm::cl::init(ConvertNormToGPUPassOptions().lowerMatmuls)};
  PassOptions::Option<std::string> gpuOptions{
      *this, "gpu-options",
      llvm::cl::desc("More options of convert-norm-to-gpu, forwarded to it "
                     "as written, e.g. gpu-options={max-split-k=1 "
                     "register-elements=0}"),
      llvm::cl::init("")};
  PassOptions::Option<bool> dedupKernels{
      *this, "dedup-kernels",
      llvm::cl::desc("Generate each kernel that several sites share (norm, "
                     "fused GEMM, gradient, linalg op) once, as a function "
                     "called from every site (norm-outline-kernels with "
                     "min-sites=2): one gpu.binary per distinct kernel, so "
                     "that repeated layers are compiled once"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> asyncLaunches{
      *this, "async-launches",
      llvm::cl::desc("Queue each host function's kernels, allocations and "
                     "frees on one stream and wait only where the host "
                     "needs their results (norm-gpu-async-launches), "
                     "instead of a stream created and synchronized around "
                     "each launch"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> deviceIntermediates{
      *this, "device-intermediates",
      llvm::cl::desc("Allocate the buffers only kernels touch as device "
                     "memory instead of managed memory "
                     "(norm-gpu-device-intermediates)"),
      llvm::cl::init(true)};
};

/// Adds the passes of `norm-lower-to-nvvm` to `pm` (a module pass manager);
/// a bad option is reported through `errorHandler`, and nothing is added.
LogicalResult buildNormLowerToNVVMPipeline(
    OpPassManager &pm, const NormNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Adds the passes of `norm-lower-to-cpu` to `pm` (a module pass manager);
/// a bad option is reported through `errorHandler`, and nothing is added.
LogicalResult buildNormLowerToCPUPipeline(
    OpPassManager &pm, const NormCPUPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Registers `norm-lower-to-cpu` with the global pipeline registry.
void registerNormPipelines();

/// Registers `norm-lower-to-nvvm` with the global pipeline registry
/// (mlir::norm::registerAllPasses calls both).
void registerNormNVVMPipeline();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PASSES_H
