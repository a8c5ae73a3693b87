//===- Gemv.cpp - the small-M path of the fused GEMM ----------------------===//
//
// For a few rows (decode: M = 1, small batches) packing W costs more than the
// product: W is read, written to B̃ and read again, once per row block, while
// each W element feeds only M FMAs. Here W is streamed once, unpacked:
//
//   A (M × K, small) is packed once, before W is touched, by the GEMM's own
//   packer (packAllOfA, parallel over rows): transformed (x·γ') with the
//   row statistics and the residual sum, by K blocks ([K block][M][KC], rows
//   padded with zeros to whole vectors), so that a K block of all rows is one
//   run that L1 holds.
//
//   One row (decode, M = 1): nothing to reuse, so W is streamed in the
//   longest runs the layout has. scf.parallel over column chunks:
//     W as N×K (PyTorch Linear): 4 whole W rows at a time, a vector
//       accumulator per row along k (FMAs, or vdpbf16ps on bf16 pairs),
//       one reduction per output.
//     W as K×N: tasks of 4 KiB of each W row (1024 f32 or 2048 16-bit
//       columns) whose sums wait in L1 while groups of 8 W rows stream
//       past, each row one 4 KiB run; the GEMM's epilogue.
//
//   2..16 rows: each W element feeds up to 16 FMAs, so for f32 the product
//   is compute-bound on one core (16 × 4096² at the FMA peak takes longer
//   than streaming W); the kernels are K-blocked so that a block of W, read
//   from memory once, serves every row from L1, with register tiles of
//   4 rows × 6 (24 accumulators of AVX-512's 32 registers; then 3, 2, 1
//   rows). Between K blocks a tile's accumulators wait in a small per-task
//   scratch (24 vector loads and stores per K block of 256, 512 or 32 k's).
//     W as N×K: dot products. Per task 16 groups of 6 W rows; per group,
//       per K block of 256, every row tile: per 16 k's 6 W vectors (each
//       prefetched one K block on: a group's rows are read a K block at a
//       time, too slowly for the hardware prefetchers), 4 of Ã, 24 FMAs;
//       after the last K block one reduction and the epilogue per output.
//     W as K×N: row sweeps. Per task one group of 6 vectors of columns;
//       per K block of 32 rows the task's block of W goes (in f32) to a
//       contiguous buffer: in W its rows lie 4·N bytes apart, in the same
//       few L1 sets. The first 4-row tile copies it as it computes (it
//       loads those vectors anyway); with fewer rows it is copied first.
//       Every row tile: per k 6 vectors (of W or of the buffer), 4
//       broadcasts of Ã, 24 FMAs, and the next K block's 6 lines of that W
//       row prefetched into L2; the GEMM's epilogue after the last block.
//
// bf16 and f16 W are widened to f32 as they are loaded (copied, for K×N);
// accumulation and Ã stay f32, so the normalized activations are never
// rounded. With AVX512-BF16 (the packed GEMM's `dot`), W as N×K runs
// vdpbf16ps for any number of rows, two k's per instruction, on W as it is
// in memory: a W row's consecutive k's are already the instruction's pairs.
// Ã then holds bf16 pairs of round(x·γ') (multiplied in f32, rounded once),
// as in the packed GEMM: W is streamed, never copied. Still f32 statistics
// and accumulation, and r applied in f32 in the epilogue. W as K×N from 2
// rows (its one-row decode keeps f32 FMAs) runs the row sweeps on
// vdpbf16ps too: the W block holds k-pairs, rows k and k + 1 interleaved
// as they are copied, and Ã's pair is broadcast as one 32-bit word.
//
// LayerNorm: c = Σ_k γ'_k W_k· and Σ_k β_k W_k· are W multiplied by the rows
// γ' and β, so they are rows of Ã too (numColumnSums), in front of A's: the
// row tiles run in row order, and the first tile of each group of columns
// finishes c and Σβ·W (into a per-task buffer) before the rows that need
// them in their epilogue. One LayerNorm row thus runs as 2–3 rows of the
// few-rows kernels, not the decode ones.
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// The register tile of both kernels: up to kGemvTileRows rows of Ã ×
/// gemvGroup W rows (dot products) or vectors of columns (row sweeps) of
/// accumulators. AVX-512 has 32 registers: 4 × 6 = 24 accumulators, 6 W
/// vectors and one of Ã (with 16 registers: 4 × 3 + 3 + 1).
static constexpr int64_t kGemvTileRows = 4;
static int64_t gemvGroup(int64_t lanes) { return lanes >= 16 ? 6 : 3; }
/// K blocks (multiples of 16): the W block that a group uses in one K block
/// stays in L1 while every row tile uses it. Dot products: 6 W rows × 256 k
/// (6 KiB f32) beside the K block of Ã (16 KiB for 16 rows); row sweeps: 32
/// rows × 6 vectors (12 KiB, copied) beside 2 KiB of Ã and the tiles'
/// scratch. 64 rows and 2 groups per task (48 KiB, all of a Zen 5 L1)
/// measured 10–20% slower at 16 rows, 64 or 48 rows of one group no faster
/// than 32, 128 rows slower still.
static constexpr int64_t kDotBlockK = 256;
/// bf16 pairs: 512 k's, the same 1 KiB run of each W row as f32's 256
/// (16 KiB of Ã for 16 rows); 256 measured ~10% slower at 4 and 16 rows,
/// 1024 no faster than 512.
static constexpr int64_t kPairBlockK = 512;
static constexpr int64_t kSweepBlockK = 32;
/// Groups per thread task: 96 W rows (dot products), 96 columns (row
/// sweeps, whose copy then reads 384-byte runs of each W row, the lines
/// already in L2 from the row tiles' prefetches).
static constexpr int64_t kGemvGroupsPerTask = 16;
static constexpr int64_t kSweepGroupsPerTask = 1;
/// One row (decode): W rows per task with W as N×K; with W as K×N, W rows
/// per sweep (8 runs of kDecodeSweepBytes).
static constexpr int64_t kDecodeDotRowsPerTask = 64;
/// W as K×N: bytes of each W row a decode task reads as one run (1024 f32
/// or 2048 16-bit columns; the task's sums, 4 or 8 KiB, stay in L1). bf16's
/// runs were 2 KiB with a software prefetch of the next group's rows:
/// 4 KiB runs with no prefetch, as f32 runs, measured 5.06–5.48 →
/// 4.56–4.70 ms at 1×8192² bf16 on one thread, 2.52–4.15 → 2.24–2.32 on
/// two (a W larger than the L3; 4096², which the L3 partly holds, within
/// noise).
static constexpr int64_t kDecodeSweepBytes = 4096;
static constexpr int64_t kDecodeSweepRows = 8;
/// The default row limits of the GEMV (gemm-gemv-rows = 0), measured on a
/// Zen 5 core (docs/performance.md).
static constexpr int64_t kDefaultDotRows = 16;
static constexpr int64_t kDefaultSweepRows = 16;

int64_t FusedGemmEmitter::decodeSweepCols() const {
  return kDecodeSweepBytes / (elementTypeOf(p.w).getIntOrFloatBitWidth() / 8);
}

int64_t FusedGemmEmitter::gemvRowLimit() const {
  if (options.gemmGemvRows < 0)
    return 0;
  if (options.gemmGemvRows > 0)
    return options.gemmGemvRows;
  return p.transposeW ? kDefaultDotRows : kDefaultSweepRows;
}

void FusedGemmEmitter::emitGemv(OpBuilder &b) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  ChunkBuffers buf = allocateRowStatistics(b);
  // Ã is packed by K blocks, [K block][M][KC]: a K block of every row is one
  // contiguous run, which L1 keeps beside the W block it meets (Ã rows at
  // W's 16 KiB stride would share L1 sets with W's rows). Rows are padded to
  // whole vectors with zeros (packRow stores whole vectors). For bf16 dot
  // products Ã holds the bf16 rows unchanged (packRow's pair form, γ' goes
  // into the copied W), zero-filled first: its steps are 2L k's.
  auto packA = [&](OpBuilder &pb, bool pairs) {
    int64_t blockK = gemvBlockK();
    Value numK = arith::MaxUIOp::create(
        pb, loc, arith::CeilDivUIOp::create(pb, loc, p.k, index(pb, blockK)),
        one);
    Value size = mul(pb, mul(pb, numK, gemvARows(pb)), index(pb, blockK));
    if (pairs) {
      Type bf16 = pb.getBF16Type();
      buf.packedA = memref::AllocOp::create(
          pb, loc, MemRefType::get({ShapedType::kDynamic}, bf16),
          ValueRange{size}, pb.getI64IntegerAttr(64));
      VectorType pairType = VectorType::get({2 * s.lanes}, bf16);
      Value zeroPairs = arith::ConstantOp::create(
          pb, loc,
          DenseElementsAttr::get(pairType, pb.getFloatAttr(bf16, 0.0)));
      scf::ForOp::create(pb, loc, zero, size, index(pb, 2 * s.lanes),
                         ValueRange{},
                         [&](OpBuilder &nb, Location, Value i, ValueRange) {
                           vector::StoreOp::create(nb, loc, zeroPairs,
                                                   buf.packedA, ValueRange{i});
                           scf::YieldOp::create(nb, loc);
                         });
    } else {
      buf.packedA = allocF32(pb, size);
    }
    APacker(*this).packAllOfA(pb, buf, blockK, numColumnSums());
    if (numColumnSums())
      packColumnSumRows(pb, buf, pairs);
  };

  // One row (decode) has no reuse of W to block for: it streams whole W
  // rows (N×K) or long row runs (K×N) instead. Ã's one row is contiguous.
  auto oneRow = [&](OpBuilder &tb) {
    packA(tb, /*pairs=*/gemvPairs());
    forEachColumnTask(
        tb, p.transposeW ? kDecodeDotRowsPerTask : decodeSweepCols(),
        [&](OpBuilder &pb, Value jc, Value cols) {
          if (p.transposeW)
            gemvDecodeDots(pb, buf, jc, cols);
          else
            gemvDecodeSweeps(pb, buf, jc, cols);
        });
    memref::DeallocOp::create(tb, loc, buf.packedA);
  };
  auto fewRows = [&](OpBuilder &eb, bool pairs) {
    packA(eb, pairs);
    // A task's columns: groups of W rows (dot products) or of column vectors
    // (row sweeps).
    int64_t group = gemvGroup(s.lanes);
    int64_t taskCols = p.transposeW ? kGemvGroupsPerTask * group
                                    : kSweepGroupsPerTask * group * s.lanes;
    forEachColumnTask(
        eb, taskCols, [&](OpBuilder &pb, Value jc, Value cols) {
          // The accumulators of the task's groups between K blocks.
          Value scratch = allocF32(
              pb, mul(pb, gemvARows(pb),
                      index(pb, gemvScratchSlots() * group * s.lanes)));
          // LayerNorm's c and Σβ·W of the task's columns.
          ChunkBuffers taskBuf = buf;
          if (isLayerNorm()) {
            taskBuf.colSumW = allocF32(pb, taskCols);
            if (p.beta)
              taskBuf.colSumBetaW = allocF32(pb, taskCols);
          }
          if (p.transposeW)
            gemvDotProducts(pb, taskBuf, scratch, jc, cols, pairs);
          else
            gemvRowSweeps(pb, taskBuf, scratch, jc, cols);
          memref::DeallocOp::create(pb, loc, scratch);
          for (Value v : {taskBuf.colSumW, taskBuf.colSumBetaW})
            if (v)
              memref::DeallocOp::create(pb, loc, v);
        });
    memref::DeallocOp::create(eb, loc, buf.packedA);
  };
  // One row of A decodes, except LayerNorm's: with its column-sum rows it
  // is 2–3 rows of Ã, which the few-rows kernels run faster than decode
  // kernels widened to them (docs/design.md).
  bool decodes = !isLayerNorm();
  std::optional<int64_t> m = getConstantIntValue(p.m);
  if (m || !decodes) {
    if (decodes && *m == 1)
      oneRow(b);
    else
      fewRows(b, gemvPairs() || gemvSweepPairs());
  } else {
    scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, p.m, one),
        [&](OpBuilder &tb, Location) {
          oneRow(tb);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          fewRows(eb, gemvPairs() || gemvSweepPairs());
          scf::YieldOp::create(eb, loc);
        });
  }
  // matmul → norm: the row sweeps store C through storeTileRow, which
  // gathers the segment statistics; the dot products store per element.
  if (gathersSegmentStatistics() && p.transposeW)
    GemmEpilogue(*this).sweepSegmentStatistics(b);
  if (p.finishRows)
    p.finishRows(b, zero, p.m);
  deallocateRowStatistics(b, buf);
}

void FusedGemmEmitter::forEachColumnTask(
    OpBuilder &b, int64_t taskCols,
    function_ref<void(OpBuilder &, Value, Value)> body) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value chunkCols = index(b, taskCols);
  Value chunks = arith::CeilDivUIOp::create(b, loc, p.n, chunkCols);
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{chunks}, ValueRange{one},
      [&](OpBuilder &pb, Location, ValueRange ivs) {
        Value jc = mul(pb, ivs[0], chunkCols);
        body(pb, jc, minIndex(pb, chunkCols, sub(pb, p.n, jc)));
      });
}

/// Runs `body(start, count)` over [begin, end) in steps of each of `sizes`
/// (largest first), so that every size but the last covers whole steps.
static void
forEachTileSize(OpBuilder &b, Location loc, Value begin, Value end,
                ArrayRef<int64_t> sizes,
                function_ref<void(OpBuilder &, int64_t, Value)> body) {
  Value start = begin;
  for (int64_t size : sizes) {
    Value step = arith::ConstantIndexOp::create(b, loc, size);
    Value span = arith::SubIOp::create(b, loc, end, start);
    Value stop = arith::AddIOp::create(
        b, loc, start,
        arith::MulIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, span, step), step));
    scf::ForOp::create(b, loc, start, stop, step, ValueRange{},
                       [&](OpBuilder &nb, Location, Value i, ValueRange) {
                         body(nb, size, i);
                         scf::YieldOp::create(nb, loc);
                       });
    start = stop;
  }
}


SmallVector<Value>
FusedGemmEmitter::gemvLoadAccumulators(OpBuilder &b, Value scratch, Value slot,
                                       const KBlock &kb, Value firstRow,
                                       int64_t tileRows, int64_t tileAccs) {
  VectorType type = vecType(b.getF32Type());
  SmallVector<Type> types(tileRows * tileAccs, type);
  auto init = scf::IfOp::create(
      b, loc, kb.isFirst,
      [&](OpBuilder &tb, Location) {
        scf::YieldOp::create(
            tb, loc, SmallVector<Value>(tileRows * tileAccs, zeros(tb)));
      },
      [&](OpBuilder &eb, Location) {
        SmallVector<Value> accs;
        for (int64_t i = 0; i < tileRows; ++i)
          for (int64_t j = 0; j < tileAccs; ++j)
            accs.push_back(vector::LoadOp::create(
                eb, loc, type, scratch,
                ValueRange{gemvScratchIndex(eb, slot, firstRow, i, j)}));
        scf::YieldOp::create(eb, loc, accs);
      });
  return SmallVector<Value>(init.getResults());
}

void FusedGemmEmitter::gemvStoreAccumulators(OpBuilder &b, Value scratch,
                                             Value slot, Value firstRow,
                                             int64_t tileRows,
                                             ArrayRef<Value> accs) {
  int64_t tileAccs = accs.size() / tileRows;
  for (int64_t i = 0; i < tileRows; ++i)
    for (int64_t j = 0; j < tileAccs; ++j)
      vector::StoreOp::create(
          b, loc, accs[i * tileAccs + j], scratch,
          ValueRange{gemvScratchIndex(b, slot, firstRow, i, j)});
}

int64_t FusedGemmEmitter::gemvBlockK() const {
  if (!p.transposeW)
    return kSweepBlockK;
  return gemvPairs() ? kPairBlockK : kDotBlockK;
}

Value FusedGemmEmitter::gemvABase(OpBuilder &b, const KBlock &kb, Value row) {
  return add(b, mul(b, kb.start, gemvARows(b)),
             mul(b, row, index(b, gemvBlockK())));
}

Value FusedGemmEmitter::gemvARows(OpBuilder &b) {
  return add(b, p.m, index(b, numColumnSums()));
}

void FusedGemmEmitter::packColumnSumRows(OpBuilder &b, const ChunkBuffers &buf,
                                         bool pairs) {
  int64_t blockK = gemvBlockK();
  Value rows = gemvARows(b);
  forEachKBlock(b, blockK, [&](OpBuilder &kbld, const KBlock &kb) {
    Value panel = mul(kbld, kb.start, rows);
    auto step = [&](OpBuilder &nb, Value k, Value maskValue,
                    SmallVector<Value> &) {
      Value kk = sub(nb, k, kb.start);
      auto store = [&](Value v, int64_t row) {
        if (maskValue) // γ' = γ + offset is not 0 past K
          v = arith::SelectOp::create(nb, loc, maskValue, v, zeros(nb));
        if (pairs)
          v = narrow(nb, v, nb.getBF16Type());
        vector::StoreOp::create(
            nb, loc, v, buf.packedA,
            ValueRange{add(nb, panel, add(nb, index(nb, row * blockK), kk))});
      };
      Value g = gammaVectorAt(nb, k, maskValue);
      store(g ? g : splat(nb, f32Const(nb, 1.0)), 0);
      if (p.beta)
        store(loadF32(nb, p.beta, {k}, maskValue), 1);
    };
    vectorSteps(kbld, kb.start, kb.length, ValueRange{}, step, nullptr);
  });
}

void FusedGemmEmitter::storeColumnSumRows(OpBuilder &b,
                                          const ChunkBuffers &buf,
                                          Value firstRow, int64_t tileRows,
                                          Value col, ArrayRef<Value> accs) {
  int64_t numVectors = accs.size() / tileRows;
  Value sums[] = {buf.colSumW, buf.colSumBetaW};
  for (int64_t i = 0; i < tileRows; ++i)
    for (int64_t sumRow = 0; sumRow < numColumnSums(); ++sumRow) {
      Value isSumRow = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, add(b, firstRow, index(b, i)),
          index(b, sumRow));
      scf::IfOp::create(b, loc, isSumRow, [&](OpBuilder &tb, Location) {
        for (int64_t v = 0; v < numVectors; ++v)
          vector::StoreOp::create(
              tb, loc, accs[i * numVectors + v], sums[sumRow],
              ValueRange{add(tb, col, index(tb, v * s.lanes))});
        scf::YieldOp::create(tb, loc);
      });
    }
}

int64_t FusedGemmEmitter::gemvScratchSlots() const {
  return p.transposeW ? 1 : kSweepGroupsPerTask;
}

Value FusedGemmEmitter::gemvScratchIndex(OpBuilder &b, Value slot,
                                         Value firstRow, int64_t i, int64_t j) {
  int64_t group = gemvGroup(s.lanes);
  Value row = add(b, firstRow, index(b, i));
  Value rowSlot = add(b, mul(b, row, index(b, gemvScratchSlots())), slot);
  return add(b, mul(b, rowSlot, index(b, group * s.lanes)),
             index(b, j * s.lanes));
}

//===----------------------------------------------------------------------===//
// W as N×K: dot products
//===----------------------------------------------------------------------===//

bool FusedGemmEmitter::gemvPairs() const { return dot && p.transposeW; }

bool FusedGemmEmitter::gemvSweepPairs() const { return dot && !p.transposeW; }

void FusedGemmEmitter::gemvDotProducts(OpBuilder &b, const ChunkBuffers &buf,
                                       Value scratch, Value jc, Value cols,
                                       bool pairs) {
  Value zero = index(b, 0);
  int64_t group = gemvGroup(s.lanes);
  // Per group of W rows, per K block, every row tile: the group's K block of
  // W (6 runs of 1 KiB) is streamed from memory by the first row tile and
  // read from L1 by the others; the accumulators wait in `scratch` between
  // K blocks.
  forEachTileSize(
      b, loc, zero, cols, {group, 2, 1},
      [&](OpBuilder &nb, int64_t tileCols, Value n0) {
        Value firstCol = add(nb, jc, n0);
        forEachKBlock(nb, gemvBlockK(), [&](OpBuilder &kbld, const KBlock &kb) {
          forEachTileSize(kbld, loc, index(kbld, 0), gemvARows(kbld),
                          {kGemvTileRows, 3, 2, 1},
                          [&](OpBuilder &rb, int64_t tileRows, Value r0) {
                            gemvDotTile(rb, buf, scratch, tileRows, tileCols,
                                        r0, jc, firstCol, kb, pairs);
                          });
        });
      });
}

Value FusedGemmEmitter::loadWPairs(OpBuilder &b, Value row, Value k,
                                   Value maskValue) {
  Type bf16 = b.getBF16Type();
  VectorType pairType = VectorType::get({2 * s.lanes}, bf16);
  if (!maskValue)
    return vector::LoadOp::create(b, loc, pairType, p.w, ValueRange{row, k});
  Value passThru = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(pairType, b.getFloatAttr(bf16, 0.0)));
  return vector::MaskedLoadOp::create(b, loc, pairType, p.w,
                                      ValueRange{row, k}, maskValue, passThru);
}

/// A line of W row `row` one K block past `k` (clamped to the row): the
/// dot products read a group's W rows a K block at a time, too slowly for
/// the hardware prefetchers. The next group's rows follow in memory, where
/// those pick up.
void FusedGemmEmitter::prefetchWRowAhead(OpBuilder &b, Value row, Value k) {
  Value ahead = minIndex(b, add(b, k, index(b, gemvBlockK())),
                         sub(b, p.k, index(b, 1)));
  memref::PrefetchOp::create(b, loc, p.w, ValueRange{row, ahead},
                             /*isWrite=*/false, /*localityHint=*/3,
                             /*isDataCache=*/true);
}

int64_t FusedGemmEmitter::dotStepWidth(bool pairs) const {
  return pairs ? 2 * s.lanes : s.lanes;
}

Value FusedGemmEmitter::loadDotA(OpBuilder &b, const ChunkBuffers &buf,
                                 Value offset, bool pairs) {
  Type element = pairs ? Type(b.getBF16Type()) : Type(b.getF32Type());
  return vector::LoadOp::create(
      b, loc, VectorType::get({dotStepWidth(pairs)}, element), buf.packedA,
      ValueRange{offset});
}

Value FusedGemmEmitter::loadDotW(OpBuilder &b, Value row, Value k,
                                 Value maskValue, bool pairs) {
  return pairs ? loadWPairs(b, row, k, maskValue)
               : loadF32(b, p.w, {row, k}, maskValue);
}

/// f32: acc + a·w. bf16 pairs: one x86vector.avx512.dot (vdpbf16ps: per
/// lane acc += a₀w₀ + a₁w₁ in f32) on 2L bf16 of W as it is in memory: a W
/// row's consecutive k's are already the instruction's pairs.
Value FusedGemmEmitter::accumulateDot(OpBuilder &b, Value acc, Value a,
                                      Value w, bool pairs) {
  if (pairs)
    return x86vector::DotBF16Op::create(b, loc, acc.getType(), acc, a, w);
  return vector::FMAOp::create(b, loc, a, w, acc);
}

void FusedGemmEmitter::gemvDotTile(OpBuilder &b, const ChunkBuffers &buf,
                                   Value scratch, int64_t tileRows,
                                   int64_t tileCols, Value firstRow,
                                   Value jc, Value firstCol, const KBlock &kb,
                                   bool pairs) {
  Value zero = index(b, 0);
  SmallVector<Value> aBase, wRow;
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(gemvABase(b, kb, add(b, firstRow, index(b, i))));
  for (int64_t j = 0; j < tileCols; ++j)
    wRow.push_back(add(b, firstCol, index(b, j)));

  auto prefetch = [&](OpBuilder &nb, Value k) {
    for (Value row : wRow)
      prefetchWRowAhead(nb, row, k);
  };

  // One step at k (kk into the K block); `maskValue` (W's tail) or null.
  // Ã's padding is zero, so its loads need no mask. The tile's W vectors
  // are loaded once per step and serve every row.
  auto step = [&](OpBuilder &nb, Value k, Value maskValue,
                  SmallVector<Value> &accs) {
    Value kk = sub(nb, k, kb.start);
    SmallVector<Value> w;
    for (int64_t j = 0; j < tileCols; ++j)
      w.push_back(loadDotW(nb, wRow[j], k, maskValue, pairs));
    for (int64_t i = 0; i < tileRows; ++i) {
      Value a = loadDotA(nb, buf, add(nb, aBase[i], kk), pairs);
      for (int64_t j = 0; j < tileCols; ++j) {
        Value &acc = accs[i * tileCols + j];
        acc = accumulateDot(nb, acc, a, w[j], pairs);
      }
    }
  };

  SmallVector<Value> init =
      gemvLoadAccumulators(b, scratch, zero, kb, firstRow, tileRows, tileCols);
  // Only the last K block has a tail (K blocks are whole steps).
  auto tail = vectorSteps(
      b, kb.start, kb.length, init, step,
      options.prefetchNextRow ? function_ref<void(OpBuilder &, Value)>(prefetch)
                              : nullptr,
      dotStepWidth(pairs));

  scf::IfOp::create(
      b, loc, kb.isLast,
      [&](OpBuilder &tb, Location) {
        gemvDotEpilogue(tb, buf, tileRows, tileCols, firstRow, jc, firstCol,
                        tail.getResults());
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        gemvStoreAccumulators(eb, scratch, index(eb, 0), firstRow, tileRows,
                              SmallVector<Value>(tail.getResults()));
        scf::YieldOp::create(eb, loc);
      });
}

/// The epilogue, per element: r·dot + bias (+ residual), LayerNorm's
/// r·dot − r·(μ − p)·c + Σβ·W + bias, or C + dot for a linalg matmul;
/// rounded once. LayerNorm's column-sum rows (Ã rows 0 and 1) store c and
/// Σβ·W into the task's buffers instead, for the rows after them.
void FusedGemmEmitter::gemvDotEpilogue(OpBuilder &b, const ChunkBuffers &buf,
                                       int64_t tileRows, int64_t tileCols,
                                       Value firstRow, Value jc,
                                       Value firstCol, ValueRange accs) {
  Type elementType = elementTypeOf(p.c);
  int64_t sumRows = numColumnSums();
  Value sumBuffers[] = {buf.colSumW, buf.colSumBetaW};
  Value firstTaskCol = sumRows ? sub(b, firstCol, jc) : Value();
  for (int64_t i = 0; i < tileRows; ++i) {
    Value aRow = add(b, firstRow, index(b, i));
    SmallVector<Value> dots;
    for (int64_t j = 0; j < tileCols; ++j)
      dots.push_back(vector::ReductionOp::create(
          b, loc, vector::CombiningKind::ADD, accs[i * tileCols + j]));
    auto storeC = [&](OpBuilder &nb, Value row) {
      Value scale, negShift;
      if (isNorm())
        scale = memref::LoadOp::create(nb, loc, buf.scale, ValueRange{row});
      if (isLayerNorm())
        negShift = arith::NegFOp::create(
            nb, loc,
            memref::LoadOp::create(nb, loc, buf.shift, ValueRange{row}));
      for (int64_t j = 0; j < tileCols; ++j) {
        Value col = add(nb, firstCol, index(nb, j));
        Value out = dots[j];
        if (scale)
          out = arith::MulFOp::create(nb, loc, out, scale);
        if (isLayerNorm()) {
          Value taskCol = add(nb, firstTaskCol, index(nb, j));
          out = math::FmaOp::create(
              nb, loc, negShift,
              memref::LoadOp::create(nb, loc, buf.colSumW,
                                     ValueRange{taskCol}),
              out);
          if (p.beta)
            out = arith::AddFOp::create(
                nb, loc, out,
                memref::LoadOp::create(nb, loc, buf.colSumBetaW,
                                       ValueRange{taskCol}));
        }
        if (p.matmulBias)
          out = arith::AddFOp::create(nb, loc, out,
                                      loadScalarF32(nb, p.matmulBias, {col}));
        if (p.residual)
          out = arith::AddFOp::create(
              nb, loc, out, loadScalarF32(nb, p.residual, {row, col}));
        if (p.accumulateIntoC)
          out = arith::AddFOp::create(
              nb, loc, loadScalarF32(nb, p.c, {row, col}), out);
        if (!elementType.isF32())
          out = arith::TruncFOp::create(nb, loc, elementType, out);
        memref::StoreOp::create(nb, loc, out, p.c, ValueRange{row, col});
      }
    };
    if (!sumRows) {
      storeC(b, aRow);
      continue;
    }
    Value isARow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         aRow, index(b, sumRows));
    scf::IfOp::create(
        b, loc, isARow,
        [&](OpBuilder &tb, Location) {
          storeC(tb, sub(tb, aRow, index(tb, sumRows)));
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          // Row 0: c; row 1: Σβ·W.
          Value sumBuffer = sumBuffers[0];
          if (sumRows == 2)
            sumBuffer = arith::SelectOp::create(
                eb, loc,
                arith::CmpIOp::create(eb, loc, arith::CmpIPredicate::eq, aRow,
                                      index(eb, 0)),
                sumBuffers[0], sumBuffers[1]);
          for (int64_t j = 0; j < tileCols; ++j)
            memref::StoreOp::create(
                eb, loc, dots[j], sumBuffer,
                ValueRange{add(eb, firstTaskCol, index(eb, j))});
          scf::YieldOp::create(eb, loc);
        });
  }
}

//===----------------------------------------------------------------------===//
// W as K×N: row sweeps
//===----------------------------------------------------------------------===//

void FusedGemmEmitter::gemvRowSweeps(OpBuilder &b, const ChunkBuffers &buf,
                                     Value scratch, Value jc, Value cols) {
  int64_t group = gemvGroup(s.lanes);
  Value groupCols = index(b, group * s.lanes);
  // The K block of the chunk's W, copied (in f32) to a contiguous buffer,
  // [group][KC][group vectors]: in W its rows lie 4·N bytes apart, in the
  // same few L1 sets, and a group's share of a row (384 bytes) is too short
  // a run for the memory system; the copy reads whole chunk rows.
  // bf16 pairs (vdpbf16ps): [group][KC / 2][group vectors of k-pairs].
  int64_t blockSize = kSweepGroupsPerTask * kSweepBlockK * group * s.lanes;
  bool pairs = elementTypeOf(buf.packedA).isBF16();
  Value block = pairs ? memref::AllocOp::create(
                            b, loc, MemRefType::get({blockSize}, b.getBF16Type()),
                            ValueRange{}, b.getI64IntegerAttr(64))
                            .getResult()
                      : allocF32(b, blockSize);
  // Per K block and group of column vectors every row tile reads the
  // group's part from L1. With a whole first tile, that tile copies the
  // group's part as it computes (the loads it needs anyway, and a store
  // each, hidden under its FMAs); fewer rows copy the chunk first. The last
  // group of the chunk is masked.
  auto rowTiles = [&](OpBuilder &tb, const KBlock &kb, Value jr,
                      Value firstRow) {
    forEachTileSize(tb, loc, firstRow, gemvARows(tb), {kGemvTileRows, 3, 2, 1},
                    [&](OpBuilder &rb, int64_t tileRows, Value r0) {
                      gemvRowTile(rb, buf, scratch, block, tileRows, r0, jc,
                                  jr, cols, kb, /*copiesW=*/false);
                    });
  };
  auto forEachGroup = [&](OpBuilder &gb, function_ref<void(OpBuilder &, Value)>
                                             body) {
    scf::ForOp::create(gb, loc, index(gb, 0), cols, groupCols, ValueRange{},
                       [&](OpBuilder &nb, Location, Value jr, ValueRange) {
                         body(nb, jr);
                         scf::YieldOp::create(nb, loc);
                       });
  };
  forEachKBlock(b, kSweepBlockK, [&](OpBuilder &kbld, const KBlock &kb) {
    Value wholeFirstTile =
        arith::CmpIOp::create(kbld, loc, arith::CmpIPredicate::uge,
                              gemvARows(kbld), index(kbld, kGemvTileRows));
    scf::IfOp::create(
        kbld, loc, wholeFirstTile,
        [&](OpBuilder &tb, Location) {
          forEachGroup(tb, [&](OpBuilder &nb, Value jr) {
            gemvRowTile(nb, buf, scratch, block, kGemvTileRows, index(nb, 0),
                        jc, jr, cols, kb, /*copiesW=*/true);
            rowTiles(nb, kb, jr, index(nb, kGemvTileRows));
          });
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          if (pairs)
            gemvCopyWBlockPairs(eb, block, jc, cols, kb);
          else
            gemvCopyWBlock(eb, block, jc, cols, kb);
          forEachGroup(eb, [&](OpBuilder &nb, Value jr) {
            rowTiles(nb, kb, jr, index(nb, 0));
          });
          scf::YieldOp::create(eb, loc);
        });
  });
  memref::DeallocOp::create(b, loc, block);
}

Value FusedGemmEmitter::loadWRowPair(OpBuilder &b, Value k0, Value col,
                                     Value maskValue) {
  Type bf16 = b.getBF16Type();
  VectorType half = vecType(bf16);
  Value bf16Zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(half, b.getFloatAttr(bf16, 0.0)));
  Value k1 = add(b, k0, index(b, 1));
  Value lastRow = sub(b, p.k, index(b, 1));
  Value lo = vector::MaskedLoadOp::create(b, loc, half, p.w,
                                          ValueRange{k0, col}, maskValue,
                                          bf16Zeros);
  Value hi = arith::SelectOp::create(
      b, loc, less(b, k1, p.k),
      vector::MaskedLoadOp::create(b, loc, half, p.w,
                                   ValueRange{minIndex(b, k1, lastRow), col},
                                   maskValue, bf16Zeros),
      bf16Zeros);
  return vector::InterleaveOp::create(b, loc, lo, hi);
}

void FusedGemmEmitter::gemvCopyWBlockPairs(OpBuilder &b, Value block,
                                           Value jc, Value cols,
                                           const KBlock &kb) {
  int64_t group = gemvGroup(s.lanes);
  int64_t groupCols = group * s.lanes;
  Value zero = index(b, 0);
  Value steps = arith::CeilDivUIOp::create(b, loc, kb.length, index(b, 2));
  scf::ForOp::create(
      b, loc, zero, steps, index(b, 1), ValueRange{},
      [&](OpBuilder &kbld, Location, Value kp, ValueRange) {
        Value k0 = add(kbld, kb.start, mul(kbld, kp, index(kbld, 2)));
        Value rowOffset = mul(kbld, kp, index(kbld, 2 * groupCols));
        scf::ForOp::create(
            kbld, loc, zero, cols, index(kbld, groupCols), ValueRange{},
            [&](OpBuilder &nb, Location, Value jr, ValueRange) {
              Value slot =
                  arith::DivUIOp::create(nb, loc, jr, index(nb, groupCols));
              Value offset = add(
                  nb, mul(nb, slot, index(nb, kSweepBlockK * groupCols)),
                  rowOffset);
              for (int64_t v = 0; v < group; ++v) {
                Value inChunk = add(nb, jr, index(nb, v * s.lanes));
                Value col = add(nb, jc, inChunk);
                Value left = mask(nb, arith::MaxSIOp::create(
                                          nb, loc, sub(nb, cols, inChunk), zero));
                vector::StoreOp::create(
                    nb, loc, loadWRowPair(nb, k0, col, left), block,
                    ValueRange{add(nb, offset, index(nb, 2 * v * s.lanes))});
              }
              scf::YieldOp::create(nb, loc);
            });
        scf::YieldOp::create(kbld, loc);
      });
}

void FusedGemmEmitter::gemvCopyWBlock(OpBuilder &b, Value block, Value jc,
                                      Value cols, const KBlock &kb) {
  int64_t group = gemvGroup(s.lanes);
  int64_t groupCols = group * s.lanes;
  int64_t chunkCols = kSweepGroupsPerTask * groupCols;
  Value zero = index(b, 0);
  // At 16 rows each copied W vector feeds only 16 FMAs (8 cycles), so the
  // copy should cost about a load and a store per vector: every chunk but
  // the last is whole and copies with no masks and static offsets. (The
  // block's W lines were prefetched by the row tiles of the block before.)
  auto copyRows = [&](OpBuilder &cb, bool whole) {
    scf::ForOp::create(
        cb, loc, zero, kb.length, index(cb, 1), ValueRange{},
        [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
          Value k = add(kbld, kb.start, kk);
          Value rowOffset = mul(kbld, kk, index(kbld, groupCols));
          auto copyGroup = [&](OpBuilder &nb, Value jr, Value offset) {
            for (int64_t v = 0; v < group; ++v) {
              Value inChunk = add(nb, jr, index(nb, v * s.lanes));
              Value left;
              if (!whole)
                left = mask(nb, arith::MaxSIOp::create(
                                    nb, loc, sub(nb, cols, inChunk), zero));
              vector::StoreOp::create(
                  nb, loc, loadF32(nb, p.w, {k, add(nb, jc, inChunk)}, left),
                  block, ValueRange{add(nb, offset, index(nb, v * s.lanes))});
            }
          };
          if (whole) {
            for (int64_t g = 0; g < kSweepGroupsPerTask; ++g)
              copyGroup(kbld, index(kbld, g * groupCols),
                        add(kbld, rowOffset,
                            index(kbld, g * kSweepBlockK * groupCols)));
            scf::YieldOp::create(kbld, loc);
            return;
          }
          scf::ForOp::create(
              kbld, loc, zero, cols, index(kbld, groupCols), ValueRange{},
              [&](OpBuilder &nb, Location, Value jr, ValueRange) {
                Value slot =
                    arith::DivUIOp::create(nb, loc, jr, index(nb, groupCols));
                copyGroup(nb, jr,
                          add(nb,
                              mul(nb, slot,
                                  index(nb, kSweepBlockK * groupCols)),
                              rowOffset));
                scf::YieldOp::create(nb, loc);
              });
          scf::YieldOp::create(kbld, loc);
        });
  };
  scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cols,
                            index(b, chunkCols)),
      [&](OpBuilder &tb, Location) {
        copyRows(tb, /*whole=*/true);
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        copyRows(eb, /*whole=*/false);
        scf::YieldOp::create(eb, loc);
      });
}

void FusedGemmEmitter::prefetchNextSweepBlock(OpBuilder &b, Value jc,
                                              Value jr, Value cols,
                                              const KBlock &kb, Value kk) {
  int64_t group = gemvGroup(s.lanes);
  int64_t chunkCols = kSweepGroupsPerTask * group * s.lanes;
  // Whole chunks only (N ≥ chunkCols there), so that one clamp keeps every
  // line in W; the short last chunk goes without.
  Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cols,
                                      index(b, chunkCols));
  scf::IfOp::create(b, loc, whole, [&](OpBuilder &tb, Location) {
    // Row kk of the next K block, or past K the first block of the next
    // chunk's columns.
    Value next = add(tb, add(tb, kb.start, kk), index(tb, kSweepBlockK));
    Value past =
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge, next, p.k);
    Value row = minIndex(
        tb, arith::SelectOp::create(tb, loc, past, sub(tb, next, p.k), next),
        sub(tb, p.k, index(tb, 1)));
    Value firstCol = minIndex(
        tb,
        add(tb, add(tb, jc, jr),
            arith::SelectOp::create(tb, loc, past, cols, index(tb, 0))),
        sub(tb, p.n, index(tb, group * s.lanes)));
    // One prefetch per 64-byte line: 6 for f32, 3 for 16-bit W.
    int64_t bytes = elementTypeOf(p.w).getIntOrFloatBitWidth() / 8;
    int64_t vectorsPerLine = std::max<int64_t>(1, 64 / (s.lanes * bytes));
    for (int64_t v = 0; v < group; v += vectorsPerLine)
      memref::PrefetchOp::create(
          tb, loc, p.w,
          ValueRange{row, add(tb, firstCol, index(tb, v * s.lanes))},
          /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
    scf::YieldOp::create(tb, loc);
  });
}

void FusedGemmEmitter::gemvRowTile(OpBuilder &b, const ChunkBuffers &buf,
                                   Value scratch, Value block, int64_t tileRows,
                                   Value firstRow, Value jc, Value jr,
                                   Value cols, const KBlock &kb,
                                   bool copiesW) {
  int64_t tileVectors = gemvGroup(s.lanes);
  VectorType type = vecType(b.getF32Type());
  Value slot =
      arith::DivUIOp::create(b, loc, jr, index(b, tileVectors * s.lanes));
  Value blockBase =
      mul(b, slot, index(b, kSweepBlockK * tileVectors * s.lanes));
  SmallVector<Value> aBase;
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(gemvABase(b, kb, add(b, firstRow, index(b, i))));

  // Copying W: the group's columns of each W row (masked past the chunk's
  // columns: zeros in the block).
  SmallVector<Value> wMasks;
  if (copiesW)
    for (int64_t v = 0; v < tileVectors; ++v)
      wMasks.push_back(mask(
          b, arith::MaxSIOp::create(
                 b, loc, sub(b, cols, add(b, jr, index(b, v * s.lanes))),
                 index(b, 0))));

  SmallVector<Value> init = gemvLoadAccumulators(b, scratch, slot, kb, firstRow,
                                                 tileRows, tileVectors);
  // The next K block's W lines into L2, spread over the block's compute.
  // Every row tile issues them: measured faster than the first tile alone
  // (whose burst of prefetches is partly dropped) and than one burst in the
  // copy; into L1 they evict the block in use.
  auto prefetch = [&](OpBuilder &nb, Value kk) {
    if (options.prefetchNextRow)
      prefetchNextSweepBlock(nb, jc, jr, cols, kb, kk);
  };
  Value wCol = add(b, jc, jr);
  scf::ForOp sweep;
  if (elementTypeOf(block).isBF16()) {
    // bf16 pairs (vdpbf16ps): per step two W rows k, k + 1, interleaved into
    // k-pairs (the partner of an odd K's last row is zero, as is Ã's
    // padding), and Ã's pair (x_k, x_k+1)·γ' broadcast as one 32-bit word.
    VectorType pairType = VectorType::get({2 * s.lanes}, b.getBF16Type());
    Value steps = arith::CeilDivUIOp::create(b, loc, kb.length, index(b, 2));
    sweep = scf::ForOp::create(
        b, loc, index(b, 0), steps, index(b, 1), init,
        [&](OpBuilder &nb, Location, Value kp, ValueRange iter) {
          SmallVector<Value> accs(iter);
          Value kk = mul(nb, kp, index(nb, 2));
          prefetch(nb, kk);
          prefetch(nb, add(nb, kk, index(nb, 1)));
          Value offset = add(
              nb, blockBase, mul(nb, kp, index(nb, 2 * tileVectors * s.lanes)));
          Value k0 = add(nb, kb.start, kk);
          SmallVector<Value> w;
          for (int64_t v = 0; v < tileVectors; ++v) {
            Value blockIndex = add(nb, offset, index(nb, 2 * v * s.lanes));
            if (!copiesW) {
              w.push_back(vector::LoadOp::create(nb, loc, pairType, block,
                                                 ValueRange{blockIndex}));
              continue;
            }
            w.push_back(loadWRowPair(nb, k0, add(nb, wCol, index(nb, v * s.lanes)),
                                     wMasks[v]));
            vector::StoreOp::create(nb, loc, w.back(), block,
                                    ValueRange{blockIndex});
          }
          for (int64_t i = 0; i < tileRows; ++i) {
            Value a = broadcastAPair(nb, buf.packedA, add(nb, aBase[i], kk));
            for (int64_t v = 0; v < tileVectors; ++v) {
              Value &acc = accs[i * tileVectors + v];
              acc = x86vector::DotBF16Op::create(nb, loc, acc.getType(), acc,
                                                 a, w[v]);
            }
          }
          scf::YieldOp::create(nb, loc, accs);
        });
  } else {
    sweep = scf::ForOp::create(
        b, loc, index(b, 0), kb.length, index(b, 1), init,
        [&](OpBuilder &nb, Location, Value kk, ValueRange iter) {
          SmallVector<Value> accs(iter);
          Value offset = add(nb, blockBase,
                             mul(nb, kk, index(nb, tileVectors * s.lanes)));
          prefetch(nb, kk);
          SmallVector<Value> w;
          for (int64_t v = 0; v < tileVectors; ++v) {
            Value blockIndex = add(nb, offset, index(nb, v * s.lanes));
            if (!copiesW) {
              w.push_back(vector::LoadOp::create(nb, loc, type, block,
                                                 ValueRange{blockIndex}));
              continue;
            }
            w.push_back(loadF32(nb, p.w,
                                {add(nb, kb.start, kk),
                                 add(nb, wCol, index(nb, v * s.lanes))},
                                wMasks[v]));
            vector::StoreOp::create(nb, loc, w.back(), block,
                                    ValueRange{blockIndex});
          }
          for (int64_t i = 0; i < tileRows; ++i) {
            Value a = splat(
                nb, memref::LoadOp::create(nb, loc, buf.packedA,
                                           ValueRange{add(nb, aBase[i], kk)}));
            for (int64_t v = 0; v < tileVectors; ++v) {
              Value &acc = accs[i * tileVectors + v];
              acc = vector::FMAOp::create(nb, loc, a, w[v], acc);
            }
          }
          scf::YieldOp::create(nb, loc, accs);
        });
  }

  ValueRange accs = sweep.getResults();
  scf::IfOp::create(
      b, loc, kb.isLast,
      [&](OpBuilder &tb, Location) {
        // LayerNorm's c and Σβ·W first (Ã rows 0 and 1, in the first tile):
        // columnConstants reads them for the rows of A.
        int64_t sumRows = numColumnSums();
        if (sumRows)
          storeColumnSumRows(tb, buf, firstRow, tileRows, jr,
                             SmallVector<Value>(accs));
        GemmEpilogue epilogue(*this);
        SmallVector<Value> masks, constant, colSums;
        epilogue.columnConstants(tb, buf, jc, jr, cols, tileVectors, masks,
                                 constant, colSums);
        Value isTrue = arith::ConstantIntOp::create(tb, loc, tb.getI1Type(), 1);
        KBlock whole{index(tb, 0), p.k, isTrue, isTrue};
        for (int64_t i = 0; i < tileRows; ++i) {
          Value aRow = add(tb, firstRow, index(tb, i));
          auto store = [&](OpBuilder &sb, Value row) {
            epilogue.storeTileRow(
                sb, buf, p.c, row, jc, jr, masks, constant, colSums,
                SmallVector<Value>(accs.slice(i * tileVectors, tileVectors)),
                whole);
          };
          if (!sumRows) {
            store(tb, aRow);
            continue;
          }
          scf::IfOp::create(
              tb, loc,
              arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge, aRow,
                                    index(tb, sumRows)),
              [&](OpBuilder &sb, Location) {
                store(sb, sub(sb, aRow, index(sb, sumRows)));
                scf::YieldOp::create(sb, loc);
              });
        }
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        gemvStoreAccumulators(eb, scratch, slot, firstRow, tileRows,
                              SmallVector<Value>(accs));
        scf::YieldOp::create(eb, loc);
      });
}

//===----------------------------------------------------------------------===//
// One row (decode)
//===----------------------------------------------------------------------===//

void FusedGemmEmitter::gemvDecodeDots(OpBuilder &b, const ChunkBuffers &buf,
                                      Value jc, Value cols) {
  // 4 W rows at a time, each streamed whole: 4 long runs that the hardware
  // prefetchers follow.
  bool pairs = elementTypeOf(buf.packedA).isBF16();
  forEachTileSize(b, loc, index(b, 0), cols, {4, 1},
                  [&](OpBuilder &nb, int64_t tileCols, Value n0) {
                    gemvDecodeDotTile(nb, buf, tileCols, add(nb, jc, n0),
                                      pairs);
                  });
}

void FusedGemmEmitter::gemvDecodeDotTile(OpBuilder &b, const ChunkBuffers &buf,
                                         int64_t tileCols, Value firstCol,
                                         bool pairs) {
  Value zero = index(b, 0);
  SmallVector<Value> wRow;
  for (int64_t j = 0; j < tileCols; ++j)
    wRow.push_back(add(b, firstCol, index(b, j)));

  // One step at k; `maskValue` (W's tail) or null. Ã's padding is zero, so
  // its loads need no mask; its one row is contiguous.
  auto step = [&](OpBuilder &nb, Value k, Value maskValue,
                  SmallVector<Value> &accs) {
    Value a = loadDotA(nb, buf, k, pairs);
    for (int64_t j = 0; j < tileCols; ++j)
      accs[j] = accumulateDot(nb, accs[j], a,
                              loadDotW(nb, wRow[j], k, maskValue, pairs), pairs);
  };

  SmallVector<Value> init(tileCols, zeros(b));
  auto tail =
      vectorSteps(b, zero, p.k, init, step, nullptr, dotStepWidth(pairs));
  // (jc: only LayerNorm's column sums use it, and LayerNorm never decodes.)
  gemvDotEpilogue(b, buf, 1, tileCols, zero, /*jc=*/Value(), firstCol,
                  tail.getResults());
}

void FusedGemmEmitter::gemvDecodeSweeps(OpBuilder &b, const ChunkBuffers &buf,
                                        Value jc, Value cols) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value lanes = index(b, s.lanes);
  VectorType type = vecType(b.getF32Type());
  // The chunk's sums, one f32 per column (4 or 8 KiB), stay in L1 while
  // W's rows stream past; padded to whole epilogue groups and zeroed.
  int64_t epilogueVectors = s.lanes >= 16 ? 16 : 8;
  int64_t sumsSize = roundUp(decodeSweepCols(), epilogueVectors * s.lanes);
  Value sums = allocF32(b, sumsSize);
  scf::ForOp::create(b, loc, zero, index(b, sumsSize), lanes, ValueRange{},
                     [&](OpBuilder &nb, Location, Value i, ValueRange) {
                       vector::StoreOp::create(nb, loc, zeros(nb), sums,
                                               ValueRange{i});
                       scf::YieldOp::create(nb, loc);
                     });

  // `rows` rows of W from k0, each read as one run of the chunk's columns
  // (4 KiB, which the hardware prefetchers stream with no help: see
  // kDecodeSweepBytes); per vector of columns the sum is loaded and stored
  // once for all rows.
  auto sweepRows = [&](OpBuilder &rb, Value k0, int64_t rows) {
    SmallVector<Value> a, k;
    for (int64_t g = 0; g < rows; ++g) {
      k.push_back(add(rb, k0, index(rb, g)));
      a.push_back(splat(
          rb, memref::LoadOp::create(rb, loc, buf.packedA, ValueRange{k[g]})));
    }
    auto step = [&](OpBuilder &nb, Value jr, Value maskValue,
                    SmallVector<Value> &) {
      Value col = add(nb, jc, jr);
      Value sum = vector::LoadOp::create(nb, loc, type, sums, ValueRange{jr});
      for (int64_t g = 0; g < rows; ++g)
        sum = vector::FMAOp::create(nb, loc, a[g],
                                    loadF32(nb, p.w, {k[g], col}, maskValue),
                                    sum);
      vector::StoreOp::create(nb, loc, sum, sums, ValueRange{jr});
    };
    vectorSteps(rb, zero, cols, ValueRange{}, step, nullptr);
  };
  Value groupRows = index(b, kDecodeSweepRows);
  Value grouped =
      mul(b, arith::DivUIOp::create(b, loc, p.k, groupRows), groupRows);
  scf::ForOp::create(b, loc, zero, grouped, groupRows, ValueRange{},
                     [&](OpBuilder &nb, Location, Value k0, ValueRange) {
                       sweepRows(nb, k0, kDecodeSweepRows);
                       scf::YieldOp::create(nb, loc);
                     });
  scf::ForOp::create(b, loc, grouped, p.k, one, ValueRange{},
                     [&](OpBuilder &nb, Location, Value k0, ValueRange) {
                       sweepRows(nb, k0, 1);
                       scf::YieldOp::create(nb, loc);
                     });

  // The GEMM's epilogue, per group of vectors of columns.
  Value isTrue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  scf::ForOp::create(
      b, loc, zero, cols, index(b, epilogueVectors * s.lanes), ValueRange{},
      [&](OpBuilder &nb, Location, Value jr, ValueRange) {
        GemmEpilogue epilogue(*this);
        SmallVector<Value> masks, constant, colSums, accs;
        epilogue.columnConstants(nb, buf, jc, jr, cols, epilogueVectors, masks,
                                 constant, colSums);
        for (int64_t v = 0; v < epilogueVectors; ++v)
          accs.push_back(vector::LoadOp::create(
              nb, loc, type, sums,
              ValueRange{add(nb, jr, index(nb, v * s.lanes))}));
        KBlock whole{zero, p.k, isTrue, isTrue};
        epilogue.storeTileRow(nb, buf, p.c, zero, jc, jr, masks, constant,
                              colSums, accs, whole);
        scf::YieldOp::create(nb, loc);
      });
  memref::DeallocOp::create(b, loc, sums);
}
