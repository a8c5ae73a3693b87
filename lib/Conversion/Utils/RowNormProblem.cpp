//===- RowNormProblem.cpp - a standalone norm as rows ---------------------===//

#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

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
                         ArrayRef<OpFoldResult> mixedSizes) {
  if (!mem)
    return Value();
  // A constant size, attribute or constant Value, is static in the type and
  // an attribute of the op: the op's verifier wants the two to agree.
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> staticSizes;
  for (OpFoldResult size : mixedSizes) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    sizes.push_back(constant ? b.getIndexAttr(*constant) : size);
    staticSizes.push_back(constant.value_or(ShapedType::kDynamic));
  }
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  if (sizes.size() == 2)
    strides[0] = sizes[1];
  auto type = MemRefType::get(
      staticSizes, cast<MemRefType>(mem.getType()).getElementType());
  return memref::ReinterpretCastOp::create(b, loc, type, mem,
                                           b.getIndexAttr(0), sizes, strides);
}

namespace {
std::string strideString(int64_t stride) {
  return ShapedType::isDynamic(stride) ? "?" : std::to_string(stride);
}

/// The innermost row dim (of the first `rowDims`) whose size is not a
/// static 1: its stride is the row stride. -1 when there is none.
int64_t rowStrideDim(MemRefType type, int64_t rowDims) {
  for (int64_t d = rowDims - 1; d >= 0; --d)
    if (type.getDimSize(d) != 1)
      return d;
  return -1;
}
} // namespace

std::string mlir::norm::unsupportedRowLayoutReason(MemRefType type,
                                                   int64_t rowDims) {
  if (type.getLayout().isIdentity())
    return "";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return "has a layout that is not strided";
  // The row, from its innermost dim outwards: each dim's stride must be the
  // product of the sizes inside it, starting at 1. A static 1 is any stride.
  int64_t expected = 1;
  bool innermost = true;
  for (int64_t d = type.getRank() - 1; d >= rowDims; --d) {
    int64_t size = type.getDimSize(d);
    if (size == 1)
      continue;
    if (ShapedType::isDynamic(expected) || strides[d] != expected) {
      if (innermost)
        return "has an inner stride of " + strideString(strides[d]) +
               ", not 1 (the row kernels read rows of contiguous elements)";
      return "has normalized dims that are not contiguous (dim " +
             std::to_string(d) + " has stride " + strideString(strides[d]) +
             ")";
    }
    innermost = false;
    expected =
        ShapedType::isDynamic(size) ? ShapedType::kDynamic : expected * size;
  }
  // The rows: every row dim outside the one that sets the row stride must
  // be a whole number of its rows apart, provably (static strides and sizes).
  int64_t inner = rowStrideDim(type, rowDims);
  for (int64_t d = inner - 1; d >= 0; --d) {
    if (type.getDimSize(d) == 1)
      continue;
    int64_t innerSize = type.getDimSize(inner);
    if (ShapedType::isDynamic(strides[inner]) ||
        ShapedType::isDynamic(innerSize) ||
        strides[d] != strides[inner] * innerSize)
      return "has row dims that do not merge into one row stride (dim " +
             std::to_string(d) + " has stride " + strideString(strides[d]) +
             ", dim " + std::to_string(inner) + " stride " +
             strideString(strides[inner]) + " and size " +
             strideString(innerSize) + ")";
    inner = d;
  }
  return "";
}

namespace {
/// The row dims [first, last] of `shape` (of the first `axis` dims) that
/// index the angles of shape `angles` (not size 1 there), or {0, -1} when
/// none does. Sets `why` when they are not one run: a broadcast dim between
/// two of them.
std::pair<int64_t, int64_t> anglePositionDims(ArrayRef<int64_t> shape,
                                              ArrayRef<int64_t> angles,
                                              int64_t axis, std::string &why) {
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < axis; ++d) {
    if (angles[d] == 1)
      continue;
    first = first < 0 ? d : first;
    last = d;
  }
  for (int64_t d = std::max<int64_t>(first, 0); d < last; ++d)
    if (angles[d] == 1 && shape[d] != 1)
      why = "has rotary angles broadcast over dim " + std::to_string(d) +
            " between dims they index (the row kernels take one run of "
            "position dims, then broadcast ones)";
  return first < 0 ? std::pair<int64_t, int64_t>{0, -1}
                   : std::pair<int64_t, int64_t>{first, last};
}
} // namespace

std::string mlir::norm::unsupportedRowOperandReason(Operation *op,
                                                    bool quantizedOutputs) {
  std::optional<NormQuantization> quant = getNormQuantization(op);
  if (quant && !quantizedOutputs)
    return "has a quantized output, which the row kernels do not write";
  // Rows of each operand: the non-normalized dims; γ and β are one row.
  llvm::DenseMap<Value, int64_t> rowDims;
  auto record = [&](auto norm) {
    int64_t axis = norm.getNormalizedAxis();
    for (OpOperand &operand : op->getOpOperands())
      rowDims[operand.get()] = axis;
    if (Value weight = norm.getWeight())
      rowDims[weight] = 0;
    if constexpr (std::is_same_v<decltype(norm), LayerNormOp>)
      if (Value bias = norm.getBias())
        rowDims[bias] = 0;
  };
  if (auto rms = dyn_cast<RMSNormOp>(op))
    record(rms);
  else
    record(cast<LayerNormOp>(op));
  for (OpOperand &operand : op->getOpOperands()) {
    if (quant && operand.get() == quant->scale &&
        operand.get().getType().isF32())
      continue;
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    std::string why =
        type ? unsupportedRowLayoutReason(
                   type, std::min(rowDims[operand.get()], type.getRank()))
             : std::string("is not a memref");
    if (why.empty())
      continue;
    std::string reason;
    llvm::raw_string_ostream os(reason);
    os << "operand #" << operand.getOperandNumber() << " ("
       << operand.get().getType() << ") " << why;
    return reason;
  }
  return unsupportedRotaryAnglesReason(op);
}

namespace {
/// The shape of `shaped` (a value's type).
ArrayRef<int64_t> shapeOf(Value shaped) {
  return cast<ShapedType>(shaped.getType()).getShape();
}

/// The output of the per-head matmul → norm `op` viewed as [..., H, D]: the
/// shape its rotary angles are indexed against.
SmallVector<int64_t> headsShapeOf(MatmulRMSNormOp op) {
  int64_t d = static_cast<int64_t>(*op.getHeadDim());
  SmallVector<int64_t> heads(shapeOf(op.getInit()));
  heads.back() /= d;
  heads.push_back(d);
  return heads;
}
} // namespace

std::string mlir::norm::unsupportedRotaryAnglesReason(Operation *op) {
  std::string why;
  if (std::optional<NormRotary> rotary = getNormRotary(op)) {
    ArrayRef<int64_t> angles = shapeOf(rotary->cos);
    anglePositionDims(shapeOf(op->getOperand(0)), angles, angles.size() - 1,
                      why);
  } else if (auto fused = dyn_cast<MatmulRMSNormOp>(op);
             fused && fused.getCos()) {
    ArrayRef<int64_t> angles = shapeOf(fused.getCos());
    anglePositionDims(headsShapeOf(fused), angles, angles.size() - 1, why);
  }
  return why;
}

Value mlir::norm::viewAsRows(OpBuilder &b, Location loc, Value mem,
                             int64_t rowDims, ArrayRef<OpFoldResult> sizes) {
  if (!mem)
    return Value();
  auto type = cast<MemRefType>(mem.getType());
  if (type.getLayout().isIdentity())
    return viewAs(b, loc, mem, sizes);
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  memref::ExtractStridedMetadataOp metadata;
  auto known = [&](int64_t value,
                   function_ref<Value(memref::ExtractStridedMetadataOp)> get)
      -> OpFoldResult {
    if (!ShapedType::isDynamic(value))
      return b.getIndexAttr(value);
    if (!metadata)
      metadata = memref::ExtractStridedMetadataOp::create(b, loc, mem);
    return get(metadata);
  };
  OpFoldResult viewOffset = known(offset, [](auto m) { return m.getOffset(); });
  // With no row dim but static 1s, there is one row: any stride does.
  int64_t strideDim = rowStrideDim(type, rowDims);
  OpFoldResult rowStride =
      strideDim < 0 ? sizes.back()
                    : known(
                          strides[strideDim],
                          [&](auto m) { return m.getStrides()[strideDim]; });
  SmallVector<OpFoldResult> viewStrides;
  if (sizes.size() == 2)
    viewStrides = {rowStride, b.getIndexAttr(1)};
  else
    viewStrides = {rowDims == 0 ? OpFoldResult(b.getIndexAttr(1)) : rowStride};
  auto staticOf = [](OpFoldResult v) {
    return getConstantIntValue(v).value_or(ShapedType::kDynamic);
  };
  SmallVector<int64_t> staticSizes, staticStrides;
  for (OpFoldResult size : sizes)
    staticSizes.push_back(staticOf(size));
  for (OpFoldResult stride : viewStrides)
    staticStrides.push_back(staticOf(stride));
  auto viewType =
      MemRefType::get(staticSizes, type.getElementType(),
                      StridedLayoutAttr::get(
                          b.getContext(), staticOf(viewOffset), staticStrides));
  return memref::ReinterpretCastOp::create(b, loc, viewType, mem, viewOffset,
                                           sizes, viewStrides);
}

std::pair<Value, Value>
mlir::norm::rowViewOffsetAndStride(OpBuilder &b, Location loc, Value view) {
  auto type = cast<MemRefType>(view.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  memref::ExtractStridedMetadataOp metadata;
  auto get = [&](int64_t value, bool isOffset) -> Value {
    if (!ShapedType::isDynamic(value))
      return arith::ConstantIndexOp::create(b, loc, value);
    if (!metadata)
      metadata = memref::ExtractStridedMetadataOp::create(b, loc, view);
    return isOffset ? Value(metadata.getOffset())
                    : Value(metadata.getStrides()[0]);
  };
  return {get(offset, true), get(strides[0], false)};
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
  p.x = viewAsRows(b, loc, x, axis, rowView);
  p.residual = viewAsRows(b, loc, op.getResidual(), axis, rowView);
  p.weight = viewAsRows(b, loc, op.getWeight(), 0, {n});
  p.y = viewAsRows(b, loc, op.getInit(), axis, rowView);
  p.sum = viewAsRows(b, loc, op.getSumInit(), axis, rowView);
  p.rstd = viewAsRows(b, loc, op.getRstdInit(), axis, {rows});
  p.rows = getValueOrCreateConstantIndexOp(b, loc, rows);
  p.n = getValueOrCreateConstantIndexOp(b, loc, n);
  p.quant = getNormQuantization(op);
  if (p.quant && p.quant->scales) {
    // One scale a row, or n / G a row (n is static with groups).
    SmallVector<OpFoldResult> scalesView{rows};
    if (p.quant->groupSize)
      scalesView.push_back(
          b.getIndexAttr(*getConstantIntValue(n) / p.quant->groupSize));
    p.quant->scales = viewAsRows(b, loc, p.quant->scales, axis, scalesView);
  }
  if (std::optional<NormRotary> rotary = getNormRotary(op)) {
    std::string why;
    int64_t last =
        anglePositionDims(shapeOf(x), shapeOf(rotary->cos), axis, why).second;
    OpFoldResult angleRows = dimProduct(b, loc, rotary->cos, 0, axis);
    p.cos = viewAsRows(b, loc, rotary->cos, axis, {angleRows, n});
    p.sin = viewAsRows(b, loc, rotary->sin, axis, {angleRows, n});
    p.ropeInnerRows = getValueOrCreateConstantIndexOp(
        b, loc, dimProduct(b, loc, x, last + 1, axis));
    p.ropeInterleaved = rotary->mode == RopeMode::interleaved;
    p.ropeEachStep = rotary->rounding == RopeRounding::each_step;
  }
  return p;
}
} // namespace

RowNormProblem mlir::norm::describeRowNorm(RMSNormOp op, OpBuilder &b) {
  SmallVector<OpFoldResult> rowView;
  RowNormProblem p = describeCommon(op, b, rowView);
  p.partial = op.getPartialValue();
  return p;
}

RowNormProblem mlir::norm::describeRowNorm(GroupNormOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  int64_t rank = op.getInputType().getRank();
  RowNormProblem p;
  p.accType = op.getAccumulationType();
  p.epsilon = op.getEpsilonValue();
  p.isLayerNorm = true;
  // One element type throughout: γ, β and y have x's.
  p.weightType = op.getInputType().getElementType();
  p.groups = op.getNumGroups();
  p.channelsPerGroup = op.getChannelsPerGroup();
  // size · factor, folded when the size is static.
  auto times = [&](OpFoldResult size, int64_t factor) -> OpFoldResult {
    if (std::optional<int64_t> c = getConstantIntValue(size))
      return b.getIndexAttr(*c * factor);
    return Value(
        arith::MulIOp::create(b, loc, cast<Value>(size),
                              arith::ConstantIndexOp::create(b, loc, factor)));
  };
  OpFoldResult spatial = dimProduct(b, loc, x, 2, rank);
  OpFoldResult rows = times(dimProduct(b, loc, x, 0, 1), p.groups);
  OpFoldResult n = times(spatial, p.channelsPerGroup);
  p.x = viewAs(b, loc, x, {rows, n});
  p.y = viewAs(b, loc, op.getInit(), {rows, n});
  p.weight = op.getWeight();
  p.bias = op.getBias();
  p.mean = viewAs(b, loc, op.getMeanInit(), {rows});
  p.rstd = viewAs(b, loc, op.getRstdInit(), {rows});
  p.rows = getValueOrCreateConstantIndexOp(b, loc, rows);
  p.n = getValueOrCreateConstantIndexOp(b, loc, n);
  p.channelLength = getValueOrCreateConstantIndexOp(b, loc, spatial);
  return p;
}

RowNormProblem mlir::norm::describeRowNorm(LayerNormOp op, OpBuilder &b) {
  SmallVector<OpFoldResult> rowView;
  RowNormProblem p = describeCommon(op, b, rowView);
  p.isLayerNorm = true;
  p.bias = viewAsRows(b, op.getLoc(), op.getBias(), 0, {rowView[1]});
  p.mean = viewAsRows(b, op.getLoc(), op.getMeanInit(), op.getNormalizedAxis(),
                      {rowView[0]});
  return p;
}

Value mlir::norm::emitStatisticLength(OpBuilder &b, Location loc,
                                      const RowNormProblem &p) {
  return emitStatisticLength(b, loc, p.n, p.isLayerNorm ? 1.0 : p.partial);
}

Value mlir::norm::emitStatisticLength(OpBuilder &b, Location loc, Value length,
                                      double partial) {
  if (partial >= 1.0)
    return length;
  Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(), length);
  Value nF64 = arith::UIToFPOp::create(b, loc, b.getF64Type(), n);
  Value scaled = arith::MulFOp::create(
      b, loc, nF64,
      arith::ConstantOp::create(b, loc, b.getF64FloatAttr(partial)));
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

namespace {
/// `rows` (M × N, identity layout) expanded to `heads` = [..., H, D], the
/// output's leading dims then its heads (their product is M).
Value expandToHeads(OpBuilder &b, Location loc, Value rows,
                    ArrayRef<OpFoldResult> heads) {
  int64_t rank = heads.size();
  SmallVector<ReassociationIndices> reassociation{{}, {rank - 2, rank - 1}};
  for (int64_t d = 0; d + 2 < rank; ++d)
    reassociation.front().push_back(d);
  SmallVector<int64_t> staticSizes;
  SmallVector<Value> dynamicSizes;
  splitMixedSizes(b, loc, heads, staticSizes, dynamicSizes);
  auto type = MemRefType::get(
      staticSizes, cast<MemRefType>(rows.getType()).getElementType());
  return memref::ExpandShapeOp::create(b, loc, type, rows, reassociation,
                                       heads);
}
} // namespace

Operation *mlir::norm::createNormOfSum(OpBuilder &b, Location loc,
                                       Operation *fusedOp, Value sum, Value y) {
  auto rms = dyn_cast<MatmulRMSNormOp>(fusedOp);
  Value cos = rms ? rms.getCos() : Value();
  Value sin = rms ? rms.getSin() : Value();
  int64_t axis = 1;
  if (cos) {
    // The rotation's angles are indexed like S viewed as [..., H, D] (the
    // output's leading dims, then the heads): the norm of that view, whose
    // rows the row kernel rotates as the standalone norm's.
    SmallVector<OpFoldResult> heads =
        memref::getMixedSizes(b, loc, rms.getInit());
    int64_t d = static_cast<int64_t>(*rms.getHeadDim());
    heads.back() = b.getIndexAttr(*getConstantIntValue(heads.back()) / d);
    heads.push_back(b.getIndexAttr(d));
    sum = expandToHeads(b, loc, sum, heads);
    y = expandToHeads(b, loc, y, heads);
    axis = heads.size() - 1;
  } else if (std::optional<int64_t> d = headDimOf(fusedOp)) {
    sum = viewAsHeads(b, loc, sum, *d);
    y = viewAsHeads(b, loc, y, *d);
  }
  // The saved statistics (none per head): one per row of S.
  auto perRow = [&](Value stat) {
    return stat ? viewAs(b, loc, stat, {memref::getMixedSize(b, loc, sum, 0)})
                : Value();
  };
  if (auto op = dyn_cast<MatmulLayerNormOp>(fusedOp)) {
    return LayerNormOp::create(
        b, loc, TypeRange{}, sum, Value(), op.getWeight(), op.getBias(),
        /*scale=*/Value(), /*cos=*/Value(), /*sin=*/Value(), y, Value(),
        perRow(op.getMeanInit()), perRow(op.getRstdInit()),
        /*scale_outs=*/Value(), IntegerAttr(), Attribute(),
        /*axis=*/1, op.getEpsilonAttr(), op.getWeightOffsetAttr(),
        TypeAttr::get(op.getAccumulationType()), CastMode::after_weight,
        op.getEpsMode(), /*rope_mode=*/RopeModeAttr(),
        /*rope_rounding=*/RopeRoundingAttr());
  }
  return RMSNormOp::create(
      b, loc, TypeRange{}, sum, Value(), rms.getWeight(), /*scale=*/Value(),
      cos, sin, y, Value(), perRow(rms.getRstdInit()),
      /*scale_outs=*/Value(), IntegerAttr(), Attribute(), axis,
      rms.getEpsilonAttr(), rms.getWeightOffsetAttr(), Attribute(),
      TypeAttr::get(rms.getAccumulationType()), CastMode::after_weight,
      rms.getEpsMode(), rms.getRopeModeAttr(), rms.getRopeRoundingAttr());
}
