//===- NormToGPU.cpp - norm ops to GPU row kernels ------------------------===//
//
// The patterns of --convert-norm-to-gpu and the pass itself. A memref-form
// standalone norm is viewed as rows of n contiguous elements (evenly spaced
// rows of a strided view keep their row stride) and replaced by host code
// that picks a kernel shape and launches it (GPURowKernel.cpp):
//
//   - the thread count per row: a warp for short rows, up to 16 warps for
//     mid-sized rows (the fewest that keep the row in registers), a whole
//     block for rows of at least `block-row-threshold` elements;
//   - the access width: 16-byte vectors when n is a multiple of the vector
//     length and every row of every row buffer is 16-byte aligned (the
//     aligned pointer; a strided view's offset and row stride too), tested
//     on the host at run time, with a scalar kernel as the fallback;
//   - dynamic row counts size the grid at run time; a dynamic row length
//     chooses between the warp and the block kernel at run time.
//
// A memref-form fused norm/matmul op on bf16/f16 becomes a tensor-core GEMM
// (Gemm/): the host launches the cp.async kernel when K and N are
// multiples of 8 and every buffer is 16-byte aligned, the kernel with
// guarded element loads otherwise. A norm → matmul op with a residual adds
// it to the A tiles in the GEMM and writes S from the first column of
// blocks. A matmul → norm op writes its pre-norm sum from the GEMM and
// normalizes it with the row kernel.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/Passes.h"
#include "norm/Conversion/Utils/LinalgGemm.h"
#include "norm/Conversion/Utils/LoweringPattern.h"
#include "norm/Conversion/Utils/PassOptionText.h"
#include "norm/Target/NVIDIATarget.h"
#include "norm/Transforms/CheckLowered.h"
#include "norm/Transforms/GPU/GPUTransforms.h"

#include "GPURowKernel.h"
#include "Gemm/GPUGemm.h"
#include "TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOGPUPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

//===----------------------------------------------------------------------===//
// Kernel shapes
//===----------------------------------------------------------------------===//

/// Elements per 16-byte access.
int64_t maxVectorWidth(Type elementType) {
  return std::max<int64_t>(1, NVIDIATargetInfo::kMaxAccessBytes /
                                  (elementType.getIntOrFloatBitWidth() / 8));
}

/// The shape for threads per row `t` and access width `v`; holds the row in
/// registers when n is static and each thread's share fits the budget (its
/// chunks a whole number of groups, gpuRowChunksPerGroup).
GPURowKernelShape makeShape(const RowNormProblem &p, int64_t threadsPerRow,
                            int64_t vectorWidth,
                            const NormGPUCodegenOptions &options) {
  GPURowKernelShape shape;
  shape.threadsPerRow = threadsPerRow;
  shape.rowsPerBlock = std::max<int64_t>(
      1, NVIDIATargetInfo::kRowBlockThreads / threadsPerRow);
  shape.vectorWidth = vectorWidth;
  shape.smVersion = options.smVersion;
  if (std::optional<int64_t> staticN = p.staticRowLength()) {
    int64_t group = gpuRowChunksPerGroup(p, vectorWidth);
    int64_t chunks = group * llvm::divideCeilSigned(
                                 *staticN, threadsPerRow * vectorWidth * group);
    if (chunks * vectorWidth <= options.maxRegisterElements)
      shape.heldChunks = chunks;
  }
  return shape;
}

/// Threads per row for a static row length: a block for long rows, else the
/// fewest warps (a power of two) that keep the row in registers.
int64_t threadsPerRowFor(int64_t n, int64_t vectorWidth,
                         const NormGPUCodegenOptions &options) {
  if (n >= options.blockRowThreshold)
    return NVIDIATargetInfo::kBlockThreads;
  for (int64_t t = NVIDIATargetInfo::kWarpSize;
       t <= NVIDIATargetInfo::kBlockThreads; t *= 2)
    if (llvm::divideCeilSigned(n, t * vectorWidth) * vectorWidth <=
        options.maxRegisterElements)
      return t;
  return NVIDIATargetInfo::kBlockThreads;
}

/// Whether every row of every row buffer starts on a `vectorWidth`-element
/// boundary: its aligned pointer is a multiple of the vector's bytes and,
/// for a strided view, its offset and row stride are multiples of
/// `vectorWidth` elements.
Value buffersAligned(OpBuilder &b, Location loc, const RowNormProblem &p,
                     int64_t vectorWidth) {
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto requireMultiple = [&](Value v, int64_t m) {
    Value misalignment = arith::RemUIOp::create(
        b, loc, v, arith::ConstantIndexOp::create(b, loc, m));
    Value aligned = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, misalignment,
        arith::ConstantIndexOp::create(b, loc, 0));
    all = arith::AndIOp::create(b, loc, all, aligned);
  };
  for (Value mem :
       {p.x, p.residual, p.weight, p.bias, p.y, p.sum, p.cos, p.sin}) {
    if (!mem)
      continue;
    int64_t bytes =
        vectorWidth *
        (cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8);
    requireMultiple(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem),
                    bytes);
    if (hasIdentityLayout(mem))
      continue;
    auto [offset, rowStride] = rowViewOffsetAndStride(b, loc, mem);
    requireMultiple(offset, vectorWidth);
    if (cast<MemRefType>(mem.getType()).getRank() == 2)
      requireMultiple(rowStride, vectorWidth);
  }
  return all;
}

/// Emits `then` under `condition`, `otherwise` else (no results).
void emitIfElse(OpBuilder &b, Location loc, Value condition,
                function_ref<void(OpBuilder &)> then,
                function_ref<void(OpBuilder &)> otherwise) {
  scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &nb, Location) {
        then(nb);
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        otherwise(nb);
        scf::YieldOp::create(nb, loc);
      });
}

/// The vector kernel when the run-time checks allow it, else the scalar one.
/// `vectorOK` (may be null) is an extra condition, e.g. n % V == 0.
void emitVectorOrScalar(OpBuilder &b, Location loc, const RowNormProblem &p,
                        int64_t threadsPerRow, int64_t vectorWidth,
                        Value vectorOK, const NormGPUCodegenOptions &options) {
  GPURowKernelShape scalarShape = makeShape(p, threadsPerRow, 1, options);
  if (vectorWidth == 1) {
    emitGPURowKernel(b, loc, p, scalarShape);
    return;
  }
  GPURowKernelShape vectorShape =
      makeShape(p, threadsPerRow, vectorWidth, options);
  Value condition = buffersAligned(b, loc, p, vectorWidth);
  if (vectorOK)
    condition = arith::AndIOp::create(b, loc, condition, vectorOK);
  emitIfElse(
      b, loc, condition,
      [&](OpBuilder &nb) { emitGPURowKernel(nb, loc, p, vectorShape); },
      [&](OpBuilder &nb) { emitGPURowKernel(nb, loc, p, scalarShape); });
}

void emitDispatch(OpBuilder &b, Location loc, const RowNormProblem &p,
                  const NormGPUCodegenOptions &options) {
  int64_t widest = maxVectorWidth(p.elementType());
  if (std::optional<int64_t> staticN = p.staticRowLength()) {
    // rotate_half's halves start on a chunk.
    int64_t split = p.cos && !p.ropeInterleaved ? *staticN / 2 : *staticN;
    int64_t vectorWidth = widest;
    while (vectorWidth > 1 && split % vectorWidth != 0)
      vectorWidth /= 2;
    int64_t threads = threadsPerRowFor(*staticN, vectorWidth, options);
    emitVectorOrScalar(b, loc, p, threads, vectorWidth, Value(), options);
    return;
  }
  // Dynamic n: a warp below the block threshold, a block above; vectors when
  // n is a multiple of the vector length.
  Value isLong = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, p.n,
      arith::ConstantIndexOp::create(b, loc, options.blockRowThreshold));
  Value divisible = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, p.n,
                             arith::ConstantIndexOp::create(b, loc, widest)),
      arith::ConstantIndexOp::create(b, loc, 0));
  emitIfElse(
      b, loc, isLong,
      [&](OpBuilder &nb) {
        emitVectorOrScalar(nb, loc, p, NVIDIATargetInfo::kBlockThreads, widest,
                           divisible, options);
      },
      [&](OpBuilder &nb) {
        emitVectorOrScalar(nb, loc, p, NVIDIATargetInfo::kWarpSize, widest,
                           divisible, options);
      });
}

//===----------------------------------------------------------------------===//
// Patterns and pass
//===----------------------------------------------------------------------===//

/// A standalone norm: the row kernel's launch, skipped for zero rows (an
/// empty grid is not a valid launch).
template <typename OpTy>
void lowerNormToGPUKernel(OpTy op, PatternRewriter &rewriter,
                          const NormGPUCodegenOptions &options) {
  Location loc = op.getLoc();
  RowNormProblem problem = describeRowNorm(op, rewriter);
  Value hasRows = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ugt, problem.rows,
      arith::ConstantIndexOp::create(rewriter, loc, 0));
  scf::IfOp::create(rewriter, loc, hasRows, [&](OpBuilder &b, Location) {
    emitDispatch(b, loc, problem, options);
    scf::YieldOp::create(b, loc);
  });
}

/// Why the GPU row kernel does not take the standalone norm `op`: the row
/// views' reasons (the CPU row kernel's: their layouts, and rotary angles
/// that are not one run of position dims and broadcast ones).
std::string unsupportedGPURowReason(Operation *op) {
  return unsupportedRowOperandReason(op, /*quantizedOutputs=*/true);
}

template <typename OpTy>
LogicalResult checkGPURowKernel(OpTy op, PatternRewriter &rewriter,
                                const NormGPUCodegenOptions &) {
  std::string reason = unsupportedGPURowReason(op);
  if (reason.empty())
    return success();
  return rewriter.notifyMatchFailure(op, reason);
}

/// Whether the gradient kernels take `op` (GradProblem.h).
template <typename OpTy>
LogicalResult checkGradKernel(OpTy op, PatternRewriter &rewriter,
                              const NormGPUCodegenOptions &) {
  std::string reason = unsupportedGradKernelReason(op);
  if (reason.empty())
    return success();
  return rewriter.notifyMatchFailure(op, reason);
}

template <typename OpTy>
void lowerGradToGPUKernel(OpTy op, PatternRewriter &rewriter,
                          const NormGPUCodegenOptions &) {
  emitGPUGradKernel(rewriter, op.getLoc(), describeGrad(op, rewriter));
}

//===----------------------------------------------------------------------===//
// Fused norm/matmul ops: tensor-core GEMMs
//===----------------------------------------------------------------------===//

bool isFusedOp(Operation *op) {
  return isa<RMSNormMatmulOp, LayerNormMatmulOp, MatmulRMSNormOp,
             MatmulLayerNormOp>(op);
}

/// Whether every operand is a memref with the identity layout (the form the
/// kernels take; tensors and strided memrefs are left alone).
bool allIdentityMemrefs(Operation *op) {
  return llvm::all_of(op->getOperands(), hasIdentityLayout);
}

/// The operands the kernels read or write, by op kind (null when absent).
SmallVector<Value> readOperands(Operation *op) {
  if (auto o = dyn_cast<RMSNormMatmulOp>(op))
    return {o.getInput(),   o.getResidual(),   o.getWeight(),
            o.getRhs(),     o.getMatmulBias(), o.getInit(),
            o.getSumInit(), o.getRstdInit()};
  if (auto o = dyn_cast<LayerNormMatmulOp>(op))
    return {o.getInput(),    o.getResidual(),   o.getWeight(), o.getBias(),
            o.getRhs(),      o.getMatmulBias(), o.getInit(),   o.getSumInit(),
            o.getMeanInit(), o.getRstdInit()};
  if (auto o = dyn_cast<MatmulRMSNormOp>(op))
    return {o.getInput(),  o.getRhs(),  o.getMatmulBias(), o.getResidual(),
            o.getWeight(), o.getInit(), o.getSumInit(),    o.getRstdInit()};
  auto o = cast<MatmulLayerNormOp>(op);
  return {o.getInput(),    o.getRhs(),     o.getMatmulBias(), o.getResidual(),
          o.getWeight(),   o.getBias(),    o.getInit(),       o.getSumInit(),
          o.getMeanInit(), o.getRstdInit()};
}

FloatType accumulationTypeOf(Operation *op) {
  return TypeSwitch<Operation *, FloatType>(op)
      .Case<RMSNormMatmulOp, LayerNormMatmulOp, MatmulRMSNormOp,
            MatmulLayerNormOp>([](auto o) { return o.getAccumulationType(); })
      .Default([](Operation *) { return FloatType(); });
}

/// Whether `v` (an index value) is a multiple of `m`: a constant when `v`
/// is static, else a run-time test.
Value isMultipleOf(OpBuilder &b, Location loc, Value v, int64_t m) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return arith::ConstantIntOp::create(b, loc, *c % m == 0, 1);
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, v,
                             arith::ConstantIndexOp::create(b, loc, m)),
      arith::ConstantIndexOp::create(b, loc, 0));
}

/// K tiles a split-K slice runs at least: the two-stage pipeline needs a
/// few tiles to overlap copies with MMAs.
constexpr int64_t kMinTilesPerSlice = 8;

/// The number of K slices for a kernel of `blockM` × `blockN` blocks and K
/// tiles of `tileK`: enough for the output's blocks, times the slices, to
/// reach two blocks per SM, with at least kMinTilesPerSlice K tiles a
/// slice, at most `maxSplitK`; then ⌈tiles / T⌉ for T = ⌈tiles / that⌉, so
/// that no slice is left without a K tile (129 tiles over 16 slices of 9
/// would leave the last empty: 15). 1 for large outputs (4096 × 4096:
/// 2048 blocks of 64 × 128). With static M, N, K it folds to a constant,
/// and the canonicalizer keeps only one branch.
Value splitKFor(OpBuilder &b, Location loc, const GPUGemmProblem &p,
                const NormGPUCodegenOptions &options, int64_t blockM,
                int64_t blockN, int64_t tileK) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value blocks = arith::MulIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, p.n, index(blockN)),
      arith::CeilDivUIOp::create(b, loc, p.m, index(blockM)));
  Value wanted = arith::CeilDivUIOp::create(
      b, loc,
      index(2 * NVIDIATargetInfo::multiprocessors(options.smVersion)),
      blocks);
  Value tiles = arith::CeilDivUIOp::create(b, loc, p.k, index(tileK));
  Value byDepth = arith::DivUIOp::create(b, loc, tiles,
                                         index(kMinTilesPerSlice));
  Value splits = arith::MinUIOp::create(
      b, loc, arith::MinUIOp::create(b, loc, wanted, byDepth),
      index(options.maxSplitK));
  splits = arith::MaxUIOp::create(b, loc, splits, index(1));
  Value perSlice = arith::CeilDivUIOp::create(b, loc, tiles, splits);
  return arith::CeilDivUIOp::create(b, loc, tiles, perSlice);
}

/// The warpgroup kernel's schedule for `p`: the options', with a block of
/// 0 × 0 (the default) chosen here (a 0 beside a given size is 64 × 128's):
/// pipelined 128 × 256 when C is static and has at least one such block per
/// multiprocessor (on an H100, bf16 4096³: 262 µs against 434 µs at
/// 64 × 128), else 64 × 128, which spreads small outputs over more blocks
/// (16 × 4096 × 4096: 41 µs against 54 µs).
WarpgroupGemmSchedule
warpgroupScheduleFor(const GPUGemmProblem &p,
                     const NormGPUCodegenOptions &options) {
  WarpgroupGemmSchedule schedule = options.warpgroupSchedule;
  if (schedule.blockM != 0 || schedule.blockN != 0) {
    // One of them given: the other is the 64 × 128 block's.
    if (schedule.blockM == 0)
      schedule.blockM = 64;
    if (schedule.blockN == 0)
      schedule.blockN = 128;
    return schedule;
  }
  schedule.blockM = 64;
  schedule.blockN = 128;
  std::optional<std::pair<int64_t, int64_t>> mn = p.staticOutputShape();
  // LayerNorm's prologue (the pivot, two sums, the column sums) does not
  // fit the 128 × 256 block's 168 registers beside its 128 accumulators:
  // ptxas (CUDA 13.0) spills 36–184 bytes for the bench's static 4096³
  // kernel there, none at 64 × 128. Nor does a residual's (R's chunks, s,
  // S's stores): 144–284 bytes for RMSNorm's 4096³ kernel, 394 for
  // LayerNorm's. Both keep 64 × 128 unless asked.
  bool smallBlockPrologue =
      p.prologue == GemmPrologue::LayerNorm || p.aResidual;
  if (schedule.pipelined && mn && !smallBlockPrologue &&
      llvm::divideCeilSigned(mn->first, int64_t(128)) *
              llvm::divideCeilSigned(mn->second, int64_t(256)) >=
          NVIDIATargetInfo::multiprocessors(options.smVersion)) {
    schedule.blockM = 128;
    schedule.blockN = 256;
  }
  return schedule;
}

/// The unsplit kernel of a GEMM whose tiles can be copied 16 bytes at a
/// time: warpgroup MMA with TMA loads on sm_90a when the problem allows and
/// K > 0 (a TMA map of a 0-wide A is invalid: cuTensorMapEncodeTiled
/// refuses it, found on an H100), mma.sync with cp.async otherwise.
void emitUnsplitAsyncGemm(OpBuilder &b, Location loc, const GPUGemmProblem &p,
                          const NormGPUCodegenOptions &options) {
  if (!options.warpgroupMMA || !warpgroupGemmApplies(p)) {
    emitGPUFusedGemm(b, loc, p, /*asyncCopies=*/true);
    return;
  }
  WarpgroupGemmSchedule schedule = warpgroupScheduleFor(p, options);
  std::optional<int64_t> k = getConstantIntValue(p.k);
  if (k && *k > 0) {
    emitGPUWarpgroupGemm(b, loc, p, schedule);
    return;
  }
  Value kPositive =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, p.k,
                            arith::ConstantIndexOp::create(b, loc, 0));
  emitIfElse(
      b, loc, kPositive,
      [&](OpBuilder &nb) { emitGPUWarpgroupGemm(nb, loc, p, schedule); },
      [&](OpBuilder &nb) {
        emitGPUFusedGemm(nb, loc, p, /*asyncCopies=*/true);
      });
}

/// The cp.async or (sm_90a, warpgroupGemmApplies) the warpgroup kernel,
/// split over K when splitKFor says so: the slices' partials go to device
/// temporaries, which the reduction kernel turns into C; launches are
/// synchronous, so the temporaries are freed after it.
void emitAsyncGemm(OpBuilder &b, Location loc, const GPUGemmProblem &p,
                   const NormGPUCodegenOptions &options) {
  // The warpgroup kernel's slices count its blocks and K tiles of 64.
  bool warpgroup = options.warpgroupMMA && warpgroupGemmApplies(p);
  WarpgroupGemmSchedule schedule;
  int64_t blockM = GPUGemmTiles::kBlockM, blockN = GPUGemmTiles::kBlockN;
  int64_t tileK = GPUGemmTiles::blockK(p.elementType());
  if (warpgroup) {
    schedule = warpgroupScheduleFor(p, options);
    blockM = schedule.blockM;
    blockN = schedule.blockN;
    tileK = GPUGemmTiles::kWarpgroupBlockK;
  }
  // A static K too short for two slices: no split path at all (with a
  // dynamic M the slice count would not fold away).
  std::optional<int64_t> k = getConstantIntValue(p.k);
  // A normalized before the product (normalizesA): its row statistics are
  // a pass of their own in every block; the warpgroup kernel's slices each
  // make it (and the first slice saves them), the mma.sync kernel's are not
  // split.
  if (options.maxSplitK <= 1 ||
      (!warpgroup && p.normalizesA != GemmPrologue::None) ||
      (k && llvm::divideCeil(*k, tileK) / kMinTilesPerSlice < 2)) {
    emitUnsplitAsyncGemm(b, loc, p, options);
    return;
  }
  Value splits = splitKFor(b, loc, p, options, blockM, blockN, tileK);
  Value several = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt, splits,
      arith::ConstantIndexOp::create(b, loc, 1));
  emitIfElse(
      b, loc, several,
      [&](OpBuilder &tb) {
        // f32 [sizes...] (× `last` when non-zero), device memory.
        auto alloc = [&](ValueRange sizes, int64_t last) {
          SmallVector<int64_t> shape(sizes.size(), ShapedType::kDynamic);
          if (last)
            shape.push_back(last);
          return createDeviceAlloc(
              tb, loc, MemRefType::get(shape, tb.getF32Type()),
              SmallVector<Value>(sizes));
        };
        GPUSplitK split;
        split.splits = splits;
        split.accumulators = alloc({splits, p.m, p.n}, 0);
        // LayerNorm with its mean saved: the slices' pivot third.
        if (p.prologue != GemmPrologue::None)
          split.rowSums =
              alloc({splits, p.m},
                    p.prologue == GemmPrologue::LayerNorm && p.mean ? 3 : 2);
        if (p.prologue == GemmPrologue::LayerNorm)
          split.columnSums = alloc({splits, p.n}, 2);
        if (warpgroup)
          emitGPUWarpgroupGemm(tb, loc, p, schedule, &split);
        else
          emitGPUFusedGemm(tb, loc, p, /*asyncCopies=*/true, &split);
        emitGPUSplitKReduce(tb, loc, p, split);
        for (Value buffer :
             {split.accumulators, split.rowSums, split.columnSums})
          if (buffer)
            createDeviceDealloc(tb, loc, buffer);
      },
      [&](OpBuilder &eb) { emitUnsplitAsyncGemm(eb, loc, p, options); });
}

/// Launches the GEMM for M ≥ 1 and N ≥ 1 (or N = 0 when it writes S, the
/// residual sum of norm → matmul, or the saved statistics, which exist
/// whatever N is): the cp.async
/// kernel (split over K or not, emitAsyncGemm) when K and N are multiples
/// of a 16-byte chunk (8 bf16/f16, 4 f32), N > 0 and every buffer is
/// 16-byte aligned (tested on the host), the kernel with guarded element
/// loads otherwise.
void emitGemmDispatch(OpBuilder &b, Location loc, const GPUGemmProblem &p,
                      const NormGPUCodegenOptions &options) {
  auto isPositive = [&](OpBuilder &ib, Value v) -> Value {
    return arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::ugt, v,
                                 arith::ConstantIndexOp::create(ib, loc, 0));
  };
  Value nonEmpty = isPositive(b, p.m);
  if (!writesRowOutputs(p))
    nonEmpty = arith::AndIOp::create(b, loc, nonEmpty, isPositive(b, p.n));
  scf::IfOp::create(b, loc, nonEmpty, [&](OpBuilder &nb, Location) {
    std::optional<int64_t> k = getConstantIntValue(p.k);
    std::optional<int64_t> n = getConstantIntValue(p.n);
    const int64_t chunk = GPUGemmTiles::chunk(p.elementType());
    if ((k && *k % chunk) || (n && (*n % chunk || *n == 0))) {
      emitGPUFusedGemm(nb, loc, p, /*asyncCopies=*/false);
    } else {
      Value ok = arith::AndIOp::create(nb, loc, isMultipleOf(nb, loc, p.k, chunk),
                                       isMultipleOf(nb, loc, p.n, chunk));
      // N = 0 (only reached with S or statistics to write): the fallback
      // kernel, whose guarded loads touch nothing of the empty W.
      if (writesRowOutputs(p) && !n)
        ok = arith::AndIOp::create(nb, loc, ok, isPositive(nb, p.n));
      for (Value mem : {p.a, p.w, p.c, p.gamma, p.beta, p.matmulBias,
                        p.residual, p.aResidual, p.aSum}) {
        if (!mem)
          continue;
        Value address =
            memref::ExtractAlignedPointerAsIndexOp::create(nb, loc, mem);
        Value aligned = arith::CmpIOp::create(
            nb, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(nb, loc, address,
                                   arith::ConstantIndexOp::create(nb, loc, 16)),
            arith::ConstantIndexOp::create(nb, loc, 0));
        ok = arith::AndIOp::create(nb, loc, ok, aligned);
      }
      emitIfElse(
          nb, loc, ok,
          [&](OpBuilder &tb) { emitAsyncGemm(tb, loc, p, options); },
          [&](OpBuilder &eb) { emitGPUFusedGemm(eb, loc, p, false); });
    }
    scf::YieldOp::create(nb, loc);
  });
}

/// Whether the GPU GEMMs compute the fused op `op`: memrefs with identity
/// layouts, and what unsupportedFusedOpReason checks.
template <typename OpTy>
LogicalResult checkGemmLowerable(OpTy op, PatternRewriter &rewriter,
                                 const NormGPUCodegenOptions &options) {
  if (failed(matchIdentityMemrefs(op, rewriter)))
    return failure();
  std::string reason = unsupportedFusedOpReason(op, options);
  if (!reason.empty())
    return rewriter.notifyMatchFailure(op, reason);
  return success();
}

/// norm → matmul: one tensor-core GEMM on the raw rows (or on S = round(X +
/// R) with a residual, also written to sum_outs), the statistics from the
/// shared-memory A tiles, the scale in the epilogue.
template <typename OpTy>
void lowerNormMatmulToGPU(OpTy op, PatternRewriter &rewriter,
                          const NormGPUCodegenOptions &options) {
  GPUGemmProblem p = describeNormMatmulGemm(op, rewriter);
  emitGemmDispatch(rewriter, op.getLoc(), p, options);
}

/// matmul → norm: the GEMM's epilogue writes the pre-norm sum S = A·W +
/// bias + residual, rounded to the output's type (into sum_outs or a device
/// temporary), and a standalone norm op on S, lowered by the row kernel,
/// writes Y: Y is exactly the norm of the rounded S.
template <typename OpTy>
void lowerMatmulNormToGPU(OpTy op, PatternRewriter &rewriter,
                          const NormGPUCodegenOptions &options) {
  Location loc = op.getLoc();
  GPUGemmProblem p = describeMatmulNormGemm(op, rewriter);
  SmallVector<OpFoldResult> rowView{getAsOpFoldResult(p.m),
                                    getAsOpFoldResult(p.n)};
  // Device memory: only the kernels touch S. In the async form that
  // gpu-to-llvm lowers, completed on the host before the launches.
  Value temp = allocateSumIfAbsent(
      rewriter, loc, p, getElementTypeOrSelf(op.getInit()), rowView,
      [&](MemRefType type, ValueRange sizes) {
        return createDeviceAlloc(rewriter, loc, type, sizes);
      });
  emitGemmDispatch(rewriter, loc, p, options);
  createNormOfSum(rewriter, loc, op, p.c,
                  viewAs(rewriter, loc, op.getInit(), rowView));
  // After the norm's row kernel: the launches are synchronous (the host
  // waits for each kernel), so both kernels have finished with S.
  if (temp)
    createDeviceDealloc(rewriter, loc, temp);
}

/// Why the GEMM kernel cannot compute the linalg op `op` (not a matmul it
/// knows, a batch, the target), or an empty string when it can, with `gemm`
/// the matched form.
std::string unsupportedMatmulReason(linalg::LinalgOp op,
                                    const NormGPUCodegenOptions &options,
                                    std::optional<LinalgGemm> &gemm) {
  std::string whyNot;
  gemm = matchLinalgGemm(op, whyNot);
  if (!gemm)
    return whyNot;
  if (gemm->isBatched())
    return "batch matmuls do not take the GPU GEMM yet";
  if (options.smVersion < 80)
    return "the GEMM kernels need sm_80 or newer, the target is sm_" +
           std::to_string(options.smVersion);
  return "";
}

/// With `lower-matmuls`: a memref-form matmul (`linalg.matmul`, or the
/// `linalg.generic` that --linalg-generalize-named-ops makes of it) with an
/// f32 C and f32, bf16 or f16 A and W (W as K×N, or N×K through the indexing
/// maps `(m, k), (n, k), (m, n)`), as matchLinalgGemm recognizes it for the
/// CPU too, runs on the fused ops' GEMM kernel with no prologue, C += A·B as
/// linalg defines it (C is read as the kernel's residual and written back,
/// each element by the thread that read it). This is the project's own GEMM
/// alone, the baseline of the fused kernels.
struct LowerMatmulToGPUGemm : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LowerMatmulToGPUGemm(MLIRContext *context,
                       const NormGPUCodegenOptions &options)
      : OpInterfaceRewritePattern<linalg::LinalgOp>(context),
        options(options) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<LinalgGemm> gemm;
    std::string reason = unsupportedMatmulReason(op, options, gemm);
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    GPUGemmProblem p;
    p.a = gemm->a;
    p.w = gemm->w;
    p.c = gemm->c;
    p.transposeW = gemm->transposeW;
    p.m = memref::DimOp::create(rewriter, loc, p.a, 0);
    p.k = memref::DimOp::create(rewriter, loc, p.a, 1);
    p.n = memref::DimOp::create(rewriter, loc, p.c, 1);
    p.residual = p.c; // C += A·W
    emitGemmDispatch(rewriter, loc, p, options);
    rewriter.eraseOp(op);
    return success();
  }

  NormGPUCodegenOptions options;
};

struct ConvertNormToGPUPass
    : public norm::impl::ConvertNormToGPUPassBase<ConvertNormToGPUPass> {
  using Base::Base;

  /// The options as the pass holds them (the inverse of the generated
  /// constructor from the struct).
  ConvertNormToGPUPassOptions getOptions() const {
    ConvertNormToGPUPassOptions options;
    options.blockRowThreshold = blockRowThreshold;
    options.registerElements = registerElements;
    options.lowerMatmuls = lowerMatmuls;
    options.maxSplitK = maxSplitK;
    options.wgmmaPipeline = wgmmaPipeline;
    options.wgmmaBlockM = wgmmaBlockM;
    options.wgmmaBlockN = wgmmaBlockN;
    options.wgmmaScaleDZero = wgmmaScaleDZero;
    options.wgmmaVectorStore = wgmmaVectorStore;
    options.wgmmaConflictFreePrologue = wgmmaConflictFreePrologue;
    options.chip = chip;
    return options;
  }

  void runOnOperation() override {
    ConvertNormToGPUPassOptions options = getOptions();
    if (failed(verifyConvertNormToGPUPassOptions(
            options, [&](const Twine &message) {
              getOperation()->emitError() << "convert-norm-to-gpu: " << message;
            })))
      return signalPassFailure();
    NormGPUCodegenOptions codegen;
    codegen.maxSplitK = maxSplitK;
    codegen.lowerMatmuls = lowerMatmuls;
    codegen.blockRowThreshold = blockRowThreshold;
    codegen.maxRegisterElements = registerElements;
    NVIDIAChipName chipName = *parseNVIDIAChip(chip);
    codegen.smVersion = chipName.smVersion;
    codegen.warpgroupMMA = hasWarpgroupMMA(chipName);
    codegen.warpgroupSchedule.pipelined = wgmmaPipeline;
    codegen.warpgroupSchedule.blockM = wgmmaBlockM;
    codegen.warpgroupSchedule.blockN = wgmmaBlockN;
    codegen.warpgroupSchedule.scaleDZero = wgmmaScaleDZero;
    codegen.warpgroupSchedule.vectorStore = wgmmaVectorStore;
    codegen.warpgroupSchedule.conflictFreePrologue = wgmmaConflictFreePrologue;

    // A memref-form fused op the kernels cannot compute is an error at the
    // op, never left to compute something else.
    bool unsupported = false;
    SmallVector<Operation *> fusedOps;
    getOperation()->walk([&](Operation *op) {
      if (!isFusedOp(op) || !allIdentityMemrefs(op))
        return;
      std::string reason = unsupportedFusedOpReason(op, codegen);
      if (!reason.empty()) {
        op->emitOpError() << "cannot be lowered to a GPU kernel: " << reason;
        unsupported = true;
        return;
      }
      fusedOps.push_back(op);
    });
    if (unsupported)
      return signalPassFailure();
    // With lower-matmuls, a named matmul the GEMM cannot take is an error
    // at the op: nothing later in the GPU pipeline lowers host linalg ops.
    // Generics that are not matmuls are not this option's business.
    if (lowerMatmuls)
      getOperation()->walk([&](linalg::LinalgOp op) {
        std::optional<LinalgGemm> gemm;
        std::string reason = unsupportedMatmulReason(op, codegen, gemm);
        if (reason.empty()) {
          fusedOps.push_back(op);
        } else if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
                   op.hasPureBufferSemantics()) {
          op->emitOpError() << "cannot be lowered to the GPU GEMM "
                               "(lower-matmuls): "
                            << reason;
          unsupported = true;
        }
      });
    if (unsupported)
      return signalPassFailure();

    RewritePatternSet patternList(&getContext());
    populateNormToGPUConversionPatterns(patternList, codegen);
    FrozenRewritePatternSet patterns(std::move(patternList));
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.enableFolding(false);
    // The fused ops first: a matmul → norm op leaves a standalone norm op on
    // its pre-norm sum, lowered with the others below.
    if (failed(applyOpPatternsGreedily(fusedOps, patterns, config)))
      return signalPassFailure();
    SmallVector<Operation *> normOps;
    getOperation()->walk([&](Operation *op) {
      if (isa<RMSNormOp, LayerNormOp, GroupNormOp, RMSNormGradOp,
              LayerNormGradOp>(op))
        normOps.push_back(op);
    });
    if (failed(applyOpPatternsGreedily(normOps, patterns, config)))
      return signalPassFailure();
    // Every norm op on memrefs was promised a kernel: nothing else lowers
    // one in the GPU pipeline. Ops on tensors are left alone.
    if (failed(checkLowered(
            getOperation(), "convert-norm-to-gpu", [](Operation *op) {
              if (!isa_and_nonnull<NormDialect>(op->getDialect()) ||
                  llvm::any_of(op->getOperandTypes(),
                               llvm::IsaPred<TensorType>))
                return std::string();
              // The row kernel takes strided views with unit-stride,
              // evenly spaced rows; the GEMMs identity layouts only.
              std::string reason =
                  isa<RMSNormOp, LayerNormOp>(op) ? unsupportedGPURowReason(op)
                  : isa<RMSNormGradOp, LayerNormGradOp>(op)
                      ? unsupportedGradKernelReason(op)
                      : nonContiguousRowsReason(op, "the GPU GEMM kernels");
              return reason.empty() ? "no GPU kernel takes it" : reason;
            })))
      return signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateNormToGPUConversionPatterns(
    RewritePatternSet &patterns, const NormGPUCodegenOptions &options) {
  addNormLowering<RMSNormOp>(patterns, options, checkGPURowKernel,
                             lowerNormToGPUKernel);
  addNormLowering<LayerNormOp>(patterns, options, checkGPURowKernel,
                               lowerNormToGPUKernel);
  addNormLowering<RMSNormGradOp>(patterns, options, checkGradKernel,
                                 lowerGradToGPUKernel);
  addNormLowering<LayerNormGradOp>(patterns, options, checkGradKernel,
                                   lowerGradToGPUKernel);
  addNormLowering<GroupNormOp>(patterns, options, matchIdentityMemrefs,
                               lowerNormToGPUKernel);
  addNormLowering<RMSNormMatmulOp>(patterns, options, checkGemmLowerable,
                                   lowerNormMatmulToGPU);
  addNormLowering<LayerNormMatmulOp>(patterns, options, checkGemmLowerable,
                                     lowerNormMatmulToGPU);
  addNormLowering<MatmulRMSNormOp>(patterns, options, checkGemmLowerable,
                                   lowerMatmulNormToGPU);
  addNormLowering<MatmulLayerNormOp>(patterns, options, checkGemmLowerable,
                                     lowerMatmulNormToGPU);
  if (options.lowerMatmuls)
    patterns.add<LowerMatmulToGPUGemm>(patterns.getContext(), options);
}

std::string
mlir::norm::unsupportedFusedOpReason(Operation *op,
                                     const NormGPUCodegenOptions &options) {
  if (!isFusedOp(op))
    return "not a fused norm/matmul op";
  Type elementType = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!elementType.isBF16() && !elementType.isF16() && !elementType.isF32()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "the fused GEMM kernels take bf16 or f16 (tensor cores) or f32 "
          "(FMA units), got "
       << elementType;
    return s;
  }
  FloatType acc = accumulationTypeOf(op);
  if (!acc || !acc.isF32()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "the GPU GEMM kernels accumulate in f32, got acc_type " << acc;
    return s;
  }
  if (options.smVersion < 80)
    return "the fused GEMM needs sm_80 or newer (mma.sync m16n8k16 with "
           "bf16/f16, ldmatrix, cp.async), the target is sm_" +
           std::to_string(options.smVersion);
  if (auto fused = dyn_cast<MatmulRMSNormOp>(op); fused && fused.hasInputNorm())
    return "the GPU GEMM has no norm prologue with a norm epilogue "
           "('input_epsilon'; decompose the op)";
  if (auto fused = dyn_cast<MatmulRMSNormOp>(op); fused && fused.getCos())
    return "the GPU GEMM's per-head epilogue has no rotary embedding "
           "('rope'; decompose the op)";
  unsigned read = llvm::count_if(readOperands(op),
                                 [](Value v) { return static_cast<bool>(v); });
  if (read != op->getNumOperands())
    return "it has " + std::to_string(op->getNumOperands()) +
           " operands, of which the GPU kernel reads " + std::to_string(read) +
           " (an operand this lowering does not know)";
  return "";
}

LogicalResult mlir::norm::parseConvertNormToGPUPassOptions(
    StringRef text, ConvertNormToGPUPassOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  return parsePassOptionsInto<ConvertNormToGPUPass>(text, options,
                                                    errorHandler);
}

LogicalResult mlir::norm::verifyConvertNormToGPUPassOptions(
    const ConvertNormToGPUPassOptions &options,
    function_ref<void(const Twine &)> emitError) {
  PassOptionChecker checker(emitError);
  checker.check(options.blockRowThreshold >= 1,
                "block-row-threshold must be at least 1, got " +
                    Twine(options.blockRowThreshold));
  checker.checkRange(options.registerElements, 0, 128, "register-elements");
  checker.checkRange(options.maxSplitK, 1, 64, "max-split-k");
  checker.check(options.wgmmaBlockM == 0 || options.wgmmaBlockM == 64 ||
                    options.wgmmaBlockM == 128,
                "wgmma-block-m must be 0, 64 or 128, got " +
                    Twine(options.wgmmaBlockM));
  checker.check(options.wgmmaBlockN == 0 || options.wgmmaBlockN == 128 ||
                    options.wgmmaBlockN == 256,
                "wgmma-block-n must be 0, 128 or 256, got " +
                    Twine(options.wgmmaBlockN));
  checker.check(options.wgmmaPipeline ||
                    (options.wgmmaBlockM != 128 && options.wgmmaBlockN != 256),
                "a wgmma block other than 64 x 128 needs wgmma-pipeline=1");
  std::optional<NVIDIAChipName> chip = parseNVIDIAChip(options.chip);
  checker.check(chip && chip->smVersion != 0,
                "chip must be sm_NN (e.g. sm_80, sm_90a), got '" +
                    options.chip + "'");
  return checker.result();
}
