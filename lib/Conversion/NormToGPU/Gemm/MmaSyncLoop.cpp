//===- MmaSyncLoop.cpp - the fused GPU GEMM on mma.sync tensor cores -----===//
//
// The main loop of the bf16/f16 GEMM kernel (FusedGemm.cpp): BM × BN =
// 64 × 128 blocks of 4 warps (2 × 2), each warp a 32 × 64 tile of 2 × 8
// m16n8 accumulators (vector<2x2xf32>, 64 f32 registers per thread). Per
// k16 step of a K tile: ldmatrix x4 for A (2 per warp) and for W (.trans
// for a K×N W; 4 per warp, each covering two n8 tiles), then 16 mma.sync
// m16n8k16 (bf16 or f16 in, f32 accumulate). The fragments' layout (which
// thread holds which element of C) is here too, for the epilogue.
//
//===----------------------------------------------------------------------===//

#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

SmallVector<Value> MmaSyncLoop::multiplyTile(OpBuilder &b, const SharedTiles &s,
                                             Value buf, ValueRange accs) {
  SmallVector<Value> next(accs.begin(), accs.end());
  auto fragA = VectorType::get({4, 2}, elem);
  auto fragB = VectorType::get({2, 2}, elem);
  Value laneMod16 = remC(b, lane, 16);
  Value laneDiv16x8 = mulC(b, divC(b, lane, 16), 8);
  Value laneMod8 = remC(b, lane, 8);
  Value laneHalfK = mulC(b, remC(b, divC(b, lane, 8), 2), 8);
  for (int64_t ks = 0; ks < bk / 16; ++ks) {
    // A: rows l % 16, k (l / 16)·8 of each 16 × 16 fragment.
    SmallVector<Value> a;
    for (int64_t mt = 0; mt < kMTiles; ++mt) {
      Value r = add(b, addC(b, mulC(b, warpM, kWarpM), mt * 16), laneMod16);
      Value k = addC(b, laneDiv16x8, ks * 16);
      a.push_back(nvgpu::LdMatrixOp::create(b, loc, fragA, s.a,
                                            ValueRange{buf, r, k},
                                            /*transpose=*/false,
                                            /*numTiles=*/4));
    }
    // W: each ldmatrix x4 gives the k16 × n8 fragments of two n8 tiles.
    SmallVector<Value> w;
    for (int64_t np = 0; np < kNTiles / 2; ++np) {
      Value colBase = addC(b, mulC(b, warpN, kWarpN), np * 16);
      Value tile;
      if (p.transposeW) {
        // [n][k] rows: matrix q = l / 8 is n8 tile q / 2, k half q % 2.
        Value n = add(b, add(b, colBase, laneDiv16x8), laneMod8);
        Value k = addC(b, laneHalfK, ks * 16);
        tile =
            nvgpu::LdMatrixOp::create(b, loc, fragA, s.w, ValueRange{buf, n, k},
                                      /*transpose=*/false, 4);
      } else {
        // [k][n] rows, transposed by ldmatrix.trans.
        Value k = addC(b, laneMod16, ks * 16);
        Value n = add(b, colBase, laneDiv16x8);
        tile =
            nvgpu::LdMatrixOp::create(b, loc, fragA, s.w, ValueRange{buf, k, n},
                                      /*transpose=*/true, 4);
      }
      for (int64_t half = 0; half < 2; ++half) {
        Value frag = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(fragB, b.getFloatAttr(elem, 0.0)));
        for (int64_t r = 0; r < 2; ++r) {
          Value rowVec = vector::ExtractOp::create(b, loc, tile, half * 2 + r);
          frag = vector::InsertOp::create(b, loc, rowVec, frag, r);
        }
        w.push_back(frag);
      }
    }
    for (int64_t mt = 0; mt < kMTiles; ++mt)
      for (int64_t nt = 0; nt < kNTiles; ++nt) {
        Value &acc = next[mt * kNTiles + nt];
        acc = nvgpu::MmaSyncOp::create(b, loc, a[mt], w[nt], acc,
                                       ArrayRef<int64_t>{16, 8, 16});
      }
  }
  return next;
}

Value MmaSyncLoop::fragmentRow(OpBuilder &b, int64_t mt, int64_t i) {
  return addC(b, add(b, mulC(b, warpM, kWarpM), divC(b, lane, 4)),
              mt * 16 + i * 8);
}

Value MmaSyncLoop::fragmentColumn(OpBuilder &b, int64_t nt) {
  return addC(b, add(b, mulC(b, warpN, kWarpN), mulC(b, remC(b, lane, 4), 2)),
              nt * 8);
}

void MmaSyncLoop::forEachAccumulator(OpBuilder &b, ValueRange accs,
                                     AccumulatorFn fn) {
  for (int64_t mt = 0; mt < kMTiles; ++mt)
    for (int64_t nt = 0; nt < kNTiles; ++nt)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j)
          fn(b, fragmentRow(b, mt, i), addC(b, fragmentColumn(b, nt), j),
             vector::ExtractOp::create(b, loc, accs[mt * kNTiles + nt],
                                       ArrayRef<int64_t>{i, j}));
}
