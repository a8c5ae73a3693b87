//===- GPUPipeline.cpp - the norm-lower-to-nvvm pipeline ------------------===//
//
// From model IR (norm ops and upstream linalg/tensor/arith/math on tensors,
// or their memref form on device-accessible buffers) to a gpu.binary of
// NVIDIA kernels plus LLVM-dialect host code that launches them through the
// mgpu* runtime (libnorm_cuda_runtime.so, lib/ExecutionEngine/CudaRuntime):
//
//   (tensors only) norms no GPU kernel takes (rotary angles the row
//     kernels do not index) decomposed, the CPU pipeline's tensor clean-up
//     and bufferization, every buffer made managed memory
//     (Bufferization.cpp)
//   → norm-outline-kernels{min-sites=2}: each kernel op several sites share
//     moved into one function called from each site
//   → convert-norm-to-gpu (norms, fused ops, matmuls with lower-matmuls)
//   → the other linalg ops: convert-linalg-to-parallel-loops,
//     norm-gpu-map-host-loops (an element a thread), convert-parallel-loops-
//     to-gpu → gpu-launch-sink-index-computations
//   → gpu-kernel-outlining → TMA descriptors as !llvm.ptr kernel arguments
//     (TensorMapKernelArgs.cpp) → nvvm-attach-target → norm-gpu-merge-
//     kernels (one gpu.module of each set of equal ones)
//   → (in each gpu.module) norm-lower-bf16-mma-sync, convert-nvgpu-to-nvvm
//     (ldmatrix, mma.sync, cp.async of the fused GEMMs), scf-to-cf,
//     convert-gpu-to-nvvm (with the vector, memref — dynamic shared memory
//     views — arith and math lowerings)
//   → (host; options async-launches / device-intermediates, default on)
//     the dispatch functions inlined, norm-gpu-device-intermediates (the
//     buffers only kernels touch as device memory), norm-gpu-async-launches
//     (a function's GPU ops chained on one stream, waits only where the host
//     needs results)
//   → (host) scf-to-cf, expand-strided-metadata, norm-gpu-async-allocs
//     (gpu.alloc/gpu.dealloc in the forms gpu-to-llvm lowers),
//     convert-nvgpu-to-nvvm on the module (TMA descriptors), gpu-to-llvm
//   → gpu-module-to-binary (PTX from LLVM's NVPTX back end; cubin/fatbin
//     through the CUDA toolkit's ptxas/fatbinary) → convert-to-llvm.
//
// Debian's MLIR 22 has the NVPTX target and the NVVM serialization built in,
// so upstream's gpu-module-to-binary is used as is (docs/design.md, "GPU
// code generation").
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Passes.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Pipelines/Passes.h"
#include "norm/Target/NVIDIATarget.h"
#include "norm/Transforms/Passes.h"

#include "PipelineSupport.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::norm;

#ifndef NORM_CUDA_TOOLKIT_PATH
#define NORM_CUDA_TOOLKIT_PATH ""
#endif

namespace {
/// Whether `module` has a value of tensor type outside its GPU kernels.
bool hasTensors(ModuleOp module) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  WalkResult result = module.walk([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(function.getArgumentTypes(), isTensor) ||
          llvm::any_of(function.getResultTypes(), isTensor))
        return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The tensor-form norms no GPU kernel takes, which become their
/// decomposition (linalg, GPU kernels an element a thread) before
/// bufferization, so that their temporaries are managed memory like every
/// other buffer: rotary angles the row kernels do not index (one run of
/// position dims, then broadcast ones: unsupportedRotaryAnglesReason; HF's
/// [B,1,T,D] over [B,H,T,D]), and a matmul → norm with an input norm (into
/// its norm → matmul and norm) or a rotary embedding (into the matmul and
/// the standalone norm with the rotation, which the row kernels take). The
/// CPU pipeline's norm-decompose catches the same ops after its kernels.
bool noGPUKernelTakes(Operation *op) {
  if (!isa<RMSNormOp, LayerNormOp, MatmulRMSNormOp>(op) ||
      !isa<RankedTensorType>(op->getOperand(0).getType()))
    return false;
  // norm → matmul → norm: the GPU GEMM has no norm prologue with a norm
  // epilogue, nor a rotation in its per-head epilogue; the op becomes the
  // unfused sequence, which the kernels take.
  if (auto fused = dyn_cast<MatmulRMSNormOp>(op))
    return fused.hasInputNorm() || fused.getCos();
  return !unsupportedRotaryAnglesReason(op).empty();
}

LogicalResult decomposeNormsNoGPUKernelTakes(ModuleOp module) {
  SmallVector<linalg::AggregatedOpInterface> unsupported;
  module.walk([&](Operation *op) {
    if (noGPUKernelTakes(op))
      unsupported.push_back(cast<linalg::AggregatedOpInterface>(op));
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::AggregatedOpInterface op : unsupported) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results))
      return op->emitOpError("could not be decomposed into linalg");
    rewriter.replaceOp(op, *results);
  }
  return success();
}

/// Runs the tensor clean-up and bufferization on a module that has tensors,
/// and nothing on one that has none: memref-form input (with its own
/// gpu.alloc and gpu.dealloc, which the deallocation pipeline refuses, and
/// buffers the caller made device-accessible) goes on as it is. Registered
/// too, so that a test can stop before outlining (the GPU emulation runs on
/// gpu.launch) with the pipeline's own bufferization.
struct BufferizeTensorsPass
    : public PassWrapper<BufferizeTensorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BufferizeTensorsPass)

  BufferizeTensorsPass() : stages(ModuleOp::getOperationName()) {
    addTensorCleanupStage(stages, /*keepMatmulsWhole=*/true);
    addBufferizationStage(stages, /*deviceMemory=*/true);
  }
  BufferizeTensorsPass(const BufferizeTensorsPass &other)
      : PassWrapper(other), stages(other.stages) {}

  StringRef getArgument() const override {
    return "norm-lower-to-nvvm-bufferize";
  }
  StringRef getDescription() const override {
    return "norm-lower-to-nvvm's first stage: bufferize a module with "
           "tensors, every buffer managed memory";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    stages.getDependentDialects(registry);
  }
  void runOnOperation() override {
    if (hasTensors(getOperation()) &&
        (failed(decomposeNormsNoGPUKernelTakes(getOperation())) ||
         failed(runPipeline(stages, getOperation()))))
      signalPassFailure();
  }

  OpPassManager stages;
};

/// Norm ops to gpu.launch row kernels, the other linalg ops to one thread
/// an element, outlined into a gpu.module that carries the NVVM target.
void addKernelStage(OpPassManager &pm, const NormNVVMPipelineOptions &options,
                    const ConvertNormToGPUPassOptions &kernelOptions,
                    StringRef features) {
  pm.addPass(createConvertNormToGPUPass(kernelOptions));
  // What convert-norm-to-gpu leaves of linalg (elementwise chains, softmax,
  // transposes, fills, batch matmuls, matmuls without lower-matmuls):
  // upstream's loops, mapped an element a thread. The copies bufferization
  // left join them, rather than run on the host over managed memory.
  pm.addPass(createNormGPUCopiesToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createNormGPUMapHostLoopsPass());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  // The canonicalizer hoists constants out of gpu.launch (not isolated from
  // above); sink them (and dims) back, or outlining makes each a kernel
  // parameter, held in a register for the whole kernel.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // The sm_90a GEMM's TMA descriptors cross the launch as pointers.
  pm.addPass(createNormTensorMapKernelArgsPass());
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = options.chip;
  targetOptions.features = features.str();
  targetOptions.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
  // One gpu.module of each set of equal ones (the same kernel launched
  // from two sites that norm-outline-kernels did not share, e.g. the
  // split-K reduction kernel of two different fused GEMMs with one output
  // shape), before the device stage lowers and compiles each.
  if (options.dedupKernels)
    pm.addPass(createNormGPUMergeKernelsPass());
}

/// The kernels, inside each gpu.module, to the NVVM/LLVM dialects.
void addDeviceStage(OpPassManager &pm) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // The tensor-core GEMMs' nvgpu ops first (bf16 mma.sync by our own
  // pattern: upstream's conversion rejects it).
  device.addPass(createNormLowerBF16MmaSyncPass());
  device.addPass(createConvertNVGPUToNVVMPass());
  // The index arithmetic convert-parallel-loops-to-gpu writes as
  // affine.apply.
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

/// Host code to the LLVM dialect with mgpu* calls, and the gpu.modules to
/// binaries.
void addHostStage(OpPassManager &pm, const NormNVVMPipelineOptions &options) {
  if (options.asyncLaunches || options.deviceIntermediates) {
    // A call is a host op to both: the buffers it takes would stay managed
    // and the chain would wait before it.
    pm.addPass(createNormGPUInlineDispatchPass());
    if (options.deviceIntermediates)
      pm.addPass(createNormGPUDeviceIntermediatesPass());
    if (options.asyncLaunches)
      pm.addPass(createNormGPUAsyncLaunchesPass());
  }
  pm.addPass(createSCFToControlFlowPass());
  // expand-strided-metadata crashes on an expand_shape with several
  // dynamic sizes in one group; those become reinterpret_casts first.
  pm.addPass(createNormReinterpretDynamicExpandShapePass());
  // A memref.reshape to a ranked type (tensor.reshape with a shape of
  // known length, as frontends write dynamic views) becomes the
  // reinterpret_cast it is: convert-to-llvm leaves it otherwise.
  pm.addPass(memref::createExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // gpu-to-llvm leaves synchronous gpu.alloc (device memory) and
  // gpu.dealloc in the host code, as users and tests write them.
  pm.addPass(createNormGPUAsyncAllocsPass());
  // The host's nvgpu.tma.create.descriptor (mgpuTensorMapEncodeTiledMemref).
  // On the whole module, not nested on functions: the conversion declares
  // mgpuTensorMapEncodeTiledMemref in the module, and function passes run
  // in parallel, so two host functions with descriptors could each find it
  // missing and declare it ("redefinition of symbol"). The kernels have no
  // nvgpu ops left by now (the device stage ran), so nothing else changes.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = options.format;
  binaryOptions.toolkitPath = options.toolkit.empty()
                                  ? std::string(NORM_CUDA_TOOLKIT_PATH)
                                  : std::string(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace

LogicalResult mlir::norm::buildNormLowerToNVVMPipeline(
    OpPassManager &pm, const NormNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  // The chip and the PTX level together: LLVM's NVPTX back end aborts on a
  // pair it cannot emit (PTX 8.0 for sm_100, say). The checked level is the
  // chip's default when `features` is empty.
  std::string error;
  std::optional<std::string> features =
      resolvePTXFeatures(options.chip, options.features,
                         [&](const Twine &message) { error = message.str(); });
  if (!features)
    return errorHandler(error);
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin")
    return errorHandler("norm-lower-to-nvvm: format must be 'isa' (PTX), "
                        "'bin' (cubin) or 'fatbin', got '" +
                        format + "'");
  if (options.optLevel > 3)
    return errorHandler("norm-lower-to-nvvm: opt-level must be in [0, 3]");
  // The pass's options: the pipeline's own, then the forwarded knobs, which
  // the pass judges.
  ConvertNormToGPUPassOptions kernelOptions;
  kernelOptions.chip = options.chip;
  kernelOptions.lowerMatmuls = options.lowerMatmuls;
  if (failed(forwardPassOptions<ConvertNormToGPUPassOptions>(
          "norm-lower-to-nvvm", "gpu-options", options.gpuOptions,
          "chip and lower-matmuls", kernelOptions,
          parseConvertNormToGPUPassOptions, verifyConvertNormToGPUPassOptions,
          [](const ConvertNormToGPUPassOptions &a,
             const ConvertNormToGPUPassOptions &b) {
            return a.chip == b.chip && a.lowerMatmuls == b.lowerMatmuls;
          },
          errorHandler)))
    return failure();
  pm.addPass(std::make_unique<BufferizeTensorsPass>());
  // Dynamic rotary angle dims checked against the input's on the host,
  // before the launch, at each op's site.
  pm.addPass(createNormCheckRopeSizesPass());
  // On buffers, before any kernel is generated: a kernel several sites
  // share (a model's repeated layers) gets one dispatch function, so it is
  // generated, outlined to a gpu.module and compiled once. A kernel with
  // one site stays where it is.
  if (options.dedupKernels) {
    NormOutlineKernelsPassOptions outlineOptions;
    outlineOptions.minSites = 2;
    pm.addPass(createNormOutlineKernelsPass(outlineOptions));
  }
  addKernelStage(pm, options, kernelOptions, *features);
  // Nothing after the kernel stage lowers these; checked before the host
  // conversion turns a leftover linalg op's body into llvm ops.
  pm.addPass(createNormCheckLoweredPass(
      {"norm-lower-to-nvvm", {"bufferization", "linalg", "norm", "tensor"}}));
  addDeviceStage(pm);
  addHostStage(pm, options);
  pm.addPass(createNormCheckLoweredPass(
      {"norm-lower-to-nvvm",
       {"affine", "arith", "cf", "func", "math", "memref", "scf", "vector"}}));
  return success();
}

void mlir::norm::registerNormNVVMPipeline() {
  PassRegistration<BufferizeTensorsPass>();
  registerModulePipeline<NormNVVMPipelineOptions>(
      "norm-lower-to-nvvm",
      "Lower norm ops and the linalg/tensor model IR around them (or their "
      "memref form) to NVIDIA GPU kernels (gpu.binary) and host code calling "
      "the mgpu* runtime",
      buildNormLowerToNVVMPipeline);
}
