//===- NormPrologue.cpp - norm statistics from the shared A tiles ---------===//
//
// The norm prologue of the cp.async / guarded-load GEMM kernel (norm →
// matmul, FusedGemm.cpp), on the A tile in shared memory, two threads per
// row (16 elements each, 16-byte vector reads):
//   - s = x, or with a residual s = round(x + r) (converted to f32, added,
//     rounded to the element type once, as the CPU kernel and the row kernel
//     do), from the A and R tiles staged side by side;
//   - statistics in f32 from the s the block has loaded anyway (no extra
//     pass over X in global memory): RMSNorm Σs²; LayerNorm Σ(s − p),
//     Σ(s − p)² about the row's pivot p = the mean of its first K tile (of
//     s), computed once before the loop;
//   - when γ, weight_offset or a residual is present, or for LayerNorm, the
//     tile is rewritten in place as a = s (residual only), round(s·γ') or
//     round((s − p)·γ'), γ' = γ + weight_offset (a missing γ is 1), then a
//     barrier (the driver's); RMSNorm without γ or residual runs on the
//     raw x;
//   - LayerNorm also sums c = Σ_k γ'_k W_k· and Σ_k β_k W_k· from the W tile
//     (thread t: column t of the block).
// One place reads x: this prologue (computePivot, onTile, through
// inputLanes), from the tiles that Staging.cpp stages; and with
// GemmProblem::normalizesA (cast_mode, pRMSNorm) computeRowNorm, from
// global memory before the K loop, so that onTile rewrites the tile as the
// normalized activations themselves, a = round(x̂·γ' (+ β)), rounded where
// the op's cast_mode says, for a plain GEMM (the epilogue saves that pass's
// mean and rstd where asked: GemmEpilogue::finishStatistics).
//
// With a residual, the A tile is always rewritten (with s at least), so the
// statistics, the pivot and the MMA operand all see s. S is written exactly
// once: by the blocks of the first column tile (blockIdx.x = 0), each thread
// its own 16 elements of a row per K tile (16-byte stores in the cp.async
// kernel, where K is a multiple of 8; guarded element stores in the
// fallback). With N = 0 the grid keeps one column of blocks, so S is still
// written (the host picks the fallback kernel then, which reads nothing of
// the empty W).
//
//===----------------------------------------------------------------------===//

#include "../TargetInfo.h"
#include "GemmInternals.h"

#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Support/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

/// γ'_k for lane l of a chunk: γ + offset (1 + offset without γ).
Value NormPrologue::gammaPrime(OpBuilder &b, ArrayRef<Value> gammaLanes,
                               int64_t l) {
  Value g = gammaLanes.empty() ? f32(b, 1.0) : gammaLanes[l];
  if (p.weightOffset != 0.0)
    g = arith::AddFOp::create(b, loc, g, f32(b, p.weightOffset));
  return g;
}

/// The elements of one 8-element chunk of a shared row, as f32.
static SmallVector<Value> loadLanes(OpBuilder &b, Location loc, Value mem,
                                    ValueRange indices, Type elem,
                                    int64_t chunk) {
  auto vecType = VectorType::get({chunk}, elem);
  // Every chunk starts at a multiple of 16 bytes (rows padded to whole
  // chunks, 16-byte aligned buffers): one 16-byte shared load.
  Value vec =
      vector::LoadOp::create(b, loc, vecType, mem, indices,
                             /*nontemporal=*/false, llvm::MaybeAlign(16));
  SmallVector<Value> lanes;
  for (int64_t l = 0; l < chunk; ++l) {
    Value v = vector::ExtractOp::create(b, loc, vec, l);
    lanes.push_back(
        v.getType().isF32()
            ? v
            : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult());
  }
  return lanes;
}

Value mlir::norm::gpugemm::emitResidualSum(OpBuilder &b, Location loc, Value x,
                                           Value r, Type elem) {
  auto toF32 = [&](Value v) -> Value {
    Type f32 = b.getF32Type();
    if (getElementTypeOrSelf(v.getType()) == f32)
      return v;
    return arith::ExtFOp::create(b, loc, withElementType(v.getType(), f32), v);
  };
  Value sum = arith::AddFOp::create(b, loc, toF32(x), toF32(r));
  if (elem.isF32()) // f32 data (the SIMT kernel): nothing to round
    return sum;
  return arith::TruncFOp::create(b, loc, withElementType(sum.getType(), elem),
                                 sum);
}

void mlir::norm::gpugemm::emitStoreSumChunk(OpBuilder &b, Location loc,
                                            const GPUGemmProblem &p,
                                            Value writes, Value row, Value col,
                                            Value chunk) {
  auto slt = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  };
  Value inside = arith::AndIOp::create(
      b, loc, writes,
      arith::AndIOp::create(b, loc, slt(row, p.m), slt(col, p.k)));
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
    vector::StoreOp::create(tb, loc, chunk, p.aSum, ValueRange{row, col},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
    scf::YieldOp::create(tb, loc);
  });
}

/// One 8-element chunk of the GEMM's left operand at `indices` of the shared
/// tiles, as f32: s = x, or with a residual s = round(x + r), converted to
/// f32, added and rounded to the element type once. `narrowed` (residual
/// only) also gets s in the element type.
SmallVector<Value> NormPrologue::inputLanes(OpBuilder &b, const SharedTiles &s,
                                            ValueRange indices,
                                            SmallVectorImpl<Value> *narrowed) {
  SmallVector<Value> x = loadLanes(b, loc, s.a, indices, elem, chunk);
  if (!s.r)
    return x;
  SmallVector<Value> r = loadLanes(b, loc, s.r, indices, elem, chunk);
  for (int64_t l = 0; l < chunk; ++l) {
    Value sum = emitResidualSum(b, loc, x[l], r[l], elem);
    if (narrowed)
      narrowed->push_back(sum);
    x[l] = toF32(b, sum);
  }
  return x;
}

/// Writes one chunk of S (`lanes`, in the element type) at row `row` of the
/// block, global column `gk`, when this block writes S: one 16-byte store in
/// the cp.async kernel (K is a multiple of 8, so a chunk is wholly inside or
/// outside K, and S is 16-byte aligned), guarded element stores otherwise.
void NormPrologue::storeSum(OpBuilder &b, ArrayRef<Value> lanes, Value row,
                            Value gk) {
  Value gm = add(b, m0, row);
  if (async) {
    emitStoreSumChunk(b, loc, p, writesRows, gm, gk,
                      vector::FromElementsOp::create(
                          b, loc, VectorType::get({chunk}, elem), lanes));
    return;
  }
  Value mine = andI(b, writesRows, slt(b, gm, p.m));
  scf::IfOp::create(b, loc, mine, [&](OpBuilder &tb, Location) {
    for (int64_t l = 0; l < chunk; ++l) {
      Value gkl = addC(tb, gk, l);
      scf::IfOp::create(tb, loc, slt(tb, gkl, p.k),
                        [&](OpBuilder &eb, Location) {
                          memref::StoreOp::create(eb, loc, lanes[l], p.aSum,
                                                  ValueRange{gm, gkl});
                          scf::YieldOp::create(eb, loc);
                        });
    }
    scf::YieldOp::create(tb, loc);
  });
}

void NormPrologue::computePivot(OpBuilder &b, const SharedTiles &s) {
  Value row = divC(b, tid, 2);
  Value half = mulC(b, remC(b, tid, 2), bk / 2);
  Value sum = f32(b, 0.0);
  for (int64_t j = 0; j < bk / 2 / chunk; ++j)
    for (Value x :
         inputLanes(b, s, {index(b, 0), row, addC(b, half, j * chunk)}))
      sum = arith::AddFOp::create(b, loc, sum, x); // zero-filled past K
  sum = sumOverRowPair(b, sum);
  Value count = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, p.k, index(b, bk)), index(b, 1));
  pivot = arith::DivFOp::create(b, loc, sum, indexToF32(b, count));
}

Value RowNormalizer::globalInput(OpBuilder &b, Value gm, Value gk) {
  Value x = toF32(b, memref::LoadOp::create(b, loc, p.a, ValueRange{gm, gk}));
  if (!p.aResidual)
    return x;
  Value r = memref::LoadOp::create(b, loc, p.aResidual, ValueRange{gm, gk});
  return toF32(b, emitResidualSum(b, loc, x, r, p.elementType()));
}

RowNormalizer::Statistics RowNormalizer::rowStatistics(OpBuilder &b, Value gm,
                                                       Value parity) {
  bool layerNorm = p.normalizesA == GemmPrologue::LayerNorm;
  Value count = emitStatisticLength(b, loc, p.k, layerNorm ? 1.0 : p.partial);
  // Rows past M sum nothing (and get a finite rstd, unused).
  Value end = select(b, slt(b, gm, p.m), count, index(b, 0));
  Value countF32 = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MaxUIOp::create(b, loc, count, index(b, 1)).getResult()));
  auto sumOverRowPair = [&](Value v) -> Value {
    Value other =
        gpu::ShuffleOp::create(b, loc, v, 1, NVIDIATargetInfo::kWarpSize,
                               gpu::ShuffleMode::XOR)
            .getShuffleResult();
    return arith::AddFOp::create(b, loc, v, other);
  };
  // Row sums of `terms` of s over the row's elements, each divided by the
  // count: the two threads of the row each sum every other element.
  auto meansOf = [&](function_ref<SmallVector<Value>(OpBuilder &, Value)> terms,
                     unsigned numTerms) {
    auto loop = scf::ForOp::create(
        b, loc, parity, end, index(b, 2),
        SmallVector<Value>(numTerms, f32(b, 0.0)),
        [&](OpBuilder &nb, Location, Value k, ValueRange acc) {
          SmallVector<Value> sums;
          for (auto [a, v] : llvm::zip(acc, terms(nb, globalInput(nb, gm, k))))
            sums.push_back(arith::AddFOp::create(nb, loc, a, v));
          scf::YieldOp::create(nb, loc, sums);
        });
    SmallVector<Value> means;
    for (Value sum : loop.getResults())
      means.push_back(
          arith::DivFOp::create(b, loc, sumOverRowPair(sum), countF32));
    return means;
  };
  auto square = [&](OpBuilder &nb, Value d) -> Value {
    return arith::MulFOp::create(nb, loc, d, d);
  };
  Statistics stats;
  Value spread;
  if (layerNorm) {
    // The corrected two-pass variance about the f32 mean m, as the row
    // kernels compute it: Σd²/n − (Σd/n)² over d = s − m. The correction
    // Σd/n is kept beside m (s − m is exact near m; m + Σd/n is not
    // representable), so that a row of mean 10⁴ normalizes to f32 accuracy.
    stats.mean = meansOf(
        [](OpBuilder &, Value x) -> SmallVector<Value> { return {x}; }, 1)[0];
    SmallVector<Value> moments = meansOf(
        [&](OpBuilder &nb, Value x) -> SmallVector<Value> {
          Value d = arith::SubFOp::create(nb, loc, x, stats.mean);
          return {d, square(nb, d)};
        },
        2);
    stats.correction = moments[0];
    spread = arith::SubFOp::create(b, loc, moments[1], square(b, moments[0]));
  } else {
    spread =
        meansOf([&](OpBuilder &nb,
                    Value x) -> SmallVector<Value> { return {square(nb, x)}; },
                1)[0];
  }
  stats.rstd = createReciprocalStd(b, loc, spread, p.epsMode, p.epsilon);
  return stats;
}

Value RowNormalizer::normalize(OpBuilder &b, Value s, const Statistics &stats,
                               Value gamma, Value beta, Value inside) {
  // The row's scalars, shaped like s.
  auto splat = [&](Value v) -> Value {
    if (auto vecType = dyn_cast<VectorType>(s.getType()))
      return vector::BroadcastOp::create(b, loc, vecType, v);
    return v;
  };
  Value v = s;
  if (stats.mean)
    v = arith::SubFOp::create(
        b, loc, arith::SubFOp::create(b, loc, v, splat(stats.mean)),
        splat(stats.correction));
  // The standalone norm's result, rounded once more to the element type
  // (cast_mode, or the MMA operand); 0 past K (β, offset).
  Type elem = p.elementType();
  v = applyNormWeight(b, arith::MulFOp::create(b, loc, v, splat(stats.rstd)),
                      gamma, beta, p, elem,
                      /*roundBias=*/p.weightType != elem);
  if (inside) {
    TypedAttr zero = b.getF32FloatAttr(0.0);
    if (auto vecType = dyn_cast<VectorType>(s.getType()))
      zero = DenseElementsAttr::get(vecType, zero);
    v = select(b, inside, v, arith::ConstantOp::create(b, loc, zero));
  }
  return narrow(b, v, elem);
}

void NormPrologue::computeRowNorm(OpBuilder &b, const SharedTiles &s) {
  Value row = divC(b, tid, 2);
  RowNormalizer::Statistics stats =
      RowNormalizer(loc, p).rowStatistics(b, add(b, m0, row), remC(b, tid, 2));
  if (stats.mean) {
    memref::StoreOp::create(b, loc, stats.mean, s.rowShift, ValueRange{row});
    memref::StoreOp::create(b, loc, stats.correction, s.rowCorrection,
                            ValueRange{row});
  }
  memref::StoreOp::create(b, loc, stats.rstd, s.rowScale, ValueRange{row});
}

SmallVector<Value> NormPrologue::onTile(OpBuilder &b, const SharedTiles &s,
                                        Value kt, Value buf, ValueRange stats) {
  Value row = divC(b, tid, 2);
  Value half = mulC(b, remC(b, tid, 2), bk / 2);
  Value kTileStart = mulC(b, kt, bk);
  SmallVector<Value> next(stats.begin(), stats.end());
  for (int64_t j = 0; j < bk / 2 / chunk; ++j) {
    Value col = addC(b, half, j * chunk);
    // The single read of x: s = x, or round(x + r) with a residual (then
    // also written to S by the first column tile).
    SmallVector<Value> sumLanes;
    SmallVector<Value> x = inputLanes(b, s, {buf, row, col}, &sumLanes);
    if (p.aSum)
      storeSum(b, sumLanes, row, add(b, kTileStart, col));
    SmallVector<Value> gamma, beta;
    if (s.gamma)
      gamma =
          loadLanes(b, loc, s.gamma, {buf, col}, elementTypeOf(s.gamma), chunk);
    if (s.beta && normalizesA())
      beta =
          loadLanes(b, loc, s.beta, {buf, col}, elementTypeOf(s.beta), chunk);
    RowNormalizer::Statistics rowStats;
    if (normalizesA()) {
      rowStats.rstd =
          memref::LoadOp::create(b, loc, s.rowScale, ValueRange{row});
      if (s.rowShift) {
        rowStats.mean =
            memref::LoadOp::create(b, loc, s.rowShift, ValueRange{row});
        rowStats.correction =
            memref::LoadOp::create(b, loc, s.rowCorrection, ValueRange{row});
      }
    }
    SmallVector<Value> rewritten;
    for (int64_t l = 0; l < chunk; ++l) {
      Value v = x[l];
      if (normalizesA()) {
        rewritten.push_back(RowNormalizer(loc, p).normalize(
            b, v, rowStats, gamma.empty() ? Value() : gamma[l],
            beta.empty() ? Value() : beta[l],
            kMayHaveTail() ? slt(b, add(b, kTileStart, addC(b, col, l)), p.k)
                           : Value()));
        continue;
      }
      if (isLayerNorm()) {
        Value d = arith::SubFOp::create(b, loc, v, pivot);
        if (kMayHaveTail()) {
          Value kIdx = add(b, kTileStart, addC(b, col, l));
          d = select(b, slt(b, kIdx, p.k), d, f32(b, 0.0));
        }
        next[0] = arith::AddFOp::create(b, loc, next[0], d);
        next[1] = math::FmaOp::create(b, loc, d, d, next[1]);
        v = d;
      } else {
        next[l % 2] = math::FmaOp::create(b, loc, v, v, next[l % 2]);
      }
      if (rewritesA() && !rewritesPlainSum())
        rewritten.push_back(
            narrow(b, arith::MulFOp::create(b, loc, v, gammaPrime(b, gamma, l)),
                   elem));
    }
    if (rewritesA() && rewritesPlainSum() && !normalizesA())
      rewritten = sumLanes; // a = s
    if (rewritesA()) {
      Value vec = vector::FromElementsOp::create(
          b, loc, VectorType::get({chunk}, elem), rewritten);
      vector::StoreOp::create(b, loc, vec, s.a, ValueRange{buf, row, col},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    }
  }
  return next;
}

SmallVector<Value> NormPrologue::columnSums(OpBuilder &b, const SharedTiles &s,
                                            Value buf, ValueRange sums) {
  Value c = sums[0], bw = sums[1];
  for (int64_t kc = 0; kc < bk / chunk; ++kc) {
    Value kk = index(b, kc * chunk);
    SmallVector<Value> gamma, beta, w;
    if (s.gamma)
      gamma =
          loadLanes(b, loc, s.gamma, {buf, kk}, elementTypeOf(s.gamma), chunk);
    if (s.beta)
      beta = loadLanes(b, loc, s.beta, {buf, kk}, elementTypeOf(s.beta), chunk);
    if (p.transposeW) {
      w = loadLanes(b, loc, s.w, {buf, tid, kk}, elem, chunk);
    } else {
      for (int64_t l = 0; l < chunk; ++l)
        w.push_back(
            toF32(b, memref::LoadOp::create(
                         b, loc, s.w,
                         ValueRange{buf, index(b, kc * chunk + l), tid})));
    }
    for (int64_t l = 0; l < chunk; ++l) {
      c = math::FmaOp::create(b, loc, gammaPrime(b, gamma, l), w[l], c);
      if (s.beta)
        bw = math::FmaOp::create(b, loc, beta[l], w[l], bw);
    }
  }
  return {c, bw};
}
