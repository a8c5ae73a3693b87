//===- QuantizedRow.h - the row kernel's quantized output -------*- C++ -*-===//
//
// Private to NormToVector: how the row kernel (RowKernel.cpp) writes a
// quantized y (DESIGN.md §8) instead of storing it. The kernel hands over
// each normalized vector and, for dynamic scales, calls back once a row's
// normalize sweep is done; everything quantization-specific is here.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_QUANTIZEDROW_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_QUANTIZEDROW_H

#include "RowKernel.h"
#include "VectorArith.h"

namespace mlir {
namespace norm {

/// Runs the row kernel's store sweep over [0, length) of the row being
/// written (with that row's streaming head and stores), calling `store` per
/// vector.
using RowSegmentSweepFn =
    function_ref<void(OpBuilder &, Value length, RowStoreFn store)>;

/// The quantized y of one row-kernel problem (`p.quant` set):
/// - static scale: 1/s once, before the rows; each normalized vector is
///   quantized and stored as it is computed, in the normalize sweep (y is
///   never stored);
/// - dynamic scales: amax must be known before any element is quantized, so
///   the normalize sweep keeps the row's y (acc_type, unrounded) in a
///   buffer of n elements, one per thread task, reused row after row (L1
///   for n ≤ 8192 f32, L2 beyond); then per row (or per group of G): amax
///   over the buffer, the scale, and q from the buffer, written by the
///   kernel's store sweep (streaming when y is). x is read from memory once
///   and q written once; the buffer never leaves the core's caches. With
///   vectors in bf16 pair order (32 lanes on AVX-512), the buffer holds
///   each block of L elements as the kernel's vector has it, the even
///   elements then the odd ones (n rounded up to L): the normalize sweep
///   stores two zmm as they are, amax takes no account of the order, and q
///   is encoded from the same vectors by the pair-order encodings, which
///   give the bytes in element order. Its blocks start at multiples of L,
///   so the store sweep has no alignment head (buffersInPairs).
class QuantizedRowWriter : VectorArith {
public:
  /// `pairOrder`: the kernel's vectors are in bf16 pair order; the bytes
  /// are stored in element order.
  QuantizedRowWriter(Location loc, const RowNormProblem &p, int64_t lanes,
                     const NormVectorCodegenOptions &options, bool pairOrder);

  /// Whether rows go through the buffer (dynamic scales).
  bool buffersRows() const { return p.quant->isDynamic(); }
  /// Whether the row buffer is in pair layout: the store sweep of
  /// emitDynamicRow must then start at each segment's start (no head).
  bool buffersInPairs() const { return buffersRows() && pairOrder; }
  /// Once, outside the threads: 1/s of a static scale.
  void emitPrologue(OpBuilder &b);
  /// Per thread task, around its rows (dynamic scales): the row buffer.
  void allocateRowBuffer(OpBuilder &b);
  void releaseRowBuffer(OpBuilder &b);
  /// In the normalize sweep: y (an acc_type vector) at [j, j + L) of `row`,
  /// masked when `mask` is non-null.
  void storeY(OpBuilder &b, Value row, Value j, Value y, Value mask,
              bool nontemporal);
  /// After a buffered row's normalize sweep: its scales, then its q.
  void emitDynamicRow(OpBuilder &b, Value row, RowSegmentSweepFn sweep);

  /// Whether the normalize sweep runs the quantization one step behind the
  /// loads and arithmetic (a static fp8 scale): scaleY(y) of step j + 1 is
  /// computed, then step j's t is encoded and stored by storeScaledY, t
  /// carried from one step to the next. The fp8 encoding is ~21 vector ops
  /// a step on AVX2, and its chain (t to the store) no longer waits on the
  /// loads and multiplies of the same step: -11% on the AVX2 VM
  /// (docs/performance.md, "2026-11-28: the fp8 encode by an FMA and
  /// vpmaddwd, and the pipelined sweep").
  bool pipelinesSweep() const;
  /// Pipelined steps (whole vectors): t = y · 1/s, then q of t stored at
  /// [j, j + L) of `row`.
  Value scaleY(OpBuilder &b, Value y);
  void storeScaledY(OpBuilder &b, Value row, Value j, Value t,
                    bool nontemporal);

private:
  Value segmentMax(OpBuilder &b, Value offset, Value length);
  /// Registers of f32 lanes whose group maxima emitGroupBatches reduces
  /// together (0: groups take quantizeSegment one by one).
  int64_t groupBatchLanes() const;
  /// Whole batches of groupBatchLanes() groups of `row`: their maxima,
  /// scales and 1/s a vector at a time, then each group's q.
  void emitGroupBatches(OpBuilder &b, Value row, Value batches,
                        RowSegmentSweepFn sweep);
  void quantizeSegment(OpBuilder &b, Value row, Value offset, Value length,
                       ValueRange scaleIndices, RowSegmentSweepFn sweep);
  Value quantizeFloat8(OpBuilder &b, Value t, FloatType type);
  Value quantizeFloat8ByMadd(OpBuilder &b, Value t, Value magnitude,
                             FloatType type);
  Value quantizeInt8(OpBuilder &b, Value t);
  Value callIntrinsic(OpBuilder &b, StringRef name, Type result,
                      ValueRange args);
  Value quantizeInt8ByConversion(OpBuilder &b, Value t, double qmax);
  /// Bytes in the kernel's lane order put in element order (a shuffle;
  /// the encodings that can do it cheaper do it themselves).
  Value inElementOrder(OpBuilder &b, Value q) const {
    return pairOrder ? fromPairOrder(b, q) : q;
  }
  /// A mask of a block's positions (natural order) as the row buffer's
  /// lanes there; null stays null.
  Value bufferMask(OpBuilder &b, Value m) const {
    return m && pairOrder ? toPairOrder(b, m) : m;
  }
  void storeQuantized(OpBuilder &b, Value row, Value j, Value y,
                      Value inverseScale, Value mask, bool nontemporal);
  void storeScaled(OpBuilder &b, Value row, Value j, Value t, Value mask,
                   bool nontemporal);

  const RowNormProblem &p;
  const NormQuantization &quant;
  int64_t accumulators;
  int64_t vectorBits;         // the target's register width
  bool x86RoundingConversion; // i8 through vcvtps2dq
  bool pairOrder;             // t in bf16 pair order (VectorArith.h)
  Value inverseScale;         // static: 1/s as an acc_type vector
  Value rowBuffer;            // dynamic: the current task's memref<n x acc>
  Value groupInverses;        // batched groups: the row's 1/s, memref<n/G>
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_QUANTIZEDROW_H
