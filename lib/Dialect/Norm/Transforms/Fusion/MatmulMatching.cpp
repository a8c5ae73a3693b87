//===- MatmulMatching.cpp - recognizing the matmuls frontends emit -------===//

#include "MatmulMatching.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `(d0, ..., d{n-1}) -> (d_i, d_j, ...)`.
AffineMap dimsMap(MLIRContext *ctx, unsigned numDims,
                  ArrayRef<unsigned> dims) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(numDims, 0, exprs, ctx);
}

/// A `linalg.broadcast` that adds exactly the leading dims of its result to
/// a tensor of rank `inputRank`: returns its input.
Value lookThroughLeadingBroadcast(Value v, int64_t inputRank) {
  auto broadcast = v.getDefiningOp<linalg::BroadcastOp>();
  if (!broadcast || !broadcast.hasPureTensorSemantics())
    return {};
  auto inputType = cast<ShapedType>(broadcast.getInput().getType());
  auto resultType = cast<ShapedType>(broadcast.getInit().getType());
  if (inputType.getRank() != inputRank)
    return {};
  ArrayRef<int64_t> dims = broadcast.getDimensions();
  int64_t added = resultType.getRank() - inputRank;
  if (static_cast<int64_t>(dims.size()) != added)
    return {};
  for (int64_t i = 0; i < added; ++i)
    if (dims[i] != i)
      return {};
  return broadcast.getInput();
}

/// Is `v` zero everywhere: a zero fill or a zero splat constant?
bool isZeroTensor(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return fill.hasPureTensorSemantics() &&
           matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  return matchPattern(v, m_AnyZeroFloat());
}

/// The body of an elementwise generic is one `arith.addf` of its two inputs.
bool isAddOfTwoInputs(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<arith::AddFOp>(body.front());
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!add || !yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != add.getResult())
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

/// The operand of a two-input elementwise add that is not `value` (null if
/// `op` is not such an add of `value` or `value` appears twice), with its
/// indexing map (identity for `linalg.add`).
std::pair<Value, AffineMap> otherAddOperand(Operation *op, Value value) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return {};
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (!isAddOfTwoInputs(generic))
      return {};
  } else if (!isa<linalg::AddOp>(op)) {
    return {};
  }
  OpOperand *in0 = linalgOp.getDpsInputOperand(0);
  OpOperand *in1 = linalgOp.getDpsInputOperand(1);
  if ((in0->get() == value) == (in1->get() == value))
    return {};
  OpOperand *mine = in0->get() == value ? in0 : in1;
  OpOperand *other = in0->get() == value ? in1 : in0;
  AffineMap resultMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  if (!linalgOp.getMatchingIndexingMap(mine).isIdentity() ||
      !resultMap.isIdentity() ||
      cast<ShapedType>(value.getType()) !=
          cast<ShapedType>(op->getResult(0).getType()))
    return {};
  return {other->get(), linalgOp.getMatchingIndexingMap(other)};
}

/// Whether `type` is `base` or a float type wider than it.
bool isWiderFloatOrSame(Type type, Type base) {
  return type == base ||
         (isa<FloatType>(type) && isa<FloatType>(base) &&
          type.getIntOrFloatBitWidth() > base.getIntOrFloatBitWidth());
}

/// If `op` is an elementwise `arith.truncf` of `value` alone (a
/// `linalg.generic` with identity maps whose body is one truncf of its
/// input), returns its result.
Value matchTruncation(Operation *op, Value value) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getDpsInputOperand(0)->get() != value ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return {};
  Block &body = generic.getRegion().front();
  auto trunc = dyn_cast<arith::TruncFOp>(body.front());
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 2 || !trunc || !yield ||
      trunc.getIn() != body.getArgument(0) ||
      yield.getOperand(0) != trunc.getResult())
    return {};
  return generic.getResult(0);
}

} // namespace

std::string mlir::norm::elementTypeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << getElementTypeOrSelf(type);
  return text;
}

std::string mlir::norm::whyRoundingNotFused(Type productType, Type to,
                                            Type operands, bool biasFirst,
                                            StringRef where) {
  if (biasFirst)
    return "the matmul bias is added at " + elementTypeName(productType) +
           " before the rounding to " + elementTypeName(to) +
           " (the fused op adds it at its output type)" + where.str();
  if (to == operands)
    return "";
  if (to.getIntOrFloatBitWidth() >= operands.getIntOrFloatBitWidth())
    return "the product is rounded to " + elementTypeName(to) +
           ", not to its operands' type " + elementTypeName(operands) +
           where.str();
  if (!isNarrowedOutputType(to, operands))
    return "the product is rounded to " + elementTypeName(to) + where.str() +
           ", narrower than its operands' type " + elementTypeName(operands) +
           ": the fused op's output is narrower than its operands only as "
           "bf16 or f16 from f32 operands";
  if (productType != operands)
    return "the product is accumulated in " + elementTypeName(productType) +
           " before its rounding to " + elementTypeName(to) + where.str() +
           ": the fused op accumulates " + elementTypeName(operands) +
           " operands in " + elementTypeName(operands);
  return "";
}

std::string mlir::norm::whyNotFusedOutputType(Type outputType, Type inputType,
                                              TypeAttr accType) {
  FloatType acc = accType ? cast<FloatType>(accType.getValue())
                  : inputType.isF64()
                      ? FloatType(Float64Type::get(inputType.getContext()))
                      : FloatType(Float32Type::get(inputType.getContext()));
  if (isWidenedElementType(outputType, inputType, acc))
    return "";
  return "the product's type " + elementTypeName(outputType) +
         " is wider than the accumulation type " + elementTypeName(acc);
}

Value mlir::norm::createFusedInit(OpBuilder &b, Location loc,
                                  const MatmulMatch &match, Value activation,
                                  RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (!resultType.isDynamicDim(i))
      continue;
    OpFoldResult size =
        i < rank - 1
            ? tensor::getMixedSize(b, loc, activation, i)
            : tensor::getMixedSize(b, loc, match.rhs,
                                   match.transposeRhs ? 0 : 1);
    dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  }
  return tensor::EmptyOp::create(b, loc, resultType, dynamicSizes);
}

Value mlir::norm::createInitLike(OpBuilder &b, Location loc, Value sizesFrom,
                                 RankedTensorType type) {
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, sizesFrom, d));
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

Value mlir::norm::matchBroadcastBiasAdd(Operation *op, Value value) {
  auto [other, map] = otherAddOperand(op, value);
  if (!other)
    return {};
  int64_t rank = cast<ShapedType>(value.getType()).getRank();
  if (map.isIdentity())
    return lookThroughLeadingBroadcast(other, 1);
  // A generic that reads the bias through (d0, ..., dn-1) -> (dn-1).
  if (map == dimsMap(op->getContext(), rank, {unsigned(rank - 1)}))
    return other;
  return {};
}

Value mlir::norm::matchSameShapeAdd(Operation *op, Value value) {
  auto [other, map] = otherAddOperand(op, value);
  if (!other || !map.isIdentity())
    return {};
  return other;
}

LogicalResult
mlir::norm::collectSumReadersAfter(Value sum, Operation *norm,
                                   SmallVectorImpl<OpOperand *> &readers) {
  for (OpOperand &use : sum.getUses()) {
    if (use.getOwner() == norm)
      continue;
    Operation *reader =
        norm->getBlock()->findAncestorOpInBlock(*use.getOwner());
    if (!reader || !norm->isBeforeInBlock(reader))
      return failure();
    readers.push_back(&use);
  }
  return success();
}

FailureOr<MatmulMatch> mlir::norm::matchMatmulWithLhs(Operation *op,
                                                      Value lhs,
                                                      std::string &why) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  bool isMatmul = isa<linalg::MatmulOp>(op);
  bool isBatchMatmul = isa<linalg::BatchMatmulOp>(op);
  if (!linalgOp || !(isMatmul || isBatchMatmul)) {
    why = "'" + op->getName().getStringRef().str() + "' is not a matmul";
    return failure();
  }
  if (!linalgOp.hasPureTensorSemantics() || op->getNumResults() != 1) {
    why = "the matmul is not on tensors";
    return failure();
  }
  if (linalgOp.getDpsInputOperand(0)->get() != lhs ||
      linalgOp.getDpsInputOperand(1)->get() == lhs) {
    why = "the value is not (only) the matmul's left operand";
    return failure();
  }

  MLIRContext *ctx = op->getContext();
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  MatmulMatch match;
  match.matmul = linalgOp;
  match.lhs = lhs;
  Value rhs = linalgOp.getDpsInputOperand(1)->get();
  // Dims: (m, n, k) for matmul, (b, m, n, k) for batch_matmul.
  unsigned b = 0, m = isMatmul ? 0 : 1, n = m + 1, k = m + 2,
           numDims = isMatmul ? 3 : 4;
  auto map = [&](ArrayRef<unsigned> dims) { return dimsMap(ctx, numDims, dims); };
  AffineMap lhsMap = isMatmul ? map({m, k}) : map({b, m, k});
  AffineMap outMap = isMatmul ? map({m, n}) : map({b, m, n});
  if (maps[0] != lhsMap || maps[2] != outMap) {
    why = "the matmul's activation or result indexing map is not the plain "
          "row-major one";
    return failure();
  }
  if (maps[1] == map({k, n})) {
    match.rhs = rhs;
  } else if (maps[1] == map({n, k})) {
    match.rhs = rhs;
    match.transposeRhs = true;
  } else if (isBatchMatmul &&
             (maps[1] == map({b, k, n}) || maps[1] == map({b, n, k}))) {
    // A per-batch W that is one W broadcast over the batch.
    match.rhs = lookThroughLeadingBroadcast(rhs, 2);
    match.transposeRhs = maps[1] == map({b, n, k});
    if (!match.rhs) {
      why = "the batch matmul's W differs per batch (the fused ops take one "
            "2-D W)";
      return failure();
    }
  } else {
    why = "unsupported indexing map for W";
    return failure();
  }
  // `linalg.transpose` of a K×N W is the N×K form (and vice versa).
  if (auto transpose = match.rhs.getDefiningOp<linalg::TransposeOp>()) {
    if (transpose.hasPureTensorSemantics() &&
        transpose.getPermutation() == ArrayRef<int64_t>{1, 0}) {
      match.rhs = transpose.getInput();
      match.transposeRhs = !match.transposeRhs;
    }
  }

  // A and W have one type; the product that type or a wider float type
  // (bf16 × bf16 accumulated into f32), which the fused op's output takes.
  Type elementType = getElementTypeOrSelf(lhs.getType());
  Value init = linalgOp.getDpsInitOperand(0)->get();
  Type productType = getElementTypeOrSelf(init.getType());
  if (getElementTypeOrSelf(match.rhs.getType()) != elementType) {
    why = "the matmul mixes element types: W is " +
          elementTypeName(match.rhs.getType()) + ", the activation " +
          elementTypeName(elementType) +
          " (the fused ops take one type for both)";
    return failure();
  }
  if (!isWiderFloatOrSame(productType, elementType)) {
    why = "the matmul mixes element types: its result " +
          elementTypeName(productType) + " is neither its operands' type " +
          elementTypeName(elementType) + " nor a wider float type";
    return failure();
  }
  if (!isZeroTensor(init)) {
    match.bias = lookThroughLeadingBroadcast(init, 1);
    if (!match.bias) {
      why = "the matmul accumulates into an init that is neither zero nor a "
            "broadcast bias";
      return failure();
    }
  }

  match.result = op->getResult(0);
  // A bias add right after the product, if nothing else reads the product.
  if (!match.bias && match.result.hasOneUse()) {
    Operation *user = *match.result.getUsers().begin();
    if (Value bias = matchBroadcastBiasAdd(user, match.result)) {
      if (getElementTypeOrSelf(bias.getType()) == productType) {
        match.bias = bias;
        match.biasAdd = user;
        match.result = user->getResult(0);
      }
    }
  }
  return match;
}

void mlir::norm::takeTruncationOfProduct(MatmulMatch &match) {
  if (match.bias || match.truncation || !match.result.hasOneUse())
    return;
  Operation *user = *match.result.getUsers().begin();
  Value truncated = matchTruncation(user, match.result);
  if (!truncated || getElementTypeOrSelf(truncated.getType()) !=
                        getElementTypeOrSelf(match.lhs.getType()))
    return;
  match.truncation = user;
  match.result = truncated;
}

FailureOr<MatmulMatch> mlir::norm::matchMatmulProducing(Value value,
                                                        std::string &why) {
  // A wider product rounded to its operands' type (bf16 A and W, an f32
  // product, truncf to bf16), or an f32 product of f32 operands rounded to
  // a 16-bit type (isNarrowedOutputType): the fused op rounds S there
  // itself.
  Operation *truncation = value.getDefiningOp<linalg::GenericOp>();
  Value truncated = truncation && truncation->getNumOperands() > 0
                        ? truncation->getOperand(0)
                        : Value();
  if (truncated && matchTruncation(truncation, truncated) == value) {
    FailureOr<MatmulMatch> match = matchMatmulProducing(truncated, why);
    if (failed(match))
      return failure();
    Type operands = getElementTypeOrSelf(match->lhs.getType());
    Type to = getElementTypeOrSelf(value.getType());
    why = whyRoundingNotFused(getElementTypeOrSelf(truncated.getType()), to,
                              operands, /*biasFirst=*/bool(match->bias));
    if (!why.empty())
      return failure();
    if (!truncated.hasOneUse()) {
      why = "the product has other users besides its rounding";
      return failure();
    }
    match->truncation = truncation;
    match->result = value;
    return match;
  }
  Operation *producer = value.getDefiningOp();
  if (!producer) {
    why = "the input is a block argument, not a matmul";
    return failure();
  }
  // Either the matmul itself, or a bias add whose other operand is one.
  auto tryMatmul = [&](Value product) -> FailureOr<MatmulMatch> {
    Operation *op = product.getDefiningOp();
    if (!op || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
      why = "the input is not produced by a matmul";
      return failure();
    }
    auto linalgOp = cast<linalg::LinalgOp>(op);
    return matchMatmulWithLhs(op, linalgOp.getDpsInputOperand(0)->get(), why);
  };
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(producer)) {
    FailureOr<MatmulMatch> match = tryMatmul(value);
    if (failed(match) || match->result != value) {
      if (succeeded(match))
        why = "the product has other users besides its bias add";
      return failure();
    }
    return match;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(producer);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 2) {
    why = "the input is not produced by a matmul";
    return failure();
  }
  // matchMatmulWithLhs finds the bias add itself when it is the product's
  // only user.
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    Operation *def = input->get().getDefiningOp();
    if (!def || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(def))
      continue;
    FailureOr<MatmulMatch> match = tryMatmul(input->get());
    if (succeeded(match) && match->result == value)
      return match;
  }
  why = "the input is not produced by a matmul (or a matmul and a bias add)";
  return failure();
}
