//===- Epilogue.cpp - what the CPU GEMM does with a finished tile ---------===//
//
// A tile's rows of accumulators after a K block (DESIGN.md §3): added to the
// partial sums of the earlier K blocks, then either stored as partial sums
// (f32: C itself when C is f32) or, after the last K block, finished in f32
// and stored, rounded once to C's element type:
//
//   RMSNorm    C = r·acc + bias
//   LayerNorm  C = r·acc − r·(μ − p)·c + (Σ_k β_k W_k· + bias), which is
//              LN(x)·W + bias because acc = Σ_k (x_k − p)·γ'_k·W_k· (the
//              pivot keeps acc and (μ − p) of the size of σ, so nothing
//              cancels when |μ| ≫ σ)
//   None       C = acc + bias + residual (C + acc for a linalg matmul)
//
// matmul → norm also gathers the statistics of C as stored, per row and
// segment of L columns, from the registers that hold C (FusedGemm.h).
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// The values that the rows of a tile share, for `numVectors` vectors of
/// columns from chunk column `jr` (of `cols`): the column masks, the
/// additive constant (matmul bias, and LayerNorm's Σβ·W) and LayerNorm's c.
void GemmEpilogue::columnConstants(OpBuilder &b, const ChunkBuffers &buf,
                                   Value jc, Value jr, Value cols,
                                   int64_t numVectors,
                                   SmallVectorImpl<Value> &masks,
                                   SmallVectorImpl<Value> &constant,
                                   SmallVectorImpl<Value> &colSums) {
  Value zero = index(b, 0);
  Value colsLeft = sub(b, cols, jr);
  VectorType type = vecType(b.getF32Type());
  for (int64_t v = 0; v < numVectors; ++v) {
    Value left = arith::MaxSIOp::create(
        b, loc, sub(b, colsLeft, index(b, v * s.lanes)), zero);
    masks.push_back(mask(b, left));
    Value colInChunk = add(b, jr, index(b, v * s.lanes));
    Value c = zeros(b);
    if (p.matmulBias)
      c = loadAcc(b, p.matmulBias, {add(b, jc, colInChunk)}, masks.back());
    if (isLayerNorm()) {
      colSums.push_back(vector::LoadOp::create(b, loc, type, buf.colSumW,
                                               ValueRange{colInChunk}));
      if (p.beta)
        c = arith::AddFOp::create(
            b, loc, c,
            vector::LoadOp::create(b, loc, type, buf.colSumBetaW,
                                   ValueRange{colInChunk}));
    }
    constant.push_back(c);
  }
}

/// One row of a finished tile: adds the partial sums of earlier K blocks,
/// then either stores the partial sums (not the last K block) or applies the
/// epilogue and stores C, rounded once.
void GemmEpilogue::storeTileRow(OpBuilder &b, const ChunkBuffers &buf,
                                Value partials, Value row, Value jc, Value jr,
                                ArrayRef<Value> masks, ArrayRef<Value> constant,
                                ArrayRef<Value> colSums, ArrayRef<Value> accs,
                                const KBlock &kb) {
  int64_t numVectors = accs.size();
  SmallVector<Value> cols;
  for (int64_t v = 0; v < numVectors; ++v)
    cols.push_back(add(b, add(b, jc, jr), index(b, v * s.lanes)));
  Value fresh = kb.isFirst;
  if (p.accumulateIntoC) // C's old value is the first "partial sum"
    fresh = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  auto withPartials = scf::IfOp::create(
      b, loc, fresh,
      [&](OpBuilder &tb, Location) { scf::YieldOp::create(tb, loc, accs); },
      [&](OpBuilder &eb, Location) {
        SmallVector<Value> sums;
        for (int64_t v = 0; v < numVectors; ++v)
          sums.push_back(arith::AddFOp::create(
              eb, loc, accs[v],
              loadAcc(eb, partials, {row, cols[v]}, masks[v])));
        scf::YieldOp::create(eb, loc, sums);
      });
  ValueRange totals = withPartials.getResults();
  auto epilogue = [&](OpBuilder &tb, Location) {
    Value scale, negShift;
    if (isNorm())
      scale = splat(
          tb, memref::LoadOp::create(tb, loc, buf.scale, ValueRange{row}));
    if (isLayerNorm())
      negShift = splat(
          tb, arith::NegFOp::create(
                  tb, loc,
                  memref::LoadOp::create(tb, loc, buf.shift, ValueRange{row})));
    for (int64_t v = 0; v < numVectors; ++v) {
      Value out = totals[v];
      Value offset = constant[v];
      if (isLayerNorm()) // − r·(μ − p)·c + Σβ·W + bias
        offset = vector::FMAOp::create(tb, loc, negShift, colSums[v], offset);
      if (isNorm()) {
        out = vector::FMAOp::create(tb, loc, out, scale, offset);
      } else {
        out = arith::AddFOp::create(tb, loc, out, offset);
        if (p.residual)
          out = arith::AddFOp::create(
              tb, loc, out, loadAcc(tb, p.residual, {row, cols[v]}, masks[v]));
      }
      Value stored = narrow(tb, out, elementTypeOf(p.c));
      vector::MaskedStoreOp::create(tb, loc, p.c, ValueRange{row, cols[v]},
                                    masks[v], stored);
      if (gathersSegmentStatistics())
        storeSegmentStatistics(tb, row, cols[v], toF32(tb, stored), masks[v]);
    }
  };
  // A single K block (the GEMV) has no partial sums to store, and `partials`
  // may then be a non-f32 C.
  if (matchPattern(kb.isLast, m_One())) {
    epilogue(b, loc);
    return;
  }
  scf::IfOp::create(
      b, loc, kb.isLast,
      [&](OpBuilder &tb, Location l) {
        epilogue(tb, l);
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        for (int64_t v = 0; v < numVectors; ++v)
          vector::MaskedStoreOp::create(
              eb, loc, partials, ValueRange{row, cols[v]}, masks[v], totals[v]);
        scf::YieldOp::create(eb, loc);
      });
}

/// The statistics of one segment of C's row `row` from the L values `values` at
/// column `col` (a multiple of L), as stored (f32 of the rounded values);
/// lanes outside `maskValue` are past N. A segment wholly past N (a tile's
/// last vector) stores nothing. LayerNorm's moments are taken about the
/// segment's first element, so they keep their digits when |μ| ≫ σ.
void GemmEpilogue::storeSegmentStatistics(OpBuilder &b, Value row, Value col,
                                          Value values, Value maskValue) {
  Value inside = ult(b, col, p.n);
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
    Value segment = arith::DivUIOp::create(tb, loc, col, index(tb, s.lanes));
    SmallVector<Value, 2> at{row, segment};
    auto sum = [&](Value v) {
      return vector::ReductionOp::create(tb, loc, vector::CombiningKind::ADD, v)
          .getResult();
    };
    auto live = [&](Value v) {
      return arith::SelectOp::create(tb, loc, maskValue, v, zeros(tb))
          .getResult();
    };
    if (p.segSumSq) {
      Value x = live(values);
      memref::StoreOp::create(
          tb, loc, sum(arith::MulFOp::create(tb, loc, x, x)), p.segSumSq, at);
      scf::YieldOp::create(tb, loc);
      return;
    }
    Value count = arith::UIToFPOp::create(
        tb, loc, tb.getF32Type(),
        arith::IndexCastUIOp::create(
            tb, loc, tb.getI64Type(),
            minIndex(tb, index(tb, s.lanes), sub(tb, p.n, col))));
    Value pivot =
        vector::ExtractOp::create(tb, loc, values, ArrayRef<int64_t>{0});
    Value d = live(arith::SubFOp::create(tb, loc, values, splat(tb, pivot)));
    Value delta = sum(d);
    Value mean = arith::DivFOp::create(tb, loc, delta, count);
    Value e = live(arith::SubFOp::create(tb, loc, d, splat(tb, mean)));
    memref::StoreOp::create(tb, loc, pivot, p.segPivot, at);
    memref::StoreOp::create(tb, loc, delta, p.segDelta, at);
    memref::StoreOp::create(tb, loc, sum(arith::MulFOp::create(tb, loc, e, e)),
                            p.segM2, at);
    scf::YieldOp::create(tb, loc);
  });
}

/// The segment statistics read back from C, for the GEMV's dot products,
/// whose epilogue works per element: a sweep over its few rows of C, which
/// it has just written (so they come from cache).
void GemmEpilogue::sweepSegmentStatistics(OpBuilder &b) {
  Value lanes = index(b, s.lanes);
  scf::ForOp::create(
      b, loc, index(b, 0), p.m, index(b, 1), ValueRange{},
      [&](OpBuilder &rb, Location, Value row, ValueRange) {
        scf::ForOp::create(
            rb, loc, index(rb, 0), p.n, lanes, ValueRange{},
            [&](OpBuilder &nb, Location, Value col, ValueRange) {
              Value m = mask(nb, minIndex(nb, lanes, sub(nb, p.n, col)));
              storeSegmentStatistics(nb, row, col,
                                     loadAcc(nb, p.c, {row, col}, m), m);
              scf::YieldOp::create(nb, loc);
            });
        scf::YieldOp::create(rb, loc);
      });
}
