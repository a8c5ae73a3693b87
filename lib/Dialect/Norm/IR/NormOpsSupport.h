//===- NormOpsSupport.h - what the norm op files share ------------*- C++
//-*-===//
//
// Internal to the dialect library: the verifier helpers of DESIGN.md §2's
// rules (one message per broken rule, naming the operand as written), and
// the memory effects and shape reification every destination-passing norm
// op shares, used by the forward ops (NormOps.cpp) and their gradients
// (NormGradOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_IR_NORMOPSSUPPORT_H
#define NORM_LIB_DIALECT_NORM_IR_NORMOPSSUPPORT_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <string>

namespace mlir {
namespace norm {
namespace detail {

/// Formats a shape as `[4, ?, 8]` for diagnostics.
inline std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  os << ']';
  return text;
}

/// Checks the operands and attributes that every norm op shares. `name`s are
/// the assembly keywords, so messages point at what the user wrote.
class NormVerifier {
public:
  explicit NormVerifier(Operation *op) : op(op) {}

  /// Tensors and memrefs must not be mixed: the op either has value
  /// semantics (and results) or writes its `outs` buffers. Scalars (a static
  /// quantization scale) go with either.
  LogicalResult checkUniformKind() {
    bool firstIsTensor = isa<RankedTensorType>(op->getOperand(0).getType());
    for (OpOperand &operand : op->getOpOperands())
      if (isa<ShapedType>(operand.get().getType()) &&
          isa<RankedTensorType>(operand.get().getType()) != firstIsTensor)
        return op->emitOpError("operands must be all tensors or all memrefs; "
                               "operand #")
               << operand.getOperandNumber() << " is "
               << operand.get().getType();
    return success();
  }

  /// The row structure of a norm over dims [axis, rank) of `inputType`:
  /// rank >= 1, -rank <= axis < rank, tensors and memrefs not mixed, and no
  /// empty normalized dim.
  LogicalResult checkRows(ShapedType inputType, int64_t axis) {
    int64_t rank = inputType.getRank();
    if (rank < 1)
      return op->emitOpError("input must have rank >= 1");
    if (axis < -rank || axis >= rank)
      return op->emitOpError("'axis' = ")
             << axis << " is out of range for an input of rank " << rank
             << " (expected " << -rank << " <= axis < " << rank << ")";
    if (failed(checkUniformKind()))
      return failure();
    int64_t normAxis = axis < 0 ? axis + rank : axis;
    for (int64_t d = normAxis; d < rank; ++d)
      if (inputType.getDimSize(d) == 0)
        return op->emitOpError("the normalized dimensions must not be empty "
                               "(dimension ")
               << d << " has size 0)";
    return success();
  }

  LogicalResult checkSameElementType(Value value, StringRef name, Type expected,
                                     StringRef expectedWhat) {
    if (!value)
      return success();
    Type actual = cast<ShapedType>(value.getType()).getElementType();
    if (actual != expected)
      return op->emitOpError() << "'" << name << "' element type " << actual
                               << " does not match the " << expectedWhat
                               << " element type " << expected;
    return success();
  }

  LogicalResult checkShape(Value value, StringRef name,
                           ArrayRef<int64_t> expected, StringRef expectedWhat) {
    if (!value)
      return success();
    ArrayRef<int64_t> actual = cast<ShapedType>(value.getType()).getShape();
    if (failed(verifyCompatibleShape(actual, expected)))
      return op->emitOpError()
             << "'" << name << "' shape " << formatShape(actual)
             << " must equal " << expectedWhat << " " << formatShape(expected);
    return success();
  }

  /// Element type and shape together.
  LogicalResult checkOperand(Value value, StringRef name, Type elementType,
                             ArrayRef<int64_t> shape, StringRef shapeWhat) {
    if (failed(checkSameElementType(value, name, elementType, "input")))
      return failure();
    return checkShape(value, name, shape, shapeWhat);
  }

  /// A mixed-precision operand (`weight`, `bias`, `outs` of a standalone
  /// norm): the input's element type, or a float type wider than it and no
  /// wider than `accType`, so that the op's arithmetic, done in `accType`,
  /// never rounds it (docs/design.md, "Mixed element types").
  LogicalResult checkWidenedElementType(Value value, StringRef name,
                                        Type inputType, FloatType accType,
                                        StringRef inputWhat = "input") {
    if (!value)
      return success();
    Type actual = cast<ShapedType>(value.getType()).getElementType();
    if (isWidenedElementType(actual, inputType, accType))
      return success();
    return op->emitOpError()
           << "'" << name << "' element type " << actual << " does not match "
           << "the " << inputWhat << " element type " << inputType
           << " and is not a wider float type up to the accumulation type "
           << accType;
  }

  /// γ and, for LayerNorm, β: each of `baseType` (named `baseWhat`) or one
  /// wider float type up to `accType`, shared by both, of shape `shape`.
  LogicalResult checkWidenedParams(ArrayRef<Value> params, Type baseType,
                                   StringRef baseWhat, FloatType accType,
                                   ArrayRef<int64_t> shape,
                                   StringRef shapeWhat) {
    static const StringRef names[] = {"weight", "bias"};
    Value first;
    for (auto [value, name] : llvm::zip(params, names)) {
      if (!value)
        continue;
      if (failed(checkWidenedElementType(value, name, baseType, accType,
                                         baseWhat)) ||
          failed(checkShape(value, name, shape, shapeWhat)))
        return failure();
      if (first && failed(checkSameElementType(
                       value, name, getElementTypeOrSelf(first), "'weight'")))
        return failure();
      first = first ? first : value;
    }
    return success();
  }

  /// `weight` and, for LayerNorm, `bias`. The names live in a static array:
  /// a braced list passed as `ArrayRef` into `llvm::zip` in a range-for dies
  /// before the loop body reads it (ASan: stack-use-after-scope).
  LogicalResult checkAffineParams(ArrayRef<Value> params, Type elementType,
                                  ArrayRef<int64_t> shape,
                                  StringRef shapeWhat) {
    static const StringRef names[] = {"weight", "bias"};
    for (auto [value, name] : llvm::zip(params, names))
      if (failed(checkOperand(value, name, elementType, shape, shapeWhat)))
        return failure();
    return success();
  }

  LogicalResult checkStatistic(Value value, StringRef name, FloatType accType,
                               ArrayRef<int64_t> rowShape) {
    if (!value)
      return success();
    Type actual = cast<ShapedType>(value.getType()).getElementType();
    if (actual != accType)
      return op->emitOpError() << "'" << name << "' element type " << actual
                               << " must be the accumulation type " << accType;
    return checkShape(value, name, rowShape,
                      "the non-normalized dimensions of the input");
  }

  /// ε, the weight offset and acc_type; `prefix` names a second norm's
  /// attributes (`input_` for a matmul → norm op's input norm).
  LogicalResult checkAttributes(Attribute epsilon, Attribute weightOffset,
                                std::optional<FloatType> accType,
                                Type elementType, StringRef prefix = "") {
    if (auto eps = llvm::dyn_cast_if_present<FloatAttr>(epsilon)) {
      double value = eps.getValueAsDouble();
      if (!std::isfinite(value) || value < 0)
        return op->emitOpError()
               << "'" << prefix << "epsilon' must be finite and >= 0, got "
               << eps;
    }
    if (auto offset = llvm::dyn_cast_if_present<FloatAttr>(weightOffset))
      if (!std::isfinite(offset.getValueAsDouble()))
        return op->emitOpError()
               << "'" << prefix << "weight_offset' must be finite, got "
               << offset;
    if (accType) {
      if (!accType->isF32() && !accType->isF64())
        return op->emitOpError("'acc_type' must be f32 or f64, got ")
               << *accType;
      if (accType->getWidth() < elementType.getIntOrFloatBitWidth())
        return op->emitOpError("'acc_type' ")
               << *accType << " is narrower than the element type "
               << elementType;
    }
    return success();
  }

private:
  Operation *op;
};

/// ODS checks that optional segments hold at most one operand and that the
/// segment sizes add up, but not that required ones (`ins`, `rhs`, `outs`)
/// hold exactly one: generic IR can say otherwise. Check it before any
/// accessor reads a missing operand.
template <typename OpTy> LogicalResult verifyRequiredOperands(OpTy op) {
  for (unsigned segment : OpTy::kRequiredSegments) {
    unsigned length = op.getODSOperandIndexAndLength(segment).second;
    if (length != 1)
      return op.emitOpError("required operand segment #")
             << segment << " must hold exactly one operand, got " << length;
  }
  return success();
}

/// On memrefs, `ins` are read and `outs` are written (never read: every
/// element of every output is overwritten). On tensors there are no effects.
void getNormEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects);

/// Every result has the shape of the `outs` operand it is tied to.
LogicalResult reifyFromInits(Operation *op, OpBuilder &b,
                             ReifiedRankedShapedTypeDims &shapes);

/// A fused op's `mean_outs` and `rstd_outs` (null where absent; the RMSNorm
/// ops have no mean).
template <typename OpTy> std::pair<Value, Value> fusedStatisticsOf(OpTy op) {
  if constexpr (std::is_same_v<OpTy, LayerNormMatmulOp> ||
                std::is_same_v<OpTy, MatmulLayerNormOp>)
    return {op.getMeanInit(), op.getRstdInit()};
  else
    return {Value(), op.getRstdInit()};
}

} // namespace detail
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_IR_NORMOPSSUPPORT_H
