//===- EmulatedMath.h - integer arithmetic for the emulation ----*- C++ -*-===//
//
// Test-only (test/lib): the index and i64 arithmetic that the rewrites of
// the emulated nvgpu ops (EmulateNVGPU.cpp) and NVVM wgmma ops
// (EmulateWGMMA.cpp) build, as one-line helpers on a builder and location.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TEST_LIB_TRANSFORMS_EMULATEDMATH_H
#define NORM_TEST_LIB_TRANSFORMS_EMULATEDMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
namespace test {

/// Integer arithmetic at one insertion point. Divisions and remainders are
/// unsigned: every value the emulation computes is an offset or a count.
struct EmulatedMath {
  OpBuilder &b;
  Location loc;

  /// Constants: index and i64.
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }

  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }

  /// With an index constant.
  Value addC(Value x, int64_t v) { return v == 0 ? x : add(x, c(v)); }
  Value mulC(Value x, int64_t v) { return mul(x, c(v)); }
  Value divC(Value x, int64_t v) { return div(x, c(v)); }
  Value remC(Value x, int64_t v) { return rem(x, c(v)); }

  /// Bit operations on i64 values.
  Value andC(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, i64(m));
  }
  Value shr(Value x, int64_t s) {
    return arith::ShRUIOp::create(b, loc, x, i64(s));
  }
  Value shl(Value x, int64_t s) {
    return arith::ShLIOp::create(b, loc, x, i64(s));
  }

  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value toIndex(Value x) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), x);
  }
  Value toI64(Value x) {
    return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), x);
  }
};

} // namespace test
} // namespace norm
} // namespace mlir

#endif // NORM_TEST_LIB_TRANSFORMS_EMULATEDMATH_H
