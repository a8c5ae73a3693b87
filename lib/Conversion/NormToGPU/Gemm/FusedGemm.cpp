//===- FusedGemm.cpp - the GPU GEMMs of the fused ops ---------------------===//
//
// C = norm(A) · W (+ bias), or S = A · W (+ bias) (+ residual), as one
// gpu.launch on tensor cores (sm_80+), DESIGN.md §3 and §5:
//
//   grid   = ⌈N / BN⌉ × ⌈M / BM⌉ blocks of 128 threads (4 warps, 2 × 2);
//            block (bx, by) computes C[by·BM.., bx·BN..], BM × BN = 64 × 128;
//            each warp a 32 × 64 tile: 2 × 8 m16n8 accumulators
//            (vector<2x2xf32>, 64 f32 registers per thread);
//   stages = two shared-memory buffers per operand (dynamic shared memory,
//            16-byte aligned): A [2][BM][BK + 8], W [2][BK][BN + 8] (K×N) or
//            [2][BN][BK + 8] (N×K), γ/β [2][BK]; the 8-element padding makes
//            ldmatrix's eight 16-byte rows fall into distinct bank groups;
//   K loop = per BK = 32 tile: issue the cp.async copies of tile kt + 1 into
//            the other buffer (commit a group), wait for all but that group,
//            barrier; the norm prologue on the A tile (below); per k16 step,
//            ldmatrix x4 for A (2 per warp) and for W (.trans for a K×N W;
//            4 per warp, each covering two n8 tiles), 16 mma.sync m16n8k16
//            (bf16 or f16 in, f32 accumulate); barrier (the buffer is
//            overwritten next iteration). Tails past M, N, K are zero-filled
//            by cp.async's source size (0 or 8 elements).
//   prologue (norm → matmul), on the A tile in shared memory, two threads per
//            row (16 elements each, 16-byte vector reads):
//            - s = x, or with a residual s = round(x + r) (residual below);
//            - statistics in f32 from the s the block has loaded anyway
//              (no extra pass over X in global memory): RMSNorm Σs²;
//              LayerNorm Σ(s − p), Σ(s − p)² about the row's pivot p = the
//              mean of its first K tile (of s), computed once before the loop;
//            - when γ, weight_offset or a residual is present, or for
//              LayerNorm, the tile is rewritten in place as a = s (residual
//              only), round(s·γ') or round((s − p)·γ'), γ' = γ +
//              weight_offset (a missing γ is 1), then a barrier; RMSNorm
//              without γ or residual runs on the raw x;
//            - LayerNorm also sums c = Σ_k γ'_k W_k· and Σ_k β_k W_k· from the
//              W tile (thread t: column t of the block).
//   epilogue: the two threads of a row combine their sums (shuffle xor 1)
//            into r (and LayerNorm's r·(μ − p)) in shared memory, and
//            C = r·acc − r·(μ − p)·c + (Σβ·W + bias) in f32, rounded once
//            (RMSNorm: r·acc + bias; None: acc + bias + residual).
//
// One place reads x: the staging of A tiles (stageTile) and the prologue
// (prologueOnTile, computePivot through inputLanes).
//
// f32 (SIMT): tensor cores take f32 only as TF32 (10-bit operands, far
// outside f32's tolerance), so f32 runs the same kernel with FMAs in place
// of the MMAs (fmaOnTile, simtEpilogue): thread t owns rows t / 16 + 8i and
// columns t % 16 + 16j (i, j < 8) of the block tile, 64 f32 accumulators
// (8 × vector<8xf32>); chunks of 4 elements (16 bytes), K tiles of 16 (the
// shared tiles of a 32-deep f32 tile would pass 48 KiB); the prologue keeps
// x·γ' in f32.
//
// Residual (norm → matmul with residual(R), sum_outs(S)): R's tile is staged
// beside A's, by the same cp.async group and with the same chunk mapping
// and zero-fill ([2][BM][BK + 8], 10 KiB more shared memory; at most 42 KiB
// in all, under the 48 KiB a launch gets without opting in), and the
// prologue forms s = round(x + r) (converted to f32, added, rounded to the
// element type once, as the CPU kernel and the row kernel do) from the two
// shared tiles. Adding on the register path instead (R loaded from global
// memory inside the prologue) would put an unpipelined global load on every
// K tile's critical path; staging R keeps it in the two-stage cp.async
// pipeline, overlapped with the previous tile's MMAs. The A tile is always
// rewritten (with s at least), so the statistics, the pivot and the MMA
// operand all see s. S is written exactly once: by the blocks of the first
// column tile (blockIdx.x = 0), from the prologue, each thread its own
// 16 elements of a row per K tile (16-byte stores in the cp.async kernel,
// where K is a multiple of 8; guarded element stores in the fallback). With
// N = 0 the grid keeps one column of blocks, so S is still written (the
// host picks the fallback kernel then, which reads nothing of the empty W).
//
//===----------------------------------------------------------------------===//

#include "../TargetInfo.h"
#include "GemmInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gpugemm;

namespace {

class GPUFusedGemmEmitter : public FusedGemmKernel {
public:
  using FusedGemmKernel::FusedGemmKernel;

  void emit(OpBuilder &b);

private:
  Value outputValue(OpBuilder &b, const SharedTiles &s, Value acc, Value colL,
                    Value scale, Value shift, Value residual);
  void simtEpilogue(OpBuilder &b, const SharedTiles &s, ValueRange accs);
  void splitEpilogue(OpBuilder &b, ValueRange stats, ValueRange sums,
                     ValueRange accs);
  void finishStatistics(OpBuilder &b, const SharedTiles &s, ValueRange stats,
                        ValueRange sums);
  void epilogue(OpBuilder &b, const SharedTiles &s, ValueRange accs);
  void emitBody(OpBuilder &b, gpu::LaunchOp launch, int64_t smemBytes);
};

} // namespace

Value FusedGemmKernel::sumOverRowPair(OpBuilder &b, Value v) const {
  Value other =
      gpu::ShuffleOp::create(b, loc, v, 1, NVIDIATargetInfo::kWarpSize,
                             gpu::ShuffleMode::XOR)
          .getShuffleResult();
  return arith::AddFOp::create(b, loc, v, other);
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

void GPUFusedGemmEmitter::finishStatistics(OpBuilder &b, const SharedTiles &s,
                                           ValueRange stats, ValueRange sums) {
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
Value GPUFusedGemmEmitter::outputValue(OpBuilder &b, const SharedTiles &s,
                                       Value acc, Value colL, Value scale,
                                       Value shift, Value residual) {
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

void FusedGemmKernel::forEachAccumulator(OpBuilder &b, ValueRange accs,
                                         AccumulatorFn fn) const {
  if (simt())
    SimtLoop(*this).forEachAccumulator(b, accs, fn);
  else
    MmaSyncLoop(*this).forEachAccumulator(b, accs, fn);
}

/// Split-K: the slice's partials, raw (no scale, no bias). Row sums come
/// from the blocks of the first column tile and column sums from those of
/// the first row tile (every block of a row band sees the same A, of a
/// column band the same W); the two threads of a row combine theirs first.
void GPUFusedGemmEmitter::splitEpilogue(OpBuilder &b, ValueRange stats,
                                        ValueRange sums, ValueRange accs) {
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 index(b, 0));
  };
  if (isNorm()) {
    Value s1 = sumOverRowPair(b, stats[0]);
    Value s2 = sumOverRowPair(b, stats[1]);
    Value gm = add(b, m0, divC(b, tid, 2));
    Value writes = andI(b, andI(b, isZero(remC(b, tid, 2)), isZero(gpuBlockX)),
                        slt(b, gm, p.m));
    scf::IfOp::create(b, loc, writes, [&](OpBuilder &tb, Location) {
      memref::StoreOp::create(tb, loc, s1, split->rowSums,
                              ValueRange{slice, gm, index(tb, 0)});
      memref::StoreOp::create(tb, loc, s2, split->rowSums,
                              ValueRange{slice, gm, index(tb, 1)});
      scf::YieldOp::create(tb, loc);
    });
  }
  if (isLayerNorm()) {
    Value gn = add(b, n0, tid);
    Value writes = andI(b, isZero(gpuBlockY), slt(b, gn, p.n));
    scf::IfOp::create(b, loc, writes, [&](OpBuilder &tb, Location) {
      memref::StoreOp::create(tb, loc, sums[0], split->columnSums,
                              ValueRange{slice, gn, index(tb, 0)});
      memref::StoreOp::create(tb, loc, sums[1], split->columnSums,
                              ValueRange{slice, gn, index(tb, 1)});
      scf::YieldOp::create(tb, loc);
    });
  }
  forEachAccumulator(
      b, accs, [&](OpBuilder &nb, Value rowL, Value colL, Value v) {
        Value gm = add(nb, m0, rowL), gn = add(nb, n0, colL);
        scf::IfOp::create(nb, loc, andI(nb, slt(nb, gm, p.m), slt(nb, gn, p.n)),
                          [&](OpBuilder &tb, Location) {
                            memref::StoreOp::create(tb, loc, v,
                                                    split->accumulators,
                                                    ValueRange{slice, gm, gn});
                            scf::YieldOp::create(tb, loc);
                          });
      });
}

/// C[m, n] from the SIMT accumulators (forEachAccumulator's mapping): a
/// half warp stores 16 consecutive columns of a row; every element is
/// guarded (M, N any).
void GPUFusedGemmEmitter::simtEpilogue(OpBuilder &b, const SharedTiles &s,
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
void GPUFusedGemmEmitter::epilogue(OpBuilder &b, const SharedTiles &s,
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
// The kernel
//===----------------------------------------------------------------------===//

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
  if (p.aSum)
    writesSum = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
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
  NormPrologue prologue(*this);
  assert(bytes == smemBytes && "shared memory layout changed");
  (void)smemBytes;

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
        if (isNorm())
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
    splitEpilogue(b, stats, sums, accs);
    return;
  }
  finishStatistics(b, s, stats, sums);
  if (simt())
    simtEpilogue(b, s, accs);
  else
    epilogue(b, s, accs);
}

void GPUFusedGemmEmitter::emit(OpBuilder &b) {
  int64_t smemBytes = 0;
  TileStaging(*this).allocate(b, Value(), smemBytes);
  Value one = index(b, 1);
  Value gridX = arith::CeilDivUIOp::create(b, loc, p.n, index(b, kBN));
  // The first column of blocks writes S: it runs even when N = 0.
  if (p.aSum)
    gridX = arith::MaxUIOp::create(b, loc, gridX, one);
  Value gridY = arith::CeilDivUIOp::create(b, loc, p.m, index(b, kBM));
  Value gridZ = split ? split->splits : one;
  Value smemSize =
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(smemBytes));
  auto launch = gpu::LaunchOp::create(b, loc, gridX, gridY, gridZ,
                                      index(b, kThreads), one, one, smemSize,
                                      /*asyncTokenType=*/nullptr,
                                      /*asyncDependencies=*/{});
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

Value mlir::norm::emitRowScale(OpBuilder &b, Location loc,
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
  if (p.prologue == GPUGemmPrologue::LayerNorm) {
    meanShift = arith::DivFOp::create(b, loc, first, kF32); // μ − p
    Value var = arith::SubFOp::create(
        b, loc, arith::DivFOp::create(b, loc, second, kF32),
        arith::MulFOp::create(b, loc, meanShift, meanShift));
    spread = arith::MaximumFOp::create(b, loc, var, f32(0.0));
  } else {
    spread = arith::DivFOp::create(
        b, loc, arith::AddFOp::create(b, loc, first, second), kF32);
  }
  Value eps = f32(p.epsilon);
  if (p.epsMode == EpsMode::inside_sqrt)
    return arith::DivFOp::create(
        b, loc, f32(1.0),
        math::SqrtOp::create(b, loc,
                             arith::AddFOp::create(b, loc, spread, eps)));
  return arith::DivFOp::create(
      b, loc, f32(1.0),
      arith::AddFOp::create(b, loc, math::SqrtOp::create(b, loc, spread), eps));
}

void mlir::norm::emitStoreOutput(OpBuilder &b, Location loc,
                                 const GPUGemmProblem &p, Value v, Value row,
                                 Value col) {
  auto toF32 = [&](Value x) -> Value {
    return x.getType().isF32()
               ? x
               : arith::ExtFOp::create(b, loc, b.getF32Type(), x).getResult();
  };
  if (p.matmulBias)
    v = arith::AddFOp::create(
        b, loc, v,
        toF32(memref::LoadOp::create(b, loc, p.matmulBias, ValueRange{col})));
  if (p.residual)
    v = arith::AddFOp::create(b, loc, v,
                              toF32(memref::LoadOp::create(
                                  b, loc, p.residual, ValueRange{row, col})));
  if (v.getType() != p.outputType())
    v = arith::TruncFOp::create(b, loc, p.outputType(), v);
  memref::StoreOp::create(b, loc, v, p.c, ValueRange{row, col});
}
