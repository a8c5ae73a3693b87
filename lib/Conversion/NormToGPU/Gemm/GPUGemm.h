//===- GPUGemm.h - the GPU GEMMs of the fused ops ---------------*- C++ -*-===//
//
// Private to NormToGPU: one GEMM C = op(A) · W of a fused norm/matmul op
// (DESIGN.md §3) as the GPU sees it, and the emitters of its kernels: on
// tensor cores for bf16/f16 (nvgpu.ldmatrix / nvgpu.mma.sync m16n8k16 /
// cp.async, sm_80+), on FMA units (SIMT) for f32, split over K, or on
// sm_90a's warpgroup MMA. The emitters live in this folder, one file a job
// (GemmInternals.h lists them).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GPUGEMM_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GPUGEMM_H

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/Utils/GemmProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// A GEMM as the GPU kernels take it: the description both back ends share
/// (GemmProblem.h), bf16, f16 or f32.
using GPUGemmProblem = GemmProblem;

/// The tile sizes of the kernels (fixed; see FusedGemm.cpp).
struct GPUGemmTiles {
  static constexpr int64_t kBlockM = 64;
  static constexpr int64_t kBlockN = 128;
  static constexpr int64_t kThreads = 128;
  /// The K tile: 32 for bf16/f16, 16 for f32 (a 32-deep f32 tile would
  /// need more than the 48 KiB of shared memory a launch gets without
  /// opting in).
  static int64_t blockK(Type elem) { return elem.isF32() ? 16 : 32; }
  /// The warpgroup (wgmma) kernel's K tile: 64 bf16/f16, 128 bytes.
  static constexpr int64_t kWarpgroupBlockK = 64;
  /// Elements per 16-byte cp.async chunk: 8 for bf16/f16, 4 for f32.
  static int64_t chunk(Type elem) { return 128 / elem.getIntOrFloatBitWidth(); }
};

/// Whether the GEMM saves its row statistics (`mean_outs`, `rstd_outs`),
/// and whether it writes outputs per row of A: S (norm → matmul's residual
/// sum) or those statistics. The first column of blocks writes them, so
/// that column runs even when N = 0.
inline bool savesStatistics(const GPUGemmProblem &p) {
  return p.mean || p.rstd;
}
inline bool writesRowOutputs(const GPUGemmProblem &p) {
  return p.aSum || savesStatistics(p);
}

/// Split-K: when the output has too few 64 × 128 blocks to fill the GPU
/// (decode: M ≤ 64 and a few thousand columns give a few dozen blocks), the
/// GEMM runs as `splits` slices of its K tiles (gridDim.z), each writing
/// f32 partials, and a second kernel (emitGPUSplitKReduce) sums them and
/// applies the epilogue. A norm prologue's row sums and LayerNorm's column
/// sums are sums over K as well, so the slices' partial sums add up to the
/// unsplit kernel's (all slices use the same LayerNorm pivot, the mean of
/// the mma.sync kernel's K tile 0). The slices are the mma.sync kernel
/// (emitGPUFusedGemm) or, on sm_90a, the warpgroup kernel
/// (emitGPUWarpgroupGemm); both write the same partials through
/// SplitK.cpp's stores (GemmInternals.h), and emitGPUSplitKReduce reads
/// them. The buffers are device memory, f32:
///   accumulators [splits][M][N], rowSums [splits][M][2] (norm prologues:
///   the two sums emitRowScale takes, each over the slice's K tiles:
///   RMSNorm two partial Σx² (two chains, or the two threads of a row);
///   LayerNorm Σ(x − p), Σ(x − p)²; [splits][M][3] with the pivot p third
///   when LayerNorm's mean is saved), columnSums [splits][N][2]
///   (LayerNorm: c = Σγ'W, Σβ·W). Absent ones are null. Every slice has at
///   least one K tile (splitKFor's count).
struct GPUSplitK {
  Value splits; // index, ≥ 1
  Value accumulators, rowSums, columnSums;
};

/// Emits a gpu.launch computing `problem` at the builder's insertion point.
/// Requires M ≥ 1, and N ≥ 1 unless writesRowOutputs (with N = 0 one
/// column of blocks still runs and writes S and the statistics; use the
/// fallback kernel then, which reads nothing of the empty W). With
/// `asyncCopies`, tiles are staged with 16-byte cp.async, which needs K (and N
/// for a K×N W) to be a multiple of GPUGemmTiles::chunk and every buffer
/// 16-byte aligned; otherwise with guarded element loads (the fallback kernel).
/// With `split`, the launch is the first kernel of a split-K GEMM (above):
/// slice z of gridDim.z computes K tiles [z·T, min((z + 1)·T, ⌈K/BK⌉)),
/// T = ⌈⌈K/BK⌉ / splits⌉, and writes its partials instead of C.
void emitGPUFusedGemm(OpBuilder &b, Location loc, const GPUGemmProblem &problem,
                      bool asyncCopies, const GPUSplitK *split = nullptr);

/// Whether the sm_90a warpgroup-MMA kernel (emitGPUWarpgroupGemm) computes
/// `problem`: bf16/f16, no prologue, or an RMSNorm or LayerNorm prologue,
/// with or without γ (β), weight offset and residual (S written or not);
/// not normalizesA (cast_mode, pRMSNorm) (WarpgroupPrologue::supports).
bool warpgroupGemmApplies(const GPUGemmProblem &problem);

/// Emits a gpu.launch computing `problem` on sm_90a warpgroup MMA
/// (wgmma.mma_async) with TMA loads of 128-byte-swizzled tiles
/// (WarpgroupGemm.cpp), in `schedule`. Requires warpgroupGemmApplies, M,
/// N ≥ 1, K ≥ 1, K and (for a K×N W) N multiples of 8, and 16-byte aligned
/// A and W (and R, S): the conditions of emitGPUFusedGemm's `asyncCopies`,
/// which TMA's 16-byte strides share. With `split`, the launch is the
/// first kernel of a split-K GEMM, as emitGPUFusedGemm's, over K tiles of
/// GPUGemmTiles::kWarpgroupBlockK: slice z writes the same partials, in
/// the same layout (the row sums with the mma.sync kernel's meaning: the
/// two RMSNorm chains, or LayerNorm's sums about the pivot of mma.sync K
/// tile 0, which every slice loads); S is written by the slice that owns
/// each K tile. Every slice must have a K tile: splits = ⌈tiles / T⌉ for
/// some T (splitKFor's count), as the pipelined schedule peels the first.
void emitGPUWarpgroupGemm(OpBuilder &b, Location loc,
                          const GPUGemmProblem &problem,
                          const WarpgroupGemmSchedule &schedule,
                          const GPUSplitK *split = nullptr);

/// The second kernel of a split-K GEMM: one thread per element of C sums the
/// slices' partials (accumulators, row and column sums, in slice order) and
/// writes C = r·acc − r·(μ − p)·c + (Σβ·W + bias) (+ residual), rounded once,
/// exactly the unsplit kernel's epilogue; the thread of column 0 also writes
/// its row's saved statistics, from the sums over all of K.
void emitGPUSplitKReduce(OpBuilder &b, Location loc,
                         const GPUGemmProblem &problem, const GPUSplitK &split);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GPUGEMM_H
