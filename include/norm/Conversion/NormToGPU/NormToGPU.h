//===- NormToGPU.h - norm ops to GPU kernels --------------------*- C++ -*-===//
//
// The NVIDIA GPU code generation of the standalone norm ops: each memref-form
// norm.rms_norm / norm.layer_norm becomes a gpu.launch of a row kernel (a
// warp, a few warps or a block per row; DESIGN.md §5, GPU). See
// docs/design.md, "GPU code generation", for the kernel shapes and numerics.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
#define NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;

namespace norm {

/// How the row kernels are shaped.
struct NormGPUCodegenOptions {
  /// Rows of at least this many elements get a whole thread block (512
  /// threads); shorter rows get the fewest warps (1, 2, 4, ... 16) that keep
  /// the row in registers, or one warp when the row length is dynamic.
  int64_t blockRowThreshold = 65536;
  /// At most this many elements of a row are held in each thread's
  /// registers between the statistics and the normalize sweep; rows that
  /// need more are re-read (from L1/L2). 0: never hold.
  int64_t maxRegisterElements = 32;
};

/// Adds the patterns that replace memref-form `norm.rms_norm` and
/// `norm.layer_norm` with identity layouts by `gpu.launch` row kernels. The
/// memrefs must be accessible from the device (gpu.alloc, managed or
/// host-registered memory). Ops on tensors or strided memrefs, and the fused
/// norm/matmul ops, are left alone.
void populateNormToGPUConversionPatterns(RewritePatternSet &patterns,
                                         const NormGPUCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
