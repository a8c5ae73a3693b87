//===- WarpgroupGemm.cpp - the sm_90a GEMM on warpgroup MMA ---------------===//
//
// C = rms_norm(A) · W (+ bias), or C = A · W (+ bias) (+ residual), as one
// gpu.launch on sm_90a's warpgroup MMA with TMA loads (DESIGN.md §5), for
// bf16/f16 inputs with f32 accumulation:
//
//   grid   = ⌈N / 128⌉ × ⌈M / 64⌉ blocks of one warpgroup (128 threads);
//            block (bx, by) computes C[by·64.., bx·128..];
//   stages = kStages shared-memory buffers of one K tile of 64 (128 bytes
//            of bf16/f16, the 128-byte swizzle's span): A 64 × 64, W as one
//            128 × 64 box (N×K W, K-major) or two 64 × 64 slabs of 64
//            columns (K×N W, N contiguous); each stage 24 KiB and
//            1024-byte aligned (the swizzle pattern repeats every 8 rows of
//            128 bytes, and wgmma descriptors carry no base offset), one
//            mbarrier per stage;
//   K loop = thread 0 issues the TMA loads of the first kStages tiles; per
//            tile kt: wait on the stage's mbarrier (parity (kt / kStages)
//            % 2), the RMSNorm statistics from the A tile (below), four
//            wgmma.mma_async m64n128k16 (descriptors: swizzle 128B, stride
//            byte offset 1024 = 8 rows, leading byte offset 8192 = the
//            slab stride of a K×N W; K steps of 32 bytes in a K-major
//            operand and 2048 = 16 rows of 128 bytes in the N-contiguous
//            one), commit, wait for the group, barrier, then thread 0 loads
//            tile kt + kStages into the freed stage. Past M, N and K the
//            TMA loads fill zeros, so tails need no guards until the store;
//   prologue (RMSNorm, WarpgroupPrologue.cpp), two threads per row of the
//            A tile, 32 elements (64 bytes) each: Σx² in f32; with γ or a
//            weight offset the tile rewritten as round(x·γ'), then
//            fence.proxy.async and a barrier before the MMAs;
//   epilogue: the pair's sums combined (shuffle xor 1) into r (emitRowScale,
//            as the other kernels), r in shared memory, then each of the
//            thread's 64 accumulator registers (register i: row 16·warp +
//            lane / 4 + 8·((i % 4) / 2), column 8·(i / 4) + 2·(lane % 4) +
//            i % 2) becomes C = r·acc + bias (+ residual), rounded once,
//            stored when inside C.
//
// The MMAs of a K tile are waited for before the next, so the tensor cores
// overlap the TMA loads of later tiles but not the issue of their own next
// group; a second barrier set ("stage empty") and wait_group 1 would let
// them run back to back.
//
//===----------------------------------------------------------------------===//

#include "../TargetInfo.h"
#include "GemmInternals.h"
#include "WarpgroupPrologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

constexpr int64_t kBM = GPUGemmTiles::kBlockM; // 64: one wgmma's M
constexpr int64_t kBN = GPUGemmTiles::kBlockN; // 128: one wgmma's N
constexpr int64_t kThreads = GPUGemmTiles::kThreads;
constexpr int64_t kBK = gpugemm::kWarpgroupTileK; // 128 bytes of bf16/f16
constexpr int64_t kMmaK = 16;
constexpr int64_t kStages = 4;
constexpr int64_t kElementBytes = 2;
constexpr int64_t kSwizzleBytes = 128;
constexpr int64_t kTileABytes = kBM * kBK * kElementBytes; // 8 KiB
constexpr int64_t kSlabBytes = kBK * 64 * kElementBytes;   // 8 KiB
constexpr int64_t kTileWBytes = kBN * kBK * kElementBytes; // 16 KiB
constexpr int64_t kStageBytes = kTileABytes + kTileWBytes; // 24 KiB
constexpr int64_t kTileAlignment = 1024;
/// The stages start within the first kTileAlignment bytes (wherever the
/// dynamic shared memory's alignment puts them); r follows the stages.
constexpr int64_t kRowScaleOffset = kTileAlignment + kStages * kStageBytes;
constexpr int64_t kSharedBytes = kRowScaleOffset + kBM * 4;
constexpr int64_t kRegisters = kBM * kBN / kThreads; // 64 f32 a thread
static_assert(kStageBytes % kTileAlignment == 0, "stages stay aligned");

/// wgmma matrix descriptor fields other than the address (PTX ISA, "Matrix
/// Descriptor Format"): swizzle mode 1 (128-byte) in bits [62, 64), the
/// stride byte offset (1024: eight 128-byte rows) in [32, 46) and the
/// leading byte offset (8192: the slab stride of an N-contiguous W; unused
/// for K-major operands) in [16, 30), both >> 4.
constexpr uint64_t kDescriptorForm = (uint64_t{1} << 62) |
                                     (uint64_t{1024 >> 4} << 32) |
                                     (uint64_t{kSlabBytes >> 4} << 16);

class WarpgroupGemmEmitter : ScalarArith {
public:
  WarpgroupGemmEmitter(Location loc, const GPUGemmProblem &p)
      : ScalarArith(loc, Float32Type::get(loc->getContext())), p(p) {}

  void emit(OpBuilder &b);

private:
  bool isNorm() const { return p.prologue == GemmPrologue::RMSNorm; }
  Type elem() const { return p.elementType(); }
  MemRefType sharedTile(int64_t rows, int64_t cols) const {
    return MemRefType::get({rows, cols}, elem(), MemRefLayoutAttrInterface(),
                           gpu::AddressSpaceAttr::get(
                               p.a.getContext(), gpu::AddressSpace::Workgroup));
  }
  nvgpu::TensorMapDescriptorType tensorMap(int64_t rows, int64_t cols) const {
    return nvgpu::TensorMapDescriptorType::get(
        p.a.getContext(), sharedTile(rows, cols),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }

  /// A shared-memory view of `type` at byte `offset` of the dynamic shared
  /// memory.
  Value view(OpBuilder &b, Value offset, MemRefType type) {
    return memref::ViewOp::create(b, loc, type, smem, offset, ValueRange{});
  }
  Value stageOffset(OpBuilder &b, Value stage) {
    return add(b, tilesStart, mulC(b, stage, kStageBytes));
  }
  /// Thread 0 loads K tile `kt` into stage kt % kStages.
  void issueTile(OpBuilder &b, Value kt);
  /// The four m64n128k16 MMAs of one K tile, waited for.
  Value multiplyTile(OpBuilder &b, Value aOffset, Value acc);
  void epilogue(OpBuilder &b, Value acc, Value sumSquares);

  const GPUGemmProblem &p;
  Value mapA, mapW;
  // Kernel values.
  Value smem, tilesStart, barriers, tid, isFirst, m0, n0;
  /// The dynamic shared memory's address (i64), for the MMA descriptors.
  Value sharedAddress;
  Type accType;
};

void WarpgroupGemmEmitter::issueTile(OpBuilder &b, Value kt) {
  scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &tb, Location) {
    Value stage = remC(tb, kt, kStages);
    Value offset = stageOffset(tb, stage);
    Value k0 = mulC(tb, kt, kBK);
    nvgpu::MBarrierArriveExpectTxOp::create(tb, loc, barriers,
                                            index(tb, kStageBytes), stage,
                                            /*predicate=*/Value());
    // TMA coordinates are innermost first: (column, row).
    nvgpu::TmaAsyncLoadOp::create(
        tb, loc, view(tb, offset, sharedTile(kBM, kBK)), barriers, mapA,
        ValueRange{k0, m0}, stage, Value(), Value());
    Value wOffset = add(tb, offset, index(tb, kTileABytes));
    if (p.transposeW) {
      nvgpu::TmaAsyncLoadOp::create(
          tb, loc, view(tb, wOffset, sharedTile(kBN, kBK)), barriers, mapW,
          ValueRange{k0, n0}, stage, Value(), Value());
    } else {
      for (int64_t slab = 0; slab < kBN / 64; ++slab)
        nvgpu::TmaAsyncLoadOp::create(
            tb, loc,
            view(tb, add(tb, wOffset, index(tb, slab * kSlabBytes)),
                 sharedTile(kBK, 64)),
            barriers, mapW, ValueRange{add(tb, n0, index(tb, slab * 64)), k0},
            stage, Value(), Value());
    }
    scf::YieldOp::create(tb, loc);
  });
}

Value WarpgroupGemmEmitter::multiplyTile(OpBuilder &b, Value aOffset,
                                         Value acc) {
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
  Value descA = descriptor(aOffset);
  Value descW = descriptor(add(b, aOffset, index(b, kTileABytes)));
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
        NVVM::MMAShapeAttr::get(b.getContext(), kBM, kBN, kMmaK), wgmmaType,
        wgmmaType, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        p.transposeW ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return acc;
}

void WarpgroupGemmEmitter::epilogue(OpBuilder &b, Value acc, Value sumSquares) {
  Value rowScale =
      view(b, index(b, kRowScaleOffset),
           MemRefType::get({kBM}, b.getF32Type(), MemRefLayoutAttrInterface(),
                           gpu::AddressSpaceAttr::get(
                               b.getContext(), gpu::AddressSpace::Workgroup)));
  if (isNorm()) {
    Value other = gpu::ShuffleOp::create(b, loc, sumSquares, 1,
                                         NVIDIATargetInfo::kWarpSize,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    // emitRowScale adds the pair's two sums (RMSNorm's two chains).
    Value meanShift;
    Value r = gpugemm::emitRowScale(b, loc, p, sumSquares, other, meanShift);
    Value isEven = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         remC(b, tid, 2), index(b, 0));
    scf::IfOp::create(b, loc, isEven, [&](OpBuilder &tb, Location) {
      memref::StoreOp::create(tb, loc, r, rowScale,
                              ValueRange{divC(tb, tid, 2)});
      scf::YieldOp::create(tb, loc);
    });
    gpu::BarrierOp::create(b, loc);
  }
  Value warp = divC(b, tid, NVIDIATargetInfo::kWarpSize),
        lane = remC(b, tid, NVIDIATargetInfo::kWarpSize);
  Value rowBase = add(b, mulC(b, warp, 16), divC(b, lane, 4));
  Value colBase = mulC(b, remC(b, lane, 4), 2);
  Value scales[2];
  for (int64_t h = 0; h < 2; ++h)
    scales[h] = isNorm() ? memref::LoadOp::create(
                               b, loc, rowScale,
                               ValueRange{add(b, rowBase, index(b, 8 * h))})
                               .getResult()
                         : Value();
  for (int64_t i = 0; i < kRegisters; ++i) {
    int64_t half = (i % 4) / 2;
    Value row = add(b, rowBase, index(b, 8 * half));
    Value col = add(b, colBase, index(b, 8 * (i / 4) + i % 2));
    Value gm = add(b, m0, row), gn = add(b, n0, col);
    Value inside =
        arith::AndIOp::create(b, loc, ult(b, gm, p.m), ult(b, gn, p.n));
    Value v = LLVM::ExtractValueOp::create(b, loc, acc, i);
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location) {
      Value out = v;
      if (scales[half])
        out = arith::MulFOp::create(tb, loc, scales[half], out);
      gpugemm::emitStoreOutput(tb, loc, p, out, gm, gn);
      scf::YieldOp::create(tb, loc);
    });
  }
}

void WarpgroupGemmEmitter::emit(OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  // Host: the TMA descriptors of A (64 × 64 boxes) and W.
  auto unranked = [&](Value mem) {
    return memref::CastOp::create(b, loc, UnrankedMemRefType::get(elem(), 0),
                                  mem)
        .getResult();
  };
  mapA = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, tensorMap(kBM, kBK), unranked(p.a),
      ValueRange{index(b, kBM), index(b, kBK)});
  mapW = p.transposeW ? nvgpu::TmaCreateDescriptorOp::create(
                            b, loc, tensorMap(kBN, kBK), unranked(p.w),
                            ValueRange{index(b, kBN), index(b, kBK)})
                      : nvgpu::TmaCreateDescriptorOp::create(
                            b, loc, tensorMap(kBK, 64), unranked(p.w),
                            ValueRange{index(b, kBK), index(b, 64)});

  Value one = index(b, 1);
  Value gridX = arith::CeilDivUIOp::create(b, loc, p.n, index(b, kBN));
  Value gridY = arith::CeilDivUIOp::create(b, loc, p.m, index(b, kBM));
  gpu::LaunchOp launch =
      gpugemm::createGemmLaunch(b, loc, gridX, gridY, one, one, kSharedBytes);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());

  tid = launch.getThreadIds().x;
  m0 = mulC(b, launch.getBlockIds().y, kBM);
  n0 = mulC(b, launch.getBlockIds().x, kBN);
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
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc,
      nvgpu::MBarrierGroupType::get(
          ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
          kStages));
  isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(b, 0));
  for (int64_t s = 0; s < kStages; ++s)
    nvgpu::MBarrierInitOp::create(b, loc, barriers, one, index(b, s), isFirst);
  // The inits must be visible to the TMA unit (the async proxy) that
  // completes the loads' transactions, not only to this block's threads:
  // fence.mbarrier_init, then the block barrier, as CUTLASS's sm_90
  // pipelines do (cutlass::arch::fence_barrier_init).
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);

  Value kTiles = arith::CeilDivUIOp::create(b, loc, p.k, index(b, kBK));
  scf::ForOp::create(b, loc, index(b, 0),
                     arith::MinUIOp::create(b, loc, kTiles, index(b, kStages)),
                     one, ValueRange{},
                     [&](OpBuilder &lb, Location, Value kt, ValueRange) {
                       issueTile(lb, kt);
                       scf::YieldOp::create(lb, loc);
                     });

  SmallVector<Type> registers(kRegisters, b.getF32Type());
  accType = LLVM::LLVMStructType::getLiteral(ctx, registers);
  Value zeroAcc = LLVM::ZeroOp::create(b, loc, accType);
  auto loop = scf::ForOp::create(
      b, loc, index(b, 0), kTiles, one, ValueRange{zeroAcc, f32(b, 0.0)},
      [&](OpBuilder &lb, Location, Value kt, ValueRange iter) {
        Value stage = remC(lb, kt, kStages);
        Value parity = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ne,
                                             remC(lb, divC(lb, kt, kStages), 2),
                                             index(lb, 0));
        nvgpu::MBarrierTryWaitParityOp::create(lb, loc, barriers, parity,
                                               index(lb, 10000000), stage);
        Value aOffset = stageOffset(lb, stage);
        Value sum = iter[1];
        if (isNorm()) {
          // Σx², and with γ or an offset the tile rewritten as round(x·γ').
          gpugemm::WarpgroupPrologue prologue(loc, p);
          sum = prologue.onTile(lb, view(lb, aOffset, sharedTile(kBM, kBK)),
                                tid, kt, sum);
          if (prologue.rewritesA())
            gpu::BarrierOp::create(lb, loc);
        }
        Value acc = multiplyTile(lb, aOffset, iter[0]);
        // Every thread is done with the stage before it is refilled.
        gpu::BarrierOp::create(lb, loc);
        Value next = add(lb, kt, index(lb, kStages));
        scf::IfOp::create(lb, loc, ult(lb, next, kTiles),
                          [&](OpBuilder &tb, Location) {
                            issueTile(tb, next);
                            scf::YieldOp::create(tb, loc);
                          });
        scf::YieldOp::create(lb, loc, ValueRange{acc, sum});
      });
  epilogue(b, loop.getResult(0), loop.getResult(1));
  gpu::TerminatorOp::create(b, loc);
}

} // namespace

bool mlir::norm::warpgroupGemmApplies(const GPUGemmProblem &p) {
  Type elem = p.elementType();
  if (!elem.isBF16() && !elem.isF16())
    return false;
  if (p.prologue != GemmPrologue::None)
    return gpugemm::WarpgroupPrologue::supports(p);
  return p.normalizesA == GemmPrologue::None && !p.aResidual && !p.aSum;
}

void mlir::norm::emitGPUWarpgroupGemm(OpBuilder &b, Location loc,
                                      const GPUGemmProblem &problem) {
  WarpgroupGemmEmitter(loc, problem).emit(b);
}
