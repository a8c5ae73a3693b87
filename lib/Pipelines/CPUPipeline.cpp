//===- CPUPipeline.cpp - the norm-lower-to-cpu pipeline
//--------------------===//
//
// From a module of norm ops plus upstream linalg/tensor/arith/math/scf/func on
// tensors to the LLVM dialect, runnable with mlir-runner or norm-run. Norm
// ops are compiled by --convert-norm-to-vector (codegen=vector, the default)
// or by --norm-decompose and upstream loops (codegen=upstream, the baseline
// the benchmarks compare against). Rows of large ops run on OpenMP threads,
// so the result needs libomp at run time.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Passes.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Pipelines/Passes.h"
#include "norm/Target/CPUTarget.h"
#include "norm/Transforms/Passes.h"

#include "PipelineSupport.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
/// Norm ops (now on memrefs) to vector code or to linalg. After deallocation
/// on purpose: both free their own temporaries with memref.dealloc, which the
/// ownership-based deallocation refuses to see in its input. The
/// decomposition also catches what the vector patterns leave (strided
/// memrefs).
void addNormLoweringStage(OpPassManager &pm,
                          const NormCPUPipelineOptions &options,
                          const ConvertNormToVectorPassOptions &vectorOptions) {
  if (options.codegen == "vector")
    pm.addPass(createConvertNormToVectorPass(vectorOptions));
  pm.addPass(createNormDecomposePass());
  // The model IR around the norms and matmuls: vector code rather than
  // convert-linalg-to-loops' scalar loops (codegen=upstream keeps those:
  // that baseline is MLIR without this project).
  if (options.codegen == "vector") {
    NormVectorizeElementwisePassOptions elementwiseOptions;
    elementwiseOptions.target = vectorOptions.target;
    elementwiseOptions.parallelThreshold = vectorOptions.parallelThreshold;
    elementwiseOptions.numThreads = vectorOptions.numThreads;
    elementwiseOptions.forkJoinNs = vectorOptions.forkJoinNs;
    elementwiseOptions.coreBytesPerNs = vectorOptions.coreBytesPerNs;
    elementwiseOptions.hostCpu = vectorOptions.hostCpu;
    pm.addNestedPass<func::FuncOp>(
        createNormVectorizeElementwisePass(elementwiseOptions));
  }
}

/// Loops and threads, then everything to the LLVM dialect. bf16/f16
/// conversions are expanded to integer arithmetic so no compiler-rt helper is
/// needed.
void addLLVMStage(OpPassManager &pm, const NormCPUPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  ConvertSCFToOpenMPPassOptions openMPOptions;
  openMPOptions.numThreads = options.numThreads;
  pm.addPass(createConvertSCFToOpenMPPass(openMPOptions));
  // The conversion wraps each parallel iteration in a memref.alloca_scope;
  // the kernels allocate nothing on the stack, so the scopes go (a
  // multi-block scope, as scf-to-cf would make, is invalid). Not left to
  // canonicalization, which keeps a scope around x86 intrinsic calls.
  pm.addPass(createNormInlineAllocaScopesPass());
  pm.addPass(createCanonicalizerPass());
  // One barrier per parallel loop (the join), as Clang emits them.
  pm.addPass(createNormOpenMPLoopNowaitPass());
  // Before lower-affine: subviews (the per-batch views of batch matmuls)
  // expand into affine.apply address arithmetic.
  // expand-strided-metadata crashes on an expand_shape with several
  // dynamic sizes in one group; those become reinterpret_casts first.
  pm.addPass(createNormReinterpretDynamicExpandShapePass());
  // A memref.reshape to a ranked type (tensor.reshape with a shape of
  // known length, as frontends write dynamic views) becomes the
  // reinterpret_cast it is: convert-to-llvm leaves it otherwise.
  pm.addPass(memref::createExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Before arith-expand: the f32 → bf16 rounding with its NaN case chosen in
  // f32 lanes (one blend, where arith-expand's 16-bit select costs four).
  pm.addPass(createNormExpandBF16TruncationPass());
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  expandOptions.includeF4E2M1 = false;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
  ConvertVectorToLLVMPassOptions vectorOptions;
  // Lets the final horizontal sum of a row be a tree, not a chain.
  vectorOptions.reassociateFPReductions = true;
  // The bf16 rounding of AVX512-BF16 targets (x86vector ops).
  vectorOptions.x86Vector = true;
  // The GEMM's packing of an N×K weight transposes L×L register blocks of
  // 32-bit elements. A 16×16 block (AVX-512) becomes 64 two-source
  // shuffles, the unpack/permute network; other sizes become one wide
  // shuffle, which LLVM's x86 back end splits (the default, element-wise,
  // is L² inserts). The single wide shuffle made a 16×16 block about 2×
  // slower to pack (bf16 W 4096×4096, N×K).
  vectorOptions.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // bf16 memory accesses as i16: x86 without AVX512-BF16 would otherwise
  // scalarize bf16 selects and masked accesses (the pass's description).
  pm.addPass(createNormBF16MemoryAsI16Pass());
  // Row tails of one element as plain stores: LLVM 22's x86 back end writes
  // a one-lane truncating masked store too wide on AVX-512 hosts, whatever
  // the target (the pass's description).
  pm.addPass(createNormSingleLaneMaskedStoresPass());
  // LLVM's AVX-512 back end would write the streamed stores of 16-bit rows
  // (bf16 y) as plain stores (the pass's description).
  if (getVectorBitsForTarget(options.target) == 512)
    pm.addPass(createNormX86NontemporalStoresPass());
  pm.addPass(createCanonicalizerPass());
}
} // namespace

LogicalResult mlir::norm::buildNormLowerToCPUPipeline(
    OpPassManager &pm, const NormCPUPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (options.codegen != "vector" && options.codegen != "upstream")
    return errorHandler("norm-lower-to-cpu: codegen must be 'vector' or "
                        "'upstream', got '" +
                        options.codegen + "'");
  if (options.numThreads > kMaxCPUThreads)
    return errorHandler("norm-lower-to-cpu: num-threads must be in [0, " +
                        Twine(kMaxCPUThreads) + "], got " +
                        Twine(options.numThreads));
  if (options.mpiImplementation != "MPICH" &&
      options.mpiImplementation != "OpenMPI")
    return errorHandler("norm-lower-to-cpu: mpi-implementation must be "
                        "'MPICH' or 'OpenMPI', got '" +
                        options.mpiImplementation + "'");
  // The pass's options: the pipeline's own, then the forwarded knobs, which
  // the pass judges (a bad one is an error here, before anything runs).
  ConvertNormToVectorPassOptions vectorOptions;
  vectorOptions.target = options.target;
  vectorOptions.lowerMatmuls = options.lowerMatmuls;
  // The threads the splits run on: the derived parallel-threshold depends
  // on them, and one thread never splits.
  vectorOptions.numThreads = options.numThreads;
  if (failed(forwardPassOptions<ConvertNormToVectorPassOptions>(
          "norm-lower-to-cpu", "vector-options", options.vectorOptions,
          "target, lower-matmuls and num-threads", vectorOptions,
          parseConvertNormToVectorPassOptions,
          verifyConvertNormToVectorPassOptions,
          [](const ConvertNormToVectorPassOptions &a,
             const ConvertNormToVectorPassOptions &b) {
            return a.target == b.target && a.lowerMatmuls == b.lowerMatmuls &&
                   a.numThreads == b.numThreads;
          },
          errorHandler)))
    return failure();
  // A sharded module (DESIGN.md §10) is partitioned and its collectives
  // become MPI calls first, on tensors: partition must see the norm ops
  // whole, before the tensor stage fuses or decomposes anything. Nothing
  // happens without a shard.grid.
  pm.addPass(createNormPartitionShardsPass());
  pm.addPass(createNormLowerShardToMPIPass(
      {/*mpiImplementation=*/options.mpiImplementation}));
  // The project's elementwise fusion keeps matmuls whole, so that
  // lower-matmuls gives them the GEMM; codegen=upstream, the baseline of
  // what MLIR does without this project, keeps upstream's.
  addTensorCleanupStage(pm, /*keepMatmulsWhole=*/options.codegen == "vector");
  addBufferizationStage(pm, /*deviceMemory=*/false);
  // Dynamic rotary angle dims checked against the input's at run time, at
  // each op's site (before outlining shares one kernel between sites).
  pm.addPass(createNormCheckRopeSizesPass());
  // On buffers, before any kernel is generated: each distinct kernel is
  // then generated and lowered once, however many layers repeat it.
  if (options.codegen == "vector" && options.outlineKernels)
    pm.addPass(createNormOutlineKernelsPass());
  addNormLoweringStage(pm, options, vectorOptions);
  addLLVMStage(pm, options);
  pm.addPass(createNormCheckLoweredPass(
      {"norm-lower-to-cpu",
       {"affine", "arith", "bufferization", "cf", "func", "linalg", "math",
        "memref", "mpi", "norm", "scf", "shard", "tensor", "vector"}}));
  return success();
}

void mlir::norm::registerNormPipelines() {
  registerModulePipeline<NormCPUPipelineOptions>(
      "norm-lower-to-cpu",
      "Lower norm ops and upstream tensor-level IR to the LLVM dialect for "
      "CPU execution",
      buildNormLowerToCPUPipeline);
}
