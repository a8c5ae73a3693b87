//===- PackW.cpp - W into the packed panels, with the column sums ---------===//
//
// The CPU GEMM's right operand, packed per column chunk and K block (each
// thread its own, DESIGN.md §3): W[pc.., jc..] into B̃ = [NC/NR][KC][NR] f32,
// zero columns past N, from W as K×N (row by row, the runs the hardware
// prefetchers stream) or N×K (L rows × L k's transposed in registers).
// LayerNorm also accumulates its column constants c = Σ_k γ'_k W_k· and
// Σ_k β_k W_k· from the packed registers.
//
// bf16 dot products (AVX512-BF16, bf16 A and W): B̃ holds k-pairs of W as it
// is ([panel][KC/2][NR][2], the operand layout of vdpbf16ps), since γ' went
// into Ã; LayerNorm's column sums are then summed in f32 from the K block of
// W the pair packer has just read (sumColumnsOfW).
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

/// How far ahead (in rows of W) packing prefetches a K×N W.
static constexpr int64_t kPrefetchRows = 8;
/// How far ahead (in steps of L k's, or 2L for the pair packing) the packing
/// of an N×K W prefetches each row.
static constexpr int64_t kPrefetchSteps = 4;

/// Packs W[kb, jc..jc+cols) into B̃. W as K×N is read row by row (k outer):
/// each k is one contiguous run of the chunk's columns, which the hardware
/// prefetchers stream; walking a panel's column stripe down k instead
/// touches one cache line per 16 KiB stride and runs at DRAM latency.
void WPacker::packB(OpBuilder &b, const ChunkBuffers &buf, Value jc, Value cols,
                    const KBlock &kb) {
  if (dot) {
    if (p.transposeW)
      packTransposedBPairs(b, buf, jc, cols, kb);
    else
      packBPairs(b, buf, jc, cols, kb);
    if (isLayerNorm())
      sumColumnsOfW(b, buf, jc, cols, kb);
    return;
  }
  if (p.transposeW) {
    packTransposedB(b, buf, jc, cols, kb);
    return;
  }
  Value zero = index(b, 0);
  Value one = index(b, 1);
  if (isLayerNorm())
    zeroColumnSums(b, buf, kb);
  scf::ForOp::create(
      b, loc, zero, kb.length, one, ValueRange{},
      [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
        Value kGlobal = add(kbld, kb.start, kk);
        std::array<Value, 2> weights;
        if (isLayerNorm())
          weights = columnSumWeights(kbld, kGlobal);
        Value rowOffset = mul(kbld, kk, index(kbld, s.tileCols));
        // The row kPrefetchRows ahead (clamped to the last), a cache line
        // per vector: the jump between rows defeats the prefetchers.
        Value aheadRow =
            minIndex(kbld, add(kbld, kGlobal, index(kbld, kPrefetchRows)),
                     sub(kbld, p.k, one));
        forEachPanelVector(
            kbld, zero, jc, cols, rowOffset,
            [&](OpBuilder &pb, const PanelVector &pv) {
              if (options.prefetchNextRow)
                memref::PrefetchOp::create(
                    pb, loc, p.w,
                    ValueRange{aheadRow,
                               minIndex(pb, pv.col, sub(pb, p.n, one))},
                    /*isWrite=*/false, /*localityHint=*/2,
                    /*isDataCache=*/true);
              Value w = loadAcc(pb, p.w, {kGlobal, pv.col}, mask(pb, pv.left));
              vector::StoreOp::create(
                  pb, loc, w, buf.packedB,
                  ValueRange{add(pb, pv.base, index(pb, pv.v * s.lanes))});
              addToColumnSums(pb, buf, weights, w, pv.colInChunk);
            });
        scf::YieldOp::create(kbld, loc);
      });
}

/// `body` for each vector of each NR-column panel of the chunk's `cols`
/// columns from `jc`, with the panel's packed row at `rowOffset`.
void WPacker::forEachPanelVector(
    OpBuilder &b, Value zero, Value jc, Value cols, Value rowOffset,
    function_ref<void(OpBuilder &, const PanelVector &)> body) {
  scf::ForOp::create(
      b, loc, zero, cols, index(b, s.tileCols), ValueRange{},
      [&](OpBuilder &pb, Location, Value jr, ValueRange) {
        Value panel =
            arith::DivUIOp::create(pb, loc, jr, index(pb, s.tileCols));
        PanelVector pv;
        pv.base = add(pb, mul(pb, panel, index(pb, s.blockK * s.tileCols)),
                      rowOffset);
        for (pv.v = 0; pv.v < s.tileVectors; ++pv.v) {
          pv.colInChunk = add(pb, jr, index(pb, pv.v * s.lanes));
          pv.left = arith::MaxSIOp::create(pb, loc,
                                           sub(pb, cols, pv.colInChunk), zero);
          pv.col = add(pb, jc, pv.colInChunk);
          body(pb, pv);
        }
        scf::YieldOp::create(pb, loc);
      });
}

/// LayerNorm: zeroes the chunk's column sums c and Σ β·W at the first K
/// block.
void WPacker::zeroColumnSums(OpBuilder &b, const ChunkBuffers &buf,
                             const KBlock &kb) {
  scf::IfOp::create(b, loc, kb.isFirst, [&](OpBuilder &tb, Location) {
    scf::ForOp::create(
        tb, loc, index(tb, 0), index(tb, s.blockN), index(tb, s.lanes),
        ValueRange{}, [&](OpBuilder &lb, Location, Value c, ValueRange) {
          for (Value sums : {buf.colSumW, buf.colSumBetaW})
            if (sums)
              vector::StoreOp::create(lb, loc, zeros(lb), sums, ValueRange{c});
          scf::YieldOp::create(lb, loc);
        });
    scf::YieldOp::create(tb, loc);
  });
}

/// LayerNorm's weights of W's row `k` in its column sums, splat: γ'_k for c
/// and β_k for Σβ·W (null without a β).
std::array<Value, 2> WPacker::columnSumWeights(OpBuilder &b, Value k) {
  return {splat(b, gammaAt(b, k)),
          p.beta ? splat(b, loadScalarAcc(b, p.beta, {k})) : Value()};
}

/// Adds weights[i]·w to column sum i (c, Σβ·W) at chunk column `col`; a null
/// weight adds nothing.
void WPacker::addToColumnSums(OpBuilder &b, const ChunkBuffers &buf,
                              ArrayRef<Value> weights, Value w, Value col) {
  Value sums[] = {buf.colSumW, buf.colSumBetaW};
  VectorType type = vecType(b.getF32Type());
  for (int i = 0; i < 2; ++i) {
    if (!weights[i])
      continue;
    Value old = vector::LoadOp::create(b, loc, type, sums[i], ValueRange{col});
    vector::StoreOp::create(b, loc,
                            vector::FMAOp::create(b, loc, weights[i], w, old),
                            sums[i], ValueRange{col});
  }
}

/// LayerNorm on bf16 dot products: B̃ holds W as it is, so the column sums
/// c = Σ_k γ'_k W_k· and Σ_k β_k W_k· that the f32 packers gather as they
/// pack are summed here, in f32, from the K block of W the pair packer has
/// just read (in L2). W as K×N: row by row, FMAs into the sums; N×K: a dot
/// product along each W row.
void WPacker::sumColumnsOfW(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                            Value cols, const KBlock &kb) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value sumBufs[] = {buf.colSumW, buf.colSumBetaW};
  zeroColumnSums(b, buf, kb);
  if (!p.transposeW) {
    scf::ForOp::create(
        b, loc, zero, kb.length, one, ValueRange{},
        [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
          Value k = add(kbld, kb.start, kk);
          std::array<Value, 2> weights = columnSumWeights(kbld, k);
          auto step = [&](OpBuilder &nb, Value c, Value maskValue,
                          SmallVector<Value> &) {
            addToColumnSums(nb, buf, weights,
                            loadAcc(nb, p.w, {k, add(nb, jc, c)}, maskValue),
                            c);
          };
          vectorSteps(kbld, zero, cols, ValueRange{}, step, nullptr);
          scf::YieldOp::create(kbld, loc);
        });
    return;
  }
  scf::ForOp::create(
      b, loc, zero, cols, one, ValueRange{},
      [&](OpBuilder &nb, Location, Value c, ValueRange) {
        Value row = add(nb, jc, c);
        int64_t numSums = numColumnSums();
        auto step = [&](OpBuilder &sb, Value k, Value maskValue,
                        SmallVector<Value> &accs) {
          Value w = loadAcc(sb, p.w, {row, k}, maskValue);
          Value g = gammaVectorAt(sb, k, maskValue);
          accs[0] =
              g ? vector::FMAOp::create(sb, loc, g, w, accs[0]).getResult()
                : arith::AddFOp::create(sb, loc, accs[0], w).getResult();
          if (p.beta)
            accs[1] = vector::FMAOp::create(
                sb, loc, loadAcc(sb, p.beta, {k}, maskValue), w, accs[1]);
        };
        auto sums =
            vectorSteps(nb, kb.start, kb.length,
                        SmallVector<Value>(numSums, zeros(nb)), step, nullptr);
        for (int64_t i = 0; i < numSums; ++i) {
          Value total = vector::ReductionOp::create(
              nb, loc, vector::CombiningKind::ADD, sums.getResult(i));
          Value old =
              memref::LoadOp::create(nb, loc, sumBufs[i], ValueRange{c});
          memref::StoreOp::create(nb, loc,
                                  arith::AddFOp::create(nb, loc, old, total),
                                  sumBufs[i], ValueRange{c});
        }
        scf::YieldOp::create(nb, loc);
      });
}

/// Stores the bf16 W rows k0 and k1 (L columns each) as one vector of L
/// k-pairs at `offset` of B̃, the operand layout of vdpbf16ps. W is copied
/// as it is: γ' is in Ã (packRow), so B̃ is the plain matmul's.
void WPacker::storeBPair(OpBuilder &b, const ChunkBuffers &buf, Value w0,
                         Value w1, Value offset) {
  Value pairs = vector::InterleaveOp::create(b, loc, w0, w1);
  vector::StoreOp::create(b, loc, pairs, buf.packedB, ValueRange{offset});
}

/// Packs a K×N bf16 W for the dot micro-kernel: rows k and k+1 (each a
/// contiguous run of the chunk's columns, as in packB) are interleaved into
/// k-pairs. An odd block's last pair gets a zero partner row (Ã's padding
/// is zero too, and both must be finite).
void WPacker::packBPairs(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                         Value cols, const KBlock &kb) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Type bf16 = b.getBF16Type();
  Value bf16Zeros = zerosOf(b, vecType(bf16));
  auto loadRow = [&](OpBuilder &lb, Value k, Value col, Value count) {
    return vector::MaskedLoadOp::create(lb, loc, vecType(bf16), p.w,
                                        ValueRange{k, col}, mask(lb, count),
                                        bf16Zeros)
        .getResult();
  };
  Value lastK = sub(b, p.k, one);
  scf::ForOp::create(
      b, loc, zero, kb.length, index(b, 2), ValueRange{},
      [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
        Value k0 = add(kbld, kb.start, kk);
        Value hasK1 = ult(kbld, add(kbld, kk, one), kb.length);
        Value k1 = minIndex(kbld, add(kbld, k0, one), lastK);
        // kk is even: pair kk/2 starts at (kk/2)·2·NR.
        Value pairOffset = mul(kbld, kk, index(kbld, s.tileCols));
        Value aheadRow =
            minIndex(kbld, add(kbld, k0, index(kbld, kPrefetchRows)), lastK);
        Value aheadRow1 = minIndex(kbld, add(kbld, aheadRow, one), lastK);
        forEachPanelVector(
            kbld, zero, jc, cols, pairOffset,
            [&](OpBuilder &pb, const PanelVector &pv) {
              // A bf16 vector is half a cache line: one prefetch per row
              // covers both of a panel's vectors.
              if (options.prefetchNextRow && pv.v % 2 == 0) {
                Value prefetchCol = minIndex(pb, pv.col, sub(pb, p.n, one));
                for (Value ahead : {aheadRow, aheadRow1})
                  memref::PrefetchOp::create(
                      pb, loc, p.w, ValueRange{ahead, prefetchCol},
                      /*isWrite=*/false, /*localityHint=*/2,
                      /*isDataCache=*/true);
              }
              Value w0 = loadRow(pb, k0, pv.col, pv.left);
              Value w1 = loadRow(
                  pb, k1, pv.col,
                  arith::SelectOp::create(pb, loc, hasK1, pv.left, zero));
              storeBPair(pb, buf, w0, w1,
                         add(pb, pv.base, index(pb, 2 * pv.v * s.lanes)));
            });
        scf::YieldOp::create(kbld, loc);
      });
}

/// Packs an N×K bf16 W for the dot micro-kernel. A row of W holds its
/// k-pairs side by side, so L rows × 2L k's read as L×L 32-bit words,
/// transposed in registers, are L k-pair rows of B̃ as they are stored.
void WPacker::packTransposedBPairs(OpBuilder &b, const ChunkBuffers &buf,
                                   Value jc, Value cols, const KBlock &kb) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Type bf16 = b.getBF16Type();
  Type i32 = b.getI32Type();
  VectorType pairsType = VectorType::get({2 * s.lanes}, bf16);
  VectorType wordsType = VectorType::get({s.lanes}, i32);
  VectorType squareType = VectorType::get({s.lanes, s.lanes}, i32);
  Value bf16Zeros = zerosOf(b, pairsType);
  Value lastRow = sub(b, p.n, one);
  scf::ForOp::create(
      b, loc, zero, cols, index(b, s.tileCols), ValueRange{},
      [&](OpBuilder &pb, Location, Value jr, ValueRange) {
        Value panelBase =
            mul(pb, arith::DivUIOp::create(pb, loc, jr, index(pb, s.tileCols)),
                index(pb, s.blockK * s.tileCols));
        for (int64_t v = 0; v < s.tileVectors; ++v) {
          Value colInChunk = add(pb, jr, index(pb, v * s.lanes));
          scf::ForOp::create(
              pb, loc, zero, kb.length, index(pb, 2 * s.lanes), ValueRange{},
              [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
                Value kGlobal = add(kbld, kb.start, kk);
                Value kLeft = sub(kbld, kb.length, kk);
                Value aheadK =
                    minIndex(kbld,
                             add(kbld, kGlobal,
                                 index(kbld, kPrefetchSteps * 2 * s.lanes)),
                             sub(kbld, p.k, one));
                Value square = arith::ConstantOp::create(
                    kbld, loc, DenseElementsAttr::get(squareType, int32_t(0)));
                for (int64_t t = 0; t < s.lanes; ++t) {
                  Value rowInChunk = add(kbld, colInChunk, index(kbld, t));
                  Value count = arith::SelectOp::create(
                      kbld, loc, ult(kbld, rowInChunk, cols), kLeft,
                      index(kbld, 0));
                  Value row =
                      minIndex(kbld, add(kbld, jc, rowInChunk), lastRow);
                  // Each of the L rows is a separate short stream (a K
                  // block's run, KC·2 bytes) that the hardware prefetchers
                  // do not pick up: fetch kPrefetchSteps steps ahead.
                  if (options.prefetchNextRow)
                    memref::PrefetchOp::create(
                        kbld, loc, p.w, ValueRange{row, aheadK},
                        /*isWrite=*/false, /*localityHint=*/2,
                        /*isDataCache=*/true);
                  Value w = vector::MaskedLoadOp::create(
                      kbld, loc, pairsType, p.w, ValueRange{row, kGlobal},
                      vector::CreateMaskOp::create(
                          kbld, loc,
                          VectorType::get({2 * s.lanes}, kbld.getI1Type()),
                          ValueRange{count}),
                      bf16Zeros);
                  square = vector::InsertOp::create(
                      kbld, loc,
                      vector::BitCastOp::create(kbld, loc, wordsType, w),
                      square, ArrayRef<int64_t>{t});
                }
                Value transposed = vector::TransposeOp::create(
                    kbld, loc, square, ArrayRef<int64_t>{1, 0});
                // Pair row kk/2 + t starts at (kk + 2t)·NR.
                for (int64_t t = 0; t < s.lanes; ++t) {
                  Value offset =
                      add(kbld,
                          add(kbld, panelBase,
                              mul(kbld, add(kbld, kk, index(kbld, 2 * t)),
                                  index(kbld, s.tileCols))),
                          index(kbld, 2 * v * s.lanes));
                  Value words = vector::ExtractOp::create(kbld, loc, transposed,
                                                          ArrayRef<int64_t>{t});
                  vector::StoreOp::create(
                      kbld, loc,
                      vector::BitCastOp::create(kbld, loc, pairsType, words),
                      buf.packedB, ValueRange{offset});
                }
                scf::YieldOp::create(kbld, loc);
              });
        }
        scf::YieldOp::create(pb, loc);
      });
}

/// Packs an N×K W: per panel vector, L rows × L k's are read (each row a
/// contiguous run), transposed in registers and stored as L packed k rows.
/// Rows past N read nothing (row index clamped, mask empty); k past the
/// block reads zeros and lands in B̃'s padding. LayerNorm's column sums
/// stay in registers over a panel's k loop.
void WPacker::packTransposedB(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                              Value cols, const KBlock &kb) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  int64_t numSums = numColumnSums();
  Value sumBufs[] = {buf.colSumW, buf.colSumBetaW};
  scf::ForOp::create(
      b, loc, zero, cols, index(b, s.tileCols), ValueRange{},
      [&](OpBuilder &pb, Location, Value jr, ValueRange) {
        Value panel =
            arith::DivUIOp::create(pb, loc, jr, index(pb, s.tileCols));
        for (int64_t v = 0; v < s.tileVectors; ++v) {
          Value colInPanel = index(pb, v * s.lanes);
          Value colInChunk = add(pb, jr, colInPanel);
          SmallVector<Value> sums;
          for (int64_t i = 0; i < numSums; ++i) {
            Value old =
                vector::LoadOp::create(pb, loc, vecType(pb.getF32Type()),
                                       sumBufs[i], ValueRange{colInChunk});
            sums.push_back(
                arith::SelectOp::create(pb, loc, kb.isFirst, zeros(pb), old));
          }
          Value lastRow = sub(pb, p.n, one);
          auto loop = scf::ForOp::create(
              pb, loc, zero, kb.length, index(pb, s.lanes), sums,
              [&](OpBuilder &kbld, Location, Value kk, ValueRange iter) {
                Value kGlobal = add(kbld, kb.start, kk);
                Value kLeft = sub(kbld, kb.length, kk);
                VectorType squareType =
                    VectorType::get({s.lanes, s.lanes}, kbld.getF32Type());
                Value square = arith::ConstantOp::create(
                    kbld, loc, DenseElementsAttr::get(squareType, 0.0f));
                for (int64_t t = 0; t < s.lanes; ++t) {
                  Value rowInChunk = add(kbld, colInChunk, index(kbld, t));
                  Value valid = ult(kbld, rowInChunk, cols);
                  Value count = arith::SelectOp::create(kbld, loc, valid, kLeft,
                                                        index(kbld, 0));
                  Value row =
                      minIndex(kbld, add(kbld, jc, rowInChunk), lastRow);
                  // As in packTransposedBPairs: each row is a short stream.
                  if (options.prefetchNextRow)
                    memref::PrefetchOp::create(
                        kbld, loc, p.w,
                        ValueRange{
                            row,
                            minIndex(kbld,
                                     add(kbld, kGlobal,
                                         index(kbld, kPrefetchSteps * s.lanes)),
                                     sub(kbld, p.k, one))},
                        /*isWrite=*/false, /*localityHint=*/2,
                        /*isDataCache=*/true);
                  Value rowVec =
                      loadAcc(kbld, p.w, {row, kGlobal}, mask(kbld, count));
                  square = vector::InsertOp::create(kbld, loc, rowVec, square,
                                                    ArrayRef<int64_t>{t});
                }
                Value transposed = vector::TransposeOp::create(
                    kbld, loc, square, ArrayRef<int64_t>{1, 0});
                SmallVector<Value> running(iter);
                for (int64_t t = 0; t < s.lanes; ++t) {
                  Value w = vector::ExtractOp::create(kbld, loc, transposed,
                                                      ArrayRef<int64_t>{t});
                  Value kt = add(kbld, kk, index(kbld, t));
                  Value offset = add(
                      kbld,
                      add(kbld,
                          mul(kbld, panel, index(kbld, s.blockK * s.tileCols)),
                          mul(kbld, kt, index(kbld, s.tileCols))),
                      colInPanel);
                  vector::StoreOp::create(kbld, loc, w, buf.packedB,
                                          ValueRange{offset});
                  if (!numSums)
                    continue;
                  // γ and β past the block must not be read: clamp; the
                  // column values there are zero anyway.
                  Value kGlobalT = add(
                      kbld, kb.start,
                      minIndex(kbld, kt, sub(kbld, kb.length, index(kbld, 1))));
                  Value g = gammaAt(kbld, kGlobalT);
                  running[0] = vector::FMAOp::create(kbld, loc, splat(kbld, g),
                                                     w, running[0]);
                  if (p.beta)
                    running[1] = vector::FMAOp::create(
                        kbld, loc,
                        splat(kbld, loadScalarAcc(kbld, p.beta, {kGlobalT})), w,
                        running[1]);
                }
                scf::YieldOp::create(kbld, loc, running);
              });
          for (int64_t i = 0; i < numSums; ++i)
            vector::StoreOp::create(pb, loc, loop.getResult(i), sumBufs[i],
                                    ValueRange{colInChunk});
        }
        scf::YieldOp::create(pb, loc);
      });
}
