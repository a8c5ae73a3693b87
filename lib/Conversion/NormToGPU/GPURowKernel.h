//===- GPURowKernel.h - GPU row kernels for the norm ops --------*- C++ -*-===//
//
// Private to NormToGPU: one standalone norm seen as rows of n contiguous
// elements (a row stride apart), the shape of the kernel that computes it,
// and the emitter that writes the gpu.launch; the gradients' launches.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H

#include "norm/Conversion/Utils/GradProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// The shape of one kernel: `threadsPerRow` threads (a multiple of the warp
/// size) cooperate on a row, `rowsPerBlock` rows share a thread block, each
/// thread accesses `vectorWidth` contiguous elements at a time (a chunk), and
/// with `heldChunks` > 0 each thread keeps its `heldChunks` chunks of the row
/// in registers between the sweeps (else every sweep is a loop that re-reads
/// the row). With a rotary embedding, n / 2 is a multiple of vectorWidth
/// for rotate_half.
struct GPURowKernelShape {
  int64_t threadsPerRow = 32;
  int64_t rowsPerBlock = 8;
  int64_t vectorWidth = 1;
  int64_t heldChunks = 0;
  /// The target's SM version: how a quantized y converts to fp8
  /// (GPUQuantizedRow.h).
  int64_t smVersion = 90;
};

/// The chunks of a row one thread normalizes together: 2 when a rotary
/// embedding pairs elements of two chunks (rotate_half; interleaved with
/// scalar accesses), else 1. `heldChunks` is then a multiple of it.
int64_t gpuRowChunksPerGroup(const RowNormProblem &problem,
                             int64_t vectorWidth);

/// Emits a gpu.launch computing `problem` with `shape` at the builder's
/// insertion point. Requires rows ≥ 1 at run time and, when vectorWidth > 1,
/// n % vectorWidth == 0 and every row of the row buffers aligned to
/// vectorWidth elements (for a strided view: its pointer, offset and row
/// stride).
void emitGPURowKernel(OpBuilder &b, Location loc,
                      const RowNormProblem &problem,
                      const GPURowKernelShape &shape);

/// Emits the two launches of a norm gradient (GPUGradKernel.cpp) at the
/// builder's insertion point, with device temporaries for the partial
/// column sums of dγ and dβ.
void emitGPUGradKernel(OpBuilder &b, Location loc, const GradProblem &problem);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNEL_H
