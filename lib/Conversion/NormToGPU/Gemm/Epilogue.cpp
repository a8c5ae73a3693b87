//===- Epilogue.cpp - the epilogues of the GPU GEMMs ----------------------===//
//
// The epilogue of the cp.async / guarded-load GEMM kernel (FusedGemm.cpp):
// the two threads of a row combine their sums (shuffle xor 1) into r (and
// LayerNorm's r·(μ − p)) in shared memory, beside the column vectors c and
// Σβ·W + bias, and C = r·acc − r·(μ − p)·c + (Σβ·W + bias) in f32, rounded
// once (RMSNorm: r·acc + bias; None: acc + bias + residual), is stored from
// the accumulators of either main loop.
//
// Also the pieces every GEMM kernel's epilogue shares: the row scale r from
// the row's sums (emitRowScale), so that the unsplit kernel, the split-K
// reduction and the warpgroup kernel compute r the same way, the store of
// the saved statistics (emitStoreRowStatistics: rstd is r itself, and
// LayerNorm's mean the pivot plus μ − p, as the CPU kernel saves them), and
// the store of C with bias and residual read from global memory
// (emitStoreOutput).
//
//===----------------------------------------------------------------------===//

#include "GemmInternals.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

//===----------------------------------------------------------------------===//
// The fused kernel's epilogue
//===----------------------------------------------------------------------===//

void GemmEpilogue::finishStatistics(OpBuilder &b, const SharedTiles &s,
                                    ValueRange stats, ValueRange sums,
                                    Value pivot) {
  if (isNorm()) {
    Value s1 = sumOverRowPair(b, stats[0]);
    Value s2 = sumOverRowPair(b, stats[1]);
    Value meanShift;
    Value r = emitRowScale(b, loc, p, s1, s2, meanShift);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        remC(b, tid, 2), index(b, 0));
    scf::IfOp::create(b, loc, first, [&](OpBuilder &tb, Location) {
      Value row = divC(tb, tid, 2);
      memref::StoreOp::create(tb, loc, r, s.rowScale, ValueRange{row});
      if (isLayerNorm())
        memref::StoreOp::create(tb, loc,
                                arith::MulFOp::create(tb, loc, r, meanShift),
                                s.rowShift, ValueRange{row});
      if (savesStatistics(p))
        emitStoreRowStatistics(
            tb, loc, p, writesRows, add(tb, m0, row),
            isLayerNorm() && p.mean
                ? arith::AddFOp::create(tb, loc, pivot, meanShift).getResult()
                : Value(),
            r);
      scf::YieldOp::create(tb, loc);
    });
  }
  if (normalizesA() && savesStatistics(p)) {
    // computeRowNorm's statistics, still in shared memory: saved here, after
    // the K loop, rather than beside that pass, where the loop's addresses
    // are live (that spilled at sm_80).
    Value row = divC(b, tid, 2);
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       remC(b, tid, 2), index(b, 0));
    scf::IfOp::create(
        b, loc, andI(b, even, writesRows), [&](OpBuilder &tb, Location) {
          Value mean;
          if (s.rowShift)
            mean = arith::AddFOp::create(
                tb, loc,
                memref::LoadOp::create(tb, loc, s.rowShift, ValueRange{row}),
                memref::LoadOp::create(tb, loc, s.rowCorrection,
                                       ValueRange{row}));
          emitStoreRowStatistics(
              tb, loc, p, writesRows, add(tb, m0, row), mean,
              memref::LoadOp::create(tb, loc, s.rowScale, ValueRange{row}));
          scf::YieldOp::create(tb, loc);
        });
  }
  if (s.colC)
    memref::StoreOp::create(b, loc, sums[0], s.colC, ValueRange{tid});
  if (s.colB) {
    Value bw = isLayerNorm() ? sums[1] : f32(b, 0.0);
    if (p.matmulBias) {
      Value gn = add(b, n0, tid);
      auto bias = scf::IfOp::create(
          b, loc, slt(b, gn, p.n),
          [&](OpBuilder &tb, Location) {
            scf::YieldOp::create(
                tb, loc,
                toF32(tb, memref::LoadOp::create(tb, loc, p.matmulBias,
                                                 ValueRange{gn})));
          },
          [&](OpBuilder &eb, Location) {
            scf::YieldOp::create(eb, loc, f32(eb, 0.0));
          });
      bw = arith::AddFOp::create(b, loc, bw, bias.getResult(0));
    }
    memref::StoreOp::create(b, loc, bw, s.colB, ValueRange{tid});
  }
  gpu::BarrierOp::create(b, loc);
}

/// One element of C from its accumulator `acc` (f32) at block column
/// `colL`, in the element type: r·acc − r·(μ − p)·c + (Σβ·W + bias)
/// (+ residual), rounded once. `scale`, `shift` and `residual` may be null.
Value GemmEpilogue::outputValue(OpBuilder &b, const SharedTiles &s, Value acc,
                                Value colL, Value scale, Value shift,
                                Value residual) {
  Value v = acc;
  if (scale)
    v = arith::MulFOp::create(b, loc, scale, v);
  if (shift)
    v = arith::SubFOp::create(
        b, loc, v,
        arith::MulFOp::create(
            b, loc, shift,
            memref::LoadOp::create(b, loc, s.colC, ValueRange{colL})));
  if (s.colB)
    v = arith::AddFOp::create(
        b, loc, v, memref::LoadOp::create(b, loc, s.colB, ValueRange{colL}));
  if (residual)
    v = arith::AddFOp::create(b, loc, v, residual);
  return v.getType() == p.outputType()
             ? v
             : arith::TruncFOp::create(b, loc, p.outputType(), v).getResult();
}

void GemmEpilogue::storeOutput(OpBuilder &b, const SharedTiles &s,
                               ValueRange accs) {
  if (simt())
    storeSimt(b, s, accs);
  else
    storeFragments(b, s, accs);
}

/// C[m, n] from the SIMT accumulators (forEachAccumulator's mapping): a
/// half warp stores 16 consecutive columns of a row; every element is
/// guarded (M, N any).
void GemmEpilogue::storeSimt(OpBuilder &b, const SharedTiles &s,
                             ValueRange accs) {
  forEachAccumulator(
      b, accs, [&](OpBuilder &nb, Value rowL, Value colL, Value acc) {
        Value gm = add(nb, m0, rowL), gn = add(nb, n0, colL);
        scf::IfOp::create(
            nb, loc, andI(nb, slt(nb, gm, p.m), slt(nb, gn, p.n)),
            [&](OpBuilder &tb, Location) {
              Value scale, shift, residual;
              if (isNorm())
                scale = memref::LoadOp::create(tb, loc, s.rowScale,
                                               ValueRange{rowL});
              if (isLayerNorm())
                shift = memref::LoadOp::create(tb, loc, s.rowShift,
                                               ValueRange{rowL});
              if (p.residual)
                residual =
                    toF32(tb, memref::LoadOp::create(tb, loc, p.residual,
                                                     ValueRange{gm, gn}));
              memref::StoreOp::create(
                  tb, loc,
                  outputValue(tb, s, acc, colL, scale, shift, residual), p.c,
                  ValueRange{gm, gn});
              scf::YieldOp::create(tb, loc);
            });
      });
}

/// C[m, n] from the accumulator fragments: element (i, j) of tile (mt, nt)
/// is row lane / 4 + 8i, column (lane % 4)·2 + j of the m16n8 tile.
void GemmEpilogue::storeFragments(OpBuilder &b, const SharedTiles &s,
                                  ValueRange accs) {
  MmaSyncLoop fragments(*this);
  for (int64_t mt = 0; mt < kMTiles; ++mt)
    for (int64_t i = 0; i < 2; ++i) {
      Value rowL = fragments.fragmentRow(b, mt, i);
      Value gm = add(b, m0, rowL);
      Value rowOK = slt(b, gm, p.m);
      Value scale, shift;
      if (isNorm())
        scale = memref::LoadOp::create(b, loc, s.rowScale, ValueRange{rowL});
      if (isLayerNorm())
        shift = memref::LoadOp::create(b, loc, s.rowShift, ValueRange{rowL});
      for (int64_t nt = 0; nt < kNTiles; ++nt) {
        Value colL = fragments.fragmentColumn(b, nt);
        Value gn = add(b, n0, colL);
        Value acc = accs[mt * kNTiles + nt];
        auto value = [&](OpBuilder &nb, int64_t j, Value residual) {
          Value v =
              vector::ExtractOp::create(nb, loc, acc, ArrayRef<int64_t>{i, j});
          return outputValue(nb, s, v, addC(nb, colL, j), scale, shift,
                             residual);
        };
        if (async) {
          // N is a multiple of 8: the pair is inside C when its first
          // element is; one 4-byte store (8 bytes for an f32 C).
          Value inside = andI(b, rowOK, slt(b, gn, p.n));
          Type outType = p.outputType();
          auto pairAlign =
              llvm::MaybeAlign(outType.getIntOrFloatBitWidth() / 4);
          scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
            auto pairType = VectorType::get({2}, outType);
            SmallVector<Value> residual(2);
            if (p.residual) {
              Value r = vector::LoadOp::create(
                  tb, loc, pairType, p.residual, ValueRange{gm, gn},
                  /*nontemporal=*/false, pairAlign);
              for (int64_t j = 0; j < 2; ++j)
                residual[j] =
                    toF32(tb, vector::ExtractOp::create(tb, loc, r, j));
            }
            Value pair = vector::FromElementsOp::create(
                tb, loc, pairType,
                ValueRange{value(tb, 0, residual[0]),
                           value(tb, 1, residual[1])});
            vector::StoreOp::create(tb, loc, pair, p.c, ValueRange{gm, gn},
                                    /*nontemporal=*/false, pairAlign);
            scf::YieldOp::create(tb, loc);
          });
        } else {
          for (int64_t j = 0; j < 2; ++j) {
            Value gnj = addC(b, gn, j);
            Value inside = andI(b, rowOK, slt(b, gnj, p.n));
            scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
              Value residual;
              if (p.residual)
                residual =
                    toF32(tb, memref::LoadOp::create(tb, loc, p.residual,
                                                     ValueRange{gm, gnj}));
              memref::StoreOp::create(tb, loc, value(tb, j, residual), p.c,
                                      ValueRange{gm, gnj});
              scf::YieldOp::create(tb, loc);
            });
          }
        }
      }
    }
}

//===----------------------------------------------------------------------===//
// Shared by every GEMM kernel
//===----------------------------------------------------------------------===//

Value mlir::norm::gpugemm::emitRowScale(OpBuilder &b, Location loc,
                                        const GPUGemmProblem &p, Value first,
                                        Value second, Value &meanShift) {
  auto f32 = [&](double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  // An empty row (K = 0, possible only with a dynamic K) has Σ = 0: divide
  // by max(K, 1), so mean = mean square = 0 and r (1/√ε) is finite; the
  // GEMM's sum is empty as well and C = bias, as the op (and the reference)
  // define it, where 0/0 made every element NaN.
  Value kF32 = arith::UIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::MaxUIOp::create(b, loc, p.k,
                                 arith::ConstantIndexOp::create(b, loc, 1))));
  Value spread;
  if (p.prologue == GemmPrologue::LayerNorm) {
    meanShift = arith::DivFOp::create(b, loc, first, kF32); // μ − p
    Value var = arith::SubFOp::create(
        b, loc, arith::DivFOp::create(b, loc, second, kF32),
        arith::MulFOp::create(b, loc, meanShift, meanShift));
    spread = arith::MaximumFOp::create(b, loc, var, f32(0.0));
  } else {
    spread = arith::DivFOp::create(
        b, loc, arith::AddFOp::create(b, loc, first, second), kF32);
  }
  return createReciprocalStd(b, loc, spread, p.epsMode, p.epsilon);
}

void mlir::norm::gpugemm::emitStoreRowStatistics(OpBuilder &b, Location loc,
                                                 const GPUGemmProblem &p,
                                                 Value writes, Value row,
                                                 Value mean, Value rstd) {
  if (!(p.mean && mean) && !p.rstd)
    return; // (RMSNorm never has a mean)
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, p.m);
  scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, writes, inside),
      [&](OpBuilder &tb, Location) {
        for (auto [value, out] :
             {std::pair<Value, Value>{mean, p.mean}, {rstd, p.rstd}})
          if (value && out)
            memref::StoreOp::create(tb, loc, value, out, ValueRange{row});
        scf::YieldOp::create(tb, loc);
      });
}

void mlir::norm::gpugemm::emitStoreOutput(OpBuilder &b, Location loc,
                                          const GPUGemmProblem &p, Value v,
                                          Value row, Value col) {
  // A vector v: elements at col, col + 1, ..., each buffer read and written
  // as one vector aligned to its own size (the caller's promise).
  auto pair = dyn_cast<VectorType>(v.getType());
  auto like = [&](Type elem) -> Type {
    return pair ? VectorType::get(pair.getShape(), elem) : elem;
  };
  auto alignment = [&](Type elem) {
    return llvm::MaybeAlign(pair.getNumElements() *
                            elem.getIntOrFloatBitWidth() / 8);
  };
  auto load = [&](Value mem, ValueRange indices) -> Value {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    Value x =
        pair ? vector::LoadOp::create(b, loc, like(elem), mem, indices,
                                      /*nontemporal=*/false, alignment(elem))
                   .getResult()
             : memref::LoadOp::create(b, loc, mem, indices).getResult();
    return elem.isF32() ? x
                        : arith::ExtFOp::create(b, loc, like(b.getF32Type()), x)
                              .getResult();
  };
  if (p.matmulBias)
    v = arith::AddFOp::create(b, loc, v, load(p.matmulBias, ValueRange{col}));
  if (p.residual)
    v = arith::AddFOp::create(b, loc, v,
                              load(p.residual, ValueRange{row, col}));
  Type out = p.outputType();
  if (!out.isF32())
    v = arith::TruncFOp::create(b, loc, like(out), v);
  if (pair)
    vector::StoreOp::create(b, loc, v, p.c, ValueRange{row, col},
                            /*nontemporal=*/false, alignment(out));
  else
    memref::StoreOp::create(b, loc, v, p.c, ValueRange{row, col});
}
