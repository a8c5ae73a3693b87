//===- RopeAbsorption.cpp - the rotary embedding after a norm, into it ----===//
//
// `v·cos + rot(v)·sin` right after a norm (QK-norm → RoPE, Qwen3 / Gemma 3 /
// OLMo2), maybe through a transpose that keeps the normalized dim last, is
// taken into the norm as its `rope(cos, sin)` epilogue. rot(v) is recognized
// by where each of its last-dim elements comes from: the value is traced
// back, element by element of one head, through slices, inserts, concats,
// reshapes of the head's dims and negations, and must be v's partner with
// the sign of rotate_half or of the interleaved pairs.
//
//===----------------------------------------------------------------------===//

#include "DeadProducers.h"
#include "NormOpView.h"
#include "RopeAngles.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The operation of an elementwise generic's body over its block arguments,
/// with the extf of each argument and the truncf back to the result's type
/// looked through (a bf16 frontend's `extf, op, truncf`): `kind` and the
/// input numbers its operands read, or nothing.
std::optional<SmallVector<unsigned>> elementwiseBody(Operation *op,
                                                     StringRef kind) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  Value v = yield.getOperand(0);
  if (auto trunc = v.getDefiningOp<arith::TruncFOp>())
    v = trunc.getIn();
  Operation *def = v.getDefiningOp();
  if (!def || def->getName().getStringRef() != kind)
    return std::nullopt;
  SmallVector<unsigned> inputs;
  for (Value operand : def->getOperands()) {
    if (auto ext = operand.getDefiningOp<arith::ExtFOp>())
      operand = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || arg.getOwner() != generic.getBody() ||
        arg.getArgNumber() >= generic.getNumDpsInputs())
      return std::nullopt;
    inputs.push_back(arg.getArgNumber());
  }
  return inputs;
}

/// One element of a head: a value whose trailing `k` dims hold the head's D
/// elements, row-major, and the element's position among them.
struct HeadElement {
  Value value;
  int64_t k = 1;
  int64_t index = 0;
  bool negated = false;
};

SmallVector<int64_t> delinearize(int64_t index, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> m(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    m[d] = index % shape[d];
    index /= shape[d];
  }
  return m;
}

int64_t linearize(ArrayRef<int64_t> m, ArrayRef<int64_t> shape) {
  int64_t index = 0;
  for (auto [i, size] : llvm::zip(m, shape))
    index = index * size + i;
  return index;
}

/// Follows the head element `e` one op back; null value when the op is not
/// one that moves whole heads (the dims outside the head untouched) or
/// another value's element cannot be named.
class HeadTracer {
public:
  explicit HeadTracer(Value target) : target(target) {}

  /// The element of the target that `e` is, if it is one.
  std::optional<HeadElement> trace(HeadElement e) {
    for (int steps = 0; steps < 64; ++steps) {
      if (e.value == target)
        return e.k == 1 ? std::optional<HeadElement>(e) : std::nullopt;
      Operation *op = e.value.getDefiningOp();
      if (!op || !step(op, e))
        return std::nullopt;
      ops.insert(op);
    }
    return std::nullopt;
  }

  /// The ops traced through, for the users check.
  llvm::SetVector<Operation *> ops;
  /// Why a step was refused, where the generic remark would mislead.
  std::string why;

private:
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  /// Whether dims [0, rank - k) of a slice are whole and unit-strided.
  static bool outerWhole(OffsetSizeAndStrideOpInterface slice,
                         ArrayRef<int64_t> fullShape, int64_t k) {
    for (int64_t d = 0, e = fullShape.size() - k; d < e; ++d)
      if (slice.getStaticOffsets()[d] != 0 ||
          slice.getStaticStrides()[d] != 1 ||
          slice.getStaticSizes()[d] != fullShape[d])
        return false;
    return true;
  }

  bool step(Operation *op, HeadElement &e) {
    ArrayRef<int64_t> shape = shapeOf(e.value);
    int64_t rank = shape.size();
    if (ShapedType::isDynamicShape(shape.take_back(e.k)))
      return false;
    SmallVector<int64_t> m = delinearize(e.index, shape.take_back(e.k));
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
      return stepInsert(insert, shape, m, e);
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (extract.getSourceType().getRank() != rank ||
          ShapedType::isDynamicShape(extract.getStaticOffsets()) ||
          ShapedType::isDynamicShape(extract.getStaticStrides()) ||
          !outerWhole(extract, extract.getSourceType().getShape(), e.k))
        return false;
      SmallVector<int64_t> src(m);
      for (int64_t j = 0; j < e.k; ++j)
        src[j] = extract.getStaticOffsets()[rank - e.k + j] +
                 m[j] * extract.getStaticStrides()[rank - e.k + j];
      e.value = extract.getSource();
      e.index = linearize(src, shapeOf(e.value).take_back(e.k));
      return true;
    }
    if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
      int64_t dim = concat.getDim();
      if (dim < rank - e.k)
        return false;
      int64_t j = dim - (rank - e.k);
      for (Value input : concat.getInputs()) {
        int64_t size = shapeOf(input)[dim];
        if (m[j] < size) {
          e.value = input;
          e.index = linearize(m, shapeOf(input).take_back(e.k));
          return true;
        }
        m[j] -= size;
      }
      return false;
    }
    // Reshapes of the head's dims keep its row-major order: only the
    // number of trailing dims holding it changes.
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return stepReshape(expand.getSrc(), expand.getReassociationIndices(),
                         /*groupsInResult=*/true, e);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      return stepReshape(collapse.getSrc(), collapse.getReassociationIndices(),
                         /*groupsInResult=*/false, e);
    if (auto neg = dyn_cast<arith::NegFOp>(op)) {
      e.value = neg.getOperand();
      e.negated = !e.negated;
      return true;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || generic.getNumDpsInputs() != 1 ||
        !llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      return false;
    if (elementwiseBody(op, "arith.negf")) {
      e.value = generic.getDpsInputs()[0];
      e.negated = !e.negated;
      return true;
    }
    // A copy (`yield %in`).
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    if (yield.getOperand(0) != generic.getBody()->getArgument(0))
      return false;
    e.value = generic.getDpsInputs()[0];
    return true;
  }

  /// Whether the insert's dims [0, rank - k) are whole: offset 0, stride
  /// 1, and the destination's size, static or (a dynamic sequence length)
  /// proved equal to it by the value bounds of the sizes' producers.
  bool insertOuterWhole(tensor::InsertSliceOp insert, int64_t k) {
    int64_t outer = insert.getSourceType().getRank() - k;
    for (int64_t d = 0; d < outer; ++d) {
      if (insert.getStaticOffsets()[d] != 0 ||
          insert.getStaticStrides()[d] != 1)
        return false;
      int64_t size = insert.getStaticSizes()[d];
      if (!ShapedType::isDynamic(size)) {
        if (size != insert.getDestType().getDimSize(d))
          return false;
        continue;
      }
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          insert.getMixedSizes()[d], {insert.getDest(), d});
      if (failed(equal) || !*equal) {
        why = "an insert_slice of dynamic size that the rotation's sizes do "
              "not prove to cover its destination's dim " +
              std::to_string(d);
        return false;
      }
    }
    return true;
  }

  bool stepInsert(tensor::InsertSliceOp insert, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> m, HeadElement &e) {
    int64_t rank = shape.size();
    if (insert.getSourceType().getRank() != rank ||
        ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
        ShapedType::isDynamicShape(insert.getStaticStrides()) ||
        ShapedType::isDynamicShape(insert.getStaticSizes().take_back(e.k)) ||
        !insertOuterWhole(insert, e.k))
      return false;
    SmallVector<int64_t> src(m);
    bool inside = true;
    for (int64_t j = 0; j < e.k && inside; ++j) {
      int64_t d = rank - e.k + j;
      int64_t offset = insert.getStaticOffsets()[d];
      int64_t stride = insert.getStaticStrides()[d];
      int64_t at = m[j] - offset;
      inside = at >= 0 && at % stride == 0 &&
               at / stride < insert.getStaticSizes()[d];
      src[j] = inside ? at / stride : 0;
    }
    if (!inside) {
      e.value = insert.getDest();
      return true;
    }
    e.value = insert.getSource();
    e.index = linearize(src, shapeOf(e.value).take_back(e.k));
    return true;
  }

  /// Through a reshape whose reassociation groups are those of the source
  /// dims (groupsInResult: each source dim's group of result dims) or of the
  /// result dims: the head's trailing dims must be whole groups.
  bool stepReshape(Value source, ArrayRef<ReassociationIndices> groups,
                   bool groupsInResult, HeadElement &e) {
    int64_t covered = 0, sourceDims = 0;
    for (const ReassociationIndices &group : llvm::reverse(groups)) {
      if (covered == e.k)
        break;
      int64_t here = groupsInResult ? group.size() : 1;
      int64_t there = groupsInResult ? 1 : group.size();
      covered += here;
      sourceDims += there;
    }
    if (covered != e.k)
      return false;
    e.value = source;
    e.k = sourceDims;
    return true;
  }

  Value target;
};

/// The users of `value` that read its elements: all but the `tensor.dim`s
/// at a constant index (a frontend's sizes for its slices and empties at a
/// dynamic sequence length), which the rewrite moves to the norm's input.
SmallVector<Operation *> elementUsers(Value value) {
  SmallVector<Operation *> users;
  for (Operation *u : value.getUsers()) {
    auto dim = dyn_cast<tensor::DimOp>(u);
    if (!dim || !dim.getConstantIndex())
      users.push_back(u);
  }
  return users;
}

/// The input of the elementwise product `mul` other than `data`, and the
/// map it is read through, when `mul` is `data · angles` (either order).
std::optional<std::pair<Value, AffineMap>> anglesOf(Operation *mul,
                                                    Value &data) {
  std::optional<SmallVector<unsigned>> in = elementwiseBody(mul, "arith.mulf");
  if (!in || (*in)[0] == (*in)[1])
    return std::nullopt;
  auto generic = cast<linalg::GenericOp>(mul);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (int side = 0; side < 2; ++side) {
    unsigned dataIn = (*in)[side], angleIn = (*in)[1 - side];
    if (!maps[dataIn].isIdentity())
      continue;
    if (data && generic.getDpsInputs()[dataIn] != data)
      continue;
    data = generic.getDpsInputs()[dataIn];
    return std::make_pair(generic.getDpsInputs()[angleIn], maps[angleIn]);
  }
  return std::nullopt;
}

} // namespace

FailureOr<Operation *> mlir::norm::absorbRotaryEmbedding(RewriterBase &rewriter,
                                                         Operation *op,
                                                         std::string &why) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm || norm->cos || norm->sum || norm->mean || norm->rstd ||
      getElementTypeOrSelf(norm->y.getType()) !=
          getElementTypeOrSelf(norm->input.getType()))
    return failure();
  Value y = norm->y;
  // Through a transpose that keeps the head's dim last, when it is y's one
  // user.
  Value v = y;
  SmallVector<int64_t> perm = llvm::to_vector(
      llvm::seq<int64_t>(0, cast<RankedTensorType>(y.getType()).getRank()));
  linalg::TransposeOp transpose;
  SmallVector<Operation *> yUsers = elementUsers(y);
  if (yUsers.size() == 1)
    transpose = dyn_cast<linalg::TransposeOp>(yUsers.front());
  if (transpose) {
    if (transpose.getPermutation().back() != int64_t(perm.size()) - 1)
      return failure();
    perm.assign(transpose.getPermutation().begin(),
                transpose.getPermutation().end());
    v = transpose.getResult()[0];
  }
  // v · cos: the product of v with angles read through a map.
  linalg::GenericOp cosMul, sinMul, add;
  for (Operation *u : v.getUsers()) {
    Value data = v;
    if (anglesOf(u, data))
      cosMul = cast<linalg::GenericOp>(u);
  }
  if (!cosMul || !cosMul->getResult(0).hasOneUse())
    return failure();
  add = dyn_cast<linalg::GenericOp>(*cosMul->getResult(0).getUsers().begin());
  std::optional<SmallVector<unsigned>> addIn =
      elementwiseBody(add, "arith.addf");
  if (!addIn || (*addIn)[0] == (*addIn)[1] ||
      !llvm::all_of(add.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return failure();
  for (Value input : add.getDpsInputs())
    if (input != cosMul->getResult(0))
      sinMul = input.getDefiningOp<linalg::GenericOp>();
  Value rotated;
  std::optional<std::pair<Value, AffineMap>> cosAngles, sinAngles;
  Value data = v;
  cosAngles = anglesOf(cosMul, data);
  if (sinMul)
    sinAngles = anglesOf(sinMul, rotated);
  if (!sinMul || !sinAngles || !sinMul->getResult(0).hasOneUse()) {
    why = "the product after it is not followed by `+ rot(v)·sin`";
    return failure();
  }
  if (cosAngles->second != sinAngles->second ||
      cosAngles->first.getType() != sinAngles->first.getType()) {
    why = "cos and sin are read differently";
    return failure();
  }

  // rot(v), one head element at a time.
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank(), d = type.getShape().back();
  if (ShapedType::isDynamic(d) || d % 2 != 0 || rank < 1) {
    why = "the rotated dim is not static and even";
    return failure();
  }
  HeadTracer tracer(v);
  bool half = true, pairs = true;
  for (int64_t i = 0; i < d && (half || pairs); ++i) {
    std::optional<HeadElement> e = tracer.trace({rotated, 1, i, false});
    if (!e && !tracer.why.empty()) {
      why = "rot(v) is built with " + tracer.why;
      return failure();
    }
    if (!e) {
      why = "rot(v) is not made of v's elements of the same head (a "
            "rotation over a dim that is not the normalized one, or partial "
            "rotary)";
      return failure();
    }
    bool first = i < d / 2;
    half &= e->index == (first ? i + d / 2 : i - d / 2) && e->negated == first;
    bool even = i % 2 == 0;
    pairs &= e->index == (even ? i + 1 : i - 1) && e->negated == even;
  }
  if (!half && !pairs) {
    why = "rot(v) is neither rotate_half nor the interleaved pairs";
    return failure();
  }
  // The steps of a rotation in a type narrower than acc_type each round to
  // it (a bf16 frontend's `q·cos + rotate_half(q)·sin`): the op's
  // `rope_rounding = each_step`, when every step yields that type and the
  // angles have it, so that each product and the sum are the correctly
  // rounded narrow operations whatever type the body computes them in
  // (RopeAbsorption takes the forms whose numbers it keeps; any other
  // rounding points stay outside, cast_mode's rule for the fused ops).
  Type elementType = cast<RankedTensorType>(y.getType()).getElementType();
  FloatType accType = getNormNumerics(op).accType;
  bool eachStep = elementType != accType;
  if (eachStep) {
    auto yields = [&](Operation *step) {
      return getElementTypeOrSelf(step->getResult(0).getType()) == elementType;
    };
    Type angleElement = getElementTypeOrSelf(cosAngles->first.getType());
    if (!yields(cosMul) || !yields(sinMul) || !yields(add) ||
        angleElement != elementType) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "its steps round neither once in " << accType << " nor each to "
         << elementType << " (the products and the sum yield "
         << getElementTypeOrSelf(cosMul->getResult(0).getType()) << ", "
         << getElementTypeOrSelf(sinMul->getResult(0).getType()) << " and "
         << getElementTypeOrSelf(add->getResult(0).getType()) << ", the angles "
         << angleElement << ")";
      why = text;
      return failure();
    }
  }
  // v may have no users but the rotation.
  llvm::SetVector<Operation *> chain = tracer.ops;
  chain.insert(cosMul.getOperation());
  chain.insert(sinMul.getOperation());
  for (Operation *inner : chain)
    for (Operation *u : elementUsers(inner->getResult(0)))
      if (!chain.contains(u) && u != add.getOperation()) {
        why = "the norm's value (or a step of the rotation) has other users";
        return failure();
      }
  for (Operation *u : elementUsers(v))
    if (!chain.contains(u)) {
      why = "the norm's value has other users";
      return failure();
    }
  for (Operation *inner : chain)
    if (inner->getBlock() != op->getBlock() ||
        (transpose && transpose->getBlock() != op->getBlock())) {
      why = "the rotation is in another block";
      return failure();
    }
  // The shape reads of the values that go away (a frontend's sizes for its
  // slices and empties) must be sizes the input has: a static size, or a
  // dynamic one the value bounds prove equal to one of the input's dims
  // (through the empties, slices and destination-style ops that carry it).
  SmallVector<std::pair<tensor::DimOp, int64_t>> shapeReads;
  auto inputType = cast<RankedTensorType>(norm->input.getType());
  auto recordShapeReads = [&](Value value) {
    for (Operation *u : value.getUsers()) {
      auto dim = dyn_cast<tensor::DimOp>(u);
      if (!dim || !dim.getConstantIndex())
        continue;
      int64_t i = *dim.getConstantIndex();
      int64_t inputDim = -1;
      if (cast<RankedTensorType>(value.getType()).isDynamicDim(i)) {
        for (int64_t j = 0; j < inputType.getRank() && inputDim < 0; ++j) {
          if (!inputType.isDynamicDim(j))
            continue;
          FailureOr<bool> equal =
              ValueBoundsConstraintSet::areEqual({value, i}, {norm->input, j});
          if (succeeded(equal) && *equal)
            inputDim = j;
        }
        if (inputDim < 0)
          return false;
      }
      shapeReads.push_back({dim, inputDim});
    }
    return true;
  };
  bool sizesKnown = recordShapeReads(y) && (!transpose || recordShapeReads(v));
  for (Operation *inner : chain)
    sizesKnown = sizesKnown && recordShapeReads(inner->getResult(0));
  if (!sizesKnown) {
    why = "a tensor.dim of the norm's value or of a step of the rotation "
          "reads a dynamic size not proved to be one of the input's";
    return failure();
  }

  // The angles in the norm's dims: each angle dim read by a dim of v, which
  // is the norm's dim perm[j], or a unit dim read at 0 (torch-mlir's
  // broadcast of a size-1 dim); the norm's other dims are broadcast (size 1).
  // A dynamic angle dim (the sequence length of a model traced with
  // dynamic shapes) is read by a dim of v, so the generic's loop range makes
  // it v's size there: the op's rule for a dynamic angle dim (the input's
  // size, never a broadcast). Only a static 1 read at 0 broadcasts.
  AffineMap map = cosAngles->second;
  Value cos = cosAngles->first, sin = sinAngles->first;
  auto angleType = cast<RankedTensorType>(cos.getType());
  SmallVector<int64_t> normDims, sizes;
  for (auto [a, expr] : llvm::enumerate(map.getResults())) {
    auto zero = dyn_cast<AffineConstantExpr>(expr);
    if (zero && zero.getValue() == 0 && angleType.getDimSize(a) == 1)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (zero && angleType.isDynamicDim(a)) {
      why = "cos/sin's dim " + std::to_string(a) +
            " has a dynamic size and is read at 0 (a slice of it; only a "
            "static 1 broadcasts)";
      return failure();
    }
    if (!dim) {
      why = "cos/sin are not read through a broadcast of their dims";
      return failure();
    }
    normDims.push_back(perm[dim.getPosition()]);
    sizes.push_back(angleType.getDimSize(a));
  }
  if (normDims.empty() || normDims.back() != rank - 1 ||
      !llvm::is_sorted(normDims) ||
      std::adjacent_find(normDims.begin(), normDims.end()) != normDims.end()) {
    why = "cos/sin's dims are not in the norm's order with the rotated dim "
          "last";
    return failure();
  }
  // Their shape against the norm's input: unit dims inserted and dropped
  // (a reshape of the angles).
  auto normType = cast<RankedTensorType>(y.getType());
  SmallVector<int64_t> shape(rank, 1);
  for (auto [n, size] : llvm::zip(normDims, sizes)) {
    shape[n] = size;
    if (size != 1 && !ShapedType::isDynamic(normType.getDimSize(n)) &&
        size != normType.getDimSize(n)) {
      why = "cos/sin do not have the norm's sizes";
      return failure();
    }
  }
  // What the verifier asks of the rotated norm (R2, R3).
  if (norm->normalizedAxis != rank - 1 ||
      !isWidenedElementType(angleType.getElementType(), elementType, accType)) {
    why = "the norm normalizes more than the rotated dim, or the angles' "
          "type is narrower than its input's";
    return failure();
  }

  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Value cosView = reshapeUnitDims(rewriter, loc, cos, shape);
  Value sinView = reshapeUnitDims(rewriter, loc, sin, shape);
  Operation *rotatedNorm = rewriter.clone(*op);
  auto setRope = [&](auto normOp) {
    normOp.getCosMutable().assign(cosView);
    normOp.getSinMutable().assign(sinView);
    if (!half)
      normOp.setRopeModeAttr(
          RopeModeAttr::get(op->getContext(), RopeMode::interleaved));
    if (eachStep)
      normOp.setRopeRoundingAttr(
          RopeRoundingAttr::get(op->getContext(), RopeRounding::each_step));
  };
  if (auto rms = dyn_cast<RMSNormOp>(rotatedNorm))
    setRope(rms);
  else
    setRope(cast<LayerNormOp>(rotatedNorm));
  Value result = rotatedNorm->getResult(0);
  if (transpose) {
    rewriter.setInsertionPoint(add);
    SmallVector<OpFoldResult> transposedSizes;
    for (int64_t from : perm)
      transposedSizes.push_back(
          linalg::createFoldedDimOp(rewriter, loc, result, from));
    Value init = tensor::EmptyOp::create(rewriter, loc, transposedSizes,
                                         type.getElementType());
    result = linalg::TransposeOp::create(rewriter, loc, result, init, perm)
                 ->getResult(0);
  }
  rewriter.replaceOp(add, result);
  // The shape reads of the values going away, as sizes of the input.
  for (auto [dim, inputDim] : shapeReads) {
    rewriter.setInsertionPoint(dim);
    Value size = inputDim < 0
                     ? arith::ConstantIndexOp::create(
                           rewriter, dim.getLoc(),
                           cast<RankedTensorType>(dim.getSource().getType())
                               .getDimSize(*dim.getConstantIndex()))
                           .getResult()
                     : tensor::DimOp::create(rewriter, dim.getLoc(),
                                             norm->input, inputDim)
                           .getResult();
    rewriter.replaceOp(dim, size);
  }
  // Users first: the chain is in one block (checked above), latest first.
  SmallVector<Operation *> dead(chain.begin(), chain.end());
  if (transpose)
    dead.push_back(transpose);
  llvm::sort(dead,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  dead.push_back(op);
  eraseWithDeadProducers(rewriter, dead);
  return rotatedNorm;
}
