//===- KernelArith.h - arithmetic helpers of the GEMM emitters --*- C++ -*-===//
//
// The one-line constant and index-arithmetic builders that the GEMM
// emitters of this folder (the fused kernel's jobs, WarpgroupGemm.cpp)
// build their kernels from, at the location of the op being lowered.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GEMM_KERNELARITH_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GEMM_KERNELARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// Divisions and remainders are unsigned (thread ids, offsets and counts);
/// comparisons come in both signednesses, since the guarded kernels compare
/// differences that may be negative.
class GPUKernelArith {
protected:
  explicit GPUKernelArith(Location loc) : loc(loc) {}

  Value index(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value i64(OpBuilder &b, int64_t v) const {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value f32(OpBuilder &b, double v) const {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(OpBuilder &b, Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(OpBuilder &b, Value x, Value y) const {
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, Value y) const {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value addC(OpBuilder &b, Value x, int64_t c) const {
    return c == 0 ? x : add(b, x, index(b, c));
  }
  Value mulC(OpBuilder &b, Value x, int64_t c) const {
    return mul(b, x, index(b, c));
  }
  Value divC(OpBuilder &b, Value x, int64_t c) const {
    return arith::DivUIOp::create(b, loc, x, index(b, c));
  }
  Value remC(OpBuilder &b, Value x, int64_t c) const {
    return arith::RemUIOp::create(b, loc, x, index(b, c));
  }
  Value slt(OpBuilder &b, Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value ult(OpBuilder &b, Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value andI(OpBuilder &b, Value x, Value y) const {
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value select(OpBuilder &b, Value c, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// v as f32 (extended when narrower).
  Value toF32(OpBuilder &b, Value v) const {
    return v.getType().isF32()
               ? v
               : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult();
  }

  Location loc;
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GEMM_KERNELARITH_H
