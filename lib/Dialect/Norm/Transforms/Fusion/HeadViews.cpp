//===- HeadViews.cpp - a product's heads through reshapes ----------------===//
//
// Each tensor on the way from the product to the norm is described as a
// layout of the product: per dim, its pieces from outer to inner, a piece
// being `size` indices of one row dim of the product, or of its columns,
// taken `inner` apart (in that dim's units: columns for the columns, so a
// reshape may cut them at any divisor, not only at heads). Reshapes regroup
// the pieces (a collapse concatenates them, an expand cuts them from the
// inner end), transposes permute the dims. Rows of the product that a reshape
// regroups in ways pieces cannot say (dynamic sizes cut differently) become
// opaque row pieces: only that they index whole rows is kept, which is all
// the norm needs of them. The normalized dim must end as the one piece of
// D columns 1 apart: D consecutive columns of a row, one head.
//
//===----------------------------------------------------------------------===//

#include "HeadViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `size` indices of product dim `dim` (the last: its N columns), `inner`
/// of its units apart; `dim` -1 for an opaque piece of rows.
struct Piece {
  int64_t dim;
  int64_t size;
  int64_t inner;
  bool operator==(const Piece &o) const {
    return dim == o.dim && size == o.size && inner == o.inner;
  }
};
using DimPieces = SmallVector<Piece, 2>;
using Layout = SmallVector<DimPieces>;

bool isDynamic(int64_t size) { return ShapedType::isDynamic(size); }

/// Drops unit pieces and merges neighbours that are one run of a dim.
DimPieces normalize(ArrayRef<Piece> pieces) {
  DimPieces out;
  for (const Piece &p : pieces) {
    if (p.size == 1)
      continue;
    if (!out.empty()) {
      Piece &prev = out.back();
      if (prev.dim == p.dim && p.dim >= 0 && !isDynamic(p.size) &&
          prev.inner == p.size * p.inner) {
        prev.size = isDynamic(prev.size) ? prev.size : prev.size * p.size;
        prev.inner = p.inner;
        continue;
      }
    }
    out.push_back(p);
  }
  return out;
}

/// Cuts a dim of static size `need` from the inner end of `pieces` into
/// `out`. False when the cut falls inside a piece it does not divide.
bool cutStatic(DimPieces &pieces, int64_t need, DimPieces &out) {
  DimPieces piece;
  while (need > 1) {
    if (pieces.empty())
      return false;
    Piece p = pieces.back();
    if (isDynamic(p.size)) {
      // A static extent cut from a dynamic one (its outer part stays
      // dynamic); the IR's sizes say it divides.
      pieces.back().inner = p.inner * need;
      piece.insert(piece.begin(), Piece{p.dim, need, p.inner});
      need = 1;
    } else if (need % p.size == 0) {
      piece.insert(piece.begin(), p);
      pieces.pop_back();
      need /= p.size;
    } else if (p.size % need == 0) {
      pieces.back().size = p.size / need;
      pieces.back().inner = p.inner * need;
      piece.insert(piece.begin(), Piece{p.dim, need, p.inner});
      need = 1;
    } else {
      return false;
    }
  }
  out = normalize(piece);
  return true;
}

/// Cuts `pieces` into dims of `sizes` (outer to inner), from the inner
/// end. `oneDynamic`: the one dynamic size and the one dynamic piece are
/// the same extent. False when a cut falls inside a piece it does not
/// divide, or at a dynamic size it cannot place.
bool cutExactly(DimPieces pieces, ArrayRef<int64_t> sizes, bool oneDynamic,
                SmallVectorImpl<DimPieces> &out) {
  out.assign(sizes.size(), {});
  for (int64_t i = sizes.size() - 1; i >= 1; --i) {
    if (isDynamic(sizes[i])) {
      if (!oneDynamic || pieces.empty() || !isDynamic(pieces.back().size))
        return false;
      // Its extent is the whole dynamic piece only when no size before it
      // takes a part of it ([?] as [2, ?]: the 2 are outer to a dynamic
      // extent of a half of the piece, which pieces cannot place).
      if (llvm::any_of(sizes.take_front(i), [](int64_t s) { return s != 1; }))
        return false;
      out[i].push_back(pieces.pop_back_val());
      continue;
    }
    if (!cutStatic(pieces, sizes[i], out[i]))
      return false;
  }
  out[0] = normalize(pieces);
  return true;
}

/// Cuts the static inner sizes of `sizes` (those after the last dynamic
/// one) exactly from the inner end of `pieces`; the outer sizes regroup
/// what is left at sizes pieces cannot say, so they become opaque pieces:
/// each of their indices is one run of what is left (whole rows, or a row
/// and some of its columns), which is all a norm needs of them when the
/// normalized dim is among the inner ones. ([?, 32] flattened into
/// [?, ?, 8]: the 8 are a head of the columns, the two dynamic sizes index
/// the rows and the heads in some grouping.) False when there is no
/// dynamic size or a static cut fails.
bool cutInnerStatic(DimPieces pieces, ArrayRef<int64_t> sizes,
                    SmallVectorImpl<DimPieces> &out) {
  int64_t firstStatic = sizes.size();
  while (firstStatic > 0 && !isDynamic(sizes[firstStatic - 1]))
    --firstStatic;
  if (firstStatic == 0)
    return false;
  out.assign(sizes.size(), {});
  for (int64_t i = sizes.size() - 1; i >= firstStatic; --i)
    if (!cutStatic(pieces, sizes[i], out[i]))
      return false;
  for (int64_t i = 0; i < firstStatic; ++i)
    if (sizes[i] != 1)
      out[i].push_back(Piece{-1, sizes[i], 1});
  return true;
}

/// `pieces` regrouped into dims of `sizes`; false when the regrouping
/// cuts columns of the product where pieces cannot say it.
bool cut(const DimPieces &pieces, ArrayRef<int64_t> sizes, int64_t rowDims,
         SmallVectorImpl<DimPieces> &out) {
  int64_t dynamicSizes = llvm::count_if(sizes, isDynamic);
  int64_t dynamicPieces =
      llvm::count_if(pieces, [](const Piece &p) { return isDynamic(p.size); });
  if (cutExactly(pieces, sizes, dynamicSizes == 1 && dynamicPieces == 1, out))
    return true;
  // Dynamic sizes outside static inner ones that cut exactly.
  if (cutInnerStatic(pieces, sizes, out))
    return true;
  // Rows only: any regrouping of rows keeps whole rows.
  if (!llvm::all_of(pieces, [&](const Piece &p) { return p.dim < rowDims; }))
    return false;
  out.assign(sizes.size(), {});
  for (auto [dims, size] : llvm::zip(out, sizes))
    if (size != 1)
      dims.push_back(Piece{-1, size, 1});
  return true;
}

std::string shapeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// A view to follow: an op, or (`op` null) the columns' half of an
/// expand_shape that also splits the product's rows, applied after its
/// rows' half: the row dims kept, the columns' group cut (`groups`, into
/// `type`).
struct View {
  Operation *op = nullptr;
  SmallVector<ReassociationIndices> groups;
  RankedTensorType type;

  RankedTensorType getType() const {
    return op ? cast<RankedTensorType>(op->getResult(0).getType()) : type;
  }
  std::string getName() const {
    return op ? op->getName().getStringRef().str() : "tensor.expand_shape";
  }
};

/// The view `view` applied to `in`; false (with `why`) when it cannot be
/// followed.
bool applyView(const View &view, const Layout &in, int64_t rowDims, Layout &out,
               std::string &why) {
  Operation *op = view.op;
  auto resultType = view.getType();
  out.clear();
  auto cutFailed = [&](int64_t dim, ArrayRef<int64_t> sizes) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "dim " << dim << " into [";
    llvm::interleaveComma(sizes, os, [&](int64_t s) {
      if (isDynamic(s))
        os << "?";
      else
        os << s;
    });
    os << "]";
    why = "splits its input's " + text +
          ", which cuts the product's columns (or rows beside them) where "
          "they are not whole heads or whole rows" +
          (llvm::any_of(sizes, isDynamic) ? " (or at a dynamic size)" : "");
    return false;
  };
  auto applyExpand = [&](ArrayRef<ReassociationIndices> groups) {
    for (auto [i, group] : llvm::enumerate(groups)) {
      SmallVector<int64_t> sizes;
      for (int64_t d : group)
        sizes.push_back(resultType.getDimSize(d));
      SmallVector<DimPieces> dims;
      if (!cut(in[i], sizes, rowDims, dims))
        return cutFailed(i, sizes);
      out.append(dims.begin(), dims.end());
    }
    return true;
  };
  if (!op)
    return applyExpand(view.groups);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return applyExpand(expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    for (const ReassociationIndices &group :
         collapse.getReassociationIndices()) {
      DimPieces merged;
      for (int64_t d : group)
        merged.append(in[d].begin(), in[d].end());
      out.push_back(normalize(merged));
    }
    return true;
  }
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    DimPieces all;
    for (const DimPieces &dim : in)
      all.append(dim.begin(), dim.end());
    SmallVector<DimPieces> dims;
    if (!cut(normalize(all), resultType.getShape(), rowDims, dims)) {
      cutFailed(0, resultType.getShape());
      why = "(the whole input flattened) " + why;
      return false;
    }
    out.append(dims.begin(), dims.end());
    return true;
  }
  if (isa<tensor::CastOp, arith::TruncFOp, arith::ExtFOp>(op)) {
    out = in;
    return true;
  }
  // Named: a range-for over `*viewPermutation(op)` would iterate a
  // destroyed temporary (its lifetime is not extended through operator*).
  std::optional<SmallVector<int64_t>> perm = viewPermutation(op);
  for (int64_t p : *perm)
    out.push_back(in[p]);
  return true;
}

/// Why dim `pieces` (the normalized dim, of size `d`) is not one head.
std::string whyNotOneHead(const DimPieces &pieces, int64_t rowDims, int64_t d,
                          int64_t heads) {
  std::string text = "its normalized dim (size " + std::to_string(d) +
                     ") is not " + std::to_string(d) +
                     " consecutive columns of one row of the product: it ";
  if (llvm::any_of(pieces, [&](const Piece &p) { return p.dim < rowDims; }))
    return text + "takes elements of different rows";
  if (llvm::any_of(pieces, [&](const Piece &p) {
        return p.inner * p.size > d || d % (p.inner * p.size) != 0;
      }))
    return text +
           "takes columns of different heads (each row of the "
           "product as " +
           std::to_string(heads) + " heads of " + std::to_string(d) + ")";
  return text + "takes a head's columns in another order";
}

} // namespace

namespace {

/// The permutation of `op` when it has one input and one init on tensors,
/// all loops parallel, permutation maps, and a body that yields its input,
/// or (`allowCast`) one arith.truncf / arith.extf of it.
std::optional<SmallVector<int64_t>> permutationOf(linalg::LinalgOp op,
                                                  bool allowCast) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  Block &body = op->getRegion(0).front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1 || body.getNumArguments() < 1)
    return std::nullopt;
  Value in0 = body.getArgument(0);
  if (body.getOperations().size() == 1) {
    if (yield.getOperand(0) != in0)
      return std::nullopt;
  } else {
    Operation &cast = body.front();
    if (!allowCast || body.getOperations().size() != 2 ||
        !isa<arith::TruncFOp, arith::ExtFOp>(cast) ||
        cast.getOperand(0) != in0 || yield.getOperand(0) != cast.getResult(0))
      return std::nullopt;
  }
  AffineMap in = op.getIndexingMapsArray()[0];
  AffineMap out = op.getIndexingMapsArray()[1];
  if (!in.isPermutation() || !out.isPermutation())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (AffineExpr e : out.getResults()) {
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    perm.push_back(
        *in.getResultPosition(getAffineDimExpr(loop, op.getContext())));
  }
  return perm;
}

/// A tensor arith.truncf / arith.extf (an elementwise op on tensors).
bool isTensorArithCast(Operation *op) {
  return isa<arith::TruncFOp, arith::ExtFOp>(op) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

} // namespace

std::optional<SmallVector<int64_t>>
mlir::norm::copyPermutation(linalg::GenericOp op) {
  return permutationOf(op, /*allowCast=*/false);
}

bool mlir::norm::isElementCast(Operation *op) {
  if (!op || op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      getElementTypeOrSelf(op->getOperand(0).getType()) ==
          getElementTypeOrSelf(op->getResult(0).getType()))
    return false;
  if (isTensorArithCast(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && !isa<linalg::TransposeOp>(op) &&
         permutationOf(linalgOp, /*allowCast=*/true).has_value();
}

std::optional<SmallVector<int64_t>> mlir::norm::viewPermutation(Operation *op) {
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(op))
    return llvm::to_vector(transpose.getPermutation());
  if (op && isTensorArithCast(op))
    return llvm::to_vector(llvm::seq<int64_t>(
        cast<RankedTensorType>(op->getResult(0).getType()).getRank()));
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  // A copy through permutation maps, or an element cast (a truncf or extf
  // body): what the walk accepts as a view.
  std::optional<SmallVector<int64_t>> perm =
      permutationOf(linalgOp, /*allowCast=*/true);
  if (perm && !isElementCast(op) && !isa<linalg::GenericOp>(op))
    return std::nullopt;
  return perm;
}

Value mlir::norm::headViewSource(Operation *op) {
  // Unranked reshapes and casts have no dims to follow.
  if (!op || op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      !isa<RankedTensorType>(op->getResult(0).getType()) ||
      !isa<RankedTensorType>(op->getOperand(0).getType()))
    return {};
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
          tensor::CastOp>(op))
    return op->getOperand(0);
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.hasPureTensorSemantics() ? transpose.getInput() : Value();
  if (isTensorArithCast(op))
    return op->getOperand(0);
  // A transpose as torch-mlir writes it (a generic copy), or an element
  // cast (with or without a transpose).
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return viewPermutation(op) ? linalgOp.getDpsInputOperand(0)->get()
                               : Value();
  return {};
}

namespace {

/// analyzeHeadViews from a product of type `productType` through `views`.
FailureOr<HeadSplit> analyze(RankedTensorType productType, ArrayRef<View> views,
                             std::string &why) {
  RankedTensorType normType = views.back().getType();
  int64_t n = productType.getShape().back();
  int64_t d = normType.getShape().back();
  // Pieces are cut by division: an empty tensor on the way has none to cut.
  auto hasZeroDim = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() &&
           llvm::is_contained(shaped.getShape(), 0);
  };
  if (hasZeroDim(productType) || llvm::any_of(views, [&](const View &view) {
        return hasZeroDim(view.getType());
      })) {
    why = "the matmul's product or a view of it has a dim of size 0";
    return failure();
  }
  if (isDynamic(n)) {
    why = "the matmul's N is dynamic, so its split into heads is unknown";
    return failure();
  }
  if (isDynamic(d)) {
    why = "the norm's last dim is dynamic, so its heads of the product are "
          "unknown";
    return failure();
  }
  if (n % d != 0) {
    why = "its normalized dim (" + std::to_string(d) +
          ") does not divide the matmul's N (" + std::to_string(n) +
          "), so a normalized row would span rows of the product";
    return failure();
  }
  // The heads view [p_0, ..., p_{k-2}, H, D]: dims 0..k-2 index rows.
  int64_t rowDims = productType.getRank() - 1;
  SmallVector<int64_t> headsShape(productType.getShape().drop_back());
  headsShape.append({n / d, d});
  Layout layout;
  for (int64_t i = 0; i < rowDims; ++i)
    layout.push_back(normalize({Piece{i, headsShape[i], 1}}));
  layout.push_back(normalize({Piece{rowDims, n, 1}}));

  // The view that last changed the normalized dim, for the remark.
  int64_t lastChange = -1;
  for (auto [k, view] : llvm::enumerate(views)) {
    Layout next;
    std::string viewWhy;
    std::string where =
        "'" + view.getName() + "' (view " + std::to_string(k + 1) + " of " +
        std::to_string(views.size()) + " after the matmul, to " +
        shapeText(view.getType()) + ")";
    if (!applyView(view, layout, rowDims, next, viewWhy)) {
      why = where + " " + viewWhy;
      return failure();
    }
    if (next.empty() || layout.empty() || next.back() != layout.back())
      lastChange = k;
    layout = std::move(next);
  }
  DimPieces last = normalize(layout.back());
  DimPieces head = normalize({Piece{rowDims, d, 1}});
  if (last != head) {
    why = whyNotOneHead(last, rowDims, d, n / d);
    if (lastChange >= 0)
      why += " ('" + views[lastChange].getName() + "', view " +
             std::to_string(lastChange + 1) + " of " +
             std::to_string(views.size()) + " after the matmul, makes it so)";
    return failure();
  }
  // The other dims' columns then step by whole heads (the views being
  // bijections); checked all the same, as what the fused op relies on.
  for (const DimPieces &dim : ArrayRef(layout).drop_back()) {
    for (const Piece &p : dim) {
      if (p.dim == rowDims && p.inner % d != 0) {
        why = "the product's columns are not split into whole heads of " +
              std::to_string(d);
        return failure();
      }
    }
  }
  HeadSplit split;
  split.headDim = d;
  for (const DimPieces &dim : layout) {
    DimPieces pieces = normalize(dim);
    if (pieces.empty()) {
      split.headsViewDim.push_back(-2);
      split.dimPieces.emplace_back();
      continue;
    }
    // Whole dims: a row dim, H (the columns D apart) or D.
    const Piece &p = pieces.front();
    int64_t whole = -1;
    if (pieces.size() == 1 && p.dim >= 0 && p.dim < rowDims && p.inner == 1 &&
        p.size == headsShape[p.dim])
      whole = p.dim;
    else if (pieces.size() == 1 && p.dim == rowDims && p.inner == d &&
             p.size == n / d)
      whole = rowDims;
    else if (pieces.size() == 1 && p.dim == rowDims && p.inner == 1 &&
             p.size == d)
      whole = rowDims + 1;
    split.headsViewDim.push_back(whole);
    // The columns' pieces in heads (H, D apart) or in a head (D): the
    // normalized dim is one head, the others' columns step by whole heads.
    auto &out = split.dimPieces.emplace_back();
    for (const Piece &q : pieces) {
      if (q.dim < 0 || q.dim < rowDims)
        out.push_back({q.dim, q.size, q.inner});
      else if (q.inner % d == 0)
        out.push_back({rowDims, q.size, q.inner / d});
      else
        out.push_back({rowDims + 1, q.size, q.inner});
    }
  }
  return split;
}

} // namespace

FailureOr<HeadSplit> mlir::norm::analyzeHeadViews(Value product,
                                                  ArrayRef<Operation *> views,
                                                  std::string &why) {
  SmallVector<View> steps;
  for (Operation *op : views)
    steps.push_back(View{op, {}, {}});
  return analyze(cast<RankedTensorType>(product.getType()), steps, why);
}

RankedTensorType mlir::norm::rowSplitType(RankedTensorType view,
                                          int64_t rowDims, int64_t n,
                                          Type elementType) {
  SmallVector<int64_t> shape(view.getShape().take_front(rowDims));
  shape.push_back(n);
  return RankedTensorType::get(shape, elementType);
}

FailureOr<HeadSplit> mlir::norm::analyzeHeadViewsAfterRowSplit(
    RankedTensorType view, int64_t rowDims, int64_t n,
    ArrayRef<Operation *> views, std::string &why) {
  RankedTensorType splitType =
      rowSplitType(view, rowDims, n, view.getElementType());
  SmallVector<View> steps;
  if (view.getRank() - rowDims > 1) {
    // The columns' half: the split rows' dims one each, N into the
    // view's other dims.
    View heads;
    for (int64_t d = 0; d < rowDims; ++d)
      heads.groups.push_back({d});
    heads.groups.push_back(
        llvm::to_vector(llvm::seq<int64_t>(rowDims, view.getRank())));
    heads.type = view;
    steps.push_back(std::move(heads));
  }
  for (Operation *op : views)
    steps.push_back(View{op, {}, {}});
  if (steps.empty()) {
    why = "the product's rows split is the norm's input: no heads";
    return failure();
  }
  return analyze(splitType, steps, why);
}
