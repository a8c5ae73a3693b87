//===- TosaTracing.cpp - evaluating TOSA IR for norm-raise ----------------===//
//
// TOSA spells a norm with rank-preserving reductions (`tosa.reduce_sum`
// keeps the axis as a unit dim, one axis per op), implicit broadcasting of
// unit dims, `tosa.reshape`, a multiply by a constant 1/n (or
// `tosa.reciprocal`), `tosa.rsqrt` or `tosa.pow`, and `tosa.cast` for
// precision changes. Quantizing adds `tosa.clamp`, `tosa.maximum` /
// `minimum`, `tosa.abs`, `tosa.reduce_max` and `tosa.cast` to i8 (which
// rounds to nearest even and saturates, as tosa-to-linalg lowers it) or to
// fp8 (a plain truncf).
//
//===----------------------------------------------------------------------===//

#include "Tracing.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm::raise;

Expr *Tracer::evalTosaOperand(Value v, RankedTensorType resultType,
                              const Binding &b) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getRank() != resultType.getRank())
    return nullptr;
  return eval(v, broadcastOperand(b, t));
}

std::optional<DimGroup> Tracer::tosaReducedGroup(int64_t axis, Value input,
                                                 RankedTensorType resultType,
                                                 const Binding &b) const {
  auto inType = dyn_cast<RankedTensorType>(input.getType());
  if (!inType || axis < 0 || axis >= inType.getRank() ||
      inType.getRank() != resultType.getRank() || size_t(axis) >= b.size() ||
      !b[axis].empty())
    return std::nullopt;
  // The axis stands for the same root dim in a root-rank tensor; otherwise
  // for the root dims nothing else reads.
  DimGroup unused = unusedRootDims(b);
  DimGroup group;
  if (inType.getRank() == rootRank() &&
      llvm::is_contained(unused, unsigned(axis)))
    group = {unsigned(axis)};
  else
    group = unused;
  if (group.empty())
    return std::nullopt;
  return group;
}

Expr *Tracer::evalTosa(Operation *op, Value result, const Binding &b) {
  auto resultType = dyn_cast<RankedTensorType>(result.getType());
  if (!resultType)
    return nullptr;
  Type elemType = resultType.getElementType();

  auto operand = [&](Value v) { return evalTosaOperand(v, resultType, b); };
  auto binary = [&](ExprKind kind, Value lhs, Value rhs) -> Expr * {
    return node(kind, elemType, {operand(lhs), operand(rhs)});
  };
  auto unary = [&](ExprKind kind, Value v) -> Expr * {
    return node(kind, elemType, {operand(v)});
  };

  Expr *e = traceQuantization ? evalTosaQuantization(op, result, b) : nullptr;
  if (e) {
    tracedOps.insert(op);
    return e;
  }
  e = llvm::TypeSwitch<Operation *, Expr *>(op)
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
          .Case<tosa::MaximumOp>([&](auto o) {
            return clampedAtZero(operand(o.getInput1()), operand(o.getInput2()),
                                 o.getNanMode() ==
                                     tosa::NanPropagationMode::PROPAGATE,
                                 elemType);
          })
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
            std::optional<DimGroup> group =
                tosaReducedGroup(o.getAxis(), o.getInput(), resultType, b);
            if (!group)
              return nullptr;
            int64_t axis = o.getAxis();
            std::optional<int64_t> prefix =
                prefixOf({{*group, o.getInput().getType().getDimSize(axis)}});
            if (!prefix)
              return nullptr;
            Binding in = b;
            in[axis] = *group;
            Expr *body = eval(o.getInput(), in);
            return sum(body, *group, constant(0.0, elemType), *prefix);
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

Expr *Tracer::evalTosaQuantization(Operation *op, Value result,
                                   const Binding &b) {
  auto resultType = cast<RankedTensorType>(result.getType());
  Type elemType = resultType.getElementType();
  auto operand = [&](Value v) { return evalTosaOperand(v, resultType, b); };
  auto propagates = [](tosa::NanPropagationMode mode) {
    return mode == tosa::NanPropagationMode::PROPAGATE;
  };
  auto minMax = [&](ExprKind kind, Expr *lhs, Expr *rhs, bool nanKeeps) {
    Expr *e = node(kind, elemType, {lhs, rhs});
    if (e)
      e->nanKeeps = nanKeeps;
    return e;
  };
  return llvm::TypeSwitch<Operation *, Expr *>(op)
      .Case<tosa::MaximumOp>([&](auto o) {
        return minMax(ExprKind::Max, operand(o.getInput1()),
                      operand(o.getInput2()), propagates(o.getNanMode()));
      })
      .Case<tosa::MinimumOp>([&](auto o) {
        return minMax(ExprKind::Min, operand(o.getInput1()),
                      operand(o.getInput2()), propagates(o.getNanMode()));
      })
      .Case<tosa::AbsOp>([&](auto o) {
        return node(ExprKind::Abs, elemType, {operand(o.getInput1())});
      })
      .Case<tosa::ClampOp>([&](auto o) -> Expr * {
        auto lo = dyn_cast<FloatAttr>(o.getMinValAttr());
        auto hi = dyn_cast<FloatAttr>(o.getMaxValAttr());
        if (!lo || !hi)
          return nullptr;
        bool keeps = propagates(o.getNanMode());
        Expr *upper = minMax(ExprKind::Min, operand(o.getInput()),
                             constant(hi.getValueAsDouble(), elemType), keeps);
        return minMax(ExprKind::Max, upper,
                      constant(lo.getValueAsDouble(), elemType), keeps);
      })
      .Case<tosa::CastOp>([&](auto o) -> Expr * {
        auto from =
            dyn_cast<FloatType>(getElementTypeOrSelf(o.getInput().getType()));
        auto to = dyn_cast<IntegerType>(elemType);
        if (!from || !to || to.getWidth() != 8 || to.isUnsigned())
          return nullptr;
        // tosa-to-linalg: roundeven, clamp to the integer range, fptosi.
        Expr *rounded =
            node(ExprKind::RoundEven, from, {operand(o.getInput())});
        Expr *upper = minMax(ExprKind::Min, rounded, constant(127.0, from),
                             /*nanKeeps=*/true);
        Expr *lower = minMax(ExprKind::Max, upper, constant(-128.0, from),
                             /*nanKeeps=*/true);
        return node(ExprKind::FPToSI, elemType, {lower});
      })
      .Case<tosa::ReduceMaxOp>([&](auto o) -> Expr * {
        std::optional<DimGroup> group =
            tosaReducedGroup(o.getAxis(), o.getInput(), resultType, b);
        if (!group)
          return nullptr;
        Binding in = b;
        in[o.getAxis()] = *group;
        Expr *e = node(ExprKind::MaxReduce, elemType,
                       {constant(-INFINITY, elemType), eval(o.getInput(), in)});
        if (e) {
          e->sumDims.assign(group->begin(), group->end());
          llvm::sort(e->sumDims);
          e->nanKeeps = propagates(o.getNanMode());
        }
        return e;
      })
      .Default([](Operation *) -> Expr * { return nullptr; });
}
