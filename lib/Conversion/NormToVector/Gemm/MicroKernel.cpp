//===- MicroKernel.cpp - the register-tiled micro-kernel of the CPU GEMM --===//
//
// The innermost loops of the packed GEMM (DESIGN.md §3): for a row block's
// rows of Ã and one NR-column micro-panel of B̃, MR × NR/L vector
// accumulators in registers over a K block, one FMA per A element broadcast
// and B vector per k, unrolled; then the tile goes to the epilogue. With
// bf16 dot products (x86vector.avx512.dot, vdpbf16ps: per lane
// acc += a₀b₀ + a₁b₁ in f32) a step takes a k-pair, two k's per
// instruction, twice the f32 FMA rate.
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// `tileRows` rows from `firstRow` (of Ã's panel for `kb` and of C) × NR
/// columns (panel `jr`) over K block `kb`: tileRows × NR/L accumulators in
/// registers; per k, NR/L vector loads of B̃, tileRows broadcasts of Ã and
/// tileRows × NR/L FMAs.
void MicroKernel::microTile(OpBuilder &b, const ChunkBuffers &buf,
                            Value partials, int64_t tileRows, Value firstRow,
                            Value jc, Value jr, Value cols, const KBlock &kb) {
  Value zero = index(b, 0);
  Value panel = arith::DivUIOp::create(b, loc, jr, index(b, s.tileCols));
  Value bBase = mul(b, panel, index(b, s.blockK * s.tileCols));
  SmallVector<Value> aBase;
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(
        add(b, kb.aPanel,
            mul(b, add(b, firstRow, index(b, i)), index(b, s.blockK))));

  // The dot micro-kernel: per k-pair, NR/L vectors of L bf16 pairs from B̃,
  // and per row the row's pair broadcast to all lanes (one 32-bit element).
  auto pairStep = [&](OpBuilder &nb, Value kp, SmallVector<Value> &accs) {
    Type bf16 = nb.getBF16Type();
    VectorType pairsType = VectorType::get({2 * s.lanes}, bf16);
    Value bOffset = add(nb, bBase, mul(nb, kp, index(nb, 2 * s.tileCols)));
    SmallVector<Value> bv;
    for (int64_t v = 0; v < s.tileVectors; ++v)
      bv.push_back(vector::LoadOp::create(
          nb, loc, pairsType, buf.packedB,
          ValueRange{add(nb, bOffset, index(nb, 2 * v * s.lanes))}));
    Value kOffset = mul(nb, kp, index(nb, 2));
    for (int64_t i = 0; i < tileRows; ++i) {
      Value aPairs =
          broadcastAPair(nb, buf.packedA, add(nb, aBase[i], kOffset));
      for (int64_t v = 0; v < s.tileVectors; ++v) {
        Value &acc = accs[i * s.tileVectors + v];
        acc = x86vector::DotBF16Op::create(nb, loc, acc.getType(), acc, aPairs,
                                           bv[v]);
      }
    }
  };

  auto kStep = [&](OpBuilder &nb, Value kk, SmallVector<Value> &accs) {
    if (dot) {
      pairStep(nb, kk, accs);
      return;
    }
    Value bOffset = add(nb, bBase, mul(nb, kk, index(nb, s.tileCols)));
    SmallVector<Value> bv;
    for (int64_t v = 0; v < s.tileVectors; ++v)
      bv.push_back(vector::LoadOp::create(
          nb, loc, vecType(nb.getF32Type()), buf.packedB,
          ValueRange{add(nb, bOffset, index(nb, v * s.lanes))}));
    for (int64_t i = 0; i < tileRows; ++i) {
      Value a = memref::LoadOp::create(nb, loc, buf.packedA,
                                       ValueRange{add(nb, aBase[i], kk)});
      Value aSplat = splat(nb, a);
      for (int64_t v = 0; v < s.tileVectors; ++v) {
        Value &acc = accs[i * s.tileVectors + v];
        acc = vector::FMAOp::create(nb, loc, aSplat, bv[v], acc);
      }
    }
  };

  SmallVector<Value> init(tileRows * s.tileVectors, zeros(b));
  // Steps of the k loop: k's, or k-pairs for the dot micro-kernel.
  Value steps = dot ? arith::CeilDivUIOp::create(b, loc, kb.length, index(b, 2))
                          .getResult()
                    : kb.length;
  Value unroll = index(b, s.unroll);
  Value mainEnd = mul(b, arith::DivUIOp::create(b, loc, steps, unroll), unroll);
  auto mainLoop = scf::ForOp::create(
      b, loc, zero, mainEnd, unroll, init,
      [&](OpBuilder &nb, Location, Value kk, ValueRange iter) {
        SmallVector<Value> accs(iter);
        for (int64_t u = 0; u < s.unroll; ++u)
          kStep(nb, add(nb, kk, index(nb, u)), accs);
        scf::YieldOp::create(nb, loc, accs);
      });
  auto restLoop = scf::ForOp::create(
      b, loc, mainEnd, steps, index(b, 1), mainLoop.getResults(),
      [&](OpBuilder &nb, Location, Value kk, ValueRange iter) {
        SmallVector<Value> accs(iter);
        kStep(nb, kk, accs);
        scf::YieldOp::create(nb, loc, accs);
      });

  GemmEpilogue epilogue(*this);
  SmallVector<Value> masks, constant, colSums;
  epilogue.columnConstants(b, buf, jc, jr, cols, s.tileVectors, masks, constant,
                           colSums);
  ValueRange accs = restLoop.getResults();
  for (int64_t i = 0; i < tileRows; ++i) {
    SmallVector<Value> rowAccs(accs.slice(i * s.tileVectors, s.tileVectors));
    epilogue.storeTileRow(b, buf, partials, add(b, firstRow, index(b, i)), jc,
                          jr, masks, constant, colSums, rowAccs, kb);
  }
}

/// The rows [ic, ic + rows) of panel `jr`: whole MR-row tiles, then the
/// leftover rows in tiles of 4 and of 1 (so a decode step, M = 1, does not
/// pay for MR rows).
void MicroKernel::tilesOfRows(OpBuilder &b, const ChunkBuffers &buf,
                              Value partials, Value ic, Value rows, Value jc,
                              Value jr, Value cols, const KBlock &kb) {
  Value start = index(b, 0);
  SmallVector<int64_t> tileSizes{s.tileRows};
  for (int64_t smaller : {int64_t(4), int64_t(1)})
    if (smaller < tileSizes.back())
      tileSizes.push_back(smaller);
  for (int64_t tileRows : tileSizes) {
    Value size = index(b, tileRows);
    Value end =
        add(b, start,
            mul(b, arith::DivUIOp::create(b, loc, sub(b, rows, start), size),
                size));
    scf::ForOp::create(b, loc, start, end, size, ValueRange{},
                       [&](OpBuilder &nb, Location, Value ir, ValueRange) {
                         microTile(nb, buf, partials, tileRows, add(nb, ic, ir),
                                   jc, jr, cols, kb);
                         scf::YieldOp::create(nb, loc);
                       });
    start = end;
  }
}
