//===- SimtLoop.cpp - the fused GPU GEMM on FMA units (f32) ---------------===//
//
// The main loop of the f32 GEMM kernel (FusedGemm.cpp). Tensor cores take
// f32 only as TF32 (10-bit operands, far outside f32's tolerance), so f32
// runs on the FMA units: thread t owns rows t / 16 + 8i and columns
// t % 16 + 16j (i, j < 8) of the block's 64 × 128 tile, 64 f32 accumulators
// (8 × vector<8xf32>).
//
//===----------------------------------------------------------------------===//

#include "GemmInternals.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

/// Per k, each thread reads its 8 A values (rows t / 16 + 8i, broadcast
/// within a half warp) and its 8 W values (columns t % 16 + 16j,
/// consecutive across a half warp) from shared memory and issues 8 × 8
/// FMAs, in k order (the CPU kernel's order within a tile). A loop of
/// kSimtUnroll k steps per iteration: the whole tile unrolled let ptxas
/// hoist every shared load and spill (250 registers, and 8 bytes of spills
/// on sm_90 for LayerNorm with a residual).
SmallVector<Value> SimtLoop::multiplyTile(OpBuilder &b, const SharedTiles &s,
                                          Value buf, ValueRange accs) {
  Value rowBase = divC(b, tid, kSimtThreadsN);
  Value colBase = remC(b, tid, kSimtThreadsN);
  auto rowType = VectorType::get({kSimtCols}, b.getF32Type());
  auto loop = scf::ForOp::create(
      b, loc, index(b, 0), index(b, bk), index(b, kSimtUnroll), accs,
      [&](OpBuilder &lb, Location, Value k0, ValueRange iter) {
        SmallVector<Value> next(iter.begin(), iter.end());
        for (int64_t kk = 0; kk < kSimtUnroll; ++kk) {
          Value k = addC(lb, k0, kk);
          SmallVector<Value> w;
          for (int64_t j = 0; j < kSimtCols; ++j) {
            Value n = addC(lb, colBase, j * kSimtThreadsN);
            w.push_back(memref::LoadOp::create(
                lb, loc, s.w,
                p.transposeW ? ValueRange{buf, n, k} : ValueRange{buf, k, n}));
          }
          Value wRow = vector::FromElementsOp::create(lb, loc, rowType, w);
          for (int64_t i = 0; i < kSimtRows; ++i) {
            Value a = memref::LoadOp::create(
                lb, loc, s.a,
                ValueRange{buf, addC(lb, rowBase, i * kSimtThreadsM), k});
            Value aRow = vector::BroadcastOp::create(lb, loc, rowType, a);
            next[i] = vector::FMAOp::create(lb, loc, aRow, wRow, next[i]);
          }
        }
        scf::YieldOp::create(lb, loc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

void SimtLoop::forEachAccumulator(OpBuilder &b, ValueRange accs,
                                  AccumulatorFn fn) {
  Value rowBase = divC(b, tid, kSimtThreadsN);
  Value colBase = remC(b, tid, kSimtThreadsN);
  for (int64_t i = 0; i < kSimtRows; ++i)
    for (int64_t j = 0; j < kSimtCols; ++j)
      fn(b, addC(b, rowBase, i * kSimtThreadsM),
         addC(b, colBase, j * kSimtThreadsN),
         vector::ExtractOp::create(b, loc, accs[i], j));
}
