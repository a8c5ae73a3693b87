//===- GPURowKernel.h - GPU row kernels for the norm ops --------*- C++ -*-===//
//
// Private to NormToGPU: one standalone norm seen as rows of n contiguous
// elements, the shape of the kernel that computes it, and the emitter that
// writes the gpu.launch.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H

#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// One standalone norm with every buffer viewed as rows of `n` contiguous
/// elements: x, residual, y and sum as memref<R x n>, γ and β as memref<n>,
/// mean and rstd as memref<R>. Absent operands are null.
struct GPURowNormProblem {
  bool isLayerNorm = false;
  Value x, residual, weight, bias;
  Value y, sum, mean, rstd;
  Value rows, n;             // index values
  std::optional<int64_t> staticN;
  FloatType accType;
  double epsilon = 0.0;
  double weightOffset = 0.0;
  double partial = 1.0; // RMSNorm only
  CastMode castMode = CastMode::after_weight;
  EpsMode epsMode = EpsMode::inside_sqrt;

  Type elementType() const {
    return cast<MemRefType>(x.getType()).getElementType();
  }
};

/// The shape of one kernel: `threadsPerRow` threads (a multiple of the warp
/// size) cooperate on a row, `rowsPerBlock` rows share a thread block, each
/// thread accesses `vectorWidth` contiguous elements at a time (a chunk), and
/// with `heldChunks` > 0 each thread keeps its `heldChunks` chunks of the row
/// in registers between the sweeps (else every sweep is a loop that re-reads
/// the row).
struct GPURowKernelShape {
  int64_t threadsPerRow = 32;
  int64_t rowsPerBlock = 8;
  int64_t vectorWidth = 1;
  int64_t heldChunks = 0;
};

/// Emits a gpu.launch computing `problem` with `shape` at the builder's
/// insertion point. Requires rows ≥ 1 at run time and, when vectorWidth > 1,
/// n % vectorWidth == 0 and row buffers aligned to vectorWidth elements.
void emitGPURowKernel(OpBuilder &b, Location loc,
                      const GPURowNormProblem &problem,
                      const GPURowKernelShape &shape);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H
