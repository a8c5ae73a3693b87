//===- SegmentStatistics.cpp - row statistics from GEMM partials -----------===//
//
// matmul → norm: the GEMM's epilogue stores, per row and segment j of L
// columns of the rounded sum S (n_j = L columns, fewer in the last):
//   RMSNorm:   q_j = Σ s²
//   LayerNorm: a pivot p_j (the segment's first element), d_j = Σ (s − p_j)
//              and M2_j = Σ (s − m_j)², m_j = p_j + d_j / n_j.
// Here, per row, with p = p_0 and N = Σ n_j:
//   ms   = Σ q_j / N
//   c    = Σ (n_j (p_j − p) + d_j) / N                  (μ = p + c)
//   var  = (Σ M2_j + n_j ((p_j − p) + d_j / n_j − c)²) / N
// which is Chan et al.'s parallel combination of (n_j, m_j, M2_j), with the
// means kept as offsets from p: p_j − p is exact (Sterbenz) when |μ| ≫ σ,
// and μ is never rounded to one f32 (the row kernel normalizes with
// (s − p) − c), so LayerNorm keeps its digits at |μ| = 10⁴σ. The segment
// loops run over L segments per vector step; ⌈N/L⌉ is small next to N.
//
//===----------------------------------------------------------------------===//

#include "FusedGemm.h"
#include "RowKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The builders the combine loops use, for one row.
struct Combiner {
  OpBuilder &b;
  Location loc;
  const FusedGemmProblem &p;
  int64_t lanes;
  Value segments; // ⌈N/L⌉

  VectorType vec() { return VectorType::get({lanes}, b.getF32Type()); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vec(), scalar);
  }
  Value toF32(Value indexValue) {
    return arith::UIToFPOp::create(
        b, loc, b.getF32Type(),
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), indexValue));
  }
  Value sum(Value v) {
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, v);
  }

  /// Σ over the row's segments of `term(builder, loaded, counts)`, where
  /// `loaded` are the L segments' values of `buffers` from segment j (zero
  /// past the last) and `counts` their column counts n_j (zero past the
  /// last); `term` builds with the loop body's builder.
  Value overSegments(
      Value row, ArrayRef<Value> buffers,
      function_ref<Value(Combiner &, ArrayRef<Value>, Value)> term) {
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(), 0.0f));
    SmallVector<float> iota;
    for (int64_t i = 0; i < lanes; ++i)
      iota.push_back(float(i * lanes));
    Value laneOffsets = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(), ArrayRef<float>(iota)));
    Value nF = splat(toF32(p.n));
    Value width = splat(f32(double(lanes)));
    auto loop = scf::ForOp::create(
        b, loc, index(0), segments, index(lanes), ValueRange{zeros},
        [&](OpBuilder &nb, Location, Value j, ValueRange acc) {
          Combiner body{nb, loc, p, lanes, segments};
          Value m = vector::CreateMaskOp::create(
              nb, loc, VectorType::get({lanes}, nb.getI1Type()),
              ValueRange{arith::SubIOp::create(nb, loc, segments, j)});
          SmallVector<Value> loaded;
          for (Value buffer : buffers)
            loaded.push_back(vector::MaskedLoadOp::create(
                nb, loc, vec(), buffer, ValueRange{row, j}, m, zeros));
          // n_j = clamp(N − j·L, 0, L), exact in f32 for N < 2²⁴.
          Value firstColumn = body.splat(arith::MulFOp::create(
              nb, loc, body.toF32(j), body.f32(double(lanes))));
          Value left = arith::SubFOp::create(
              nb, loc, nF,
              arith::AddFOp::create(nb, loc, firstColumn, laneOffsets));
          Value counts = arith::MinimumFOp::create(
              nb, loc, arith::MaximumFOp::create(nb, loc, left, zeros), width);
          scf::YieldOp::create(
              nb, loc,
              arith::AddFOp::create(nb, loc, acc[0], term(body, loaded, counts))
                  .getResult());
        });
    return sum(loop.getResult(0));
  }
};

Value allocRows(OpBuilder &b, Location loc, Value rows, Value columns) {
  return memref::AllocOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                      b.getF32Type()),
      ValueRange{rows, columns}, b.getI64IntegerAttr(64));
}

Value allocPerRow(OpBuilder &b, Location loc, Value rows) {
  return memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
      ValueRange{rows}, b.getI64IntegerAttr(64));
}

} // namespace

void mlir::norm::allocateSegmentStatistics(OpBuilder &b, Location loc,
                                           FusedGemmProblem &p,
                                           RowNormProblem &rows,
                                           int64_t lanes) {
  Value segments = arith::CeilDivUIOp::create(
      b, loc, p.n, arith::ConstantIndexOp::create(b, loc, lanes));
  // Per head, the merged statistics are per row of `rows`: one per head.
  Value statRows = p.headDim ? rows.rows : p.m;
  rows.givenSpread = allocPerRow(b, loc, statRows);
  if (!rows.isLayerNorm) {
    p.segSumSq = allocRows(b, loc, p.m, segments);
    return;
  }
  rows.givenShift = allocPerRow(b, loc, statRows);
  rows.givenCorrection = allocPerRow(b, loc, statRows);
  p.segPivot = allocRows(b, loc, p.m, segments);
  p.segDelta = allocRows(b, loc, p.m, segments);
  p.segM2 = allocRows(b, loc, p.m, segments);
}

namespace {

/// Rows [first, first + count) of the M-row buffer `mem` (2-D rows or 1-D
/// per-row values), or null for null.
Value rowRange(OpBuilder &b, Location loc, Value mem, Value first,
               Value count) {
  if (!mem)
    return mem;
  auto type = cast<MemRefType>(mem.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{count};
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets[0] = first;
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(memref::getMixedSize(b, loc, mem, d));
  return memref::SubViewOp::create(b, loc, mem, offsets, sizes, strides);
}

/// Merges the segment statistics of rows [first, end) into rows.given*.
void combineRows(OpBuilder &b, Location loc, const FusedGemmProblem &p,
                 int64_t lanes, const RowNormProblem &rows, Value first,
                 Value end);

} // namespace

void mlir::norm::normalizeRowsFromSegments(
    OpBuilder &b, Location loc, const FusedGemmProblem &p,
    const RowNormProblem &rows, int64_t lanes, Value first, Value end,
    const NormVectorCodegenOptions &options) {
  bool allRows = matchPattern(first, m_Zero()) && end == p.m;
  if (p.headDim) {
    // Per head (D a multiple of L): the segments of row r's head h are
    // segments [h·D/L, (h + 1)·D/L) of row r, so the M × N/L buffers are
    // (M·H) × D/L buffers of one head a row, and rows [first, end) of C are
    // heads [first·H, end·H) of `rows`.
    FusedGemmProblem heads = p;
    heads.headDim = 0;
    heads.m = rows.rows;
    heads.n = rows.n;
    OpFoldResult segmentsPerHead = b.getIndexAttr(p.headDim / lanes);
    for (Value *mem :
         {&heads.segSumSq, &heads.segPivot, &heads.segDelta, &heads.segM2})
      if (*mem)
        *mem = viewAs(b, loc, *mem,
                      {getAsOpFoldResult(rows.rows), segmentsPerHead});
    int64_t n = *getConstantIntValue(getAsOpFoldResult(p.n));
    Value perRow = arith::ConstantIndexOp::create(b, loc, n / p.headDim);
    first = arith::MulIOp::create(b, loc, first, perRow);
    end = allRows ? rows.rows : arith::MulIOp::create(b, loc, end, perRow);
    combineRows(b, loc, heads, lanes, rows, first, end);
  } else {
    combineRows(b, loc, p, lanes, rows, first, end);
  }
  IRRewriter rewriter(b);
  if (allRows) {
    emitRowNormKernel(rewriter, loc, rows, options);
    return;
  }
  // A block of rows (the GEMM's epilogue): views of those rows. Streaming
  // stores align from the buffer's base, which a view at an offset is not.
  Value count = arith::SubIOp::create(b, loc, end, first);
  RowNormProblem block = rows;
  block.rows = count;
  for (Value *mem : {&block.x, &block.residual, &block.y, &block.sum,
                     &block.mean, &block.rstd, &block.givenSpread,
                     &block.givenShift, &block.givenCorrection})
    *mem = rowRange(b, loc, *mem, first, count);
  // The angles are indexed by the row of the whole problem.
  if (rows.cos)
    block.ropeFirstRow = first;
  NormVectorCodegenOptions blockOptions = options;
  blockOptions.streamingThresholdBytes = -1;
  emitRowNormKernel(rewriter, loc, block, blockOptions);
}

namespace {
void combineRows(OpBuilder &b, Location loc, const FusedGemmProblem &p,
                 int64_t lanes, const RowNormProblem &rows, Value first,
                 Value end) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  bool isLayerNorm = p.segPivot != nullptr;
  Value segments = arith::CeilDivUIOp::create(
      b, loc, p.n, arith::ConstantIndexOp::create(b, loc, lanes));
  scf::ParallelOp::create(
      b, loc, ValueRange{first}, ValueRange{end}, ValueRange{one},
      [&](OpBuilder &pb, Location, ValueRange ivs) {
        Value row = ivs[0];
        Combiner c{pb, loc, p, lanes, segments};
        // max(N, 1): an empty row has statistics 0 (and no elements).
        Value nF = c.toF32(arith::MaxUIOp::create(pb, loc, p.n, one));
        if (!isLayerNorm) {
          Value squares = c.overSegments(
              row, {p.segSumSq},
              [&](Combiner &, ArrayRef<Value> q, Value) { return q[0]; });
          memref::StoreOp::create(pb, loc,
                                  arith::DivFOp::create(pb, loc, squares, nF),
                                  rows.givenSpread, ValueRange{row});
          return;
        }
        // p = p_0 (0 for an empty row, which has no segment).
        Value hasSegments = arith::CmpIOp::create(
            pb, loc, arith::CmpIPredicate::ugt, segments, zero);
        auto pivotIf = scf::IfOp::create(
            pb, loc, hasSegments,
            [&](OpBuilder &tb, Location) {
              scf::YieldOp::create(
                  tb, loc,
                  memref::LoadOp::create(tb, loc, p.segPivot,
                                         ValueRange{row, zero})
                      .getResult());
            },
            [&](OpBuilder &eb, Location) {
              scf::YieldOp::create(
                  eb, loc,
                  arith::ConstantOp::create(eb, loc, eb.getF32FloatAttr(0.0))
                      .getResult());
            });
        Value pivot = c.splat(pivotIf.getResult(0));
        // Σ n_j (p_j − p) + d_j; past the last segment n_j = d_j = 0.
        Value offsets = c.overSegments(
            row, {p.segPivot, p.segDelta},
            [&](Combiner &in, ArrayRef<Value> v, Value counts) -> Value {
              Value shifted = arith::SubFOp::create(in.b, loc, v[0], pivot);
              return vector::FMAOp::create(in.b, loc, counts, shifted, v[1]);
            });
        Value correction = arith::DivFOp::create(pb, loc, offsets, nF);
        Value correctionVec = c.splat(correction);
        Value ones = c.splat(c.f32(1.0));
        // Σ M2_j + n_j ((p_j − p) + d_j / n_j − c)².
        Value m2 = c.overSegments(
            row, {p.segPivot, p.segDelta, p.segM2},
            [&](Combiner &in, ArrayRef<Value> v, Value counts) -> Value {
              OpBuilder &ib = in.b;
              Value mean = arith::DivFOp::create(
                  ib, loc, v[1], arith::MaximumFOp::create(ib, loc, counts, ones));
              Value deviation = arith::SubFOp::create(
                  ib, loc,
                  arith::AddFOp::create(
                      ib, loc, arith::SubFOp::create(ib, loc, v[0], pivot),
                      mean),
                  correctionVec);
              Value between = arith::MulFOp::create(
                  ib, loc, counts,
                  arith::MulFOp::create(ib, loc, deviation, deviation));
              return arith::AddFOp::create(ib, loc, v[2], between);
            });
        Value variance = arith::MaximumFOp::create(
            pb, loc, arith::DivFOp::create(pb, loc, m2, nF), c.f32(0.0));
        memref::StoreOp::create(pb, loc, variance, rows.givenSpread,
                                ValueRange{row});
        memref::StoreOp::create(pb, loc, pivotIf.getResult(0), rows.givenShift,
                                ValueRange{row});
        memref::StoreOp::create(pb, loc, correction, rows.givenCorrection,
                                ValueRange{row});
      });
}

} // namespace

void mlir::norm::deallocateSegmentStatistics(OpBuilder &b, Location loc,
                                             const FusedGemmProblem &p,
                                             const RowNormProblem &rows) {
  for (Value v : {p.segSumSq, p.segPivot, p.segDelta, p.segM2,
                  rows.givenSpread, rows.givenShift, rows.givenCorrection})
    if (v)
      memref::DeallocOp::create(b, loc, v);
}
