//===- NormToGPU.h - norm ops to GPU kernels --------------------*- C++ -*-===//
//
// The NVIDIA GPU code generation of the norm ops: each memref-form
// norm.rms_norm / norm.layer_norm becomes a gpu.launch of a row kernel (a
// warp, a few warps or a block per row), each bf16/f16 fused norm/matmul op
// a tensor-core GEMM (nvgpu.ldmatrix / mma.sync / cp.async, sm_80+) with the
// norm in its prologue and epilogue (DESIGN.md §3, §5). See docs/design.md,
// "GPU code generation", for the kernel shapes and numerics.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
#define NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H

#include <cstdint>
#include <string>

namespace mlir {
class Location;
class MemRefType;
class OpBuilder;
class Operation;
class RewritePatternSet;
class Value;
class ValueRange;

namespace norm {

/// How the sm_90a warpgroup-MMA GEMM runs: serial (one warpgroup a 64 ×
/// 128 block, each K tile's MMAs waited for before the next), or pipelined
/// (warp-specialized: a producer warp loading the stages, BM / 64 consumer
/// warpgroups of 64 × BN each keeping one K tile of MMAs in flight). Any
/// BM × BN other than 64 × 128 is pipelined.
struct WarpgroupGemmSchedule {
  bool pipelined = true;
  int64_t blockM = 0; // 64 or 128; 0 (with blockN 0): chosen per GEMM
  int64_t blockN = 0; // 128 or 256
  /// Pipelined: the first K tile's first MMA with scale-d 0, and the
  /// producer warp yields poison, so no instruction but wgmma writes the
  /// accumulator registers (ptxas serializes the wgmma, C7520, when zeroing
  /// moves sit in the divergent consumer/producer paths).
  bool scaleDZero = true;
  /// Pairs of adjacent columns of C stored as one vector (8 bytes of f32,
  /// 4 of bf16/f16) when N is static and even.
  bool vectorStore = true;
  /// The RMSNorm prologue's threads read (and, with γ or a weight offset,
  /// rewrite) their four 16-byte chunks of an A-tile row in the order
  /// c ^ (row % 4), so that a quarter warp's shared-memory accesses reach
  /// eight different bank groups; in order c they reach two (4-way bank
  /// conflicts). The Σx² adds are the same either way.
  bool conflictFreePrologue = true;
};

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
  /// The SM version of the target (80 for sm_80); the fused ops'
  /// tensor-core kernels need at least 80.
  int64_t smVersion = 90;
  /// The target is sm_90a, whose architecture-specific PTX has warpgroup
  /// MMA (wgmma): the bf16/f16 fused GEMMs that do not split K use it, with
  /// TMA loads, instead of mma.sync.
  bool warpgroupMMA = false;
  /// The schedule and block of the warpgroup-MMA GEMM (wgmma-pipeline,
  /// wgmma-block-m, wgmma-block-n).
  WarpgroupGemmSchedule warpgroupSchedule;
  /// The most K slices of a split-K fused GEMM (used when the output has
  /// fewer 64 × 128 blocks than the GPU runs at once); 1: never split.
  int64_t maxSplitK = 16;
  /// Also lower memref matmuls (`linalg.matmul` or its generic form) with an
  /// f32 C (f32, bf16 or f16 inputs) to the GEMM kernel, with no prologue
  /// (C += A·B).
  bool lowerMatmuls = false;
};

/// Adds the patterns that replace memref-form `norm.rms_norm` and
/// `norm.layer_norm` (identity layouts, or strided views whose rows are
/// unit-stride and evenly spaced) by `gpu.launch` row kernels. The
/// memrefs must be accessible from the device (gpu.alloc, managed or
/// host-registered memory). The fused norm/matmul ops on bf16/f16 memrefs
/// with identity layouts become tensor-core GEMM kernels (a matmul → norm op
/// also creates the standalone norm op that normalizes its pre-norm sum,
/// which these patterns then lower); fused ops the kernels cannot compute
/// do not match (`--convert-norm-to-gpu` reports them as errors, see
/// `unsupportedFusedOpReason`). Ops on tensors or other strided memrefs are
/// left alone.
void populateNormToGPUConversionPatterns(RewritePatternSet &patterns,
                                         const NormGPUCodegenOptions &options);

/// Why the tensor-core kernels cannot compute the memref-form fused op `op`
/// (element type, accumulation type, target, operands), or an empty string
/// when they can.
std::string unsupportedFusedOpReason(Operation *op,
                                     const NormGPUCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOGPU_NORMTOGPU_H
