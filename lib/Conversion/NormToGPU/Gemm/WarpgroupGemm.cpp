//===- WarpgroupGemm.cpp - the sm_90a GEMM on warpgroup MMA ---------------===//
//
// C = norm(A) · W (+ bias) (RMSNorm or LayerNorm, A = round(X + R) with a
// residual, written to S), or C = A · W (+ bias) (+ residual), as one
// gpu.launch on sm_90a's warpgroup MMA with TMA loads (DESIGN.md §5), for
// bf16/f16 inputs with f32 accumulation. This file holds the pieces both
// schedules share and the serial schedule (the default);
// WarpgroupPipeline.cpp the warp-specialized one.
//
//   grid   = ⌈N / BN⌉ × ⌈M / BM⌉ blocks; block (bx, by) computes
//            C[by·BM.., bx·BN..] with BM / 64 consumer warpgroups, each
//            64 × BN (its own BN / 2 accumulator registers a thread); the
//            serial schedule is 64 × 128 with one warpgroup;
//   stages = shared-memory buffers of one K tile of 64 (128 bytes of
//            bf16/f16, the 128-byte swizzle's span): A as one BM × 64 box
//            (warpgroup g's rows at g · 8 KiB), with a residual R's BM × 64
//            box after it (the same map shape), W as one BN × 64 box (N×K
//            W, K-major) or BN / 64 slabs of 64 × 64 (K×N W, N contiguous);
//            each stage 1024-byte aligned (the swizzle pattern repeats
//            every 8 rows of 128 bytes, and wgmma descriptors carry no
//            base offset), a "full" mbarrier per stage;
//   serial K loop = thread 0 issues the TMA loads of the first S tiles
//            (S = 4 stages; 3 with a residual's R tiles, so that two
//            blocks still share an SM); per tile kt: wait on the stage's
//            mbarrier (parity (kt / S) % 2), the norm prologue on the A
//            tile (below), four
//            wgmma.mma_async m64n128k16 (descriptors: swizzle 128B, stride
//            byte offset 1024 = 8 rows, leading byte offset 8192 = the
//            slab stride of a K×N W; K steps of 32 bytes in a K-major
//            operand and 2048 = 16 rows of 128 bytes in the N-contiguous
//            one), commit, wait for the group, barrier, then thread 0 loads
//            tile kt + S into the freed stage. Past M, N and K the TMA
//            loads fill zeros, so tails need no guards until the store;
//   prologue (RMSNorm, WarpgroupPrologue.cpp), two threads per row of the
//            A tile, 32 elements (64 bytes) each: Σx² in f32 (the swizzle
//            only permutes 16-byte chunks within a 128-byte row, so the
//            pair's sum covers the whole row); with γ or a weight offset the
//            tile rewritten as round(x·γ'), then fence.proxy.async and a
//            barrier before the MMAs (the block's in the serial schedule,
//            each consumer warpgroup's own in the pipelined one); LayerNorm
//            and a residual (s = round(x + r) from the A and R tiles, S
//            written by the first column of blocks) read each row in the
//            mma.sync kernel's order, for its statistics' bits;
//   epilogue: the pair's sums combined (shuffle xor 1) into r (emitRowScale,
//            as the other kernels), r in shared memory, then each of the
//            thread's BN / 2 accumulator registers (register i of thread t:
//            row 16·(t / 32) + lane / 4 + 8·((i % 4) / 2), column 8·(i / 4)
//            + 2·(lane % 4) + i % 2) becomes C = r·acc + bias (+ residual),
//            rounded once, stored when inside C; with wgmma-vector-store
//            and a static even N, registers 2j and 2j + 1 (columns c, c + 1
//            of a row) as one vector access of C, bias and residual.
//
// Split-K (GPUSplitK): gridDim.z slices, slice z running K tiles
// [z·T, min((z + 1)·T, tiles)), T = ⌈tiles / splits⌉, never none. The
// loops count the slice's tiles i from its first (stage i % S, phase
// (i / S) % 2), so the ring is the unsplit kernel's; instead of the
// epilogue each slice stores its raw partials (storePartials, through
// SplitK.cpp's stores: the layout the mma.sync slices write and the
// reduction reads). LayerNorm's pivot is K tile 0's in every slice: one
// thread loads tile 0's A (and R) into the last stage on a barrier of its
// own before the ring starts (splitPivot), the consumers take the pivot,
// and a block barrier frees the stage.
//
// In the serial schedule the MMAs of a K tile are waited for before the
// next, so the tensor cores overlap the TMA loads of later tiles but not
// the issue of their own next group.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupGemm.h"
#include "../TargetInfo.h"
#include "GemmInternals.h"
#include "WarpgroupPrologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::wgmma;

static_assert(kBK == gpugemm::kWarpgroupTileK &&
                  kBK == GPUGemmTiles::kWarpgroupBlockK,
              "the prologue and the split-K slicing see the kernel's K tile");

namespace {

/// The serial schedule's stages (2 blocks of 64 × 128 fit an SM).
constexpr int64_t kSerialStages = 4;
/// The shared memory of an sm_90 multiprocessor, and what the system takes
/// of it per block (CUDA C++ Programming Guide, "Compute Capability 9.0").
constexpr int64_t kSharedBytesPerSM = 228 * 1024;
constexpr int64_t kReservedSharedBytes = 1024;
/// At most this many stages in the pipelined schedule.
constexpr int64_t kMaxStages = 8;

/// wgmma matrix descriptor fields other than the address (PTX ISA, "Matrix
/// Descriptor Format"): swizzle mode 1 (128-byte) in bits [62, 64), the
/// stride byte offset (1024: eight 128-byte rows) in [32, 46) and the
/// leading byte offset (8192: the slab stride of an N-contiguous W; unused
/// for K-major operands) in [16, 30), both >> 4.
constexpr uint64_t kDescriptorForm = (uint64_t{1} << 62) |
                                     (uint64_t{1024 >> 4} << 32) |
                                     (uint64_t{kSlabBytes >> 4} << 16);

} // namespace

WarpgroupGemmKernel::WarpgroupGemmKernel(Location loc, const GPUGemmProblem &p,
                                         const WarpgroupGemmSchedule &schedule,
                                         const GPUSplitK *split)
    : ScalarArith(loc, Float32Type::get(loc->getContext())), p(p), split(split),
      schedule(schedule), pipelined(schedule.pipelined),
      blockM(schedule.blockM), blockN(schedule.blockN) {
  // The 64 × 128 block (the serial schedule's) keeps up to 4 stages, as
  // many as let two blocks share an SM: 4 of 24 KiB, or 3 of 32 KiB with a
  // residual's R tile. A bigger block takes the stages that fit one block
  // an SM (128 × 256: 4 of 48 KiB, 3 of 64 KiB with R; 128 × 128: 7 of
  // 32 KiB, 4 of 48 KiB with R).
  int64_t fixed = kTileAlignment + scratchBytes();
  if (!pipelined || blockM * blockN == kMmaM * 128) {
    int64_t room = kSharedBytesPerSM / 2 - kReservedSharedBytes - fixed;
    stages = std::min(kSerialStages, room / stageBytes());
    return;
  }
  stages = std::min(kMaxStages, (kMaxSharedBytes - fixed) / stageBytes());
}

int64_t WarpgroupGemmKernel::threads() const {
  return consumers() * kWarpgroup +
         (pipelined ? NVIDIATargetInfo::kWarpSize : 0);
}

bool WarpgroupGemmKernel::vectorPairs() const {
  // N from C's type (p.n is a memref.dim, not folded yet); C, bias and
  // residual have identity layouts, rows N elements apart.
  auto c = cast<MemRefType>(p.c.getType());
  return schedule.vectorStore && !c.isDynamicDim(c.getRank() - 1) &&
         c.getShape().back() % 2 == 0;
}

MemRefType WarpgroupGemmKernel::sharedTile(int64_t rows, int64_t cols) const {
  return MemRefType::get({rows, cols}, elem(), MemRefLayoutAttrInterface(),
                         gpu::AddressSpaceAttr::get(
                             p.a.getContext(), gpu::AddressSpace::Workgroup));
}

nvgpu::TensorMapDescriptorType
WarpgroupGemmKernel::tensorMap(int64_t rows, int64_t cols) const {
  return nvgpu::TensorMapDescriptorType::get(
      p.a.getContext(), sharedTile(rows, cols),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

void WarpgroupGemmKernel::loadTile(OpBuilder &b, Value kt, Value stage,
                                   Value barrier, bool pivotOnly) {
  Value offset = stageOffset(b, stage);
  Value k0 = mulC(b, kt, kBK);
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, barriers, index(b, pivotOnly ? tileWOffset() : stageBytes()),
      barrier,
      /*predicate=*/Value());
  // TMA coordinates are innermost first: (column, row).
  nvgpu::TmaAsyncLoadOp::create(
      b, loc, view(b, offset, sharedTile(blockM, kBK)), barriers, mapA,
      ValueRange{k0, m0}, barrier, Value(), Value());
  if (mapR)
    nvgpu::TmaAsyncLoadOp::create(
        b, loc,
        view(b, add(b, offset, index(b, tileABytes())),
             sharedTile(blockM, kBK)),
        barriers, mapR, ValueRange{k0, m0}, barrier, Value(), Value());
  if (pivotOnly)
    return;
  Value wOffset = add(b, offset, index(b, tileWOffset()));
  if (p.transposeW) {
    nvgpu::TmaAsyncLoadOp::create(
        b, loc, view(b, wOffset, sharedTile(blockN, kBK)), barriers, mapW,
        ValueRange{k0, n0}, barrier, Value(), Value());
  } else {
    for (int64_t slab = 0; slab < blockN / 64; ++slab)
      nvgpu::TmaAsyncLoadOp::create(
          b, loc,
          view(b, add(b, wOffset, index(b, slab * kSlabBytes)),
               sharedTile(kBK, 64)),
          barriers, mapW, ValueRange{add(b, n0, index(b, slab * 64)), k0},
          barrier, Value(), Value());
  }
}

Value WarpgroupGemmKernel::scratch(OpBuilder &b, int64_t offset, int64_t size) {
  return view(
      b, index(b, rowScaleOffset() + offset),
      MemRefType::get({size}, b.getF32Type(), MemRefLayoutAttrInterface(),
                      gpu::AddressSpaceAttr::get(
                          b.getContext(), gpu::AddressSpace::Workgroup)));
}

void WarpgroupGemmKernel::normalizeRows(OpBuilder &b) {
  Value row = divC(b, tid, 2);
  Value gm = add(b, m0, row);
  // The pipelined schedule's producer warp joins the shuffles, its rows
  // (past the A tile) taken as row M, which sums nothing, and stores
  // nothing.
  Value isConsumer =
      pipelined ? ult(b, tid, index(b, consumers() * kWarpgroup)) : Value();
  gpugemm::RowNormalizer::Statistics stats =
      gpugemm::RowNormalizer(loc, p).rowStatistics(
          b, isConsumer ? select(b, isConsumer, gm, p.m) : gm, remC(b, tid, 2));
  emitForConsumers(b, isConsumer, [&](OpBuilder &b) {
    // Both threads of the row store the same values, and each reads back
    // its own row's: no barrier.
    memref::StoreOp::create(b, loc, stats.rstd, rowScaleSlots(b),
                            ValueRange{row});
    if (stats.mean) {
      memref::StoreOp::create(b, loc, stats.mean, rowShiftSlots(b),
                              ValueRange{row});
      memref::StoreOp::create(b, loc, stats.correction, meanCorrectionSlots(b),
                              ValueRange{row});
    }
    if (!savesStatistics(p))
      return;
    Value writes = andI(b,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              remC(b, tid, 2), index(b, 0)),
                        ult(b, n0, one));
    if (split)
      writes = andI(b, writes, ult(b, slice, one));
    // The saved mean is μ plus its correction, as the mma.sync kernel's.
    Value mean =
        stats.mean ? arith::AddFOp::create(b, loc, stats.mean, stats.correction)
                         .getResult()
                   : Value();
    gpugemm::emitStoreRowStatistics(b, loc, p, writes, gm, mean, stats.rstd);
  });
}

gpugemm::RowNormalizer::Statistics
WarpgroupGemmKernel::rowNormStatistics(OpBuilder &b) {
  Value row = divC(b, tid, 2);
  gpugemm::RowNormalizer::Statistics stats;
  stats.rstd =
      memref::LoadOp::create(b, loc, rowScaleSlots(b), ValueRange{row});
  if (p.normalizesA == GemmPrologue::LayerNorm) {
    stats.mean =
        memref::LoadOp::create(b, loc, rowShiftSlots(b), ValueRange{row});
    stats.correction =
        memref::LoadOp::create(b, loc, meanCorrectionSlots(b), ValueRange{row});
  }
  return stats;
}

SmallVector<Value> WarpgroupGemmKernel::prologue(OpBuilder &b, Value aOffset,
                                                 Value kt, Value warpgroup,
                                                 ValueRange carried) {
  gpugemm::WarpgroupPrologue prologue(loc, p, schedule.conflictFreePrologue);
  gpugemm::PrologueTile tile = prologueTile(b, aOffset);
  SmallVector<Value> next(carried.begin(), carried.end());
  if (normalizesA()) {
    prologue.normalizeTile(b, tile, tid, kt, rowNormStatistics(b));
    syncRewriters(b, warpgroup);
    return next;
  }
  if (pairedSums()) {
    SmallVector<Value> sums = prologue.onTileInMmaSyncOrder(
        b, tile, tid, kt, /*pivot=*/isLayerNorm() ? carried[2] : Value(),
        carried.take_front(2));
    next[0] = sums[0];
    next[1] = sums[1];
  } else {
    next[0] = prologue.onTile(b, tile.a, tid, kt, carried[0]);
  }
  if (!prologue.rewritesA())
    return next;
  // The rewritten rows are complete before the MMAs that read them. In the
  // serial schedule that is the block's one warpgroup. In the pipelined one
  // warpgroup g's MMAs read A rows [64g, 64g + 64), which g's own threads
  // [128g, 128g + 128) rewrote (row = thread / 2): its 128 threads meet at
  // named barrier 1 + g (0 is the block barrier, which would also wait for
  // the producer warp, elsewhere in its loop).
  syncRewriters(b, warpgroup);
  return next;
}

gpugemm::PrologueTile WarpgroupGemmKernel::prologueTile(OpBuilder &b,
                                                        Value stageOff) {
  gpugemm::PrologueTile tile;
  tile.a = view(b, stageOff, sharedTile(blockM, kBK));
  if (p.aResidual)
    tile.r = view(b, add(b, stageOff, index(b, tileABytes())),
                  sharedTile(blockM, kBK));
  // S from the first column of blocks, as the mma.sync kernel writes it.
  if (p.aSum) {
    tile.m0 = m0;
    tile.writesSum = ult(b, n0, one);
  }
  return tile;
}

void WarpgroupGemmKernel::syncRewriters(OpBuilder &b, Value warpgroup) {
  if (!warpgroup) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  auto i32 = [&](Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v).getResult();
  };
  NVVM::BarrierOp::create(b, loc, TypeRange{}, i32(addC(b, warpgroup, 1)),
                          i32(index(b, kWarpgroup)), /*reductionOp=*/nullptr,
                          /*reductionPredicate=*/Value());
}

SmallVector<Value> WarpgroupGemmKernel::columnSums(OpBuilder &b, Value stageOff,
                                                   Value kt,
                                                   ValueRange carried) {
  SmallVector<Value> next(carried.begin(), carried.end());
  if (!isLayerNorm())
    return next;
  gpugemm::WarpgroupPrologue prologue(loc, p, schedule.conflictFreePrologue);
  auto wType =
      p.transposeW
          ? sharedTile(blockN, kBK)
          : MemRefType::get({blockN / 64, kBK, 64}, elem(),
                            MemRefLayoutAttrInterface(),
                            gpu::AddressSpaceAttr::get(
                                b.getContext(), gpu::AddressSpace::Workgroup));
  Value wTile = view(b, add(b, stageOff, index(b, tileWOffset())), wType);
  int64_t consumerThreads = consumers() * kWarpgroup;
  SmallVector<Value> columns;
  for (int64_t i = 0; i < columnsPerThread(); ++i)
    columns.push_back(addC(b, tid, i * consumerThreads));
  ValueRange sums = ArrayRef<Value>(next).drop_front(3);
  SmallVector<Value> newSums;
  if (blockN % consumerThreads == 0) {
    newSums = prologue.columnSums(b, wTile, columns, kt, sums);
  } else {
    // More consumer threads than columns (128 × 128): the first BN sum.
    assert(columnsPerThread() == 1 && "a partial column only");
    auto branch = scf::IfOp::create(
        b, loc, ult(b, columns[0], index(b, blockN)),
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(
              tb, loc, prologue.columnSums(tb, wTile, columns, kt, sums));
        },
        [&](OpBuilder &eb, Location) { scf::YieldOp::create(eb, loc, sums); });
    llvm::append_range(newSums, branch.getResults());
  }
  llvm::copy(newSums, next.begin() + 3);
  return next;
}

SmallVector<Value> WarpgroupGemmKernel::initialCarried(OpBuilder &b,
                                                       Value warpgroup) {
  SmallVector<Value> init(numCarried(), f32(b, 0.0));
  if (!isLayerNorm())
    return init;
  if (loadsPivotTile()) {
    init[2] = slicePivot;
    return init;
  }
  // The pivot, from K tile 0 (stage 0, phase 0 of its full barrier).
  Value zero = index(b, 0);
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, barriers, arith::ConstantIntOp::create(b, loc, 0, 1),
      index(b, 10000000), zero);
  gpugemm::WarpgroupPrologue prologue(loc, p, schedule.conflictFreePrologue);
  init[2] =
      prologue.layerNormPivot(b, prologueTile(b, stageOffset(b, zero)), tid);
  // Both threads of a row read all of its first 32 columns, which the
  // other then rewrites in tile 0's prologue: the pivot is read first.
  syncRewriters(b, warpgroup);
  return init;
}

Value WarpgroupGemmKernel::splitPivot(OpBuilder &b) {
  Value last = index(b, stages - 1);
  // The barrier after the stages' full (and empty) ones.
  Value pivotBarrier = index(b, pipelined ? 2 * stages : stages);
  scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &tb, Location) {
    loadTile(tb, index(tb, 0), last, pivotBarrier, /*pivotOnly=*/true);
    scf::YieldOp::create(tb, loc);
  });
  auto compute = [&](OpBuilder &cb) {
    nvgpu::MBarrierTryWaitParityOp::create(
        cb, loc, barriers, arith::ConstantIntOp::create(cb, loc, 0, 1),
        index(cb, 10000000), pivotBarrier);
    gpugemm::WarpgroupPrologue prologue(loc, p, schedule.conflictFreePrologue);
    return prologue.layerNormPivot(cb, prologueTile(cb, stageOffset(cb, last)),
                                   tid);
  };
  Value pivot;
  if (!pipelined) {
    pivot = compute(b);
  } else {
    // The producer warp's rows would lie past the A tile.
    auto branch = scf::IfOp::create(
        b, loc, ult(b, tid, index(b, consumers() * kWarpgroup)),
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(tb, loc, compute(tb));
        },
        [&](OpBuilder &eb, Location) {
          scf::YieldOp::create(eb, loc, f32(eb, 0.0));
        });
    pivot = branch.getResult(0);
  }
  // Every pivot is read before the ring's loads refill the last stage.
  gpu::BarrierOp::create(b, loc);
  return pivot;
}

Value WarpgroupGemmKernel::issueTile(OpBuilder &b, Value stageOff,
                                     Value warpgroup, Value acc,
                                     bool accumulate) {
  // 18-bit shared-window addresses, >> 4, in bits [0, 14).
  auto descriptor = [&](Value byteOffset) {
    Value address = arith::AddIOp::create(
        b, loc, sharedAddress,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), byteOffset));
    Value field = arith::ShRUIOp::create(
        b, loc, arith::AndIOp::create(b, loc, address, i64(b, 0x3FFFF)),
        i64(b, 4));
    return arith::OrIOp::create(b, loc, field,
                                i64(b, static_cast<int64_t>(kDescriptorForm)))
        .getResult();
  };
  Value descA = descriptor(
      warpgroup ? add(b, stageOff, mulC(b, warpgroup, kSlabBytes)) : stageOff);
  Value descW = descriptor(add(b, stageOff, index(b, tileWOffset())));
  auto wgmmaType =
      elem().isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  // K steps in the descriptors' >> 4 units.
  int64_t stepA = kMmaK * kElementBytes / 16;
  int64_t stepW = p.transposeW ? stepA : kMmaK * kSwizzleBytes / 16;
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t s = 0; s < kBK / kMmaK; ++s) {
    Value a = arith::AddIOp::create(b, loc, descA, i64(b, s * stepA));
    Value w = arith::AddIOp::create(b, loc, descW, i64(b, s * stepW));
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accType, acc, a, w,
        NVVM::MMAShapeAttr::get(b.getContext(), kMmaM, blockN, kMmaK),
        wgmmaType, wgmmaType, NVVM::WGMMATypes::f32,
        accumulate || s > 0 ? NVVM::WGMMAScaleOut::one
                            : NVVM::WGMMAScaleOut::zero,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        p.transposeW ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}

std::pair<Value, Value> WarpgroupGemmKernel::rowSums(OpBuilder &b,
                                                     ValueRange carried) {
  auto pairSum = [&](Value v) {
    return gpu::ShuffleOp::create(b, loc, v, 1, NVIDIATargetInfo::kWarpSize,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  // emitRowScale adds the pair's two sums (RMSNorm's two chains); paired
  // sums (LayerNorm's, a residual RMSNorm's two chains) are added here,
  // v + other, as the mma.sync kernel's sumOverRowPair does.
  if (pairedSums())
    return {arith::AddFOp::create(b, loc, carried[0], pairSum(carried[0])),
            arith::AddFOp::create(b, loc, carried[1], pairSum(carried[1]))};
  return {carried[0], pairSum(carried[0])};
}

void WarpgroupGemmKernel::forEachAccumulator(
    OpBuilder &b, Value acc,
    function_ref<void(OpBuilder &, int64_t, Value, Value, Value, Value)> fn) {
  Value warp = divC(b, tid, NVIDIATargetInfo::kWarpSize),
        lane = remC(b, tid, NVIDIATargetInfo::kWarpSize);
  // Warpgroup g's rows start at 64·g = 16·(its first warp).
  Value rowBase = add(b, mulC(b, warp, 16), divC(b, lane, 4));
  Value colBase = mulC(b, remC(b, lane, 4), 2);
  // Registers 2j and 2j + 1 are columns c and c + 1 of one row: with an
  // even N the pair starts at an even element of C (and of bias and
  // residual), so it is one aligned vector, inside C when its first
  // column is.
  int64_t width = vectorPairs() ? 2 : 1;
  for (int64_t i = 0; i < registers(); i += width) {
    int64_t half = (i % 4) / 2;
    Value row = add(b, rowBase, index(b, 8 * half));
    Value col = add(b, colBase, index(b, 8 * (i / 4) + i % 2));
    Value gm = add(b, m0, row), gn = add(b, n0, col);
    Value inside =
        arith::AndIOp::create(b, loc, ult(b, gm, p.m), ult(b, gn, p.n));
    SmallVector<Value, 2> values;
    for (int64_t j = 0; j < width; ++j)
      values.push_back(LLVM::ExtractValueOp::create(b, loc, acc, i + j));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
      Value out = values[0];
      if (width > 1)
        out = vector::FromElementsOp::create(
            tb, loc, VectorType::get({width}, tb.getF32Type()), values);
      fn(tb, half, col, gm, gn, out);
      scf::YieldOp::create(tb, loc);
    });
  }
}

void WarpgroupGemmKernel::storePartials(OpBuilder &b, Value acc,
                                        ValueRange carried) {
  // The pipelined schedule's producer warp joins the shuffles but stores
  // nothing.
  Value isConsumer =
      pipelined ? ult(b, tid, index(b, consumers() * kWarpgroup)) : Value();
  auto consumerOnly = [&](Value v) {
    return isConsumer ? andI(b, v, isConsumer) : v;
  };
  if (isNorm()) {
    auto [first, second] = rowSums(b, carried);
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       remC(b, tid, 2), index(b, 0));
    gpugemm::emitStoreSplitRowSums(b, loc, p, *split, slice,
                                   consumerOnly(andI(b, even, ult(b, n0, one))),
                                   add(b, m0, divC(b, tid, 2)), first, second,
                                   isLayerNorm() ? carried[2] : Value());
  }
  int64_t consumerThreads = consumers() * kWarpgroup;
  for (int64_t i = 0; isLayerNorm() && i < columnsPerThread(); ++i) {
    Value j = addC(b, tid, i * consumerThreads);
    Value writes =
        consumerOnly(andI(b, ult(b, m0, one), ult(b, j, index(b, blockN))));
    gpugemm::emitStoreSplitColumnSums(b, loc, p, *split, slice, writes,
                                      add(b, n0, j), carried[3 + 2 * i],
                                      carried[4 + 2 * i]);
  }
  emitForConsumers(b, isConsumer, [&](OpBuilder &b) {
    forEachAccumulator(
        b, acc,
        [&](OpBuilder &tb, int64_t, Value, Value gm, Value gn, Value out) {
          gpugemm::emitStoreSplitAccumulator(tb, loc, *split, slice, gm, gn,
                                             out);
        });
  });
}

void WarpgroupGemmKernel::epilogue(OpBuilder &b, Value acc,
                                   ValueRange carried) {
  Value rowScale = rowScaleSlots(b);
  Value rowShift, colC, colB;
  if (isLayerNorm()) {
    rowShift = rowShiftSlots(b);
    colC = columnShiftSlots(b);
    colB = p.beta ? betaWeightSlots(b) : Value();
  }
  // The pipelined schedule's producer warp joins the shuffle and the
  // barrier (every thread of the block reaches them) but stores nothing.
  Value isConsumer =
      pipelined ? ult(b, tid, index(b, consumers() * kWarpgroup)) : Value();
  if (isNorm()) {
    auto [first, second] = rowSums(b, carried);
    Value meanShift;
    Value r = gpugemm::emitRowScale(b, loc, p, first, second, meanShift);
    Value isEven = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         remC(b, tid, 2), index(b, 0));
    if (isConsumer)
      isEven = andI(b, isEven, isConsumer);
    scf::IfOp::create(b, loc, isEven, [&](OpBuilder &tb, Location) {
      Value row = divC(tb, tid, 2);
      memref::StoreOp::create(tb, loc, r, rowScale, ValueRange{row});
      Value mean;
      if (isLayerNorm()) {
        memref::StoreOp::create(tb, loc,
                                arith::MulFOp::create(tb, loc, r, meanShift),
                                rowShift, ValueRange{row});
        // The saved mean: the pivot plus μ − p.
        mean = arith::AddFOp::create(tb, loc, carried[2], meanShift);
      }
      if (savesStatistics(p)) // from the first block column
        gpugemm::emitStoreRowStatistics(tb, loc, p, ult(tb, n0, one),
                                        add(tb, m0, row), mean, r);
      scf::YieldOp::create(tb, loc);
    });
    // LayerNorm's column sums, from the consumer threads that summed them.
    int64_t consumerThreads = consumers() * kWarpgroup;
    for (int64_t i = 0; isLayerNorm() && i < columnsPerThread(); ++i) {
      Value j = addC(b, tid, i * consumerThreads);
      Value mine = ult(b, j, index(b, blockN));
      if (isConsumer)
        mine = andI(b, mine, isConsumer);
      scf::IfOp::create(b, loc, mine, [&](OpBuilder &tb, Location) {
        memref::StoreOp::create(tb, loc, carried[3 + 2 * i], colC,
                                ValueRange{j});
        if (colB)
          memref::StoreOp::create(tb, loc, carried[4 + 2 * i], colB,
                                  ValueRange{j});
        scf::YieldOp::create(tb, loc);
      });
    }
    gpu::BarrierOp::create(b, loc);
  }
  emitForConsumers(b, isConsumer, [&](OpBuilder &b) {
    Value warp = divC(b, tid, NVIDIATargetInfo::kWarpSize),
          lane = remC(b, tid, NVIDIATargetInfo::kWarpSize);
    // Warpgroup g's rows start at 64·g = 16·(its first warp).
    Value rowBase = add(b, mulC(b, warp, 16), divC(b, lane, 4));
    Value scales[2], shifts[2];
    for (int64_t h = 0; h < 2; ++h) {
      Value row = add(b, rowBase, index(b, 8 * h));
      if (isNorm())
        scales[h] = memref::LoadOp::create(b, loc, rowScale, ValueRange{row});
      if (isLayerNorm())
        shifts[h] = memref::LoadOp::create(b, loc, rowShift, ValueRange{row});
    }
    forEachAccumulator(
        b, acc,
        [&](OpBuilder &tb, int64_t half, Value col, Value gm, Value gn,
            Value out) {
          int64_t width = isa<VectorType>(out.getType()) ? 2 : 1;
          auto splat = [&](Value v) {
            return width > 1
                       ? vector::BroadcastOp::create(tb, loc, out.getType(), v)
                             .getResult()
                       : v;
          };
          // The column vectors at the thread's columns, 8-byte aligned pairs.
          auto columns = [&](Value mem) -> Value {
            if (width == 1)
              return memref::LoadOp::create(tb, loc, mem, ValueRange{col});
            return vector::LoadOp::create(
                tb, loc, out.getType(), mem, ValueRange{col},
                /*nontemporal=*/false, llvm::MaybeAlign(4 * width));
          };
          // r·acc − r·(μ − p)·c + Σβ·W, as the mma.sync kernel's outputValue;
          // emitStoreOutput adds the bias (and residual) and rounds once.
          if (scales[half])
            out = arith::MulFOp::create(tb, loc, splat(scales[half]), out);
          if (shifts[half])
            out = arith::SubFOp::create(
                tb, loc, out,
                arith::MulFOp::create(tb, loc, splat(shifts[half]),
                                      columns(colC)));
          if (colB)
            out = arith::AddFOp::create(tb, loc, out, columns(colB));
          gpugemm::emitStoreOutput(tb, loc, p, out, gm, gn);
        });
  });
}

void WarpgroupGemmKernel::emitForConsumers(OpBuilder &b, Value isConsumer,
                                           function_ref<void(OpBuilder &)> fn) {
  if (!isConsumer) {
    fn(b);
    return;
  }
  scf::IfOp::create(b, loc, isConsumer, [&](OpBuilder &tb, Location) {
    fn(tb);
    scf::YieldOp::create(tb, loc);
  });
}

SmallVector<Value> WarpgroupGemmKernel::emitSerialLoop(OpBuilder &b) {
  // Thread 0 loads the block's i-th K tile into stage i % S. (The stages
  // and barrier phases count the block's tiles, i, which in a split-K
  // slice start at its first tile.)
  auto issueLoads = [&](OpBuilder &b, Value i) {
    scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &tb, Location) {
      Value stage = remC(tb, i, stages);
      loadTile(tb, tileOf(tb, i), stage, stage);
      scf::YieldOp::create(tb, loc);
    });
  };
  scf::ForOp::create(
      b, loc, index(b, 0),
      arith::MinUIOp::create(b, loc, tileCount, index(b, stages)), one,
      ValueRange{}, [&](OpBuilder &lb, Location, Value i, ValueRange) {
        issueLoads(lb, i);
        scf::YieldOp::create(lb, loc);
      });

  if (normalizesA())
    normalizeRows(b);
  SmallVector<Value> init{LLVM::ZeroOp::create(b, loc, accType)};
  llvm::append_range(init, initialCarried(b, /*warpgroup=*/Value()));
  auto loop = scf::ForOp::create(
      b, loc, index(b, 0), tileCount, one, init,
      [&](OpBuilder &lb, Location, Value i, ValueRange iter) {
        Value kt = tileOf(lb, i);
        Value stage = remC(lb, i, stages);
        Value parity = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ne,
                                             remC(lb, divC(lb, i, stages), 2),
                                             index(lb, 0));
        nvgpu::MBarrierTryWaitParityOp::create(lb, loc, barriers, parity,
                                               index(lb, 10000000), stage);
        Value aOffset = stageOffset(lb, stage);
        SmallVector<Value> carried =
            hasPrologue() ? prologue(lb, aOffset, kt, /*warpgroup=*/Value(),
                                     iter.drop_front())
                          : SmallVector<Value>(iter.drop_front());
        Value acc = issueTile(lb, aOffset, /*warpgroup=*/Value(), iter[0]);
        carried = columnSums(lb, aOffset, kt, carried);
        NVVM::WgmmaWaitGroupSyncOp::create(lb, loc, 0);
        // Every thread is done with the stage before it is refilled.
        gpu::BarrierOp::create(lb, loc);
        Value next = add(lb, i, index(lb, stages));
        scf::IfOp::create(lb, loc, ult(lb, next, tileCount),
                          [&](OpBuilder &tb, Location) {
                            issueLoads(tb, next);
                            scf::YieldOp::create(tb, loc);
                          });
        SmallVector<Value> results{acc};
        llvm::append_range(results, carried);
        scf::YieldOp::create(lb, loc, results);
      });
  return loop.getResults();
}

void WarpgroupGemmKernel::emit(OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  // Host: the TMA descriptors of A (and R: BM × 64 boxes) and W.
  auto unranked = [&](Value mem) {
    return memref::CastOp::create(b, loc, UnrankedMemRefType::get(elem(), 0),
                                  mem)
        .getResult();
  };
  mapA = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, tensorMap(blockM, kBK), unranked(p.a),
      ValueRange{index(b, blockM), index(b, kBK)});
  // The residual, M × K as A: the same box and swizzle.
  if (p.aResidual)
    mapR = nvgpu::TmaCreateDescriptorOp::create(
        b, loc, tensorMap(blockM, kBK), unranked(p.aResidual),
        ValueRange{index(b, blockM), index(b, kBK)});
  mapW = p.transposeW ? nvgpu::TmaCreateDescriptorOp::create(
                            b, loc, tensorMap(blockN, kBK), unranked(p.w),
                            ValueRange{index(b, blockN), index(b, kBK)})
                      : nvgpu::TmaCreateDescriptorOp::create(
                            b, loc, tensorMap(kBK, 64), unranked(p.w),
                            ValueRange{index(b, kBK), index(b, 64)});

  one = index(b, 1);
  Value gridX = arith::CeilDivUIOp::create(b, loc, p.n, index(b, blockN));
  Value gridY = arith::CeilDivUIOp::create(b, loc, p.m, index(b, blockM));
  gpu::LaunchOp launch = gpugemm::createGemmLaunch(
      b, loc, gridX, gridY, split ? split->splits : one, one,
      rowScaleOffset() + scratchBytes(), threads());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());

  tid = launch.getThreadIds().x;
  m0 = mulC(b, launch.getBlockIds().y, blockM);
  n0 = mulC(b, launch.getBlockIds().x, blockN);
  smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get(
          {ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  // The first kTileAlignment-aligned byte of the dynamic shared memory.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  tilesStart = remC(b,
                    arith::SubIOp::create(b, loc, index(b, kTileAlignment),
                                          remC(b, base, kTileAlignment)),
                    kTileAlignment);
  sharedAddress = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), base);
  // The stages' "full" barriers, then in the pipelined schedule their
  // "empty" ones.
  // Split-K LayerNorm: the pivot tile's barrier last (splitPivot).
  int64_t ringBarriers = pipelined ? 2 * stages : stages;
  int64_t numBarriers = ringBarriers + (loadsPivotTile() ? 1 : 0);
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc,
      nvgpu::MBarrierGroupType::get(
          ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
          numBarriers));
  isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(b, 0));
  // A full barrier (and the pivot tile's) completes on the producer's
  // arrival and the TMA bytes; an empty one on the arrivals of the
  // consumer threads.
  Value consumerThreads =
      pipelined ? index(b, consumers() * kWarpgroup) : Value();
  for (int64_t s = 0; s < numBarriers; ++s)
    nvgpu::MBarrierInitOp::create(
        b, loc, barriers,
        s < stages || s >= ringBarriers ? one : consumerThreads, index(b, s),
        isFirst);
  // The inits must be visible to the TMA unit (the async proxy) that
  // completes the loads' transactions, not only to this block's threads:
  // fence.mbarrier_init, then the block barrier, as CUTLASS's sm_90
  // pipelines do (cutlass::arch::fence_barrier_init).
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);

  kTiles = arith::CeilDivUIOp::create(b, loc, p.k, index(b, kBK));
  tileCount = kTiles;
  if (split) {
    // Slice z: K tiles [z·T, min((z + 1)·T, tiles)), T = ⌈tiles / splits⌉;
    // the host's slice count leaves none empty (the pipelined schedule's
    // peeled first tile needs one).
    slice = launch.getBlockIds().z;
    Value perSlice = arith::CeilDivUIOp::create(b, loc, kTiles, split->splits);
    firstTile = arith::MinUIOp::create(b, loc, mul(b, slice, perSlice), kTiles);
    tileCount = sub(
        b, arith::MinUIOp::create(b, loc, add(b, firstTile, perSlice), kTiles),
        firstTile);
  }
  if (loadsPivotTile())
    slicePivot = splitPivot(b);
  SmallVector<Type> regs(registers(), b.getF32Type());
  accType = LLVM::LLVMStructType::getLiteral(ctx, regs);
  SmallVector<Value> results =
      pipelined ? emitPipelinedLoop(b) : emitSerialLoop(b);
  if (split)
    storePartials(b, results[0], ArrayRef<Value>(results).drop_front());
  else
    epilogue(b, results[0], ArrayRef<Value>(results).drop_front());
  gpu::TerminatorOp::create(b, loc);
}

bool mlir::norm::warpgroupGemmApplies(const GPUGemmProblem &p) {
  Type elem = p.elementType();
  if (!elem.isBF16() && !elem.isF16())
    return false;
  if (p.prologue != GemmPrologue::None || p.normalizesA != GemmPrologue::None)
    return gpugemm::WarpgroupPrologue::supports(p);
  return !p.aResidual && !p.aSum;
}

void mlir::norm::emitGPUWarpgroupGemm(OpBuilder &b, Location loc,
                                      const GPUGemmProblem &problem,
                                      const WarpgroupGemmSchedule &schedule,
                                      const GPUSplitK *split) {
  WarpgroupGemmKernel(loc, problem, schedule, split).emit(b);
}
