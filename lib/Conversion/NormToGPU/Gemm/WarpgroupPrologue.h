//===- WarpgroupPrologue.h - the wgmma GEMM's norm prologue -----*- C++ -*-===//
//
// Private to NormToGPU/Gemm/: the RMSNorm prologue of the sm_90a
// warpgroup-MMA GEMM (WarpgroupGemm.cpp) on one 128-byte-swizzled A tile in
// shared memory, defined in WarpgroupPrologue.cpp.
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

/// The RMSNorm prologue of the warpgroup kernel: Σx² of each row from the A
/// tiles the kernel loads anyway, and, with γ or a weight offset, the tile
/// rewritten in place as a = round(x·γ') before the MMAs read it, as the
/// mma.sync kernel's NormPrologue does.
class WarpgroupPrologue : ScalarArith {
public:
  /// `conflictFree`: each thread reads (and rewrites) its four chunks of a
  /// row in the order c ^ (row % 4) instead of c, so that no two threads of
  /// a quarter warp touch the same shared-memory banks.
  WarpgroupPrologue(Location loc, const GPUGemmProblem &p, bool conflictFree);

  /// Whether the prologue computes the norm of `p`: RMSNorm with or without
  /// γ and weight offset, γ of the element type or f32. A residual (the
  /// tile would be s = round(x + r), from a second tile), LayerNorm (the
  /// pivot and the column sums) and normalizesA (a pass over the rows before
  /// the K loop) are the mma.sync kernel's.
  static bool supports(const GPUGemmProblem &p);
  /// Whether onTile rewrites the A tile (γ or weight offset): the caller
  /// then synchronizes the threads that wrote it with those that issue the
  /// MMAs (a block barrier) between onTile and the wgmma.
  bool rewritesA() const;
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
  std::pair<Value, Value> loadWeight(OpBuilder &b, Value k);
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
