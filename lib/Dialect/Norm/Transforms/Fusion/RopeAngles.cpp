//===- RopeAngles.cpp - rotary angles moved between frames ---------------===//
//
// Angles read in one view of a tensor, re-indexed for another by moving
// their broadcast (unit) dims, with a reshape pair that folds away when the
// angles were themselves expanded.
//
//===----------------------------------------------------------------------===//

#include "RopeAngles.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <numeric>

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

namespace {

/// Dim `k` of a heads view of `rank` dims, as a remark names it.
std::string headsDimName(int64_t k, int64_t rank) {
  if (k == rank - 1)
    return "dim " + std::to_string(k) + " (D)";
  if (k == rank - 2)
    return "dim " + std::to_string(k) + " (H)";
  return "dim " + std::to_string(k) + " (rows)";
}

} // namespace

FailureOr<SmallVector<int64_t>>
mlir::norm::anglesInHeadsView(ArrayRef<int64_t> angleShape,
                              const HeadSplit &split,
                              ArrayRef<int64_t> headsShape, std::string &why) {
  // The pieces the angles vary along, in their row-major order, neighbours
  // of one heads dim merged: each must then be one whole heads dim.
  struct Run {
    int64_t dim, size, stride, normDim;
  };
  SmallVector<Run> runs;
  int64_t rank = headsShape.size();
  std::string varies = "its rotary angles vary along dim ";
  for (auto [j, size] : llvm::enumerate(angleShape)) {
    if (size == 1)
      continue;
    for (const HeadSplit::Piece &p : split.dimPieces[j]) {
      if (p.dim < 0) {
        why = varies + std::to_string(j) +
              " of the norm's input, whose rows the reshapes after the "
              "matmul regroup at dynamic sizes (the fused op's angles "
              "follow the product's [..., H, D] view, which cannot index "
              "them)";
        return failure();
      }
      if (!runs.empty()) {
        Run &prev = runs.back();
        if (prev.dim == p.dim && !ShapedType::isDynamic(p.size) &&
            prev.stride == p.size * p.stride) {
          if (!ShapedType::isDynamic(prev.size))
            prev.size *= p.size;
          prev.stride = p.stride;
          continue;
        }
      }
      runs.push_back({p.dim, p.size, p.stride, static_cast<int64_t>(j)});
    }
  }
  SmallVector<int64_t> shape(rank, 1);
  int64_t last = -1;
  for (const Run &run : runs) {
    if (run.dim < last) {
      why = "its rotary angles vary along dims that a transpose before the "
            "norm reorders, so in the product's [..., H, D] view they would "
            "need a transpose of their own";
      return failure();
    }
    if (run.dim == last || run.stride != 1 || run.size != headsShape[run.dim]) {
      why = varies + std::to_string(run.normDim) +
            " of the norm's input, which is only a part of " +
            headsDimName(run.dim, rank) +
            " of the product's [..., H, D] view, or takes it in another "
            "order (the fused op's angles follow that view; they would need "
            "a copy)";
      return failure();
    }
    shape[run.dim] = run.size;
    last = run.dim;
  }
  // Through one flat dim when they are merged or split: static sizes only.
  if (nonUnitDims(angleShape) != nonUnitDims(shape) &&
      (llvm::any_of(angleShape, ShapedType::isDynamic) ||
       llvm::any_of(shape, ShapedType::isDynamic))) {
    why = "its rotary angles vary along dims the reshapes after the matmul "
          "merge or split, at dynamic sizes (the fused op's angles would "
          "need a reshape of a dynamic table)";
    return failure();
  }
  return shape;
}

Value mlir::norm::reshapeAngles(OpBuilder &builder, Location loc, Value angles,
                                ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(angles.getType());
  if (nonUnitDims(type.getShape()) == nonUnitDims(shape))
    return reshapeUnitDims(builder, loc, angles, shape);
  int64_t count = type.getNumElements();
  auto flatType = RankedTensorType::get({count}, type.getElementType());
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  Value flat = builder.createOrFold<tensor::CollapseShapeOp>(
      loc, flatType, angles, SmallVector<ReassociationIndices>{all});
  ReassociationIndices to(shape.size());
  std::iota(to.begin(), to.end(), 0);
  return tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), flat,
      SmallVector<ReassociationIndices>{to});
}
