//===- GemvDot.cpp - the GEMV's dot products, W as N×K --------------------===//
//
// The GEMV's kernels for W as N×K (PyTorch Linear; Gemv.cpp has the whole
// design): each output is a dot product along a W row, whose consecutive k's
// are vdpbf16ps's pairs as they lie in memory, so W is streamed, never
// copied. One row (decode): 4 whole W rows at a time, a vector accumulator
// each, one reduction per output. 2..16 rows: per task groups of 6 W rows
// over K blocks that every row tile reads from L1, the tiles' accumulators
// waiting in the task's scratch between K blocks; after the last, one
// reduction and the epilogue per output.
//
//===----------------------------------------------------------------------===//

#include "Gemv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

//===----------------------------------------------------------------------===//
// 2..16 rows
//===----------------------------------------------------------------------===//

void GemvDots::gemvDotProducts(OpBuilder &b, const ChunkBuffers &buf,
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

Value GemvDots::loadWPairs(OpBuilder &b, Value row, Value k, Value maskValue) {
  Type bf16 = b.getBF16Type();
  VectorType pairType = VectorType::get({2 * s.lanes}, bf16);
  if (!maskValue)
    return vector::LoadOp::create(b, loc, pairType, p.w, ValueRange{row, k});
  Value passThru = zerosOf(b, pairType);
  return vector::MaskedLoadOp::create(b, loc, pairType, p.w, ValueRange{row, k},
                                      maskValue, passThru);
}

/// A line of W row `row` one K block past `k` (clamped to the row): the
/// dot products read a group's W rows a K block at a time, too slowly for
/// the hardware prefetchers. The next group's rows follow in memory, where
/// those pick up.
void GemvDots::prefetchWRowAhead(OpBuilder &b, Value row, Value k) {
  Value ahead =
      minIndex(b, add(b, k, index(b, gemvBlockK())), sub(b, p.k, index(b, 1)));
  memref::PrefetchOp::create(b, loc, p.w, ValueRange{row, ahead},
                             /*isWrite=*/false, /*localityHint=*/3,
                             /*isDataCache=*/true);
}

int64_t GemvDots::dotStepWidth(bool pairs) const {
  return pairs ? 2 * s.lanes : s.lanes;
}

Value GemvDots::loadDotA(OpBuilder &b, const ChunkBuffers &buf, Value offset,
                         bool pairs) {
  Type element = pairs ? Type(b.getBF16Type()) : Type(b.getF32Type());
  return vector::LoadOp::create(b, loc,
                                VectorType::get({dotStepWidth(pairs)}, element),
                                buf.packedA, ValueRange{offset});
}

Value GemvDots::loadDotW(OpBuilder &b, Value row, Value k, Value maskValue,
                         bool pairs) {
  return pairs ? loadWPairs(b, row, k, maskValue)
               : loadAcc(b, p.w, {row, k}, maskValue);
}

/// f32: acc + a·w. bf16 pairs: one x86vector.avx512.dot (vdpbf16ps: per
/// lane acc += a₀w₀ + a₁w₁ in f32) on 2L bf16 of W as it is in memory: a W
/// row's consecutive k's are already the instruction's pairs.
Value GemvDots::accumulateDot(OpBuilder &b, Value acc, Value a, Value w,
                              bool pairs) {
  if (pairs)
    return x86vector::DotBF16Op::create(b, loc, acc.getType(), acc, a, w);
  return vector::FMAOp::create(b, loc, a, w, acc);
}

void GemvDots::gemvDotTile(OpBuilder &b, const ChunkBuffers &buf, Value scratch,
                           int64_t tileRows, int64_t tileCols, Value firstRow,
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
  auto tail = vectorSteps(b, kb.start, kb.length, init, step,
                          options.prefetchNextRow
                              ? function_ref<void(OpBuilder &, Value)>(prefetch)
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
void GemvDots::gemvDotEpilogue(OpBuilder &b, const ChunkBuffers &buf,
                               int64_t tileRows, int64_t tileCols,
                               Value firstRow, Value jc, Value firstCol,
                               ValueRange accs) {
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
              memref::LoadOp::create(nb, loc, buf.colSumW, ValueRange{taskCol}),
              out);
          if (p.beta)
            out = arith::AddFOp::create(
                nb, loc, out,
                memref::LoadOp::create(nb, loc, buf.colSumBetaW,
                                       ValueRange{taskCol}));
        }
        if (p.matmulBias)
          out = arith::AddFOp::create(nb, loc, out,
                                      loadScalarAcc(nb, p.matmulBias, {col}));
        if (p.residual)
          out = arith::AddFOp::create(
              nb, loc, out, loadScalarAcc(nb, p.residual, {row, col}));
        if (p.accumulateIntoC)
          out = arith::AddFOp::create(nb, loc,
                                      loadScalarAcc(nb, p.c, {row, col}), out);
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
// One row (decode)
//===----------------------------------------------------------------------===//

void GemvDots::gemvDecodeDots(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                              Value cols) {
  // 4 W rows at a time, each streamed whole: 4 long runs that the hardware
  // prefetchers follow.
  bool pairs = elementTypeOf(buf.packedA).isBF16();
  forEachTileSize(b, loc, index(b, 0), cols, {4, 1},
                  [&](OpBuilder &nb, int64_t tileCols, Value n0) {
                    gemvDecodeDotTile(nb, buf, tileCols, add(nb, jc, n0),
                                      pairs);
                  });
}

void GemvDots::gemvDecodeDotTile(OpBuilder &b, const ChunkBuffers &buf,
                                 int64_t tileCols, Value firstCol, bool pairs) {
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
      accs[j] = accumulateDot(
          nb, accs[j], a, loadDotW(nb, wRow[j], k, maskValue, pairs), pairs);
  };

  SmallVector<Value> init(tileCols, zeros(b));
  auto tail =
      vectorSteps(b, zero, p.k, init, step, nullptr, dotStepWidth(pairs));
  // (jc: only LayerNorm's column sums use it, and LayerNorm never decodes.)
  gemvDotEpilogue(b, buf, 1, tileCols, zero, /*jc=*/Value(), firstCol,
                  tail.getResults());
}
