//===- SliceTracing.cpp - slices, tensor.reshape and prefix sums ----------===//
//
// The part of the Tracer (Tracing.h) that deals with extents: a reduction
// whose loops range over fewer elements than the root dims they stand for
// (a reduction over `tensor.extract_slice` of the row, pRMSNorm's sum of
// squares over the first k elements) is a Sum over a prefix; the slice is
// looked through only there, so a slice that is itself the root's row (a
// strided view) stays a leaf. tensor.reshape between static shapes is a
// collapse or an expand. For the norm backward (Tracer::traceSliceBackward),
// autograd's slice_backward (a gradient of the first k elements put into
// zeros of the row) is [j < k] times the gradient: an insert at offset 0
// into a zero fill, a zero pad at the row's end, or a select on the column
// index; the zeros must be shown, not assumed.
//
//===----------------------------------------------------------------------===//

#include "Tracing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
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

//===----------------------------------------------------------------------===//
// slice_backward (the norm backward)
//===----------------------------------------------------------------------===//

Expr *Tracer::indicator(const DimGroup &g, int64_t k, Type type) {
  DimGroup dims = normalize(g);
  std::optional<int64_t> extent = groupExtent(*this, dims);
  // The index is 0 on no dims; [j < k] is constant when k ≤ 0 or k ≥ n.
  if (k <= 0)
    return constant(0.0, type);
  if (dims.empty() || (extent && k >= *extent))
    return constant(1.0, type);
  Expr *e = arena.make(ExprKind::Indicator, type);
  if (!e)
    return nullptr;
  e->sumDims.assign(dims.begin(), dims.end());
  e->prefix = k;
  return e;
}

/// Is `v` a tensor of zeros: a linalg.fill of ±0 or a zero splat constant?
/// (−0 is as good: x + (−0) = x.)
static bool isZeroTensor(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return fill.hasPureTensorSemantics() &&
           matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  return dense && dense.isSplat() && dense.getSplatValue<APFloat>().isZero();
}

Expr *Tracer::evalSliceBackward(Operation *op, const Binding &b) {
  auto resType = cast<RankedTensorType>(op->getResult(0).getType());
  Value source;
  // The refusal, recorded only for a computed source (what autograd
  // inserts): a pad or insert of a function's tensor is an input.
  std::string why;
  auto refuse = [&](std::string reason) -> Expr * {
    why = std::move(reason);
    return nullptr;
  };
  auto check = [&]() -> Expr * {
    int64_t rank = resType.getRank();
    if (rank == 0 || size_t(rank) != b.size())
      return nullptr;
    auto srcType = cast<RankedTensorType>(source.getType());
    if (srcType.getRank() != rank)
      return refuse("drops dims (a rank-reducing insert)");
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (!llvm::all_of(insert.getMixedStrides(), [](OpFoldResult s) {
            return isConstantIntValue(s, 1);
          }))
        return refuse("inserts with a stride other than 1");
      if (!llvm::all_of(insert.getMixedOffsets(), isZeroInteger))
        return refuse("inserts at a non-zero offset (not the first k "
                      "elements of the row)");
      if (!isZeroTensor(insert.getDest()))
        return refuse(insert.getDest().getDefiningOp<tensor::EmptyOp>()
                          ? "inserts into a tensor.empty, whose other "
                            "elements are undefined, not zeros"
                          : "inserts into a tensor not shown to be zeros");
      // The leading dims whole: a dynamic size must be the dest's extent.
      for (int64_t i = 0; i + 1 < rank; ++i) {
        if (srcType.getDimSize(i) == resType.getDimSize(i) &&
            !resType.isDynamicDim(i))
          continue;
        auto dim = dyn_cast_if_present<Value>(insert.getMixedSizes()[i]);
        auto dimOp = dim ? dim.getDefiningOp<tensor::DimOp>() : nullptr;
        if (!dimOp || dimOp.getSource() != insert.getDest() ||
            dimOp.getConstantIndex() != std::optional<int64_t>(i))
          return refuse("inserts into part of the rows, not a prefix of "
                        "each row");
      }
    } else {
      auto pad = cast<tensor::PadOp>(op);
      if (!llvm::all_of(pad.getMixedLowPad(), isZeroInteger))
        return refuse("pads at the start of a dim (not the first k "
                      "elements of the row)");
      SmallVector<OpFoldResult> high = pad.getMixedHighPad();
      if (!llvm::all_of(ArrayRef<OpFoldResult>(high).drop_back(),
                        isZeroInteger))
        return refuse("pads a dim other than the row's last");
      Value value = pad.getConstantPaddingValue();
      if (!value)
        return refuse("pads with a value computed in its region");
      if (!matchPattern(value, m_AnyZeroFloat())) {
        FloatAttr f;
        std::string s = "pads with a non-zero value";
        if (matchPattern(value, m_Constant(&f)))
          s += " (" + std::to_string(f.getValueAsDouble()) + ")";
        return refuse(s);
      }
    }
    int64_t k = srcType.getShape().back(), n = resType.getShape().back();
    if (ShapedType::isDynamic(n) || ShapedType::isDynamic(k))
      return refuse("writes a prefix of a dynamic row (k/n unknown before "
                    "run time)");
    // The row index must range over all of the result's last dim.
    DimGroup g = normalize(b.back());
    if (groupExtent(*this, g) != std::optional<int64_t>(n))
      return nullptr;
    Expr *src = eval(source, b);
    if (!src || src->kind == ExprKind::Leaf)
      return nullptr;
    Expr *mask = indicator(g, k, src->type);
    if (!mask)
      return nullptr;
    tracedOps.insert(op);
    return node(ExprKind::Mul, src->type, {mask, src});
  };
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    source = insert.getSource();
  else
    source = cast<tensor::PadOp>(op).getSource();
  Expr *e = check();
  if (!e && !why.empty()) {
    Operation *def = source.getDefiningOp();
    if (def && isa<linalg::LinalgOp>(def))
      sliceBackwardRefusals.push_back({op, why});
  }
  return e;
}

/// The predicate of the same comparison with its operands swapped (a < b is
/// b > a). MLIR 22 has arith::invertPredicate (the negation) but no swap.
static arith::CmpIPredicate swappedPredicate(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  case P::eq:
  case P::ne:
    return pred;
  }
  llvm_unreachable("unknown arith.cmpi predicate");
}

Expr *Tracer::evalIndexSelect(linalg::LinalgOp op, Operation *def,
                              ArrayRef<std::optional<DimGroup>> loops) {
  auto select = cast<arith::SelectOp>(def);
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp->getBlock() != op.getBlock())
    return nullptr;
  Value index = cmp.getLhs(), bound = cmp.getRhs();
  arith::CmpIPredicate pred = cmp.getPredicate();
  if (!index.getDefiningOp<linalg::IndexOp>()) {
    // k < j is j > k.
    std::swap(index, bound);
    pred = swappedPredicate(pred);
  }
  auto idx = index.getDefiningOp<linalg::IndexOp>();
  APInt value;
  if (!idx || idx->getBlock() != op.getBlock() ||
      !matchPattern(bound, m_ConstantInt(&value)))
    return nullptr;
  // A negative bound compares differently signed and unsigned.
  int64_t k = value.getSExtValue();
  uint64_t d = idx.getDim();
  if (k < 0 || d >= loops.size() || !loops[d])
    return nullptr;
  // The loop's index is the root dims' linearized index when it ranges over
  // all of them.
  DimGroup g = normalize(*loops[d]);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (groupExtent(*this, g) != std::optional<int64_t>(ranges[d]))
    return nullptr;
  // As j < K, or its negation.
  int64_t limit;
  bool negated;
  switch (pred) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    limit = k, negated = false;
    break;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    limit = k + 1, negated = false;
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    limit = k + 1, negated = true;
    break;
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    limit = k, negated = true;
    break;
  default:
    return nullptr;
  }
  Type type = def->getResult(0).getType();
  Expr *a = evalBody(op, select.getTrueValue(), loops);
  Expr *b = evalBody(op, select.getFalseValue(), loops);
  if (negated)
    std::swap(a, b);
  Expr *mask = indicator(g, limit, type);
  if (!a || !b || !mask)
    return nullptr;
  // I·a + (1 − I)·b; the second part vanishes for b = 0.
  Expr *taken = node(ExprKind::Mul, type, {mask, a});
  if (b->kind == ExprKind::Const && b->constant == 0.0)
    return taken;
  Expr *rest = node(ExprKind::Mul, type, {mask, b});
  return node(ExprKind::Add, type,
              {taken, node(ExprKind::Sub, type, {b, rest})});
}
