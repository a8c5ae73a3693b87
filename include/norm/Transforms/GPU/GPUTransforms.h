//===- GPUTransforms.h - GPU IR in the forms MLIR 22 lowers ----*- C++ -*-===//
//
// The patterns and builders of NormGPUTransforms (lib/Transforms/GPU): GPU
// IR that MLIR 22's own lowerings reject (bf16 nvgpu.mma.sync, gpu.alloc
// forms gpu-to-llvm leaves alone), put in forms they accept. The passes are
// in norm/Transforms/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_GPU_GPUTRANSFORMS_H
#define NORM_TRANSFORMS_GPU_GPUTRANSFORMS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Adds the pattern that rewrites bf16 nvgpu.mma.sync (m16n8k16, f32
/// accumulator) into nvvm.mma.sync, which MLIR 22's NVGPU-to-NVVM
/// conversion does not do.
void populateBF16MmaSyncToNVVMPatterns(RewritePatternSet &patterns);

/// Adds the patterns that put every gpu.alloc and gpu.dealloc in the one
/// form MLIR 22's gpu-to-llvm lowers: device memory and deallocations async
/// with exactly one dependency (a synchronous op becomes `gpu.wait async` →
/// the async op → a blocking `gpu.wait`, so it still completes before the
/// host goes on), managed memory (`host_shared`) synchronous, without
/// dependencies. `--norm-gpu-async-allocs`; `--norm-lower-to-nvvm` runs it
/// before gpu-to-llvm.
void populateGPUAllocToLowerableFormPatterns(RewritePatternSet &patterns);

/// A device buffer (`gpu.alloc`, no `host_shared`) of `type`, allocated
/// before the host goes on, in the form gpu-to-llvm lowers (see
/// `populateGPUAllocToLowerableFormPatterns`).
Value createDeviceAlloc(OpBuilder &b, Location loc, MemRefType type,
                        ValueRange dynamicSizes);

/// Frees `memref` (a `gpu.alloc` buffer) before the host goes on, in the form
/// gpu-to-llvm lowers. Kernels still reading it must have completed: the
/// synchronous `gpu.launch_func` ops of `--norm-lower-to-nvvm` have.
void createDeviceDealloc(OpBuilder &b, Location loc, Value memref);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_GPU_GPUTRANSFORMS_H
