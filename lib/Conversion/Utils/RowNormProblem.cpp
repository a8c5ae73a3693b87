//===- RowNormProblem.cpp - a standalone norm as rows ---------------------===//

#include "norm/Conversion/Utils/RowNormProblem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::norm;

std::optional<int64_t> RowNormProblem::staticRowLength() const {
  return getConstantIntValue(getAsOpFoldResult(n));
}

bool mlir::norm::hasIdentityLayout(Value value) {
  auto type = dyn_cast_or_null<MemRefType>(value.getType());
  return type && type.getLayout().isIdentity();
}

OpFoldResult mlir::norm::dimProduct(OpBuilder &b, Location loc, Value mem,
                                    int64_t from, int64_t to) {
  auto type = cast<MemRefType>(mem.getType());
  int64_t staticProduct = 1;
  Value dynamicProduct;
  for (int64_t d = from; d < to; ++d) {
    if (!type.isDynamicDim(d)) {
      staticProduct *= type.getDimSize(d);
      continue;
    }
    Value dim = memref::DimOp::create(b, loc, mem, d);
    dynamicProduct =
        dynamicProduct ? Value(arith::MulIOp::create(b, loc, dynamicProduct, dim))
                       : dim;
  }
  if (!dynamicProduct)
    return b.getIndexAttr(staticProduct);
  if (staticProduct != 1)
    dynamicProduct = arith::MulIOp::create(
        b, loc, dynamicProduct,
        arith::ConstantIndexOp::create(b, loc, staticProduct));
  return dynamicProduct;
}

Value mlir::norm::viewAs(OpBuilder &b, Location loc, Value mem,
                         ArrayRef<OpFoldResult> sizes) {
  if (!mem)
    return Value();
  SmallVector<int64_t> staticSizes;
  for (OpFoldResult size : sizes)
    staticSizes.push_back(
        getConstantIntValue(size).value_or(ShapedType::kDynamic));
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  if (sizes.size() == 2)
    strides[0] = sizes[1];
  auto type = MemRefType::get(
      staticSizes, cast<MemRefType>(mem.getType()).getElementType());
  return memref::ReinterpretCastOp::create(b, loc, type, mem,
                                           b.getIndexAttr(0), sizes, strides);
}

namespace {
/// The operands and numerics shared by both standalone ops.
template <typename OpTy>
RowNormProblem describeCommon(OpTy op, OpBuilder &b,
                              SmallVectorImpl<OpFoldResult> &rowView) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  int64_t rank = cast<MemRefType>(x.getType()).getRank();
  int64_t axis = op.getNormalizedAxis();
  OpFoldResult rows = dimProduct(b, loc, x, 0, axis);
  OpFoldResult n = dimProduct(b, loc, x, axis, rank);
  rowView.assign({rows, n});

  RowNormProblem p;
  static_cast<NormNumerics &>(p) = getNormNumerics(op);
  p.x = viewAs(b, loc, x, rowView);
  p.residual = viewAs(b, loc, op.getResidual(), rowView);
  p.weight = viewAs(b, loc, op.getWeight(), {n});
  p.y = viewAs(b, loc, op.getInit(), rowView);
  p.sum = viewAs(b, loc, op.getSumInit(), rowView);
  p.rstd = viewAs(b, loc, op.getRstdInit(), {rows});
  p.rows = getValueOrCreateConstantIndexOp(b, loc, rows);
  p.n = getValueOrCreateConstantIndexOp(b, loc, n);
  return p;
}
} // namespace

RowNormProblem mlir::norm::describeRowNorm(RMSNormOp op, OpBuilder &b) {
  SmallVector<OpFoldResult> rowView;
  RowNormProblem p = describeCommon(op, b, rowView);
  p.partial = op.getPartialValue();
  return p;
}

RowNormProblem mlir::norm::describeRowNorm(LayerNormOp op, OpBuilder &b) {
  SmallVector<OpFoldResult> rowView;
  RowNormProblem p = describeCommon(op, b, rowView);
  p.isLayerNorm = true;
  p.bias = viewAs(b, op.getLoc(), op.getBias(), {rowView[1]});
  p.mean = viewAs(b, op.getLoc(), op.getMeanInit(), {rowView[0]});
  return p;
}

Value mlir::norm::emitStatisticLength(OpBuilder &b, Location loc,
                                      const RowNormProblem &p) {
  if (p.isLayerNorm || p.partial >= 1.0)
    return p.n;
  Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(), p.n);
  Value nF64 = arith::UIToFPOp::create(b, loc, b.getF64Type(), n);
  Value scaled = arith::MulFOp::create(
      b, loc, nF64,
      arith::ConstantOp::create(b, loc, b.getF64FloatAttr(p.partial)));
  Value ceiled = math::CeilOp::create(b, loc, scaled);
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::FPToSIOp::create(b, loc, b.getI64Type(), ceiled));
}

Value mlir::norm::emitCorrectedVariance(OpBuilder &b, Location loc, Value sumD,
                                        Value sumD2, Value count,
                                        Value &correction) {
  correction = arith::DivFOp::create(b, loc, sumD, count);
  Value variance = arith::SubFOp::create(
      b, loc, arith::DivFOp::create(b, loc, sumD2, count),
      arith::MulFOp::create(b, loc, correction, correction));
  Value zero = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(variance.getType(), 0.0));
  return arith::MaximumFOp::create(b, loc, variance, zero);
}

void mlir::norm::splitMixedSizes(OpBuilder &b, Location loc,
                                 ArrayRef<OpFoldResult> sizes,
                                 SmallVectorImpl<int64_t> &staticSizes,
                                 SmallVectorImpl<Value> &dynamicSizes) {
  for (OpFoldResult size : sizes) {
    std::optional<int64_t> known = getConstantIntValue(size);
    staticSizes.push_back(known.value_or(ShapedType::kDynamic));
    if (!known)
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  }
}

std::optional<int64_t> mlir::norm::headDimOf(Operation *fusedOp) {
  std::optional<uint64_t> d;
  if (auto op = dyn_cast<MatmulLayerNormOp>(fusedOp))
    d = op.getHeadDim();
  else if (auto op = dyn_cast<MatmulRMSNormOp>(fusedOp))
    d = op.getHeadDim();
  if (!d)
    return std::nullopt;
  return static_cast<int64_t>(*d);
}

Value mlir::norm::viewAsHeads(OpBuilder &b, Location loc, Value rows,
                              int64_t headDim) {
  auto type = cast<MemRefType>(rows.getType());
  int64_t heads = type.getDimSize(1) / headDim;
  OpFoldResult m = memref::getMixedSize(b, loc, rows, 0);
  OpFoldResult headRows = b.getIndexAttr(0);
  if (std::optional<int64_t> known = getConstantIntValue(m))
    headRows = b.getIndexAttr(*known * heads);
  else
    headRows = arith::MulIOp::create(
                   b, loc, getValueOrCreateConstantIndexOp(b, loc, m),
                   arith::ConstantIndexOp::create(b, loc, heads))
                   .getResult();
  return viewAs(b, loc, rows, {headRows, b.getIndexAttr(headDim)});
}

Operation *mlir::norm::createNormOfSum(OpBuilder &b, Location loc,
                                       Operation *fusedOp, Value sum, Value y) {
  if (std::optional<int64_t> d = headDimOf(fusedOp)) {
    sum = viewAsHeads(b, loc, sum, *d);
    y = viewAsHeads(b, loc, y, *d);
  }
  if (auto op = dyn_cast<MatmulLayerNormOp>(fusedOp)) {
    return LayerNormOp::create(b, loc, TypeRange{}, sum, Value(), op.getWeight(),
                        op.getBias(), y, Value(), Value(), Value(),
                        /*axis=*/1, op.getEpsilonAttr(),
                        op.getWeightOffsetAttr(),
                        TypeAttr::get(op.getAccumulationType()),
                        CastMode::after_weight, op.getEpsMode());
  }
  auto op = cast<MatmulRMSNormOp>(fusedOp);
  return RMSNormOp::create(b, loc, TypeRange{}, sum, Value(), op.getWeight(), y,
                    Value(), Value(), /*axis=*/1, op.getEpsilonAttr(),
                    op.getWeightOffsetAttr(), Attribute(),
                    TypeAttr::get(op.getAccumulationType()),
                    CastMode::after_weight, op.getEpsMode());
}
