//===- WarpgroupPrologue.h - the wgmma GEMM's norm prologue -----*- C++ -*-===//
//
// Private to NormToGPU/Gemm/: the RMSNorm and LayerNorm prologues of the
// sm_90a warpgroup-MMA GEMM (WarpgroupGemm.cpp), with or without a residual,
// on one 128-byte-swizzled A tile (and R tile) in shared memory, and
// LayerNorm's column sums from its W tile, defined in WarpgroupPrologue.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPPROLOGUE_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPPROLOGUE_H

#include "GPUGemm.h"
#include "GemmInternals.h"
#include "norm/Conversion/Utils/ScalarArith.h"

namespace mlir {
namespace norm {
namespace gpugemm {

/// The K tile of the warpgroup kernel: 64 bf16/f16 elements, the 128 bytes
/// of the swizzle's span.
constexpr int64_t kWarpgroupTileK = 64;

/// A K tile as the prologue reads it: the A tile in shared memory (a BM × 64
/// view, 1024-byte aligned, as TMA's 128-byte swizzle wrote it) and, with a
/// residual, R's tile of the same box and swizzle beside it (null without);
/// where S goes: the block's first global row `m0` and whether the block
/// writes S (`writesSum`, i1: the first column of blocks; null without
/// `sum_outs`).
struct PrologueTile {
  Value a, r;
  Value m0, writesSum;
};

/// The norm prologue of the warpgroup kernel, as the mma.sync kernel's
/// NormPrologue computes it: RMSNorm's Σx² of each row from the A tiles the
/// kernel loads anyway, and, with γ or a weight offset, the tile rewritten
/// in place as a = round(x·γ') before the MMAs read it; LayerNorm's pivot p
/// (the mean of the row's first mma.sync K tile), Σd and Σd² of d = x − p
/// with the mma.sync kernel's bits, the tile rewritten as round(d·γ'), and
/// the column sums c = Σγ'W and Σβ·W. With a residual, x is s = round(x +
/// r) from the A and R tiles (emitResidualSum), written to S by the first
/// column of blocks, and the tile is rewritten (as s at least).
class WarpgroupPrologue : ScalarArith {
public:
  /// `conflictFree`: each thread reads (and rewrites) its four chunks of a
  /// row in the order c ^ (row % 4) instead of c, so that no two threads of
  /// a quarter warp touch the same shared-memory banks.
  WarpgroupPrologue(Location loc, const GPUGemmProblem &p, bool conflictFree);

  /// Whether the prologue computes the norm of `p`: RMSNorm or LayerNorm
  /// with or without γ (β), weight offset and residual (with or without S),
  /// γ and β of the element type or f32, R and S of the element type; as
  /// a prologue (statistics from the tiles, the scale after the product) or
  /// normalizesA (cast_mode, pRMSNorm: the statistics from a pass over the
  /// rows before the K loop, the tiles rewritten as the normalized A).
  static bool supports(const GPUGemmProblem &p);
  /// normalizesA: the thread's half row of `tile` (K tile `kt`) rewritten
  /// in place as the normalized activations, RowNormalizer::normalize of s
  /// with the row's `stats` and γ, β of each chunk (0 past K), the mma.sync
  /// kernel's bits; with a residual s = round(x + r), written to S where
  /// the tile says. The thread's chunks and their order are onTile's
  /// (conflict-free: c ^ (row % 4)); then fence.proxy.async as onTile.
  void normalizeTile(OpBuilder &b, const PrologueTile &tile, Value thread,
                     Value kt, const RowNormalizer::Statistics &stats);
  /// Whether the rows are read in the mma.sync kernel's order
  /// (onTileInMmaSyncOrder; LayerNorm, and any residual): the statistics
  /// are then the mma.sync kernel's bit for bit, as two sums a thread
  /// (LayerNorm Σd, Σd²; RMSNorm Σs² of the even and of the odd lanes).
  /// RMSNorm without a residual reads contiguous half rows (onTile), one
  /// sum a thread.
  static bool readsInMmaSyncOrder(const GPUGemmProblem &p) {
    return p.prologue == GemmPrologue::LayerNorm || p.aResidual;
  }
  bool isLayerNorm() const { return p.prologue == GemmPrologue::LayerNorm; }
  /// Whether the prologue rewrites the A tile (γ, weight offset, LayerNorm,
  /// a residual): the caller then synchronizes the threads that wrote it
  /// with those that issue the MMAs (a block barrier) between the prologue
  /// and the wgmma.
  bool rewritesA() const;
  /// LayerNorm: the pivot p of the thread's row, from `tile` (K tile 0): the
  /// mean of the row's first min(K, 32) elements of s (the mma.sync
  /// kernel's K tile), each half of 16 summed in order from 0, the halves
  /// added, divided by max(min(K, 32), 1): computePivot's operations, so p
  /// has its bits.
  Value layerNormPivot(OpBuilder &b, const PrologueTile &tile, Value thread);
  /// LayerNorm, or RMSNorm with a residual: `sums` plus those of the
  /// thread's 32 elements of the row in `tile` (K tile `kt`), and the tile
  /// rewritten, then fence.proxy.async as onTile. With a residual, s =
  /// round(x + r) is formed once a chunk, written to S where the tile says,
  /// and stands for x below. LayerNorm: Σd (add) and Σd² (fma) of d = s − p
  /// (0 past K), the tile rewritten as round(d·γ'). RMSNorm: Σs² (fma) of
  /// the chunks' even lanes into sums[0], of the odd ones into sums[1] (the
  /// mma.sync kernel's two chains), the tile rewritten as s, or round(s·γ')
  /// with γ or a weight offset. The thread takes logical chunks
  /// {0, 1, 4, 5} + 2·(thread % 2), i.e. the half rows of the mma.sync
  /// kernel's two 32-element K tiles that its thread of the same parity
  /// takes, and sums them in the same order: the row's sums, and so r and
  /// the saved statistics, are bit for bit the mma.sync kernel's.
  /// Conflict-free, step c reads (and writes) logical chunk c ^ (row % 4 &
  /// 2) of the four.
  SmallVector<Value> onTileInMmaSyncOrder(OpBuilder &b,
                                          const PrologueTile &tile,
                                          Value thread, Value kt, Value pivot,
                                          ValueRange sums);
  /// LayerNorm: for each block column j of `columns`, c_j += Σ_k γ'_k W_kj
  /// and bw_j += Σ_k β_k W_kj over K tile `kt` (k in order, scalar fma: the
  /// mma.sync kernel's columnSums), `sums` holding c_j, bw_j of each column
  /// in turn; from the W tile `wTile`, 128-byte swizzled: a BN × 64 view
  /// (`transposeW`: row j) or a BN / 64 × 64 × 64 one (K×N: the slabs of 64
  /// columns, column j % 64 of slab j / 64). γ' and β of each chunk of K
  /// are loaded and formed once for all the columns.
  SmallVector<Value> columnSums(OpBuilder &b, Value wTile, ValueRange columns,
                                Value kt, ValueRange sums);
  /// RMSNorm without a residual: `sum` plus Σx² over the thread's half row
  /// of `tile` (a 64 × 64 view of K tile `kt`, 1024-byte aligned, as TMA's
  /// 128-byte swizzle wrote it): row thread / 2, 16-byte chunks
  /// 4·(thread % 2) .. + 3. With rewritesA each chunk is also stored back
  /// as round(x·γ') and the stores are followed by
  /// `fence.proxy.async.shared::cta`, which orders them before the async
  /// proxy's reads (wgmma) and writes (the stage's next TMA load).
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
  /// The chunk of s at (`row`, `col`) of `tile`, in the element type: x, or
  /// round(x + r) with a residual.
  Value loadInput(OpBuilder &b, const PrologueTile &tile, Value row, Value col);
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
