//===- GradKernel.cpp - vector code for the norm gradients ----*- C++ -*-===//
//
// norm.rms_norm_grad and norm.layer_norm_grad on identity-layout memrefs,
// viewed as R rows of n elements. Per row, from the row kernel's parts
// (RowKernel.h):
//  1. the statistics, unless given: the forward kernel's sweeps (Σx², or
//     the LayerNorm mean and its corrected two-pass variance), so that x̂
//     is the one the forward op normalized;
//  2. the row sums Σ dŷ·x̂ (and Σ dŷ), blocked and Kahan-compensated (only
//     when dx is wanted);
//  3. one sweep that writes dx = rstd·(dŷ − B − C·x̂) (+ ds), rounded once,
//     and adds dy·x̂ and dy into this chunk's partial column sums of dγ
//     and dβ. dx is written with streaming stores when it is as big as a
//     forward y that would stream (emitStreamingChoice).
// With row pipelining (the default, pipeline-rows), step 2 of row r+1 runs
// in the dx sweep of row r (fusedSweep): that sweep reads row r's dy and x
// from cache and row r+1's from memory, so each row is read from memory by
// one sweep that also stores, as in a copy, and the memory streams run
// through the whole chunk; only a chunk's first row has a row sums sweep
// of its own (the same summation, so a row's sums do not depend on where
// it falls in its chunk). Without it, step 2 is a sweep of its own and the
// dx sweep prefetches the next row's dy and x into L2, so that the sums
// sweep of that row reads from cache.
//
// dγ and dβ are sums over all rows: the rows are cut into at most 64
// chunks, a fixed split that does not depend on the thread count; each
// chunk (one task of an scf.parallel above the parallel threshold)
// accumulates its own partial row of columns in acc_type, and the partials
// are then added in chunk order. Every run, on any number of threads, gives
// the same bits.
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"
#include "VectorArith.h"

#include "norm/Conversion/Utils/GradProblem.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// At most this many chunks of rows for the partial column sums (the
/// parallelism of the kernel, and chunks × n accumulators of memory).
constexpr int64_t kMaxChunks = 64;

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
  /// The splats of dx = rstd · (dŷ − B − C · x̂) for one row (B null for
  /// RMSNorm); all null when dx is not wanted.
  struct DxCoefficients {
    Value rstd, b, c;
  };
  RowStatistics emitStatistics(OpBuilder &b, Value row);
  Value normalizedInput(OpBuilder &b, const RowStatistics &s, Value row,
                        Value j, Value m);
  Value gradOfNormalized(OpBuilder &b, Value dy, Value j, Value m);
  /// One vector of the row sums of dx of `row`: Σ dŷ·x̂ (and Σ dŷ).
  SmallVector<Value> rowSumsStep(OpBuilder &b, const RowStatistics &s,
                                 Value row, Value j, Value m, ValueRange accs);
  unsigned numRowSums() const { return p.isLayerNorm ? 2 : 1; }
  DxCoefficients dxCoefficients(OpBuilder &b, const RowStatistics &s,
                                ValueRange sums);
  /// dx at [j, j + L) of `row` and the chunk's partial column sums there.
  void dxStep(OpBuilder &b, Value row, Value chunk, const RowStatistics &s,
              const DxCoefficients &k, Value j, Value m, bool nontemporal);
  void emitRow(OpBuilder &b, Value row, Value chunk);
  void emitChunk(OpBuilder &b, Value chunk, Value numChunks);
  void emitPipelinedRows(OpBuilder &b, Value chunk, Value first, Value end);
  SmallVector<Value>
  fusedSweep(OpBuilder &b, unsigned numStats,
             function_ref<void(OpBuilder &, Value, Value)> store,
             RowAccumulateFn accumulate);
  Value rowIsAligned(OpBuilder &b, Value row);
  void emitStreamedSweep(OpBuilder &b, Value row, RowStoreFn store);
  /// Rows pipelined: row r+1's row sums of dx gathered in row r's dx
  /// sweep (fusedSweep).
  bool pipelined() const { return options.pipelineRows && p.dx; }
  /// Independent accumulators per row sum in fusedSweep: two of the
  /// register width (the sweep's stores and loads of the partial sums give
  /// the chains time; four of them with the dx constants would not fit
  /// AVX2's 16 registers); one where a vector is two registers already.
  int64_t fusedChains() const {
    return vectorLanes > registerLanes(rowShape, options) ? 1 : 2;
  }
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

/// dŷ = dy · (γ + offset), from dy at [j, j + L) of the row.
Value GradKernelEmitter::gradOfNormalized(OpBuilder &b, Value dy, Value j,
                                          Value m) {
  if (!p.weight && p.weightOffset == 0.0)
    return dy;
  Value gain =
      p.weight ? loadAcc(b, p.weight, {j}, m) : splat(b, accConst(b, 1.0));
  if (p.weightOffset != 0.0)
    gain = arith::AddFOp::create(b, loc, gain,
                                 splat(b, accConst(b, p.weightOffset)));
  return arith::MulFOp::create(b, loc, dy, gain);
}

SmallVector<Value> GradKernelEmitter::rowSumsStep(OpBuilder &nb,
                                                  const RowStatistics &s,
                                                  Value row, Value j, Value m,
                                                  ValueRange accs) {
  Value dyHat = gradOfNormalized(nb, loadAcc(nb, p.dy, {row, j}, m), j, m);
  Value xHat = normalizedInput(nb, s, row, j, m);
  SmallVector<Value> next{vector::FMAOp::create(nb, loc, dyHat, xHat, accs[0])};
  if (p.isLayerNorm)
    next.push_back(arith::AddFOp::create(nb, loc, accs[1], dyHat));
  return next;
}

// dx = rstd · (dŷ − B − C · x̂): B = mean(dŷ) (LayerNorm), C = c ·
// mean(dŷ · x̂), c = 1 inside the sqrt, (1/r)/(1/r − ε) outside it.
GradKernelEmitter::DxCoefficients
GradKernelEmitter::dxCoefficients(OpBuilder &b, const RowStatistics &s,
                                  ValueRange sums) {
  Value nAsAcc = indexToAcc(b, p.n);
  Value coefficient = arith::DivFOp::create(b, loc, sums[0], nAsAcc);
  if (p.epsMode == EpsMode::outside_sqrt) {
    Value inverse = arith::DivFOp::create(b, loc, accConst(b, 1.0), s.rstd);
    Value sigma =
        arith::SubFOp::create(b, loc, inverse, accConst(b, p.epsilon));
    coefficient = arith::MulFOp::create(
        b, loc, coefficient, arith::DivFOp::create(b, loc, inverse, sigma));
  }
  DxCoefficients k;
  k.c = splat(b, coefficient);
  if (p.isLayerNorm)
    k.b = splat(b, arith::DivFOp::create(b, loc, sums[1], nAsAcc));
  k.rstd = splat(b, s.rstd);
  return k;
}

void GradKernelEmitter::dxStep(OpBuilder &nb, Value row, Value chunk,
                               const RowStatistics &s, const DxCoefficients &k,
                               Value j, Value m, bool nontemporal) {
  // dy is loaded once: the dx store may alias it for all the compiler
  // knows, which would force a second load.
  Value dy = loadAcc(nb, p.dy, {row, j}, m);
  Value xHat = normalizedInput(nb, s, row, j, m);
  if (p.dx) {
    Value inner = gradOfNormalized(nb, dy, j, m);
    if (k.b)
      inner = arith::SubFOp::create(nb, loc, inner, k.b);
    inner = arith::SubFOp::create(nb, loc, inner,
                                  arith::MulFOp::create(nb, loc, k.c, xHat));
    Value dx = arith::MulFOp::create(nb, loc, k.rstd, inner);
    if (p.sumGrad)
      dx = arith::AddFOp::create(nb, loc, dx,
                                 loadAcc(nb, p.sumGrad, {row, j}, m));
    store(nb, dx, p.dx, {row, j}, m, nontemporal);
  }
  if (partialWeightGrad) {
    Value sum = loadAcc(nb, partialWeightGrad, {chunk, j}, m);
    store(nb, vector::FMAOp::create(nb, loc, dy, xHat, sum), partialWeightGrad,
          {chunk, j}, m);
  }
  if (partialBiasGrad) {
    Value sum = loadAcc(nb, partialBiasGrad, {chunk, j}, m);
    store(nb, arith::AddFOp::create(nb, loc, sum, dy), partialBiasGrad,
          {chunk, j}, m);
  }
}

/// One row without pipelining: its statistics, its row sums sweep, its dx
/// sweep.
void GradKernelEmitter::emitRow(OpBuilder &b, Value row, Value chunk) {
  RowStatistics s = emitStatistics(b, row);
  DxCoefficients k;
  if (p.dx)
    k = dxCoefficients(
        b, s,
        rowSums(b, dxSumsOptions, numRowSums(),
                [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
                  return rowSumsStep(nb, s, row, j, m, accs);
                }));
  // The dx sweep reads this row from cache, leaving DRAM idle: prefetch the
  // next row's dy and x into L2 meanwhile (the forward kernel's
  // prefetch-next-row), so that the row sums sweep of that row reads from
  // cache too and the memory streams run through both sweeps.
  Value prefetchRow;
  if (options.prefetchNextRow)
    prefetchRow = minIndex(b, addC(b, row, 1), addC(b, p.rows, -1));
  emitStreamedSweep(
      b, row, [&](OpBuilder &nb, Value j, Value m, bool nontemporal) {
        if (prefetchRow && !m)
          for (Value input : {p.dy, p.x})
            memref::PrefetchOp::create(nb, loc, input,
                                       ValueRange{prefetchRow, j},
                                       /*isWrite=*/false, /*localityHint=*/2,
                                       /*isDataCache=*/true);
        dxStep(nb, row, chunk, s, k, j, m, nontemporal);
      });
}

/// One sweep over [0, n) of a row in vectors of L: `store` (when given) at
/// each vector, and `numStats` sums of `accumulate` over the same
/// positions, blocked and Kahan-compensated as emitRowSums: blocks of
/// kBlockVectors vectors in fusedChains() accumulators each, the block's
/// accumulators added (a tree) and the block sum added to a running sum
/// with compensation; then whole steps, single vectors and a masked tail
/// plainly; the lanes reduced by a halving tree. The order depends on n
/// and L only, not on where the row or dx lie, so that the chunk's first
/// row (no `store`) and the pipelined rows sum alike.
SmallVector<Value> GradKernelEmitter::fusedSweep(
    OpBuilder &b, unsigned numStats,
    function_ref<void(OpBuilder &, Value, Value)> store,
    RowAccumulateFn accumulate) {
  constexpr int64_t kBlockVectors = 64;
  int64_t chains = fusedChains();
  Value zero = index(b, 0);
  Value step = index(b, vectorLanes);
  Value wideStep = index(b, vectorLanes * chains);
  Value blockSpan = index(b, vectorLanes * kBlockVectors);
  auto roundDown = [&](Value v, Value multiple) -> Value {
    return arith::SubIOp::create(b, loc, v,
                                 arith::RemUIOp::create(b, loc, v, multiple));
  };
  Value vectorEnd = roundDown(p.n, step);
  Value wideEnd = roundDown(p.n, wideStep);
  Value blockEnd = roundDown(p.n, blockSpan);
  auto vectorStep = [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
    if (store)
      store(nb, j, m);
    return accumulate(nb, j, m, accs);
  };
  // `chains` accumulators per statistic over [from, to), a multiple of
  // chains·L, laid out statistic-major; the sum of each statistic's.
  auto wideSums = [&](OpBuilder &lb, Value from, Value to) {
    SmallVector<Value> init(numStats * chains, zeros(lb));
    auto loop = scf::ForOp::create(
        lb, loc, from, to, wideStep, init,
        [&](OpBuilder &nb, Location, Value j, ValueRange iterArgs) {
          SmallVector<Value> next(iterArgs.begin(), iterArgs.end());
          for (int64_t u = 0; u < chains; ++u) {
            SmallVector<Value> accs;
            for (unsigned s = 0; s < numStats; ++s)
              accs.push_back(next[s * chains + u]);
            Value ju = u == 0 ? j : addC(nb, j, u * vectorLanes);
            SmallVector<Value> updated = vectorStep(nb, ju, Value(), accs);
            for (unsigned s = 0; s < numStats; ++s)
              next[s * chains + u] = updated[s];
          }
          scf::YieldOp::create(nb, loc, next);
        });
    SmallVector<Value> sums;
    for (unsigned s = 0; s < numStats; ++s)
      sums.push_back(sumTree(
          lb, SmallVector<Value>(loop.getResults().slice(s * chains, chains))));
    return sums;
  };
  // Whole blocks: a running sum and a compensation per statistic.
  auto blocks = scf::ForOp::create(
      b, loc, zero, blockEnd, blockSpan,
      SmallVector<Value>(2 * numStats, zeros(b)),
      [&](OpBuilder &nb, Location, Value jb, ValueRange iterArgs) {
        SmallVector<Value> blockSums =
            wideSums(nb, jb, arith::AddIOp::create(nb, loc, jb, blockSpan));
        SmallVector<Value> next, compensations;
        for (unsigned s = 0; s < numStats; ++s) {
          Value sum = iterArgs[s], compensation = iterArgs[numStats + s];
          Value y = arith::SubFOp::create(nb, loc, blockSums[s], compensation);
          Value t = arith::AddFOp::create(nb, loc, sum, y);
          compensations.push_back(arith::SubFOp::create(
              nb, loc, arith::SubFOp::create(nb, loc, t, sum), y));
          next.push_back(t);
        }
        next.append(compensations);
        scf::YieldOp::create(nb, loc, next);
      });
  // The rest of the row, plainly.
  SmallVector<Value> rest = wideSums(b, blockEnd, wideEnd);
  auto single = scf::ForOp::create(
      b, loc, wideEnd, vectorEnd, step, rest,
      [&](OpBuilder &nb, Location, Value j, ValueRange accs) {
        scf::YieldOp::create(nb, loc, vectorStep(nb, j, Value(), accs));
      });
  Value remainder = arith::SubIOp::create(b, loc, p.n, vectorEnd);
  auto tail = scf::IfOp::create(
      b, loc, ult(b, zero, remainder),
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc,
                             vectorStep(nb, vectorEnd, mask(nb, remainder),
                                        single.getResults()));
      },
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc, single.getResults());
      });
  SmallVector<Value> totals;
  for (unsigned s = 0; s < numStats; ++s) {
    Value blockSum = arith::SubFOp::create(b, loc, blocks.getResult(s),
                                           blocks.getResult(numStats + s));
    Value v = arith::AddFOp::create(b, loc, blockSum, tail.getResult(s));
    // The lanes by a halving tree (lane k + lane k + L/2, ...), as the row
    // kernel's reduction.
    for (int64_t half = vectorLanes / 2; half >= 1; half /= 2) {
      SmallVector<int64_t> low, high;
      for (int64_t i = 0; i < half; ++i) {
        low.push_back(i);
        high.push_back(half + i);
      }
      v = arith::AddFOp::create(b, loc,
                                vector::ShuffleOp::create(b, loc, v, v, low),
                                vector::ShuffleOp::create(b, loc, v, v, high));
    }
    totals.push_back(
        vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0}));
  }
  return totals;
}

/// Whether row `row` of dx starts at an address aligned for a vector store
/// (an i1): a pipelined row streams its dx only then. Its sweep has no
/// alignment head, whose length would shift the row sums' blocks.
Value GradKernelEmitter::rowIsAligned(OpBuilder &b, Value row) {
  int64_t elementBytes = elementTypeOf(p.dx).getIntOrFloatBitWidth() / 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, p.dx);
  Value address = arith::AddIOp::create(
      b, loc, base, mulC(b, mul(b, row, p.n), elementBytes));
  Value misalignment = arith::RemUIOp::create(
      b, loc, address, index(b, vectorLanes * elementBytes));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalignment,
                               index(b, 0));
}

/// Rows [first, end) of chunk `chunk`, pipelined: the first row's
/// statistics and row sums; then per row, the next row's statistics (given:
/// two loads; else its own sweeps) and one sweep that writes this row's dx
/// and partials and sums the next row's Σ dŷ·x̂ (Σ dŷ). The last row's dx
/// sweep is the unpipelined one (it prefetches the row after it, the first
/// row of the next chunk).
void GradKernelEmitter::emitPipelinedRows(OpBuilder &b, Value chunk,
                                          Value first, Value end) {
  unsigned numStats = numRowSums();
  auto sumsOf = [&](OpBuilder &nb, const RowStatistics &s, Value row) {
    return [&, row](OpBuilder &sb, Value j, Value m, ValueRange accs) {
      return rowSumsStep(sb, s, row, j, m, accs);
    };
  };
  // Recomputed statistics are carried to the next row's step; given ones
  // are loaded again (two scalar loads, and their constant zero correction
  // stays a constant).
  bool carryStatistics = !p.rstd;
  auto withStatistics = [&](SmallVector<Value> values, const RowStatistics &s) {
    if (carryStatistics)
      values.append({s.rstd, s.shift, s.correction});
    return values;
  };
  RowStatistics s0 = emitStatistics(b, first);
  SmallVector<Value> init = withStatistics(
      fusedSweep(b, numStats, nullptr, sumsOf(b, s0, first)), s0);
  scf::ForOp::create(
      b, loc, first, end, index(b, 1), init,
      [&](OpBuilder &lb, Location, Value row, ValueRange iterArgs) {
        ValueRange sums = iterArgs.take_front(numStats);
        RowStatistics s =
            carryStatistics
                ? RowStatistics{iterArgs[numStats], iterArgs[numStats + 1],
                                iterArgs[numStats + 2]}
                : emitStatistics(lb, row);
        DxCoefficients k = dxCoefficients(lb, s, sums);
        Value next = addC(lb, row, 1);
        auto ifNext = scf::IfOp::create(
            lb, loc, ult(lb, next, end),
            [&](OpBuilder &nb, Location) {
              RowStatistics sn = emitStatistics(nb, next);
              auto sweep = [&](OpBuilder &wb, bool nontemporal) {
                SmallVector<Value> r = fusedSweep(
                    wb, numStats,
                    [&](OpBuilder &sb, Value j, Value m) {
                      dxStep(sb, row, chunk, s, k, j, m, nontemporal && !m);
                    },
                    sumsOf(wb, sn, next));
                scf::YieldOp::create(wb, loc, withStatistics(r, sn));
              };
              if (!stream) {
                sweep(nb, /*nontemporal=*/false);
                return;
              }
              auto streamed = scf::IfOp::create(
                  nb, loc, andI(nb, stream, rowIsAligned(nb, row)),
                  [&](OpBuilder &tb, Location) { sweep(tb, true); },
                  [&](OpBuilder &tb, Location) { sweep(tb, false); });
              scf::YieldOp::create(nb, loc, streamed.getResults());
            },
            [&](OpBuilder &nb, Location) {
              Value prefetchRow;
              if (options.prefetchNextRow)
                prefetchRow = minIndex(nb, next, addC(nb, p.rows, -1));
              emitStreamedSweep(
                  nb, row,
                  [&](OpBuilder &sb, Value j, Value m, bool nontemporal) {
                    if (prefetchRow && !m)
                      for (Value input : {p.dy, p.x})
                        memref::PrefetchOp::create(sb, loc, input,
                                                   ValueRange{prefetchRow, j},
                                                   /*isWrite=*/false,
                                                   /*localityHint=*/2,
                                                   /*isDataCache=*/true);
                    dxStep(sb, row, chunk, s, k, j, m, nontemporal);
                  });
              scf::YieldOp::create(nb, loc, ValueRange(iterArgs));
            });
        scf::YieldOp::create(lb, loc, ifNext.getResults());
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
  if (pipelined()) {
    emitPipelinedRows(b, chunk, first, end);
    return;
  }
  scf::ForOp::create(b, loc, first, end, index(b, 1), ValueRange{},
                     [&](OpBuilder &lb, Location, Value row, ValueRange) {
                       emitRow(lb, row, chunk);
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
  for (Value partial : {partialWeightGrad, partialBiasGrad})
    if (partial)
      memref::DeallocOp::create(b, loc, partial);
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
