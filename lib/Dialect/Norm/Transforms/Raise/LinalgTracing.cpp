//===- LinalgTracing.cpp - evaluating linalg / tensor / arith IR ----------===//
//
// The Tracer's core (see Tracing.h): bindings, the tensor-level dispatch,
// linalg structured ops and the scalar arith/math inside their bodies.
// Whatever cannot be looked through exactly becomes a Leaf, never an error:
// recognition then simply does not find a norm.
//
//===----------------------------------------------------------------------===//

#include "Tracing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::norm::raise;

Tracer::Tracer(ExprArena &arena, RankedTensorType rootType)
    : arena(arena), rootType(rootType) {}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

DimGroup Tracer::normalize(DimGroup g) const {
  DimGroup r;
  for (unsigned d : g)
    if (d < rootRank() && rootDimSize(d) != 1)
      r.push_back(d);
  return r;
}

Binding Tracer::rootBinding() const {
  Binding b;
  for (unsigned d = 0; d < rootRank(); ++d)
    b.push_back(normalize({d}));
  return b;
}

bool Tracer::isRootBinding(const Binding &b, ShapedType t) const {
  if (!t.hasRank() || t.getRank() != rootRank() || b != rootBinding())
    return false;
  for (unsigned d = 0; d < rootRank(); ++d)
    if (!ShapedType::isDynamic(t.getDimSize(d)) &&
        !ShapedType::isDynamic(rootDimSize(d)) &&
        t.getDimSize(d) != rootDimSize(d))
      return false;
  return true;
}

DimGroup Tracer::unusedRootDims(const Binding &b) const {
  DimGroup r;
  for (unsigned d = 0; d < rootRank(); ++d) {
    if (rootDimSize(d) == 1)
      continue;
    bool used = llvm::any_of(b, [&](const DimGroup &g) {
      return llvm::is_contained(g, d);
    });
    if (!used)
      r.push_back(d);
  }
  return r;
}

Binding Tracer::broadcastOperand(const Binding &b,
                                 ShapedType operandType) const {
  Binding r = b;
  for (unsigned i = 0; i < r.size() && i < operandType.getRank(); ++i)
    if (operandType.getDimSize(i) == 1)
      r[i].clear();
  return r;
}

std::optional<Binding>
Tracer::splitCollapsed(const Binding &b, ShapedType srcType,
                       ArrayRef<ReassociationIndices> reassociation) const {
  if (b.size() != reassociation.size())
    return std::nullopt;
  Binding src(srcType.getRank());
  for (auto [group, srcDims] : llvm::zip(b, reassociation)) {
    size_t pos = 0;
    for (int64_t s : srcDims) {
      int64_t size = srcType.getDimSize(s);
      if (size == 1)
        continue;
      if (ShapedType::isDynamic(size)) {
        // A dynamic source dim takes exactly one root dim.
        if (pos >= group.size())
          return std::nullopt;
        src[s].push_back(group[pos++]);
        continue;
      }
      int64_t product = 1;
      while (pos < group.size() && product < size) {
        int64_t rootSize = rootDimSize(group[pos]);
        if (ShapedType::isDynamic(rootSize))
          return std::nullopt;
        product *= rootSize;
        src[s].push_back(group[pos++]);
      }
      if (product != size)
        return std::nullopt;
    }
    if (pos != group.size())
      return std::nullopt;
  }
  return src;
}

Binding
Tracer::joinExpanded(const Binding &b,
                     ArrayRef<ReassociationIndices> reassociation) const {
  Binding src;
  for (const ReassociationIndices &group : reassociation) {
    DimGroup joined;
    for (int64_t i : group)
      if (i < int64_t(b.size()))
        llvm::append_range(joined, b[i]);
    src.push_back(joined);
  }
  return src;
}

//===----------------------------------------------------------------------===//
// Expr builders
//===----------------------------------------------------------------------===//

Expr *Tracer::leaf(Value v, const Binding &b) {
  Expr *e = arena.make(ExprKind::Leaf, getElementTypeOrSelf(v.getType()));
  if (!e)
    return nullptr;
  e->value = v;
  e->binding = b;
  return e;
}

Expr *Tracer::constant(double c, Type type) {
  Expr *e = arena.make(ExprKind::Const, type);
  if (e)
    e->constant = c;
  return e;
}

Expr *Tracer::node(ExprKind kind, Type type, ArrayRef<Expr *> operands) {
  if (llvm::is_contained(operands, nullptr))
    return nullptr;
  Expr *e = arena.make(kind, type);
  if (e)
    e->operands.assign(operands.begin(), operands.end());
  return e;
}

Expr *Tracer::sum(Expr *body, ArrayRef<unsigned> dims, Expr *init,
                  int64_t prefix) {
  if (!body)
    return nullptr;
  SmallVector<unsigned> allDims(dims.begin(), dims.end());
  // Σ_A Σ_B f = Σ_{A∪B} f: one axis at a time (TOSA, chained reductions)
  // is one reduction over the trailing dims (whole ones only).
  if (!prefix && body->kind == ExprKind::Add &&
      body->operands[0]->kind == ExprKind::Const &&
      body->operands[0]->constant == 0.0 &&
      body->operands[1]->kind == ExprKind::Sum && !body->operands[1]->prefix &&
      body->operands[1]->type == body->type) {
    llvm::append_range(allDims, body->operands[1]->sumDims);
    body = const_cast<Expr *>(body->operands[1]->operands[0]);
  }
  Expr *s = node(ExprKind::Sum, body->type, {body});
  if (!s)
    return nullptr;
  s->sumDims.assign(allDims.begin(), allDims.end());
  llvm::sort(s->sumDims);
  s->prefix = prefix;
  return node(ExprKind::Add, body->type, {init, s});
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// A constant float scalar or splat tensor.
static std::optional<double> getSplatFloat(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    if (dense.isSplat())
      return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

/// The scalar a body's block argument reads when it is an input of one
/// element made by tensor.from_elements / tensor.splat (or a constant).
static std::optional<Value> scalarOfOneElementInput(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  auto op = dyn_cast_or_null<linalg::LinalgOp>(arg.getOwner()->getParentOp());
  if (!op || arg.getOwner() != op.getBlock())
    return std::nullopt;
  OpOperand *operand = op.getMatchingOpOperand(arg);
  if (!operand || !op.isDpsInput(operand))
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(operand->get().getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() != 1)
    return std::nullopt;
  Operation *def = operand->get().getDefiningOp();
  if (auto from = dyn_cast_or_null<tensor::FromElementsOp>(def))
    return from.getElements()[0];
  if (auto splat = dyn_cast_or_null<tensor::SplatOp>(def))
    return splat.getInput();
  if (def && matchPattern(def, m_Constant()))
    return operand->get();
  return std::nullopt;
}

Expr *Tracer::evalExtent(Value v) {
  // index_cast / index_castui / integer width chains, then tensor.dim, a
  // constant or a product of those.
  while (true) {
    if (Operation *def = v.getDefiningOp()) {
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp>(def)) {
        v = def->getOperand(0);
        continue;
      }
      break;
    }
    // A size carried in a one-element tensor into a body: StableHLO's
    // convert(get_dimension_size(x, d)) lowers to tensor.from_elements of
    // the index_cast extent and a 0-d generic that converts it.
    if (std::optional<Value> inner = scalarOfOneElementInput(v)) {
      v = *inner;
      continue;
    }
    break;
  }
  // The element count of several reduced dims: torch-mlir's mean divides by
  // size(d1) * size(d2) (aten.mul.int), IREE multiplies the index extents.
  // Sizes are non-negative and the product is what the reduction counts, so
  // it is the polynomial product of the factors.
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    Expr *lhs = evalExtent(mul.getLhs());
    Expr *rhs = lhs ? evalExtent(mul.getRhs()) : nullptr;
    if (!rhs)
      return nullptr;
    return node(ExprKind::Mul, Float64Type::get(v.getContext()), {lhs, rhs});
  }
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return constant(double(value.getSExtValue()), Float64Type::get(v.getContext()));
  auto dim = v.getDefiningOp<tensor::DimOp>();
  if (!dim)
    return nullptr;
  std::optional<int64_t> index = dim.getConstantIndex();
  auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
  if (!index || !type || *index < 0 || *index >= type.getRank())
    return nullptr;
  if (!type.isDynamicDim(*index))
    return constant(double(type.getDimSize(*index)),
                    Float64Type::get(v.getContext()));
  // A dynamic extent of a root-shaped tensor is the root's extent; the
  // recognizer checks that the tensor really is root-shaped.
  if (type.getRank() != rootRank() || !ShapedType::isDynamic(rootDimSize(*index)))
    return nullptr;
  Expr *e = arena.make(ExprKind::Extent, Float64Type::get(v.getContext()));
  if (!e)
    return nullptr;
  e->dim = *index;
  extentSources.push_back(dim.getSource());
  return e;
}

Expr *Tracer::evalIntToFloat(Operation *def) {
  if (!isa<arith::SIToFPOp, arith::UIToFPOp>(def))
    return nullptr;
  Expr *n = evalExtent(def->getOperand(0));
  if (n)
    n->type = def->getResult(0).getType();
  return n;
}

/// `c` rounded to `type` as arith.truncf / extf round it.
static double roundTo(double c, FloatType type) {
  APFloat f(c);
  bool losesInfo = false;
  f.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return f.convertToDouble();
}

Expr *Tracer::evalOutsideScalar(Value v) {
  Type type = v.getType();
  if (std::optional<double> c = getSplatFloat(v))
    return constant(*c, type);
  if (Operation *def = v.getDefiningOp()) {
    if (Expr *n = evalIntToFloat(def))
      return n;
    // Scalar arithmetic outside a body (1/n computed once, ε + 0, ...).
    if (def->getNumOperands() >= 1 && def->getNumResults() == 1 &&
        isa<FloatType>(type) &&
        llvm::all_of(def->getOperandTypes(),
                     [](Type t) { return isa<FloatType>(t); })) {
      SmallVector<Expr *> operands;
      for (Value operand : def->getOperands())
        operands.push_back(evalOutsideScalar(operand));
      if (!llvm::is_contained(operands, nullptr))
        if (Expr *e = applyArith(def, operands))
          return e;
    }
  }
  Expr *e = arena.make(ExprKind::Scalar, type);
  if (e)
    e->value = v;
  return e;
}

/// True if a reduction is under `e` (each node visited once).
static bool containsSum(const Expr *e) {
  llvm::SmallPtrSet<const Expr *, 32> seen;
  SmallVector<const Expr *> stack = {e};
  while (!stack.empty()) {
    const Expr *n = stack.pop_back_val();
    if (!n || !seen.insert(n).second)
      continue;
    if (n->kind == ExprKind::Sum)
      return true;
    llvm::append_range(stack, n->operands);
  }
  return false;
}

Expr *Tracer::clampedAtZero(Expr *lhs, Expr *rhs, bool nanKeeps, Type type) {
  auto isZero = [](const Expr *e) {
    return e && e->kind == ExprKind::Const && e->constant == 0.0;
  };
  if (isZero(lhs))
    std::swap(lhs, rhs);
  // Only a statistic: a max(0, x) of data (a ReLU) stays what it was, an
  // opaque value the norm may take as its input.
  if (!isZero(rhs) || !lhs || !containsSum(lhs))
    return nullptr;
  Expr *e = node(ExprKind::Max, type, {lhs, rhs});
  if (e)
    e->nanKeeps = nanKeeps;
  return e;
}

Expr *Tracer::applyArith(Operation *op, ArrayRef<Expr *> ops) {
  if (op->getNumResults() != 1 || llvm::is_contained(ops, nullptr))
    return nullptr;
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  if (traceQuantization && isa<arith::FPToSIOp>(op) && ops.size() == 1)
    return node(ExprKind::FPToSI, type, {ops[0]});
  if (!isa<FloatType>(type))
    return nullptr;
  // A converted constant is the constant the conversion gives: frontends
  // write scalars (ε, the 1 of 1 + γ) as f64 constants and truncate them in
  // the body (torch-mlir's convertScalarToDtype).
  if (isa<arith::ExtFOp, arith::TruncFOp>(op) && ops.size() == 1 &&
      ops[0]->kind == ExprKind::Const)
    return constant(roundTo(ops[0]->constant, cast<FloatType>(type)), type);
  auto binary = [&](ExprKind k) -> Expr * {
    return ops.size() == 2 ? node(k, type, {ops[0], ops[1]}) : nullptr;
  };
  auto unary = [&](ExprKind k) -> Expr * {
    return ops.size() == 1 ? node(k, type, {ops[0]}) : nullptr;
  };
  auto minMax = [&](ExprKind k, bool nanKeeps) -> Expr * {
    Expr *e = binary(k);
    if (e)
      e->nanKeeps = nanKeeps;
    return e;
  };
  if (!traceQuantization && isa<arith::MaximumFOp, arith::MaxNumFOp>(op) &&
      ops.size() == 2)
    return clampedAtZero(ops[0], ops[1], isa<arith::MaximumFOp>(op), type);
  if (traceQuantization) {
    Expr *e =
        llvm::TypeSwitch<Operation *, Expr *>(op)
            .Case<arith::MaximumFOp>(
                [&](auto) { return minMax(ExprKind::Max, true); })
            .Case<arith::MaxNumFOp>(
                [&](auto) { return minMax(ExprKind::Max, false); })
            .Case<arith::MinimumFOp>(
                [&](auto) { return minMax(ExprKind::Min, true); })
            .Case<arith::MinNumFOp>(
                [&](auto) { return minMax(ExprKind::Min, false); })
            .Case<math::AbsFOp>([&](auto) { return unary(ExprKind::Abs); })
            .Case<math::RoundEvenOp>(
                [&](auto) { return unary(ExprKind::RoundEven); })
            .Case<math::RoundOp>([&](auto) { return unary(ExprKind::Round); })
            .Default([](Operation *) -> Expr * { return nullptr; });
    if (e)
      return e;
  }
  return llvm::TypeSwitch<Operation *, Expr *>(op)
      .Case<arith::AddFOp>([&](auto) { return binary(ExprKind::Add); })
      .Case<arith::SubFOp>([&](auto) { return binary(ExprKind::Sub); })
      .Case<arith::MulFOp>([&](auto) { return binary(ExprKind::Mul); })
      .Case<arith::DivFOp>([&](auto) { return binary(ExprKind::Div); })
      .Case<arith::NegFOp>([&](auto) { return unary(ExprKind::Neg); })
      .Case<arith::ExtFOp>([&](auto) { return unary(ExprKind::Ext); })
      .Case<arith::TruncFOp>([&](auto) { return unary(ExprKind::Trunc); })
      .Case<math::SqrtOp>([&](auto) { return unary(ExprKind::Sqrt); })
      .Case<math::RsqrtOp>([&](auto) { return unary(ExprKind::Rsqrt); })
      .Case<math::PowFOp, math::FPowIOp>(
          [&](auto) { return binary(ExprKind::Pow); })
      .Default([](Operation *) -> Expr * { return nullptr; });
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Expr *Tracer::eval(Value v, const Binding &b) {
  auto key = std::make_pair(v.getAsOpaquePointer(), b);
  auto it = memo.find(key);
  if (it != memo.end())
    return it->second;
  Expr *e = nullptr;
  auto type = dyn_cast<ShapedType>(v.getType());
  // Long elementwise chains end the trace (as a leaf) instead of the stack.
  bool traced =
      type && (isa<FloatType>(type.getElementType()) ||
               (traceQuantization && isa<IntegerType>(type.getElementType())));
  if (traced && type.hasRank() && size_t(type.getRank()) == b.size() &&
      depth < kMaxDepth) {
    if (Operation *def = v.getDefiningOp()) {
      ++depth;
      e = evalOp(def, v, b);
      --depth;
    }
  }
  if (!e)
    e = leaf(v, b);
  if (e && !e->origin && type && isRootBinding(b, type))
    e->origin = v;
  memo[key] = e;
  return e;
}

Expr *Tracer::evalOp(Operation *op, Value result, const Binding &b) {
  Type elemType = getElementTypeOrSelf(result.getType());
  if (std::optional<double> c = getSplatFloat(result))
    return constant(*c, elemType);
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureTensorSemantics())
      return nullptr;
    Expr *value = evalOutsideScalar(fill.getInputs()[0]);
    if (value)
      tracedOps.insert(op);
    return value;
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    tracedOps.insert(op);
    return eval(cast.getSource(), b);
  }
  // A one-element tensor of a scalar computed outside (a 0-d value, as
  // StableHLO lowers its scalars).
  if (auto from = dyn_cast<tensor::FromElementsOp>(op)) {
    if (from.getElements().size() != 1 ||
        !isa<FloatType>(from.getElements()[0].getType()))
      return nullptr;
    Expr *e = evalOutsideScalar(from.getElements()[0]);
    if (e)
      tracedOps.insert(op);
    return e;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    tracedOps.insert(op);
    return eval(expand.getSrc(),
                joinExpanded(b, expand.getReassociationIndices()));
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    std::optional<Binding> src = splitCollapsed(
        b, collapse.getSrcType(), collapse.getReassociationIndices());
    if (!src)
      return nullptr;
    tracedOps.insert(op);
    return eval(collapse.getSrc(), *src);
  }
  if (isa<tensor::ExtractSliceOp>(op))
    return evalSlice(op, b);
  if (isa<tensor::ReshapeOp>(op))
    return evalReshape(op, b);
  if (traceSliceBackward && isa<tensor::InsertSliceOp, tensor::PadOp>(op))
    return evalSliceBackward(op, b);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return evalLinalg(linalgOp, cast<OpResult>(result), b);
  if (op->getDialect() && op->getDialect()->getNamespace() == "tosa")
    return evalTosa(op, result, b);
  // arith / math on tensors: elementwise, operands of the result's shape.
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      op->getNumResults() == 1) {
    SmallVector<Expr *> operands;
    for (Value operand : op->getOperands()) {
      auto t = dyn_cast<ShapedType>(operand.getType());
      if (!t || t.getShape() != cast<ShapedType>(result.getType()).getShape())
        return nullptr;
      operands.push_back(eval(operand, b));
    }
    Expr *e = applyArith(op, operands);
    if (e)
      tracedOps.insert(op);
    return e;
  }
  return nullptr;
}

Expr *Tracer::evalLinalg(linalg::LinalgOp op, OpResult result,
                         const Binding &b) {
  if (!op.hasPureTensorSemantics() || op->getNumRegions() != 1 ||
      !op.getBlock())
    return nullptr;
  unsigned numLoops = op.getNumLoops();
  SmallVector<std::optional<DimGroup>> loops(numLoops);

  // The output's binding fixes the loops it is indexed by.
  AffineMap outMap = op.getIndexingMapMatchingResult(result);
  if (outMap.getNumResults() != b.size())
    return nullptr;
  auto outType = cast<ShapedType>(result.getType());
  for (auto [i, expr] : llvm::enumerate(outMap.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(expr)) {
      unsigned l = d.getPosition();
      if (loops[l] && *loops[l] != b[i])
        return nullptr;
      loops[l] = b[i];
    } else if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      if (c.getValue() != 0 || outType.getDimSize(i) != 1 || !b[i].empty())
        return nullptr;
    } else {
      return nullptr;
    }
  }

  // Reduction loops range over root dims no output dim reads: the same
  // position in a root-rank input (torch-mlir, sequential per-dim
  // reductions), else the unused root dims in order, or all of them for a
  // single loop over a collapsed group (IREE).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> reductionLoops;
  for (unsigned l = 0; l < numLoops; ++l) {
    if (loops[l])
      continue;
    if (iterators[l] != utils::IteratorType::reduction)
      return nullptr;
    reductionLoops.push_back(l);
  }
  SmallVector<unsigned> sumDims;
  if (!reductionLoops.empty()) {
    DimGroup unused = unusedRootDims(b);
    for (unsigned l : reductionLoops) {
      for (OpOperand *input : op.getDpsInputOperands()) {
        auto t = dyn_cast<ShapedType>(input->get().getType());
        AffineMap map = op.getMatchingIndexingMap(input);
        if (!t || t.getRank() != rootRank())
          continue;
        for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
          auto d = dyn_cast<AffineDimExpr>(expr);
          if (d && d.getPosition() == l && llvm::is_contained(unused, pos) &&
              !llvm::is_contained(sumDims, unsigned(pos))) {
            loops[l] = DimGroup{unsigned(pos)};
            break;
          }
        }
        if (loops[l])
          break;
      }
      if (loops[l])
        llvm::append_range(sumDims, *loops[l]);
    }
    SmallVector<unsigned> rest;
    for (unsigned l : reductionLoops)
      if (!loops[l])
        rest.push_back(l);
    DimGroup left;
    for (unsigned d : unused)
      if (!llvm::is_contained(sumDims, d))
        left.push_back(d);
    if (!rest.empty()) {
      if (rest.size() == left.size()) {
        for (auto [l, d] : llvm::zip(rest, left))
          loops[l] = DimGroup{d};
      } else if (rest.size() == 1 && !left.empty()) {
        loops[rest[0]] = left;
      } else {
        return nullptr;
      }
      llvm::append_range(sumDims, left);
    }
  }

  Operation *terminator = op.getBlock()->getTerminator();
  if (!terminator || terminator->getNumOperands() <= result.getResultNumber())
    return nullptr;
  Value yielded = terminator->getOperand(result.getResultNumber());
  Expr *e = nullptr;
  if (reductionLoops.empty()) {
    e = evalBody(op, yielded, loops);
  } else {
    // yield = acc + f(inputs), in either order (or max(acc, f): an amax).
    BlockArgument acc = op.getMatchingBlockArgument(
        op.getDpsInitOperand(result.getResultNumber()));
    Operation *combiner = yielded.getDefiningOp();
    bool isMax = traceQuantization &&
                 isa_and_present<arith::MaximumFOp, arith::MaxNumFOp>(combiner);
    if (!combiner || combiner->getBlock() != op.getBlock() ||
        !(isa<arith::AddFOp>(combiner) || isMax))
      return nullptr;
    Value f;
    if (combiner->getOperand(0) == acc)
      f = combiner->getOperand(1);
    else if (combiner->getOperand(1) == acc)
      f = combiner->getOperand(0);
    else
      return nullptr;
    if (acc.getNumUses() != 1)
      return nullptr;
    // The loops' extents: a loop over a slice of the row sums a prefix.
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<std::pair<DimGroup, int64_t>> extents;
    for (unsigned l : reductionLoops)
      extents.push_back({*loops[l], ranges[l]});
    std::optional<int64_t> prefix = prefixOf(extents);
    if (!prefix)
      return nullptr;
    Expr *body = evalBody(op, f, loops);
    Value initValue = op.getDpsInitOperand(result.getResultNumber())->get();
    if (initValue.getDefiningOp<tensor::EmptyOp>())
      uninitializedReductions.push_back(op);
    Expr *init = eval(initValue, b);
    if (isMax) {
      if (*prefix)
        return nullptr;
      e = node(ExprKind::MaxReduce, body ? body->type : Type(), {init, body});
      if (e) {
        e->sumDims.assign(sumDims.begin(), sumDims.end());
        llvm::sort(e->sumDims);
        e->nanKeeps = isa<arith::MaximumFOp>(combiner);
      }
    } else {
      e = sum(body, sumDims, init, *prefix);
    }
  }
  if (e)
    tracedOps.insert(op);
  return e;
}

Expr *Tracer::evalBody(linalg::LinalgOp op, Value v,
                       ArrayRef<std::optional<DimGroup>> loops) {
  Block *body = op.getBlock();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != body)
      return evalOutsideScalar(v);
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if (!operand)
      return nullptr;
    // An init read in a parallel op, or an input: the tensor through its map.
    if (op.isDpsInit(operand) &&
        llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
          return t == utils::IteratorType::reduction;
        }))
      return nullptr;
    auto type = dyn_cast<ShapedType>(operand->get().getType());
    if (!type)
      return evalOutsideScalar(operand->get());
    AffineMap map = op.getMatchingIndexingMap(operand);
    Binding b;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (auto d = dyn_cast<AffineDimExpr>(expr)) {
        if (!loops[d.getPosition()])
          return nullptr;
        b.push_back(*loops[d.getPosition()]);
      } else if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
        if (c.getValue() != 0 || type.getDimSize(i) != 1)
          return nullptr;
        b.push_back({});
      } else {
        return nullptr;
      }
    }
    return eval(operand->get(), b);
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body)
    return evalOutsideScalar(v);
  if (std::optional<double> c = getSplatFloat(v))
    return constant(*c, v.getType());
  // An integer scalar converted in the body (torch-mlir's `alpha` of add).
  if (Expr *n = evalIntToFloat(def))
    return n;
  // fpowi's exponent is an integer.
  if (auto powi = dyn_cast<math::FPowIOp>(def)) {
    APInt exp;
    if (!matchPattern(powi.getRhs(), m_ConstantInt(&exp)))
      return nullptr;
    return node(ExprKind::Pow, v.getType(),
                {evalBody(op, powi.getLhs(), loops),
                 constant(double(exp.getSExtValue()), v.getType())});
  }
  if (traceSliceBackward && isa<arith::SelectOp>(def))
    if (Expr *e = evalIndexSelect(op, def, loops))
      return e;
  if (traceQuantization && isa<arith::SelectOp>(def))
    return evalSelect(op, def, loops);
  SmallVector<Expr *> operands;
  for (Value operand : def->getOperands())
    operands.push_back(evalBody(op, operand, loops));
  return applyArith(def, operands);
}

Expr *Tracer::evalSelect(linalg::LinalgOp op, Operation *def,
                         ArrayRef<std::optional<DimGroup>> loops) {
  auto select = cast<arith::SelectOp>(def);
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return nullptr;
  // As `a pred b ? a : b`: the compare's operands swapped swap the
  // predicate (b < a is a > b).
  Value a = select.getTrueValue(), b = select.getFalseValue();
  bool swapped = cmp.getLhs() == b && cmp.getRhs() == a;
  if (!swapped && (cmp.getLhs() != a || cmp.getRhs() != b))
    return nullptr;
  // CmpFPredicate follows LLVM's fcmp order: OGT, OGE, OLT, OLE are 2..5
  // and UGT, UGE, ULT, ULE the same relations 7 further.
  auto predicate = static_cast<int64_t>(cmp.getPredicate());
  auto ogt = static_cast<int64_t>(arith::CmpFPredicate::OGT);
  auto ugt = static_cast<int64_t>(arith::CmpFPredicate::UGT);
  bool ordered = predicate < ugt;
  int64_t relation = predicate - (ordered ? ogt : ugt);
  if (relation < 0 || relation > 3)
    return nullptr;
  bool greater = relation < 2;
  if (swapped)
    greater = !greater;
  Expr *ea = evalBody(op, a, loops), *eb = evalBody(op, b, loops);
  Expr *e = node(greater ? ExprKind::Max : ExprKind::Min,
                 def->getResult(0).getType(), {ea, eb});
  if (!e)
    return nullptr;
  // With a NaN the compare is false when ordered (b is taken) and true when
  // not (a is taken). Against a constant bound the NaN is kept when the
  // operand taken is the other one: `x < lo ? lo : x` (ordered) keeps it,
  // torch-mlir's `x <u lo ? lo : x` sends it to lo.
  Expr *taken = ordered ? eb : ea;
  e->nanKeeps = taken->kind != ExprKind::Const;
  return e;
}
