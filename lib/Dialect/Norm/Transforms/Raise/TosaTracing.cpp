//===- TosaTracing.cpp - evaluating TOSA IR for norm-raise ----------------===//
//
// TOSA spells a norm with rank-preserving reductions (`tosa.reduce_sum`
// keeps the axis as a unit dim, one axis per op), implicit broadcasting of
// unit dims, `tosa.reshape`, a multiply by a constant 1/n (or
// `tosa.reciprocal`), `tosa.rsqrt` or `tosa.pow`, and `tosa.cast` for
// precision changes.
//
//===----------------------------------------------------------------------===//

#include "Tracing.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::norm::raise;

Expr *Tracer::evalTosa(Operation *op, Value result, const Binding &b) {
  auto resultType = dyn_cast<RankedTensorType>(result.getType());
  if (!resultType)
    return nullptr;
  Type elemType = resultType.getElementType();

  // The operand of an elementwise op, broadcast to the result's shape.
  auto operand = [&](Value v) -> Expr * {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || t.getRank() != resultType.getRank())
      return nullptr;
    return eval(v, broadcastOperand(b, t));
  };
  auto binary = [&](ExprKind kind, Value lhs, Value rhs) -> Expr * {
    return node(kind, elemType, {operand(lhs), operand(rhs)});
  };
  auto unary = [&](ExprKind kind, Value v) -> Expr * {
    return node(kind, elemType, {operand(v)});
  };

  Expr *e =
      llvm::TypeSwitch<Operation *, Expr *>(op)
          .Case<tosa::AddOp>([&](auto o) {
            return binary(ExprKind::Add, o.getInput1(), o.getInput2());
          })
          .Case<tosa::SubOp>([&](auto o) {
            return binary(ExprKind::Sub, o.getInput1(), o.getInput2());
          })
          // The shift operand only applies to integer multiplies.
          .Case<tosa::MulOp>([&](auto o) {
            return binary(ExprKind::Mul, o.getInput1(), o.getInput2());
          })
          .Case<tosa::PowOp>([&](auto o) {
            return binary(ExprKind::Pow, o.getInput1(), o.getInput2());
          })
          .Case<tosa::RsqrtOp>(
              [&](auto o) { return unary(ExprKind::Rsqrt, o.getInput1()); })
          .Case<tosa::ReciprocalOp>([&](auto o) {
            return node(ExprKind::Div, elemType,
                        {constant(1.0, elemType), operand(o.getInput1())});
          })
          .Case<tosa::NegateOp>([&](auto o) -> Expr * {
            // Float negate has zero points of 0.
            return unary(ExprKind::Neg, o.getInput1());
          })
          .Case<tosa::IdentityOp>(
              [&](auto o) { return operand(o.getInput1()); })
          .Case<tosa::CastOp>([&](auto o) -> Expr * {
            Type from = getElementTypeOrSelf(o.getInput().getType());
            auto fromF = dyn_cast<FloatType>(from);
            auto toF = dyn_cast<FloatType>(elemType);
            if (!fromF || !toF)
              return nullptr;
            if (fromF == toF)
              return operand(o.getInput());
            return unary(fromF.getWidth() < toF.getWidth() ? ExprKind::Ext
                                                           : ExprKind::Trunc,
                         o.getInput());
          })
          .Case<tosa::ReduceSumOp>([&](auto o) -> Expr * {
            int64_t axis = o.getAxis();
            auto inType = dyn_cast<RankedTensorType>(o.getInput().getType());
            if (!inType || axis < 0 || axis >= inType.getRank() ||
                inType.getRank() != resultType.getRank() ||
                size_t(axis) >= b.size() || !b[axis].empty())
              return nullptr;
            // The axis stands for the same root dim in a root-rank tensor;
            // otherwise for the root dims nothing else reads.
            DimGroup unused = unusedRootDims(b);
            DimGroup group;
            if (inType.getRank() == rootRank() &&
                llvm::is_contained(unused, unsigned(axis)))
              group = {unsigned(axis)};
            else
              group = unused;
            if (group.empty())
              return nullptr;
            std::optional<int64_t> prefix =
                prefixOf({{group, inType.getDimSize(axis)}});
            if (!prefix)
              return nullptr;
            Binding in = b;
            in[axis] = group;
            Expr *body = eval(o.getInput(), in);
            return sum(body, group, constant(0.0, elemType), *prefix);
          })
          .Case<tosa::ReshapeOp>([&](auto o) -> Expr * {
            auto inType = dyn_cast<RankedTensorType>(o.getInput1().getType());
            if (!inType)
              return nullptr;
            if (inType.getShape() == resultType.getShape())
              return eval(o.getInput1(), b);
            auto reassociation =
                getReassociationIndicesForReshape(inType, resultType);
            if (!reassociation)
              return nullptr;
            if (inType.getRank() > resultType.getRank()) {
              auto src = splitCollapsed(b, inType, *reassociation);
              return src ? eval(o.getInput1(), *src) : nullptr;
            }
            return eval(o.getInput1(), joinExpanded(b, *reassociation));
          })
          .Default([](Operation *) -> Expr * { return nullptr; });
  if (e)
    tracedOps.insert(op);
  return e;
}
