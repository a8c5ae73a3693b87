//===- FusedGemv.cpp - the small-M path of the fused GEMM -----------------===//
//
// For a few rows (decode: M = 1, small batches) packing W costs more than the
// product: W is read, written to B̃ and read again, once per row block, while
// each W element feeds only M FMAs. Here W is streamed once, unpacked:
//
//   A (M × K, small) is packed once, before the threads start, through the
//   GEMM's own packRow: transformed (x·γ') with the row statistics and the
//   residual sum, into Ã rows padded to a whole number of vectors.
//   scf.parallel over column chunks:
//     W as N×K (PyTorch Linear): dot products. Tiles of up to 4 rows of Ã ×
//       4 rows of W, one vector accumulator per pair along k; W rows are
//       contiguous, so each tile streams 4 runs of W (re-read from L1/L2 by
//       the chunk's other row tiles), then reduces its accumulators and
//       applies the epilogue per element.
//     W as K×N: row sweeps. Tiles of R rows of Ã × V vectors of columns
//       (R·V ≤ the accumulator budget), walking k: per k, V contiguous
//       vectors of W row k, R broadcasts of Ã, R·V FMAs; the epilogue is the
//       GEMM's (storeTileRow over the whole K).
//
// LayerNorm keeps the packed GEMM: its c = Σ_k γ'_k W_k· comes from packing W.
//
//===----------------------------------------------------------------------===//

#include "FusedGemmEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// W rows per thread task in the N×K dot-product kernel.
static constexpr int64_t kDotRowsPerTask = 64;
/// How far ahead (in rows of a K×N W) the row sweeps prefetch.
static constexpr int64_t kGemvPrefetchRows = 8;
/// The default row limits of the GEMV (gemm-gemv-rows = 0), measured on a
/// Zen 5 core (docs/performance.md): with W as N×K the dot products beat the
/// packed GEMM (which transposes W while packing) 2.3–6× up to M = 16; with
/// W as K×N the row sweeps re-read W per 4-row tile and win at M = 1 only.
static constexpr int64_t kDefaultDotRows = 16;
static constexpr int64_t kDefaultSweepRows = 1;

int64_t FusedGemmEmitter::gemvRowLimit() const {
  // LayerNorm needs c, which the packed GEMM sums while it packs W.
  if (isLayerNorm() || options.gemmGemvRows < 0)
    return 0;
  if (options.gemmGemvRows > 0)
    return options.gemmGemvRows;
  return p.transposeW ? kDefaultDotRows : kDefaultSweepRows;
}

void FusedGemmEmitter::emitGemv(OpBuilder &b) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value lanes = index(b, s.lanes);
  // Ã rows are padded to whole vectors (packRow stores whole vectors; the
  // padding lanes are zero).
  Value rowStride =
      mul(b, arith::CeilDivUIOp::create(b, loc, p.k, lanes), lanes);
  ChunkBuffers buf;
  buf.packedA = allocF32(b, mul(b, p.m, rowStride));
  if (isNorm()) {
    buf.sum1 = allocF32(b, p.m);
    buf.scale = allocF32(b, p.m);
  }
  Value isTrue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  if (p.aSum)
    buf.writesSum = isTrue;
  KBlock whole{zero, p.k, isTrue, isTrue};
  scf::ForOp::create(b, loc, zero, p.m, one, ValueRange{},
                     [&](OpBuilder &nb, Location, Value row, ValueRange) {
                       packRow(nb, buf, row, mul(nb, row, rowStride), whole);
                       if (isNorm())
                         finishRowStatistics(nb, buf, row);
                       scf::YieldOp::create(nb, loc);
                     });

  Value chunkCols = index(b, p.transposeW ? kDotRowsPerTask : s.blockN);
  Value chunks = arith::CeilDivUIOp::create(b, loc, p.n, chunkCols);
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{chunks}, ValueRange{one},
      [&](OpBuilder &pb, Location, ValueRange ivs) {
        Value jc = mul(pb, ivs[0], chunkCols);
        Value cols = minIndex(pb, chunkCols, sub(pb, p.n, jc));
        if (p.transposeW)
          gemvDotProducts(pb, buf, jc, cols, rowStride);
        else
          gemvRowSweeps(pb, buf, jc, cols, rowStride);
      });
  // The row sweeps store C through storeTileRow, which gathers them.
  if (gathersSegmentStatistics() && p.transposeW)
    sweepSegmentStatistics(b);
  for (Value v : {buf.packedA, buf.sum1, buf.scale})
    if (v)
      memref::DeallocOp::create(b, loc, v);
}

/// Runs `body(start, count)` over [begin, end) in steps of each of `sizes`
/// (largest first), so that every size but the last covers whole steps.
static void forEachTileSize(
    OpBuilder &b, Location loc, Value begin, Value end,
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

//===----------------------------------------------------------------------===//
// W as N×K: dot products
//===----------------------------------------------------------------------===//

void FusedGemmEmitter::gemvDotProducts(OpBuilder &b, const ChunkBuffers &buf,
                                       Value jc, Value cols, Value rowStride) {
  Value zero = index(b, 0);
  // W rows outer, so a group of W rows is streamed from memory once and
  // re-read from cache by the other row tiles.
  forEachTileSize(b, loc, zero, cols, {4, 1},
                  [&](OpBuilder &nb, int64_t tileCols, Value n0) {
                    forEachTileSize(
                        nb, loc, index(nb, 0), p.m, {4, 1},
                        [&](OpBuilder &rb, int64_t tileRows, Value r0) {
                          gemvDotTile(rb, buf, tileRows, tileCols, r0,
                                      add(rb, jc, n0), rowStride);
                        });
                  });
}

void FusedGemmEmitter::gemvDotTile(OpBuilder &b, const ChunkBuffers &buf,
                                   int64_t tileRows, int64_t tileCols,
                                   Value firstRow, Value firstCol,
                                   Value rowStride) {
  Value zero = index(b, 0);
  VectorType type = vecType(b.getF32Type());
  SmallVector<Value> aBase, wRow;
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(mul(b, add(b, firstRow, index(b, i)), rowStride));
  for (int64_t j = 0; j < tileCols; ++j)
    wRow.push_back(add(b, firstCol, index(b, j)));

  // One vector step at k; `maskValue` (W's tail) or null. Ã's padding is
  // zero, so its loads need no mask.
  auto step = [&](OpBuilder &nb, Value k, Value maskValue,
                  SmallVector<Value> &accs) {
    SmallVector<Value> w;
    for (int64_t j = 0; j < tileCols; ++j)
      w.push_back(loadF32(nb, p.w, {wRow[j], k}, maskValue));
    for (int64_t i = 0; i < tileRows; ++i) {
      Value a = vector::LoadOp::create(nb, loc, type, buf.packedA,
                                       ValueRange{add(nb, aBase[i], k)});
      for (int64_t j = 0; j < tileCols; ++j) {
        Value &acc = accs[i * tileCols + j];
        acc = vector::FMAOp::create(nb, loc, a, w[j], acc);
      }
    }
  };

  SmallVector<Value> init(tileRows * tileCols, zeros(b));
  Value lanes = index(b, s.lanes);
  Value full = mul(b, arith::DivUIOp::create(b, loc, p.k, lanes), lanes);
  auto body = scf::ForOp::create(
      b, loc, zero, full, lanes, init,
      [&](OpBuilder &nb, Location, Value k, ValueRange iter) {
        SmallVector<Value> accs(iter);
        step(nb, k, Value(), accs);
        scf::YieldOp::create(nb, loc, accs);
      });
  Value tailCount = sub(b, p.k, full);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, tailCount, zero);
  auto tail = scf::IfOp::create(
      b, loc, hasTail,
      [&](OpBuilder &tb, Location) {
        SmallVector<Value> accs(body.getResults());
        step(tb, full, mask(tb, tailCount), accs);
        scf::YieldOp::create(tb, loc, accs);
      },
      [&](OpBuilder &eb, Location) {
        scf::YieldOp::create(eb, loc, body.getResults());
      });

  // The epilogue, per element: r·dot + bias (+ residual), or C + dot for a
  // linalg matmul; rounded once.
  Type elementType = elementTypeOf(p.c);
  for (int64_t i = 0; i < tileRows; ++i) {
    Value row = add(b, firstRow, index(b, i));
    Value scale = isNorm() ? memref::LoadOp::create(b, loc, buf.scale,
                                                    ValueRange{row})
                                 .getResult()
                           : Value();
    for (int64_t j = 0; j < tileCols; ++j) {
      Value out = vector::ReductionOp::create(
          b, loc, vector::CombiningKind::ADD,
          tail.getResult(i * tileCols + j));
      if (scale)
        out = arith::MulFOp::create(b, loc, out, scale);
      if (p.matmulBias)
        out = arith::AddFOp::create(b, loc, out,
                                    loadScalarF32(b, p.matmulBias, {wRow[j]}));
      if (p.residual)
        out = arith::AddFOp::create(
            b, loc, out, loadScalarF32(b, p.residual, {row, wRow[j]}));
      if (p.accumulateIntoC)
        out = arith::AddFOp::create(b, loc,
                                    loadScalarF32(b, p.c, {row, wRow[j]}), out);
      if (!elementType.isF32())
        out = arith::TruncFOp::create(b, loc, elementType, out);
      memref::StoreOp::create(b, loc, out, p.c, ValueRange{row, wRow[j]});
    }
  }
}

//===----------------------------------------------------------------------===//
// W as K×N: row sweeps
//===----------------------------------------------------------------------===//

void FusedGemmEmitter::gemvRowSweeps(OpBuilder &b, const ChunkBuffers &buf,
                                     Value jc, Value cols, Value rowStride) {
  // Accumulators per tile: 16 of AVX-512's 32 registers (8 of 16 else),
  // leaving room for the W vectors and the broadcasts.
  int64_t budget = s.lanes >= 16 ? 16 : 8;
  forEachTileSize(
      b, loc, index(b, 0), p.m, {4, 1},
      [&](OpBuilder &rb, int64_t tileRows, Value r0) {
        int64_t tileVectors = budget / tileRows;
        Value groupCols = index(rb, tileVectors * s.lanes);
        scf::ForOp::create(
            rb, loc, index(rb, 0), cols, groupCols, ValueRange{},
            [&](OpBuilder &nb, Location, Value jr, ValueRange) {
              gemvRowTile(nb, buf, tileRows, tileVectors, r0, jc, jr, cols,
                          rowStride);
              scf::YieldOp::create(nb, loc);
            });
      });
}

void FusedGemmEmitter::gemvRowTile(OpBuilder &b, const ChunkBuffers &buf,
                                   int64_t tileRows, int64_t tileVectors,
                                   Value firstRow, Value jc, Value jr,
                                   Value cols, Value rowStride) {
  SmallVector<Value> masks, constant, colSums;
  columnConstants(b, buf, jc, jr, cols, tileVectors, masks, constant, colSums);
  SmallVector<Value> colIndex, aBase;
  for (int64_t v = 0; v < tileVectors; ++v)
    colIndex.push_back(add(b, add(b, jc, jr), index(b, v * s.lanes)));
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(mul(b, add(b, firstRow, index(b, i)), rowStride));

  SmallVector<Value> init(tileRows * tileVectors, zeros(b));
  auto sweep = scf::ForOp::create(
      b, loc, index(b, 0), p.k, index(b, 1), init,
      [&](OpBuilder &nb, Location, Value k, ValueRange iter) {
        SmallVector<Value> accs(iter);
        SmallVector<Value> w;
        // The row kGemvPrefetchRows ahead (clamped), a line per vector: the
        // jump between rows of W defeats the hardware prefetchers.
        Value lastRow = sub(nb, p.k, index(nb, 1));
        Value ahead = minIndex(nb, add(nb, k, index(nb, kGemvPrefetchRows)),
                               lastRow);
        Value lastCol = sub(nb, p.n, index(nb, 1));
        for (int64_t v = 0; v < tileVectors; ++v) {
          if (options.prefetchNextRow)
            memref::PrefetchOp::create(
                nb, loc, p.w, ValueRange{ahead, minIndex(nb, colIndex[v], lastCol)},
                /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
          w.push_back(loadF32(nb, p.w, {k, colIndex[v]}, masks[v]));
        }
        for (int64_t i = 0; i < tileRows; ++i) {
          Value a = splat(nb, memref::LoadOp::create(
                                  nb, loc, buf.packedA,
                                  ValueRange{add(nb, aBase[i], k)}));
          for (int64_t v = 0; v < tileVectors; ++v) {
            Value &acc = accs[i * tileVectors + v];
            acc = vector::FMAOp::create(nb, loc, a, w[v], acc);
          }
        }
        scf::YieldOp::create(nb, loc, accs);
      });

  Value isTrue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  KBlock whole{index(b, 0), p.k, isTrue, isTrue};
  ValueRange accs = sweep.getResults();
  for (int64_t i = 0; i < tileRows; ++i)
    storeTileRow(b, buf, p.c, add(b, firstRow, index(b, i)), jc, jr, masks,
                 constant, colSums,
                 SmallVector<Value>(accs.slice(i * tileVectors, tileVectors)),
                 whole);
}
