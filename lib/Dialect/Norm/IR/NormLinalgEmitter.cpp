//===- NormLinalgEmitter.cpp - linalg building blocks of the norms --------===//
//
// The out-of-line parts of NormLinalgEmitter.h: the scalar casts, the
// compensated sums and pRMSNorm's prefix mask.
//
//===----------------------------------------------------------------------===//

#include "NormLinalgEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::detail;

Value norm::detail::floatConstant(OpBuilder &b, Location loc, Type type,
                                  double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// Converts between float types; the accumulation type is never narrower
/// than the element type, so this is extf on the way in, truncf on the way
/// out.
Value norm::detail::castFloat(OpBuilder &b, Location loc, Value value,
                              Type type) {
  if (value.getType() == type)
    return value;
  if (value.getType().getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, type, value);
  return arith::TruncFOp::create(b, loc, type, value);
}

Value norm::detail::emitCompensatedSum(
    LinalgEmitter &em, ValueRange ins, ArrayRef<AffineMap> inMaps,
    AffineMap outMap, ArrayRef<IteratorType> iterators,
    ArrayRef<OpFoldResult> sizes, FloatType accType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> term) {
  Value sum = em.filled(sizes, accType, 0.0);
  Value compensation = em.filled(sizes, accType, 0.0);
  SmallVector<AffineMap> indexing(inMaps);
  indexing.append({outMap, outMap});
  unsigned numIns = ins.size();
  return em.genericMulti(ins, {sum, compensation}, indexing, iterators,
                         [&](OpBuilder &nb, Location l, ValueRange args) {
                           Value t = term(nb, l, args.take_front(numIns));
                           Value s = args[numIns], c = args[numIns + 1];
                           Value y = arith::SubFOp::create(nb, l, t, c);
                           Value next = arith::AddFOp::create(nb, l, s, y);
                           Value nextC = arith::SubFOp::create(
                               nb, l, arith::SubFOp::create(nb, l, next, s), y);
                           linalg::YieldOp::create(nb, l,
                                                   ValueRange{next, nextC});
                         })[0];
}

Value norm::detail::emitCompensatedRowSum(
    LinalgEmitter &em, const NormMaps &maps, ValueRange ins,
    ArrayRef<AffineMap> inMaps, FloatType accType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> term) {
  SmallVector<OpFoldResult> sizes = em.sizesOf(ins.front());
  return emitCompensatedSum(em, ins, inMaps, maps.rows, maps.reduceNorm,
                            ArrayRef(sizes).take_front(maps.axis), accType,
                            term);
}

norm::detail::PartialPrefix::PartialPrefix(LinalgEmitter &em,
                                           const NormMaps &maps,
                                           ArrayRef<OpFoldResult> normSizes,
                                           Value n, double partial)
    : count(n), axis(maps.axis) {
  if (partial >= 1.0)
    return;
  OpBuilder &b = em.b;
  Location loc = em.loc;
  Value nAsF64 = em.indexToFloat(n, b.getF64Type());
  Value scaled = arith::MulFOp::create(
      b, loc, nAsF64, floatConstant(b, loc, b.getF64Type(), partial));
  Value ceiled = math::CeilOp::create(b, loc, scaled);
  Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), ceiled);
  count = arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
  strides.resize(normSizes.size());
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t i = normSizes.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride = arith::MulIOp::create(
        b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, normSizes[i]));
  }
}

Value norm::detail::PartialPrefix::select(OpBuilder &b, Location loc,
                                          Value value, double otherwise) const {
  if (strides.empty())
    return value;
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [i, stride] : llvm::enumerate(strides)) {
    Value index = linalg::IndexOp::create(b, loc, axis + i);
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  }
  Value inPrefix =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear, count);
  return arith::SelectOp::create(
      b, loc, inPrefix, value,
      floatConstant(b, loc, value.getType(), otherwise));
}
