//===- GPURowKernelEmitter.h - the GPU row kernel's emitter -----*- C++ -*-===//
//
// Private to NormToGPU: the emitter of the GPU row kernel, shared by
// GPURowKernel.cpp (the launch, the statistics and the normalize sweep; the
// kernel's layout is described there) and GPURowKernelQuantized.cpp (the
// sweeps of a quantized y with a dynamic scale: the row's amax and the
// per-group steps).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNELEMITTER_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNELEMITTER_H

#include "GPUQuantizedRow.h"
#include "GPURowKernel.h"
#include "TargetInfo.h"

#include "norm/Conversion/Utils/ScalarArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace norm {
namespace gpurow {

/// One statistic update for one element: `chunkStart` is the element index
/// of the chunk, `lane` the element's position in it, `s` its value; returns
/// the new accumulators.
using ElementStatFn = function_ref<SmallVector<Value>(
    OpBuilder &, Value chunkStart, int64_t lane, Value s, ValueRange accs)>;
/// The normalize step for one group of chunks (one chunk without a rotary
/// embedding; gpuRowChunksPerGroup) and their s values: chunk index c has
/// its first element at c · V.
using GroupFn = function_ref<void(OpBuilder &, ArrayRef<Value> chunks,
                                  ArrayRef<SmallVector<Value>> s)>;

class GPURowKernelEmitter : ScalarArith {
public:
  GPURowKernelEmitter(Location loc, const RowNormProblem &p,
                      const GPURowKernelShape &shape)
      : ScalarArith(loc, p.accType), p(p), shape(shape),
        warpsPerRow(shape.threadsPerRow / NVIDIATargetInfo::kWarpSize),
        chunksPerGroup(gpuRowChunksPerGroup(p, shape.vectorWidth)) {
    if (p.quant)
      quantized.emplace(loc, p, shape.smVersion);
    // A held row's groups across warps: a slot a warp for each step.
    if (quantized && quantized->groupSize() &&
        quantized->groupLayout(shape.vectorWidth, shape.threadsPerRow).threads >
            NVIDIATargetInfo::kWarpSize)
      slotsPerWarp = std::max(slotsPerWarp, quantGroupBatch());
  }

  void emit(OpBuilder &b);

private:
  int64_t vectorBytes(Value mem) {
    return shape.vectorWidth * (elementTypeOf(mem).getIntOrFloatBitWidth() / 8);
  }

  // Memory: chunk `chunk` of a row view (2-D, at `atRow`, by default the
  // thread's row) or of γ/β (1-D).
  SmallVector<Value> rowIndices(OpBuilder &b, Value mem, Value chunk,
                                Value atRow) {
    Value start = chunkStart(b, chunk);
    if (cast<MemRefType>(mem.getType()).getRank() == 2)
      return {atRow ? atRow : row, start};
    return {start};
  }
  /// The first element of `chunk`, chunk · V. A held chunk is t + c·T;
  /// its start is written t·V + c·T·V, constant last, so that the chunks'
  /// addresses share one product and differ by constants: the f32 warp
  /// kernel went from 90 to 48 registers (ptxas -v, sm_90).
  Value chunkStart(OpBuilder &b, Value chunk) {
    Value vectorWidth = index(b, shape.vectorWidth);
    if (auto add = chunk.getDefiningOp<arith::AddIOp>())
      if (std::optional<int64_t> offset = getConstantIntValue(add.getRhs()))
        return arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, add.getLhs(), vectorWidth),
            index(b, *offset * shape.vectorWidth));
    return arith::MulIOp::create(b, loc, chunk, vectorWidth);
  }
  SmallVector<Value> loadChunk(OpBuilder &b, Value mem, Value chunk,
                               Value atRow = Value());
  /// GroupNorm: γ or β of each element of `chunk`, by its channel (scalar
  /// loads; the elements of a chunk mostly share a channel, and hit the
  /// cache).
  SmallVector<Value> loadChannelParams(OpBuilder &b, Value mem, Value chunk) {
    Value firstChannel = mulC(b, remC(b, row, p.groups), p.channelsPerGroup);
    Value start = chunkStart(b, chunk);
    SmallVector<Value> values;
    for (int64_t l = 0; l < shape.vectorWidth; ++l) {
      Value inRow =
          arith::DivUIOp::create(b, loc, addC(b, start, l), p.channelLength);
      values.push_back(
          toAcc(b, memref::LoadOp::create(
                       b, loc, mem, ValueRange{add(b, firstChannel, inRow)})));
    }
    return values;
  }
  void storeChunk(OpBuilder &b, ArrayRef<Value> values, Value mem, Value chunk);
  SmallVector<Value> inputChunk(OpBuilder &b, Value chunk);

  // Sweeps and reductions.
  Value numChunks(OpBuilder &b) {
    return arith::DivUIOp::create(b, loc, p.n, index(b, shape.vectorWidth));
  }
  Value numGroups(OpBuilder &b) {
    return arith::DivUIOp::create(b, loc, p.n,
                                  index(b, shape.vectorWidth * chunksPerGroup));
  }
  /// Held chunk `c` of the thread: part c / G of its group c mod G (G groups
  /// a thread), the group t + (c mod G)·T, its chunk written as
  /// (t or 2t) + a constant for chunkStart.
  int64_t groupsPerThread() const { return shape.heldChunks / chunksPerGroup; }
  int64_t heldGroupOffset(int64_t c) const {
    return (c % groupsPerThread()) * shape.threadsPerRow;
  }
  Value heldGroup(OpBuilder &b, int64_t c) {
    return arith::AddIOp::create(b, loc, threadInRow,
                                 index(b, heldGroupOffset(c)));
  }
  Value chunkOf(OpBuilder &b, int64_t c) {
    int64_t part = c / groupsPerThread(), offset = heldGroupOffset(c);
    if (chunksPerGroup == 1)
      return heldGroup(b, c);
    if (!p.ropeInterleaved)
      return arith::AddIOp::create(
          b, loc, threadInRow,
          index(b, offset +
                       part * *p.staticRowLength() / (2 * shape.vectorWidth)));
    return arith::AddIOp::create(b, loc, mulC(b, threadInRow, 2),
                                 index(b, 2 * offset + part));
  }
  /// Part `part` of group `group` (a run-time index).
  Value chunkOfGroup(OpBuilder &b, Value group, int64_t part) {
    if (chunksPerGroup == 1)
      return group;
    if (!p.ropeInterleaved)
      return arith::AddIOp::create(b, loc, group, mulC(b, numGroups(b), part));
    return addC(b, mulC(b, group, 2), part);
  }
  bool chunkAlwaysValid(int64_t c) const {
    std::optional<int64_t> n = p.staticRowLength();
    return n && (c % groupsPerThread() + 1) * shape.threadsPerRow *
                        chunksPerGroup * shape.vectorWidth <=
                    *n;
  }
  Value groupValid(OpBuilder &b, Value group) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, group,
                                 numGroups(b));
  }
  void loadHeldRow(OpBuilder &b);
  SmallVector<Value> accumulate(OpBuilder &b, unsigned numStats,
                                ElementStatFn step);
  void forEachGroup(OpBuilder &b, GroupFn fn);
  SmallVector<Value> reduceAcrossRow(OpBuilder &b, ArrayRef<Value> partials,
                                     unsigned stage, bool maximum = false,
                                     int64_t span = 0, bool reused = false);
  Value reciprocalStd(OpBuilder &b, Value statistic);
  /// Whether this thread is thread 0 of a real row: the one that writes the
  /// row's statistics and scale.
  Value firstThreadOfRow(OpBuilder &b) {
    return arith::AndIOp::create(
        b, loc, rowValid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadInRow,
                              index(b, 0)));
  }
  void emitBody(OpBuilder &b, gpu::LaunchOp launch);
  SmallVector<Value> normalizedChunk(OpBuilder &b, Value chunk,
                                     ArrayRef<Value> s, Value shift,
                                     Value correction, Value rstd);
  void rotateGroup(OpBuilder &b, ArrayRef<Value> chunks,
                   ArrayRef<SmallVector<Value>> v);
  Value rowAmax(OpBuilder &b, Value shift, Value correction, Value rstd);
  /// The per-group steps one reduction takes at once: all of a held row's
  /// (up to kMaxQuantGroupBatch), one for re-read rows.
  int64_t quantGroupBatch() const;
  void quantizeGroups(OpBuilder &b, Value shift, Value correction, Value rstd);

  const RowNormProblem &p;
  const GPURowKernelShape &shape;
  int64_t warpsPerRow;
  int64_t chunksPerGroup;
  /// Shared-memory slots a warp for each reduction stage (the statistics
  /// use two; a held row's per-group amax one a step).
  int64_t slotsPerWarp = 2;
  /// Set when y is quantized (never with a rotary embedding: rule R4).
  std::optional<GPUQuantizedRow> quantized;

  // Set while the body is emitted.
  Value threadInRow, rowInBlock, row, rowValid, lane, warp, workgroup;
  Value angleRow; // the rotary embedding's row of angles for `row`
  SmallVector<SmallVector<Value>> held;
  SmallVector<Value> heldValid; // null: always valid
};

} // namespace gpurow
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GPUROWKERNELEMITTER_H
