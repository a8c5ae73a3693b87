//===- RowKernel.cpp - vector row kernels for the norm ops
//-----------------===//
//
// Writes the loops of one standalone norm over rows of n contiguous elements
// (rows `stride` elements apart in a strided view, e.g. a column slice of
// wider rows: the loads and stores index the 2-D view, so the strided rows
// get the same vector code as contiguous ones, with no copy):
//
//   for each row (scf.parallel above the parallel threshold, else scf.for):
//     statistics sweep(s): U independent vector accumulators per statistic
//       over the row in steps of U·L elements, summed in blocks whose sums
//       are added with Kahan compensation (see reduceRow), then single
//       vectors, then one masked vector for the tail; the accumulators are
//       summed and reduced to a scalar in acc_type;
//     normalize sweep: y = s · rstd · (γ + offset) (+ β) (LayerNorm:
//       fma(fma(s − m, rstd, −c·rstd), γ, β)), rounded per
//       cast_mode; with streaming stores, a masked head brings the store
//       address to the vector's alignment and the body uses aligned
//       non-temporal stores, followed by an sfence. A quantized y
//       (DESIGN.md §8) is handed to QuantizedRow.cpp instead of stored.
//
// Only the first sweep reads x from memory; a row is a few to a few hundred
// KiB, so the later sweeps hit L1/L2.
//
// Numerics (DESIGN.md §4): every value is converted to acc_type before any
// arithmetic. A residual sum and, in before_weight mode, every intermediate
// after the cast is rounded to the element type (as extf(truncf(v))): acc_type
// has at least 2p+2 bits for every element type it is allowed with, so this
// equals the element-type arithmetic of the op's definition exactly.
// LayerNorm: mean m = Σs/n in one sweep; then d = s − m and the corrected
// two-pass variance Σd²/n − (Σd/n)² (the correction removes the first-order
// error of m), the true mean being m + Σd/n. With |mean| ≫ std the
// subtraction s − m is exact (Sterbenz), so nothing cancels catastrophically.
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"
#include "QuantizedRow.h"
#include "VectorArith.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

#include <optional>

using namespace mlir;
using namespace mlir::norm;

namespace {

using AccumulateFn = RowAccumulateFn;
using StoreFn = RowStoreFn;

/// Rows per thread task when rows are pipelined: only a task's first row
/// has a statistics sweep that does not overlap stores, so tasks are long,
/// but never so long that a few-row problem lands on one thread: a task
/// takes at most 1/kMinTasks of the rows.
constexpr int64_t kMaxRowsPerChunk = 64;
constexpr int64_t kMinTasks = 8;

/// The longest row (bytes of x) of a streamed problem that is pipelined on
/// a 512-bit target, for rows of 16-bit and of 32-bit x and y
/// (maxPipelinedRowBytes).
constexpr int64_t kMaxPipelinedRowBytes16 = 2048;
constexpr int64_t kMaxPipelinedRowBytes32 = 4096;

/// How far ahead (in bytes of rows) a pipelined sweep over strided rows
/// prefetches.
constexpr int64_t kStridedPrefetchBytes = 4096;

/// Bytes per element of a buffer (0 for an absent one).
int64_t bytesOf(Value mem) {
  if (!mem)
    return 0;
  return cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8;
}

} // namespace

/// The vectors have L lanes of acc_type, as many as fit the target's
/// vector registers. This is the width of the sweeps other kernels build
/// with (emitRowSums, emitRowSweep): their callbacks make vectors of it.
int64_t mlir::norm::registerLanes(const RowNormProblem &p,
                                  const NormVectorCodegenOptions &options) {
  FloatType acc = p.accType;
  return std::max<int64_t>(1, options.vectorBits / acc.getWidth());
}

/// Whether every row operand of `p` is bf16 (x, residual, γ, β, the
/// residual sum, and y unless it is quantized): the rows pair order needs
/// (an f32 γ would need a shuffle per load).
static bool rowOperandsBF16(const RowNormProblem &p) {
  for (Value mem :
       {p.x, p.residual, p.weight, p.bias, p.sum, p.quant ? Value() : p.y})
    if (mem && !cast<MemRefType>(mem.getType()).getElementType().isBF16())
      return false;
  return true;
}

/// Whether a quantized row kernel on a 512-bit target takes 32 lanes (two
/// zmm of f32) in bf16 pair order (docs/design.md, "bf16 rows in pair
/// order"): every row operand bf16, f32 accumulation, groups (of dynamic
/// per-group scales) of whole vectors, and no lane-order step (rotary
/// embedding) nor given statistics or channels. A load of 32 bf16 widens
/// by one vpslld and one vpandd where natural order takes vpmovzxwd +
/// vpslld per 16, and the encodings put the two halves' bytes back in
/// element order (QuantizedRow.cpp). Dynamic scales keep their row buffer
/// in the same pair layout, block by block of 32 (QuantizedRow.h).
static bool quantizedBF16Pairs(const RowNormProblem &p,
                               const NormVectorCodegenOptions &options) {
  return options.bf16PairOrder && options.vectorBits == 512 && p.quant &&
         p.quant->groupSize % 32 == 0 && p.accType.isF32() && !p.cos &&
         !p.channelLength && !p.givenSpread && rowOperandsBF16(p);
}

/// Whether a plain (unquantized) row kernel on a 512-bit target takes 32
/// lanes in pair order, as a quantized one does (quantizedBF16Pairs): every
/// row operand bf16, f32 accumulation, no rotary embedding, channels or
/// given statistics. Per 32 values x, γ (β) and the next row's x widen by
/// one vpslld and one vpandd where natural order takes vpmovzxwd + vpslld
/// per 16, and y (the residual sum) narrows by one vcvtne2ps2bf16 and one
/// vpermw on AVX512-BF16 (the integer rounding without it) into one 64-byte
/// store. The gradient kernels keep rowKernelLanes (emitRowNormKernel).
static bool plainBF16Pairs(const RowNormProblem &p,
                           const NormVectorCodegenOptions &options) {
  return options.bf16PairOrder && options.vectorBits == 512 && !p.quant &&
         p.accType.isF32() && !p.cos && !p.channelLength && !p.givenSpread &&
         rowOperandsBF16(p);
}

/// The width of a whole row kernel (emitRowNormKernel): on 256-bit targets,
/// rows of 16-bit elements take two registers' worth (16 f32 lanes). A load
/// of x is then one full register, the rounded halves of two f32 registers
/// pack into one with vpackusdw + vpermq (two shuffles per 16 values, where
/// 8 lanes take an extract and a pack per 8), and every statistic
/// accumulates in two independent chains. AVX-512 registers already hold 16
/// f32 lanes; there, a quantized y on bf16 rows takes two registers' worth
/// (32 lanes) in pair order (quantizedBF16Pairs).
/// GroupNorm's rows (per-channel γ) and rows with statistics given by the
/// GEMM keep the register width; the gradient kernels take this width too
/// (GradKernel.cpp).
int64_t mlir::norm::rowKernelLanes(const RowNormProblem &p,
                                   const NormVectorCodegenOptions &options) {
  int64_t lanes = registerLanes(p, options);
  if (lanes == 16 && quantizedBF16Pairs(p, options))
    return 2 * lanes;
  bool sixteenBitRows = p.elementType().getIntOrFloatBitWidth() == 16;
  if (options.vectorBits == 256 && lanes == 8 && sixteenBitRows &&
      !p.channelLength && !p.givenSpread)
    return 2 * lanes;
  return lanes;
}

namespace {

/// Whether a whole row kernel of `lanes` lanes keeps its bf16 vectors in
/// pair order (VectorArith.h; docs/design.md, "bf16 rows in pair order"):
/// 16 lanes on a 256-bit target without native bf16 rounding, with every
/// row operand bf16 and no step that depends on the lanes' order (the
/// rotary embedding's lane pairs, a quantized y's groups and row buffer);
/// or 32 lanes of a 512-bit target (quantizedBF16Pairs, plainBF16Pairs).
bool bf16PairOrder(const RowNormProblem &p,
                   const NormVectorCodegenOptions &options, int64_t lanes) {
  if (lanes == 32 &&
      (quantizedBF16Pairs(p, options) || plainBF16Pairs(p, options)))
    return true;
  return options.bf16PairOrder && options.vectorBits == 256 && lanes == 16 &&
         p.accType.isF32() && !options.nativeBF16Conversion && !p.quant &&
         !p.cos && !p.channelLength && !p.givenSpread && rowOperandsBF16(p);
}

class RowKernelEmitter : VectorArith {
public:
  RowKernelEmitter(Location loc, const RowNormProblem &p,
                   const NormVectorCodegenOptions &options, int64_t lanes,
                   bool pairOrder = false)
      : VectorArith(loc, lanes, p.accType, options.nativeBF16Conversion), p(p),
        options(options), pairOrder(pairOrder),
        registersPerVector(
            std::max<int64_t>(1, lanes / registerLanes(p, options))) {
    if (p.quant)
      quantized.emplace(loc, p, vectorLanes, options, pairOrder);
  }

  /// Everything: thread split, streaming decision, rows.
  void emit(OpBuilder &b);

  SmallVector<Value> reduceRow(OpBuilder &b, Value length, unsigned numStats,
                               AccumulateFn accumulate,
                               bool combineBlocks = false);
  void sweepRow(OpBuilder &b, Value length, Value head, bool nontemporal,
                StoreFn storeVector);
  /// sweepRow over row `row` of y (identity layout) with streaming stores
  /// after the alignment head.
  void streamRow(OpBuilder &b, Value row, StoreFn storeVector) {
    yAlignedBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, p.y);
    sweepRow(b, p.n, alignmentHead(b, row), /*nontemporal=*/true, storeVector);
  }

private:
  // Memory.
  void store(OpBuilder &b, Value v, Value mem, ValueRange indices,
             Value maskValue, bool nontemporal) {
    Value narrowed;
    if (!pairOrder)
      narrowed = narrow(b, v, elementTypeOf(mem));
    else if (nativePairRounding())
      narrowed = narrowBF16PairsNative(b, v);
    else
      narrowed = narrowBF16Pairs(b, v);
    writeVector(b, narrowed, mem, indices, maskValue, nontemporal,
                storeAlignment());
  }
  /// Whether pair-order bf16 rounds by vcvtne2ps2bf16: a plain kernel of
  /// 32 lanes on AVX512-BF16, rounding as natural order's vcvtneps2bf16
  /// does. The quantized kernels keep the integer rounding of the residual
  /// sum (it keeps subnormal sums, as the decomposition does).
  bool nativePairRounding() const {
    return pairOrder && nativeBF16Conversion && !p.quant && vectorLanes == 32;
  }
  /// Rounds lane for lane, as natural order's narrow does: on AVX512-BF16
  /// also for 32 lanes (roundThrough: the residual sum, the cast modes).
  Value narrow(OpBuilder &b, Value v, Type elementType) const override {
    auto type = dyn_cast<VectorType>(v.getType());
    if (nativePairRounding() && type && type.getNumElements() == 32 &&
        elementType.isBF16() && acc.isF32())
      return cvtNE2PSToBF16(b, v);
    return VectorArith::narrow(b, v, elementType);
  }
  /// loadAcc, in pair order when the kernel's vectors are.
  Value load(OpBuilder &b, Value mem, ValueRange indices,
             Value maskValue) const {
    if (!pairOrder)
      return loadAcc(b, mem, indices, maskValue);
    VectorType type = vecType(elementTypeOf(mem));
    Value bits =
        maskValue
            ? Value(vector::MaskedLoadOp::create(b, loc, type, mem, indices,
                                                 maskValue, zerosOf(b, type)))
            : Value(vector::LoadOp::create(b, loc, type, mem, indices));
    return widenBF16Pairs(b, bits);
  }
  /// A mask of the row's positions as the lanes of the kernel's vectors.
  Value laneMask(OpBuilder &b, Value maskValue) const {
    return pairOrder ? toPairOrder(b, maskValue) : maskValue;
  }
  /// The horizontal sum of a statistic vector as an explicit halving tree
  /// of its natural-order lanes (lane k + lane k + L/2, and so on), pair
  /// order going back to natural order first: both orders add the same
  /// lanes in the same order, the same sum bit for bit. Not a
  /// vector.reduction: its reassociation lets LLVM choose the tree (the
  /// halving one on x86 today, vhaddps's neighbouring pairs where a -mcpu
  /// favours it) and, of shuffled lanes, lets InstCombine drop the shuffle.
  /// Once a row: the tree LLVM expanded the reduction into on x86, less the
  /// add of its +0.0 start value, a no-op here (sums of accumulators that
  /// start at +0.0 are never -0.0).
  Value reduceLanes(OpBuilder &b, Value v) const {
    if (pairOrder)
      v = fromPairOrder(b, v);
    for (int64_t half = vectorLanes / 2; half >= 1; half /= 2) {
      SmallVector<int64_t> low, high;
      for (int64_t i = 0; i < half; ++i) {
        low.push_back(i);
        high.push_back(half + i);
      }
      v = arith::AddFOp::create(b, loc,
                                vector::ShuffleOp::create(b, loc, v, v, low),
                                vector::ShuffleOp::create(b, loc, v, v, high));
    }
    return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
  }
  int64_t storeAlignment() {
    return vectorLanes * (elementTypeOf(p.y).getIntOrFloatBitWidth() / 8);
  }

  /// s = x (+ residual, rounded to the element type) at row `row`, [j, j+L).
  Value input(OpBuilder &b, Value row, Value j, Value maskValue) {
    Value v = load(b, p.x, {row, j}, maskValue);
    if (!p.residual)
      return v;
    Value r = load(b, p.residual, {row, j}, maskValue);
    return roundThrough(b, arith::AddFOp::create(b, loc, v, r),
                        elementTypeOf(p.x));
  }

  Value reciprocalStd(OpBuilder &b, Value statistic);
  void emitRow(OpBuilder &b, Value row, Value stream);
  Value firstStatistic(OpBuilder &b, Value row);
  SmallVector<Value> firstStatisticStep(OpBuilder &nb, Value row, Value j,
                                        Value m, ValueRange accs);
  Value finishRow(OpBuilder &b, Value row, Value firstStat, Value stream,
                  Value accumulateRow);
  /// A normalize step in two stages, for a software-pipelined sweep
  /// (QuantizedRowWriter::pipelinesSweep): `compute` the value at [j, j + L)
  /// (loads, arithmetic), `finish` it (encode, store) one step later. Whole
  /// vectors only.
  struct PipelinedStep {
    function_ref<Value(OpBuilder &, Value j)> compute;
    function_ref<void(OpBuilder &, Value j, Value v, bool nontemporal)> finish;
  };
  Value sweepRowAccumulating(OpBuilder &b, Value length, Value head,
                             bool nontemporal, StoreFn storeVector,
                             AccumulateFn accumulate,
                             const PipelinedStep *pipelinedStep = nullptr);
  /// `accumulate` U-way unrolled over [from, to), a multiple of `step` =
  /// U·L: `init` holds U accumulators per statistic, statistic-major (the
  /// u-th of statistic s at s·U + u), the u-th taking the vector at j + u·L.
  scf::ForOp accumulateUnrolled(OpBuilder &b, Value from, Value to, Value step,
                                int64_t unroll, ValueRange init,
                                AccumulateFn accumulate);
  /// A block's sum `blockSum` added to the running `sum` with Kahan
  /// compensation `compensation`: the new sum and compensation.
  std::pair<Value, Value> kahanAdd(OpBuilder &b, Value sum, Value compensation,
                                   Value blockSum);
  void emitChunk(OpBuilder &b, Value firstRow, Value endRow, Value stream);
  /// The normalized value (before its rounding to y's type) at [j, j+L)
  /// of the row being normalized.
  using NormalizedFn = function_ref<Value(OpBuilder &, Value j, Value mask)>;
  void rotateRow(OpBuilder &b, Value row, NormalizedFn normalized);
  /// Row pipelining gathers the next row's first statistic during this
  /// row's normalize sweep: nothing to gather when the statistics are given,
  /// nor when the rotary embedding's sweep covers half a row a step. Long
  /// rows of 16-bit or 32-bit elements on 512-bit targets may still go
  /// unpipelined (maxPipelinedRowBytes).
  bool pipelined() const {
    return options.pipelineRows && !p.givenSpread && !p.cos &&
           (p.isLayerNorm || p.partial >= 1.0);
  }
  /// The longest row (bytes of x) that a streamed problem pipelines, or
  /// nullopt where rows are pipelined at every length. On a 512-bit target
  /// rows of 16-bit or 32-bit x and y (of one width, not quantized) are
  /// pipelined only in cache or up to kMaxPipelinedRowBytes16 (or 32) of x:
  /// longer rows of a streamed problem take a statistics sweep of their
  /// own, from memory, then the normalize sweep from cache with the next
  /// row prefetched (emitRow). The pipelined sweep reads this row, the next
  /// one and γ (β) at once, which for long rows no longer fits L1.
  /// Measured on the Zen 4 AVX-512 VM (docs/performance.md, issue 32),
  /// norm-run, 1 thread, two-sweep against pipelined: RMSNorm bf16 8192²
  /// 10.7–11.1 ms against 19.8–22.3, 16384×4096 11.6–12.8 against
  /// 15.3–23.5, LayerNorm bf16 8192² 16.3–16.5 against 23.8; not 4K
  /// aliasing (level with the buffers moved). Pipelining wins at 1024-wide
  /// bf16 rows (RMSNorm 32768×1024 5.0–5.1 against 7.5–10.2) and in cache
  /// (256×4096: 0.133 against 0.147), and is even at 2048 (RMSNorm
  /// 13.3–13.8 against 11.0–16.7). f32 (stop 54, min ms, pipelined against
  /// two sweeps, 1 / 2 threads): RMSNorm 16384×2048 10.9–12.2 / 7.1–9.2
  /// against 10.1–10.9 / 6.3–7.3, 8192×4096 13.6–14.3 / 7.5–10.3 against
  /// 11.2–11.8 / 7.4–7.9, LayerNorm 16384×2048 13.9 / 8.1–8.5 against
  /// 11.1–11.6 / 6.6–8.0, 8192×4096 17.0–17.7 / 8.7–9.3 against 14.1–14.6
  /// / 7.6–7.9; pipelining wins at 1024-wide rows (medians, 1 thread:
  /// RMSNorm 32768×1024 9.5–10.0 against 10.5–11.5, LayerNorm 12.2–13.5
  /// against 14.0–14.9) and, on 2 threads, at 4096×8192 (LayerNorm 9.1–10.2
  /// against 11.6–12.3; RMSNorm level). 256-bit targets keep pipelining.
  std::optional<int64_t> maxPipelinedRowBytes() const {
    if (!pipelined() || options.vectorBits != 512 || p.quant)
      return std::nullopt;
    unsigned width = p.elementType().getIntOrFloatBitWidth();
    if (elementTypeOf(p.y).getIntOrFloatBitWidth() != width)
      return std::nullopt;
    if (width == 16)
      return kMaxPipelinedRowBytes16;
    if (width == 32)
      return kMaxPipelinedRowBytes32;
    return std::nullopt;
  }
  bool limitsPipelinedRows() const {
    return maxPipelinedRowBytes().has_value();
  }
  /// Independent accumulators of sweepRowAccumulating: reduceRow's U for
  /// register-wide vectors; one for vectors of two registers (16-bit rows
  /// on AVX2), which are two chains already and leave fewer registers.
  int64_t accumulatingChains() const {
    if (registersPerVector > 1)
      return 1;
    return std::max<int64_t>(1, options.accumulators);
  }
  Value alignmentHead(OpBuilder &b, Value row);
  void emitStoreFence(OpBuilder &b);
  /// y at [j, j + L) of `row`: rounded and stored, or quantized.
  void storeY(OpBuilder &b, Value row, Value j, Value v, Value maskValue,
              bool nontemporal) {
    if (quantized)
      return quantized->storeY(b, row, j, v, maskValue, nontemporal);
    store(b, v, p.y, {row, j}, maskValue, nontemporal);
  }

  const RowNormProblem &p;
  const NormVectorCodegenOptions &options;
  /// Writes a quantized y (set when p.quant is).
  std::optional<QuantizedRowWriter> quantized;
  Value yAlignedBase; // the aligned pointer of y, as an index
  // A strided y's offset from that pointer and row stride, in elements
  // (null for an identity layout).
  Value yOffset, yRowStride;
  /// bf16 vectors in pair order (bf16PairOrder).
  bool pairOrder;
  /// Target registers a vector of L lanes takes: 2 for 16-bit rows on a
  /// 256-bit target (rowKernelLanes), else 1.
  int64_t registersPerVector;
};

/// Sums `numStats` row statistics. Accuracy does not degrade with n: the row
/// is cut into blocks of `kBlockIterations` steps of U·L elements; each block
/// is summed with plain FMAs into fresh accumulators (at most 16 terms per
/// lane), and the block sums are added with Kahan compensation. The cost is
/// four adds per block, not per element. The elements after the last whole
/// block (fewer than a block) are summed plainly: U accumulators, then single
/// vectors, then a masked tail. With `combineBlocks`, each statistic's U
/// block accumulators are added (a tree) before the Kahan step: one running
/// sum and compensation per statistic instead of U. LayerNorm's Σd, Σd²
/// sweep otherwise keeps 3·2·U vectors live at a block's end (24 with U =
/// 4) and spilled 8 of them per block on AVX2's 16 registers; a block's
/// U·16 terms per lane are then summed plainly before the compensation.
SmallVector<Value> RowKernelEmitter::reduceRow(OpBuilder &b, Value length,
                                               unsigned numStats,
                                               AccumulateFn accumulate,
                                               bool combineBlocks) {
  constexpr int64_t kBlockIterations = 16;
  int64_t unroll = std::max<int64_t>(1, options.accumulators);
  Value zero = index(b, 0);
  Value wideStep = index(b, vectorLanes * unroll);
  Value blockStep = index(b, vectorLanes * unroll * kBlockIterations);
  Value step = index(b, vectorLanes);
  auto roundDown = [&](Value v, Value multiple) -> Value {
    return arith::SubIOp::create(b, loc, v,
                                 arith::RemUIOp::create(b, loc, v, multiple));
  };
  Value blockEnd = roundDown(length, blockStep);
  Value wideEnd = roundDown(length, wideStep);
  Value vectorEnd = roundDown(length, step);
  size_t numAccs = numStats * unroll;

  // `unroll` fresh accumulators per statistic over [from, to).
  auto wideLoop = [&](OpBuilder &lb, Value from, Value to) {
    return accumulateUnrolled(lb, from, to, wideStep, unroll,
                              SmallVector<Value>(numAccs, zeros(lb)),
                              accumulate);
  };

  // Whole blocks: iter args are `numSums` running sums, then as many Kahan
  // compensations: one per accumulator, or one per statistic when the
  // block's accumulators are added first (combineBlocks).
  bool combine = combineBlocks && unroll > 1;
  int64_t sumsPerStat = combine ? 1 : unroll;
  size_t numSums = numStats * sumsPerStat;
  SmallVector<Value> blockInit(2 * numSums, zeros(b));
  auto blocks = scf::ForOp::create(
      b, loc, zero, blockEnd, blockStep, blockInit,
      [&](OpBuilder &nb, Location, Value jb, ValueRange iterArgs) {
        Value blockLimit = arith::AddIOp::create(nb, loc, jb, blockStep);
        auto block = wideLoop(nb, jb, blockLimit);
        SmallVector<Value> blockSums;
        for (unsigned s = 0; s < numStats; ++s) {
          ValueRange accs = block.getResults().slice(s * unroll, unroll);
          if (combine)
            blockSums.push_back(sumTree(nb, SmallVector<Value>(accs)));
          else
            blockSums.append(accs.begin(), accs.end());
        }
        SmallVector<Value> next;
        SmallVector<Value> compensations;
        for (size_t i = 0; i < numSums; ++i) {
          auto [sum, compensation] =
              kahanAdd(nb, iterArgs[i], iterArgs[numSums + i], blockSums[i]);
          next.push_back(sum);
          compensations.push_back(compensation);
        }
        next.append(compensations);
        scf::YieldOp::create(nb, loc, next);
      });

  // The rest of the row, plainly.
  auto rest = wideLoop(b, blockEnd, wideEnd);
  SmallVector<Value> combined;
  for (unsigned s = 0; s < numStats; ++s) {
    auto blockSum = [&](int64_t k) -> Value {
      size_t i = s * sumsPerStat + k;
      return arith::SubFOp::create(b, loc, blocks.getResult(i),
                                   blocks.getResult(numSums + i));
    };
    SmallVector<Value> parts;
    for (int64_t u = 0; u < unroll; ++u) {
      Value restPart = rest.getResult(s * unroll + u);
      parts.push_back(combine ? restPart
                              : Value(arith::AddFOp::create(b, loc, blockSum(u),
                                                            restPart)));
    }
    Value total = sumTree(b, parts);
    if (combine)
      total = arith::AddFOp::create(b, loc, blockSum(0), total);
    combined.push_back(total);
  }

  auto single = scf::ForOp::create(
      b, loc, wideEnd, vectorEnd, step, combined,
      [&](OpBuilder &nb, Location, Value j, ValueRange iterArgs) {
        scf::YieldOp::create(nb, loc, accumulate(nb, j, Value(), iterArgs));
      });
  Value remainder = arith::SubIOp::create(b, loc, length, vectorEnd);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, remainder, zero);
  auto tail = scf::IfOp::create(
      b, loc, hasTail,
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc,
                             accumulate(nb, vectorEnd, mask(nb, remainder),
                                        single.getResults()));
      },
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc, single.getResults());
      });

  SmallVector<Value> sums;
  for (Value v : tail.getResults())
    sums.push_back(reduceLanes(b, v));
  return sums;
}

scf::ForOp RowKernelEmitter::accumulateUnrolled(OpBuilder &b, Value from,
                                                Value to, Value step,
                                                int64_t unroll, ValueRange init,
                                                AccumulateFn accumulate) {
  size_t numStats = init.size() / unroll;
  return scf::ForOp::create(
      b, loc, from, to, step, init,
      [&](OpBuilder &nb, Location, Value j, ValueRange iterArgs) {
        SmallVector<Value> next(iterArgs.begin(), iterArgs.end());
        for (int64_t u = 0; u < unroll; ++u) {
          SmallVector<Value> accs;
          for (size_t s = 0; s < numStats; ++s)
            accs.push_back(next[s * unroll + u]);
          Value ju = u == 0 ? j
                            : Value(arith::AddIOp::create(
                                  nb, loc, j, index(nb, u * vectorLanes)));
          SmallVector<Value> updated = accumulate(nb, ju, Value(), accs);
          for (size_t s = 0; s < numStats; ++s)
            next[s * unroll + u] = updated[s];
        }
        scf::YieldOp::create(nb, loc, next);
      });
}

std::pair<Value, Value> RowKernelEmitter::kahanAdd(OpBuilder &b, Value sum,
                                                   Value compensation,
                                                   Value blockSum) {
  Value y = arith::SubFOp::create(b, loc, blockSum, compensation);
  Value t = arith::AddFOp::create(b, loc, sum, y);
  Value nextCompensation =
      arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, t, sum), y);
  return {t, nextCompensation};
}

void RowKernelEmitter::sweepRow(OpBuilder &b, Value length, Value head,
                                bool nontemporal, StoreFn storeVector) {
  Value zero = index(b, 0);
  Value step = index(b, vectorLanes);
  if (head) {
    Value hasHead =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, head, zero);
    scf::IfOp::create(b, loc, hasHead, [&](OpBuilder &nb, Location) {
      storeVector(nb, zero, mask(nb, head), /*nontemporal=*/false);
      scf::YieldOp::create(nb, loc);
    });
  } else {
    head = zero;
  }
  Value bodyLength = arith::SubIOp::create(b, loc, length, head);
  Value bodyEnd = arith::SubIOp::create(
      b, loc, length, arith::RemUIOp::create(b, loc, bodyLength, step));
  scf::ForOp::create(b, loc, head, bodyEnd, step, ValueRange{},
                     [&](OpBuilder &nb, Location, Value j, ValueRange) {
                       storeVector(nb, j, Value(), nontemporal);
                       scf::YieldOp::create(nb, loc);
                     });
  Value remainder = arith::SubIOp::create(b, loc, length, bodyEnd);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, remainder, zero);
  scf::IfOp::create(b, loc, hasTail, [&](OpBuilder &nb, Location) {
    storeVector(nb, bodyEnd, mask(nb, remainder), /*nontemporal=*/false);
    scf::YieldOp::create(nb, loc);
  });
}

Value RowKernelEmitter::reciprocalStd(OpBuilder &b, Value statistic) {
  return createReciprocalStd(b, loc, statistic, p.epsMode, p.epsilon);
}

/// Elements from the start of row `row` of y to the first address aligned
/// for a vector store (at most n).
Value RowKernelEmitter::alignmentHead(OpBuilder &b, Value row) {
  int64_t elementBytes = elementTypeOf(p.y).getIntOrFloatBitWidth() / 8;
  Value alignment = index(b, storeAlignment());
  // Elements from the aligned pointer: row · n in a contiguous y, offset +
  // row · stride in a strided view.
  Value rowElements = yRowStride
                          ? Value(arith::AddIOp::create(
                                b, loc, yOffset,
                                arith::MulIOp::create(b, loc, row, yRowStride)))
                          : Value(arith::MulIOp::create(b, loc, row, p.n));
  Value rowStart =
      arith::MulIOp::create(b, loc, rowElements, index(b, elementBytes));
  Value address = arith::AddIOp::create(b, loc, yAlignedBase, rowStart);
  Value misalignment = arith::RemUIOp::create(b, loc, address, alignment);
  Value gapBytes = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, alignment, misalignment),
      alignment);
  Value gap = arith::DivUIOp::create(b, loc, gapBytes, index(b, elementBytes));
  return arith::MinUIOp::create(b, loc, gap, p.n);
}

/// The sfence after streamed rows (emitStreamingStoreFence).
void RowKernelEmitter::emitStoreFence(OpBuilder &b) {
  emitStreamingStoreFence(b, loc, options);
}

/// The part of a row's first statistics sweep done per vector: Σs² for
/// RMSNorm, Σs for LayerNorm (whose Σd, Σd² sweep needs the mean first).
SmallVector<Value> RowKernelEmitter::firstStatisticStep(OpBuilder &nb,
                                                        Value row, Value j,
                                                        Value m,
                                                        ValueRange accs) {
  Value s = input(nb, row, j, m);
  if (p.isLayerNorm)
    return {arith::AddFOp::create(nb, loc, accs[0], s)};
  return {vector::FMAOp::create(nb, loc, s, s, accs[0])};
}

/// The first statistic of `row` from its own sweep (over the first k
/// elements for pRMSNorm).
Value RowKernelEmitter::firstStatistic(OpBuilder &b, Value row) {
  return reduceRow(b, emitStatisticLength(b, loc, p), 1,
                   [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
                     return firstStatisticStep(nb, row, j, m, accs);
                   })[0];
}

/// Non-pipelined rows: the first statistic, then the rest.
void RowKernelEmitter::emitRow(OpBuilder &b, Value row, Value stream) {
  if (quantized)
    quantized->allocateRowBuffer(b);
  finishRow(b, row, p.givenSpread ? Value() : firstStatistic(b, row), stream,
            Value());
  if (quantized)
    quantized->releaseRowBuffer(b);
}

/// Everything after the first statistic: the remaining statistics, the
/// stats outputs and the normalize sweep. With `accumulateRow`, the
/// normalize sweep also accumulates that row's first statistic (reading it
/// from memory while this row's stores stream out) and returns it.
Value RowKernelEmitter::finishRow(OpBuilder &b, Value row, Value firstStat,
                                  Value stream, Value accumulateRow) {
  Type elementType = elementTypeOf(p.x);

  // Statistics.
  Value shift, shiftVec, correction, rstd;
  auto given = [&](Value perRow) {
    return memref::LoadOp::create(b, loc, perRow, ValueRange{row}).getResult();
  };
  if (p.givenSpread) {
    rstd = reciprocalStd(b, given(p.givenSpread));
    if (p.isLayerNorm) {
      shift = given(p.givenShift);
      shiftVec = splat(b, shift);
      correction = given(p.givenCorrection);
      if (p.mean)
        memref::StoreOp::create(
            b, loc, arith::AddFOp::create(b, loc, shift, correction), p.mean,
            ValueRange{row});
    }
  } else if (!p.isLayerNorm) {
    Value count = emitStatisticLength(b, loc, p);
    Value countAsAcc = indexToAcc(b, count);
    rstd =
        reciprocalStd(b, arith::DivFOp::create(b, loc, firstStat, countAsAcc));
  } else {
    Value nAsAcc = indexToAcc(b, p.n);
    shift = arith::DivFOp::create(b, loc, firstStat, nAsAcc);
    shiftVec = splat(b, shift);
    SmallVector<Value> moments = reduceRow(
        b, p.n, 2,
        [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
          Value d =
              arith::SubFOp::create(nb, loc, input(nb, row, j, m), shiftVec);
          if (m)
            d = arith::SelectOp::create(nb, loc, laneMask(nb, m), d, zeros(nb));
          return SmallVector<Value>{
              arith::AddFOp::create(nb, loc, accs[0], d),
              vector::FMAOp::create(nb, loc, d, d, accs[1])};
        },
        /*combineBlocks=*/true);
    rstd =
        reciprocalStd(b, emitCorrectedVariance(b, loc, moments[0], moments[1],
                                               nAsAcc, correction));
    if (p.mean)
      memref::StoreOp::create(b, loc,
                              arith::AddFOp::create(b, loc, shift, correction),
                              p.mean, ValueRange{row});
  }
  if (p.rstd)
    memref::StoreOp::create(b, loc, rstd, p.rstd, ValueRange{row});

  // The normalize sweep.
  Value rstdVec = splat(b, rstd);
  Value negScaledCorrectionVec =
      correction
          ? splat(b,
                  arith::NegFOp::create(
                      b, loc, arith::MulFOp::create(b, loc, correction, rstd)))
          : Value();
  bool scaled = p.weight || p.weightOffset != 0.0;
  bool roundEarly = p.castMode == CastMode::before_weight;
  // Prefetch into L2 while this row is normalized from cache: without row
  // pipelining, the next row's input; with it, only for a strided x (a
  // column slice of wider rows), a row beyond the one being accumulated
  // (streamed strided rows are not pipelined, see emit: this prefetch
  // remains for a pipelined sweep without a streaming decision).
  // Each strided row starts a new DRAM stream, which the hardware
  // prefetchers pick up only after a few misses, while contiguous rows
  // continue the previous row's (measured: 88-94% of the contiguous GB/s
  // without, 92-113% with). Only where the rows stream (the problem is
  // larger than the last-level cache, emitStreamingChoice): in cache the
  // prefetches find their lines there and only cost issue slots (split
  // QKV 16x4096 on the AVX2 VM: 79-83% of the contiguous rows' speed with
  // them, 97-103% without). Without a streaming decision
  // (streaming-threshold=-1) they are always emitted.
  Value prefetchRow;
  Value prefetchAfter = row;
  if (accumulateRow)
    prefetchAfter = hasIdentityLayout(p.x) ? Value() : accumulateRow;
  if (prefetchAfter && options.prefetchNextRow) {
    Value lastRow = arith::SubIOp::create(b, loc, p.rows, index(b, 1));
    // Short strided rows: far enough ahead (at least kStridedPrefetchBytes
    // of rows) for the prefetches to land before the sweep reaches them.
    Value distance = index(b, 1);
    if (accumulateRow) {
      Value rowBytes =
          arith::MulIOp::create(b, loc, p.n, index(b, bytesOf(p.x)));
      distance = arith::CeilDivUIOp::create(
          b, loc, index(b, kStridedPrefetchBytes), rowBytes);
    }
    prefetchRow = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, prefetchAfter, distance),
        lastRow);
  }
  // `prefetch`: whether this branch's sweep prefetches (the caller of
  // `sweep` decides, as it decides `nontemporal`).
  auto normalized = [&](OpBuilder &nb, Value j, Value m, bool prefetch) {
    if (prefetchRow && prefetch && !m)
      for (Value input : {p.x, p.residual})
        if (input)
          memref::PrefetchOp::create(nb, loc, input, ValueRange{prefetchRow, j},
                                     /*isWrite=*/false, /*localityHint=*/2,
                                     /*isDataCache=*/true);
    Value s = input(nb, row, j, m);
    if (p.sum)
      store(nb, s, p.sum, {row, j}, m, /*nontemporal=*/false);
    // LayerNorm: (d − c)·rstd as fma(d, rstd, −c·rstd), d = s − m exact
    // where it matters (|mean| ≫ std, Sterbenz) and c·rstd a small term:
    // one subtraction fewer, one rounding fewer.
    Value v = p.isLayerNorm
                  ? Value(vector::FMAOp::create(
                        nb, loc, arith::SubFOp::create(nb, loc, s, shiftVec),
                        rstdVec, negScaledCorrectionVec))
                  : Value(arith::MulFOp::create(nb, loc, s, rstdVec));
    // before_weight: the normalized value rounds to x's type, the weight
    // step to γ's (x's or wider: f32 γ with bf16 x rounds nothing here; a
    // quantized y's weight step is not rounded, NormNumerics::weightType).
    if (roundEarly)
      v = roundThrough(nb, v, elementType);
    auto round = [&](Value x) {
      return roundEarly ? roundThrough(nb, x, p.weightType) : x;
    };
    Value factor;
    if (scaled) {
      factor =
          p.weight ? load(nb, p.weight, {j}, m) : splat(nb, accConst(nb, 1.0));
      if (p.weightOffset != 0.0)
        factor = round(arith::AddFOp::create(
            nb, loc, factor, splat(nb, accConst(nb, p.weightOffset))));
    }
    // The weight and bias step: y = v·γ + β in one FMA where nothing rounds
    // between the two; before_weight rounds the product to γ's type, then
    // the sum (unless y's store rounds it to the same type).
    bool fused = factor && p.bias && !roundEarly;
    if (factor && !fused)
      v = round(arith::MulFOp::create(nb, loc, v, factor));
    if (p.bias) {
      Value beta = load(nb, p.bias, {j}, m);
      v = fused ? Value(vector::FMAOp::create(nb, loc, v, factor, beta))
                : Value(arith::AddFOp::create(nb, loc, v, beta));
      if (p.weightType != elementTypeOf(p.y))
        v = round(v);
    }
    return v;
  };
  if (p.cos) {
    rotateRow(b, row, [&](OpBuilder &nb, Value j, Value m) {
      return normalized(nb, j, m, /*prefetch=*/true);
    });
    return Value();
  }

  auto nextStep = [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
    return firstStatisticStep(nb, accumulateRow, j, m, accs);
  };
  auto sweep = [&](OpBuilder &nb, Value head, bool nontemporal,
                   bool prefetch) -> Value {
    auto normalize = [&](OpBuilder &sb, Value j, Value m, bool storeNT) {
      storeY(sb, row, j, normalized(sb, j, m, prefetch), m, storeNT);
    };
    // Dynamic scales: y goes to the row buffer (ordinary stores, no head),
    // then q is written with this row's head and stores.
    bool buffered = quantized && quantized->buffersRows();
    Value normalizeHead = buffered ? Value() : head;
    bool normalizeNontemporal = !buffered && nontemporal;
    // A static fp8 scale on vectors of two registers (16-bit rows on AVX2,
    // bf16 pair order on AVX-512; one chain) pipelines the quantization
    // (QuantizedRow.h; docs/performance.md).
    auto compute = [&](OpBuilder &sb, Value j) {
      return quantized->scaleY(sb, normalized(sb, j, Value(), prefetch));
    };
    auto finish = [&](OpBuilder &sb, Value j, Value t, bool storeNT) {
      quantized->storeScaledY(sb, row, j, t, storeNT);
    };
    PipelinedStep step{compute, finish};
    bool pipelineStep =
        quantized && quantized->pipelinesSweep() && accumulatingChains() == 1;
    Value result;
    if (accumulateRow)
      result = sweepRowAccumulating(nb, p.n, normalizeHead,
                                    normalizeNontemporal, normalize, nextStep,
                                    pipelineStep ? &step : nullptr);
    else
      sweepRow(nb, p.n, normalizeHead, normalizeNontemporal, normalize);
    if (buffered)
      quantized->emitDynamicRow(
          nb, row, [&](OpBuilder &sb, Value length, StoreFn storeVector) {
            if (!quantized->buffersInPairs() || !head) {
              sweepRow(sb, length, head, nontemporal, storeVector);
              return;
            }
            // A row buffer in pair layout is read in its blocks of L, so
            // the stores start at the segment's start, with no head: they
            // stream where the row's start is aligned (head 0, as in rows
            // whose bytes are a multiple of L), else are plain stores.
            Value aligned = arith::CmpIOp::create(
                sb, loc, arith::CmpIPredicate::eq, head, index(sb, 0));
            scf::IfOp::create(
                sb, loc, aligned,
                [&](OpBuilder &ib, Location) {
                  sweepRow(ib, length, Value(), /*nontemporal=*/true,
                           storeVector);
                  scf::YieldOp::create(ib, loc);
                },
                [&](OpBuilder &ib, Location) {
                  sweepRow(ib, length, Value(), /*nontemporal=*/false,
                           storeVector);
                  scf::YieldOp::create(ib, loc);
                });
          });
    return result;
  };
  auto yieldResult = [&](OpBuilder &nb, Value result) {
    scf::YieldOp::create(nb, loc, result ? ValueRange{result} : ValueRange{});
  };

  // A pipelined sweep prefetches only in the streamed branch (see above).
  if (!stream)
    return sweep(b, Value(), /*nontemporal=*/false, /*prefetch=*/true);
  auto streamed = scf::IfOp::create(
      b, loc, stream,
      [&](OpBuilder &nb, Location) {
        yieldResult(nb, sweep(nb, alignmentHead(nb, row), /*nontemporal=*/true,
                              /*prefetch=*/true));
      },
      [&](OpBuilder &nb, Location) {
        yieldResult(nb, sweep(nb, Value(), /*nontemporal=*/false,
                              /*prefetch=*/!accumulateRow));
      });
  return accumulateRow ? streamed.getResult(0) : Value();
}

/// The normalize sweep with the rotary embedding, while the row is in cache:
/// rotate_half computes the normalized values at j and j + D/2 in one step
/// (a sweep over the first half) and stores both rotated; interleaved swaps
/// each vector's lane pairs with a shuffle (L is even, and so is every j:
/// no alignment head). y_d = v_d · cos_d + sign_d · v_p(d) · sin_d, in the
/// accumulation type, rounded once as it is stored. With `rope_rounding =
/// each_step` v, each product and the sum round to y's type (through it and
/// back, in acc lanes: the correctly rounded narrow operations).
void RowKernelEmitter::rotateRow(OpBuilder &b, Value row,
                                 NormalizedFn rawNormalized) {
  Type yType = elementTypeOf(p.y);
  auto step = [&](OpBuilder &nb, Value v) {
    return p.ropeEachStep ? roundThrough(nb, v, yType) : v;
  };
  auto normalized = [&](OpBuilder &nb, Value j, Value m) {
    return step(nb, rawNormalized(nb, j, m));
  };
  Value wholeRow =
      p.ropeFirstRow ? arith::AddIOp::create(b, loc, row, p.ropeFirstRow) : row;
  Value angleRow = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, wholeRow, p.ropeInnerRows),
      memref::DimOp::create(b, loc, p.cos, 0));
  auto angle = [&](OpBuilder &nb, Value table, Value j, Value m) {
    return loadAcc(nb, table, {angleRow, j}, m);
  };
  // The products are the rotation's steps (a negation is exact, so the
  // sign may come before or after the rounding).
  auto mul = [&](OpBuilder &nb, Value a, Value c) -> Value {
    return step(nb, arith::MulFOp::create(nb, loc, a, c));
  };
  if (!p.ropeInterleaved) {
    Value half = arith::DivUIOp::create(b, loc, p.n, index(b, 2));
    sweepRow(b, half, Value(), /*nontemporal=*/false,
             [&](OpBuilder &nb, Value j, Value m, bool) {
               Value k = arith::AddIOp::create(nb, loc, j, half);
               Value lo = normalized(nb, j, m), hi = normalized(nb, k, m);
               Value yLo =
                   step(nb, arith::SubFOp::create(
                                nb, loc, mul(nb, lo, angle(nb, p.cos, j, m)),
                                mul(nb, hi, angle(nb, p.sin, j, m))));
               Value yHi =
                   step(nb, arith::AddFOp::create(
                                nb, loc, mul(nb, hi, angle(nb, p.cos, k, m)),
                                mul(nb, lo, angle(nb, p.sin, k, m))));
               store(nb, yLo, p.y, {row, j}, m, /*nontemporal=*/false);
               store(nb, yHi, p.y, {row, k}, m, /*nontemporal=*/false);
             });
    return;
  }
  SmallVector<int64_t> swapPairs;
  SmallVector<Attribute> signs;
  for (int64_t lane = 0; lane < vectorLanes; ++lane) {
    swapPairs.push_back(lane ^ 1);
    signs.push_back(b.getFloatAttr(acc, lane % 2 == 0 ? -1.0 : 1.0));
  }
  Value sign = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vecType(acc), signs));
  sweepRow(b, p.n, Value(), /*nontemporal=*/false,
           [&](OpBuilder &nb, Value j, Value m, bool) {
             Value v = normalized(nb, j, m);
             Value partner =
                 vector::ShuffleOp::create(nb, loc, v, v, swapPairs);
             Value term = mul(nb, arith::MulFOp::create(nb, loc, partner, sign),
                              angle(nb, p.sin, j, m));
             Value y = step(
                 nb, arith::AddFOp::create(
                         nb, loc, mul(nb, v, angle(nb, p.cos, j, m)), term));
             store(nb, y, p.y, {row, j}, m, /*nontemporal=*/false);
           });
}

/// The normalize sweep of sweepRow that also runs `accumulate` (one
/// statistic) over the same positions of another row, with the same
/// blocked, Kahan-compensated summation as reduceRow; returns the sum.
/// The sum runs in `chains` independent accumulators, as reduceRow's U:
/// with one, its additions' latency (3 cycles on Zen 3, an FMA's 4 for
/// RMSNorm's Σs²) bounded the whole sweep, which otherwise issues a vector
/// in about 2 cycles.
Value RowKernelEmitter::sweepRowAccumulating(
    OpBuilder &b, Value length, Value head, bool nontemporal,
    StoreFn storeVector, AccumulateFn accumulate,
    const PipelinedStep *pipelinedStep) {
  constexpr int64_t kBlockVectors = 64;
  int64_t chains = accumulatingChains();
  Value zero = index(b, 0);
  Value step = index(b, vectorLanes);
  Value wideStep = index(b, vectorLanes * chains);
  Value blockSpan = index(b, vectorLanes * chains *
                                 std::max<int64_t>(1, kBlockVectors / chains));
  Value headAcc = zeros(b);
  // The `count` elements at `start` (none when `count` is 0) as one masked
  // vector: stored, and accumulated onto `accs` (built in each branch).
  auto maskedPart = [&](Value start, Value count,
                        function_ref<SmallVector<Value>(OpBuilder &)> accs) {
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count, zero);
    auto part = scf::IfOp::create(
        b, loc, any,
        [&](OpBuilder &nb, Location) {
          Value m = mask(nb, count);
          storeVector(nb, start, m, /*nontemporal=*/false);
          scf::YieldOp::create(nb, loc, accumulate(nb, start, m, accs(nb)));
        },
        [&](OpBuilder &nb, Location) {
          scf::YieldOp::create(nb, loc, accs(nb));
        });
    return part.getResult(0);
  };
  if (head) {
    headAcc = maskedPart(zero, head, [&](OpBuilder &nb) {
      return SmallVector<Value>{zeros(nb)};
    });
  } else {
    head = zero;
  }
  auto roundDown = [&](Value end, Value multiple) -> Value {
    Value span = arith::SubIOp::create(b, loc, end, head);
    return arith::SubIOp::create(
        b, loc, end, arith::RemUIOp::create(b, loc, span, multiple));
  };
  Value bodyEnd = roundDown(length, step);
  Value wideEnd = roundDown(bodyEnd, wideStep);
  Value blockEnd = roundDown(wideEnd, blockSpan);

  // A whole vector (no mask): stored, and accumulated.
  auto vectorStep = [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
    storeVector(nb, j, m, nontemporal);
    return accumulate(nb, j, m, accs);
  };
  // With a pipelinedStep (one chain): step j's value is finished while
  // step j + L's is computed, over [from, to), not empty.
  auto pipelinedLoop = [&](OpBuilder &lb, Value from, Value to,
                           Value init) -> Value {
    Value last = arith::SubIOp::create(lb, loc, to, step);
    auto loop = scf::ForOp::create(
        lb, loc, from, last, step,
        ValueRange{init, pipelinedStep->compute(lb, from)},
        [&](OpBuilder &nb, Location, Value j, ValueRange iterArgs) {
          Value next = pipelinedStep->compute(
              nb, arith::AddIOp::create(nb, loc, j, step));
          pipelinedStep->finish(nb, j, iterArgs[1], nontemporal);
          Value acc = accumulate(nb, j, Value(), ValueRange{iterArgs[0]})[0];
          scf::YieldOp::create(nb, loc, ValueRange{acc, next});
        });
    pipelinedStep->finish(lb, last, loop.getResult(1), nontemporal);
    return accumulate(lb, last, Value(), ValueRange{loop.getResult(0)})[0];
  };
  // `chains` accumulators over [from, to), a multiple of chains·L.
  auto wideLoop = [&](OpBuilder &lb, Value from, Value to, ValueRange init,
                      bool nonEmpty) -> SmallVector<Value> {
    if (pipelinedStep && nonEmpty)
      return {pipelinedLoop(lb, from, to, init[0])};
    if (pipelinedStep) {
      Value any =
          arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult, from, to);
      auto guarded = scf::IfOp::create(
          lb, loc, any,
          [&](OpBuilder &nb, Location) {
            scf::YieldOp::create(nb, loc, pipelinedLoop(nb, from, to, init[0]));
          },
          [&](OpBuilder &nb, Location) {
            scf::YieldOp::create(nb, loc, init[0]);
          });
      return {guarded.getResult(0)};
    }
    return SmallVector<Value>(
        accumulateUnrolled(lb, from, to, wideStep, chains, init, vectorStep)
            .getResults());
  };
  auto blocks = scf::ForOp::create(
      b, loc, head, blockEnd, blockSpan, ValueRange{zeros(b), zeros(b)},
      [&](OpBuilder &nb, Location, Value jb, ValueRange iterArgs) {
        Value limit = arith::AddIOp::create(nb, loc, jb, blockSpan);
        Value blockTotal = sumTree(
            nb, wideLoop(nb, jb, limit, SmallVector<Value>(chains, zeros(nb)),
                         /*nonEmpty=*/true));
        auto [sum, compensation] =
            kahanAdd(nb, iterArgs[0], iterArgs[1], blockTotal);
        scf::YieldOp::create(nb, loc, ValueRange{sum, compensation});
      });
  SmallVector<Value> restInit(chains, zeros(b));
  restInit[0] = headAcc;
  SmallVector<Value> rest =
      wideLoop(b, blockEnd, wideEnd, restInit, /*nonEmpty=*/false);
  auto single = scf::ForOp::create(
      b, loc, wideEnd, bodyEnd, step, ValueRange{sumTree(b, rest)},
      [&](OpBuilder &nb, Location, Value j, ValueRange accs) {
        scf::YieldOp::create(nb, loc, vectorStep(nb, j, Value(), accs));
      });
  Value remainder = arith::SubIOp::create(b, loc, length, bodyEnd);
  Value tail = maskedPart(bodyEnd, remainder, [&](OpBuilder &) {
    return SmallVector<Value>(single.getResults());
  });
  Value blockSum =
      arith::SubFOp::create(b, loc, blocks.getResult(0), blocks.getResult(1));
  Value total = arith::AddFOp::create(b, loc, blockSum, tail);
  return reduceLanes(b, total);
}

/// Rows [firstRow, endRow) with the statistics of row r+1 gathered during
/// the normalize sweep of row r: DRAM reads of the next row overlap the
/// (streaming) stores of this one, as in a copy. Only the chunk's first row
/// has a sweep of its own. The last row accumulates itself again (a cache
/// hit, result unused) rather than branching.
void RowKernelEmitter::emitChunk(OpBuilder &b, Value firstRow, Value endRow,
                                 Value stream) {
  if (quantized)
    quantized->allocateRowBuffer(b);
  Value first = firstStatistic(b, firstRow);
  Value lastRow = arith::SubIOp::create(b, loc, endRow, index(b, 1));
  scf::ForOp::create(
      b, loc, firstRow, endRow, index(b, 1), ValueRange{first},
      [&](OpBuilder &nb, Location, Value row, ValueRange iterArgs) {
        Value next = arith::MinUIOp::create(
            nb, loc, arith::AddIOp::create(nb, loc, row, index(nb, 1)),
            lastRow);
        Value nextFirst = finishRow(nb, row, iterArgs[0], stream, next);
        scf::YieldOp::create(nb, loc, nextFirst);
      });
  if (quantized)
    quantized->releaseRowBuffer(b);
}

void RowKernelEmitter::emit(OpBuilder &b) {
  if (quantized)
    quantized->emitPrologue(b);
  Value elements = arith::MulIOp::create(b, loc, p.rows, p.n);
  auto bytes = [&](int64_t perElement) {
    return arith::MulIOp::create(b, loc, elements, index(b, perElement));
  };

  // The rotary embedding's sweep stores two places a step: plain stores.
  Value stream;
  if (options.streamingThresholdBytes >= 0 && !p.cos) {
    // A quantized y streams when the unquantized one (x's type) would: it
    // has fewer bytes, but the rows' x traffic evicts it from the cache
    // alike.
    int64_t yBytes = p.quant ? bytesOf(p.x) : bytesOf(p.y);
    stream = emitStreamingChoice(b, loc, options, elements, yBytes);
    yAlignedBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, p.y);
    if (!hasIdentityLayout(p.y))
      std::tie(yOffset, yRowStride) = rowViewOffsetAndStride(b, loc, p.y);
  }

  Value zero = index(b, 0);
  Value one = index(b, 1);
  // Whether rows are pipelined, when that depends on their length or on
  // the streaming decision (null otherwise: pipelined() decides). Strided
  // rows (a column slice of wider rows) of a streamed problem are not
  // pipelined: the two-sweep row with the next row prefetched (emitRow)
  // reads them faster. Measured on the Zen 4 AVX-512 VM, norm-run, 1
  // thread, RMSNorm f32 32768 rows of 512 of 576 (bench/cpu, MLA kv_a):
  // 3.86-3.92 ms against 4.83-4.85 pipelined (contiguous rows, pipelined:
  // 3.77-3.84); the pipelined sweep's prefetches alone cost 7-10% on
  // contiguous memory (row stride 512 as a strided view: 4.11-4.23 ms).
  Value pipelineRows;
  bool stridedRows = !hasIdentityLayout(p.x);
  if (stream && pipelined() && (stridedRows || limitsPipelinedRows())) {
    Value shortRows;
    if (!stridedRows)
      shortRows = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ule,
          arith::MulIOp::create(b, loc, p.n, index(b, bytesOf(p.x))),
          index(b, *maxPipelinedRowBytes()));
    Value inCache = arith::XOrIOp::create(
        b, loc, stream, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    pipelineRows =
        shortRows ? arith::OrIOp::create(b, loc, inCache, shortRows) : inCache;
  }
  // `pipelinedBody` where rows are pipelined, else `rowBody`.
  auto choose = [&](OpBuilder &nb,
                    function_ref<void(OpBuilder &)> pipelinedBody,
                    function_ref<void(OpBuilder &)> rowBody) {
    if (!pipelined())
      return rowBody(nb);
    if (!pipelineRows)
      return pipelinedBody(nb);
    scf::IfOp::create(
        nb, loc, pipelineRows,
        [&](OpBuilder &ib, Location) {
          pipelinedBody(ib);
          scf::YieldOp::create(ib, loc);
        },
        [&](OpBuilder &ib, Location) {
          rowBody(ib);
          scf::YieldOp::create(ib, loc);
        });
  };
  auto serialRows = [&](OpBuilder &nb, Location) {
    choose(
        nb,
        [&](OpBuilder &cb) {
          // One chunk of all rows; an empty op must not read row 0.
          Value any = arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::ugt,
                                            p.rows, zero);
          scf::IfOp::create(cb, loc, any, [&](OpBuilder &ib, Location) {
            emitChunk(ib, zero, p.rows, stream);
            scf::YieldOp::create(ib, loc);
          });
        },
        [&](OpBuilder &cb) {
          scf::ForOp::create(
              cb, loc, zero, p.rows, one, ValueRange{},
              [&](OpBuilder &lb, Location, Value row, ValueRange) {
                emitRow(lb, row, stream);
                scf::YieldOp::create(lb, loc);
              });
        });
  };
  // Threads take chunks of rows (pipelined within a chunk) or single rows.
  auto parallelRows = [&](OpBuilder &nb, Location) {
    Value taskRows = one;
    Value tasks = p.rows;
    if (pipelined()) {
      taskRows = arith::MaxUIOp::create(
          nb, loc, one,
          arith::MinUIOp::create(nb, loc, index(nb, kMaxRowsPerChunk),
                                 arith::CeilDivUIOp::create(
                                     nb, loc, p.rows, index(nb, kMinTasks))));
      if (pipelineRows)
        taskRows =
            arith::SelectOp::create(nb, loc, pipelineRows, taskRows, one);
      tasks = arith::CeilDivUIOp::create(nb, loc, p.rows, taskRows);
    }
    scf::ParallelOp::create(
        nb, loc, ValueRange{zero}, ValueRange{tasks}, ValueRange{one},
        [&](OpBuilder &pb, Location, ValueRange ivs) {
          choose(
              pb,
              [&](OpBuilder &cb) {
                Value firstRow =
                    arith::MulIOp::create(cb, loc, ivs[0], taskRows);
                Value endRow = arith::MinUIOp::create(
                    cb, loc, arith::AddIOp::create(cb, loc, firstRow, taskRows),
                    p.rows);
                emitChunk(cb, firstRow, endRow, stream);
              },
              [&](OpBuilder &cb) { emitRow(cb, ivs[0], stream); });
        });
  };
  if (options.parallelThresholdBytes < 0) {
    serialRows(b, loc);
    if (stream)
      emitStoreFence(b);
    return;
  }

  int64_t touched =
      bytesOf(p.x) + bytesOf(p.residual) + bytesOf(p.y) + bytesOf(p.sum);
  Value bigEnough =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bytes(touched),
                            index(b, options.parallelThresholdBytes));
  Value severalRows =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, p.rows, one);
  Value parallel = arith::AndIOp::create(b, loc, bigEnough, severalRows);
  scf::IfOp::create(
      b, loc, parallel,
      [&](OpBuilder &nb, Location) {
        parallelRows(nb, loc);
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        serialRows(nb, loc);
        scf::YieldOp::create(nb, loc);
      });
  if (stream)
    emitStoreFence(b);
}

} // namespace

void mlir::norm::emitRowNormKernel(RewriterBase &rewriter, Location loc,
                                   const RowNormProblem &problem,
                                   const NormVectorCodegenOptions &options) {
  // Plain bf16 rows on 512-bit targets take 32 lanes here, not in
  // rowKernelLanes: the gradient kernels share that width and keep 16.
  int64_t lanes = rowKernelLanes(problem, options);
  if (lanes == 16 && options.vectorBits == 512 &&
      plainBF16Pairs(problem, options))
    lanes = 32;
  RowKernelEmitter(loc, problem, options, lanes,
                   bf16PairOrder(problem, options, lanes))
      .emit(rewriter);
}

/// The lanes a caller of the sweeps asked for (0: the register width).
static int64_t sweepLanes(const RowNormProblem &problem,
                          const NormVectorCodegenOptions &options,
                          int64_t lanes) {
  return lanes > 0 ? lanes : registerLanes(problem, options);
}

SmallVector<Value> mlir::norm::emitRowSums(
    OpBuilder &b, Location loc, const RowNormProblem &problem,
    const NormVectorCodegenOptions &options, Value length, unsigned numStats,
    RowAccumulateFn accumulate, int64_t lanes) {
  return RowKernelEmitter(loc, problem, options,
                          sweepLanes(problem, options, lanes))
      .reduceRow(b, length, numStats, accumulate);
}

void mlir::norm::emitRowSweep(OpBuilder &b, Location loc,
                              const RowNormProblem &problem,
                              const NormVectorCodegenOptions &options,
                              Value length, RowStoreFn store, int64_t lanes) {
  RowKernelEmitter(loc, problem, options, sweepLanes(problem, options, lanes))
      .sweepRow(b, length, Value(), /*nontemporal=*/false, store);
}

Value mlir::norm::emitStreamingChoice(OpBuilder &b, Location loc,
                                      const NormVectorCodegenOptions &options,
                                      Value elements, int64_t elementBytes) {
  if (options.streamingThresholdBytes < 0)
    return Value();
  Value bytes = arith::MulIOp::create(
      b, loc, elements, arith::ConstantIndexOp::create(b, loc, elementBytes));
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, bytes,
      arith::ConstantIndexOp::create(b, loc, options.streamingThresholdBytes));
}

void mlir::norm::emitStreamingRowSweep(OpBuilder &b, Location loc,
                                       const RowNormProblem &problem,
                                       const NormVectorCodegenOptions &options,
                                       Value row, RowStoreFn store,
                                       int64_t lanes) {
  RowKernelEmitter(loc, problem, options, sweepLanes(problem, options, lanes))
      .streamRow(b, row, store);
}

/// Non-temporal stores are weakly ordered; the kernel ends with an sfence so
/// that later stores of this thread cannot overtake them. Worker threads need
/// none of their own: the lock-prefixed atomics of the OpenMP join barrier
/// drain their write-combining buffers (Intel SDM vol. 3, §11.3.1). The
/// fence stays out of the parallel body on purpose: an op with unknown
/// effects there keeps scf-to-openmp's alloca_scope alive.
void mlir::norm::emitStreamingStoreFence(
    OpBuilder &b, Location loc, const NormVectorCodegenOptions &options) {
  if (!options.emitStoreFence)
    return;
  LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.x86.sse.sfence"),
                                ValueRange{});
}
