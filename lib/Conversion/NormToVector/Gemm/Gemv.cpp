//===- Gemv.cpp - the small-M path of the CPU GEMM ------------------------===//
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

#include "Gemv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

//===----------------------------------------------------------------------===//
// The GEMV
//===----------------------------------------------------------------------===//

int64_t GemvEmitter::gemvRowLimit() const {
  if (options.gemmGemvRows < 0)
    return 0;
  if (options.gemmGemvRows > 0)
    return options.gemmGemvRows;
  return p.transposeW ? kDefaultDotRows : kDefaultSweepRows;
}

void GemvEmitter::emitGemv(OpBuilder &b) {
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
      Value zeroPairs = zerosOf(pb, pairType);
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
    forEachColumnTask(tb,
                      p.transposeW ? kDecodeDotRowsPerTask : decodeSweepCols(),
                      [&](OpBuilder &pb, Value jc, Value cols) {
                        if (p.transposeW)
                          GemvDots(*this).gemvDecodeDots(pb, buf, jc, cols);
                        else
                          GemvSweeps(*this).gemvDecodeSweeps(pb, buf, jc, cols);
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
    forEachColumnTask(eb, taskCols, [&](OpBuilder &pb, Value jc, Value cols) {
      // The accumulators of the task's groups between K blocks.
      Value scratch =
          allocF32(pb, mul(pb, gemvARows(pb),
                           index(pb, gemvScratchSlots() * group * s.lanes)));
      // LayerNorm's c and Σβ·W of the task's columns.
      ChunkBuffers taskBuf = buf;
      if (isLayerNorm()) {
        taskBuf.colSumW = allocF32(pb, taskCols);
        if (p.beta)
          taskBuf.colSumBetaW = allocF32(pb, taskCols);
      }
      if (p.transposeW)
        GemvDots(*this).gemvDotProducts(pb, taskBuf, scratch, jc, cols, pairs);
      else
        GemvSweeps(*this).gemvRowSweeps(pb, taskBuf, scratch, jc, cols);
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
    ifElse(b, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, p.m, one),
           oneRow, [&](OpBuilder &eb) {
             fewRows(eb, gemvPairs() || gemvSweepPairs());
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

void GemvEmitter::forEachColumnTask(
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

void GemvEmitter::packColumnSumRows(OpBuilder &b, const ChunkBuffers &buf,
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
      store(g ? g : splat(nb, f32(nb, 1.0)), 0);
      if (p.beta)
        store(loadAcc(nb, p.beta, {k}, maskValue), 1);
    };
    vectorSteps(kbld, kb.start, kb.length, ValueRange{}, step, nullptr);
  });
}

//===----------------------------------------------------------------------===//
// What the kernels share
//===----------------------------------------------------------------------===//

void mlir::norm::gemm::forEachTileSize(
    OpBuilder &b, Location loc, Value begin, Value end, ArrayRef<int64_t> sizes,
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

int64_t GemvKernels::decodeSweepCols() const {
  return kDecodeSweepBytes / (elementTypeOf(p.w).getIntOrFloatBitWidth() / 8);
}

SmallVector<Value>
GemvKernels::gemvLoadAccumulators(OpBuilder &b, Value scratch, Value slot,
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

void GemvKernels::gemvStoreAccumulators(OpBuilder &b, Value scratch, Value slot,
                                        Value firstRow, int64_t tileRows,
                                        ArrayRef<Value> accs) {
  int64_t tileAccs = accs.size() / tileRows;
  for (int64_t i = 0; i < tileRows; ++i)
    for (int64_t j = 0; j < tileAccs; ++j)
      vector::StoreOp::create(
          b, loc, accs[i * tileAccs + j], scratch,
          ValueRange{gemvScratchIndex(b, slot, firstRow, i, j)});
}

int64_t GemvKernels::gemvBlockK() const {
  if (!p.transposeW)
    return kSweepBlockK;
  return gemvPairs() ? kPairBlockK : kDotBlockK;
}

Value GemvKernels::gemvABase(OpBuilder &b, const KBlock &kb, Value row) {
  return add(b, mul(b, kb.start, gemvARows(b)),
             mul(b, row, index(b, gemvBlockK())));
}

Value GemvKernels::gemvARows(OpBuilder &b) {
  return add(b, p.m, index(b, numColumnSums()));
}

int64_t GemvKernels::gemvScratchSlots() const {
  return p.transposeW ? 1 : kSweepGroupsPerTask;
}

Value GemvKernels::gemvScratchIndex(OpBuilder &b, Value slot, Value firstRow,
                                    int64_t i, int64_t j) {
  int64_t group = gemvGroup(s.lanes);
  Value row = add(b, firstRow, index(b, i));
  Value rowSlot = add(b, mul(b, row, index(b, gemvScratchSlots())), slot);
  return add(b, mul(b, rowSlot, index(b, group * s.lanes)),
             index(b, j * s.lanes));
}

bool GemvKernels::gemvPairs() const { return dot && p.transposeW; }

bool GemvKernels::gemvSweepPairs() const { return dot && !p.transposeW; }
