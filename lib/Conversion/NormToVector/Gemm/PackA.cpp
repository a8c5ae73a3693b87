//===- PackA.cpp - A into the packed panels, with the row statistics ------===//
//
// The CPU GEMM's left operand, packed once before any W is touched (DESIGN.md
// §3): all of A into Ã = [K block][M][KC] (f32, or bf16 for the dot
// micro-kernels), parallel over rows, each row read once and transformed as
// it is packed: RMSNorm a' = x·γ', LayerNorm a' = (x − p)·γ' with a per-row
// pivot p = the mean of the row's first K block. The row statistics (Σx², or
// Σ(x − p) and Σ(x − p)²) are summed from the same registers, so there is no
// extra pass over A, and turned into the per-row scale r (and LayerNorm's
// r·(μ − p)) after the row's last K block. With a residual, A is
// round(A + residual), written to the sum output as it is packed.
//
// The statistics use shifted sums: with the pivot a mean of row elements,
// Σ(x − p)² − (Σ(x − p))²/K loses no more than the ordinary two-pass variance
// (DESIGN.md §4 allows shifted sums).
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// The mean of `row`'s first K block (cache-resident: it is packed next),
/// LayerNorm's pivot. The epilogue subtracts (μ − p)·c, whose rounding error
/// grows with |μ − p|·|c|; a block mean keeps |μ − p| near σ/√KC (0 when K
/// fits one block), where a single element would leave it near σ.
Value APacker::firstBlockMean(OpBuilder &b, Value row, const KBlock &kb) {
  Value zero = index(b, 0);
  Value full =
      mul(b, arith::DivUIOp::create(b, loc, kb.length, index(b, s.lanes)),
          index(b, s.lanes));
  auto body = scf::ForOp::create(
      b, loc, zero, full, index(b, s.lanes), ValueRange{zeros(b)},
      [&](OpBuilder &nb, Location, Value kk, ValueRange acc) {
        Value x = loadInputF32(nb, row, add(nb, kb.start, kk), Value());
        scf::YieldOp::create(
            nb, loc, arith::AddFOp::create(nb, loc, acc[0], x).getResult());
      });
  // The tail, masked (masked lanes read 0).
  Value tail = loadInputF32(b, row, add(b, kb.start, full),
                            mask(b, sub(b, kb.length, full)));
  Value total = vector::ReductionOp::create(
      b, loc, vector::CombiningKind::ADD,
      arith::AddFOp::create(b, loc, body.getResult(0), tail));
  Value count = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MaxUIOp::create(b, loc, kb.length, index(b, 1))));
  return arith::DivFOp::create(b, loc, total, count);
}

/// Packs row `row` of A for K block `kb` into Ã at `base`, transformed, and
/// adds its statistics to sum1/sum2.
void APacker::packRow(OpBuilder &b, const ChunkBuffers &buf, Value row,
                      Value base, const KBlock &kb, const RowNorm &norm) {
  Value zero = index(b, 0);
  Value pivot;
  if (isLayerNorm()) {
    auto pivotIf = scf::IfOp::create(
        b, loc, kb.isFirst,
        [&](OpBuilder &tb, Location) {
          Value pivot = firstBlockMean(tb, row, kb);
          memref::StoreOp::create(tb, loc, pivot, buf.pivot, ValueRange{row});
          scf::YieldOp::create(tb, loc, pivot);
        },
        [&](OpBuilder &eb, Location) {
          scf::YieldOp::create(
              eb, loc,
              memref::LoadOp::create(eb, loc, buf.pivot, ValueRange{row})
                  .getResult());
        });
    pivot = splat(b, pivotIf.getResult(0));
  }
  unsigned numStats = isLayerNorm() ? 2 : (isNorm() ? 1 : 0);

  // One vector: transform, store, accumulate. `maskValue` null: full.
  auto step = [&](OpBuilder &nb, Value kk, Value maskValue, ValueRange accs) {
    Value kGlobal = add(nb, kb.start, kk);
    Value x = loadInputF32(nb, row, kGlobal, maskValue);
    if (p.aSum)
      storeSum(nb, x, row, kGlobal, maskValue);
    Value d = x;
    SmallVector<Value> next;
    if (isLayerNorm()) {
      d = arith::SubFOp::create(nb, loc, x, pivot);
      if (maskValue) // masked lanes read 0, and 0 − p is not 0
        d = arith::SelectOp::create(nb, loc, maskValue, d, zeros(nb));
      next.push_back(arith::AddFOp::create(nb, loc, accs[0], d));
      next.push_back(vector::FMAOp::create(nb, loc, d, d, accs[1]));
    } else if (isNorm()) {
      next.push_back(vector::FMAOp::create(nb, loc, d, d, accs[0]));
    }
    Value a = d;
    // A bf16 Ã (the dot micro-kernels) holds round(x·γ'): the one rounding
    // of the bf16 dot products, on the M×K side, so W is used as it is.
    bool pairs = elementTypeOf(buf.packedA).isBF16();
    if (Value g = isNorm() ? gammaVectorAt(nb, kGlobal, maskValue) : Value())
      a = arith::MulFOp::create(nb, loc, d, g);
    if (norm.rstd)
      a = normalizedA(nb, x, kGlobal, maskValue, norm);
    if (pairs)
      a = narrow(nb, a, nb.getBF16Type());
    // Ã rows are KC long and KC is a multiple of L, so a full store never
    // leaves the row (lanes past the block are zeros, unread).
    vector::StoreOp::create(nb, loc, a, buf.packedA,
                            ValueRange{add(nb, base, kk)});
    return next;
  };

  SmallVector<Value> init(numStats, zeros(b));
  Value full =
      mul(b, arith::DivUIOp::create(b, loc, kb.length, index(b, s.lanes)),
          index(b, s.lanes));
  auto body = scf::ForOp::create(
      b, loc, zero, full, index(b, s.lanes), init,
      [&](OpBuilder &nb, Location, Value kk, ValueRange accs) {
        scf::YieldOp::create(nb, loc, step(nb, kk, Value(), accs));
      });
  Value tailCount = sub(b, kb.length, full);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, tailCount, zero);
  SmallVector<Type> accTypes(numStats, vecType(b.getF32Type()));
  auto tail =
      scf::IfOp::create(b, loc, accTypes, hasTail, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&tail.getThenRegion().front());
    SmallVector<Value> next =
        step(b, full, mask(b, tailCount), body.getResults());
    if (numStats)
      scf::YieldOp::create(b, loc, next);
    b.setInsertionPointToStart(&tail.getElseRegion().front());
    if (numStats)
      scf::YieldOp::create(b, loc, body.getResults());
  }
  if (!numStats)
    return;
  Value sums[] = {buf.sum1, buf.sum2};
  for (unsigned i = 0; i < numStats; ++i) {
    Value blockSum = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::ADD, tail.getResult(i));
    Value old = memref::LoadOp::create(b, loc, sums[i], ValueRange{row});
    Value total = arith::AddFOp::create(
        b, loc, arith::SelectOp::create(b, loc, kb.isFirst, f32(b, 0.0), old),
        blockSum);
    memref::StoreOp::create(b, loc, total, sums[i], ValueRange{row});
  }
}

/// GemmProblem::normalizesA: the row's rstd (and LayerNorm's mean) from a
/// pass of its own over s (x, or round(x + residual)): RMSNorm Σs² over the
/// first ⌈partial·K⌉ columns, LayerNorm the mean, then Σ(s − μ)², over K.
APacker::RowNorm APacker::rowStatistics(OpBuilder &b, Value row) {
  bool layerNorm = p.normalizesA == GemmPrologue::LayerNorm;
  Value count = emitStatisticLength(b, loc, p.k, layerNorm ? 1.0 : p.partial);
  // max(count, 1): an empty row has mean 0 and a finite rstd (1/√ε).
  Value countF32 = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MaxUIOp::create(b, loc, count, index(b, 1))));
  auto meanOf = [&](function_ref<Value(OpBuilder &, Value, Value)> term) {
    scf::IfOp sums = vectorSteps(
        b, index(b, 0), count, ValueRange{zeros(b)},
        [&](OpBuilder &nb, Value k, Value maskValue, SmallVector<Value> &acc) {
          Value x = loadInputF32(nb, row, k, maskValue);
          acc[0] =
              arith::AddFOp::create(nb, loc, acc[0], term(nb, x, maskValue));
        },
        nullptr);
    Value total = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::ADD, sums.getResult(0));
    return arith::DivFOp::create(b, loc, total, countF32).getResult();
  };
  RowNorm norm;
  Value center;
  if (layerNorm) {
    norm.mean = meanOf([](OpBuilder &, Value x, Value) { return x; });
    center = splat(b, norm.mean);
  }
  Value spread = meanOf([&](OpBuilder &nb, Value x, Value maskValue) {
    Value d = x;
    if (center) {
      d = arith::SubFOp::create(nb, loc, x, center);
      if (maskValue) // masked lanes read 0, and 0 − μ is not 0
        d = arith::SelectOp::create(nb, loc, maskValue, d, zeros(nb));
    }
    return arith::MulFOp::create(nb, loc, d, d).getResult();
  });
  norm.rstd = createReciprocalStd(b, loc, spread, p.epsMode, p.epsilon);
  return norm;
}

/// GemmProblem::normalizesA: one vector of A's row normalized as the
/// standalone norm computes its result, a = (s − μ)·rstd·(γ + offset) + β,
/// rounded to the element type where cast_mode says (roundsNormalized).
/// Masked lanes are 0 (β would make them not).
Value APacker::normalizedA(OpBuilder &b, Value x, Value k, Value maskValue,
                           const RowNorm &norm) {
  Value v = x;
  if (norm.mean)
    v = arith::SubFOp::create(b, loc, v, splat(b, norm.mean));
  v = arith::MulFOp::create(b, loc, v, splat(b, norm.rstd));
  Value gamma = p.gamma ? loadAcc(b, p.gamma, {k}, maskValue) : Value();
  Value beta = p.beta ? loadAcc(b, p.beta, {k}, maskValue) : Value();
  Type elementType = elementTypeOf(p.a);
  v = applyNormWeight(b, v, gamma, beta, p, elementType,
                      /*roundBias=*/p.weightType != elementType);
  if (p.roundsNormalized)
    v = roundThrough(b, v, elementType);
  if (maskValue)
    v = arith::SelectOp::create(b, loc, maskValue, v, zeros(b));
  return v;
}

/// Writes the residual sum `x` (f32, already rounded to the element type) at
/// (row, k). Every row of A is packed exactly once, so packing writes it.
void APacker::storeSum(OpBuilder &b, Value x, Value row, Value k,
                       Value maskValue) {
  Value v = narrow(b, x, elementTypeOf(p.aSum));
  if (maskValue)
    vector::MaskedStoreOp::create(b, loc, p.aSum, ValueRange{row, k}, maskValue,
                                  v);
  else
    vector::StoreOp::create(b, loc, v, p.aSum, ValueRange{row, k});
}

/// After the last K block: scale r (and LayerNorm's r·(μ − p)) of `row`.
void APacker::finishRowStatistics(OpBuilder &b, const ChunkBuffers &buf,
                                  Value row) {
  // max(K, 1): an empty row (a dynamic K = 0) has mean 0 and a finite r
  // (1/√ε), and C = bias (the product's sum is empty), not 0/0 = NaN.
  Value kF32 = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MaxUIOp::create(b, loc, p.k, index(b, 1))));
  Value sum1 = memref::LoadOp::create(b, loc, buf.sum1, ValueRange{row});
  Value meanShift = arith::DivFOp::create(b, loc, sum1, kF32); // (μ−p), or ms
  Value spread = meanShift; // RMSNorm: mean of squares
  if (isLayerNorm()) {
    Value sum2 = memref::LoadOp::create(b, loc, buf.sum2, ValueRange{row});
    Value meanSq = arith::DivFOp::create(b, loc, sum2, kF32);
    Value var = arith::SubFOp::create(
        b, loc, meanSq, arith::MulFOp::create(b, loc, meanShift, meanShift));
    spread = arith::MaximumFOp::create(b, loc, var, f32(b, 0.0));
  }
  Value r = createReciprocalStd(b, loc, spread, p.epsMode, p.epsilon);
  memref::StoreOp::create(b, loc, r, buf.scale, ValueRange{row});
  RowNorm saved;
  saved.rstd = r;
  if (isLayerNorm()) {
    memref::StoreOp::create(b, loc, arith::MulFOp::create(b, loc, r, meanShift),
                            buf.shift, ValueRange{row});
    if (p.mean)
      saved.mean = arith::AddFOp::create(
          b, loc, memref::LoadOp::create(b, loc, buf.pivot, ValueRange{row}),
          meanShift);
  }
  storeSavedStatistics(b, row, saved);
}

/// The row's statistics into the op's `mean_outs` / `rstd_outs` where asked.
void APacker::storeSavedStatistics(OpBuilder &b, Value row,
                                   const RowNorm &norm) {
  for (auto [value, out] :
       {std::pair<Value, Value>{norm.mean, p.mean}, {norm.rstd, p.rstd}})
    if (value && out)
      memref::StoreOp::create(b, loc, value, out, ValueRange{row});
}

/// Packs all of A into Ã, one panel of M rows × `blockK` per K block
/// ([K block][M][blockK]), with the row statistics and the residual sum,
/// before any W is touched: each row is read, transformed and summed once,
/// in parallel over rows (the packed GEMM would otherwise repeat that work
/// per column chunk, N / NC times).
void APacker::packAllOfA(OpBuilder &b, const ChunkBuffers &buf, int64_t blockK,
                         int64_t firstRow) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value panelRows = add(b, p.m, index(b, firstRow));
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{p.m}, ValueRange{one},
      [&](OpBuilder &pb, Location, ValueRange ivs) {
        Value row = ivs[0];
        Value packedRow = add(pb, row, index(pb, firstRow));
        RowNorm norm;
        if (p.normalizesA != GemmPrologue::None) {
          norm = rowStatistics(pb, row);
          storeSavedStatistics(pb, row, norm);
        }
        forEachKBlock(pb, blockK, [&](OpBuilder &kbld, const KBlock &kb) {
          packRow(kbld, buf, row,
                  add(kbld, mul(kbld, kb.start, panelRows),
                      mul(kbld, packedRow, index(kbld, blockK))),
                  kb, norm);
        });
        if (isNorm())
          finishRowStatistics(pb, buf, row);
      });
}
