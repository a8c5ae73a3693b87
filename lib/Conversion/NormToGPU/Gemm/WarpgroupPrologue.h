//===- WarpgroupPrologue.h - the wgmma GEMM's norm prologue -----*- C++ -*-===//
//
// Private to NormToGPU/Gemm/: the RMSNorm and LayerNorm prologues of the
// sm_90a warpgroup-MMA GEMM (WarpgroupGemm.cpp) on one 128-byte-swizzled A
// tile in shared memory, and LayerNorm's column sums from its W tile,
// defined in WarpgroupPrologue.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPPROLOGUE_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPPROLOGUE_H

#include "GPUGemm.h"
#include "norm/Conversion/Utils/ScalarArith.h"

namespace mlir {
namespace norm {
namespace gpugemm {

/// The K tile of the warpgroup kernel: 64 bf16/f16 elements, the 128 bytes
/// of the swizzle's span.
constexpr int64_t kWarpgroupTileK = 64;

/// The norm prologue of the warpgroup kernel, as the mma.sync kernel's
/// NormPrologue computes it: RMSNorm's Σx² of each row from the A tiles the
/// kernel loads anyway, and, with γ or a weight offset, the tile rewritten
/// in place as a = round(x·γ') before the MMAs read it; LayerNorm's pivot p
/// (the mean of the row's first mma.sync K tile), Σd and Σd² of d = x − p
/// with the mma.sync kernel's bits, the tile rewritten as round(d·γ'), and
/// the column sums c = Σγ'W and Σβ·W.
class WarpgroupPrologue : ScalarArith {
public:
  /// `conflictFree`: each thread reads (and rewrites) its four chunks of a
  /// row in the order c ^ (row % 4) instead of c, so that no two threads of
  /// a quarter warp touch the same shared-memory banks.
  WarpgroupPrologue(Location loc, const GPUGemmProblem &p, bool conflictFree);

  /// Whether the prologue computes the norm of `p`: RMSNorm or LayerNorm
  /// with or without γ (β) and weight offset, γ and β of the element type or
  /// f32. A residual (the tile would be s = round(x + r), from a second
  /// tile) and normalizesA (a pass over the rows before the K loop) are the
  /// mma.sync kernel's.
  static bool supports(const GPUGemmProblem &p);
  bool isLayerNorm() const { return p.prologue == GemmPrologue::LayerNorm; }
  /// Whether onTile rewrites the A tile (γ or weight offset): the caller
  /// then synchronizes the threads that wrote it with those that issue the
  /// MMAs (a block barrier) between onTile and the wgmma.
  bool rewritesA() const;
  /// LayerNorm: the pivot p of the thread's row, from `tile` (K tile 0, as
  /// onTile takes it): the mean of the row's first min(K, 32) elements (the
  /// mma.sync kernel's K tile), each half of 16 summed in order from 0, the
  /// halves added, divided by max(min(K, 32), 1): computePivot's
  /// operations, so p has its bits.
  Value layerNormPivot(OpBuilder &b, Value tile, Value thread);
  /// LayerNorm: Σd and Σd² (`sums`) plus those of the thread's 32 elements
  /// of the row in `tile` (K tile `kt`), d = x − p (0 past K), and the tile
  /// rewritten as round(d·γ'), then fence.proxy.async as onTile. The
  /// thread takes logical chunks {0, 1, 4, 5} + 2·(thread % 2), i.e. the
  /// half rows of the mma.sync kernel's two 32-element K tiles that its
  /// thread of the same parity takes, and sums them in the same order
  /// (add for Σd, fma for Σd²): the row's sums, and so r and the saved
  /// statistics, are bit for bit the mma.sync kernel's. Conflict-free, step
  /// c reads (and writes) logical chunk c ^ (row % 4 & 2) of the four.
  SmallVector<Value> onLayerNormTile(OpBuilder &b, Value tile, Value thread,
                                     Value kt, Value pivot, ValueRange sums);
  /// LayerNorm: for each block column j of `columns`, c_j += Σ_k γ'_k W_kj
  /// and bw_j += Σ_k β_k W_kj over K tile `kt` (k in order, scalar fma: the
  /// mma.sync kernel's columnSums), `sums` holding c_j, bw_j of each column
  /// in turn; from the W tile `wTile`, 128-byte swizzled: a BN × 64 view
  /// (`transposeW`: row j) or a BN / 64 × 64 × 64 one (K×N: the slabs of 64
  /// columns, column j % 64 of slab j / 64). γ' and β of each chunk of K
  /// are loaded and formed once for all the columns.
  SmallVector<Value> columnSums(OpBuilder &b, Value wTile, ValueRange columns,
                                Value kt, ValueRange sums);
  /// `sum` plus Σx² over the thread's half row of `tile` (a 64 × 64 view of
  /// K tile `kt`, 1024-byte aligned, as TMA's 128-byte swizzle wrote it):
  /// row thread / 2, 16-byte chunks 4·(thread % 2) .. + 3. With rewritesA
  /// each chunk is also stored back as round(x·γ') and the stores are
  /// followed by `fence.proxy.async.shared::cta`, which orders them before
  /// the async proxy's reads (wgmma) and writes (the stage's next TMA load).
  Value onTile(OpBuilder &b, Value tile, Value thread, Value kt, Value sum);

private:
  /// γ of the 8 elements at logical column `k` as stored, and whether they
  /// are inside K (both null without γ).
  std::pair<Value, Value> loadWeight(OpBuilder &b, Value k) {
    return loadParams(b, p.gamma, k);
  }
  /// `params` (γ or β) likewise (both null for a null `params`).
  std::pair<Value, Value> loadParams(OpBuilder &b, Value params, Value k);
  /// The 8 elements of β at `k` (f32), 0 past K.
  Value shiftFactor(OpBuilder &b, Value beta, Value inside);
  /// A chunk of 8 f32 zeros.
  Value zeroChunk(OpBuilder &b);
  /// γ' (f32) of a chunk from loadWeight's values; 0 past K.
  Value weightFactor(OpBuilder &b, Value gamma, Value inside);
  /// `v` (f32) through an empty side-effecting asm, so that LLVM computes
  /// it before the ops that follow.
  Value pinned(OpBuilder &b, Value v);

  const GPUGemmProblem &p;
  bool conflictFree;
};

} // namespace gpugemm
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPPROLOGUE_H
