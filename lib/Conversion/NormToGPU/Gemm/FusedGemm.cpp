//===- FusedGemm.cpp - the fused GPU GEMM kernel: launch and K loop -------===//
//
// C = norm(A) · W (+ bias), or S = A · W (+ bias) (+ residual), as one
// gpu.launch on tensor cores (sm_80+) or, for f32, on the FMA units; DESIGN.md
// §3 and §5. This file is the kernel's driver: the launch and the K loop.
// The jobs it calls are declared in GemmInternals.h, one file each.
//
//   grid   = ⌈N / BN⌉ × ⌈M / BM⌉ (× splits) blocks of 128 threads (4 warps,
//            2 × 2); block (bx, by) computes C[by·BM.., bx·BN..], BM × BN =
//            64 × 128; with split-K, slice z of gridDim.z takes a run of the
//            K tiles and writes partials (SplitK.cpp);
//   stages = two shared-memory buffers per operand (Staging.cpp);
//   K loop = per BK tile (32 for bf16/f16, 16 for f32): issue the copies of
//            tile kt + 1 into the other buffer (cp.async: commit a group),
//            wait for all but that group, barrier; the norm prologue on the
//            A tile (NormPrologue.cpp), then a barrier when it rewrote A;
//            the tile's product (mma.sync on tensor cores, MmaSyncLoop.cpp,
//            or FMAs, SimtLoop.cpp); barrier (the buffer is overwritten
//            next iteration);
//   epilogue: the row scale r (and LayerNorm's r·(μ − p)) and the column
//            vectors in shared memory, then C = r·acc − r·(μ − p)·c + (Σβ·W
//            + bias) in f32, rounded once (Epilogue.cpp); the blocks of the
//            first column tile write the saved statistics (rstd = r, mean
//            = p + (μ − p)) where asked, once per row.
//
// f32 (SIMT): tensor cores take f32 only as TF32 (10-bit operands, far
// outside f32's tolerance), so f32 runs the same kernel with FMAs in place
// of the MMAs, chunks of 4 elements (16 bytes) and K tiles of 16 (the
// shared tiles of a 32-deep f32 tile would pass 48 KiB); the prologue keeps
// x·γ' in f32.
//
//===----------------------------------------------------------------------===//

#include "../TargetInfo.h"
#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

//===----------------------------------------------------------------------===//
// What the jobs share
//===----------------------------------------------------------------------===//

Value FusedGemmKernel::sumOverRowPair(OpBuilder &b, Value v) const {
  Value other =
      gpu::ShuffleOp::create(b, loc, v, 1, NVIDIATargetInfo::kWarpSize,
                             gpu::ShuffleMode::XOR)
          .getShuffleResult();
  return arith::AddFOp::create(b, loc, v, other);
}

void FusedGemmKernel::forEachAccumulator(OpBuilder &b, ValueRange accs,
                                         AccumulatorFn fn) const {
  if (simt())
    SimtLoop(*this).forEachAccumulator(b, accs, fn);
  else
    MmaSyncLoop(*this).forEachAccumulator(b, accs, fn);
}

gpu::LaunchOp mlir::norm::gpugemm::createGemmLaunch(OpBuilder &b, Location loc,
                                                    Value gridX, Value gridY,
                                                    Value gridZ, Value one,
                                                    int64_t sharedBytes,
                                                    int64_t threads) {
  Value smemSize =
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(sharedBytes));
  return gpu::LaunchOp::create(b, loc, gridX, gridY, gridZ,
                               arith::ConstantIndexOp::create(b, loc, threads),
                               one, one, smemSize, /*asyncTokenType=*/nullptr,
                               /*asyncDependencies=*/{});
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

namespace {

/// The driver: the launch, the thread and block values, the K loop.
class GPUFusedGemmEmitter : public FusedGemmKernel {
public:
  using FusedGemmKernel::FusedGemmKernel;

  void emit(OpBuilder &b);

private:
  void emitBody(OpBuilder &b, gpu::LaunchOp launch, int64_t smemBytes);
};

} // namespace

void GPUFusedGemmEmitter::emitBody(OpBuilder &b, gpu::LaunchOp launch,
                                   int64_t smemBytes) {
  tid = launch.getThreadIds().x;
  Value warpSize = index(b, NVIDIATargetInfo::kWarpSize);
  lane = arith::RemUIOp::create(b, loc, tid, warpSize);
  Value warp = arith::DivUIOp::create(b, loc, tid, warpSize);
  warpM = divC(b, warp, kWarpsN);
  warpN = remC(b, warp, kWarpsN);
  gpuBlockX = launch.getBlockIds().x;
  gpuBlockY = launch.getBlockIds().y;
  if (split)
    slice = launch.getBlockIds().z;
  n0 = mulC(b, gpuBlockX, kBN);
  m0 = mulC(b, gpuBlockY, kBM);
  if (writesRowOutputs(p))
    writesRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       launch.getBlockIds().x, index(b, 0));

  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value raw = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  int64_t bytes = 0;
  TileStaging staging(*this);
  SharedTiles s = staging.allocate(b, raw, bytes);
  assert(bytes == smemBytes && "shared memory layout changed");
  (void)smemBytes;
  NormPrologue prologue(*this);

  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value numK = arith::CeilDivUIOp::create(b, loc, p.k, index(b, bk));
  // This block's K tiles: all, or its slice's [first, last).
  Value firstTile = zero, lastTile = numK;
  if (split) {
    Value perSlice = arith::CeilDivUIOp::create(b, loc, numK, split->splits);
    firstTile = arith::MinUIOp::create(b, loc, mul(b, slice, perSlice), numK);
    lastTile =
        arith::MinUIOp::create(b, loc, add(b, firstTile, perSlice), numK);
  }

  // The token of the commit group staged last (async only).
  Value pendingGroup;
  // Tile 0 into buffer 0: the first tile, and LayerNorm's pivot needs it
  // before the loop (every slice of a split-K GEMM reads it, so that all
  // slices sum about the same pivot).
  if (!split || isLayerNorm())
    pendingGroup = staging.stageTile(b, s, zero, zero);
  if (isLayerNorm()) {
    if (async)
      nvgpu::DeviceAsyncWaitOp::create(b, loc, pendingGroup,
                                       b.getI32IntegerAttr(0));
    gpu::BarrierOp::create(b, loc);
    prologue.computePivot(b, s);
  }
  if (normalizesA())
    prologue.computeRowNorm(b, s);
  if (split) {
    // The slice's first tile into its buffer (tile 0 again for slice 0).
    // LayerNorm's tile-0 copies have landed (waited for above); the barrier
    // keeps buffer 0 until every thread has read its pivot.
    if (isLayerNorm())
      gpu::BarrierOp::create(b, loc);
    pendingGroup = staging.stageTile(b, s, firstTile, remC(b, firstTile, 2));
  }
  Value firstGroup = pendingGroup;

  SmallVector<Value> init;
  auto accType = simt() ? VectorType::get({kSimtCols}, b.getF32Type())
                        : VectorType::get({2, 2}, b.getF32Type());
  Value accZero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  init.append(numAccumulators(), accZero);
  unsigned numStats = isNorm() ? 2 : 0;
  unsigned numSums = isLayerNorm() ? 2 : 0;
  init.append(numStats + numSums, f32(b, 0.0));

  auto loop = scf::ForOp::create(
      b, loc, firstTile, lastTile, one, init,
      [&](OpBuilder &nb, Location, Value kt, ValueRange iter) {
        Value buf = remC(nb, kt, 2);
        Value nextBuf = arith::SubIOp::create(nb, loc, one, buf);
        // Prefetch tile kt + 1 (zero-sized copies past K), then wait for
        // every group but that one: tile kt has arrived.
        pendingGroup = staging.stageTile(nb, s, addC(nb, kt, 1), nextBuf);
        if (async)
          nvgpu::DeviceAsyncWaitOp::create(nb, loc, pendingGroup,
                                           nb.getI32IntegerAttr(1));
        gpu::BarrierOp::create(nb, loc);
        ValueRange accs = iter.take_front(numAccumulators());
        SmallVector<Value> stats(iter.begin() + accs.size(),
                                 iter.begin() + accs.size() + numStats);
        SmallVector<Value> sums(iter.begin() + accs.size() + numStats,
                                iter.end());
        if (isNorm() || normalizesA())
          stats = prologue.onTile(nb, s, kt, buf, stats);
        if (isLayerNorm())
          sums = prologue.columnSums(nb, s, buf, sums);
        if (rewritesA())
          gpu::BarrierOp::create(nb, loc);
        SmallVector<Value> results =
            simt() ? SimtLoop(*this).multiplyTile(nb, s, buf, accs)
                   : MmaSyncLoop(*this).multiplyTile(nb, s, buf, accs);
        gpu::BarrierOp::create(nb, loc);
        results.append(stats);
        results.append(sums);
        scf::YieldOp::create(nb, loc, results);
      });
  ValueRange results = loop.getResults();
  if (async)
    // Nothing may be in flight when the kernel exits.
    nvgpu::DeviceAsyncWaitOp::create(b, loc, firstGroup,
                                     b.getI32IntegerAttr(0));
  ValueRange accs = results.take_front(numAccumulators());
  ValueRange stats = results.slice(accs.size(), numStats);
  ValueRange sums = results.slice(accs.size() + numStats, numSums);
  if (split) {
    SplitKPartials(*this).store(b, stats, sums, accs, prologue.rowPivot());
    return;
  }
  GemmEpilogue epilogue(*this);
  epilogue.finishStatistics(b, s, stats, sums, prologue.rowPivot());
  epilogue.storeOutput(b, s, accs);
}

void GPUFusedGemmEmitter::emit(OpBuilder &b) {
  int64_t smemBytes = 0;
  TileStaging(*this).allocate(b, Value(), smemBytes);
  Value one = index(b, 1);
  Value gridX = arith::CeilDivUIOp::create(b, loc, p.n, index(b, kBN));
  // The first column of blocks writes S and the statistics: it runs even
  // when N = 0.
  if (writesRowOutputs(p))
    gridX = arith::MaxUIOp::create(b, loc, gridX, one);
  Value gridY = arith::CeilDivUIOp::create(b, loc, p.m, index(b, kBM));
  Value gridZ = split ? split->splits : one;
  gpu::LaunchOp launch =
      createGemmLaunch(b, loc, gridX, gridY, gridZ, one, smemBytes);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  emitBody(b, launch, smemBytes);
  gpu::TerminatorOp::create(b, loc);
}

void mlir::norm::emitGPUFusedGemm(OpBuilder &b, Location loc,
                                  const GPUGemmProblem &problem,
                                  bool asyncCopies, const GPUSplitK *split) {
  GPUFusedGemmEmitter(loc, problem, asyncCopies, split).emit(b);
}
