//===- EpilogueFusion.cpp - matmul → norm into one fused op --------------===//
//
// A norm whose input is a matmul (+ bias) (+ residual add) becomes one
// norm.matmul_{rms,layer}_norm. The residual comes from the norm's own
// `residual` operand or from an add between the matmul and the norm; when the
// residual stream reads that sum, the fused op returns it (`sum_outs`).
// A norm over the heads of a product (QK-norm: the product reshaped to
// [..., H, D], maybe transposed, normalized over D; any views whose
// composite regroups N into heads of D, HeadViews.h) becomes the fused op
// with `head_dim = D`, followed by the same reshapes and transposes.
// Mixed types: a product wider than A and W (bf16 into f32) is the fused
// op's output type, S rounding to it; its truncation to bf16 before the norm
// makes S (and Y) bf16 instead, as does that of an f32 product of f32 A
// and W. A product that is a norm.rms_norm_matmul's
// (norm → matmul → norm: Qwen3's and Gemma 3's q/k norms after the input
// norm) gives the fused op that norm as its input norm (`input_epsilon`).
// A per-head norm with a rotary embedding (QK-norm → RoPE) takes it along
// when its angles are in the frame of the product split into heads.
//
//===----------------------------------------------------------------------===//

#include "DeadProducers.h"
#include "HeadViews.h"
#include "MatmulMatching.h"
#include "NormOpView.h"
#include "RopeAngles.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::norm;

namespace {

/// A size of a view of the product, as the fused op can compute it without
/// the product: `constant` times `values` (output_shape sizes of the
/// views, which dominate the norm) times dims `lhsDims` of the matmul's A
/// (the product's row dims, A having its rank).
struct ViewSize {
  int64_t constant = 1;
  SmallVector<Value> values;
  SmallVector<int64_t> lhsDims;
  /// The product's row dim the dim is, unregrouped (-1: none).
  int64_t rowDim = -1;
};

/// Reshapes after the product (`ops`, the product's user first, after the
/// views that only change the type) whose last result regroups the
/// product's rows into its first `rowDims` dims and splits its N columns
/// into the others: [B·T, N] as [B, T, H, D], or [B, T, N] collapsed to
/// [B·T, N] and expanded to [B, T, H, D]. A chain of reshapes keeps the
/// elements' row-major order, so a result whose inner static dims multiply
/// to N is exactly that: rows over N columns.
struct RowSplit {
  SmallVector<Operation *> ops;
  int64_t rowDims = 0;
  /// The sizes of the first `rowDims` dims of the last result.
  SmallVector<ViewSize> rowSizes;

  explicit operator bool() const { return !ops.empty(); }
  Value result() const { return ops.back()->getResult(0); }
  RankedTensorType viewType() const {
    return cast<RankedTensorType>(result().getType());
  }
};

/// The matmul feeding `norm`, directly or through a residual add, or
/// through views that split its rows into heads.
struct ProducerMatch {
  MatmulMatch matmul;
  Value residual;
  /// The add of `residual` between the matmul and the norm, if any.
  Operation *residualAdd = nullptr;
  /// The reshapes and transposes between the product and the norm, the
  /// product's user first; the norm then normalizes heads of `headDim`
  /// columns of the product's rows (0: whole rows).
  SmallVector<Operation *> views;
  int64_t headDim = 0;
  /// Through views: how the norm's input dims index the product's heads
  /// view [..., H, D].
  HeadSplit split;
  /// Reshapes first among the views that regroup the product's rows
  /// ([B·T, N] into [B, T, N], at the sizes of their output_shape), maybe
  /// its columns into heads as well ([B·T, N] into [B, T, H, D], what
  /// canonicalization makes of the two), whose regrouping of the rows the
  /// fused op takes itself: its A is split the same way and its output is
  /// the rows so split (rowSplitType), followed by the split of the
  /// columns when the last reshape has one; `views` and `split` then start
  /// after them.
  RowSplit rowSplit;
  /// The views before `rowSplit` that only change the type: tensor.cast
  /// (static ↔ dynamic sizes) and the product's rounding (`rounding`, when
  /// it comes first), which the fused op's output takes.
  SmallVector<Operation *> rowSplitLead;
  /// The view among `views` (or `rowSplitLead`) that rounds the product to
  /// the type the norm reads (an f32 product of bf16 A and W to bf16,
  /// isElementCast): the fused op's output has that type and S rounds to
  /// it, as the unfused product did; the views before it are rebuilt at
  /// that type.
  Operation *rounding = nullptr;
  /// norm → matmul → norm: the norm.rms_norm_matmul whose product the norm
  /// reads (`matmul` then describes its product and has no linalg op).
  RMSNormMatmulOp inputNorm;
};

/// The norm.rms_norm_matmul producing `value`, as the MatmulMatch of its
/// product, for a norm → matmul → norm op with its norm as the input norm.
/// Fails with `why` empty when `value` is not such an op's result, and says
/// why not when it is one the input norm cannot stand for.
FailureOr<MatmulMatch> matchInputNormMatmul(Value value, const NormOpView &norm,
                                            RMSNormMatmulOp &inputNorm,
                                            std::string &why) {
  auto op = value.getDefiningOp<RMSNormMatmulOp>();
  if (!op || !op.hasPureTensorSemantics() || op->getResult(0) != value)
    return failure();
  if (op.getResidual() || op.getRstdInit())
    why = "the norm → matmul producing it has a residual or saved statistics";
  else if (op.getPartialAttr())
    why = "the norm → matmul producing it is a partial RMSNorm";
  else if (norm.isLayerNorm)
    why = "a LayerNorm after a norm → matmul has no fused form (the input "
          "norm goes with matmul_rms_norm)";
  else if (op.getEpsMode() != norm.epsMode ||
           op.getAccumulationType() != (norm.accType
                                            ? norm.accType.getValue()
                                            : Type(op.getAccumulationType())))
    why = "the norm → matmul producing it has another eps_mode or acc_type";
  if (!why.empty())
    return failure();
  MatmulMatch match;
  match.lhs = op.getInput();
  match.rhs = op.getRhs();
  match.transposeRhs = op.getTransposeRhs();
  match.bias = op.getMatmulBias();
  match.result = value;
  inputNorm = op;
  return match;
}

/// The matmul, or the norm.rms_norm_matmul, producing `value`.
FailureOr<MatmulMatch> matchProduct(Value value, const NormOpView &norm,
                                    RMSNormMatmulOp &inputNorm,
                                    std::string &why) {
  std::string inputNormWhy;
  FailureOr<MatmulMatch> match =
      matchInputNormMatmul(value, norm, inputNorm, inputNormWhy);
  if (succeeded(match))
    return match;
  if (!inputNormWhy.empty()) {
    why = inputNormWhy;
    return failure();
  }
  return matchMatmulProducing(value, why);
}

/// Why the element casts among `views` (the product's user first) cannot
/// go into the fused op, or empty when they can, then setting `rounding`
/// to the one cast there is. The fused op computes the product in its
/// accumulation type and rounds S once, to its output type, which may be
/// the operands' type or wider, or bf16/f16 from f32 operands
/// (docs/design.md, "Mixed element types in the fused ops"): so one
/// truncation of a wider product (bf16 A and W accumulated into f32) to
/// the operands' type, or of the f32 product of f32 operands to bf16 or
/// f16, is where the fused op rounds anyway, wherever it sits among the
/// views (a cast commutes with them). Any other cast rounds where the
/// fused op does not.
std::string whyRoundingNotTaken(const MatmulMatch &match,
                                RMSNormMatmulOp inputNorm,
                                ArrayRef<Operation *> views,
                                Operation *&rounding) {
  rounding = nullptr;
  for (auto [k, view] : llvm::enumerate(views)) {
    if (!isElementCast(view))
      continue;
    Type from = getElementTypeOrSelf(view->getOperand(0).getType());
    Type to = getElementTypeOrSelf(view->getResult(0).getType());
    Type operands = getElementTypeOrSelf(match.lhs.getType());
    std::string where = " (by '" + view->getName().getStringRef().str() +
                        "', view " + std::to_string(k + 1) + " of " +
                        std::to_string(views.size()) + " after the matmul)";
    if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
      return "the product is widened from " + elementTypeName(from) + " to " +
             elementTypeName(to) + where + " after it was rounded to " +
             elementTypeName(from) +
             ": the fused op rounds the product once, to the type the norm "
             "reads, so it cannot round it to " +
             elementTypeName(from) + " first";
    if (rounding || match.truncation)
      return "the product is rounded a second time, to " + elementTypeName(to) +
             where + ": the fused op rounds it once";
    if (inputNorm)
      return "the product of the norm → matmul producing it is rounded to " +
             elementTypeName(to) + where +
             ": that op with its norm as the fused op's input norm keeps "
             "its own output type";
    // The first cast rounds the product itself (a cast of another type
    // came first otherwise, refused above), so `from` is its type.
    std::string why =
        whyRoundingNotFused(from, to, operands,
                            /*biasFirst=*/bool(match.bias), where);
    if (!why.empty())
      return why;
    rounding = view;
  }
  return "";
}

/// The matmul under the reshapes and transposes that feed `norm` (QK-norm:
/// [T, H·D] → [T, H, D] (→ [H, T, D]) → norm over D, or any regrouping of
/// the product's rows and of its N columns into heads of D: HeadViews.h).
FailureOr<ProducerMatch> matchThroughHeadViews(const NormOpView &norm,
                                               std::string &why) {
  ProducerMatch producer;
  Value v = norm.input;
  while (Value source = headViewSource(v.getDefiningOp())) {
    producer.views.push_back(v.getDefiningOp());
    v = source;
  }
  if (producer.views.empty())
    return failure();
  std::reverse(producer.views.begin(), producer.views.end());
  std::string matmulWhy;
  FailureOr<MatmulMatch> match =
      matchProduct(v, norm, producer.inputNorm, matmulWhy);
  if (failed(match)) {
    bool onlyCasts = llvm::all_of(
        producer.views, [](Operation *view) { return isElementCast(view); });
    why = std::string(onlyCasts ? "the casts" : "the reshapes") +
          " before the norm do not start at a matmul (" + matmulWhy + ")";
    return failure();
  }
  for (Operation *view : producer.views) {
    if (!view->getResult(0).hasOneUse()) {
      why = "a reshape or transpose of the product has other users";
      return failure();
    }
  }
  if (isElementCast(producer.views.front()) && !v.hasOneUse()) {
    why = "the product has other users besides its rounding";
    return failure();
  }
  why = whyRoundingNotTaken(*match, producer.inputNorm, producer.views,
                            producer.rounding);
  if (!why.empty())
    return failure();
  FailureOr<HeadSplit> split = analyzeHeadViews(v, producer.views, why);
  if (failed(split))
    return failure();
  int64_t n = cast<RankedTensorType>(v.getType()).getShape().back();
  producer.matmul = *match;
  // A head that is the whole row is a whole-row norm, unless the norm
  // rotates it: the fused op rotates per head only, and one head of N
  // columns is that (Gemma 3's k with one KV head).
  producer.headDim = split->headDim == n && !norm.cos ? 0 : split->headDim;
  producer.split = *split;
  return producer;
}

FailureOr<ProducerMatch> matchProducer(const NormOpView &norm,
                                       std::string &why) {
  ProducerMatch producer;
  producer.residual = norm.residual;
  FailureOr<MatmulMatch> match =
      norm.residual ? matchMatmulProducing(norm.input, why)
                    : matchProduct(norm.input, norm, producer.inputNorm, why);
  if (failed(match) && norm.residual) {
    // norm(x + product): the sum commutes, so x is the residual.
    std::string residualWhy;
    match = matchMatmulProducing(norm.residual, residualWhy);
    if (succeeded(match))
      producer.residual = norm.input;
  }
  if (failed(match) && !norm.residual) {
    // norm(product + r): the add is the residual stream's.
    Operation *add = norm.input.getDefiningOp();
    for (Value operand : add ? add->getOperands() : OperandRange(nullptr, 0)) {
      Value residual = matchSameShapeAdd(add, operand);
      if (!residual)
        continue;
      std::string addWhy;
      match = matchMatmulProducing(operand, addWhy);
      if (succeeded(match)) {
        producer.residual = residual;
        producer.residualAdd = add;
        break;
      }
    }
  }
  if (failed(match) && !norm.residual) {
    // Per-head norms (QK-norm) on views of the product.
    std::string viewWhy;
    FailureOr<ProducerMatch> heads = matchThroughHeadViews(norm, viewWhy);
    if (succeeded(heads)) {
      producer = *heads;
      match = heads->matmul;
    } else if (!viewWhy.empty()) {
      why = viewWhy;
    }
  }
  if (failed(match))
    return failure();
  producer.matmul = *match;
  SmallVector<Operation *> steps{producer.matmul.matmul.getOperation(),
                                 producer.inputNorm, producer.matmul.biasAdd,
                                 producer.residualAdd};
  steps.append(producer.views);
  for (Operation *step : steps) {
    if (step && step->getBlock() != norm.op->getBlock()) {
      why = "the matmul is in another block (fusing would move it into a "
            "loop body or out of one)";
      return failure();
    }
  }
  Operation *consumer = producer.residualAdd     ? producer.residualAdd
                        : producer.views.empty() ? norm.op
                                                 : producer.views.front();
  Value product = producer.matmul.result;
  if (!product.hasOneUse() || *product.getUsers().begin() != consumer) {
    why = "the matmul's result has other users";
    return failure();
  }
  // The fused op's output, S and Y have the product's type (as rounded:
  // bf16 A and W into f32, or into f32 then truncated back to bf16), which
  // the norm reads.
  Type productType = getElementTypeOrSelf(
      producer.rounding ? producer.rounding->getResult(0).getType()
                        : producer.matmul.result.getType());
  if (productType != getElementTypeOrSelf(norm.y.getType())) {
    why = "the matmul and the norm have different element types";
    return failure();
  }
  // (A narrower type, bf16 from f32 operands, was checked with the
  // rounding.)
  Type operandType = getElementTypeOrSelf(producer.matmul.lhs);
  why = isNarrowedOutputType(productType, operandType)
            ? std::string()
            : whyNotFusedOutputType(productType, operandType, norm.accType);
  if (!why.empty())
    return failure();
  return producer;
}

/// Why the rotary embedding of `norm` cannot go with the fused op (empty
/// when it can, or when there is none). The fused op's angles are indexed
/// like its output viewed as [..., H, D]: the dims the angles vary along
/// must index whole dims of that view through the norm's views, in the
/// same order, merged or split as they may be (anglesInHeadsView); the
/// angles then are a reshape of the table (Qwen3's [1, T, D] for [H, T, D]
/// heads is [T, 1, D] for the product's [T, H, D]; [T·H, D] is
/// [T, H, D]). `angleShape` is their shape there.
std::string whyRopeNotFused(const NormOpView &norm,
                            const ProducerMatch &producer,
                            SmallVector<int64_t> &angleShape) {
  if (!norm.cos)
    return "";
  if (!producer.headDim)
    return "its rotary embedding (rope) is per head, and the norm is not";
  const RowSplit &rowSplit = producer.rowSplit;
  auto productType = cast<RankedTensorType>(producer.matmul.result.getType());
  if (rowSplit)
    productType = rowSplitType(rowSplit.viewType(), rowSplit.rowDims,
                               productType.getShape().back(),
                               productType.getElementType());
  SmallVector<int64_t> headsShape(productType.getShape().drop_back());
  headsShape.append(
      {productType.getShape().back() / producer.headDim, producer.headDim});
  std::string why;
  FailureOr<SmallVector<int64_t>> shape =
      anglesInHeadsView(cast<RankedTensorType>(norm.cos.getType()).getShape(),
                        producer.split, headsShape, why);
  if (failed(shape))
    return why;
  angleShape = *shape;
  return "";
}

/// `sizes` (of a view's operand) as `view` (a reshape or tensor.cast)
/// gives them to its result.
SmallVector<ViewSize> viewSizes(Operation *view, ArrayRef<ViewSize> sizes) {
  auto type = cast<RankedTensorType>(view->getResult(0).getType());
  SmallVector<ViewSize> out;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(view)) {
    SmallVector<OpFoldResult> outputShape = expand.getMixedOutputShape();
    for (auto [i, group] : llvm::enumerate(expand.getReassociationIndices())) {
      for (int64_t d : group) {
        ViewSize &s = out.emplace_back();
        if (std::optional<int64_t> c = getConstantIntValue(outputShape[d]))
          s.constant = *c;
        else
          s.values.push_back(cast<Value>(outputShape[d]));
        if (group.size() == 1)
          s.rowDim = sizes[i].rowDim;
      }
    }
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(view)) {
    for (const ReassociationIndices &group :
         collapse.getReassociationIndices()) {
      ViewSize &s = out.emplace_back();
      for (int64_t d : group) {
        s.constant *= sizes[d].constant;
        llvm::append_range(s.values, sizes[d].values);
        llvm::append_range(s.lhsDims, sizes[d].lhsDims);
      }
      if (group.size() == 1)
        s.rowDim = sizes[group.front()].rowDim;
    }
  } else {
    // tensor.cast: a dim it makes static has that size.
    out.assign(sizes.begin(), sizes.end());
    for (auto [d, size] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(size))
        out[d] = ViewSize{size, {}, {}, out[d].rowDim};
  }
  return out;
}

/// The first dim of `shape` from which its dims are static and multiply to
/// `n` (the largest such), or none when no such inner dims exist: the
/// product's N columns are then merged with its rows or cut across dims.
std::optional<int64_t> columnsStart(ArrayRef<int64_t> shape, int64_t n) {
  int64_t product = 1;
  for (int64_t c = shape.size(); c > 0; --c) {
    int64_t size = shape[c - 1];
    if (ShapedType::isDynamic(size) || size == 0)
      return std::nullopt;
    product *= size;
    if (product == n)
      return c - 1;
    if (product > n || n % product != 0)
      return std::nullopt;
  }
  return std::nullopt;
}

/// The views of a product that may regroup its rows (takeRowSplit): those
/// first that only change the type, then the run of reshapes after them.
struct RowSplitChain {
  /// tensor.cast, and element casts that keep the dims in place.
  ArrayRef<Operation *> lead;
  /// Every view after `lead`.
  ArrayRef<Operation *> after;
  /// The expand_shape, collapse_shape and tensor.cast ops first in `after`.
  ArrayRef<Operation *> reshapes;
};

/// The views of `producer` as a RowSplitChain, or none when the fused op
/// could not take a regrouping of the product's rows (A's rank is not the
/// product's, N is dynamic) or no reshape among them could regroup them.
std::optional<RowSplitChain> findRowSplitChain(const ProducerMatch &producer) {
  RowSplitChain chain;
  chain.lead = ArrayRef(producer.views).take_while([](Operation *view) {
    if (isa<tensor::CastOp>(view))
      return true;
    std::optional<SmallVector<int64_t>> perm = viewPermutation(view);
    return isElementCast(view) && perm &&
           llvm::equal(*perm, llvm::seq<int64_t>(perm->size()));
  });
  chain.after = ArrayRef(producer.views).drop_front(chain.lead.size());
  chain.reshapes = chain.after.take_while([](Operation *view) {
    return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
        view);
  });
  auto productType = cast<RankedTensorType>(producer.matmul.result.getType());
  // A's rows are the product's (a 2-D matmul's A, a batch matmul's), so
  // its dims give the product's; some reshape regroups them.
  if (cast<RankedTensorType>(producer.matmul.lhs.getType()).getRank() !=
          productType.getRank() ||
      productType.isDynamicDim(productType.getRank() - 1) ||
      llvm::none_of(
          chain.reshapes,
          llvm::IsaPred<tensor::ExpandShapeOp, tensor::CollapseShapeOp>))
    return std::nullopt;
  return chain;
}

/// The sizes of the product's dims before any view: each row dim its own
/// (static, or A's dim of the same index), then the N columns.
SmallVector<ViewSize> productDimSizes(RankedTensorType productType) {
  SmallVector<ViewSize> sizes;
  for (int64_t d = 0, rows = productType.getRank() - 1; d < rows; ++d) {
    ViewSize &s = sizes.emplace_back();
    s.rowDim = d;
    if (productType.isDynamicDim(d))
      s.lhsDims.push_back(d);
    else
      s.constant = productType.getDimSize(d);
  }
  sizes.push_back(ViewSize{productType.getShape().back(), {}, {}, -1});
  return sizes;
}

/// Whether a view of type `type`, whose first `rowDims` dims (of `sizes`)
/// index whole rows, has the product's own rows, which need no split: as
/// many row dims, and one of them, each the product's dim, or the same
/// static sizes.
bool keepsProductRows(RankedTensorType type, int64_t rowDims,
                      ArrayRef<ViewSize> sizes, RankedTensorType productType) {
  int64_t rows = productType.getRank() - 1;
  if (rowDims != rows)
    return false;
  return rows == 1 ||
         llvm::all_of(llvm::seq<int64_t>(rows),
                      [&](int64_t d) { return sizes[d].rowDim == d; }) ||
         (type.getShape().take_front(rows) ==
              productType.getShape().drop_back() &&
          productType.hasStaticShape());
}

/// Reshape `k` of `chain` as a remark names it: its op, its place among
/// `producer`'s views and its result type.
std::string describeChainReshape(const ProducerMatch &producer,
                                 const RowSplitChain &chain, int64_t k) {
  Operation *view = chain.reshapes[k];
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << view->getName() << "' (view " << chain.lead.size() + k + 1
     << " of " << producer.views.size() << " after the matmul, to "
     << view->getResult(0).getType() << ")";
  return text;
}

/// `producer` with the fused op taking the rows as the first `k + 1`
/// reshapes of `chain` regroup them, into the first `rowDims` dims (of
/// `sizes`) of `type`, their result: the views after them must split the
/// N columns into heads (analyzeHeadViewsAfterRowSplit), else it fails.
FailureOr<ProducerMatch> rowSplitCandidate(const ProducerMatch &producer,
                                           const RowSplitChain &chain,
                                           int64_t k, RankedTensorType type,
                                           int64_t rowDims,
                                           ArrayRef<ViewSize> sizes) {
  int64_t n = cast<RankedTensorType>(producer.matmul.result.getType())
                  .getShape()
                  .back();
  ArrayRef<Operation *> rest = chain.after.drop_front(k + 1);
  std::string analyzeWhy;
  FailureOr<HeadSplit> split =
      analyzeHeadViewsAfterRowSplit(type, rowDims, n, rest, analyzeWhy);
  if (failed(split))
    return failure();
  ProducerMatch candidate = producer;
  candidate.views.assign(rest.begin(), rest.end());
  candidate.split = *split;
  candidate.headDim = split->headDim;
  candidate.rowSplit.ops.assign(chain.reshapes.begin(),
                                chain.reshapes.begin() + k + 1);
  candidate.rowSplit.rowDims = rowDims;
  candidate.rowSplit.rowSizes.assign(sizes.begin(), sizes.begin() + rowDims);
  candidate.rowSplitLead.assign(chain.lead.begin(), chain.lead.end());
  return candidate;
}

/// The rotation of `norm` when its angles vary along rows that the views
/// regroup at dynamic sizes (Hugging Face's [B·T, N] product viewed as
/// [B, T, N], angles [1, T, 1, D] or [T, D]): against the product's
/// [B·T, H, D] they would be the table repeated B times, but the fused op
/// can take the regrouping itself (A viewed as [B, T, K] at the same
/// sizes, the output [B, T, N]), and in its [B, T, H, D] the angles are a
/// reshape of the table, the kernels reading angle row (row / H) mod T.
/// The regrouping is what the reshapes first among the views (expand_shape,
/// collapse_shape, tensor.cast, after the casts of the element type only)
/// make of the product's rows up to one of them whose result keeps the N
/// columns whole in its inner dims (RowSplit): one expand_shape, or a
/// collapse and an expand as torch-mlir writes `aten.view` ([B, T, N]
/// collapsed to [B·T, N], expanded to [B, T, H, D]). The reshape may split
/// the columns into heads too: the fused op takes the rows' half, the
/// columns' half stays a view of its output. Updates `producer` and
/// `angleShape` when that works; fails (leaving them) otherwise, then
/// adding to `why` (the reason in the product's view) why not, unless no
/// reshape regroups the rows.
LogicalResult takeRowSplit(const NormOpView &norm, ProducerMatch &producer,
                           SmallVector<int64_t> &angleShape, std::string &why) {
  std::optional<RowSplitChain> chain = findRowSplitChain(producer);
  if (!chain)
    return failure();
  auto productType = cast<RankedTensorType>(producer.matmul.result.getType());
  int64_t n = productType.getShape().back();
  SmallVector<ViewSize> sizes = productDimSizes(productType);
  std::string splitWhy;
  bool regroupsRows = false;
  bool wholeRows = true;
  for (int64_t k = 0, e = chain->reshapes.size(); k < e; ++k) {
    sizes = viewSizes(chain->reshapes[k], sizes);
    auto type =
        cast<RankedTensorType>(chain->reshapes[k]->getResult(0).getType());
    std::optional<int64_t> c = columnsStart(type.getShape(), n);
    wholeRows = c && *c > 0;
    if (!wholeRows || keepsProductRows(type, *c, sizes, productType))
      continue;
    regroupsRows = true;
    FailureOr<ProducerMatch> candidate =
        rowSplitCandidate(producer, *chain, k, type, *c, sizes);
    if (failed(candidate))
      continue;
    SmallVector<int64_t> shape;
    std::string ropeWhy = whyRopeNotFused(norm, *candidate, shape);
    if (ropeWhy.empty()) {
      producer = std::move(*candidate);
      angleShape = std::move(shape);
      return success();
    }
    if (splitWhy.empty())
      splitWhy =
          "; nor in the view of its rows split as the " +
          (k == 0 ? std::string("first reshape splits them")
                  : "first " + std::to_string(k + 1) +
                        " reshapes split them (to " +
                        describeChainReshape(producer, *chain, k) + ")") +
          " (which the fused op could take): " + ropeWhy;
  }
  if (!splitWhy.empty())
    why += splitWhy;
  else if (!regroupsRows && !wholeRows)
    why += "; nor in a view of its rows split by the reshapes after it "
           "(which the fused op could take): " +
           describeChainReshape(producer, *chain, chain->reshapes.size() - 1) +
           " does not keep the product's " + std::to_string(n) +
           " columns whole in its inner static dims (it merges them with "
           "rows, or cuts them across a dynamic dim), so its dims do not "
           "index whole rows of the product";
  return failure();
}

/// `size` as an index value (or attribute) at `b`'s insertion point, dims
/// of A read from `lhs`.
OpFoldResult materializeSize(OpBuilder &b, Location loc, const ViewSize &size,
                             Value lhs) {
  SmallVector<Value> factors(size.values);
  for (int64_t d : size.lhsDims)
    factors.push_back(tensor::DimOp::create(b, loc, lhs, d));
  if (factors.empty())
    return b.getIndexAttr(size.constant);
  if (size.constant != 1)
    factors.push_back(arith::ConstantIndexOp::create(b, loc, size.constant));
  Value product = factors.front();
  for (Value factor : ArrayRef(factors).drop_front())
    product = arith::MulIOp::create(b, loc, product, factor);
  return product;
}

/// `value` ([R_0, ..., C], rows as the product's) with its rows regrouped
/// as `rowSplit` regroups the product's, at `rowSizes`, C whole
/// ([B, T, C]): A viewed as the fused op's rows when it takes the split
/// (C = K).
Value splitRows(OpBuilder &b, Location loc, Value value,
                const RowSplit &rowSplit, ArrayRef<OpFoldResult> rowSizes) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  // The rows as one dim, dynamic when a split size is (as expand_shape
  // wants it), else their static count.
  ArrayRef<int64_t> split =
      rowSplit.viewType().getShape().take_front(rowSplit.rowDims);
  int64_t rows = 1;
  for (int64_t size : split)
    rows = ShapedType::isDynamic(size) || ShapedType::isDynamic(rows)
               ? ShapedType::kDynamic
               : rows * size;
  if (rank > 2) {
    SmallVector<ReassociationIndices> groups{
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)), {rank - 1}};
    value = tensor::CollapseShapeOp::create(b, loc, value, groups);
  }
  auto flat = cast<RankedTensorType>(value.getType());
  if (flat.getDimSize(0) != rows)
    value = tensor::CastOp::create(
        b, loc, RankedTensorType::get({rows, flat.getDimSize(1)}, element),
        value);
  if (rowSplit.rowDims == 1)
    return value;
  SmallVector<OpFoldResult> sizes(rowSizes);
  sizes.push_back(tensor::getMixedSize(b, loc, value, 1));
  SmallVector<int64_t> shape(split);
  shape.push_back(flat.getDimSize(1));
  SmallVector<ReassociationIndices> groups{
      llvm::to_vector(llvm::seq<int64_t>(0, rowSplit.rowDims)),
      {rowSplit.rowDims}};
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, element), value, groups, sizes);
}

/// The fused op's output `rows` (the product's rows split by `rowSplit`,
/// rowSplitType) as `rowSplit`'s result: its columns split by the last
/// reshape's static sizes when it splits them ([B, T, N] into
/// [B, T, H, D]), else `rows` itself.
Value splitColumns(OpBuilder &b, Location loc, Value rows,
                   const RowSplit &rowSplit, ArrayRef<OpFoldResult> rowSizes) {
  RankedTensorType view = rowSplit.viewType();
  if (view.getRank() - rowSplit.rowDims == 1)
    return rows;
  auto type = cast<RankedTensorType>(rows.getType());
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rowSplit.rowDims; ++d)
    groups.push_back({d});
  groups.push_back(
      llvm::to_vector(llvm::seq<int64_t>(rowSplit.rowDims, view.getRank())));
  SmallVector<OpFoldResult> sizes(rowSizes);
  for (int64_t size : view.getShape().drop_front(rowSplit.rowDims))
    sizes.push_back(b.getIndexAttr(size));
  return tensor::ExpandShapeOp::create(
      b, loc, view.clone(type.getElementType()), rows, groups, sizes);
}

/// `view` (a view of the product before its rounding) applied again to
/// `input`, a view of the fused op's output, which has the rounded type:
/// a reshape or cast at that type, a transpose as `linalg.transpose`.
Value rebuildViewAtType(RewriterBase &rewriter, Location loc, Operation *view,
                        Value input, IRMapping &mapping) {
  auto type = cast<RankedTensorType>(view->getResult(0).getType())
                  .clone(getElementTypeOrSelf(input.getType()));
  Value result;
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
          tensor::CastOp>(view)) {
    Operation *clone = rewriter.clone(*view, mapping);
    clone->getResult(0).setType(type);
    result = clone->getResult(0);
  } else {
    SmallVector<int64_t> perm = *viewPermutation(view);
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm)
      sizes.push_back(tensor::getMixedSize(rewriter, loc, input, p));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    if (init.getType() != type)
      init = tensor::CastOp::create(rewriter, loc, type, init);
    result = linalg::TransposeOp::create(rewriter, loc, input, init, perm)
                 ->getResult(0);
  }
  mapping.map(view->getResult(0), result);
  return result;
}

/// The norm.matmul_rms_norm of `producer` and `norm`, with the producing
/// norm.rms_norm_matmul's norm as its input norm when there is one.
Operation *createMatmulRMSNorm(RewriterBase &rewriter, Location loc,
                               TypeRange resultTypes,
                               const ProducerMatch &producer,
                               const NormOpView &norm, Value cos, Value sin,
                               Value init, Value sumInit, Value rstdInit,
                               IntegerAttr headDim) {
  const MatmulMatch &mm = producer.matmul;
  RMSNormMatmulOp in = producer.inputNorm;
  Value inputWeight;
  Attribute inputEpsilon, inputOffset;
  CastModeAttr inputCastMode;
  if (in) {
    inputWeight = in.getWeight();
    // Present even when the producer left ε at its default: it says the
    // input norm is there.
    inputEpsilon = in.getEpsilonAttr()
                       ? in.getEpsilonAttr()
                       : rewriter.getF64FloatAttr(in.getEpsilonValue());
    inputOffset = in.getWeightOffsetAttr();
    inputCastMode = in.getCastModeAttr();
  }
  return MatmulRMSNormOp::create(
      rewriter, loc, resultTypes, mm.lhs, mm.rhs, mm.bias, producer.residual,
      norm.weight, inputWeight, cos, sin, init, sumInit, rstdInit, norm.epsilon,
      norm.weightOffset, norm.accType, norm.epsMode, mm.transposeRhs, headDim,
      inputEpsilon, inputOffset, inputCastMode, norm.ropeMode,
      norm.ropeRounding);
}

} // namespace

bool mlir::norm::readsProductHeads(Operation *op) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm)
    return false;
  Value v = norm->input;
  std::string why;
  int64_t views = 0;
  for (; Value source = headViewSource(v.getDefiningOp()); ++views)
    v = source;
  if (v.getDefiningOp<RMSNormMatmulOp>())
    return true;
  // matmul_layer_norm takes no rotation, and a whole-row norm has none in
  // the fused form: those fuse without it.
  if (norm->isLayerNorm || views == 0)
    return false;
  return succeeded(matchMatmulProducing(v, why));
}

LogicalResult mlir::norm::fuseProducerMatmulIntoNorm(RewriterBase &rewriter,
                                                     Operation *op,
                                                     std::string &why) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm) {
    why = "not a norm.rms_norm / norm.layer_norm on tensors";
    return failure();
  }
  why = norm->whyNoFusedForm(/*normFirst=*/false);
  if (!why.empty())
    return failure();
  FailureOr<ProducerMatch> producer = matchProducer(*norm, why);
  if (failed(producer))
    return failure();
  SmallVector<int64_t> angleShape;
  why = whyRopeNotFused(*norm, *producer, angleShape);
  if (!why.empty() && failed(takeRowSplit(*norm, *producer, angleShape, why)))
    return failure();
  why.clear();

  // The residual stream's other readers of the sum take the fused op's sum
  // result, which is defined where the norm is.
  SmallVector<OpOperand *> sumReaders;
  if (producer->residualAdd &&
      failed(collectSumReadersAfter(producer->residualAdd->getResult(0), op,
                                    sumReaders))) {
    why = "the residual sum is read before the norm";
    return failure();
  }
  bool returnsSum = norm->sum || !sumReaders.empty();
  // The statistics in use are the fused op's, one per row of its output:
  // through views (per-head QK-norm, reshapes) the rows differ.
  auto [mean, rstd] = norm->usedStatistics();
  if ((mean || rstd) && producer->inputNorm) {
    why = "its statistics results are used and its input norm's op takes "
          "none";
    return failure();
  }
  if ((mean || rstd) && (!producer->views.empty() || producer->rowSplit)) {
    why = "its statistics results are used and the product reaches it "
          "through views (per head or reshaped)";
    return failure();
  }
  auto yType = cast<RankedTensorType>(norm->y.getType());
  Value sumValue = norm->sum               ? norm->sum
                   : producer->residualAdd ? producer->residualAdd->getResult(0)
                                           : Value();
  if (returnsSum && sumValue.getType() != yType) {
    why = "the pre-norm sum and the norm's result have different types";
    return failure();
  }

  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  MatmulMatch &mm = producer->matmul;
  // Through views, the fused op has the product's shape (or its rows split,
  // when it takes that view) and the views follow it.
  Value splitProduct = mm.result;
  // The type the product is rounded to: its own, or its rounding's.
  Type outputElementType = getElementTypeOrSelf(
      producer->rounding ? producer->rounding->getResult(0).getType()
                         : mm.result.getType());
  RankedTensorType fusedType = producer->views.empty() && !producer->rowSplit
                                   ? yType
                                   : cast<RankedTensorType>(mm.result.getType())
                                         .clone(outputElementType);
  SmallVector<OpFoldResult> rowSizes;
  if (const RowSplit &split = producer->rowSplit) {
    for (const ViewSize &size : split.rowSizes)
      rowSizes.push_back(materializeSize(rewriter, loc, size, mm.lhs));
    mm.lhs = splitRows(rewriter, loc, mm.lhs, split, rowSizes);
    splitProduct = split.result();
    fusedType = rowSplitType(split.viewType(), split.rowDims,
                             fusedType.getShape().back(), outputElementType);
  }
  Value init = createFusedInit(rewriter, loc, mm, mm.lhs, fusedType);
  Value sumInit =
      returnsSum ? createFusedInit(rewriter, loc, mm, mm.lhs, yType) : Value();
  SmallVector<Type> resultTypes{fusedType};
  IntegerAttr headDim = producer->headDim
                            ? rewriter.getI64IntegerAttr(producer->headDim)
                            : IntegerAttr();
  if (returnsSum)
    resultTypes.push_back(yType);
  Value stats[] = {mean, rstd};
  Value statInits[2];
  for (auto [stat, statInit] : llvm::zip(stats, statInits)) {
    if (!stat)
      continue;
    auto type = cast<RankedTensorType>(stat.getType());
    statInit = createInitLike(rewriter, loc, mm.lhs, type);
    resultTypes.push_back(type);
  }
  Operation *fused;
  if (norm->isLayerNorm) {
    fused = MatmulLayerNormOp::create(
        rewriter, loc, resultTypes, mm.lhs, mm.rhs, mm.bias, producer->residual,
        norm->weight, norm->bias, init, sumInit, statInits[0], statInits[1],
        norm->epsilon, norm->weightOffset, norm->accType, norm->epsMode,
        mm.transposeRhs, headDim);
  } else {
    // The angles in the fused op's heads view.
    Value cos = norm->cos, sin = norm->sin;
    if (cos) {
      cos = reshapeAngles(rewriter, loc, cos, angleShape);
      sin = reshapeAngles(rewriter, loc, sin, angleShape);
    }
    fused = createMatmulRMSNorm(rewriter, loc, resultTypes, *producer, *norm,
                                cos, sin, init, sumInit, statInits[1], headDim);
  }

  Value fusedSum = returnsSum ? fused->getResult(1) : Value();
  for (OpOperand *use : sumReaders)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(fusedSum); });
  // The views again, now of the normalized product.
  IRMapping views;
  Value y = fused->getResult(0);
  if (producer->rowSplit)
    y = splitColumns(rewriter, loc, y, producer->rowSplit, rowSizes);
  views.map(splitProduct, y);
  // Views before the rounding had the product's wider type; they are
  // rebuilt at the rounded one, the rounding itself is the fused op's.
  bool beforeRounding =
      producer->rounding &&
      !llvm::is_contained(producer->rowSplitLead, producer->rounding);
  for (Operation *view : producer->views) {
    if (view == producer->rounding) {
      std::optional<SmallVector<int64_t>> perm = viewPermutation(view);
      if (perm && !llvm::equal(*perm, llvm::seq<int64_t>(perm->size())))
        y = rebuildViewAtType(rewriter, loc, view, y, views);
      views.map(view->getResult(0), y);
      beforeRounding = false;
      continue;
    }
    y = beforeRounding ? rebuildViewAtType(rewriter, loc, view, y, views)
                       : rewriter.clone(*view, views)->getResult(0);
  }
  rewriter.replaceAllUsesWith(norm->y, y);
  if (norm->sum)
    rewriter.replaceAllUsesWith(norm->sum, fusedSum);
  unsigned next = returnsSum ? 2 : 1;
  for (auto [stat, statInit] : llvm::zip(stats, statInits))
    if (statInit)
      rewriter.replaceAllUsesWith(stat, fused->getResult(next++));
  SmallVector<Operation *> dead{op};
  dead.append(producer->views.rbegin(), producer->views.rend());
  dead.append(producer->rowSplit.ops.rbegin(), producer->rowSplit.ops.rend());
  dead.append(producer->rowSplitLead.rbegin(), producer->rowSplitLead.rend());
  if (producer->residualAdd)
    dead.push_back(producer->residualAdd);
  if (mm.truncation)
    dead.push_back(mm.truncation);
  if (mm.biasAdd)
    dead.push_back(mm.biasAdd);
  dead.push_back(producer->inputNorm ? producer->inputNorm.getOperation()
                                     : mm.matmul.getOperation());
  eraseWithDeadProducers(rewriter, dead);
  return success();
}
