//===- RopeAngles.cpp - rotary angles moved between frames ---------------===//
//
// Angles read in one view of a tensor, re-indexed for another by moving
// their broadcast (unit) dims, with a reshape pair that folds away when the
// angles were themselves expanded.
//
//===----------------------------------------------------------------------===//

#include "RopeAngles.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Each dim that is not a static 1 with the unit dims after it (the leading
/// unit dims go with the first): the groups of a reshape between `shape`
/// and its other dims.
SmallVector<ReassociationIndices> unitDimGroups(ArrayRef<int64_t> shape) {
  SmallVector<ReassociationIndices> groups;
  bool anchored = false;
  for (int64_t i = 0, e = shape.size(); i < e; ++i) {
    bool unit = shape[i] == 1;
    if (groups.empty() || (!unit && anchored))
      groups.emplace_back();
    groups.back().push_back(i);
    anchored |= !unit;
  }
  return groups;
}

SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t size : shape)
    if (size != 1)
      dims.push_back(size);
  return dims;
}

} // namespace

Value mlir::norm::reshapeUnitDims(OpBuilder &builder, Location loc,
                                  Value angles, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(angles.getType());
  if (type.getShape() == shape)
    return angles;
  assert(nonUnitDims(type.getShape()) == nonUnitDims(shape) &&
         "only unit dims may move");
  SmallVector<int64_t> inner = nonUnitDims(shape);
  Value value = angles;
  if (inner.size() != type.getShape().size())
    value = builder.createOrFold<tensor::CollapseShapeOp>(
        loc, RankedTensorType::get(inner, type.getElementType()), value,
        unitDimGroups(type.getShape()));
  if (inner.size() != shape.size())
    value = tensor::ExpandShapeOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        value, unitDimGroups(shape));
  return value;
}
