//===- NormToVector.h - norm ops to vector code -----------------*- C++ -*-===//
//
// The CPU code generation of the norm ops: each memref-form norm op becomes
// row loops of vector code (DESIGN.md §5, CPU). See docs/design.md, "CPU code
// generation", for the kernel's structure and numerics.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H
#define NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H

#include <cstdint>
#include <string>

namespace mlir {
class RewritePatternSet;

namespace norm {

/// How the row kernels are shaped. `vectorBits` is the register width the
/// code is written for (512 for AVX-512, 256 for AVX2, 128 generic); lanes
/// per vector = vectorBits / bitwidth(acc_type).
struct NormVectorCodegenOptions {
  int64_t vectorBits = 512;
  /// Independent accumulators per statistic in the reduction sweep.
  int64_t accumulators = 4;
  /// Split rows across threads (scf.parallel) when the op touches at least
  /// this many bytes; below it the rows run in a plain loop. < 0: never.
  /// The pass derives it from its options (resolveParallelThreshold).
  int64_t parallelThresholdBytes = int64_t(1) << 20;
  /// Use non-temporal (cache-bypassing) stores for `outs` when the output
  /// is at least this many bytes. < 0: never.
  int64_t streamingThresholdBytes = int64_t(32) << 20;
  /// Emit an x86 `sfence` after streamed rows (needed for the weakly
  /// ordered non-temporal stores; only valid on x86 targets).
  bool emitStoreFence = true;
  /// Gather the statistics of row r+1 during the normalize sweep of row r
  /// (not for pRMSNorm, whose statistics cover a prefix only).
  bool pipelineRows = true;
  /// Without pipelining: prefetch the next row's input during the
  /// normalize sweep.
  bool prefetchNextRow = true;
  /// Gradient kernels with dγ or dβ: rows per column sweep, adding their
  /// terms into the partial column sums with one load and store (1: a row
  /// at a time).
  int64_t gradBlockRows = 2;
  /// Whole row kernels of bf16 keep their vectors in pair order, 16 lanes
  /// on 256-bit targets, 32 on 512-bit ones (docs/design.md, "bf16 rows in
  /// pair order").
  bool bf16PairOrder = true;
  /// Round f32 → bf16 with AVX512-BF16's vcvtneps2bf16 (x86vector dialect);
  /// needs `convert-vector-to-llvm{enable-x86vector}` and a CPU with it.
  bool nativeBF16Conversion = false;
  /// Convert f32 to i32 rounding to nearest even with x86's vcvtps2dq (an
  /// LLVM intrinsic), which rounds by MXCSR (docs/design.md, "The i8
  /// rounding by vcvtps2dq"); else math.roundeven and a truncation.
  bool x86RoundingConversion = false;
  /// Run the fused GEMM's micro-kernel on AVX512-BF16 `vdpbf16ps` (x86vector
  /// `avx512.dot`) when A and W are bf16: Ã and B̃ hold bf16 k-pairs, γ' is
  /// rounded into Ã (round(x·γ')) and W is used as it is, accumulation
  /// stays f32. Needs 512-bit vectors.
  bool bf16DotProducts = false;

  // The fused GEMM of the norm/matmul ops (Gemm/); 0 picks the
  // target's default.
  /// Rows of the register micro-tile (MR; AVX-512: 12, else 6).
  int64_t gemmTileRows = 0;
  /// f32 vectors per micro-tile row (NR = this × lanes; default 2).
  int64_t gemmTileVectors = 0;
  /// K block (KC, default 256), M block (MC, default 16·MR) and column chunk
  /// per thread task (NC, default 256).
  int64_t gemmBlockK = 0;
  int64_t gemmBlockM = 0;
  int64_t gemmBlockN = 0;
  /// k steps per micro-kernel loop iteration (default 4).
  int64_t gemmUnroll = 0;
  /// Up to this many rows (M) W is streamed unpacked through the GEMV kernel
  /// (Gemm/Gemv*.cpp); 0 picks the default (16, either layout of W), −1
  /// never.
  int64_t gemmGemvRows = 0;
};

/// Adds the patterns that lower memref-form `norm.rms_norm` and
/// `norm.layer_norm` to scf + vector code (identity layouts, or strided views
/// whose rows are unit-stride and evenly spaced: unsupportedRowOperandReason),
/// and the fused ops on identity layouts to a packed GEMM with the norm
/// folded in (norm → matmul) or followed by the row kernel (matmul → norm).
/// Fused ops whose acc_type is not f32 are split into a norm op and a linalg
/// matmul. Ops on tensors or on other strided memrefs are left alone.
void populateNormToVectorConversionPatterns(
    RewritePatternSet &patterns, const NormVectorCodegenOptions &options);

/// Adds the pattern that lowers memref-form matmuls with an f32 C and f32,
/// bf16 or f16 A and W (`linalg.matmul`, or a `linalg.generic` with its
/// maps, W as K×N or N×K, and an `out + ext(a)·ext(b)` body) with identity
/// layouts to the packed GEMM of the fused ops.
void populateLinalgMatmulToGemmPatterns(
    RewritePatternSet &patterns, const NormVectorCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_NORMTOVECTOR_NORMTOVECTOR_H
