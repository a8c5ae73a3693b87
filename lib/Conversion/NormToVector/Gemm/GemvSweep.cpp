//===- GemvSweep.cpp - the GEMV's row sweeps, W as K×N --------------------===//
//
// The GEMV's kernels for W as K×N (Gemv.cpp has the whole design): each k
// is a W row, one FMA per vector of columns for every row of A, and C is
// stored by the packed GEMM's epilogue. One row (decode): tasks of 4 KiB of
// each W row, whose sums wait in L1 while W's rows stream past. 2..16 rows:
// per task one group of 6 vectors of columns, and per K block of 32 rows the
// task's block of W copied (in f32, or as bf16 k-pairs for vdpbf16ps) to a
// contiguous buffer that every row tile reads from L1, the tiles'
// accumulators waiting in the task's scratch between K blocks.
//
//===----------------------------------------------------------------------===//

#include "Gemv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

//===----------------------------------------------------------------------===//
// 2..16 rows
//===----------------------------------------------------------------------===//

void GemvSweeps::gemvRowSweeps(OpBuilder &b, const ChunkBuffers &buf,
                               Value scratch, Value jc, Value cols) {
  int64_t group = gemvGroup(s.lanes);
  Value groupCols = index(b, group * s.lanes);
  // The K block of the chunk's W, copied (in f32) to a contiguous buffer,
  // [group][KC][group vectors]: in W its rows lie 4·N bytes apart, in the
  // same few L1 sets, and a group's share of a row (384 bytes) is too short
  // a run for the memory system; the copy reads whole chunk rows.
  // bf16 pairs (vdpbf16ps): [group][KC / 2][group vectors of k-pairs].
  int64_t blockSize = kSweepGroupsPerTask * kSweepBlockK * group * s.lanes;
  bool pairs = elementTypeOf(buf.packedA).isBF16();
  Value block = pairs
                    ? memref::AllocOp::create(
                          b, loc, MemRefType::get({blockSize}, b.getBF16Type()),
                          ValueRange{}, b.getI64IntegerAttr(64))
                          .getResult()
                    : allocF32(b, blockSize);
  // Per K block and group of column vectors every row tile reads the
  // group's part from L1. With a whole first tile, that tile copies the
  // group's part as it computes (the loads it needs anyway, and a store
  // each, hidden under its FMAs); fewer rows copy the chunk first. The last
  // group of the chunk is masked.
  auto rowTiles = [&](OpBuilder &tb, const KBlock &kb, Value jr,
                      Value firstRow) {
    forEachTileSize(tb, loc, firstRow, gemvARows(tb), {kGemvTileRows, 3, 2, 1},
                    [&](OpBuilder &rb, int64_t tileRows, Value r0) {
                      gemvRowTile(rb, buf, scratch, block, tileRows, r0, jc, jr,
                                  cols, kb, /*copiesW=*/false);
                    });
  };
  auto forEachGroup = [&](OpBuilder &gb,
                          function_ref<void(OpBuilder &, Value)> body) {
    scf::ForOp::create(gb, loc, index(gb, 0), cols, groupCols, ValueRange{},
                       [&](OpBuilder &nb, Location, Value jr, ValueRange) {
                         body(nb, jr);
                         scf::YieldOp::create(nb, loc);
                       });
  };
  forEachKBlock(b, kSweepBlockK, [&](OpBuilder &kbld, const KBlock &kb) {
    Value wholeFirstTile =
        arith::CmpIOp::create(kbld, loc, arith::CmpIPredicate::uge,
                              gemvARows(kbld), index(kbld, kGemvTileRows));
    scf::IfOp::create(
        kbld, loc, wholeFirstTile,
        [&](OpBuilder &tb, Location) {
          forEachGroup(tb, [&](OpBuilder &nb, Value jr) {
            gemvRowTile(nb, buf, scratch, block, kGemvTileRows, index(nb, 0),
                        jc, jr, cols, kb, /*copiesW=*/true);
            rowTiles(nb, kb, jr, index(nb, kGemvTileRows));
          });
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          if (pairs)
            gemvCopyWBlockPairs(eb, block, jc, cols, kb);
          else
            gemvCopyWBlock(eb, block, jc, cols, kb);
          forEachGroup(eb, [&](OpBuilder &nb, Value jr) {
            rowTiles(nb, kb, jr, index(nb, 0));
          });
          scf::YieldOp::create(eb, loc);
        });
  });
  memref::DeallocOp::create(b, loc, block);
}

Value GemvSweeps::loadWRowPair(OpBuilder &b, Value k0, Value col,
                               Value maskValue) {
  Type bf16 = b.getBF16Type();
  VectorType half = vecType(bf16);
  Value bf16Zeros = zerosOf(b, half);
  Value k1 = add(b, k0, index(b, 1));
  Value lastRow = sub(b, p.k, index(b, 1));
  Value lo = vector::MaskedLoadOp::create(
      b, loc, half, p.w, ValueRange{k0, col}, maskValue, bf16Zeros);
  Value hi = arith::SelectOp::create(
      b, loc, ult(b, k1, p.k),
      vector::MaskedLoadOp::create(b, loc, half, p.w,
                                   ValueRange{minIndex(b, k1, lastRow), col},
                                   maskValue, bf16Zeros),
      bf16Zeros);
  return vector::InterleaveOp::create(b, loc, lo, hi);
}

void GemvSweeps::gemvCopyWBlockPairs(OpBuilder &b, Value block, Value jc,
                                     Value cols, const KBlock &kb) {
  int64_t group = gemvGroup(s.lanes);
  int64_t groupCols = group * s.lanes;
  Value zero = index(b, 0);
  Value steps = arith::CeilDivUIOp::create(b, loc, kb.length, index(b, 2));
  scf::ForOp::create(
      b, loc, zero, steps, index(b, 1), ValueRange{},
      [&](OpBuilder &kbld, Location, Value kp, ValueRange) {
        Value k0 = add(kbld, kb.start, mul(kbld, kp, index(kbld, 2)));
        Value rowOffset = mul(kbld, kp, index(kbld, 2 * groupCols));
        scf::ForOp::create(
            kbld, loc, zero, cols, index(kbld, groupCols), ValueRange{},
            [&](OpBuilder &nb, Location, Value jr, ValueRange) {
              Value slot =
                  arith::DivUIOp::create(nb, loc, jr, index(nb, groupCols));
              Value offset =
                  add(nb, mul(nb, slot, index(nb, kSweepBlockK * groupCols)),
                      rowOffset);
              for (int64_t v = 0; v < group; ++v) {
                Value inChunk = add(nb, jr, index(nb, v * s.lanes));
                Value col = add(nb, jc, inChunk);
                Value left =
                    mask(nb, arith::MaxSIOp::create(
                                 nb, loc, sub(nb, cols, inChunk), zero));
                vector::StoreOp::create(
                    nb, loc, loadWRowPair(nb, k0, col, left), block,
                    ValueRange{add(nb, offset, index(nb, 2 * v * s.lanes))});
              }
              scf::YieldOp::create(nb, loc);
            });
        scf::YieldOp::create(kbld, loc);
      });
}

void GemvSweeps::gemvCopyWBlock(OpBuilder &b, Value block, Value jc, Value cols,
                                const KBlock &kb) {
  int64_t group = gemvGroup(s.lanes);
  int64_t groupCols = group * s.lanes;
  int64_t chunkCols = kSweepGroupsPerTask * groupCols;
  Value zero = index(b, 0);
  // At 16 rows each copied W vector feeds only 16 FMAs (8 cycles), so the
  // copy should cost about a load and a store per vector: every chunk but
  // the last is whole and copies with no masks and static offsets. (The
  // block's W lines were prefetched by the row tiles of the block before.)
  auto copyRows = [&](OpBuilder &cb, bool whole) {
    scf::ForOp::create(
        cb, loc, zero, kb.length, index(cb, 1), ValueRange{},
        [&](OpBuilder &kbld, Location, Value kk, ValueRange) {
          Value k = add(kbld, kb.start, kk);
          Value rowOffset = mul(kbld, kk, index(kbld, groupCols));
          auto copyGroup = [&](OpBuilder &nb, Value jr, Value offset) {
            for (int64_t v = 0; v < group; ++v) {
              Value inChunk = add(nb, jr, index(nb, v * s.lanes));
              Value left;
              if (!whole)
                left = mask(nb, arith::MaxSIOp::create(
                                    nb, loc, sub(nb, cols, inChunk), zero));
              vector::StoreOp::create(
                  nb, loc, loadAcc(nb, p.w, {k, add(nb, jc, inChunk)}, left),
                  block, ValueRange{add(nb, offset, index(nb, v * s.lanes))});
            }
          };
          if (whole) {
            for (int64_t g = 0; g < kSweepGroupsPerTask; ++g)
              copyGroup(kbld, index(kbld, g * groupCols),
                        add(kbld, rowOffset,
                            index(kbld, g * kSweepBlockK * groupCols)));
            scf::YieldOp::create(kbld, loc);
            return;
          }
          scf::ForOp::create(
              kbld, loc, zero, cols, index(kbld, groupCols), ValueRange{},
              [&](OpBuilder &nb, Location, Value jr, ValueRange) {
                Value slot =
                    arith::DivUIOp::create(nb, loc, jr, index(nb, groupCols));
                copyGroup(
                    nb, jr,
                    add(nb, mul(nb, slot, index(nb, kSweepBlockK * groupCols)),
                        rowOffset));
                scf::YieldOp::create(nb, loc);
              });
          scf::YieldOp::create(kbld, loc);
        });
  };
  ifElse(
      b,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cols,
                            index(b, chunkCols)),
      [&](OpBuilder &tb) { copyRows(tb, /*whole=*/true); },
      [&](OpBuilder &eb) { copyRows(eb, /*whole=*/false); });
}

void GemvSweeps::prefetchNextSweepBlock(OpBuilder &b, Value jc, Value jr,
                                        Value cols, const KBlock &kb,
                                        Value kk) {
  int64_t group = gemvGroup(s.lanes);
  int64_t chunkCols = kSweepGroupsPerTask * group * s.lanes;
  // Whole chunks only (N ≥ chunkCols there), so that one clamp keeps every
  // line in W; the short last chunk goes without.
  Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cols,
                                      index(b, chunkCols));
  scf::IfOp::create(b, loc, whole, [&](OpBuilder &tb, Location) {
    // Row kk of the next K block, or past K the first block of the next
    // chunk's columns.
    Value next = add(tb, add(tb, kb.start, kk), index(tb, kSweepBlockK));
    Value past =
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge, next, p.k);
    Value row = minIndex(
        tb, arith::SelectOp::create(tb, loc, past, sub(tb, next, p.k), next),
        sub(tb, p.k, index(tb, 1)));
    Value firstCol = minIndex(
        tb,
        add(tb, add(tb, jc, jr),
            arith::SelectOp::create(tb, loc, past, cols, index(tb, 0))),
        sub(tb, p.n, index(tb, group * s.lanes)));
    // One prefetch per 64-byte line: 6 for f32, 3 for 16-bit W.
    int64_t bytes = elementTypeOf(p.w).getIntOrFloatBitWidth() / 8;
    int64_t vectorsPerLine = std::max<int64_t>(1, 64 / (s.lanes * bytes));
    for (int64_t v = 0; v < group; v += vectorsPerLine)
      memref::PrefetchOp::create(
          tb, loc, p.w,
          ValueRange{row, add(tb, firstCol, index(tb, v * s.lanes))},
          /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
    scf::YieldOp::create(tb, loc);
  });
}

void GemvSweeps::gemvRowTile(OpBuilder &b, const ChunkBuffers &buf,
                             Value scratch, Value block, int64_t tileRows,
                             Value firstRow, Value jc, Value jr, Value cols,
                             const KBlock &kb, bool copiesW) {
  int64_t tileVectors = gemvGroup(s.lanes);
  VectorType type = vecType(b.getF32Type());
  Value slot =
      arith::DivUIOp::create(b, loc, jr, index(b, tileVectors * s.lanes));
  Value blockBase =
      mul(b, slot, index(b, kSweepBlockK * tileVectors * s.lanes));
  SmallVector<Value> aBase;
  for (int64_t i = 0; i < tileRows; ++i)
    aBase.push_back(gemvABase(b, kb, add(b, firstRow, index(b, i))));

  // Copying W: the group's columns of each W row (masked past the chunk's
  // columns: zeros in the block).
  SmallVector<Value> wMasks;
  if (copiesW)
    for (int64_t v = 0; v < tileVectors; ++v)
      wMasks.push_back(
          mask(b, arith::MaxSIOp::create(
                      b, loc, sub(b, cols, add(b, jr, index(b, v * s.lanes))),
                      index(b, 0))));

  SmallVector<Value> init = gemvLoadAccumulators(b, scratch, slot, kb, firstRow,
                                                 tileRows, tileVectors);
  // The next K block's W lines into L2, spread over the block's compute.
  // Every row tile issues them: measured faster than the first tile alone
  // (whose burst of prefetches is partly dropped) and than one burst in the
  // copy; into L1 they evict the block in use.
  auto prefetch = [&](OpBuilder &nb, Value kk) {
    if (options.prefetchNextRow)
      prefetchNextSweepBlock(nb, jc, jr, cols, kb, kk);
  };
  Value wCol = add(b, jc, jr);
  scf::ForOp sweep;
  if (elementTypeOf(block).isBF16()) {
    // bf16 pairs (vdpbf16ps): per step two W rows k, k + 1, interleaved into
    // k-pairs (the partner of an odd K's last row is zero, as is Ã's
    // padding), and Ã's pair (x_k, x_k+1)·γ' broadcast as one 32-bit word.
    VectorType pairType = VectorType::get({2 * s.lanes}, b.getBF16Type());
    Value steps = arith::CeilDivUIOp::create(b, loc, kb.length, index(b, 2));
    sweep = scf::ForOp::create(
        b, loc, index(b, 0), steps, index(b, 1), init,
        [&](OpBuilder &nb, Location, Value kp, ValueRange iter) {
          SmallVector<Value> accs(iter);
          Value kk = mul(nb, kp, index(nb, 2));
          prefetch(nb, kk);
          prefetch(nb, add(nb, kk, index(nb, 1)));
          Value offset = add(nb, blockBase,
                             mul(nb, kp, index(nb, 2 * tileVectors * s.lanes)));
          Value k0 = add(nb, kb.start, kk);
          SmallVector<Value> w;
          for (int64_t v = 0; v < tileVectors; ++v) {
            Value blockIndex = add(nb, offset, index(nb, 2 * v * s.lanes));
            if (!copiesW) {
              w.push_back(vector::LoadOp::create(nb, loc, pairType, block,
                                                 ValueRange{blockIndex}));
              continue;
            }
            w.push_back(loadWRowPair(
                nb, k0, add(nb, wCol, index(nb, v * s.lanes)), wMasks[v]));
            vector::StoreOp::create(nb, loc, w.back(), block,
                                    ValueRange{blockIndex});
          }
          for (int64_t i = 0; i < tileRows; ++i) {
            Value a = broadcastAPair(nb, buf.packedA, add(nb, aBase[i], kk));
            for (int64_t v = 0; v < tileVectors; ++v) {
              Value &acc = accs[i * tileVectors + v];
              acc = x86vector::DotBF16Op::create(nb, loc, acc.getType(), acc, a,
                                                 w[v]);
            }
          }
          scf::YieldOp::create(nb, loc, accs);
        });
  } else {
    sweep = scf::ForOp::create(
        b, loc, index(b, 0), kb.length, index(b, 1), init,
        [&](OpBuilder &nb, Location, Value kk, ValueRange iter) {
          SmallVector<Value> accs(iter);
          Value offset =
              add(nb, blockBase, mul(nb, kk, index(nb, tileVectors * s.lanes)));
          prefetch(nb, kk);
          SmallVector<Value> w;
          for (int64_t v = 0; v < tileVectors; ++v) {
            Value blockIndex = add(nb, offset, index(nb, v * s.lanes));
            if (!copiesW) {
              w.push_back(vector::LoadOp::create(nb, loc, type, block,
                                                 ValueRange{blockIndex}));
              continue;
            }
            w.push_back(loadAcc(
                nb, p.w,
                {add(nb, kb.start, kk), add(nb, wCol, index(nb, v * s.lanes))},
                wMasks[v]));
            vector::StoreOp::create(nb, loc, w.back(), block,
                                    ValueRange{blockIndex});
          }
          for (int64_t i = 0; i < tileRows; ++i) {
            Value a = splat(
                nb, memref::LoadOp::create(nb, loc, buf.packedA,
                                           ValueRange{add(nb, aBase[i], kk)}));
            for (int64_t v = 0; v < tileVectors; ++v) {
              Value &acc = accs[i * tileVectors + v];
              acc = vector::FMAOp::create(nb, loc, a, w[v], acc);
            }
          }
          scf::YieldOp::create(nb, loc, accs);
        });
  }

  ValueRange accs = sweep.getResults();
  scf::IfOp::create(
      b, loc, kb.isLast,
      [&](OpBuilder &tb, Location) {
        // LayerNorm's c and Σβ·W first (Ã rows 0 and 1, in the first tile):
        // columnConstants reads them for the rows of A.
        int64_t sumRows = numColumnSums();
        if (sumRows)
          storeColumnSumRows(tb, buf, firstRow, tileRows, jr,
                             SmallVector<Value>(accs));
        GemmEpilogue epilogue(*this);
        SmallVector<Value> masks, constant, colSums;
        epilogue.columnConstants(tb, buf, jc, jr, cols, tileVectors, masks,
                                 constant, colSums);
        Value isTrue = arith::ConstantIntOp::create(tb, loc, tb.getI1Type(), 1);
        KBlock whole{index(tb, 0), p.k, isTrue, isTrue};
        for (int64_t i = 0; i < tileRows; ++i) {
          Value aRow = add(tb, firstRow, index(tb, i));
          auto store = [&](OpBuilder &sb, Value row) {
            epilogue.storeTileRow(
                sb, buf, p.c, row, jc, jr, masks, constant, colSums,
                SmallVector<Value>(accs.slice(i * tileVectors, tileVectors)),
                whole);
          };
          if (!sumRows) {
            store(tb, aRow);
            continue;
          }
          scf::IfOp::create(tb, loc,
                            arith::CmpIOp::create(tb, loc,
                                                  arith::CmpIPredicate::uge,
                                                  aRow, index(tb, sumRows)),
                            [&](OpBuilder &sb, Location) {
                              store(sb, sub(sb, aRow, index(sb, sumRows)));
                              scf::YieldOp::create(sb, loc);
                            });
        }
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        gemvStoreAccumulators(eb, scratch, slot, firstRow, tileRows,
                              SmallVector<Value>(accs));
        scf::YieldOp::create(eb, loc);
      });
}

void GemvSweeps::storeColumnSumRows(OpBuilder &b, const ChunkBuffers &buf,
                                    Value firstRow, int64_t tileRows, Value col,
                                    ArrayRef<Value> accs) {
  int64_t numVectors = accs.size() / tileRows;
  Value sums[] = {buf.colSumW, buf.colSumBetaW};
  for (int64_t i = 0; i < tileRows; ++i)
    for (int64_t sumRow = 0; sumRow < numColumnSums(); ++sumRow) {
      Value isSumRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             add(b, firstRow, index(b, i)),
                                             index(b, sumRow));
      scf::IfOp::create(b, loc, isSumRow, [&](OpBuilder &tb, Location) {
        for (int64_t v = 0; v < numVectors; ++v)
          vector::StoreOp::create(
              tb, loc, accs[i * numVectors + v], sums[sumRow],
              ValueRange{add(tb, col, index(tb, v * s.lanes))});
        scf::YieldOp::create(tb, loc);
      });
    }
}

//===----------------------------------------------------------------------===//
// One row (decode)
//===----------------------------------------------------------------------===//

void GemvSweeps::gemvDecodeSweeps(OpBuilder &b, const ChunkBuffers &buf,
                                  Value jc, Value cols) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value lanes = index(b, s.lanes);
  VectorType type = vecType(b.getF32Type());
  // The chunk's sums, one f32 per column (4 or 8 KiB), stay in L1 while
  // W's rows stream past; padded to whole epilogue groups and zeroed.
  int64_t epilogueVectors = s.lanes >= 16 ? 16 : 8;
  int64_t sumsSize = roundUp(decodeSweepCols(), epilogueVectors * s.lanes);
  Value sums = allocF32(b, sumsSize);
  scf::ForOp::create(b, loc, zero, index(b, sumsSize), lanes, ValueRange{},
                     [&](OpBuilder &nb, Location, Value i, ValueRange) {
                       vector::StoreOp::create(nb, loc, zeros(nb), sums,
                                               ValueRange{i});
                       scf::YieldOp::create(nb, loc);
                     });

  // `rows` rows of W from k0, each read as one run of the chunk's columns
  // (4 KiB, which the hardware prefetchers stream with no help: see
  // kDecodeSweepBytes); per vector of columns the sum is loaded and stored
  // once for all rows.
  auto sweepRows = [&](OpBuilder &rb, Value k0, int64_t rows) {
    SmallVector<Value> a, k;
    for (int64_t g = 0; g < rows; ++g) {
      k.push_back(add(rb, k0, index(rb, g)));
      a.push_back(splat(
          rb, memref::LoadOp::create(rb, loc, buf.packedA, ValueRange{k[g]})));
    }
    auto step = [&](OpBuilder &nb, Value jr, Value maskValue,
                    SmallVector<Value> &) {
      Value col = add(nb, jc, jr);
      Value sum = vector::LoadOp::create(nb, loc, type, sums, ValueRange{jr});
      for (int64_t g = 0; g < rows; ++g)
        sum = vector::FMAOp::create(
            nb, loc, a[g], loadAcc(nb, p.w, {k[g], col}, maskValue), sum);
      vector::StoreOp::create(nb, loc, sum, sums, ValueRange{jr});
    };
    vectorSteps(rb, zero, cols, ValueRange{}, step, nullptr);
  };
  Value groupRows = index(b, kDecodeSweepRows);
  Value grouped =
      mul(b, arith::DivUIOp::create(b, loc, p.k, groupRows), groupRows);
  scf::ForOp::create(b, loc, zero, grouped, groupRows, ValueRange{},
                     [&](OpBuilder &nb, Location, Value k0, ValueRange) {
                       sweepRows(nb, k0, kDecodeSweepRows);
                       scf::YieldOp::create(nb, loc);
                     });
  scf::ForOp::create(b, loc, grouped, p.k, one, ValueRange{},
                     [&](OpBuilder &nb, Location, Value k0, ValueRange) {
                       sweepRows(nb, k0, 1);
                       scf::YieldOp::create(nb, loc);
                     });

  // The GEMM's epilogue, per group of vectors of columns.
  Value isTrue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  scf::ForOp::create(
      b, loc, zero, cols, index(b, epilogueVectors * s.lanes), ValueRange{},
      [&](OpBuilder &nb, Location, Value jr, ValueRange) {
        GemmEpilogue epilogue(*this);
        SmallVector<Value> masks, constant, colSums, accs;
        epilogue.columnConstants(nb, buf, jc, jr, cols, epilogueVectors, masks,
                                 constant, colSums);
        for (int64_t v = 0; v < epilogueVectors; ++v)
          accs.push_back(vector::LoadOp::create(
              nb, loc, type, sums,
              ValueRange{add(nb, jr, index(nb, v * s.lanes))}));
        KBlock whole{zero, p.k, isTrue, isTrue};
        epilogue.storeTileRow(nb, buf, p.c, zero, jc, jr, masks, constant,
                              colSums, accs, whole);
        scf::YieldOp::create(nb, loc);
      });
  memref::DeallocOp::create(b, loc, sums);
}
