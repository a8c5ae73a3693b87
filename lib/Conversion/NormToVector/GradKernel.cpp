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
  Value gradOfNormalized(OpBuilder &b, Value dy, Value j, Value m);
  void emitRow(OpBuilder &b, Value row, Value chunk);
  void emitChunk(OpBuilder &b, Value chunk, Value numChunks);
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

void GradKernelEmitter::emitRow(OpBuilder &b, Value row, Value chunk) {
  RowStatistics s = emitStatistics(b, row);
  Value nAsAcc = indexToAcc(b, p.n);
  // Both sweeps read this row from cache, leaving DRAM idle: each prefetches
  // one input of the row kPrefetchRowsAhead ahead into L2 meanwhile (the
  // forward kernel's prefetch-next-row, spread over the two sweeps), dy in
  // the row sums sweep and x in the dx sweep; dy there too when dx is not
  // wanted (no row sums sweep).
  Value prefetchRow;
  if (options.prefetchNextRow)
    prefetchRow =
        minIndex(b, addC(b, row, kPrefetchRowsAhead), addC(b, p.rows, -1));
  auto prefetch = [&](OpBuilder &nb, Value input, Value j, Value m) {
    if (prefetchRow && !m)
      memref::PrefetchOp::create(nb, loc, input, ValueRange{prefetchRow, j},
                                 /*isWrite=*/false, /*localityHint=*/2,
                                 /*isDataCache=*/true);
  };
  // dx = rstd · (dŷ − B − C · x̂): B = mean(dŷ) (LayerNorm), C = c ·
  // mean(dŷ · x̂), c = 1 inside the sqrt, (1/r)/(1/r − ε) outside it.
  Value rstdVec, bVec, cVec;
  if (p.dx) {
    SmallVector<Value> sums = rowSums(
        b, dxSumsOptions, p.isLayerNorm ? 2 : 1,
        [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
          prefetch(nb, p.dy, j, m);
          Value dyHat =
              gradOfNormalized(nb, loadAcc(nb, p.dy, {row, j}, m), j, m);
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
    cVec = splat(b, coefficient);
    bVec = p.isLayerNorm
               ? splat(b, arith::DivFOp::create(b, loc, sums[1], nAsAcc))
               : Value();
    rstdVec = splat(b, s.rstd);
  }
  emitStreamedSweep(
      b, row, [&](OpBuilder &nb, Value j, Value m, bool nontemporal) {
        if (!p.dx)
          prefetch(nb, p.dy, j, m);
        prefetch(nb, p.x, j, m);
        // dy is loaded once: the dx store may alias it for all
        // the compiler knows, which would force a second load.
        Value dy = loadAcc(nb, p.dy, {row, j}, m);
        Value xHat = normalizedInput(nb, s, row, j, m);
        if (p.dx) {
          Value inner = gradOfNormalized(nb, dy, j, m);
          if (bVec)
            inner = arith::SubFOp::create(nb, loc, inner, bVec);
          inner = arith::SubFOp::create(
              nb, loc, inner, arith::MulFOp::create(nb, loc, cVec, xHat));
          Value dx = arith::MulFOp::create(nb, loc, rstdVec, inner);
          if (p.sumGrad)
            dx = arith::AddFOp::create(nb, loc, dx,
                                       loadAcc(nb, p.sumGrad, {row, j}, m));
          store(nb, dx, p.dx, {row, j}, m, nontemporal);
        }
        if (!hasColumnSums())
          return;
        if (partialWeightGrad) {
          Value sum = loadAcc(nb, partialWeightGrad, {chunk, j}, m);
          store(nb, vector::FMAOp::create(nb, loc, dy, xHat, sum),
                partialWeightGrad, {chunk, j}, m);
        }
        if (partialBiasGrad) {
          Value sum = loadAcc(nb, partialBiasGrad, {chunk, j}, m);
          store(nb, arith::AddFOp::create(nb, loc, sum, dy), partialBiasGrad,
                {chunk, j}, m);
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
