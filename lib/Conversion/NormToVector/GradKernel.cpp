//===- GradKernel.cpp - vector code for the norm gradients ----*- C++ -*-===//
//
// norm.rms_norm_grad and norm.layer_norm_grad on identity-layout memrefs,
// viewed as R rows of n elements. Per row, from the row kernel's parts
// (RowKernel.h):
//  1. the statistics, unless given: the forward kernel's sweeps (Σx², or
//     the LayerNorm mean and its corrected two-pass variance), so that x̂
//     is the one the forward op normalized;
//  2. one sweep for the row sums Σ dŷ·x̂ (and Σ dŷ), blocked and
//     Kahan-compensated (only when dx is wanted);
//  3. one sweep that writes dx = rstd·(dŷ − B − C·x̂) (+ ds), rounded once,
//     and adds dy·x̂ and dy into this chunk's partial column sums of dγ
//     and dβ. dx is written with streaming stores when it is as big as a
//     forward y that would stream (emitStreamingChoice).
// Sweeps 2 and 3 read dy and x again from cache (two rows of n elements);
// but for a chunk's first rows they came from memory as the prefetches of
// earlier rows' sweeps: sweep 2 prefetches dy and sweep 3 x of the row
// kPrefetchRowsAhead ahead into L2, so that a memory stream keeps running
// through each sweep while a row is computed from cache.
//
// dγ and dβ are sums over all rows: the rows are cut into at most 64
// chunks, a fixed split that does not depend on the thread count; each
// chunk (one task of an scf.parallel above the parallel threshold)
// accumulates its own partial row of columns in acc_type, and the partials
// are then added in chunk order. Every run, on any number of threads, gives
// the same bits.
//
// With dγ or dβ, a chunk's rows go in blocks of gradBlockRows: steps 1 and
// 2 for each row of the block, then one sweep 3 over all of them, which
// loads and stores each vector of the partials once for the block instead
// of once per row (an 8192-wide f32 row's partials are 32 KiB each, as much
// cache traffic as its dy or x). Within the block the rows' terms are
// added into the partial in row order, one FMA (add) each, exactly as a
// row at a time would: the result does not depend on the block size. The
// rows after the last whole block go one at a time; so do all rows whose
// dy and x fit L1 (blocks would read them from L2: kBlockMinRowBytes), and
// every row of a chunk whose dx streams from rows that are not a whole
// number of vectors long (a block's rows share one alignment head).
//
// A 16-bit γ (+ offset) is widened to acc_type once for the kernel
// (gainBuffer) and read as such by the rows short enough for it to stay in
// L1 beside their dy and x (kGainBufferMaxRowBytes); longer rows widen it
// per step.
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"
#include "VectorArith.h"

#include "norm/Conversion/Utils/GradProblem.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// At most this many chunks of rows for the partial column sums (the
/// parallelism of the kernel, and chunks × n accumulators of memory).
constexpr int64_t kMaxChunks = 64;

/// How many rows ahead the sweeps prefetch dy and x. Measured on the Zen 4
/// AVX-512 VM (docs/performance.md, "Norm gradients", AVX-512 VM), norm-run,
/// 1 thread, median ms of two interleaved rounds, against the next row's dy
/// and x both prefetched by the dx sweep: dy in the row sums sweep and x in
/// the dx sweep, 2 rows ahead: RMSNorm bf16 8192² 21.5 / 26.8 against
/// 28.8 / 28.7, LayerNorm bf16 8192² 27.5 / 26.2 against 36.8 / 40.0,
/// LayerNorm f32 32768×1024 18.7 / 19.0 against 22.0 / 21.9, RMSNorm f32
/// 8192² 40.8 / 42.3 against 44.2 / 43.2; 1 row ahead split the same way
/// was a little slower (22.3 / 26.9, 30.9 / 30.4, 19.5 / 20.2, 40.2 / 41.2),
/// 2 rows ahead both in the dx sweep slower still.
constexpr int64_t kPrefetchRowsAhead = 2;

/// The L1D that both row-length rules below stand for (the Zen 3 and Zen 4
/// VMs'; not read from the target yet).
constexpr int64_t kL1DataBytes = 32 * 1024;

/// Blocks of rows (gradBlockRows) only for rows whose dy and x take more
/// than this many bytes (the L1D). Measured on
/// the Zen 4 AVX-512 VM (docs/performance.md, "Norm gradients", AVX-512 VM),
/// norm-run, 1 thread, median ms of two interleaved rounds, blocks of 2
/// against a row at a time: LayerNorm f32 8192² 43.4 / 44.8 against 47.0 /
/// 48.7 (dy and x of a row 64 KiB: from L2 in both), but RMSNorm bf16 8192²
/// 24.3 / 23.6 against 19.8 / 23.1, LayerNorm bf16 8192² 29.5 / 28.6
/// against 27.2 / 26.6 (32 KiB: a row's second read mostly from L1, a
/// block's from L2), LayerNorm bf16 32768×1024 15.0 / 16.4 against 13.2 /
/// 14.8; blocks of 4 slower everywhere.
constexpr int64_t kBlockMinRowBytes = kL1DataBytes;

/// A 16-bit γ is widened to acc_type once per kernel (gainBuffer) for rows
/// whose dy, x and widened γ take at most this many bytes (the L1D): the
/// sweeps then load γ as f32 instead of widening it per step. Measured on
/// the Zen 4 AVX-512 VM, norm-run, 1 thread, median ms of two interleaved
/// rounds against main: RMSNorm bf16 32768×1024 8.57 / 8.58 against 9.60 /
/// 10.87, LayerNorm bf16 32768×1024 11.12 / 10.86 against 12.64 / 12.69;
/// but RMSNorm bf16 8192² 21.9 / 21.4 against 19.6 / 19.7 (its f32 γ, 32
/// KiB, read twice a row from L2 beside dy and x).
constexpr int64_t kGainBufferMaxRowBytes = kL1DataBytes;

/// What the row kernel's sweeps read of a gradient problem: the
/// accumulation type, x's element type (their width), y (dx here, for the
/// streaming sweep) and the row length.
RowNormProblem rowShapeOf(const GradProblem &p) {
  RowNormProblem shape;
  shape.accType = p.accType;
  shape.x = p.x;
  shape.y = p.dx;
  shape.n = p.n;
  return shape;
}

class GradKernelEmitter : VectorArith {
public:
  /// The vectors are as wide as the forward row kernel's over the same x
  /// (rowKernelLanes): 16 f32 lanes for bf16 and f16 rows on a 256-bit
  /// target, so that a load of dy or x fills a register and two rounded f32
  /// registers of dx pack into one store.
  GradKernelEmitter(Location loc, const GradProblem &p,
                    const NormVectorCodegenOptions &options)
      : GradKernelEmitter(loc, p, options, rowShapeOf(p)) {}

  void emit(OpBuilder &b);

private:
  GradKernelEmitter(Location loc, const GradProblem &p,
                    const NormVectorCodegenOptions &options,
                    const RowNormProblem &shape)
      : VectorArith(loc, rowKernelLanes(shape, options), p.accType,
                    options.nativeBF16Conversion),
        p(p), options(options), rowShape(shape), dxSumsOptions(options) {
    // The row sums of dx load dy, x and γ per step: with vectors of two
    // registers, U accumulators per sum (the statistics sweeps' unroll) would
    // not fit the register file beside them (LayerNorm: 2 sums × 4 × 2
    // registers), and the sweep would spill in its inner loop. They keep
    // the elements per step of the register width instead (U·L the same).
    int64_t registerWidth = registerLanes(shape, options);
    if (vectorLanes > registerWidth)
      dxSumsOptions.accumulators = std::max<int64_t>(
          1, options.accumulators * registerWidth / vectorLanes);
  }

  /// The normalized input of one row: x̂ = ((x − shift) − correction)·r.
  struct RowStatistics {
    Value rstd, shift, correction;
  };
  RowStatistics emitStatistics(OpBuilder &b, Value row);
  Value normalizedInput(OpBuilder &b, const RowStatistics &s, Value row,
                        Value j, Value m);
  Value gainOf(OpBuilder &b, Value j, Value m);
  Value gradOfNormalized(OpBuilder &b, Value dy, Value gain);
  /// rstd, B and C of dx = rstd · (dŷ − B − C · x̂), splatted (B null for
  /// RMSNorm).
  struct DxCoefficients {
    Value rstdVec, bVec, cVec;
  };
  DxCoefficients emitDxCoefficients(OpBuilder &b, const RowStatistics &s,
                                    Value row, Value prefetchRow);
  void prefetch(OpBuilder &b, Value input, Value row, Value j, Value m);
  /// Rows [firstRow, firstRow + numRows) of chunk `chunk`.
  void emitBlock(OpBuilder &b, Value firstRow, int64_t numRows, Value chunk);
  /// Rows [first, end) of chunk `chunk`, one at a time.
  void emitRows(OpBuilder &b, Value first, Value end, Value chunk);
  void emitChunk(OpBuilder &b, Value chunk, Value numChunks);
  void emitChunkRows(OpBuilder &b, Value first, Value end, Value chunk);
  /// Bytes of dy, x and the widened γ per element of a row.
  int64_t gainRowElementBytes() {
    return (elementTypeOf(p.dy).getIntOrFloatBitWidth() +
            elementTypeOf(p.x).getIntOrFloatBitWidth() + acc.getWidth()) /
           8;
  }
  /// Whether the rows take the widened gain (kGainBufferMaxRowBytes):
  /// known for a static n, else none (each chunk decides at run time).
  std::optional<bool> rowsFitGainBuffer() {
    std::optional<int64_t> n = getConstantIntValue(p.n);
    if (!n)
      return std::nullopt;
    return *n * gainRowElementBytes() <= kGainBufferMaxRowBytes;
  }
  void emitStreamedSweep(OpBuilder &b, Value row, RowStoreFn store);
  void emitColumnTotals(OpBuilder &b, Value numChunks);
  void store(OpBuilder &b, Value v, Value mem, ValueRange indices, Value m,
             bool nontemporal = false);
  bool hasColumnSums() const { return p.weightGrad || p.biasGrad; }
  /// The row kernel's sweeps over a whole row, in vectors of this width.
  /// The sums take `sumsOptions`: `options` for the statistics,
  /// `dxSumsOptions` for the row sums of dx.
  SmallVector<Value> rowSums(OpBuilder &b,
                             const NormVectorCodegenOptions &sumsOptions,
                             unsigned numStats, RowAccumulateFn accumulate) {
    return emitRowSums(b, loc, rowShape, sumsOptions, p.n, numStats, accumulate,
                       vectorLanes);
  }
  void rowSweep(OpBuilder &b, RowStoreFn store) {
    emitRowSweep(b, loc, rowShape, options, p.n, store, vectorLanes);
  }

  const GradProblem &p;
  const NormVectorCodegenOptions &options;
  RowNormProblem rowShape;
  /// `options` with the unroll of the dx row sums (see the constructor).
  NormVectorCodegenOptions dxSumsOptions;
  /// chunks × n partial column sums of dγ and dβ (acc_type), or null.
  Value partialWeightGrad, partialBiasGrad;
  /// Whether dx is written with streaming stores (an i1), or null: never.
  Value stream;
  /// γ + offset widened to acc_type once per kernel (n elements), read by
  /// gainOf while set (emitChunk), or null.
  Value gainBuffer;
};

void GradKernelEmitter::store(OpBuilder &b, Value v, Value mem,
                              ValueRange indices, Value m, bool nontemporal) {
  Type type = elementTypeOf(mem);
  writeVector(b, narrow(b, v, type), mem, indices, m, nontemporal,
              vectorLanes * (type.getIntOrFloatBitWidth() / 8));
}

/// The dx sweep of row `row`: streaming stores when `stream` holds.
void GradKernelEmitter::emitStreamedSweep(OpBuilder &b, Value row,
                                          RowStoreFn store) {
  if (!stream) {
    rowSweep(b, store);
    return;
  }
  scf::IfOp::create(
      b, loc, stream,
      [&](OpBuilder &nb, Location) {
        emitStreamingRowSweep(nb, loc, rowShape, options, row, store,
                              vectorLanes);
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        rowSweep(nb, store);
        scf::YieldOp::create(nb, loc);
      });
}

/// rstd and the centring of one row: given, or recomputed by the forward
/// row kernel's sweeps.
GradKernelEmitter::RowStatistics GradKernelEmitter::emitStatistics(OpBuilder &b,
                                                                   Value row) {
  RowStatistics s;
  s.correction = accConst(b, 0.0);
  s.shift = accConst(b, 0.0);
  if (p.rstd) {
    s.rstd = loadScalarAcc(b, p.rstd, {row});
    if (p.mean)
      s.shift = loadScalarAcc(b, p.mean, {row});
    return s;
  }
  Value nAsAcc = indexToAcc(b, p.n);
  if (!p.isLayerNorm) {
    Value sumSquares = rowSums(
        b, options, 1, [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
          Value v = loadAcc(nb, p.x, {row, j}, m);
          return SmallVector<Value>{
              vector::FMAOp::create(nb, loc, v, v, accs[0])};
        })[0];
    s.rstd = createReciprocalStd(
        b, loc, arith::DivFOp::create(b, loc, sumSquares, nAsAcc), p.epsMode,
        p.epsilon);
    return s;
  }
  Value sum = rowSums(b, options, 1,
                      [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
                        return SmallVector<Value>{arith::AddFOp::create(
                            nb, loc, accs[0], loadAcc(nb, p.x, {row, j}, m))};
                      })[0];
  s.shift = arith::DivFOp::create(b, loc, sum, nAsAcc);
  Value shiftVec = splat(b, s.shift);
  SmallVector<Value> moments = rowSums(
      b, options, 2, [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
        Value d = arith::SubFOp::create(nb, loc, loadAcc(nb, p.x, {row, j}, m),
                                        shiftVec);
        if (m)
          d = arith::SelectOp::create(nb, loc, m, d, zeros(nb));
        return SmallVector<Value>{
            arith::AddFOp::create(nb, loc, accs[0], d),
            vector::FMAOp::create(nb, loc, d, d, accs[1])};
      });
  Value variance = emitCorrectedVariance(b, loc, moments[0], moments[1], nAsAcc,
                                         s.correction);
  s.rstd = createReciprocalStd(b, loc, variance, p.epsMode, p.epsilon);
  return s;
}

Value GradKernelEmitter::normalizedInput(OpBuilder &b, const RowStatistics &s,
                                         Value row, Value j, Value m) {
  Value v = loadAcc(b, p.x, {row, j}, m);
  if (p.isLayerNorm)
    v = arith::SubFOp::create(
        b, loc, arith::SubFOp::create(b, loc, v, splat(b, s.shift)),
        splat(b, s.correction));
  return arith::MulFOp::create(b, loc, v, splat(b, s.rstd));
}

/// γ + offset at [j, j + L) of the row, or null when it is 1: from
/// gainBuffer while it is set.
Value GradKernelEmitter::gainOf(OpBuilder &b, Value j, Value m) {
  if (!p.weight && p.weightOffset == 0.0)
    return Value();
  if (gainBuffer)
    return loadAcc(b, gainBuffer, {j}, m);
  Value gain =
      p.weight ? loadAcc(b, p.weight, {j}, m) : splat(b, accConst(b, 1.0));
  if (p.weightOffset != 0.0)
    gain = arith::AddFOp::create(b, loc, gain,
                                 splat(b, accConst(b, p.weightOffset)));
  return gain;
}

/// dŷ = dy · (γ + offset), from dy and the gain (gainOf; null: 1) at the
/// same [j, j + L) of the row. The caller loads the gain, so that a block's
/// column sweep loads it once for all its rows.
Value GradKernelEmitter::gradOfNormalized(OpBuilder &b, Value dy, Value gain) {
  return gain ? Value(arith::MulFOp::create(b, loc, dy, gain)) : dy;
}

/// The coefficients of dx = rstd · (dŷ − B − C · x̂) for row `row`: B =
/// mean(dŷ) (LayerNorm), C = c · mean(dŷ · x̂), c = 1 inside the sqrt,
/// (1/r)/(1/r − ε) outside it; from the row sums sweep, which prefetches
/// dy of `prefetchRow` (when non-null).
GradKernelEmitter::DxCoefficients
GradKernelEmitter::emitDxCoefficients(OpBuilder &b, const RowStatistics &s,
                                      Value row, Value prefetchRow) {
  Value nAsAcc = indexToAcc(b, p.n);
  SmallVector<Value> sums = rowSums(
      b, dxSumsOptions, p.isLayerNorm ? 2 : 1,
      [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
        prefetch(nb, p.dy, prefetchRow, j, m);
        Value dy = loadAcc(nb, p.dy, {row, j}, m);
        Value dyHat = gradOfNormalized(nb, dy, gainOf(nb, j, m));
        Value xHat = normalizedInput(nb, s, row, j, m);
        SmallVector<Value> next{
            vector::FMAOp::create(nb, loc, dyHat, xHat, accs[0])};
        if (p.isLayerNorm)
          next.push_back(arith::AddFOp::create(nb, loc, accs[1], dyHat));
        return next;
      });
  Value coefficient = arith::DivFOp::create(b, loc, sums[0], nAsAcc);
  if (p.epsMode == EpsMode::outside_sqrt) {
    Value inverse = arith::DivFOp::create(b, loc, accConst(b, 1.0), s.rstd);
    Value sigma =
        arith::SubFOp::create(b, loc, inverse, accConst(b, p.epsilon));
    coefficient = arith::MulFOp::create(
        b, loc, coefficient, arith::DivFOp::create(b, loc, inverse, sigma));
  }
  DxCoefficients c;
  c.cVec = splat(b, coefficient);
  if (p.isLayerNorm)
    c.bVec = splat(b, arith::DivFOp::create(b, loc, sums[1], nAsAcc));
  c.rstdVec = splat(b, s.rstd);
  return c;
}

/// A prefetch into L2 of `input` at row `row`, [j, j + L) (none when
/// prefetching is off or in a masked step).
void GradKernelEmitter::prefetch(OpBuilder &b, Value input, Value row, Value j,
                                 Value m) {
  if (row && !m)
    memref::PrefetchOp::create(b, loc, input, ValueRange{row, j},
                               /*isWrite=*/false, /*localityHint=*/2,
                               /*isDataCache=*/true);
}

void GradKernelEmitter::emitBlock(OpBuilder &b, Value firstRow, int64_t numRows,
                                  Value chunk) {
  // Per row, the statistics and the row sums sweep; then one column sweep
  // over the block's rows that writes their dx and adds their dy·x̂ (dy)
  // into the chunk's partials with one load and one store of each partial
  // vector: the rows' terms are added in row order, as a row at a time
  // would (the same bits for every block size).
  //
  // The sweeps read the rows from cache, leaving DRAM idle: each prefetches
  // one input of the row kPrefetchRowsAhead (or a block) ahead into L2
  // meanwhile (the forward kernel's prefetch-next-row, spread over the two
  // sweeps), dy in the row sums sweep and x in the column sweep; dy there
  // too when dx is not wanted (no row sums sweep).
  SmallVector<Value> rows, prefetchRows;
  SmallVector<RowStatistics> stats;
  SmallVector<DxCoefficients> coefficients;
  int64_t ahead = std::max<int64_t>(kPrefetchRowsAhead, numRows);
  for (int64_t i = 0; i < numRows; ++i) {
    Value row = i == 0 ? firstRow : addC(b, firstRow, i);
    rows.push_back(row);
    prefetchRows.push_back(
        options.prefetchNextRow
            ? minIndex(b, addC(b, row, ahead), addC(b, p.rows, -1))
            : Value());
    stats.push_back(emitStatistics(b, row));
    if (p.dx)
      coefficients.push_back(
          emitDxCoefficients(b, stats.back(), row, prefetchRows.back()));
  }
  emitStreamedSweep(
      b, firstRow, [&](OpBuilder &nb, Value j, Value m, bool nontemporal) {
        for (int64_t i = 0; i < numRows; ++i) {
          if (!p.dx)
            prefetch(nb, p.dy, prefetchRows[i], j, m);
          prefetch(nb, p.x, prefetchRows[i], j, m);
        }
        Value gain = p.dx ? gainOf(nb, j, m) : Value();
        SmallVector<Value> dys, xHats;
        for (int64_t i = 0; i < numRows; ++i) {
          // dy is loaded once: the dx store may alias it for all the
          // compiler knows, which would force a second load.
          Value dy = loadAcc(nb, p.dy, {rows[i], j}, m);
          Value xHat = normalizedInput(nb, stats[i], rows[i], j, m);
          dys.push_back(dy);
          xHats.push_back(xHat);
          if (!p.dx)
            continue;
          const DxCoefficients &c = coefficients[i];
          Value inner = gradOfNormalized(nb, dy, gain);
          if (c.bVec)
            inner = arith::SubFOp::create(nb, loc, inner, c.bVec);
          inner = arith::SubFOp::create(
              nb, loc, inner, arith::MulFOp::create(nb, loc, c.cVec, xHat));
          Value dx = arith::MulFOp::create(nb, loc, c.rstdVec, inner);
          if (p.sumGrad)
            dx = arith::AddFOp::create(nb, loc, dx,
                                       loadAcc(nb, p.sumGrad, {rows[i], j}, m));
          store(nb, dx, p.dx, {rows[i], j}, m, nontemporal);
        }
        if (partialWeightGrad) {
          Value sum = loadAcc(nb, partialWeightGrad, {chunk, j}, m);
          for (int64_t i = 0; i < numRows; ++i)
            sum = vector::FMAOp::create(nb, loc, dys[i], xHats[i], sum);
          store(nb, sum, partialWeightGrad, {chunk, j}, m);
        }
        if (partialBiasGrad) {
          Value sum = loadAcc(nb, partialBiasGrad, {chunk, j}, m);
          for (int64_t i = 0; i < numRows; ++i)
            sum = arith::AddFOp::create(nb, loc, sum, dys[i]);
          store(nb, sum, partialBiasGrad, {chunk, j}, m);
        }
      });
}

/// The rows of chunk `chunk` of `numChunks`, after zeroing its partial
/// column sums.
void GradKernelEmitter::emitChunk(OpBuilder &b, Value chunk, Value numChunks) {
  for (Value partial : {partialWeightGrad, partialBiasGrad})
    if (partial)
      rowSweep(b, [&](OpBuilder &nb, Value j, Value m, bool) {
        store(nb, zeros(nb), partial, {chunk, j}, m);
      });
  Value first =
      arith::DivUIOp::create(b, loc, mul(b, chunk, p.rows), numChunks);
  Value end = arith::DivUIOp::create(b, loc, mul(b, addC(b, chunk, 1), p.rows),
                                     numChunks);
  if (!gainBuffer) {
    emitChunkRows(b, first, end, chunk);
    return;
  }
  // The widened gain only for rows whose dy, x and widened γ fit L1
  // together (kGainBufferMaxRowBytes); longer rows widen γ per step.
  Value buffer = gainBuffer;
  // Rows that fit are short: never in blocks (kBlockMinRowBytes).
  auto widenedGain = [&](OpBuilder &nb, bool fits) {
    gainBuffer = fits ? buffer : Value();
    if (fits)
      emitRows(nb, first, end, chunk);
    else
      emitChunkRows(nb, first, end, chunk);
    gainBuffer = buffer;
  };
  if (std::optional<bool> fits = rowsFitGainBuffer()) {
    widenedGain(b, *fits);
    return;
  }
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                     mulC(b, p.n, gainRowElementBytes()),
                                     index(b, kGainBufferMaxRowBytes));
  scf::IfOp::create(
      b, loc, fits,
      [&](OpBuilder &nb, Location) {
        widenedGain(nb, true);
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        widenedGain(nb, false);
        scf::YieldOp::create(nb, loc);
      });
}

/// Rows [first, end) of chunk `chunk`: in blocks (emitBlock) where they
/// pay, else a row at a time.
void GradKernelEmitter::emitChunkRows(OpBuilder &b, Value first, Value end,
                                      Value chunk) {
  int64_t blockRows = options.gradBlockRows;
  int64_t rowElementBytes = (elementTypeOf(p.dy).getIntOrFloatBitWidth() +
                             elementTypeOf(p.x).getIntOrFloatBitWidth()) /
                            8;
  std::optional<int64_t> staticN = getConstantIntValue(p.n);
  bool shortRows = staticN && *staticN * rowElementBytes <= kBlockMinRowBytes;
  if (blockRows <= 1 || !hasColumnSums() || shortRows) {
    emitRows(b, first, end, chunk);
    return;
  }
  // Blocks of rows share each load and store of the partials (see
  // emitBlock), whole blocks first, the rest a row at a time. A block's
  // streamed dx sweep takes its first row's alignment head for every row:
  // when dx streams, blocks need rows a whole number of vectors long (the
  // same head in every row), else the chunk runs a row at a time.
  Value count = sub(b, end, first);
  Value blocked = sub(b, count, remC(b, count, blockRows));
  // Only rows whose dy and x do not fit L1 together: their column sweep
  // reads them from L2 either way. Shorter rows are read there from L1 a
  // row at a time but from L2 in blocks, which costs more than the
  // partials' traffic saves (kBlockMinRowBytes).
  Value longRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         mulC(b, p.n, rowElementBytes),
                                         index(b, kBlockMinRowBytes));
  blocked = select(b, longRows, blocked, index(b, 0));
  if (stream) {
    Value aligned =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              remC(b, p.n, vectorLanes), index(b, 0));
    Value canBlock = arith::OrIOp::create(
        b, loc, aligned,
        arith::XOrIOp::create(b, loc, stream,
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
    blocked = select(b, canBlock, blocked, index(b, 0));
  }
  Value blockedEnd = add(b, first, blocked);
  scf::ForOp::create(b, loc, first, blockedEnd, index(b, blockRows),
                     ValueRange{},
                     [&](OpBuilder &lb, Location, Value row, ValueRange) {
                       emitBlock(lb, row, blockRows, chunk);
                       scf::YieldOp::create(lb, loc);
                     });
  emitRows(b, blockedEnd, end, chunk);
}

void GradKernelEmitter::emitRows(OpBuilder &b, Value first, Value end,
                                 Value chunk) {
  scf::ForOp::create(b, loc, first, end, index(b, 1), ValueRange{},
                     [&](OpBuilder &lb, Location, Value row, ValueRange) {
                       emitBlock(lb, row, 1, chunk);
                       scf::YieldOp::create(lb, loc);
                     });
}

/// dγ and dβ: the chunks' partial sums added in chunk order.
void GradKernelEmitter::emitColumnTotals(OpBuilder &b, Value numChunks) {
  rowSweep(b, [&](OpBuilder &nb, Value j, Value m, bool) {
    for (auto pair : {std::pair{partialWeightGrad, p.weightGrad},
                      std::pair{partialBiasGrad, p.biasGrad}}) {
      Value partial = pair.first, result = pair.second;
      if (!partial)
        continue;
      auto total = scf::ForOp::create(
          nb, loc, index(nb, 0), numChunks, index(nb, 1), ValueRange{zeros(nb)},
          [&](OpBuilder &lb, Location, Value c, ValueRange acc) {
            scf::YieldOp::create(
                lb, loc,
                ValueRange{arith::AddFOp::create(
                    lb, loc, acc[0], loadAcc(lb, partial, {c, j}, m))});
          });
      store(nb, total.getResult(0), result, {j}, m);
    }
  });
}

void GradKernelEmitter::emit(OpBuilder &b) {
  Value zero = index(b, 0), one = index(b, 1);
  Value numChunks = minIndex(b, p.rows, index(b, kMaxChunks));
  auto allocPartial = [&](Value result) -> Value {
    if (!result)
      return Value();
    return memref::AllocOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, acc),
        ValueRange{numChunks, p.n}, b.getI64IntegerAttr(64));
  };
  // A 16-bit γ (+ offset) widened once for the kernel: the sweeps of each
  // row would widen it twice (vpmovzxwd + vpslld per 16 for bf16 on
  // AVX-512), where they now load it as f32 (kGainBufferMaxRowBytes). Only
  // dx reads the gain.
  if (p.dx && p.weight &&
      elementTypeOf(p.weight).getIntOrFloatBitWidth() < acc.getWidth() &&
      rowsFitGainBuffer().value_or(true)) {
    gainBuffer = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, acc), ValueRange{p.n},
        b.getI64IntegerAttr(64));
    Value buffer = gainBuffer;
    gainBuffer = Value();
    rowSweep(b, [&](OpBuilder &nb, Value j, Value m, bool) {
      store(nb, gainOf(nb, j, m), buffer, {j}, m);
    });
    gainBuffer = buffer;
  }
  partialWeightGrad = allocPartial(p.weightGrad);
  partialBiasGrad = allocPartial(p.biasGrad);
  // dx streams when the forward kernel's y of its size would.
  if (p.dx)
    stream =
        emitStreamingChoice(b, loc, options, mul(b, p.rows, p.n),
                            elementTypeOf(p.dx).getIntOrFloatBitWidth() / 8);

  auto serial = [&](OpBuilder &nb) {
    scf::ForOp::create(nb, loc, zero, numChunks, one, ValueRange{},
                       [&](OpBuilder &lb, Location, Value c, ValueRange) {
                         emitChunk(lb, c, numChunks);
                         scf::YieldOp::create(lb, loc);
                       });
  };
  if (options.parallelThresholdBytes < 0) {
    serial(b);
  } else {
    // Bytes moved: dy and x read, dx written (the element type's size).
    int64_t elementBytes = elementTypeOf(p.x).getIntOrFloatBitWidth() / 8;
    Value bytes = mulC(b, mul(b, p.rows, p.n), 3 * elementBytes);
    Value parallel =
        andI(b,
             arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bytes,
                                   index(b, options.parallelThresholdBytes)),
             ult(b, one, numChunks));
    scf::IfOp::create(
        b, loc, parallel,
        [&](OpBuilder &nb, Location) {
          scf::ParallelOp::create(nb, loc, ValueRange{zero},
                                  ValueRange{numChunks}, ValueRange{one},
                                  [&](OpBuilder &pb, Location, ValueRange ivs) {
                                    emitChunk(pb, ivs[0], numChunks);
                                  });
          scf::YieldOp::create(nb, loc);
        },
        [&](OpBuilder &nb, Location) {
          serial(nb);
          scf::YieldOp::create(nb, loc);
        });
  }
  if (stream)
    emitStreamingStoreFence(b, loc, options);
  if (hasColumnSums())
    emitColumnTotals(b, numChunks);
  for (Value buffer : {partialWeightGrad, partialBiasGrad, gainBuffer})
    if (buffer)
      memref::DeallocOp::create(b, loc, buffer);
}

} // namespace

void mlir::norm::emitRMSNormGradKernel(
    RMSNormGradOp op, PatternRewriter &rewriter,
    const NormVectorCodegenOptions &options) {
  GradProblem problem = describeGrad(op, rewriter);
  GradKernelEmitter(op.getLoc(), problem, options).emit(rewriter);
}

void mlir::norm::emitLayerNormGradKernel(
    LayerNormGradOp op, PatternRewriter &rewriter,
    const NormVectorCodegenOptions &options) {
  GradProblem problem = describeGrad(op, rewriter);
  GradKernelEmitter(op.getLoc(), problem, options).emit(rewriter);
}
