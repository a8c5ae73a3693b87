//===- SliceTracing.cpp - slices, tensor.reshape and prefix sums ----------===//
//
// The part of the Tracer (Tracing.h) that deals with extents: a reduction
// whose loops range over fewer elements than the root dims they stand for
// (a reduction over `tensor.extract_slice` of the row, pRMSNorm's sum of
// squares over the first k elements) is a Sum over a prefix; the slice is
// looked through only there, so a slice that is itself the root's row (a
// strided view) stays a leaf. tensor.reshape between static shapes is a
// collapse or an expand.
//
//===----------------------------------------------------------------------===//

#include "Tracing.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::norm::raise;

/// The number of elements of root dims `g` (nullopt if one is dynamic).
static std::optional<int64_t> groupExtent(const Tracer &tracer,
                                          const DimGroup &g) {
  int64_t extent = 1;
  for (unsigned d : g) {
    int64_t size = tracer.rootDimSize(d);
    if (ShapedType::isDynamic(size) || llvm::MulOverflow(extent, size, extent))
      return std::nullopt;
  }
  return extent;
}

std::optional<int64_t>
Tracer::prefixOf(ArrayRef<std::pair<DimGroup, int64_t>> loops) const {
  // The one loop that covers less than its root dims, if any.
  std::optional<size_t> partial;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    const auto &[group, extent] = loop;
    std::optional<int64_t> full = groupExtent(*this, group);
    // Dynamic extents are taken as whole (the recognizer checks n).
    if (ShapedType::isDynamic(extent) || !full || extent == *full)
      continue;
    if (extent > *full || partial || group.empty())
      return std::nullopt;
    partial = i;
  }
  if (!partial)
    return 0;
  // [0, k) × (whole dims after it) is the prefix of k·Π(rest) elements of
  // the row; whole dims before it would make it a box with holes.
  const DimGroup &first = loops[*partial].first;
  unsigned last = *llvm::max_element(first);
  int64_t prefix = loops[*partial].second;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    if (i == *partial || loop.first.empty())
      continue;
    std::optional<int64_t> full = groupExtent(*this, loop.first);
    if (!full || *llvm::min_element(loop.first) < last ||
        llvm::MulOverflow(prefix, *full, prefix))
      return std::nullopt;
  }
  return prefix;
}

Expr *Tracer::evalSlice(Operation *op, const Binding &b) {
  auto slice = cast<tensor::ExtractSliceOp>(op);
  RankedTensorType srcType = slice.getSourceType();
  RankedTensorType resType = slice.getResultType();
  if (srcType.getRank() != resType.getRank() ||
      size_t(resType.getRank()) != b.size() ||
      !llvm::all_of(slice.getMixedOffsets(), isZeroInteger) ||
      !llvm::all_of(slice.getMixedStrides(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); }))
    return nullptr;
  bool partial = false;
  for (int64_t i = 0; i < resType.getRank(); ++i) {
    int64_t size = resType.getDimSize(i), srcSize = srcType.getDimSize(i);
    if (ShapedType::isDynamic(size)) {
      // Whole only when the size is the source's own extent.
      auto dim = dyn_cast_if_present<Value>(slice.getMixedSizes()[i]);
      auto dimOp = dim ? dim.getDefiningOp<tensor::DimOp>() : nullptr;
      if (!dimOp || dimOp.getSource() != slice.getSource() ||
          dimOp.getConstantIndex() != std::optional<int64_t>(i))
        return nullptr;
      continue;
    }
    if (size == srcSize)
      continue;
    // A prefix of a static dim, read where the index ranges over all of
    // the source's dim: only inside a reduction over the slice.
    std::optional<int64_t> extent = groupExtent(*this, b[i]);
    if (ShapedType::isDynamic(srcSize) && !extent) {
      // What the ratio k/n would be is not known before run time.
      dynamicRowSlices.push_back({op, size});
      return nullptr;
    }
    if (extent != std::optional<int64_t>(srcSize))
      return nullptr;
    partial = true;
  }
  if (!partial)
    return nullptr;
  tracedOps.insert(op);
  return eval(slice.getSource(), b);
}

Expr *Tracer::evalReshape(Operation *op, const Binding &b) {
  auto reshape = cast<tensor::ReshapeOp>(op);
  auto srcType = dyn_cast<RankedTensorType>(reshape.getSource().getType());
  auto resType = reshape.getResult().getType();
  if (!srcType || !srcType.hasStaticShape() || !resType.hasStaticShape())
    return nullptr;
  Binding src;
  if (srcType.getShape() == resType.getShape()) {
    src = b;
  } else if (srcType.getRank() > resType.getRank()) {
    auto reassociation = getReassociationIndicesForCollapse(srcType.getShape(),
                                                            resType.getShape());
    if (!reassociation)
      return nullptr;
    std::optional<Binding> split = splitCollapsed(b, srcType, *reassociation);
    if (!split)
      return nullptr;
    src = *split;
  } else {
    auto reassociation = getReassociationIndicesForCollapse(resType.getShape(),
                                                            srcType.getShape());
    if (!reassociation)
      return nullptr;
    src = joinExpanded(b, *reassociation);
  }
  tracedOps.insert(op);
  return eval(reshape.getSource(), src);
}
