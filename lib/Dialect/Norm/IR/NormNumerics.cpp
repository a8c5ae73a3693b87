//===- NormNumerics.cpp - the statistics arithmetic of every norm ---------===//
//
// The one spelling of 1/σ (NormNumerics.h).
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::norm;

/// A constant of `like`'s type (a splat when `like` is a vector).
static Value constantLike(OpBuilder &b, Location loc, Value like,
                          double value) {
  Type type = like.getType();
  auto elementType = cast<FloatType>(getElementTypeOrSelf(type));
  TypedAttr attr = b.getFloatAttr(elementType, value);
  if (auto vectorType = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vectorType, attr);
  return arith::ConstantOp::create(b, loc, attr);
}

Value mlir::norm::createReciprocalStd(OpBuilder &b, Location loc, Value s,
                                      EpsMode mode, double epsilon) {
  Value eps = constantLike(b, loc, s, epsilon);
  Value denominator =
      mode == EpsMode::inside_sqrt
          ? math::SqrtOp::create(b, loc, arith::AddFOp::create(b, loc, s, eps))
                .getResult()
          : arith::AddFOp::create(b, loc, math::SqrtOp::create(b, loc, s), eps)
                .getResult();
  return arith::DivFOp::create(b, loc, constantLike(b, loc, s, 1.0),
                               denominator);
}
