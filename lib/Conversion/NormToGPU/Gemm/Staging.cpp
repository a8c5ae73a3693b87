//===- Staging.cpp - tiles of the fused GPU GEMM into shared memory -------===//
//
// The staging job of the cp.async / guarded-load GEMM kernel (FusedGemm.cpp):
//
//   layout = two shared-memory buffers per operand (dynamic shared memory,
//            16-byte aligned): A [2][BM][BK + 8], W [2][BK][BN + 8] (K×N) or
//            [2][BN][BK + 8] (N×K), γ/β [2][BK]; the 8-element padding makes
//            ldmatrix's eight 16-byte rows fall into distinct bank groups;
//            then the epilogue's row and column vectors (f32);
//   copies = per K tile, each thread copies 16-byte chunks of every operand
//            (cp.async, bypassing L1), one commit group per tile; the tails
//            past M, N and K are zero-filled by cp.async's source size (0 to
//            8 elements). The fallback kernel (K or N not a multiple of the
//            chunk) loads the same chunks element by element, guarded.
//
// Residual (norm → matmul with residual(R), sum_outs(S)): R's tile is staged
// beside A's, by the same cp.async group and with the same chunk mapping
// and zero-fill ([2][BM][BK + 8], 10 KiB more shared memory; at most 42 KiB
// in all, under the 48 KiB a launch gets without opting in), so that the
// prologue forms s = round(x + r) from two shared tiles. Adding on the
// register path instead (R loaded from global memory inside the prologue)
// would put an unpipelined global load on every K tile's critical path;
// staging R keeps it in the two-stage cp.async pipeline, overlapped with the
// previous tile's MMAs.
//
//===----------------------------------------------------------------------===//

#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

SharedTiles TileStaging::allocate(OpBuilder &b, Value raw, int64_t &bytes) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  bytes = 0;
  auto view = [&](ArrayRef<int64_t> shape, Type type) -> Value {
    auto memrefType =
        MemRefType::get(shape, type, MemRefLayoutAttrInterface(), workgroup);
    int64_t size = type.getIntOrFloatBitWidth() / 8;
    for (int64_t d : shape)
      size *= d;
    Value v = Value();
    if (raw)
      v = memref::ViewOp::create(b, loc, memrefType, raw, index(b, bytes),
                                 ValueRange{});
    bytes += (size + 15) / 16 * 16;
    return v;
  };
  SharedTiles s;
  s.a = view({2, kBM, bk + pad}, elem);
  if (p.aResidual)
    s.r = view({2, kBM, bk + pad}, elem);
  s.w = p.transposeW ? view({2, kBN, bk + pad}, elem)
                     : view({2, bk, kBN + pad}, elem);
  // γ and β at their own type (f32 with bf16 data: never rounded to it).
  if (stagesGamma())
    s.gamma = view({2, bk}, elementTypeOf(p.gamma));
  if (stagesBeta())
    s.beta = view({2, bk}, elementTypeOf(p.beta));
  Type f32Type = b.getF32Type();
  // normalizesA: rstd and LayerNorm's mean, from computeRowNorm.
  if (isNorm() || normalizesA()) {
    s.rowScale = view({kBM}, f32Type);
    if (isLayerNorm() || p.normalizesA == GemmPrologue::LayerNorm)
      s.rowShift = view({kBM}, f32Type);
    if (p.normalizesA == GemmPrologue::LayerNorm)
      s.rowCorrection = view({kBM}, f32Type);
  }
  if (isLayerNorm())
    s.colC = view({kBN}, f32Type);
  if (isLayerNorm() || p.matmulBias)
    s.colB = view({kBN}, f32Type);
  return s;
}

Value TileStaging::clamp(OpBuilder &b, Value v, int64_t hi) {
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, v, index(b, 0)), index(b, hi));
}

/// Copies `count` (0 to `elements`) elements of row `srcRow` of `src` from
/// `srcCol` on into the shared tile at `dstIndices`, zero-filling the rest
/// of the 16-byte chunk of `elements` elements: a 16-byte cp.async with a
/// source size, or guarded element loads in the fallback kernel. With
/// count = 0 the source indices must still lie in the buffer's range or be 0.
void TileStaging::copyChunk(OpBuilder &b, Value src, Value srcRow, Value srcCol,
                            Value count, Value dst, ValueRange dstIndices,
                            SmallVectorImpl<Value> &tokens, int64_t elements) {
  SmallVector<Value> srcIndices;
  if (srcRow)
    srcIndices.push_back(srcRow);
  srcIndices.push_back(srcCol);
  if (async) {
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, dst, dstIndices, src, srcIndices, b.getIndexAttr(elements),
        count, /*bypassL1=*/b.getUnitAttr()));
    return;
  }
  SmallVector<Value> dstIdx(dstIndices.begin(), dstIndices.end());
  Value zero = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(elementTypeOf(dst), 0.0));
  for (int64_t j = 0; j < elements; ++j) {
    Value inside = slt(b, index(b, j), count);
    auto load = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &tb, Location) {
          SmallVector<Value> idx(srcIndices);
          idx.back() = addC(tb, idx.back(), j);
          scf::YieldOp::create(
              tb, loc, memref::LoadOp::create(tb, loc, src, idx).getResult());
        },
        [&](OpBuilder &eb, Location) { scf::YieldOp::create(eb, loc, zero); });
    SmallVector<Value> d(dstIdx);
    d.back() = addC(b, d.back(), j);
    memref::StoreOp::create(b, loc, load.getResult(0), dst, d);
  }
}

Value TileStaging::stageTile(OpBuilder &b, const SharedTiles &s, Value kt,
                             Value buf) {
  Value k0 = mulC(b, kt, bk);
  Value zero = index(b, 0);
  SmallVector<Value> tokens;
  // count = clamp(limit − start, 0, 8) when `valid`, else 0; the source
  // index is `start` when count > 0, else 0.
  auto chunkCount = [&](Value valid, Value limit, Value start) {
    Value count = select(b, valid, clamp(b, sub(b, limit, start), chunk), zero);
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count, zero);
    return std::make_pair(count, any);
  };

  // A tile of `rows` × `cols` elements of `src` from global (rowStart,
  // colStart) on, cut off at (rowLimit, colLimit), into `dst`: row-major
  // 16-byte chunks, spread over the threads. `alsoSrc` (A's residual) is
  // copied by the same chunks into `alsoDst`: the same element of the same
  // tile, and the same zero-fill past M and K, so that s = 0 there.
  auto stageRows = [&](Value src, Value dst, int64_t rows, int64_t cols,
                       Value rowStart, Value rowLimit, Value colStart,
                       Value colLimit, Value alsoSrc, Value alsoDst) {
    const int64_t chunksPerRow = cols / chunk;
    for (int64_t i = 0; i < rows * cols / chunk / kThreads; ++i) {
      Value c = addC(b, tid, i * kThreads);
      Value row = divC(b, c, chunksPerRow);
      Value col = mulC(b, remC(b, c, chunksPerRow), chunk);
      Value globalRow = add(b, rowStart, row);
      Value globalCol = add(b, colStart, col);
      auto [count, any] =
          chunkCount(slt(b, globalRow, rowLimit), colLimit, globalCol);
      Value srcRow = select(b, any, globalRow, zero);
      Value srcCol = select(b, any, globalCol, zero);
      copyChunk(b, src, srcRow, srcCol, count, dst, {buf, row, col}, tokens,
                chunk);
      if (alsoDst)
        copyChunk(b, alsoSrc, srcRow, srcCol, count, alsoDst, {buf, row, col},
                  tokens, chunk);
    }
  };
  // A: BM × BK (with the residual beside it); W: BN rows of BK (N×K) or BK
  // rows of BN (K×N).
  stageRows(p.a, s.a, kBM, bk, m0, p.m, k0, p.k, p.aResidual, s.r);
  if (p.transposeW)
    stageRows(p.w, s.w, kBN, bk, n0, p.n, k0, p.k, Value(), Value());
  else
    stageRows(p.w, s.w, bk, kBN, k0, p.k, n0, p.n, Value(), Value());
  // γ and β: BK/8 chunks each, copied by the first threads. A γ/β wider
  // than the element type (f32 with bf16 data) takes one 16-byte copy per
  // piece of the chunk.
  auto stageVector = [&](Value src, Value dst, int64_t firstThread) {
    Value mine = andI(b,
                      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            tid, index(b, firstThread)),
                      slt(b, tid, index(b, firstThread + bk / chunk)));
    int64_t pieces = elementTypeOf(src).getIntOrFloatBitWidth() /
                     elem.getIntOrFloatBitWidth();
    int64_t perPiece = chunk / pieces;
    scf::IfOp::create(b, loc, mine, [&](OpBuilder &tb, Location) {
      for (int64_t piece = 0; piece < pieces; ++piece) {
        Value col =
            addC(tb, mulC(tb, sub(tb, tid, index(tb, firstThread)), chunk),
                 piece * perPiece);
        Value gk = add(tb, k0, col);
        Value count = clamp(tb, sub(tb, p.k, gk), perPiece);
        Value any = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::sgt,
                                          count, index(tb, 0));
        SmallVector<Value> inner;
        copyChunk(tb, src, Value(), select(tb, any, gk, index(tb, 0)), count,
                  dst, {buf, col}, inner, perPiece);
      }
      scf::YieldOp::create(tb, loc);
    });
  };
  if (s.gamma)
    stageVector(p.gamma, s.gamma, 0);
  if (s.beta)
    stageVector(p.beta, s.beta, bk / chunk);

  if (!async)
    return Value();
  // The γ/β copies inside scf.if join the same commit group (the group
  // takes every copy the thread issued since the last commit).
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
}
