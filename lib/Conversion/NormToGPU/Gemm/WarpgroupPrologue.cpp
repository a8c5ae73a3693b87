//===- WarpgroupPrologue.cpp - norm prologues on the wgmma GEMM's A tiles -===//
//
// The RMSNorm prologue of the sm_90a warpgroup-MMA GEMM (WarpgroupGemm.cpp),
// per K tile of 64, on the A tile that TMA has stored in shared memory with
// the 128-byte swizzle:
//
//   - Σx² in f32, two threads a row, each four 16-byte chunks of the row
//     (the swizzle only permutes the 16-byte chunks within a 128-byte row,
//     so the pair's sums cover the row whichever chunks each reads);
//   - with γ or a weight offset, the same threads write each chunk back in
//     place as a = round(x·γ'), γ' = γ + weight_offset (1 + offset without
//     γ), multiplied in f32 and rounded to the element type once: the
//     numerics of the mma.sync kernel's prologue (NormPrologue.cpp), so that
//     both kernels compute the same C. The statistics are of x, read before
//     the rewrite. γ is read at its own type (f32 γ with bf16 x is never
//     rounded to bf16) straight from global memory, 16 bytes at a time: a
//     K tile's 64 values are the same for every row, so all but the first
//     block's reads hit L1/L2; staging them through TMA would lengthen the
//     kernel's stage layout and transaction counts for 128–256 bytes.
//
// The swizzle: row r of a 1024-byte-aligned tile holds logical chunk
// c ^ (r % 8) at physical chunk c (PTX ISA, "Tensor Swizzling Modes";
// test/lib/Runtime/EmulatedAsyncProxy.cpp emulates it), so the γ of a
// thread's physical chunk c is γ[k0 + 8·(c ^ (r % 8))]. Past K, TMA's zero
// fill gives x = 0, and γ' is taken as 0 there (γ itself is not read past
// K), so a = 0 whatever γ holds.
//
// The banks: a 16-byte access of a warp is served a quarter warp (8 threads)
// at a time, and the 32 four-byte banks repeat every 128 bytes, i.e. every
// row of the tile. A quarter warp holds rows 4q .. 4q + 3, two threads a
// row; reading chunk c of their half rows at step c, its threads reach only
// physical chunks c and 4 + c of four rows: two bank groups, four threads
// each (a 4-way conflict on every load and store of the prologue). Conflict
// free (WarpgroupGemmSchedule::conflictFreePrologue, the default), step c
// reads the half row's chunk c ^ (row % 4): eight different chunks. Each
// chunk's Σx² is kept and the four are added to the sum in chunk order
// (selected by row % 4), so the statistics are bit for bit those of the
// order-c reads.
//
// The rewrite is a generic-proxy write that the wgmma reads through the
// async proxy (PTX ISA, "Memory consistency model: proxies"):
// `fence.proxy.async.shared::cta` after the stores, then a barrier (the
// caller's) before `wgmma.fence` and the MMAs. The same fence orders the
// stores before the async proxy's next write of the stage, the TMA load of
// tile kt + stages, issued after the barrier that follows the MMAs.
//
// The residual (norm → matmul with residual(R), and sum_outs(S) or not): R's
// tile is loaded by TMA beside A's in every stage, with the same box and
// swizzle, so a thread's chunk of R lies where its chunk of x does, and is
// read in the same (conflict-free) order. s = round(x + r) (emitResidualSum,
// the mma.sync prologue's own definition) stands for x everywhere: the
// blocks of the first column write it to S (16-byte stores, inside M and
// K), the statistics are of s, and the A tile is rewritten as s (RMSNorm
// without γ or offset), round(s·γ') or round((s − p)·γ'). A residual
// prologue reads its rows as LayerNorm's does, in the mma.sync kernel's
// order (onTileInMmaSyncOrder), RMSNorm's with the mma.sync kernel's two fma
// chains (even and odd lanes), so that r and the saved statistics are bit
// for bit the mma.sync kernel's, as S is.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupPrologue.h"
#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

namespace {
/// Elements of a 16-byte chunk (bf16/f16).
constexpr int64_t kChunk = 8;
/// Chunks of a half row: the share of one of a row's two threads.
constexpr int64_t kHalfRowChunks = kWarpgroupTileK / 2 / kChunk;
/// Rows of 128 bytes after which the 128-byte swizzle repeats.
constexpr int64_t kSwizzleRows = 8;
} // namespace

WarpgroupPrologue::WarpgroupPrologue(Location loc, const GPUGemmProblem &p,
                                     bool conflictFree)
    : ScalarArith(loc, Float32Type::get(loc->getContext())), p(p),
      conflictFree(conflictFree) {}

bool WarpgroupPrologue::supports(const GPUGemmProblem &p) {
  // γ and β are read at their own type, the element type's or f32.
  auto params = [&](Value v) {
    return !v || elementTypeOf(v) == p.elementType() ||
           elementTypeOf(v).isF32();
  };
  // R is staged by TMA beside A (a map of A's type), S stored in chunks of
  // the element type.
  auto rows = [&](Value v) {
    return !v || elementTypeOf(v) == p.elementType();
  };
  // The norm: a prologue, or normalizesA (prologue None), never both.
  GemmPrologue norm =
      p.prologue != GemmPrologue::None ? p.prologue : p.normalizesA;
  bool layerNorm = norm == GemmPrologue::LayerNorm;
  return norm != GemmPrologue::None &&
         (p.prologue == GemmPrologue::None ||
          p.normalizesA == GemmPrologue::None) &&
         rows(p.aResidual) && rows(p.aSum) && (!p.aSum || p.aResidual) &&
         params(p.gamma) && (!layerNorm || params(p.beta));
}

bool WarpgroupPrologue::rewritesA() const {
  return isLayerNorm() || p.normalizesA != GemmPrologue::None || p.aResidual ||
         p.gamma || p.weightOffset != 0.0;
}

void WarpgroupPrologue::normalizeTile(OpBuilder &b, const PrologueTile &tile,
                                      Value thread, Value kt,
                                      const RowNormalizer::Statistics &stats) {
  Value row = divC(b, thread, 2);
  Value col0 = mulC(b, remC(b, thread, 2), kWarpgroupTileK / 2);
  Value firstChunk = divC(b, col0, kChunk);
  Value rowPhase = remC(b, row, kSwizzleRows);
  Value k0 = mulC(b, kt, kWarpgroupTileK);
  // Step c's chunk of the half row: c, or c ^ (row % 4) when conflict-free
  // (onTile's order; each element is normalized on its own, so the order
  // changes no bits).
  Value turn = conflictFree ? remC(b, row, kHalfRowChunks) : Value();
  RowNormalizer normalizer(loc, p);
  for (int64_t c = 0; c < kHalfRowChunks; ++c) {
    Value step = index(b, c);
    Value physical = add(
        b, firstChunk,
        turn ? arith::XOrIOp::create(b, loc, step, turn).getResult() : step);
    Value col = mulC(b, physical, kChunk);
    // The chunk's columns in K: its logical chunk of the tile.
    Value k =
        add(b, k0,
            mulC(b, arith::XOrIOp::create(b, loc, physical, rowPhase), kChunk));
    Value s = loadInput(b, tile, row, col);
    if (tile.writesSum)
      emitStoreSumChunk(b, loc, p, tile.writesSum, add(b, tile.m0, row), k, s);
    // γ and β as stored, converted to f32 (K is a multiple of a chunk: the
    // chunk is wholly inside or past K, and past K the element is 0).
    auto [gamma, inside] = loadWeight(b, k);
    Value beta;
    if (p.beta)
      beta = loadParams(b, p.beta, k).first;
    if (!inside)
      inside = ult(b, k, p.k);
    Value a = normalizer.normalize(b, toF32(b, s), stats,
                                   gamma ? toF32(b, gamma) : Value(),
                                   beta ? toF32(b, beta) : Value(), inside);
    vector::StoreOp::create(b, loc, a, tile.a, ValueRange{row, col},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value WarpgroupPrologue::loadInput(OpBuilder &b, const PrologueTile &tile,
                                   Value row, Value col) {
  auto vecType = VectorType::get({kChunk}, p.elementType());
  Value x =
      vector::LoadOp::create(b, loc, vecType, tile.a, ValueRange{row, col});
  if (!tile.r)
    return x;
  Value r =
      vector::LoadOp::create(b, loc, vecType, tile.r, ValueRange{row, col});
  return emitResidualSum(b, loc, x, r, p.elementType());
}

/// `v` through an empty side-effecting asm (a PTX mov): LLVM keeps the
/// asm before the barrier and the MMAs that follow the rewrite, so the sum
/// of the chunk is formed here, while its x is live anyway. Left alone, LLVM
/// sinks the sums to the end of the loop body and the tile's 16 registers of
/// x stay live across the MMAs' issue: 4–140 bytes of spills at 128 × 256.
Value WarpgroupPrologue::pinned(OpBuilder &b, Value v) {
  return LLVM::InlineAsmOp::create(
             b, loc, v.getType(), ValueRange{v}, "mov.b32 $0, $1;", "=f,f",
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

std::pair<Value, Value> WarpgroupPrologue::loadParams(OpBuilder &b,
                                                      Value params, Value k) {
  if (!params)
    return {};
  // K is a multiple of a chunk (the TMA kernel's condition): a chunk is
  // wholly inside or past K. Past K, read [0..8) (the caller drops it).
  Value inside = ult(b, k, p.k);
  Value values = vector::LoadOp::create(
      b, loc, VectorType::get({kChunk}, elementTypeOf(params)), params,
      ValueRange{select(b, inside, k, index(b, 0))},
      /*nontemporal=*/false, llvm::MaybeAlign(16));
  return {values, inside};
}

Value WarpgroupPrologue::zeroChunk(OpBuilder &b) {
  auto vecF32 = VectorType::get({kChunk}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vecF32, b.getF32FloatAttr(0.0)));
}

Value WarpgroupPrologue::shiftFactor(OpBuilder &b, Value beta, Value inside) {
  return select(b, inside, toF32(b, beta), zeroChunk(b));
}

Value WarpgroupPrologue::weightFactor(OpBuilder &b, Value gamma, Value inside) {
  auto vecF32 = VectorType::get({kChunk}, b.getF32Type());
  auto splat = [&](Value scalar) {
    return vector::BroadcastOp::create(b, loc, vecF32, scalar).getResult();
  };
  // γ' = γ + offset, with the scalar ops of NormPrologue::gammaPrime.
  if (!gamma)
    return splat(
        arith::AddFOp::create(b, loc, f32(b, 1.0), f32(b, p.weightOffset)));
  gamma = toF32(b, gamma);
  if (p.weightOffset != 0.0)
    gamma = arith::AddFOp::create(b, loc, gamma, splat(f32(b, p.weightOffset)));
  return select(b, inside, gamma, zeroChunk(b));
}

Value WarpgroupPrologue::onTile(OpBuilder &b, Value tile, Value thread,
                                Value kt, Value sum) {
  Value row = divC(b, thread, 2);
  Value col0 = mulC(b, remC(b, thread, 2), kWarpgroupTileK / 2);
  Value firstChunk = divC(b, col0, kChunk);
  Type elem = p.elementType();
  auto vecType = VectorType::get({kChunk}, elem);
  auto vecF32 = VectorType::get({kChunk}, b.getF32Type());
  // Step c's chunk of the half row, as an offset from its first chunk: c,
  // or c ^ (row % 4) when conflict-free (see the file comment).
  Value turn = conflictFree ? remC(b, row, kHalfRowChunks) : Value();
  SmallVector<Value> offsets;
  for (int64_t c = 0; c < kHalfRowChunks; ++c) {
    Value step = index(b, c);
    offsets.push_back(
        turn ? arith::XOrIOp::create(b, loc, step, turn).getResult() : step);
  }
  // γ of each chunk first, as loaded: its global loads are in flight while
  // the tile is read. γ' is formed chunk by chunk where it is used, which
  // keeps 16–32 fewer registers live than forming all four first (the
  // 128 × 256 block's consumers have 168 registers, 128 of them
  // accumulators).
  SmallVector<std::pair<Value, Value>> weights;
  if (rewritesA()) {
    Value k0 = mulC(b, kt, kWarpgroupTileK);
    Value rowPhase = remC(b, row, kSwizzleRows);
    for (int64_t c = 0; c < kHalfRowChunks; ++c) {
      Value logical = arith::XOrIOp::create(
          b, loc, add(b, firstChunk, offsets[c]), rowPhase);
      weights.push_back(loadWeight(b, add(b, k0, mulC(b, logical, kChunk))));
    }
  }
  // Σ of each step's chunk; in chunk order, sum + Σ₀ + Σ₁ + Σ₂ + Σ₃, the
  // same additions whichever order the chunks are read in.
  SmallVector<Value> chunkSums;
  for (int64_t c = 0; c < kHalfRowChunks; ++c) {
    Value col = add(b, col0, mulC(b, offsets[c], kChunk));
    Value x =
        vector::LoadOp::create(b, loc, vecType, tile, ValueRange{row, col});
    Value xf = arith::ExtFOp::create(b, loc, vecF32, x);
    Value sq = arith::MulFOp::create(b, loc, xf, xf);
    Value chunkSum =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, sq);
    if (!conflictFree) {
      sum = arith::AddFOp::create(b, loc, sum, chunkSum);
      if (!weights.empty())
        sum = pinned(b, sum);
    } else {
      chunkSums.push_back(weights.empty() ? chunkSum : pinned(b, chunkSum));
    }
    if (weights.empty())
      continue;
    Value factor = weightFactor(b, weights[c].first, weights[c].second);
    Value a =
        narrow(b, arith::MulFOp::create(b, loc, xf, factor).getResult(), elem);
    vector::StoreOp::create(b, loc, a, tile, ValueRange{row, col},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
  // Chunk j was read at step j ^ turn: select it among the four steps.
  for (int64_t j = 0; j < (int64_t)chunkSums.size(); ++j) {
    Value chunkSum = chunkSums[j];
    for (int64_t t = 1; t < kHalfRowChunks; ++t)
      chunkSum = select(b,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              turn, index(b, t)),
                        chunkSums[j ^ t], chunkSum);
    sum = arith::AddFOp::create(b, loc, sum, chunkSum);
  }
  if (rewritesA())
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  return sum;
}

//===----------------------------------------------------------------------===//
// LayerNorm
//===----------------------------------------------------------------------===//

namespace {
/// The mma.sync kernel's K tile (GPUGemmTiles::blockK of bf16/f16): the
/// pivot is the mean of its first one, and its threads split each in
/// halves of 16, which the LayerNorm prologue's order reproduces.
constexpr int64_t kMmaSyncTileK = 32;
static_assert(kWarpgroupTileK == 2 * kMmaSyncTileK,
              "a wgmma K tile is two mma.sync K tiles");
} // namespace

Value WarpgroupPrologue::layerNormPivot(OpBuilder &b, const PrologueTile &tile,
                                        Value thread) {
  assert(GPUGemmTiles::blockK(p.elementType()) == kMmaSyncTileK);
  Value row = divC(b, thread, 2);
  Value rowPhase = remC(b, row, kSwizzleRows);
  // Each half of the first 32 columns (logical chunks 0, 1 and 2, 3)
  // summed element by element from 0 (zero-filled past K), as the mma.sync
  // kernel's two threads of the row do, then the halves added. Both threads
  // of the row sum both halves: no shuffle (the pipelined schedule's
  // consumers compute it in their branch, which the producer warp does not
  // enter), and addition commutes, so both get the bits of the mma.sync
  // kernel's v + shuffle(v).
  int64_t halfChunks = kMmaSyncTileK / 2 / kChunk;
  Value halves[2];
  for (int64_t h = 0; h < 2; ++h) {
    Value sum = f32(b, 0.0);
    for (int64_t c = 0; c < halfChunks; ++c) {
      Value col = mulC(
          b,
          arith::XOrIOp::create(b, loc, index(b, h * halfChunks + c), rowPhase),
          kChunk);
      Value x = loadInput(b, tile, row, col);
      for (int64_t l = 0; l < kChunk; ++l)
        sum = arith::AddFOp::create(
            b, loc, sum, toF32(b, vector::ExtractOp::create(b, loc, x, l)));
    }
    halves[h] = sum;
  }
  Value sum = arith::AddFOp::create(b, loc, halves[0], halves[1]);
  Value count = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, p.k, index(b, kMmaSyncTileK)),
      index(b, 1));
  Value countF32 = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
  return arith::DivFOp::create(b, loc, sum, countF32);
}

SmallVector<Value>
WarpgroupPrologue::onTileInMmaSyncOrder(OpBuilder &b, const PrologueTile &tile,
                                        Value thread, Value kt, Value pivot,
                                        ValueRange sums) {
  Type elem = p.elementType();
  auto vecF32 = VectorType::get({kChunk}, b.getF32Type());
  Value row = divC(b, thread, 2);
  Value rowPhase = remC(b, row, kSwizzleRows);
  Value oddOffset = mulC(b, remC(b, thread, 2), 2);
  // Position i of the thread's four chunks, in the order of the sums: logical
  // chunk i % 2 + 4·(i / 2) + 2·(thread % 2), i.e. columns 16·(thread % 2)
  // .. + 15 of the two 32-column halves of the tile.
  constexpr int64_t kPositions = 4;
  auto logicalChunk = [&](int64_t i) {
    return addC(b, oddOffset, i % 2 + 4 * (i / 2));
  };
  // Conflict-free, step c reads position c ^ 2 in the rows with row % 4 ≥ 2.
  // A quarter warp (rows 4q .. 4q + 3, two threads each) then reaches eight
  // different physical chunks: the chunk's bit 2 gives row % 4 / 2, bit 0
  // row % 2 and bit 1 the thread's parity. In the order c two threads meet
  // on each chunk.
  Value swap;
  if (conflictFree)
    swap = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, row, index(b, 2)), index(b, 0));
  auto swapped = [&](ArrayRef<Value> values, int64_t i) {
    return swap ? select(b, swap, values[i ^ 2], values[i]) : values[i];
  };
  SmallVector<Value> positionCols;
  Value k0 = mulC(b, kt, kWarpgroupTileK);
  SmallVector<Value> ks;
  for (int64_t i = 0; i < kPositions; ++i) {
    Value logical = logicalChunk(i);
    positionCols.push_back(
        mulC(b, arith::XOrIOp::create(b, loc, logical, rowPhase), kChunk));
    ks.push_back(add(b, k0, mulC(b, logical, kChunk)));
  }
  // Step c's column in the tile and in K.
  SmallVector<Value> stepCols, stepKs;
  for (int64_t c = 0; c < kPositions; ++c) {
    stepCols.push_back(swapped(positionCols, c));
    stepKs.push_back(swapped(ks, c));
  }
  // The four chunks of s first (conflict-free, position 0 may be the last
  // one read); with a residual each written to S as soon as it is formed.
  SmallVector<Value> stepS;
  for (int64_t c = 0; c < kPositions; ++c) {
    stepS.push_back(loadInput(b, tile, row, stepCols[c]));
    if (tile.writesSum)
      emitStoreSumChunk(b, loc, p, tile.writesSum, add(b, tile.m0, row),
                        stepKs[c], stepS[c]);
  }
  // LayerNorm: past K, s is TMA's zero fill and d = −p: masked to 0 as the
  // mma.sync kernel does (K is a multiple of 8, so a chunk is wholly past K
  // or not). RMSNorm sums s itself (0 past K).
  std::optional<int64_t> staticK = getConstantIntValue(p.k);
  bool maskTail = !staticK || *staticK % kWarpgroupTileK != 0;
  Value pivotVec = isLayerNorm()
                       ? vector::BroadcastOp::create(b, loc, vecF32, pivot)
                       : Value();
  Value zero = maskTail && isLayerNorm() ? zeroChunk(b) : Value();
  auto shifted = [&](Value s, Value k) -> Value {
    Value v = arith::ExtFOp::create(b, loc, vecF32, s);
    if (!isLayerNorm())
      return v;
    Value d = arith::SubFOp::create(b, loc, v, pivotVec);
    return maskTail ? select(b, ult(b, k, p.k), d, zero) : d;
  };
  // The sums, in position order: LayerNorm Σd (add) and Σd² (fma); RMSNorm
  // Σs² (fma) of lane l into sums[l % 2], NormPrologue::onTile's chains.
  SmallVector<Value> next(sums.begin(), sums.end());
  for (int64_t i = 0; i < kPositions; ++i) {
    Value d = shifted(swapped(stepS, i), ks[i]);
    for (int64_t l = 0; l < kChunk; ++l) {
      Value dl = vector::ExtractOp::create(b, loc, d, l);
      if (isLayerNorm()) {
        next[0] = arith::AddFOp::create(b, loc, next[0], dl);
        next[1] = math::FmaOp::create(b, loc, dl, dl, next[1]);
      } else {
        next[l % 2] = math::FmaOp::create(b, loc, dl, dl, next[l % 2]);
      }
    }
  }
  // The sums are formed before the rewrite, the barrier and the MMAs (see
  // `pinned`).
  for (Value &sum : next)
    sum = pinned(b, sum);
  // The rewrite, in step order, d formed again chunk by chunk (the same
  // bits) and γ loaded where it is used: the rewritten chunks are not held
  // until the last is formed, nor γ beside them (the 128 × 256 block's
  // consumers have 168 registers, 128 of them accumulators). RMSNorm with a
  // residual but without γ or weight offset writes s itself (the mma.sync
  // kernel's rewritesPlainSum).
  bool plainSum = !isLayerNorm() && !p.gamma && p.weightOffset == 0.0;
  for (int64_t c = 0; c < kPositions; ++c) {
    Value a = stepS[c];
    if (!plainSum) {
      auto [gamma, inside] = loadWeight(b, stepKs[c]);
      Value factor = weightFactor(b, gamma, inside);
      a = narrow(
          b,
          arith::MulFOp::create(b, loc, shifted(stepS[c], stepKs[c]), factor)
              .getResult(),
          elem);
    }
    vector::StoreOp::create(b, loc, a, tile.a, ValueRange{row, stepCols[c]},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  return next;
}

SmallVector<Value> WarpgroupPrologue::columnSums(OpBuilder &b, Value wTile,
                                                 ValueRange columns, Value kt,
                                                 ValueRange sums) {
  Type elem = p.elementType();
  Value k0 = mulC(b, kt, kWarpgroupTileK);
  // Where column j lies in the swizzled tile (N×K: row j, whose chunks are
  // permuted by j % 8; K×N: slab j / 64, column j % 64, in chunk
  // (j % 64) / 8 at lane j % 8 of each row).
  struct Column {
    Value j, phase, slab, chunk, lane;
  };
  SmallVector<Column> place;
  for (Value j : columns) {
    Value inSlab = remC(b, j, 64);
    place.push_back({j, remC(b, j, kSwizzleRows), divC(b, j, 64),
                     divC(b, inSlab, kChunk), remC(b, inSlab, kChunk)});
  }
  SmallVector<Value> next(sums.begin(), sums.end());
  for (int64_t chunk = 0; chunk < kWarpgroupTileK / kChunk; ++chunk) {
    // γ' and β of rows k .. k + 7 depend on k alone: once for the columns.
    Value k = addC(b, k0, chunk * kChunk);
    auto [gamma, inside] = loadWeight(b, k);
    Value factor = weightFactor(b, gamma, inside);
    Value shift;
    if (p.beta) {
      auto [beta, betaInside] = loadParams(b, p.beta, k);
      shift = shiftFactor(b, beta, betaInside);
    }
    for (auto [i, column] : llvm::enumerate(place)) {
      // W's 8 elements of rows k .. k + 7 of column j, past K TMA's zeros.
      SmallVector<Value> w;
      if (p.transposeW) {
        // Row j holds logical chunk `chunk` at physical chunk chunk ^ (j % 8).
        Value col = mulC(
            b, arith::XOrIOp::create(b, loc, index(b, chunk), column.phase),
            kChunk);
        Value vec =
            vector::LoadOp::create(b, loc, VectorType::get({kChunk}, elem),
                                   wTile, ValueRange{column.j, col});
        for (int64_t l = 0; l < kChunk; ++l)
          w.push_back(toF32(b, vector::ExtractOp::create(b, loc, vec, l)));
      } else {
        // Row k of a slab holds logical chunk q at physical chunk q ^ (k % 8),
        // and k % 8 is the lane l of the chunk.
        for (int64_t l = 0; l < kChunk; ++l) {
          Value col = add(
              b,
              mulC(b, arith::XOrIOp::create(b, loc, column.chunk, index(b, l)),
                   kChunk),
              column.lane);
          w.push_back(toF32(
              b,
              memref::LoadOp::create(
                  b, loc, wTile,
                  ValueRange{column.slab, index(b, chunk * kChunk + l), col})));
        }
      }
      Value &c = next[2 * i], &bw = next[2 * i + 1];
      for (int64_t l = 0; l < kChunk; ++l) {
        c = math::FmaOp::create(
            b, loc, vector::ExtractOp::create(b, loc, factor, l), w[l], c);
        if (shift)
          bw = math::FmaOp::create(
              b, loc, vector::ExtractOp::create(b, loc, shift, l), w[l], bw);
      }
    }
  }
  return next;
}
