//===- WarpgroupGemm.h - the sm_90a GEMM's kernel description --*- C++ -*-===//
//
// Private to NormToGPU/Gemm/: the warpgroup-MMA GEMM kernel as its two
// schedules see it. WarpgroupGemmKernel holds the block shape, the shared
// memory layout and the pieces both schedules emit (the TMA loads of a K
// tile, the norm statistics of the A tile, LayerNorm's column sums, one K
// tile of wgmma, the epilogue); WarpgroupGemm.cpp defines them and the serial
// schedule (one warpgroup, each K tile waited for), WarpgroupPipeline.cpp the
// warp-specialized one (a producer warp, consumer warpgroups, per-stage
// "full" and "empty" mbarriers, wait_group 1).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPGEMM_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPGEMM_H

#include "GPUGemm.h"
#include "WarpgroupPrologue.h"
#include "norm/Conversion/Utils/ScalarArith.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace mlir {
namespace norm {
namespace wgmma {

constexpr int64_t kWarpgroup = 128; // threads
constexpr int64_t kMmaM = 64;       // one wgmma's M: a warpgroup's rows
constexpr int64_t kBK = 64;         // 128 bytes of bf16/f16
constexpr int64_t kMmaK = 16;
constexpr int64_t kElementBytes = 2;
constexpr int64_t kSwizzleBytes = 128;
/// A 64-row K tile of A, and a 64-column slab of a K×N W tile.
constexpr int64_t kSlabBytes = 64 * kBK * kElementBytes; // 8 KiB
constexpr int64_t kTileAlignment = 1024;
/// The dynamic shared memory one block may take on sm_90 (227 KiB).
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// The kernel: the problem, its schedule and the values the body defines.
class WarpgroupGemmKernel : public ScalarArith {
public:
  /// With `split`, the kernel is a split-K slice (GPUGemm.h): block z of
  /// gridDim.z runs its run of the K tiles and stores partials.
  WarpgroupGemmKernel(Location loc, const GPUGemmProblem &p,
                      const WarpgroupGemmSchedule &schedule,
                      const GPUSplitK *split);

  /// The launch: host descriptors, grid, shared memory, barriers, the
  /// schedule's K loop and the epilogue.
  void emit(OpBuilder &b);

protected:
  bool isNorm() const { return p.prologue != GemmPrologue::None; }
  bool isLayerNorm() const { return p.prologue == GemmPrologue::LayerNorm; }
  /// GemmProblem::normalizesA (cast_mode, pRMSNorm): the row statistics
  /// from a pass before the K loop (normalizeRows), each A tile rewritten
  /// as the normalized activations (prologue), then a plain GEMM.
  bool normalizesA() const { return p.normalizesA != GemmPrologue::None; }
  /// Whether a K tile's A tile goes through the prologue.
  bool hasPrologue() const { return isNorm() || normalizesA(); }
  /// LayerNorm: block columns each consumer thread sums (c, Σβ·W): column
  /// tid + i · 2·BM of the block, i < columnsPerThread.
  int64_t columnsPerThread() const {
    return llvm::divideCeil(blockN, consumers() * kWarpgroup);
  }
  /// Whether the prologue sums its rows in the mma.sync kernel's order, two
  /// sums a thread (WarpgroupPrologue::readsInMmaSyncOrder: LayerNorm, a
  /// residual).
  bool pairedSums() const {
    return isNorm() && gpugemm::WarpgroupPrologue::readsInMmaSyncOrder(p);
  }
  /// The f32 values the K loop carries beside the accumulators: RMSNorm
  /// Σx² (with a residual Σs² of the even lanes, of the odd lanes);
  /// LayerNorm Σd, Σd², the pivot p, then c and Σβ·W of each of the
  /// thread's columns; without a norm an unused 0 (the IR of the kernels
  /// before LayerNorm came here).
  int64_t numCarried() const {
    return isLayerNorm() ? 3 + 2 * columnsPerThread() : pairedSums() ? 2 : 1;
  }
  /// f32 scratch after the stages: the row scale r [BM]; LayerNorm also
  /// r·(μ − p) [BM], c [BN] and Σβ·W [BN]; normalizesA the rstd [BM], and
  /// for LayerNorm the mean [BM] and its correction [BM].
  /// Split-K LayerNorm: every slice's pivot comes from K tile 0, which all
  /// but slice 0 do not otherwise load; it is loaded (A, and R) by a TMA
  /// load of its own, on one more full barrier, into the last stage before
  /// the ring of stages starts (splitPivot).
  bool loadsPivotTile() const { return split && isLayerNorm(); }
  int64_t scratchBytes() const {
    if (p.normalizesA == GemmPrologue::LayerNorm)
      return 4 * 3 * blockM;
    return 4 * (blockM + (isLayerNorm() ? blockM + 2 * blockN : 0));
  }
  /// `size` f32 of the scratch, from its byte `offset`.
  Value scratch(OpBuilder &b, int64_t offset, int64_t size);
  /// The scratch's arrays (the layout scratchBytes sizes), named once: the
  /// row scale r [BM] (normalizesA: the rstd), the row shift r·(μ − p) [BM]
  /// (normalizesA: the mean), then either normalizesA's mean correction
  /// [BM] or the LayerNorm epilogue's c [BN] and Σβ·W [BN].
  Value rowScaleSlots(OpBuilder &b) { return scratch(b, 0, blockM); }
  Value rowShiftSlots(OpBuilder &b) { return scratch(b, 4 * blockM, blockM); }
  Value meanCorrectionSlots(OpBuilder &b) {
    return scratch(b, 8 * blockM, blockM);
  }
  Value columnShiftSlots(OpBuilder &b) {
    return scratch(b, 8 * blockM, blockN);
  }
  Value betaWeightSlots(OpBuilder &b) {
    return scratch(b, 8 * blockM + 4 * blockN, blockN);
  }
  /// normalizesA: the statistics of each consumer thread's row (row tid /
  /// 2, two threads a row: RowNormalizer::rowStatistics) into the scratch,
  /// where each K tile's prologue reads them back (registers held across
  /// the K loop would crowd the accumulators), and the saved statistics
  /// where asked (the even thread of the row, in the first column of
  /// blocks and the first K slice). Every thread of the block calls it
  /// (the shuffles; the producer warp sums and stores nothing), before
  /// the K loop: the TMA loads of the first stages overlap it.
  void normalizeRows(OpBuilder &b);
  /// normalizesA: the row statistics normalizeRows stored for the thread's
  /// row.
  gpugemm::RowNormalizer::Statistics rowNormStatistics(OpBuilder &b);
  Type elem() const { return p.elementType(); }
  int64_t consumers() const { return blockM / kMmaM; }
  int64_t tileABytes() const { return blockM * kBK * kElementBytes; }
  /// A stage holds the A tile, with a residual R's tile of the same box
  /// after it, then the W tile.
  int64_t tileRBytes() const { return p.aResidual ? tileABytes() : 0; }
  int64_t tileWOffset() const { return tileABytes() + tileRBytes(); }
  int64_t stageBytes() const {
    return tileWOffset() + blockN * kBK * kElementBytes;
  }
  /// Accumulator registers a thread (m64nNk16: N / 2 f32).
  int64_t registers() const { return kMmaM * blockN / kWarpgroup; }
  /// Threads of the block: the consumer warpgroups, and in the pipelined
  /// schedule the producer warp after them.
  int64_t threads() const;
  /// Whether the epilogue stores C as column pairs (vectorStore, with a
  /// static even N).
  bool vectorPairs() const;
  int64_t rowScaleOffset() const {
    return kTileAlignment + stages * stageBytes();
  }
  MemRefType sharedTile(int64_t rows, int64_t cols) const;
  nvgpu::TensorMapDescriptorType tensorMap(int64_t rows, int64_t cols) const;

  /// A shared-memory view of `type` at byte `offset` of the dynamic shared
  /// memory.
  Value view(OpBuilder &b, Value offset, MemRefType type) {
    return memref::ViewOp::create(b, loc, type, smem, offset, ValueRange{});
  }
  Value stageOffset(OpBuilder &b, Value stage) {
    return add(b, tilesStart, mulC(b, stage, stageBytes()));
  }
  /// K tile `kt` of the block's run: the i-th (`i`, an index) is tile i, or
  /// in a split-K slice tile firstTile + i.
  Value tileOf(OpBuilder &b, Value i) {
    return split ? add(b, firstTile, i) : i;
  }
  /// The TMA loads of K tile `kt` (A, R, and unless `pivotOnly` W) into
  /// stage `stage`, completing on full barrier `barrier` (issued by one
  /// thread).
  void loadTile(OpBuilder &b, Value kt, Value stage, Value barrier,
                bool pivotOnly = false);
  /// Split-K LayerNorm (loadsPivotTile): thread 0 loads K tile 0's A (and R)
  /// into the last stage on the pivot barrier, the consumer threads wait
  /// for it and take their row's pivot (layerNormPivot, as initialCarried),
  /// then a block barrier: the stage is free for the ring. Returns the
  /// pivot (0 in the producer warp). Every thread of the block calls it.
  Value splitPivot(OpBuilder &b);
  /// The norm prologue on K tile `kt`'s A (and R) tile in the stage at
  /// `aOffset` (WarpgroupPrologue, two threads per row of the block's A
  /// tile): the carried values (numCarried) plus the thread's statistics
  /// (normalizesA: the tile rewritten as the normalized A, the carried
  /// values unchanged), S written by the first column of blocks, and when
  /// it rewrites the tile (γ, weight offset, LayerNorm, a residual,
  /// normalizesA) a barrier of the threads
  /// whose MMAs read it: the block's (null `warpgroup`: the serial
  /// schedule) or consumer warpgroup `warpgroup`'s (named barrier 1 +
  /// warpgroup).
  SmallVector<Value> prologue(OpBuilder &b, Value aOffset, Value kt,
                              Value warpgroup, ValueRange carried);
  /// LayerNorm: the carried column sums plus those of K tile `kt`'s W tile
  /// in the stage at `stageOff`, for the consumer thread's columns (issued
  /// after the tile's MMAs, which they overlap; the stage is released after
  /// them). Returns `carried` otherwise.
  SmallVector<Value> columnSums(OpBuilder &b, Value stageOff, Value kt,
                                ValueRange carried);
  /// The prologue's view of the stage at `stageOff`: its A tile, R's tile,
  /// and where S goes.
  gpugemm::PrologueTile prologueTile(OpBuilder &b, Value stageOff);
  /// The barrier after a rewrite of A rows: the block's (null
  /// `warpgroup`) or the consumer warpgroup's named barrier 1 + warpgroup.
  void syncRewriters(OpBuilder &b, Value warpgroup);
  /// The initial carried values: zeros, and LayerNorm's pivot from K tile
  /// 0 (waited for on its full barrier; consumer threads, then
  /// syncRewriters: both threads of a row read the columns each rewrites).
  SmallVector<Value> initialCarried(OpBuilder &b, Value warpgroup);
  /// fence, the four wgmma of one K tile in the stage at `stageOff` for
  /// consumer warpgroup `warpgroup` (its 64 rows of the A tile; null: the
  /// only one), commit. Without `accumulate` the first MMA ignores `acc`
  /// (scale-d 0).
  Value issueTile(OpBuilder &b, Value stageOff, Value warpgroup, Value acc,
                  bool accumulate = true);
  /// The row scale (LayerNorm: and r·(μ − p), c, Σβ·W) in shared memory
  /// (all threads reach its barrier), then C from the accumulators of the
  /// consumer threads.
  void epilogue(OpBuilder &b, Value acc, ValueRange carried);
  /// Split-K: the slice's partials (SplitK.cpp's stores) instead of C: the
  /// rows' two sums (and LayerNorm's pivot) from the first column of
  /// blocks, LayerNorm's column sums from the first row of blocks, and the
  /// raw accumulators. Every thread of the block calls it (the shuffles).
  void storePartials(OpBuilder &b, Value acc, ValueRange carried);
  /// `fn` at the builder's insertion point when every thread of the block
  /// is a consumer (`isConsumer` null: the serial schedule), else inside
  /// `scf.if isConsumer` (the pipelined schedule's producer warp skips it).
  /// The stores that end storePartials and epilogue.
  void emitForConsumers(OpBuilder &b, Value isConsumer,
                        function_ref<void(OpBuilder &)> fn);
  /// The row's two sums as the epilogue combines them for emitRowScale:
  /// paired sums v + the other thread's v; otherwise the thread's own sum
  /// and the other's (the even thread: even, odd). Every thread of the
  /// block calls it (shuffles).
  std::pair<Value, Value> rowSums(OpBuilder &b, ValueRange carried);
  /// Calls `fn` inside a test that the element is in C, for each of the
  /// consumer thread's accumulator registers (or, vectorPairs, register
  /// pairs): `half` (0 or 1: the row is rowBase + 8·half), the block
  /// column, the global row and column, and the value (f32, or
  /// vector<2xf32> of columns c, c + 1).
  void
  forEachAccumulator(OpBuilder &b, Value acc,
                     function_ref<void(OpBuilder &, int64_t half, Value col,
                                       Value gm, Value gn, Value out)>
                         fn);

  /// The schedules' K loops: the thread's accumulators, then its carried
  /// values.
  SmallVector<Value> emitSerialLoop(OpBuilder &b);
  SmallVector<Value> emitPipelinedLoop(OpBuilder &b);

  const GPUGemmProblem &p;
  const GPUSplitK *split; // null: one slice, C written by this kernel
  WarpgroupGemmSchedule schedule;
  bool pipelined;
  int64_t blockM, blockN, stages;
  Value mapA, mapR, mapW;
  // Kernel values.
  Value one, smem, tilesStart, barriers, tid, isFirst, m0, n0, kTiles;
  /// The block's K tiles: [firstTile, firstTile + tileCount) (split-K:
  /// its slice's, never empty; else firstTile is null and tileCount is
  /// kTiles); `slice` is gridDim.z's index (split-K only).
  Value firstTile, tileCount, slice;
  /// Split-K LayerNorm: the pivot splitPivot took (loadsPivotTile).
  Value slicePivot;
  /// The dynamic shared memory's address (i64), for the MMA descriptors.
  Value sharedAddress;
  Type accType;
};

} // namespace wgmma
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GEMM_WARPGROUPGEMM_H
