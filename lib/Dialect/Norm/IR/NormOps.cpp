//===- NormOps.cpp - norm op accessors, verifiers and interfaces ----------===//
//
// Everything about the norm ops that is not tiling, decomposition or
// canonicalization: attribute accessors with their defaults, the verifiers
// (DESIGN.md §2), memory effects and result-shape reification.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormOps.h"
#include "NormOpsSupport.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::detail;

#define GET_OP_CLASSES
#include "norm/Dialect/Norm/IR/NormOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Attribute accessors
//===----------------------------------------------------------------------===//

static double floatAttrValue(Attribute attr, double defaultValue) {
  if (auto floatAttr = llvm::dyn_cast_if_present<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  return defaultValue;
}

template <typename OpTy>
static FloatType accumulationTypeOf(OpTy op) {
  if (std::optional<FloatType> accType = op.getAccType())
    return *accType;
  MLIRContext *ctx = op.getContext();
  if (op.getInputType().getElementType().isF64())
    return Float64Type::get(ctx);
  return Float32Type::get(ctx);
}

template <typename OpTy>
static int64_t normalizedAxisOf(OpTy op) {
  int64_t axis = op.getAxis();
  return axis < 0 ? axis + op.getInputType().getRank() : axis;
}

#define NORM_DEFINE_COMMON_ACCESSORS(OpTy)                                     \
  FloatType OpTy::getAccumulationType() { return accumulationTypeOf(*this); }  \
  double OpTy::getEpsilonValue() {                                             \
    return floatAttrValue(getEpsilonAttr(), kDefaultEpsilon);                  \
  }                                                                            \
  double OpTy::getWeightOffsetValue() {                                        \
    return floatAttrValue(getWeightOffsetAttr(), 0.0);                         \
  }

NORM_DEFINE_COMMON_ACCESSORS(RMSNormOp)
NORM_DEFINE_COMMON_ACCESSORS(LayerNormOp)
NORM_DEFINE_COMMON_ACCESSORS(RMSNormMatmulOp)
NORM_DEFINE_COMMON_ACCESSORS(LayerNormMatmulOp)
NORM_DEFINE_COMMON_ACCESSORS(MatmulRMSNormOp)
NORM_DEFINE_COMMON_ACCESSORS(MatmulLayerNormOp)
#undef NORM_DEFINE_COMMON_ACCESSORS

FloatType GroupNormOp::getAccumulationType() {
  return accumulationTypeOf(*this);
}
double GroupNormOp::getEpsilonValue() {
  return floatAttrValue(getEpsilonAttr(), kDefaultEpsilon);
}

int64_t RMSNormOp::getNormalizedAxis() { return normalizedAxisOf(*this); }
int64_t LayerNormOp::getNormalizedAxis() { return normalizedAxisOf(*this); }
double RMSNormOp::getPartialValue() {
  return floatAttrValue(getPartialAttr(), 1.0);
}
double RMSNormMatmulOp::getPartialValue() {
  return floatAttrValue(getPartialAttr(), 1.0);
}

template <typename OpTy> static std::optional<NormRotary> rotaryOf(OpTy op) {
  if (!op.getCos())
    return std::nullopt;
  return NormRotary{op.getCos(), op.getSin(),
                    op.getRopeMode().value_or(RopeMode::rotate_half),
                    op.getRopeRounding().value_or(RopeRounding::once)};
}

std::optional<NormRotary> mlir::norm::getNormRotary(Operation *op) {
  if (auto rms = dyn_cast<RMSNormOp>(op))
    return rotaryOf(rms);
  if (auto ln = dyn_cast<LayerNormOp>(op))
    return rotaryOf(ln);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Verification helpers
//===----------------------------------------------------------------------===//

namespace {
/// DESIGN.md §8's rules (Q1–Q4 of the op description) on the quantized
/// output of a standalone norm whose rows have `rowShape` and whose
/// normalized dims `normShape`.
template <typename OpTy>
LogicalResult verifyQuantization(OpTy op, ArrayRef<int64_t> rowShape,
                                 ArrayRef<int64_t> normShape) {
  Type outType = getElementTypeOrSelf(op.getInit());
  Value scale = op.getScale(), scales = op.getScaleInit();
  if (!isQuantizedElementType(outType)) {
    if (scale || scales)
      return op.emitOpError("'")
             << (scale ? "scale" : "scale_outs")
             << "' requires a quantized 'outs' element type (f8E4M3FN, "
                "f8E5M2 or i8), got "
             << outType;
  } else if (!scale == !scales) {
    return op.emitOpError("a quantized 'outs' (")
           << outType
           << ") needs exactly one of 'scale' (static) and 'scale_outs' "
              "(dynamic)";
  }
  std::optional<uint64_t> groupSize = op.getGroupSize();
  Attribute scaleMin = op.getScaleMinAttr();
  if (!scales && (groupSize || scaleMin))
    return op.emitOpError("'") << (groupSize ? "group_size" : "scale_min")
                               << "' requires 'scale_outs' (dynamic scales)";
  if (auto value = llvm::dyn_cast_if_present<FloatAttr>(scaleMin))
    if (!std::isfinite(value.getValueAsDouble()) ||
        value.getValueAsDouble() <= 0.0)
      return op.emitOpError("'scale_min' must be finite and > 0, got ")
             << value;
  if (!scales)
    return success();
  SmallVector<int64_t> scaleShape(rowShape);
  if (groupSize) {
    int64_t g = static_cast<int64_t>(*groupSize);
    if (g != 32 && g != 64 && g != 128)
      return op.emitOpError("'group_size' must be 32, 64 or 128, got ") << g;
    if (ShapedType::isDynamicShape(normShape))
      return op.emitOpError("'group_size' needs static normalized "
                            "dimensions, got ")
             << formatShape(normShape);
    int64_t n = ShapedType::getNumElements(normShape);
    if (n % g != 0)
      return op.emitOpError("'group_size' ")
             << g << " does not divide the " << n << " normalized elements";
    scaleShape.push_back(n / g);
  }
  return NormVerifier(op).checkShape(
      scales, "scale_outs", scaleShape,
      groupSize ? "the non-normalized dimensions and [n / group_size]:"
                : "the non-normalized dimensions of the input");
}

/// (R1–R5) of the rotary embedding of a norm of shape `shape` whose
/// normalized dims start at `normAxis` (`axis` as the op spells it), which
/// reads `elementType` values and writes `outType` ones: a standalone norm,
/// or the per-head norm of a matmul → norm (`shape` the heads view of its
/// output).
template <typename OpTy>
LogicalResult verifyRope(OpTy op, ArrayRef<int64_t> shape, int64_t normAxis,
                         int64_t axis, Type elementType, Type outType,
                         FloatType accType, bool quantized,
                         StringRef frame = "input") {
  Value cos = op.getCos(), sin = op.getSin();
  if (!cos && !sin) {
    if (op.getRopeModeAttr())
      return op.emitOpError("'rope_mode' requires 'rope(cos, sin)' operands");
    if (op.getRopeRoundingAttr())
      return op.emitOpError(
          "'rope_rounding' requires 'rope(cos, sin)' operands");
    return success();
  }
  if (!cos || !sin)
    return op.emitOpError("'rope' needs both 'cos' and 'sin', got only '")
           << (cos ? "cos" : "sin") << "'";
  int64_t rank = shape.size();
  if (normAxis != rank - 1)
    return op.emitOpError("'rope' rotates within the last dimension: the "
                          "normalized dimensions must be the last one only, "
                          "got axis = ")
           << axis << " for rank " << rank;
  int64_t d = shape.back();
  if (ShapedType::isDynamic(d) || d % 2 != 0)
    return op.emitOpError("'rope' needs a static, even last dimension, got ")
           << formatShape(shape);
  if (quantized)
    return op.emitOpError("'rope' is not supported with a quantized 'outs'");
  NormVerifier verifier(op);
  if (failed(
          verifier.checkWidenedElementType(cos, "cos", elementType, accType)))
    return failure();
  if (cos.getType() != sin.getType())
    return op.emitOpError("'sin' type ")
           << sin.getType() << " does not match the 'cos' type "
           << cos.getType();
  // (R5) Step rounding rounds to the output's type: only meaningful when it
  // is narrower than acc_type, and exact only with angles of that type (a
  // wider angle's product would round twice).
  if (op.getRopeRounding() == RopeRounding::each_step) {
    if (outType.getIntOrFloatBitWidth() >= accType.getWidth())
      return op.emitOpError("'rope_rounding' each_step rounds to the output "
                            "element type, which must be narrower than the "
                            "accumulation type ")
             << accType << ", got " << outType;
    if (getElementTypeOrSelf(cos) != outType)
      return op.emitOpError("'rope_rounding' each_step needs 'cos' and 'sin' "
                            "of the output element type ")
             << outType << ", got " << getElementTypeOrSelf(cos);
  }
  ArrayRef<int64_t> angles = cast<ShapedType>(cos.getType()).getShape();
  bool fits = static_cast<int64_t>(angles.size()) == rank && angles.back() == d;
  for (int64_t i = 0; fits && i + 1 < rank; ++i)
    fits = angles[i] == 1 || ShapedType::isDynamic(angles[i]) ||
           ShapedType::isDynamic(shape[i]) || angles[i] == shape[i];
  if (!fits)
    return op.emitOpError("'cos' shape ")
           << formatShape(angles) << " must have the " << frame
           << "'s rank, each dimension the " << frame
           << "'s or 1 (broadcast), and the last D = " << d << "; the " << frame
           << " shape is " << formatShape(shape);
  return success();
}

/// The shared part of `norm.rms_norm` and `norm.layer_norm` verification.
template <typename OpTy>
LogicalResult verifyStandaloneNorm(OpTy op, ArrayRef<Value> affineParams,
                                   ArrayRef<std::pair<Value, StringRef>> stats) {
  NormVerifier verifier(op);
  ShapedType inputType = op.getInputType();
  Type elementType = inputType.getElementType();
  if (failed(verifier.checkRows(inputType, op.getAxis())))
    return failure();
  int64_t normAxis = op.getNormalizedAxis();
  ArrayRef<int64_t> shape = inputType.getShape();
  ArrayRef<int64_t> rowShape = shape.take_front(normAxis);
  ArrayRef<int64_t> normShape = shape.drop_front(normAxis);
  if (failed(verifier.checkAttributes(op.getEpsilonAttr(),
                                      op.getWeightOffsetAttr(),
                                      op.getAccType(), elementType)))
    return failure();
  FloatType accType = op.getAccumulationType();
  if (failed(verifyQuantization(op, rowShape, normShape)))
    return failure();
  bool quantized = isQuantizedElementType(getElementTypeOrSelf(op.getInit()));
  if ((!quantized && failed(verifier.checkWidenedElementType(
                         op.getInit(), "outs", elementType, accType))) ||
      failed(verifier.checkShape(op.getInit(), "outs", shape,
                                 "the input shape")) ||
      failed(verifier.checkOperand(op.getResidual(), "residual", elementType,
                                   shape, "the input shape")))
    return failure();
  if (op.getSumInit() && !op.getResidual())
    return op.emitOpError("'sum_outs' requires a 'residual' operand");
  if (failed(verifier.checkOperand(op.getSumInit(), "sum_outs", elementType,
                                   shape, "the input shape")))
    return failure();
  // γ and β: the input's element type or one wider type, shared by both.
  if (failed(verifier.checkWidenedParams(
          affineParams, elementType, "input", accType, normShape,
          "the normalized dimensions of the input")))
    return failure();
  for (auto [value, name] : stats)
    if (failed(verifier.checkStatistic(value, name, accType, rowShape)))
      return failure();
  return verifyRope(op, shape, normAxis, op.getAxis(), elementType,
                    getElementTypeOrSelf(op.getInit()), accType, quantized);
}

/// Checks `rhs` against the contraction size `k` and returns its N (the
/// output columns), or failure.
FailureOr<int64_t> verifyRhs(Operation *op, Value rhs, int64_t k,
                             bool transposed, Type elementType) {
  auto rhsType = cast<ShapedType>(rhs.getType());
  if (rhsType.getRank() != 2)
    return op->emitOpError("'rhs' must be a 2-D matrix, got rank ")
           << rhsType.getRank();
  if (rhsType.getElementType() != elementType)
    return op->emitOpError() << "'rhs' element type "
                             << rhsType.getElementType()
                             << " does not match the input element type "
                             << elementType;
  unsigned kDim = transposed ? 1 : 0;
  int64_t rhsK = rhsType.getDimSize(kDim);
  if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(rhsK) && k != rhsK)
    return op->emitOpError() << "contraction size mismatch: the input has K = "
                             << k << " but 'rhs' dimension " << kDim
                             << " has size " << rhsK
                             << (transposed ? " (transpose_rhs)" : "");
  return rhsType.getDimSize(1 - kDim);
}

/// How diagnostics name the fused ops' output element type: "input" while it
/// is the input's (the messages of the strict ops), else "output".
StringRef outputWhat(Type inputType, Type outputType) {
  return inputType == outputType ? "input" : "output";
}

/// The shared part of the fused ops: kinds, attributes, `rhs`, the output and
/// the matmul bias. Returns the expected output shape.
template <typename OpTy>
FailureOr<SmallVector<int64_t>> verifyFusedCommon(OpTy op) {
  NormVerifier verifier(op);
  ShapedType inputType = op.getInputType();
  Type elementType = inputType.getElementType();
  if (inputType.getRank() < 1)
    return op.emitOpError("input must have rank >= 1");
  if (failed(verifier.checkUniformKind()) ||
      failed(verifier.checkAttributes(op.getEpsilonAttr(),
                                      op.getWeightOffsetAttr(),
                                      op.getAccType(), elementType)))
    return failure();
  FailureOr<int64_t> n = verifyRhs(op, op.getRhs(), inputType.getShape().back(),
                                   op.getTransposeRhs(), elementType);
  if (failed(n))
    return failure();
  SmallVector<int64_t> outShape(inputType.getShape());
  outShape.back() = *n;
  // The output may be wider than the input (bf16 A and W, f32 C: the f32
  // accumulation kept), and, for matmul → norm, a 16-bit float from f32
  // operands (the f32 product rounded to the norm's type); the matmul bias
  // is added at the output's type.
  Type outType = getElementTypeOrSelf(op.getInit());
  constexpr bool normLast = std::is_same_v<OpTy, MatmulRMSNormOp> ||
                            std::is_same_v<OpTy, MatmulLayerNormOp>;
  bool narrowed = normLast && isNarrowedOutputType(outType, elementType);
  if (normLast && !narrowed && isa<FloatType>(outType) &&
      outType.getIntOrFloatBitWidth() < elementType.getIntOrFloatBitWidth())
    return op.emitOpError("'outs' element type ")
           << outType << " is narrower than the input element type "
           << elementType
           << ": a narrower output is a 16-bit float (bf16 or f16) from f32 "
              "operands only";
  if ((!narrowed &&
       failed(verifier.checkWidenedElementType(
           op.getInit(), "outs", elementType, op.getAccumulationType()))) ||
      failed(verifier.checkShape(op.getInit(), "outs", outShape,
                                 "the input's leading dimensions and N:")) ||
      failed(verifier.checkSameElementType(op.getMatmulBias(), "matmul_bias",
                                           outType,
                                           outputWhat(elementType, outType))) ||
      failed(verifier.checkShape(op.getMatmulBias(), "matmul_bias", {*n},
                                 "[N] =")))
    return failure();
  return outShape;
}
} // namespace

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// (C3) of `partial`, shared by norm.rms_norm and norm.rms_norm_matmul.
static LogicalResult verifyPartial(Operation *op, Attribute partial) {
  if (!partial)
    return success();
  double value = cast<FloatAttr>(partial).getValueAsDouble();
  if (!(value > 0.0 && value <= 1.0))
    return op->emitOpError("'partial' must be in (0, 1], got ") << partial;
  return success();
}

LogicalResult RMSNormOp::verify() {
  if (failed(verifyRequiredOperands(*this)) ||
      failed(verifyPartial(*this, getPartialAttr())))
    return failure();
  return verifyStandaloneNorm(*this, {getWeight()},
                              {{getRstdInit(), "rstd_outs"}});
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyRequiredOperands(*this)))
    return failure();
  return verifyStandaloneNorm(*this, {getWeight(), getBias()},
                              {{getMeanInit(), "mean_outs"},
                               {getRstdInit(), "rstd_outs"}});
}

/// The saved statistics of a fused op (`mean_outs`, `rstd_outs`): acc_type,
/// one per row, the rows being the input's leading dims (the output's too);
/// none with `head_dim`.
template <typename OpTy>
static LogicalResult verifyFusedStatistics(OpTy op, Value mean, bool perHead) {
  Value rstd = op.getRstdInit();
  if (!mean && !rstd)
    return success();
  if (perHead)
    return op.emitOpError("'mean_outs' and 'rstd_outs' are per row; a "
                          "per-head op ('head_dim') takes none");
  NormVerifier verifier(op);
  ArrayRef<int64_t> rows = op.getInputType().getShape().drop_back();
  for (auto [value, name] :
       {std::pair<Value, StringRef>{mean, "mean_outs"}, {rstd, "rstd_outs"}})
    if (failed(verifier.checkStatistic(value, name, op.getAccumulationType(),
                                       rows)))
      return failure();
  return success();
}

template <typename OpTy>
static LogicalResult verifyNormMatmul(OpTy op, ArrayRef<Value> affineParams) {
  if (failed(verifyRequiredOperands(op)) || failed(verifyFusedCommon(op)))
    return failure();
  NormVerifier verifier(op);
  ShapedType inputType = op.getInputType();
  if (inputType.getShape().back() == 0)
    return op.emitOpError("the normalized dimension K (the input's last "
                          "dimension) must not be empty");
  if (failed(verifier.checkOperand(op.getResidual(), "residual",
                                   inputType.getElementType(),
                                   inputType.getShape(), "the input shape")))
    return failure();
  if (op.getSumInit() && !op.getResidual())
    return op.emitOpError("'sum_outs' requires a 'residual' operand");
  if (failed(verifier.checkOperand(op.getSumInit(), "sum_outs",
                                   inputType.getElementType(),
                                   inputType.getShape(), "the input shape")))
    return failure();
  return verifier.checkWidenedParams(affineParams, inputType.getElementType(),
                                     "input", op.getAccumulationType(),
                                     inputType.getShape().back(),
                                     "[K] (the input's last dimension) =");
}

template <typename OpTy>
static LogicalResult verifyMatmulNorm(OpTy op, ArrayRef<Value> affineParams) {
  if (failed(verifyRequiredOperands(op)))
    return failure();
  FailureOr<SmallVector<int64_t>> outShape = verifyFusedCommon(op);
  if (failed(outShape))
    return failure();
  NormVerifier verifier(op);
  // The pre-norm sum S, its residual and the norm's result have the output's
  // type: S rounds to it (f32 from a bf16 matmul accumulated in f32).
  Type inputType = op.getInputType().getElementType();
  Type sumType = getElementTypeOrSelf(op.getInit());
  StringRef sumWhat = outputWhat(inputType, sumType);
  for (auto [value, name] :
       {std::pair<Value, StringRef>{op.getResidual(), "residual"},
        {op.getSumInit(), "sum_outs"}})
    if (failed(verifier.checkSameElementType(value, name, sumType, sumWhat)) ||
        failed(verifier.checkShape(value, name, *outShape, "the output shape")))
      return failure();
  FloatType accType = op.getAccumulationType();
  int64_t n = outShape->back();
  if (n == 0)
    return op.emitOpError("the normalized dimension N (the output's last "
                          "dimension) must not be empty");
  std::optional<uint64_t> headDim = op.getHeadDim();
  if constexpr (std::is_same_v<OpTy, MatmulRMSNormOp>)
    if (!headDim && (op.getCos() || op.getSin() || op.getRopeModeAttr() ||
                     op.getRopeRoundingAttr()))
      return op.emitOpError("'rope' needs 'head_dim' (the rotation is within "
                            "a head)");
  if (!headDim)
    return verifier.checkWidenedParams(affineParams, sumType, sumWhat, accType,
                                       {n},
                                       "[N] (the output's last dimension) =");
  // Per-head: each row is N / D heads of D columns, normalized alike.
  int64_t d = static_cast<int64_t>(*headDim);
  if (ShapedType::isDynamic(n))
    return op.emitOpError("'head_dim' needs a static N (the output's last "
                          "dimension)");
  if (n % d != 0)
    return op.emitOpError("'head_dim' ") << d << " does not divide N = " << n
                                         << " (the output's last dimension)";
  if (failed(verifier.checkWidenedParams(affineParams, sumType, sumWhat,
                                         accType, {d}, "[head_dim] =")))
    return failure();
  if constexpr (std::is_same_v<OpTy, MatmulRMSNormOp>) {
    // The rotation is the per-head norm's: checked against S viewed as
    // [..., H, D], as the standalone norm's against its input.
    SmallVector<int64_t> heads(outShape->begin(), outShape->end() - 1);
    heads.append({n / d, d});
    int64_t last = heads.size() - 1;
    return verifyRope(op, heads, last, last, sumType, sumType, accType,
                      /*quantized=*/false, "heads view");
  }
  return success();
}

LogicalResult RMSNormMatmulOp::verify() {
  if (failed(verifyPartial(*this, getPartialAttr())) ||
      failed(verifyNormMatmul(*this, {getWeight()})))
    return failure();
  return verifyFusedStatistics(*this, Value(), /*perHead=*/false);
}
LogicalResult LayerNormMatmulOp::verify() {
  if (failed(verifyNormMatmul(*this, {getWeight(), getBias()})))
    return failure();
  return verifyFusedStatistics(*this, getMeanInit(), /*perHead=*/false);
}
/// The input norm of norm → matmul → norm (the `input_epsilon` prologue):
/// the attributes and γ of the norm.rms_norm_matmul it stands for, and no
/// residual or saved statistics, which would be ambiguous between the two
/// norms.
static LogicalResult verifyInputNorm(MatmulRMSNormOp op) {
  if (!op.hasInputNorm()) {
    if (op.getInputWeight() || op.getInputWeightOffsetAttr() ||
        op.getInputCastModeAttr())
      return op.emitOpError("'input_weight', 'input_weight_offset' and "
                            "'input_cast_mode' require 'input_epsilon'");
    return success();
  }
  for (auto [value, name] :
       {std::pair<Value, StringRef>{op.getResidual(), "residual"},
        {op.getSumInit(), "sum_outs"},
        {op.getRstdInit(), "rstd_outs"}})
    if (value)
      return op.emitOpError("an op with an input norm ('input_epsilon') "
                            "takes no '")
             << name << "'";
  NormVerifier verifier(op);
  ShapedType inputType = op.getInputType();
  // S is the C of the norm.rms_norm_matmul the input norm stands for, whose
  // output is never narrower than its input.
  Type outType = getElementTypeOrSelf(op.getInit());
  if (isNarrowedOutputType(outType, inputType.getElementType()))
    return op.emitOpError("an op with an input norm ('input_epsilon') has an "
                          "output of the input's type or a wider one (its S "
                          "is a norm.rms_norm_matmul's C), got ")
           << outType << " from " << inputType.getElementType();
  if (inputType.getShape().back() == 0)
    return op.emitOpError("the input norm's dimension K (the input's last "
                          "dimension) must not be empty");
  Value gamma = op.getInputWeight();
  if (failed(verifier.checkAttributes(
          op.getInputEpsilonAttr(), op.getInputWeightOffsetAttr(), std::nullopt,
          inputType.getElementType(), "input_")) ||
      failed(verifier.checkWidenedElementType(gamma, "input_weight",
                                              inputType.getElementType(),
                                              op.getAccumulationType())))
    return failure();
  return verifier.checkShape(gamma, "input_weight",
                             {inputType.getShape().back()},
                             "[K] (the input's last dimension) =");
}

LogicalResult MatmulRMSNormOp::verify() {
  if (failed(verifyMatmulNorm(*this, {getWeight()})) ||
      failed(verifyInputNorm(*this)))
    return failure();
  return verifyFusedStatistics(*this, Value(), getHeadDim().has_value());
}
LogicalResult MatmulLayerNormOp::verify() {
  if (failed(verifyMatmulNorm(*this, {getWeight(), getBias()})))
    return failure();
  return verifyFusedStatistics(*this, getMeanInit(), getHeadDim().has_value());
}

/// GroupNorm: [N, C, S...] with a static C that `num_groups` divides;
/// γ/β per channel, statistics per (sample, group).
LogicalResult GroupNormOp::verify() {
  if (failed(verifyRequiredOperands(*this)))
    return failure();
  NormVerifier verifier(*this);
  ShapedType inputType = getInputType();
  Type elementType = inputType.getElementType();
  if (inputType.getRank() < 2)
    return emitOpError("input must have rank >= 2 ([N, C, spatial...]), got "
                       "rank ")
           << inputType.getRank();
  if (failed(verifier.checkUniformKind()))
    return failure();
  int64_t channels = inputType.getDimSize(1);
  if (ShapedType::isDynamic(channels) || channels == 0)
    return emitOpError("the channel dimension (1) must be static and "
                       "non-empty, got ")
           << formatShape(inputType.getShape());
  int64_t groups = getNumGroups();
  if (groups < 1 || channels % groups != 0)
    return emitOpError("'num_groups' = ")
           << groups << " must be >= 1 and divide the " << channels
           << " channels";
  ArrayRef<int64_t> shape = inputType.getShape();
  for (int64_t d = 2, e = shape.size(); d < e; ++d)
    if (shape[d] == 0)
      return emitOpError("the normalized dimensions must not be empty "
                         "(dimension ")
             << d << " has size 0)";
  if (failed(verifier.checkAttributes(getEpsilonAttr(), Attribute(),
                                      getAccType(), elementType)) ||
      failed(verifier.checkOperand(getInit(), "outs", elementType, shape,
                                   "the input shape")) ||
      failed(verifier.checkAffineParams({getWeight(), getBias()}, elementType,
                                        {channels},
                                        "[C] (the channel dimension) =")))
    return failure();
  SmallVector<int64_t> statShape = {shape[0], groups};
  for (auto [value, name] :
       {std::pair<Value, StringRef>{getMeanInit(), "mean_outs"},
        {getRstdInit(), "rstd_outs"}})
    if (failed(verifier.checkStatistic(value, name, getAccumulationType(),
                                       statShape)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Memory effects and shape reification
//===----------------------------------------------------------------------===//

#define NORM_DEFINE_EFFECTS_AND_REIFY(OpTy)                                    \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getNormEffects(getOperation(), effects);                                   \
  }                                                                            \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &b, ReifiedRankedShapedTypeDims &reifiedReturnShapes) {        \
    return reifyFromInits(getOperation(), b, reifiedReturnShapes);             \
  }

NORM_DEFINE_EFFECTS_AND_REIFY(RMSNormOp)
NORM_DEFINE_EFFECTS_AND_REIFY(LayerNormOp)
NORM_DEFINE_EFFECTS_AND_REIFY(RMSNormMatmulOp)
NORM_DEFINE_EFFECTS_AND_REIFY(LayerNormMatmulOp)
NORM_DEFINE_EFFECTS_AND_REIFY(MatmulRMSNormOp)
NORM_DEFINE_EFFECTS_AND_REIFY(MatmulLayerNormOp)
NORM_DEFINE_EFFECTS_AND_REIFY(GroupNormOp)
#undef NORM_DEFINE_EFFECTS_AND_REIFY
