//===- Passes.h - norm-mlir pass pipelines ----------------------*- C++ -*-===//
//
// End-to-end pipelines: `norm-lower-to-cpu` takes a module of norm ops plus
// upstream linalg/tensor/arith/math/scf/func on tensors to the LLVM dialect;
// `norm-lower-to-nvvm` takes memref-form norm ops to NVIDIA GPU kernels
// (gpu.binary) and host code calling the mgpu* runtime.
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
  PassOptions::Option<bool> lowerMatmuls{
      *this, "lower-matmuls",
      llvm::cl::desc("With codegen=vector, compile linalg matmuls with an f32 C with "
                     "the project's packed GEMM (else upstream loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> gemmTileRows{
      *this, "gemm-tile-rows",
      llvm::cl::desc("Fused GEMM micro-tile rows (0: target default)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmTileVectors{
      *this, "gemm-tile-vectors",
      llvm::cl::desc("Fused GEMM vectors per micro-tile row (0: default)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmBlockK{
      *this, "gemm-block-k",
      llvm::cl::desc("Fused GEMM K block (0: default)"), llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmBlockM{
      *this, "gemm-block-m",
      llvm::cl::desc("Fused GEMM M block (0: default)"), llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmBlockN{
      *this, "gemm-block-n",
      llvm::cl::desc("Fused GEMM columns per thread task (0: default)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmUnroll{
      *this, "gemm-unroll",
      llvm::cl::desc("Fused GEMM k steps per micro-kernel iteration (0: "
                     "default)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmGemvRows{
      *this, "gemm-gemv-rows",
      llvm::cl::desc("Fused GEMM: up to this many rows, stream W through the "
                     "GEMV kernel (0: default; -1: never)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> gemmBF16Dot{
      *this, "gemm-bf16-dot",
      llvm::cl::desc("Fused GEMM: bf16 RMSNorm/plain GEMMs use AVX512-BF16 "
                     "dot products (vdpbf16ps) where the target has them"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("Prefetch the next row's input while normalizing the "
                     "current one"),
      llvm::cl::init(true)};
};

/// Options of `norm-lower-to-nvvm`.
struct NormNVVMPipelineOptions
    : public PassPipelineOptions<NormNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture, sm_70 or newer (sm_80: A100, sm_90: "
                     "H100, sm_100: B200, sm_120: RTX 50xx), as LLVM's "
                     "NVPTX back end names it (also sm_90a, sm_100a, "
                     "sm_100f, ...)"),
      llvm::cl::init("sm_90")};
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
  PassOptions::Option<int64_t> blockRowThreshold{
      *this, "block-row-threshold",
      llvm::cl::desc("Rows of at least this many elements get a whole "
                     "thread block"),
      llvm::cl::init(65536)};
  PassOptions::Option<int64_t> registerElements{
      *this, "register-elements",
      llvm::cl::desc("Row elements each thread may hold in registers "
                     "between the sweeps (0 to 128)"),
      llvm::cl::init(32)};
  PassOptions::Option<bool> lowerMatmuls{
      *this, "lower-matmuls",
      llvm::cl::desc("Also run memref linalg.matmuls with an f32 C on the "
                     "GEMM kernel (convert-norm-to-gpu's lower-matmuls)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> maxSplitK{
      *this, "max-split-k",
      llvm::cl::desc("The most K slices of a split-K fused GEMM, for "
                     "outputs too small to fill the GPU (1 to 64; 1: never "
                     "split)"),
      llvm::cl::init(16)};
};

/// Adds the passes of `norm-lower-to-nvvm` to `pm` (a module pass manager).
void buildNormLowerToNVVMPipeline(OpPassManager &pm,
                                  const NormNVVMPipelineOptions &options);

/// Adds the passes of `norm-lower-to-cpu` to `pm` (a module pass manager).
void buildNormLowerToCPUPipeline(OpPassManager &pm,
                                 const NormCPUPipelineOptions &options);

/// Registers `norm-lower-to-cpu` with the global pipeline registry.
void registerNormPipelines();

/// Registers `norm-lower-to-nvvm` with the global pipeline registry
/// (mlir::norm::registerAllPasses calls both).
void registerNormNVVMPipeline();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PASSES_H
