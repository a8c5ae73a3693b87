//===- SplitK.cpp - split-K: the slices' partials and their reduction -----===//
//
// A split-K fused GEMM (GPUGemm.h, GPUSplitK) runs the fused kernel
// (FusedGemm.cpp) once per K slice (gridDim.z); each slice writes, instead
// of C, f32 partial accumulators [S][M][N], row sums [S][M][2] (norm
// prologues) and LayerNorm's column sums [S][N][2] (SplitKPartials).
//
// The second kernel gives each element of C one thread (256 a block): it
// sums the slices in order (the accumulator loads of a warp are 32
// consecutive floats of a row), computes the row's scale with emitRowScale,
// as the unsplit epilogue does, and writes
//   C = r·acc − r·(μ − p)·c + Σβ·W + bias (+ residual), rounded once.
// The thread of column 0 also saves its row's statistics (rstd = r, mean =
// p + (μ − p), the pivot p stored beside the row sums): they are sums over
// all of K only here, after the slices.
// Each thread recomputes its row's r (S loads and one square root): cheap
// next to the GEMM, and no second pass or shared memory.
//
//===----------------------------------------------------------------------===//

#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

//===----------------------------------------------------------------------===//
// The slices' partials (the first kernel's epilogue)
//===----------------------------------------------------------------------===//

void mlir::norm::gpugemm::emitStoreSplitRowSums(OpBuilder &b, Location loc,
                                                const GPUGemmProblem &p,
                                                const GPUSplitK &split,
                                                Value slice, Value writes,
                                                Value row, Value first,
                                                Value second, Value pivot) {
  auto index = [&](OpBuilder &nb, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, loc, v);
  };
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, p.m);
  scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, writes, inside),
      [&](OpBuilder &tb, Location) {
        memref::StoreOp::create(tb, loc, first, split.rowSums,
                                ValueRange{slice, row, index(tb, 0)});
        memref::StoreOp::create(tb, loc, second, split.rowSums,
                                ValueRange{slice, row, index(tb, 1)});
        if (p.prologue == GemmPrologue::LayerNorm && p.mean)
          memref::StoreOp::create(tb, loc, pivot, split.rowSums,
                                  ValueRange{slice, row, index(tb, 2)});
        scf::YieldOp::create(tb, loc);
      });
}

void mlir::norm::gpugemm::emitStoreSplitColumnSums(
    OpBuilder &b, Location loc, const GPUGemmProblem &p, const GPUSplitK &split,
    Value slice, Value writes, Value col, Value c, Value bw) {
  auto index = [&](OpBuilder &nb, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, loc, v);
  };
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, col, p.n);
  scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, writes, inside),
      [&](OpBuilder &tb, Location) {
        memref::StoreOp::create(tb, loc, c, split.columnSums,
                                ValueRange{slice, col, index(tb, 0)});
        memref::StoreOp::create(tb, loc, bw, split.columnSums,
                                ValueRange{slice, col, index(tb, 1)});
        scf::YieldOp::create(tb, loc);
      });
}

void mlir::norm::gpugemm::emitStoreSplitAccumulator(OpBuilder &b, Location loc,
                                                    const GPUSplitK &split,
                                                    Value slice, Value row,
                                                    Value col, Value v) {
  if (auto vector = dyn_cast<VectorType>(v.getType())) {
    vector::StoreOp::create(b, loc, v, split.accumulators,
                            ValueRange{slice, row, col}, /*nontemporal=*/false,
                            llvm::MaybeAlign(4 * vector.getNumElements()));
    return;
  }
  memref::StoreOp::create(b, loc, v, split.accumulators,
                          ValueRange{slice, row, col});
}

/// The slice's partials, raw (no scale, no bias). Row sums come
/// from the blocks of the first column tile and column sums from those of
/// the first row tile (every block of a row band sees the same A, of a
/// column band the same W); the two threads of a row combine theirs first.
void SplitKPartials::store(OpBuilder &b, ValueRange stats, ValueRange sums,
                           ValueRange accs, Value pivot) {
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 index(b, 0));
  };
  if (isNorm()) {
    Value s1 = sumOverRowPair(b, stats[0]);
    Value s2 = sumOverRowPair(b, stats[1]);
    emitStoreSplitRowSums(b, loc, p, *split, slice,
                          andI(b, isZero(remC(b, tid, 2)), isZero(gpuBlockX)),
                          add(b, m0, divC(b, tid, 2)), s1, s2, pivot);
  }
  if (isLayerNorm())
    emitStoreSplitColumnSums(b, loc, p, *split, slice, isZero(gpuBlockY),
                             add(b, n0, tid), sums[0], sums[1]);
  forEachAccumulator(
      b, accs, [&](OpBuilder &nb, Value rowL, Value colL, Value v) {
        Value gm = add(nb, m0, rowL), gn = add(nb, n0, colL);
        scf::IfOp::create(nb, loc, andI(nb, slt(nb, gm, p.m), slt(nb, gn, p.n)),
                          [&](OpBuilder &tb, Location) {
                            emitStoreSplitAccumulator(tb, loc, *split, slice,
                                                      gm, gn, v);
                            scf::YieldOp::create(tb, loc);
                          });
      });
}

//===----------------------------------------------------------------------===//
// The reduction (the second kernel)
//===----------------------------------------------------------------------===//

namespace {
constexpr int64_t kReduceThreads = 256;
} // namespace

void mlir::norm::emitGPUSplitKReduce(OpBuilder &b, Location loc,
                                     const GPUGemmProblem &p,
                                     const GPUSplitK &split) {
  auto index = [&](OpBuilder &nb, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, loc, v);
  };
  Value one = index(b, 1);
  Value elements = arith::MulIOp::create(b, loc, p.m, p.n);
  Value grid =
      arith::CeilDivUIOp::create(b, loc, elements, index(b, kReduceThreads));
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one,
                                      index(b, kReduceThreads), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());

  Value element = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            index(b, kReduceThreads)),
      launch.getThreadIds().x);
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       element, elements);
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
    auto zeroF32 = [&]() -> Value {
      return arith::ConstantOp::create(tb, loc, tb.getF32FloatAttr(0.0));
    };
    Value row = arith::DivUIOp::create(tb, loc, element, p.n);
    Value col = arith::RemUIOp::create(tb, loc, element, p.n);
    bool isNorm = p.prologue != GemmPrologue::None;
    bool isLayerNorm = p.prologue == GemmPrologue::LayerNorm;

    // Σ over the slices, in slice order: acc, the row's two sums and
    // (LayerNorm) the column's two sums.
    SmallVector<Value> init(5, zeroF32());
    auto loop = scf::ForOp::create(
        tb, loc, index(tb, 0), split.splits, index(tb, 1), init,
        [&](OpBuilder &lb, Location, Value z, ValueRange sums) {
          SmallVector<Value> next(sums.begin(), sums.end());
          auto accumulate = [&](unsigned i, Value mem, ValueRange idx) {
            next[i] = arith::AddFOp::create(
                lb, loc, next[i], memref::LoadOp::create(lb, loc, mem, idx));
          };
          accumulate(0, split.accumulators, {z, row, col});
          if (isNorm) {
            accumulate(1, split.rowSums, {z, row, index(lb, 0)});
            accumulate(2, split.rowSums, {z, row, index(lb, 1)});
          }
          if (isLayerNorm) {
            accumulate(3, split.columnSums, {z, col, index(lb, 0)});
            accumulate(4, split.columnSums, {z, col, index(lb, 1)});
          }
          scf::YieldOp::create(lb, loc, next);
        });
    ValueRange sums = loop.getResults();

    Value v = sums[0];
    if (isNorm) {
      Value meanShift;
      Value r = emitRowScale(tb, loc, p, sums[1], sums[2], meanShift);
      // The row's statistics over all of K, saved by its column-0 thread.
      if (savesStatistics(p)) {
        Value mean;
        if (isLayerNorm && p.mean)
          mean = arith::AddFOp::create(
              tb, loc,
              memref::LoadOp::create(
                  tb, loc, split.rowSums,
                  ValueRange{index(tb, 0), row, index(tb, 2)}),
              meanShift);
        emitStoreRowStatistics(tb, loc, p,
                               arith::CmpIOp::create(tb, loc,
                                                     arith::CmpIPredicate::eq,
                                                     col, index(tb, 0)),
                               row, mean, r);
      }
      v = arith::MulFOp::create(tb, loc, r, v);
      if (isLayerNorm) {
        Value shift = arith::MulFOp::create(tb, loc, r, meanShift);
        v = arith::SubFOp::create(
            tb, loc, v, arith::MulFOp::create(tb, loc, shift, sums[3]));
        v = arith::AddFOp::create(tb, loc, v, sums[4]);
      }
    }
    emitStoreOutput(tb, loc, p, v, row, col);
    scf::YieldOp::create(tb, loc);
  });
  gpu::TerminatorOp::create(b, loc);
}
