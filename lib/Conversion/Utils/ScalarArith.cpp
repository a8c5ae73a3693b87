//===- ScalarArith.cpp - arithmetic helpers shared by the emitters --------===//

#include "norm/Conversion/Utils/ScalarArith.h"
#include "norm/Support/FoldTree.h"
#include "norm/Support/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::norm;

Value ScalarArith::index(OpBuilder &b, int64_t v) const {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value ScalarArith::i64(OpBuilder &b, int64_t v) const {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value ScalarArith::f32(OpBuilder &b, double v) const {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value ScalarArith::accConst(OpBuilder &b, double v) const {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, v));
}

Value ScalarArith::add(OpBuilder &b, Value x, Value y) const {
  return arith::AddIOp::create(b, loc, x, y);
}

Value ScalarArith::sub(OpBuilder &b, Value x, Value y) const {
  return arith::SubIOp::create(b, loc, x, y);
}

Value ScalarArith::mul(OpBuilder &b, Value x, Value y) const {
  return arith::MulIOp::create(b, loc, x, y);
}

Value ScalarArith::addC(OpBuilder &b, Value x, int64_t c) const {
  return c == 0 ? x : add(b, x, index(b, c));
}

Value ScalarArith::mulC(OpBuilder &b, Value x, int64_t c) const {
  return mul(b, x, index(b, c));
}

Value ScalarArith::divC(OpBuilder &b, Value x, int64_t c) const {
  return arith::DivUIOp::create(b, loc, x, index(b, c));
}

Value ScalarArith::remC(OpBuilder &b, Value x, int64_t c) const {
  return arith::RemUIOp::create(b, loc, x, index(b, c));
}

Value ScalarArith::minIndex(OpBuilder &b, Value x, Value y) const {
  return arith::MinUIOp::create(b, loc, x, y);
}

Value ScalarArith::slt(OpBuilder &b, Value x, Value y) const {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
}

Value ScalarArith::ult(OpBuilder &b, Value x, Value y) const {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
}

Value ScalarArith::andI(OpBuilder &b, Value x, Value y) const {
  return arith::AndIOp::create(b, loc, x, y);
}

Value ScalarArith::select(OpBuilder &b, Value c, Value x, Value y) const {
  return arith::SelectOp::create(b, loc, c, x, y);
}

Value ScalarArith::indexToAcc(OpBuilder &b, Value v) const {
  return arith::UIToFPOp::create(
      b, loc, acc, arith::IndexCastOp::create(b, loc, b.getI64Type(), v));
}

Type ScalarArith::elementTypeOf(Value mem) {
  return cast<MemRefType>(mem.getType()).getElementType();
}

Value ScalarArith::widen(OpBuilder &b, Value v, Type elementType) const {
  if (getElementTypeOrSelf(v.getType()) == elementType)
    return v;
  return arith::ExtFOp::create(b, loc,
                               withElementType(v.getType(), elementType), v);
}

Value ScalarArith::toF32(OpBuilder &b, Value v) const {
  return widen(b, v, b.getF32Type());
}

Value ScalarArith::narrow(OpBuilder &b, Value v, Type elementType) const {
  if (getElementTypeOrSelf(v.getType()) == elementType)
    return v;
  return arith::TruncFOp::create(b, loc,
                                 withElementType(v.getType(), elementType), v);
}

Value ScalarArith::roundThrough(OpBuilder &b, Value v, Type elementType) const {
  if (elementType == acc)
    return v;
  return toAcc(b, narrow(b, v, elementType));
}

Value ScalarArith::sumTree(OpBuilder &b, ArrayRef<Value> parts) const {
  return foldTree(parts, [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  });
}

Value ScalarArith::applyNormWeight(OpBuilder &b, Value v, Value gamma,
                                   Value beta, const NormNumerics &num,
                                   Type elementType, bool roundBias) const {
  bool early = num.castMode == CastMode::before_weight;
  auto round = [&](Value x) {
    return early ? roundThrough(b, x, num.weightType) : x;
  };
  // A constant shaped like v.
  auto constant = [&](double value) -> Value {
    TypedAttr attr = b.getFloatAttr(acc, value);
    if (auto vectorType = dyn_cast<VectorType>(v.getType()))
      attr = DenseElementsAttr::get(vectorType, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
  if (early)
    v = roundThrough(b, v, elementType);
  if (gamma || num.weightOffset != 0.0) {
    Value factor = gamma ? gamma : constant(1.0);
    if (num.weightOffset != 0.0)
      factor = round(
          arith::AddFOp::create(b, loc, factor, constant(num.weightOffset)));
    v = round(arith::MulFOp::create(b, loc, v, factor));
  }
  if (beta) {
    v = arith::AddFOp::create(b, loc, v, beta);
    if (roundBias)
      v = round(v);
  }
  return v;
}
