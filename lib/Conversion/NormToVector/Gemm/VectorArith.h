//===- VectorArith.h - arithmetic helpers of the CPU GEMM -------*- C++ -*-===//
//
// Private to the CPU GEMM: the one-line builders of constants, index
// arithmetic, L-lane f32 vectors, element-type conversions, loads and
// buffers that the CPU GEMM emitter (GemmEmitter.h) writes its kernels with,
// at the location of the op being lowered. Nothing here knows the GEMM
// problem; the GPU side's counterpart is NormToGPU/Gemm/KernelArith.h.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_VECTORARITH_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_VECTORARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
namespace gemm {

/// Index arithmetic is unsigned (offsets and counts); vectors have
/// `vectorLanes` lanes (L, f32 lanes per vector register).
class VectorArith {
protected:
  VectorArith(Location loc, int64_t vectorLanes, bool nativeBF16Conversion)
      : loc(loc), vectorLanes(vectorLanes),
        nativeBF16Conversion(nativeBF16Conversion) {}

  // Constants, vectors, conversions.
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value f32Const(OpBuilder &b, double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  VectorType vecType(Type elementType) {
    return VectorType::get({vectorLanes}, elementType);
  }
  Value zeros(OpBuilder &b) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType(b.getF32Type()), 0.0f));
  }
  /// Zeros of the float vector type `type`.
  Value zerosOf(OpBuilder &b, VectorType type) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getFloatAttr(type.getElementType(), 0.0)));
  }
  Value splat(OpBuilder &b, Value scalar) {
    return vector::BroadcastOp::create(b, loc, vecType(b.getF32Type()), scalar);
  }
  Value mask(OpBuilder &b, Value count) {
    return vector::CreateMaskOp::create(
        b, loc, VectorType::get({vectorLanes}, b.getI1Type()),
        ValueRange{count});
  }
  Value add(OpBuilder &b, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(OpBuilder &b, Value x, Value y) {
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value minIndex(OpBuilder &b, Value x, Value y) {
    return arith::MinUIOp::create(b, loc, x, y);
  }
  Value less(OpBuilder &b, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  static Type elementTypeOf(Value mem) {
    return cast<MemRefType>(mem.getType()).getElementType();
  }
  Value toF32(OpBuilder &b, Value v) {
    Type f32 = b.getF32Type();
    if (auto vt = dyn_cast<VectorType>(v.getType())) {
      if (vt.getElementType() == f32)
        return v;
      return arith::ExtFOp::create(b, loc, vecType(f32), v);
    }
    if (v.getType() == f32)
      return v;
    return arith::ExtFOp::create(b, loc, f32, v);
  }
  /// Rounds an f32 vector to `elementType` (bf16 through vcvtneps2bf16
  /// where the target has it, as the row kernels do).
  Value narrow(OpBuilder &b, Value v, Type elementType) {
    if (elementType.isF32())
      return v;
    if (nativeBF16Conversion && elementType.isBF16() &&
        (vectorLanes == 8 || vectorLanes == 16))
      return x86vector::CvtPackedF32ToBF16Op::create(b, loc,
                                                     vecType(elementType), v);
    return arith::TruncFOp::create(b, loc, vecType(elementType), v);
  }
  /// The bf16 k-pair of Ã at `offset` broadcast to all lanes as one 32-bit
  /// word: the A operand of vdpbf16ps against L columns of W pairs.
  Value broadcastAPair(OpBuilder &b, Value packedA, Value offset) {
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
  /// A vector of `mem` at `indices` in f32; lanes outside `maskValue` (when
  /// non-null) read as zero and touch no memory.
  Value loadF32(OpBuilder &b, Value mem, ValueRange indices, Value maskValue) {
    VectorType type = vecType(elementTypeOf(mem));
    if (!maskValue)
      return toF32(b, vector::LoadOp::create(b, loc, type, mem, indices));
    return toF32(b, vector::MaskedLoadOp::create(b, loc, type, mem, indices,
                                                 maskValue, zerosOf(b, type)));
  }
  Value loadScalarF32(OpBuilder &b, Value mem, ValueRange indices) {
    return toF32(b, memref::LoadOp::create(b, loc, mem, indices));
  }
  /// 64-byte aligned 1-D buffers of `size` elements.
  Value allocF32(OpBuilder &b, int64_t size) {
    return allocPanel(b, b.getF32Type(), size);
  }
  Value allocPanel(OpBuilder &b, Type elementType, int64_t size) {
    return memref::AllocOp::create(
        b, loc, MemRefType::get({size}, elementType), /*alignment=*/
        b.getI64IntegerAttr(64));
  }
  Value allocF32(OpBuilder &b, Value size) {
    return memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
        ValueRange{size}, b.getI64IntegerAttr(64));
  }

  Location loc;
  /// L, the f32 lanes of a vector.
  int64_t vectorLanes;
  /// bf16 rounding by vcvtneps2bf16 (AVX512-BF16).
  bool nativeBF16Conversion;
};

} // namespace gemm
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_VECTORARITH_H
