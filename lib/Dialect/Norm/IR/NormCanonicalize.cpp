//===- NormCanonicalize.cpp - canonicalization patterns of the norm ops ---===//
//
//  - a constant splat γ with γ + weight_offset = 1 is dropped (and the
//    offset with it): the op then scales by nothing;
//  - a constant splat-zero β or matmul bias is dropped;
//  - on tensors, `sum_outs`, `mean_outs` and `rstd_outs` whose results are
//    unused are dropped, so the op stops producing them (never
//    `scale_outs`: a quantized output needs its scales).
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Rebuilds `op` without the operands `dropOperands` (operand numbers) and the
/// results `dropResults`, updating the operand segment sizes, and with the
/// inherent attributes `removeAttrs` removed. Dropped results must be unused.
void rebuildWithout(RewriterBase &rewriter, Operation *op,
                    ArrayRef<unsigned> dropOperands,
                    ArrayRef<unsigned> dropResults,
                    ArrayRef<StringRef> removeAttrs = {}) {
  MLIRContext *ctx = op->getContext();
  NamedAttrList properties(
      cast<DictionaryAttr>(op->getPropertiesAsAttribute()));
  StringRef segmentsName = "operandSegmentSizes";
  ArrayRef<int32_t> oldSizes =
      cast<DenseI32ArrayAttr>(properties.get(segmentsName)).asArrayRef();
  SmallVector<int32_t> newSizes(oldSizes);
  SmallVector<Value> operands;
  unsigned segment = 0, segmentStart = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    while (index >= segmentStart + oldSizes[segment])
      segmentStart += oldSizes[segment++];
    if (llvm::is_contained(dropOperands, index))
      --newSizes[segment];
    else
      operands.push_back(operand.get());
  }
  properties.set(segmentsName, DenseI32ArrayAttr::get(ctx, newSizes));
  for (StringRef name : removeAttrs)
    properties.erase(name);

  SmallVector<Type> resultTypes;
  for (OpResult result : op->getResults())
    if (!llvm::is_contained(dropResults, result.getResultNumber()))
      resultTypes.push_back(result.getType());
  OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                       llvm::to_vector(op->getDiscardableAttrs()));
  state.propertiesAttr = properties.getDictionary(ctx);
  Operation *newOp = rewriter.create(state);

  SmallVector<Value> replacements;
  unsigned next = 0;
  for (OpResult result : op->getResults())
    replacements.push_back(
        llvm::is_contained(dropResults, result.getResultNumber())
            ? Value()
            : newOp->getResult(next++));
  rewriter.replaceOp(op, replacements);
}

/// The value of a constant splat float tensor, if `value` is one.
std::optional<double> splatValue(Value value) {
  if (!value)
    return std::nullopt;
  DenseFPElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

/// The operand number of an optional operand that is present.
unsigned operandNumberOf(MutableOperandRange range) {
  return range[0].getOperandNumber();
}

/// γ splat with γ + weight_offset = 1 scales by one: drop both.
template <typename OpTy>
LogicalResult dropNeutralWeight(OpTy op, PatternRewriter &rewriter) {
  std::optional<double> gamma = splatValue(op.getWeight());
  if (!gamma)
    return rewriter.notifyMatchFailure(op, "weight is not a constant splat");
  if (*gamma + op.getWeightOffsetValue() != 1.0)
    return rewriter.notifyMatchFailure(op, "weight + offset is not one");
  rebuildWithout(rewriter, op, {operandNumberOf(op.getWeightMutable())}, {},
                 {op.getWeightOffsetAttrName().getValue()});
  return success();
}

/// Splat-zero additive operands (β, the matmul bias) add nothing: drop them.
template <typename OpTy>
LogicalResult dropZeroBiases(OpTy op, PatternRewriter &rewriter) {
  SmallVector<unsigned> zeroOperands;
  auto consider = [&](MutableOperandRange range) {
    if (!range.empty() && splatValue(range[0].get()) == 0.0)
      zeroOperands.push_back(operandNumberOf(range));
  };
  if constexpr (std::is_same_v<OpTy, LayerNormOp> ||
                std::is_same_v<OpTy, LayerNormMatmulOp> ||
                std::is_same_v<OpTy, MatmulLayerNormOp>)
    consider(op.getBiasMutable());
  if constexpr (!std::is_same_v<OpTy, RMSNormOp> &&
                !std::is_same_v<OpTy, LayerNormOp>)
    consider(op.getMatmulBiasMutable());
  if (zeroOperands.empty())
    return rewriter.notifyMatchFailure(op, "no splat-zero bias");
  rebuildWithout(rewriter, op, zeroOperands, {});
  return success();
}

/// Whether `init` is a standalone norm's `scale_outs`: the dynamic scales
/// are part of what its quantized output means, used or not.
template <typename OpTy> bool isScalesOutput(OpTy op, OpOperand &init) {
  if constexpr (std::is_same_v<OpTy, RMSNormOp> ||
                std::is_same_v<OpTy, LayerNormOp>) {
    MutableOperandRange scales = op.getScaleInitMutable();
    return !scales.empty() &&
           scales[0].getOperandNumber() == init.getOperandNumber();
  }
  return false;
}

/// On tensors, secondary outputs (sum, mean, rstd) nobody uses are dropped;
/// the dynamic scales of a quantized output are kept.
template <typename OpTy>
LogicalResult dropUnusedOutputs(OpTy op, PatternRewriter &rewriter) {
  if (!op.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(op, "outputs are buffers");
  SmallVector<unsigned> operands, results;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    OpResult result = op.getTiedOpResult(&init);
    if (result.getResultNumber() == 0 || !result.use_empty() ||
        isScalesOutput(op, init))
      continue;
    operands.push_back(init.getOperandNumber());
    results.push_back(result.getResultNumber());
  }
  if (results.empty())
    return rewriter.notifyMatchFailure(op, "every secondary output is used");
  rebuildWithout(rewriter, op, operands, results);
  return success();
}

template <typename OpTy>
void addNormPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add(dropNeutralWeight<OpTy>);
  results.add(dropUnusedOutputs<OpTy>);
  if constexpr (!std::is_same_v<OpTy, RMSNormOp>)
    results.add(dropZeroBiases<OpTy>);
}
} // namespace

#define NORM_DEFINE_CANONICALIZATION(OpTy)                                     \
  void OpTy::getCanonicalizationPatterns(RewritePatternSet &results,           \
                                         MLIRContext *context) {               \
    addNormPatterns<OpTy>(results, context);                                   \
  }

NORM_DEFINE_CANONICALIZATION(RMSNormOp)
NORM_DEFINE_CANONICALIZATION(LayerNormOp)
NORM_DEFINE_CANONICALIZATION(RMSNormMatmulOp)
NORM_DEFINE_CANONICALIZATION(LayerNormMatmulOp)
NORM_DEFINE_CANONICALIZATION(MatmulRMSNormOp)
NORM_DEFINE_CANONICALIZATION(MatmulLayerNormOp)
#undef NORM_DEFINE_CANONICALIZATION
