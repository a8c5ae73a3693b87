//===- GemmInternals.h - the jobs of the fused GPU GEMM kernel --*- C++ -*-===//
//
// Private to NormToGPU/Gemm/: the cp.async / guarded-load GEMM kernel
// (FusedGemm.cpp) as the emitters of its jobs see it. FusedGemmKernel
// describes the kernel: the problem, the tile shape, and the thread and
// block values its body defines once. Each job is a class of its own,
// defined in its own file, made from a copy of that description:
//   - TileStaging (Staging.cpp): the shared-memory layout and the copies of
//     one K tile into it;
//   - NormPrologue (NormPrologue.cpp): the norm statistics from the shared
//     A tiles and the rewrite of A;
//   - MmaSyncLoop (MmaSyncLoop.cpp), SimtLoop (SimtLoop.cpp): the main loop
//     on tensor cores (bf16/f16) or FMA units (f32), and the layout of its
//     accumulators;
//   - GemmEpilogue (Epilogue.cpp): the row scale, bias, residual, rounding
//     and store of C;
//   - SplitKPartials (SplitK.cpp): a split-K slice's partials instead of C.
// Last, the epilogue pieces that the split-K reduction (SplitK.cpp) and the
// warpgroup kernel (WarpgroupGemm.cpp) share with it.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GEMMINTERNALS_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GEMMINTERNALS_H

#include "GPUGemm.h"
#include "norm/Conversion/Utils/ScalarArith.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace norm {
namespace gpugemm {

constexpr int64_t kBM = GPUGemmTiles::kBlockM;
constexpr int64_t kBN = GPUGemmTiles::kBlockN;
constexpr int64_t kThreads = GPUGemmTiles::kThreads;
/// Warps as 2 × 2, each a 32 × 64 tile of 2 × 8 m16n8 accumulators.
constexpr int64_t kWarpsN = 2;
constexpr int64_t kWarpM = 32;
constexpr int64_t kWarpN = 64;
constexpr int64_t kMTiles = kWarpM / 16;
constexpr int64_t kNTiles = kWarpN / 8;
/// The SIMT (f32) kernel: thread t owns rows t / 16 + 8i (i < 8) and
/// columns t % 16 + 16j (j < 8) of the block's 64 × 128 tile.
constexpr int64_t kSimtRows = 8;
constexpr int64_t kSimtCols = 8;
constexpr int64_t kSimtThreadsN = kBN / kSimtCols;
constexpr int64_t kSimtThreadsM = kBM / kSimtRows;
/// k steps per iteration of the SIMT kernel's inner loop.
constexpr int64_t kSimtUnroll = 4;
static_assert(kSimtThreadsN * kSimtThreadsM == kThreads,
              "the SIMT kernel's threads cover the tile once");

/// Shared-memory buffers of the kernel (views of its dynamic shared memory).
struct SharedTiles {
  Value a, r, w, gamma, beta; // staged tiles, [2][...] (r: the residual)
  Value rowScale, rowShift;   // [BM] f32
  Value colC, colB;           // [BN] f32
  /// [BM] f32, the normalize-first LayerNorm's Σ(s − mean)/n beside its
  /// f32 mean (NormPrologue::computeRowNorm).
  Value rowCorrection;
};

/// Called with each accumulator element of a thread: its row and column in
/// the block's tile and its value (f32).
using AccumulatorFn =
    function_ref<void(OpBuilder &, Value rowL, Value colL, Value v)>;

/// The kernel as every job sees it. Built on the host from the problem; the
/// driver (FusedGemm.cpp) sets the thread and block values at the start of
/// the body, and the jobs are made from it after that.
class FusedGemmKernel : public ScalarArith {
public:
  FusedGemmKernel(Location loc, const GPUGemmProblem &p, bool async,
                  const GPUSplitK *split)
      : ScalarArith(loc, Float32Type::get(loc->getContext())), p(p),
        async(async), split(split), elem(p.elementType()),
        bk(GPUGemmTiles::blockK(elem)), chunk(GPUGemmTiles::chunk(elem)),
        pad(chunk) {}

  /// f32 runs on the FMA units: tensor cores take 16-bit operands here
  /// (TF32 would round the operands to 10 bits, far outside f32's 1e-5).
  bool simt() const { return elem.isF32(); }
  /// Accumulators per thread: 2 × 8 m16n8 fragments (vector<2x2xf32>), or
  /// the SIMT kernel's 8 rows of 8 columns (vector<8xf32> each).
  int64_t numAccumulators() const {
    return simt() ? kSimtRows : kMTiles * kNTiles;
  }
  bool isNorm() const { return p.prologue != GemmPrologue::None; }
  bool isLayerNorm() const { return p.prologue == GemmPrologue::LayerNorm; }
  /// GemmProblem::normalizesA: the A tile is rewritten as the normalized
  /// activations (NormPrologue::computeRowNorm, onTile) for a plain GEMM.
  bool normalizesA() const { return p.normalizesA != GemmPrologue::None; }
  /// Whether the A tile is rewritten in place before the MMAs.
  bool rewritesA() const {
    return isLayerNorm() || normalizesA() ||
           (isNorm() && (p.gamma || p.weightOffset != 0.0 || p.aResidual));
  }

  /// v summed over the two threads of a row (adjacent lanes 2r, 2r + 1,
  /// which split the row's K tile in halves); both get the sum.
  Value sumOverRowPair(OpBuilder &b, Value v) const;
  /// Calls `fn` with every accumulator element of the thread, in the layout
  /// of the kernel's main loop (MmaSyncLoop or SimtLoop).
  void forEachAccumulator(OpBuilder &b, ValueRange accs,
                          AccumulatorFn fn) const;

  const GPUGemmProblem &p;
  bool async;
  const GPUSplitK *split; // null: one slice, C written by this kernel
  Type elem;
  /// The K tile, the elements of a 16-byte chunk, and the row padding of
  /// the shared tiles (one chunk: ldmatrix's eight 16-byte rows, and the
  /// SIMT kernel's column reads, fall into distinct bank groups).
  int64_t bk, chunk, pad;

  // Set while the body is emitted.
  Value tid, lane, warpM, warpN, m0, n0;
  /// The K slice of this block (split-K: gridDim.z slices), else null.
  Value slice;
  Value gpuBlockX, gpuBlockY;
  /// Whether this block writes the row outputs, S and the saved statistics
  /// (the first column tile; i1, with writesRowOutputs).
  Value writesRows;
};

/// The staging of tiles into shared memory (Staging.cpp): 16-byte cp.async
/// copies, zero-filled past M, N and K by their source size, or guarded
/// element loads in the fallback kernel.
class TileStaging : public FusedGemmKernel {
public:
  explicit TileStaging(const FusedGemmKernel &kernel)
      : FusedGemmKernel(kernel) {}

  /// The shared tiles as views of the dynamic shared memory `raw`, and in
  /// `bytes` the size they take. With a null `raw` (on the host, for the
  /// launch's size) only `bytes` is computed.
  SharedTiles allocate(OpBuilder &b, Value raw, int64_t &bytes);
  /// Stages K tile `kt` of every operand into buffer `buf`; tiles past K
  /// (the last iteration's prefetch) copy nothing and zero-fill. Returns the
  /// token of the cp.async group it commits, null in the fallback kernel.
  Value stageTile(OpBuilder &b, const SharedTiles &s, Value kt, Value buf);

private:
  bool stagesGamma() const { return (isNorm() || normalizesA()) && p.gamma; }
  bool stagesBeta() const {
    return (isLayerNorm() || p.normalizesA == GemmPrologue::LayerNorm) &&
           p.beta;
  }
  /// min(max(v, 0), hi) on signed index values.
  Value clamp(OpBuilder &b, Value v, int64_t hi);
  /// Copies one 16-byte chunk of `elements` elements (`chunk` of the
  /// element type, fewer of a wider γ/β).
  void copyChunk(OpBuilder &b, Value src, Value srcRow, Value srcCol,
                 Value count, Value dst, ValueRange dstIndices,
                 SmallVectorImpl<Value> &tokens, int64_t elements);
};

/// The numerics of GemmProblem::normalizesA (cast_mode, pRMSNorm), defined
/// in NormPrologue.cpp: the row statistics from a pass of their own over
/// the row in global memory, and the normalized activation a = round(x̂·γ'
/// (+ β)) that replaces an element of the A tile. The one definition that
/// the mma.sync prologue (NormPrologue) and the warpgroup kernel's
/// (WarpgroupPrologue) use, so that both kernels multiply the same A.
class RowNormalizer : public ScalarArith {
public:
  RowNormalizer(Location loc, const GPUGemmProblem &p)
      : ScalarArith(loc, Float32Type::get(loc->getContext())), p(p) {}

  /// A row's statistics (f32): rstd, and for LayerNorm the f32 mean μ and
  /// the correction Σ(s − μ)/n kept beside it (null for RMSNorm).
  struct Statistics {
    Value rstd, mean, correction;
  };
  /// The statistics of global row `gm` (s = x, or round(x + residual)),
  /// summed by two threads of adjacent lanes (2r, 2r + 1; `parity` is the
  /// thread's lane % 2, an index), each every other element from `parity`:
  /// RMSNorm Σs² over the first ⌈partial·K⌉ columns; LayerNorm the mean,
  /// then Σ(s − μ) and Σ(s − μ)², over K (the corrected two-pass
  /// variance). The pair's sums are combined with a shuffle (xor 1): both
  /// threads get the same values, and every lane of the warp must call it.
  /// Rows past M sum nothing (a finite rstd, unused).
  Statistics rowStatistics(OpBuilder &b, Value gm, Value parity);
  /// One element, or a vector of elements of one row, of the normalized A:
  /// `s` (f32) as ((s − μ) − correction)·rstd (RMSNorm s·rstd), then
  /// applyNormWeight with `gamma` and `beta` (f32 like `s`, either null),
  /// rounded where the op's cast_mode says; 0 where `inside` (i1, null:
  /// everywhere) is false, i.e. past K; rounded to the element type (the
  /// MMA operand).
  Value normalize(OpBuilder &b, Value s, const Statistics &stats, Value gamma,
                  Value beta, Value inside);

private:
  /// s at (global row gm, column gk) in f32: x, or round(x + residual).
  Value globalInput(OpBuilder &b, Value gm, Value gk);

  const GPUGemmProblem &p;
};

/// The norm prologue on the shared A tiles (NormPrologue.cpp): the row
/// statistics, the in-place rewrite of A, S, and LayerNorm's column sums.
/// Two threads per row, each half of the row's K tile.
class NormPrologue : public FusedGemmKernel {
public:
  explicit NormPrologue(const FusedGemmKernel &kernel)
      : FusedGemmKernel(kernel) {}

  /// LayerNorm: the pivot p of the thread's row, the mean of the row's first
  /// K tile (buffer 0, staged and waited for before the loop), which onTile
  /// then sums about. The two threads of a row combine their halves with a
  /// shuffle.
  void computePivot(OpBuilder &b, const SharedTiles &s);
  /// normalizesA: the rstd (and LayerNorm's mean) of the thread's row, from
  /// a pass of its own over the row in global memory before the K loop (two
  /// threads a row, alternate elements): RMSNorm Σs² over the first
  /// ⌈partial·K⌉ columns, LayerNorm the mean, then Σ(s − μ)², over K. Both
  /// threads of the row store them (the same values) in the shared
  /// rowScale and rowShift, which onTile reads back: a register held
  /// across the K loop would spill.
  void computeRowNorm(OpBuilder &b, const SharedTiles &s);
  /// The statistics of the thread's half row of K tile `kt` (buffer `buf`),
  /// and the in-place rewrite a = round((x [− p])·γ') when the GEMM needs
  /// it. `stats`: RMSNorm {Σx², Σx² (second chain)}; LayerNorm {Σd, Σd²}.
  /// With normalizesA no statistics: a = round(x̂·γ' (+ β)), the row
  /// normalized with computeRowNorm's rstd and mean (0 past K).
  SmallVector<Value> onTile(OpBuilder &b, const SharedTiles &s, Value kt,
                            Value buf, ValueRange stats);
  /// LayerNorm: c_j += Σ_k γ'_k W_kj and (Σβ·W)_j += Σ_k β_k W_kj over the
  /// tile, for the thread's column j = tid of the block.
  SmallVector<Value> columnSums(OpBuilder &b, const SharedTiles &s, Value buf,
                                ValueRange sums);
  /// LayerNorm: the pivot computePivot set (null before, and for RMSNorm).
  Value rowPivot() const { return pivot; }

private:
  /// Whether the rewritten A is s itself (RMSNorm with a residual but
  /// without γ or weight_offset: no multiply).
  bool rewritesPlainSum() const {
    return p.prologue == GemmPrologue::RMSNorm && !p.gamma &&
           p.weightOffset == 0.0;
  }
  /// Whether K may not be a multiple of BK (LayerNorm must mask the tail).
  bool kMayHaveTail() const {
    std::optional<int64_t> k = getConstantIntValue(p.k);
    return !k || *k % bk != 0;
  }
  Value indexToF32(OpBuilder &b, Value v) {
    return arith::UIToFPOp::create(
        b, loc, b.getF32Type(),
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), v));
  }
  Value gammaPrime(OpBuilder &b, ArrayRef<Value> gammaLanes, int64_t l);
  SmallVector<Value> inputLanes(OpBuilder &b, const SharedTiles &s,
                                ValueRange indices,
                                SmallVectorImpl<Value> *narrowed = nullptr);
  void storeSum(OpBuilder &b, ArrayRef<Value> lanes, Value row, Value gk);

  Value pivot;
};

/// The tensor-core main loop (MmaSyncLoop.cpp): ldmatrix and mma.sync
/// m16n8k16 on the staged tiles, and the layout of its m16n8 accumulator
/// fragments: element (i, j) of tile (mt, nt) is block row warpM·32 +
/// 16·mt + lane / 4 + 8i, column warpN·64 + 8·nt + (lane % 4)·2 + j.
class MmaSyncLoop : public FusedGemmKernel {
public:
  explicit MmaSyncLoop(const FusedGemmKernel &kernel)
      : FusedGemmKernel(kernel) {}

  /// The accumulators plus the product of the K tile in buffer `buf`.
  SmallVector<Value> multiplyTile(OpBuilder &b, const SharedTiles &s, Value buf,
                                  ValueRange accs);
  /// Block row of accumulator row i of m16 tile mt.
  Value fragmentRow(OpBuilder &b, int64_t mt, int64_t i);
  /// Block column of the first of the pair of accumulator columns of n8
  /// tile nt.
  Value fragmentColumn(OpBuilder &b, int64_t nt);
  void forEachAccumulator(OpBuilder &b, ValueRange accs, AccumulatorFn fn);
};

/// The SIMT main loop of f32 GEMMs (SimtLoop.cpp): FMAs on the staged
/// tiles; the thread's element j of accumulator row i is block row
/// t / 16 + 8i, column t % 16 + 16j.
class SimtLoop : public FusedGemmKernel {
public:
  explicit SimtLoop(const FusedGemmKernel &kernel) : FusedGemmKernel(kernel) {}

  /// The accumulators plus the product of the K tile in buffer `buf`.
  SmallVector<Value> multiplyTile(OpBuilder &b, const SharedTiles &s, Value buf,
                                  ValueRange accs);
  void forEachAccumulator(OpBuilder &b, ValueRange accs, AccumulatorFn fn);
};

/// The epilogue of the unsplit kernel (Epilogue.cpp).
class GemmEpilogue : public FusedGemmKernel {
public:
  explicit GemmEpilogue(const FusedGemmKernel &kernel)
      : FusedGemmKernel(kernel) {}

  /// The row scale r (and LayerNorm's r·(μ − p)) from the two threads of
  /// each row, and the column vectors c and Σβ·W + bias, into shared memory;
  /// then a barrier. The first column tile also writes the saved statistics
  /// (LayerNorm's mean: `pivot` + (μ − p); with normalizesA those of
  /// computeRowNorm, read back from shared memory).
  void finishStatistics(OpBuilder &b, const SharedTiles &s, ValueRange stats,
                        ValueRange sums, Value pivot);
  /// C from the accumulators of the kernel's main loop.
  void storeOutput(OpBuilder &b, const SharedTiles &s, ValueRange accs);

private:
  Value outputValue(OpBuilder &b, const SharedTiles &s, Value acc, Value colL,
                    Value scale, Value shift, Value residual);
  void storeFragments(OpBuilder &b, const SharedTiles &s, ValueRange accs);
  void storeSimt(OpBuilder &b, const SharedTiles &s, ValueRange accs);
};

/// The epilogue of a split-K slice (SplitK.cpp): its raw partials instead
/// of C.
class SplitKPartials : public FusedGemmKernel {
public:
  explicit SplitKPartials(const FusedGemmKernel &kernel)
      : FusedGemmKernel(kernel) {}

  /// `pivot`: LayerNorm's, stored beside the row sums when the mean is
  /// saved (every slice has the same).
  void store(OpBuilder &b, ValueRange stats, ValueRange sums, ValueRange accs,
             Value pivot);
};

/// The stores of a split-K slice's partials into GPUSplitK's buffers, the
/// one place that knows their layout (GPUGemm.h), shared by the mma.sync
/// slices (SplitKPartials) and the warpgroup kernel's (WarpgroupGemm.cpp);
/// the reduction (emitGPUSplitKReduce) reads them. `slice` is the block's
/// gridDim.z index.
///
/// Row `row`'s sums over the slice's K tiles (RMSNorm: the two Σx² chains;
/// LayerNorm Σ(x − p), Σ(x − p)², and the pivot p third when the mean is
/// saved), when `writes` (i1: one thread a row, in one column of blocks)
/// holds and the row is inside A.
void emitStoreSplitRowSums(OpBuilder &b, Location loc,
                           const GPUGemmProblem &problem,
                           const GPUSplitK &split, Value slice, Value writes,
                           Value row, Value first, Value second, Value pivot);
/// LayerNorm: column `col`'s c = Σγ'W and Σβ·W over the slice's K tiles,
/// when `writes` (i1: one thread a column, in one row of blocks) holds and
/// the column is inside W.
void emitStoreSplitColumnSums(OpBuilder &b, Location loc,
                              const GPUGemmProblem &problem,
                              const GPUSplitK &split, Value slice, Value writes,
                              Value col, Value c, Value bw);
/// The partial accumulator(s) `v` at (`row`, `col`): an f32, or a
/// vector<Lxf32> of columns [col, col + L) stored as one access aligned to
/// its size. Unguarded: the caller tests that they are inside C.
void emitStoreSplitAccumulator(OpBuilder &b, Location loc,
                               const GPUSplitK &split, Value slice, Value row,
                               Value col, Value v);

/// A gpu.launch of gridX × gridY × gridZ blocks of `threads` threads with
/// `sharedBytes` of dynamic shared memory; `one` is an index 1 (the blocks'
/// y and z sizes). Shared by the fused and warpgroup kernels.
gpu::LaunchOp createGemmLaunch(OpBuilder &b, Location loc, Value gridX,
                               Value gridY, Value gridZ, Value one,
                               int64_t sharedBytes,
                               int64_t threads = GPUGemmTiles::kThreads);

/// The per-row scale r of a norm prologue from the row's sums over all of K
/// (`first`, `second`: RMSNorm Σx² and a second partial Σx² chain, LayerNorm
/// Σ(x − p) and Σ(x − p)²), divided by max(K, 1); sets `meanShift` to
/// LayerNorm's μ − p. Shared by every kernel's epilogue (Epilogue.cpp,
/// SplitK.cpp, WarpgroupGemm.cpp) so that all compute r the same way.
Value emitRowScale(OpBuilder &b, Location loc, const GPUGemmProblem &problem,
                   Value first, Value second, Value &meanShift);

/// The saved statistics of global row `row` (`mean` null for RMSNorm) into
/// the problem's mean / rstd outputs, where asked, when `writes` (i1) holds
/// and the row is inside A: called by the one thread a row that computed
/// them, in one column of blocks, so each row is written once. Shared by
/// every kernel (the statistics of normalizesA, the unsplit and warpgroup
/// epilogues, the split-K reduction).
void emitStoreRowStatistics(OpBuilder &b, Location loc,
                            const GPUGemmProblem &problem, Value writes,
                            Value row, Value mean, Value rstd);

/// The residual add of a norm prologue, s = round(x + r): x and r (of the
/// element type or f32, scalars or vectors alike) converted to f32, added
/// and rounded to `elem` once, as the CPU kernel and the row kernels do.
/// Returns s in `elem`. The one definition of s that the mma.sync
/// prologue (NormPrologue) and the warpgroup kernel's (WarpgroupPrologue)
/// use, so that both write the same S and normalize the same s.
Value emitResidualSum(OpBuilder &b, Location loc, Value x, Value r, Type elem);

/// One 16-byte chunk of S (`chunk`: a vector<8> of the element type) at
/// global row `row`, column `col` into the problem's `aSum`, when `writes`
/// (i1) holds and the chunk is inside M and K: one aligned vector store (the
/// TMA and cp.async kernels' K is a multiple of 8, so a chunk is wholly
/// inside or past K, and S is 16-byte aligned). Shared by the mma.sync and
/// warpgroup prologues.
void emitStoreSumChunk(OpBuilder &b, Location loc, const GPUGemmProblem &p,
                       Value writes, Value row, Value col, Value chunk);

/// The tail of an epilogue that reads bias and residual from global memory:
/// C[row, col] = v + bias[col] (+ residual[row, col]), v in f32, rounded to
/// C's element type once. A vector<Lxf32> v covers columns [col, col + L),
/// each buffer accessed as one vector, which must be aligned to its size.
/// Shared by the split-K reduction and the warpgroup kernel; the mma.sync
/// kernel stages its bias in shared memory instead.
void emitStoreOutput(OpBuilder &b, Location loc, const GPUGemmProblem &problem,
                     Value v, Value row, Value col);

} // namespace gpugemm
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GEMM_GEMMINTERNALS_H
