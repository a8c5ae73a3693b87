//===- PrologueFusion.cpp - norm → matmul into one fused op --------------===//
//
// A standalone norm whose every user is a matmul reading it as the
// activation becomes one norm.{rms,layer}_norm_matmul per matmul (q/k/v,
// gate/up), and the norm disappears: the normalized activations are never
// materialized. With constant W, γ, β and bias, γ and β are folded into W and
// the bias (WeightFolding.h), so the fused op only scales per row. A norm
// with a residual keeps it: each fused op adds it, and one returns the sum
// for the residual stream, so a residual-add → norm → matmul chain leaves no
// standalone norm. Statistics results in use (a training graph's saved mean
// and rstd) are returned by that same fused op.
//
//===----------------------------------------------------------------------===//

#include "DeadProducers.h"
#include "MatmulMatching.h"
#include "NormOpView.h"
#include "WeightFolding.h"

#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The constant operands of one fusion after folding: W' and b' replace W
/// and the bias, γ and β are gone.
struct FoldedWeights {
  Value rhs, matmulBias;
};

/// Folds γ (+ offset) and β of `norm` into the constant W and bias of
/// `match`; nullopt when something is not a constant.
std::optional<FoldedWeights> foldIntoWeights(OpBuilder &b,
                                             const NormOpView &norm,
                                             const MatmulMatch &match) {
  auto wType = cast<ShapedType>(match.rhs.getType());
  if (!wType.hasStaticShape() || wType.getRank() != 2)
    return std::nullopt;
  std::optional<std::vector<double>> w = readConstantAsDoubles(match.rhs);
  if (!w)
    return std::nullopt;
  int64_t k = wType.getDimSize(match.transposeRhs ? 1 : 0);
  int64_t n = wType.getDimSize(match.transposeRhs ? 0 : 1);
  // γ and β must be K long (a dynamic K in the norm lets the verifiers
  // accept any length), the bias N long.
  std::vector<double> gamma(k, 1.0), beta, bias;
  if (norm.weight) {
    std::optional<std::vector<double>> g = readConstantOfLength(norm.weight, k);
    if (!g)
      return std::nullopt;
    gamma = *g;
  }
  double offset =
      norm.weightOffset ? cast<FloatAttr>(norm.weightOffset).getValueAsDouble()
                        : 0.0;
  for (double &g : gamma)
    g += offset;
  if (norm.bias) {
    std::optional<std::vector<double>> be = readConstantOfLength(norm.bias, k);
    if (!be)
      return std::nullopt;
    beta = *be;
    // The bias is only rewritten (into b' = β·W + bias) when there is a β.
    if (match.bias) {
      std::optional<std::vector<double>> bi =
          readConstantOfLength(match.bias, n);
      if (!bi)
        return std::nullopt;
      bias = *bi;
    }
  }

  // Folding rounds W' and b' once more; where that overflows the element
  // type (f16 with large γ), the unfolded op is exact and is kept.
  std::vector<double> wFolded =
      scaleWeightRows(*w, k, n, match.transposeRhs, gamma);
  std::vector<double> bFolded;
  if (!beta.empty())
    bFolded = shiftTimesWeight(*w, k, n, match.transposeRhs, beta, bias);
  // b' is added at the product's type (f32 for bf16 W with an f32 C).
  auto biasType =
      RankedTensorType::get({n}, getElementTypeOrSelf(match.result.getType()));
  DenseElementsAttr wAttr = makeDenseFloatAttr(wType, wFolded);
  DenseElementsAttr bAttr =
      beta.empty() ? DenseElementsAttr() : makeDenseFloatAttr(biasType, bFolded);
  if (!allFinite(wAttr) || (bAttr && !allFinite(bAttr)))
    return std::nullopt;

  Location loc = norm.op->getLoc();
  FoldedWeights folded;
  folded.rhs = arith::ConstantOp::create(b, loc, wType, wAttr);
  folded.matmulBias = match.bias;
  if (bAttr)
    folded.matmulBias = arith::ConstantOp::create(b, loc, biasType, bAttr);
  return folded;
}

/// Why `norm` cannot feed a fused norm → matmul op (empty if it can).
std::string whyNotFusible(const NormOpView &norm) {
  std::string why = norm.whyNoFusedForm(/*normFirst=*/true);
  if (!why.empty())
    return why;
  if (norm.y.use_empty())
    return "its result is unused";
  return "";
}

} // namespace

LogicalResult mlir::norm::fuseNormIntoConsumerMatmuls(
    RewriterBase &rewriter, Operation *op, bool foldWeights,
    std::string &why, unsigned *numFused) {
  std::optional<NormOpView> norm = NormOpView::get(op);
  if (!norm) {
    why = "not a norm.rms_norm / norm.layer_norm on tensors";
    return failure();
  }
  why = whyNotFusible(*norm);
  if (!why.empty())
    return failure();

  // Every user must be a matmul that takes the norm as its activation: a
  // user that needs the normalized value materialized keeps the norm.
  SmallVector<MatmulMatch> matches;
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Operation *user : norm->y.getUsers()) {
    if (!seen.insert(user).second)
      continue;
    std::string matchWhy;
    FailureOr<MatmulMatch> match =
        matchMatmulWithLhs(user, norm->y, matchWhy);
    if (failed(match)) {
      why = "a user needs the normalized value: " + matchWhy;
      return failure();
    }
    auto wType = cast<ShapedType>(match->rhs.getType());
    if (wType.getRank() != 2) {
      why = "W is not 2-D";
      return failure();
    }
    // C may be wider than the activations (bf16 · bf16 into f32), or be
    // rounded back to their type right after the product.
    takeTruncationOfProduct(*match);
    why =
        whyNotFusedOutputType(getElementTypeOrSelf(match->result.getType()),
                              getElementTypeOrSelf(norm->input), norm->accType);
    if (!why.empty())
      return failure();
    // K must agree between x, γ, β and W where static: with a dynamic K
    // the unfused ops verify with lengths the fused op would reject.
    int64_t k = wType.getDimSize(match->transposeRhs ? 1 : 0);
    for (Value v : {norm->input, norm->weight, norm->bias}) {
      if (!v)
        continue;
      auto type = cast<ShapedType>(v.getType());
      int64_t len = type.getDimSize(type.getRank() - 1);
      if (!ShapedType::isDynamic(len) && !ShapedType::isDynamic(k) &&
          len != k) {
        why = "the normalized length and W's K differ";
        return failure();
      }
    }
    // Fusing across a loop boundary would redo the statistics per iteration.
    Operation *last = match->lastOp();
    if (last->getBlock() != op->getBlock() ||
        match->matmul->getBlock() != op->getBlock()) {
      why = "a matmul is in another block (e.g. a loop body)";
      return failure();
    }
    matches.push_back(*match);
  }
  // One consumer's W or bias must not be another consumer's product: the
  // rewrite replaces the products one by one.
  for (MatmulMatch &a : matches)
    for (MatmulMatch &b : matches)
      for (Value operand : {a.rhs, a.bias})
        if (operand && (operand == b.result ||
                        operand.getDefiningOp() == b.matmul.getOperation())) {
          why = "a matmul's W or bias is another consumer's product";
          return failure();
        }

  // With a residual, every fused op adds it again (cheap next to its GEMM);
  // the first one in the block also returns the sum for the residual
  // stream, and the statistics in use, so their readers must all come after
  // it.
  auto [mean, rstd] = norm->usedStatistics();
  MatmulMatch *sumProducer = nullptr;
  if (norm->sum || mean || rstd) {
    auto lastOf = [](MatmulMatch &m) { return m.lastOp(); };
    for (MatmulMatch &match : matches)
      if (!sumProducer || lastOf(match)->isBeforeInBlock(lastOf(*sumProducer)))
        sumProducer = &match;
    for (auto [value, what] :
         {std::pair<Value, StringRef>{norm->sum, "the residual sum"},
          {mean, "the mean"},
          {rstd, "the rstd"}}) {
      if (!value)
        continue;
      for (Operation *reader : value.getUsers()) {
        Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*reader);
        if (!ancestor || ancestor->isBeforeInBlock(lastOf(*sumProducer))) {
          why = (what + " is read before the first matmul").str();
          return failure();
        }
      }
    }
  }

  // The norm's rounding of its result (16-bit data) and its pRMSNorm prefix
  // go with it: the fused op computes what the unfused pair did. γ is then
  // not folded into W: the product reads round(x̂·γ'), which W' = γ'·W would
  // round elsewhere.
  CastModeAttr castMode = norm->castModeToCarry();
  SmallVector<Operation *> dead;
  for (MatmulMatch &match : matches) {
    rewriter.setInsertionPoint(match.lastOp());
    Location loc = match.matmul.getLoc();
    Value rhs = match.rhs, matmulBias = match.bias;
    Value weight = norm->weight, bias = norm->bias;
    Attribute weightOffset = norm->weightOffset;
    if (foldWeights && !castMode) {
      if (std::optional<FoldedWeights> folded =
              foldIntoWeights(rewriter, *norm, match)) {
        rhs = folded->rhs;
        matmulBias = folded->matmulBias;
        weight = bias = Value();
        weightOffset = Attribute();
      }
    }
    auto resultType = cast<RankedTensorType>(match.result.getType());
    Value init =
        createFusedInit(rewriter, loc, match, norm->input, resultType);
    SmallVector<Type> resultTypes{resultType};
    // The sum and the statistics (on the first fused op only), in the
    // fused op's result order.
    Value carried[] = {norm->sum, mean, rstd};
    Value carriedInits[3];
    if (&match == sumProducer)
      for (auto [value, carriedInit] : llvm::zip(carried, carriedInits)) {
        if (!value)
          continue;
        auto type = cast<RankedTensorType>(value.getType());
        carriedInit = createInitLike(rewriter, loc, norm->input, type);
        resultTypes.push_back(type);
      }
    auto [sumInit, meanInit, rstdInit] = carriedInits;
    Operation *fused;
    if (norm->isLayerNorm)
      fused = LayerNormMatmulOp::create(
          rewriter, loc, resultTypes, norm->input, norm->residual, weight, bias,
          rhs, matmulBias, init, sumInit, meanInit, rstdInit, norm->epsilon,
          weightOffset, norm->accType, norm->epsMode, match.transposeRhs,
          castMode);
    else
      fused = RMSNormMatmulOp::create(
          rewriter, loc, resultTypes, norm->input, norm->residual, weight, rhs,
          matmulBias, init, sumInit, rstdInit, norm->epsilon, weightOffset,
          norm->accType, norm->epsMode, match.transposeRhs, castMode,
          norm->partial);
    rewriter.replaceAllUsesWith(match.result, fused->getResult(0));
    unsigned next = 1;
    for (auto [value, carriedInit] : llvm::zip(carried, carriedInits))
      if (carriedInit)
        rewriter.replaceAllUsesWith(value, fused->getResult(next++));
    if (match.truncation)
      dead.push_back(match.truncation);
    if (match.biasAdd)
      dead.push_back(match.biasAdd);
    dead.push_back(match.matmul);
  }
  // Users first: the norm dies last.
  dead.push_back(norm->op);
  eraseWithDeadProducers(rewriter, dead);
  if (numFused)
    *numFused = matches.size();
  return success();
}
