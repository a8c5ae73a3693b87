//===- VectorArith.h - vector helpers of the CPU emitters -------*- C++ -*-===//
//
// Private to NormToVector: the one-line builders of L-lane vectors, masks,
// loads and buffers that the CPU emitters (the row kernel, RowKernel.cpp,
// and the GEMM, Gemm/GemmEmitter.h) write their kernels with, on top of the
// scalar helpers every emitter shares (Utils/ScalarArith.h).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_VECTORARITH_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_VECTORARITH_H

#include "norm/Conversion/Utils/ScalarArith.h"
#include "norm/Transforms/BF16Rounding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// Vectors have `vectorLanes` lanes (L); arithmetic vectors hold the
/// accumulator type (f32 in the GEMM).
class VectorArith : public ScalarArith {
protected:
  VectorArith(Location loc, int64_t vectorLanes, FloatType acc,
              bool nativeBF16Conversion)
      : ScalarArith(loc, acc), vectorLanes(vectorLanes),
        nativeBF16Conversion(nativeBF16Conversion) {}

  VectorType vecType(Type elementType) const {
    return VectorType::get({vectorLanes}, elementType);
  }
  /// Zeros of the accumulator vector type.
  Value zeros(OpBuilder &b) const { return zerosOf(b, vecType(acc)); }
  /// Zeros of the float vector type `type`.
  Value zerosOf(OpBuilder &b, VectorType type) const {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getFloatAttr(type.getElementType(), 0.0)));
  }
  Value splat(OpBuilder &b, Value scalar) const {
    return vector::BroadcastOp::create(b, loc, vecType(acc), scalar);
  }
  Value mask(OpBuilder &b, Value count) const {
    return vector::CreateMaskOp::create(
        b, loc, VectorType::get({vectorLanes}, b.getI1Type()),
        ValueRange{count});
  }
  /// Rounds an f32 vector to bf16 through AVX512-BF16's vcvtneps2bf16 where
  /// the target has it (one instruction instead of the integer rounding
  /// sequence arith-expand emits; it flushes results below 2^-126 to zero).
  Value narrow(OpBuilder &b, Value v, Type elementType) const override {
    if (nativeBF16Conversion && elementType.isBF16() && acc.isF32() &&
        (vectorLanes == 8 || vectorLanes == 16))
      return x86vector::CvtPackedF32ToBF16Op::create(b, loc,
                                                     vecType(elementType), v);
    return ScalarArith::narrow(b, v, elementType);
  }
  // bf16 in pair order (docs/design.md, "bf16 rows in pair order"). L
  // bf16 (L = 16 on AVX2, 32 on AVX-512) are L/2 32-bit words, each an even
  // element in its low half and the following odd one in its high half. As
  // f32 lanes, in pair order, lanes [0, L/2) hold the even elements and
  // lanes [L/2, L) the odd ones: widening is one shift and one and per L
  // values, and narrowing ends in one shift and a word blend, with no lane
  // crossing either way.

  /// Pair-order lane i of a natural-order vector of L: the lane it comes
  /// from (toPairOrder), and the inverse (fromPairOrder).
  SmallVector<int64_t> pairOrderLanes(bool toPairs) const {
    int64_t half = vectorLanes / 2;
    SmallVector<int64_t> lanes;
    for (int64_t i = 0; i < vectorLanes; ++i)
      lanes.push_back(toPairs ? (i % half) * 2 + i / half
                              : (i % 2) * half + i / 2);
    return lanes;
  }
  /// A natural-order vector of L (a mask) in pair order, and back (a
  /// statistic before its reduction: the same lanes add in the same order
  /// as with natural-order vectors, so the sums are bit-identical).
  Value toPairOrder(OpBuilder &b, Value v) const {
    return vector::ShuffleOp::create(b, loc, v, v, pairOrderLanes(true));
  }
  Value fromPairOrder(OpBuilder &b, Value v) const {
    return vector::ShuffleOp::create(b, loc, v, v, pairOrderLanes(false));
  }
  Value i32Splat(OpBuilder &b, int64_t lanes, int64_t value) const {
    auto type = VectorType::get({lanes}, b.getI32Type());
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            type, b.getI32IntegerAttr(static_cast<int32_t>(value))));
  }
  /// L bf16 (natural order) as L f32 lanes in pair order: even = word <<
  /// 16, odd = word & 0xffff0000 (the bits of bf16 → f32, exact).
  Value widenBF16Pairs(OpBuilder &b, Value bf16s) const {
    int64_t half = vectorLanes / 2;
    auto words = VectorType::get({half}, b.getI32Type());
    auto halves = VectorType::get({half}, b.getF32Type());
    Value w = vector::BitCastOp::create(b, loc, words, bf16s);
    Value even = arith::ShLIOp::create(b, loc, w, i32Splat(b, half, 16));
    Value odd = arith::AndIOp::create(b, loc, w, i32Splat(b, half, 0xffff0000));
    SmallVector<int64_t> concat;
    for (int64_t i = 0; i < vectorLanes; ++i)
      concat.push_back(i);
    return vector::ShuffleOp::create(
        b, loc, arith::BitcastOp::create(b, loc, halves, even),
        arith::BitcastOp::create(b, loc, halves, odd), concat);
  }
  /// The even and the odd half of a pair-order vector (L/2 lanes each).
  std::pair<Value, Value> pairHalves(OpBuilder &b, Value v) const {
    SmallVector<int64_t> evenLanes, oddLanes;
    for (int64_t i = 0; i < vectorLanes / 2; ++i) {
      evenLanes.push_back(i);
      oddLanes.push_back(vectorLanes / 2 + i);
    }
    return {vector::ShuffleOp::create(b, loc, v, v, evenLanes),
            vector::ShuffleOp::create(b, loc, v, v, oddLanes)};
  }
  /// L f32 lanes in pair order rounded to L bf16 in natural order: the
  /// rounding of norm-expand-bf16-truncation (createBF16RoundedWords), so
  /// the bits are those of arith.truncf. The even lanes' rounded bits
  /// shift down into the low halves of the words, the odd lanes' keep their
  /// high halves: one shift and one blend, where natural order packs and
  /// permutes.
  Value narrowBF16Pairs(OpBuilder &b, Value v) const {
    int64_t half = vectorLanes / 2;
    auto [even, odd] = pairHalves(b, createBF16RoundedWords(b, loc, v));
    Value words = arith::OrIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, even, i32Splat(b, half, 16)),
        arith::AndIOp::create(b, loc, odd, i32Splat(b, half, 0xffff0000)));
    return vector::BitCastOp::create(
        b, loc, VectorType::get({vectorLanes}, b.getBF16Type()), words);
  }
  /// 32 f32 lanes rounded to 32 bf16 in the same lane order, by AVX512-BF16's
  /// vcvtne2ps2bf16 of the upper 16 lanes (its first operand) and the lower
  /// 16: the rounding of vcvtneps2bf16 (to nearest even, a NaN quieted,
  /// subnormal inputs and results flushed to zero), two registers at once.
  Value cvtNE2PSToBF16(OpBuilder &b, Value v) const {
    auto [low, high] = pairHalves(b, v);
    return LLVM::CallIntrinsicOp::create(
               b, loc, vecType(b.getBF16Type()),
               b.getStringAttr("llvm.x86.avx512bf16.cvtne2ps2bf16.512"),
               ValueRange{high, low})
        .getResult(0);
  }
  /// narrowBF16Pairs where the target rounds natively (32 lanes on
  /// AVX512-BF16): vcvtne2ps2bf16 of the odd and even halves gives the even
  /// elements' bf16, then the odd ones'; one word shuffle (vpermw)
  /// interleaves them into element order. The bits are those of
  /// vcvtneps2bf16 on natural-order vectors (narrow).
  Value narrowBF16PairsNative(OpBuilder &b, Value v) const {
    Value rounded = cvtNE2PSToBF16(b, v);
    SmallVector<int64_t> interleave;
    for (int64_t i = 0; i < vectorLanes / 2; ++i) {
      interleave.push_back(i);
      interleave.push_back(vectorLanes / 2 + i);
    }
    return vector::ShuffleOp::create(b, loc, rounded, rounded, interleave);
  }
  /// The bf16 k-pair of Ã at `offset` broadcast to all lanes as one 32-bit
  /// word: the A operand of vdpbf16ps against L columns of W pairs.
  Value broadcastAPair(OpBuilder &b, Value packedA, Value offset) const {
    Type bf16 = b.getBF16Type();
    Value pair = vector::LoadOp::create(b, loc, VectorType::get({2}, bf16),
                                        packedA, ValueRange{offset});
    Value word = vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()),
                                  pair),
        ArrayRef<int64_t>{0});
    return vector::BitCastOp::create(
        b, loc, VectorType::get({2 * vectorLanes}, bf16),
        vector::BroadcastOp::create(
            b, loc, VectorType::get({vectorLanes}, b.getI32Type()), word));
  }
  /// A vector of `mem` at `indices` in the accumulator type; lanes outside
  /// `maskValue` (when non-null) read as zero and touch no memory.
  Value loadAcc(OpBuilder &b, Value mem, ValueRange indices,
                Value maskValue) const {
    VectorType type = vecType(elementTypeOf(mem));
    if (!maskValue)
      return toAcc(b, vector::LoadOp::create(b, loc, type, mem, indices));
    return toAcc(b, vector::MaskedLoadOp::create(b, loc, type, mem, indices,
                                                 maskValue, zerosOf(b, type)));
  }
  /// Stores the vector `v` (of `mem`'s element type) at `indices`: masked
  /// when `maskValue` is non-null; else non-temporal when `nontemporal`,
  /// at an address aligned to `alignment` bytes (LLVM emits a streaming
  /// store only for an aligned one).
  void writeVector(OpBuilder &b, Value v, Value mem, ValueRange indices,
                   Value maskValue, bool nontemporal, int64_t alignment) const {
    if (maskValue) {
      vector::MaskedStoreOp::create(b, loc, mem, indices, maskValue, v);
      return;
    }
    if (!nontemporal) {
      vector::StoreOp::create(b, loc, v, mem, indices);
      return;
    }
    vector::StoreOp::create(b, loc, v, mem, indices, /*nontemporal=*/true,
                            llvm::MaybeAlign(alignment));
  }
  Value loadScalarAcc(OpBuilder &b, Value mem, ValueRange indices) const {
    return toAcc(b, memref::LoadOp::create(b, loc, mem, indices));
  }
  /// 64-byte aligned 1-D buffers of `size` elements.
  Value allocF32(OpBuilder &b, int64_t size) const {
    return allocPanel(b, b.getF32Type(), size);
  }
  Value allocPanel(OpBuilder &b, Type elementType, int64_t size) const {
    return memref::AllocOp::create(
        b, loc, MemRefType::get({size}, elementType), /*alignment=*/
        b.getI64IntegerAttr(64));
  }
  Value allocF32(OpBuilder &b, Value size) const {
    return memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
        ValueRange{size}, b.getI64IntegerAttr(64));
  }

  /// L, the lanes of a vector.
  int64_t vectorLanes;
  /// bf16 rounding by vcvtneps2bf16 (AVX512-BF16).
  bool nativeBF16Conversion;
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_VECTORARITH_H
