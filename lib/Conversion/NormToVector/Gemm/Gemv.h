//===- Gemv.h - the small-M path of the CPU GEMM ----------------*- C++ -*-===//
//
// Private to the CPU GEMM (NormToVector/Gemm): the GEMV that takes the fused
// GEMM's few-row cases (Gemv.cpp says how), its block sizes, and its parts,
// one file each:
//
//   Gemv.cpp       GemvEmitter: A packed, W's column tasks on threads, and
//                  GemvKernels: what the kernels share (Ã's layout, the
//                  accumulators' scratch between K blocks)
//   GemvDot.cpp    GemvDots: W as N×K, dot products along W's rows
//   GemvSweep.cpp  GemvSweeps: W as K×N, sweeps along W's rows
//
// They reuse the packed GEMM's A packing and epilogue (GemmEmitter.h).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMV_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMV_H

#include "GemmEmitter.h"

namespace mlir {
namespace norm {
namespace gemm {

/// The register tile of both kernels: up to kGemvTileRows rows of Ã ×
/// gemvGroup W rows (dot products) or vectors of columns (row sweeps) of
/// accumulators. AVX-512 has 32 registers: 4 × 6 = 24 accumulators, 6 W
/// vectors and one of Ã (with 16 registers: 4 × 3 + 3 + 1).
constexpr int64_t kGemvTileRows = 4;
inline int64_t gemvGroup(int64_t lanes) { return lanes >= 16 ? 6 : 3; }
/// K blocks (multiples of 16): the W block that a group uses in one K block
/// stays in L1 while every row tile uses it. Dot products: 6 W rows × 256 k
/// (6 KiB f32) beside the K block of Ã (16 KiB for 16 rows); row sweeps: 32
/// rows × 6 vectors (12 KiB, copied) beside 2 KiB of Ã and the tiles'
/// scratch. 64 rows and 2 groups per task (48 KiB, all of a Zen 5 L1)
/// measured 10–20% slower at 16 rows, 64 or 48 rows of one group no faster
/// than 32, 128 rows slower still.
constexpr int64_t kDotBlockK = 256;
/// bf16 pairs: 512 k's, the same 1 KiB run of each W row as f32's 256
/// (16 KiB of Ã for 16 rows); 256 measured ~10% slower at 4 and 16 rows,
/// 1024 no faster than 512.
constexpr int64_t kPairBlockK = 512;
constexpr int64_t kSweepBlockK = 32;
/// Groups per thread task: 96 W rows (dot products), 96 columns (row
/// sweeps, whose copy then reads 384-byte runs of each W row, the lines
/// already in L2 from the row tiles' prefetches).
constexpr int64_t kGemvGroupsPerTask = 16;
constexpr int64_t kSweepGroupsPerTask = 1;
/// One row (decode): W rows per task with W as N×K; with W as K×N, W rows
/// per sweep (8 runs of kDecodeSweepBytes).
constexpr int64_t kDecodeDotRowsPerTask = 64;
/// W as K×N: bytes of each W row a decode task reads as one run (1024 f32
/// or 2048 16-bit columns; the task's sums, 4 or 8 KiB, stay in L1). bf16's
/// runs were 2 KiB with a software prefetch of the next group's rows:
/// 4 KiB runs with no prefetch, as f32 runs, measured 5.06–5.48 →
/// 4.56–4.70 ms at 1×8192² bf16 on one thread, 2.52–4.15 → 2.24–2.32 on
/// two (a W larger than the L3; 4096², which the L3 partly holds, within
/// noise).
constexpr int64_t kDecodeSweepBytes = 4096;
constexpr int64_t kDecodeSweepRows = 8;
/// The default row limits of the GEMV (gemm-gemv-rows = 0), measured on a
/// Zen 5 core (docs/performance.md).
constexpr int64_t kDefaultDotRows = 16;
constexpr int64_t kDefaultSweepRows = 16;

/// Runs `body(start, count)` over [begin, end) in steps of each of `sizes`
/// (largest first), so that every size but the last covers whole steps.
void forEachTileSize(OpBuilder &b, Location loc, Value begin, Value end,
                     ArrayRef<int64_t> sizes,
                     function_ref<void(OpBuilder &, int64_t, Value)> body);

/// What the GEMV's kernels share (Gemv.cpp): where Ã's rows are, and the
/// scratch in which a tile's accumulators wait between K blocks.
class GemvKernels : public GemmEmitter {
public:
  explicit GemvKernels(const GemmEmitter &e) : GemmEmitter(e) {}

protected:
  /// Columns per decode task with W as K×N: kDecodeSweepBytes of a W row.
  int64_t decodeSweepCols() const;
  /// A tile's accumulators at the start of K block `kb`: zeros in the first,
  /// else what the previous K block left in the task's scratch.
  SmallVector<Value> gemvLoadAccumulators(OpBuilder &b, Value scratch,
                                          Value slot, const KBlock &kb,
                                          Value firstRow, int64_t tileRows,
                                          int64_t tileAccs);
  void gemvStoreAccumulators(OpBuilder &b, Value scratch, Value slot,
                             Value firstRow, int64_t tileRows,
                             ArrayRef<Value> accs);
  /// The task's scratch holds, per row, this many groups of accumulators
  /// (the group `slot`).
  int64_t gemvScratchSlots() const;
  Value gemvScratchIndex(OpBuilder &b, Value slot, Value firstRow, int64_t i,
                         int64_t j);
  /// The GEMV's K block, and where row `row` of K block `kb` starts in Ã
  /// ([K block][gemvARows][KC]).
  int64_t gemvBlockK() const;
  Value gemvABase(OpBuilder &b, const KBlock &kb, Value row);
  /// Ã's rows in the GEMV: M + numColumnSums(). LayerNorm's column
  /// constants c = γ'ᵀW and Σβ·W = βᵀW are products of W with one more row
  /// each, so Ã gets rows γ' and β in front of A's, and the row tiles, which
  /// run in row order, finish them before the rows that need them.
  Value gemvARows(OpBuilder &b);
  /// bf16 dot products (vdpbf16ps) in the N×K GEMV: Ã holds bf16 pairs of
  /// round(x·γ'), W is read as it is.
  bool gemvPairs() const;
  /// bf16 dot products in the row sweeps (W as K×N on AVX512-BF16): Ã and
  /// the W block hold k-pairs, copied with rows k and k + 1 interleaved.
  bool gemvSweepPairs() const;
};

/// W as N×K (GemvDot.cpp): per output a dot product along a W row, whose
/// consecutive k's are already vdpbf16ps's pairs.
class GemvDots : public GemvKernels {
public:
  using GemvKernels::GemvKernels;

  void gemvDotProducts(OpBuilder &b, const ChunkBuffers &buf, Value scratch,
                       Value jc, Value cols, bool pairs);
  /// One row (decode): W streamed in long runs, no K blocks.
  void gemvDecodeDots(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                      Value cols);

private:
  /// One register tile of the N×K dot products for K block `kb`: f32 FMAs,
  /// or with `pairs` vdpbf16ps on Ã's bf16 pairs and W as it is.
  void gemvDotTile(OpBuilder &b, const ChunkBuffers &buf, Value scratch,
                   int64_t tileRows, int64_t tileCols, Value firstRow, Value jc,
                   Value firstCol, const KBlock &kb, bool pairs);
  /// The dot products' step: L k's (f32) or 2L (bf16 pairs); a step of Ã
  /// at `offset`, of W row `row` from `k`, and their product added to
  /// `acc`.
  int64_t dotStepWidth(bool pairs) const;
  Value loadDotA(OpBuilder &b, const ChunkBuffers &buf, Value offset,
                 bool pairs);
  Value loadDotW(OpBuilder &b, Value row, Value k, Value maskValue, bool pairs);
  Value accumulateDot(OpBuilder &b, Value acc, Value a, Value w, bool pairs);
  /// 2L bf16 of W row `row` from `k` (lanes outside `maskValue`, when
  /// non-null, read as zero), and a prefetch of the row one K block on.
  Value loadWPairs(OpBuilder &b, Value row, Value k, Value maskValue);
  void prefetchWRowAhead(OpBuilder &b, Value row, Value k);
  void gemvDotEpilogue(OpBuilder &b, const ChunkBuffers &buf, int64_t tileRows,
                       int64_t tileCols, Value firstRow, Value jc,
                       Value firstCol, ValueRange accs);
  void gemvDecodeDotTile(OpBuilder &b, const ChunkBuffers &buf,
                         int64_t tileCols, Value firstCol, bool pairs);
};

/// W as K×N (GemvSweep.cpp): sweeps along W's rows, each k one FMA per
/// vector of columns, and the packed GEMM's epilogue.
class GemvSweeps : public GemvKernels {
public:
  using GemvKernels::GemvKernels;

  void gemvRowSweeps(OpBuilder &b, const ChunkBuffers &buf, Value scratch,
                     Value jc, Value cols);
  /// One row (decode): runs of kDecodeSweepBytes of each W row, no K
  /// blocks.
  void gemvDecodeSweeps(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                        Value cols);

private:
  void gemvCopyWBlock(OpBuilder &b, Value block, Value jc, Value cols,
                      const KBlock &kb);
  void gemvCopyWBlockPairs(OpBuilder &b, Value block, Value jc, Value cols,
                           const KBlock &kb);
  /// W rows k0 and k0 + 1 at `col` (L bf16 each, lanes outside `maskValue`
  /// zero) interleaved into L k-pairs; past K the partner row is zero.
  Value loadWRowPair(OpBuilder &b, Value k0, Value col, Value maskValue);
  void prefetchNextSweepBlock(OpBuilder &b, Value jc, Value jr, Value cols,
                              const KBlock &kb, Value kk);
  void gemvRowTile(OpBuilder &b, const ChunkBuffers &buf, Value scratch,
                   Value block, int64_t tileRows, Value firstRow, Value jc,
                   Value jr, Value cols, const KBlock &kb, bool copiesW);
  /// Stores the finished sums of the column-sum rows (Ã rows 0 and 1: c
  /// and Σβ·W) among a row tile's `accs` (vectors of the row sweeps) into
  /// the task's buffers from task column `col`. Rows from numColumnSums() on
  /// are A's and are not touched.
  void storeColumnSumRows(OpBuilder &b, const ChunkBuffers &buf, Value firstRow,
                          int64_t tileRows, Value col, ArrayRef<Value> accs);
};

/// The GEMV (Gemv.cpp): Ã packed, then W's column tasks on the threads, on
/// the kernels that the layout of W and the number of rows call for.
class GemvEmitter : public GemvKernels {
public:
  using GemvKernels::GemvKernels;

  /// Up to how many rows the GEMV is used (0: never).
  int64_t gemvRowLimit() const;
  void emitGemv(OpBuilder &b);

private:
  /// `body(jc, cols)` for each task of `taskCols` columns of C (the last
  /// one short), spread over the threads by an scf.parallel.
  void forEachColumnTask(OpBuilder &b, int64_t taskCols,
                         function_ref<void(OpBuilder &, Value, Value)> body);
  /// Packs the rows γ' (and β) into Ã rows 0 (and 1), zero past K.
  void packColumnSumRows(OpBuilder &b, const ChunkBuffers &buf, bool pairs);
};

} // namespace gemm
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMV_H
