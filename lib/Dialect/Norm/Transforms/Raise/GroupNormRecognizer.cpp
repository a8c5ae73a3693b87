//===- GroupNormRecognizer.cpp - raising GroupNorm / InstanceNorm --------===//
//
// Raises a decomposed GroupNorm (torch-mlir's aten.group_norm and
// aten.native_group_norm, ONNX GroupNormalization and InstanceNormalization
// as lowered to linalg) into norm.group_norm with its per-channel γ and β.
//
// Frontends spell GroupNorm on a reshaped view: x [N, C, S...] becomes
// [N, G, C/G, S...] (or [N, G, C/G·ΠS]), the statistics are reduced over
// everything after G, and γ/β, indexed by the channel, are broadcast back
// over [N, C, S...]. A channel c is the pair (g, c mod C/G), which no
// single dim of the result stands for, so the candidate is traced (with the
// Tracer of norm-raise) in a *virtual root* of shape [N, G, C/G, S...]: the
// result is read with its channel dim bound to the root dims {1, 2}, every
// reshape of the chain lines up with that root, the reductions become Sums
// over dims [2, rank], and γ/β become leaves bound to {1, 2}. G is not known
// beforehand: each dim-1 size of a tensor in the chain that divides C is
// tried. The candidate's polynomial is then compared with the GroupNorm
// identity, y = (x − μ) · (var + ε)^(-1/2) · γ_c + β_c, with μ and var the
// two-pass (or one-pass) statistics.
//
// Casts: the statistics and the normalization are in one accumulation type
// A; the result is either A or rounded once at the end (what the op does).
// An input (or γ/β) of a narrower type widened to A with a result that stays
// A — the f16 → f32 GroupNorm of a mixed-precision model — is raised as
// `arith.extf` of the input and the A norm: the widening is exact, so this
// is the same value the IR computes, and the op keeps one element type.
//
// Norms that norm.layer_norm expresses (no per-channel γ/β: G = 1 without
// spatial dims, or no γ and β at all) are left to the LayerNorm recognizer.
//
//===----------------------------------------------------------------------===//

#include "Recognize.h"
#include "Tracing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

namespace {

/// What one traced candidate matched.
struct GroupNormMatch {
  int64_t groups = 1;
  double epsilon = 0.0;
  FloatType accType;
  /// x, γ, β as the IR reads them (any reshape of the virtual root, and of
  /// [C]); possibly narrower than accType.
  Value input, gamma, beta;
};

/// The root dims of `b`, in order, with its groups concatenated.
SmallVector<unsigned> flatten(const Binding &b) {
  SmallVector<unsigned> dims;
  for (const DimGroup &g : b)
    llvm::append_range(dims, g);
  return dims;
}

/// Where every cast rounds: arithmetic in `acc`, narrower values only as
/// widened leaves, no rounding inside.
bool computesIn(const Expr *e, Type acc) {
  if (!e)
    return false;
  switch (e->kind) {
  case ExprKind::Leaf:
    return true;
  case ExprKind::Scalar:
  case ExprKind::Const:
  case ExprKind::Extent:
    return true;
  case ExprKind::Ext:
    return e->type == acc && e->operands.size() == 1 && e->operands[0] &&
           e->operands[0]->kind == ExprKind::Leaf;
  case ExprKind::Trunc:
    return false;
  default:
    return e->type == acc && llvm::all_of(e->operands, [&](const Expr *o) {
             return computesIn(o, acc);
           });
  }
}

/// The [N, G, C/G, S...] space a candidate is traced in: `shape`, and
/// whether the candidate has C as one dim (read at root dims {1, 2}) or is
/// itself of that shape (a frontend that keeps the grouped view to the end).
struct GroupedView {
  SmallVector<int64_t> shape;
  bool channelsJoined = true;
  int64_t groups() const { return shape[1]; }
  /// [N, C, S...], the op's shape.
  SmallVector<int64_t> opShape() const {
    SmallVector<int64_t> s = {shape[0], shape[1] * shape[2]};
    llvm::append_range(s, ArrayRef(shape).drop_front(3));
    return s;
  }
};

/// The Sum nodes of the Expr DAG under `e` (each node visited once).
void collectSums(const Expr *e, llvm::DenseSet<const Expr *> &seen,
                 SmallVectorImpl<const Expr *> &sums) {
  if (!e || !seen.insert(e).second)
    return;
  if (e->kind == ExprKind::Sum)
    sums.push_back(e);
  for (const Expr *operand : e->operands)
    collectSums(operand, seen, sums);
}

class GroupNormRecognizer {
public:
  GroupNormRecognizer(Value root, const GroupedView &view)
      : root(root), rootType(cast<RankedTensorType>(root.getType())),
        view(view) {}

  /// Traces the root in the [N, G, C/G, S...] space and solves for the
  /// GroupNorm identity.
  std::optional<GroupNormMatch> run();

  /// The traced ops, for the cone.
  const llvm::SetVector<Operation *> &tracedOps() const {
    return tracer->tracedOps;
  }
  /// Whether every evaluation of `v` is free of reductions (a conversion of
  /// an input, which may stay for other users).
  bool isStatisticFree(Value v);

private:
  bool solve(AtomId x, const Poly &invN);

  Value root;
  RankedTensorType rootType;
  const GroupedView &view;
  ExprArena arena;
  PolyContext polys;
  Canonicalizer canon{polys};
  std::optional<Tracer> tracer;
  SmallVector<unsigned> normDims;
  Poly y;
  SmallVector<double> epsilons = {0.0};
  SmallVector<AtomId> channels;
  GroupNormMatch match;
};

bool GroupNormRecognizer::isStatisticFree(Value v) {
  for (const auto &[key, expr] : tracer->memo) {
    if (key.first != v.getAsOpaquePointer() || !expr)
      continue;
    std::optional<Poly> p = canon.canon(expr);
    if (!p)
      return false;
    SmallVector<AtomId> atoms;
    polys.collectAtoms(*p, atoms);
    if (llvm::any_of(atoms, [&](AtomId a) {
          return polys.getAtom(a).kind == AtomKind::Sum;
        }))
      return false;
  }
  return true;
}

bool GroupNormRecognizer::solve(AtomId x, const Poly &invN) {
  Poly xs = Poly::atom(x);
  auto sumOf = [&](const Poly &body) { return polys.sum(normDims, body); };
  Poly mean = polys.mul(invN, sumOf(xs));
  Poly centered = polys.sub(xs, mean);
  Poly twoPass = polys.mul(invN, sumOf(polys.mul(centered, centered)));
  Poly onePass = polys.sub(polys.mul(invN, sumOf(polys.mul(xs, xs))),
                           polys.mul(mean, mean));
  SmallVector<std::optional<AtomId>> params = {std::nullopt};
  for (AtomId c : channels)
    params.push_back(c);
  for (const Poly &var : {twoPass, onePass}) {
    for (double eps : epsilons) {
      std::optional<Poly> rstd =
          polys.pow(polys.add(var, Poly::constant(eps)), Rat::get(-1, 2));
      if (!rstd)
        continue;
      Poly core = polys.mul(centered, *rstd);
      for (std::optional<AtomId> gamma : params) {
        Poly scaled = gamma ? polys.mul(core, Poly::atom(*gamma)) : core;
        for (std::optional<AtomId> beta : params) {
          // Without per-channel parameters this is a LayerNorm.
          if ((!gamma && !beta) || (beta && beta == gamma))
            continue;
          Poly expected = beta ? polys.add(scaled, Poly::atom(*beta)) : scaled;
          if (!polys.equal(y, expected))
            continue;
          for (std::optional<AtomId> leaf :
               {std::optional<AtomId>(x), gamma, beta})
            if (leaf &&
                !isa<RankedTensorType>(polys.getAtom(*leaf).value.getType()))
              return false;
          match.epsilon = eps;
          match.input = polys.getAtom(x).value;
          match.gamma = gamma ? polys.getAtom(*gamma).value : Value();
          match.beta = beta ? polys.getAtom(*beta).value : Value();
          return true;
        }
      }
    }
  }
  return false;
}

std::optional<GroupNormMatch> GroupNormRecognizer::run() {
  // The virtual root [N, G, C/G, S...] and the result's binding in it.
  ArrayRef<int64_t> shape = view.shape;
  if (llvm::is_contained(shape, 0))
    return std::nullopt;
  tracer.emplace(arena,
                 RankedTensorType::get(shape, rootType.getElementType()));
  Binding binding = tracer->rootBinding();
  if (view.channelsJoined) {
    binding = {tracer->normalize({0}), tracer->normalize({1, 2})};
    for (unsigned d = 3; d < shape.size(); ++d)
      binding.push_back(tracer->normalize({d}));
  }
  const Expr *rootExpr = tracer->eval(root, binding);
  if (!rootExpr || rootExpr->kind == ExprKind::Leaf)
    return std::nullopt;

  // The reductions: all over the non-unit dims after G, in one type.
  SmallVector<const Expr *> sums;
  llvm::DenseSet<const Expr *> seen;
  collectSums(rootExpr, seen, sums);
  for (unsigned d = 2; d < shape.size(); ++d)
    if (shape[d] != 1)
      normDims.push_back(d);
  if (sums.empty() || normDims.empty())
    return std::nullopt;
  Type accType = sums.front()->type;
  for (const Expr *s : sums)
    if (ArrayRef<unsigned>(s->sumDims) != ArrayRef<unsigned>(normDims) ||
        s->type != accType)
      return std::nullopt;
  if (!accType.isF32() && !accType.isF64())
    return std::nullopt;
  match.accType = cast<FloatType>(accType);
  match.groups = view.groups();

  // One rounding at the end at most, everything else in the accumulation
  // type.
  const Expr *top = rootExpr;
  if (top->kind == ExprKind::Trunc)
    top = top->operands[0];
  if (!computesIn(top, accType))
    return std::nullopt;
  std::optional<Poly> yPoly = canon.canon(top);
  if (!yPoly)
    return std::nullopt;
  y = *yPoly;

  // n, ε candidates, the per-channel leaves and the x candidates.
  double n = 1.0;
  for (unsigned d : normDims) {
    if (ShapedType::isDynamic(shape[d]))
      return std::nullopt;
    n *= double(shape[d]);
  }
  SmallVector<AtomId> atoms;
  polys.collectAtoms(y, atoms);
  SmallVector<unsigned> channelDims(tracer->normalize({1, 2}));
  SmallVector<unsigned> allDims = flatten(tracer->rootBinding());
  SmallVector<AtomId> inputs;
  for (AtomId a : atoms) {
    const Atom &atom = polys.getAtom(a);
    if (atom.kind == AtomKind::Root) {
      double eps = atom.body.constantTerm();
      if (eps > 0 && std::isfinite(eps) && !llvm::is_contained(epsilons, eps))
        epsilons.push_back(eps);
    }
    if (atom.kind != AtomKind::Leaf)
      continue;
    SmallVector<unsigned> dims = flatten(atom.binding);
    if (dims == channelDims)
      channels.push_back(a);
    else if (dims == allDims)
      inputs.push_back(a);
  }
  if (channels.empty())
    return std::nullopt;
  for (AtomId x : inputs)
    if (solve(x, Poly::constant(1.0 / n)))
      return match;
  return std::nullopt;
}

/// The grouped views to try for `v` of shape [N, C, S...]: G from the
/// dim-1 sizes of the tensors in its chain (the [N, G, ...] views and
/// [N, G] statistics) that divide C; and `v` as [N, G, C/G, S...] itself.
SmallVector<GroupedView> groupedViews(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t channelCount = type.getDimSize(1);
  SmallVector<GroupedView> views;
  if (type.getRank() >= 3 && !type.isDynamicDim(2)) {
    GroupedView view;
    view.shape.assign(type.getShape().begin(), type.getShape().end());
    view.channelsJoined = false;
    views.push_back(view);
  }
  SmallVector<int64_t> result;
  SmallVector<Value> work = {v};
  llvm::DenseSet<Value> visited;
  constexpr size_t kMaxValues = 256;
  while (!work.empty() && visited.size() < kMaxValues) {
    Value w = work.pop_back_val();
    if (!visited.insert(w).second)
      continue;
    if (auto t = dyn_cast<RankedTensorType>(w.getType());
        t && t.getRank() >= 2 && !t.isDynamicDim(1)) {
      int64_t g = t.getDimSize(1);
      if (g >= 1 && channelCount % g == 0 && !llvm::is_contained(result, g))
        result.push_back(g);
    }
    if (Operation *def = w.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  for (int64_t g : result) {
    // Without spatial dims, G = 1 is a LayerNorm over the channels and
    // G = C normalizes single elements.
    if (type.getRank() == 2 && (g == 1 || g == channelCount))
      continue;
    GroupedView view;
    view.shape = {type.getDimSize(0), g, channelCount / g};
    llvm::append_range(view.shape, type.getShape().drop_front(2));
    views.push_back(view);
  }
  return views;
}

/// `v` reshaped to `to` through collapse/expand_shape (null if no single
/// reshape does it).
Value reshapeTensor(RewriterBase &rewriter, Location loc, Value v,
                    RankedTensorType to) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from.getShape() == to.getShape())
    return v;
  auto reassociation = getReassociationIndicesForReshape(from, to);
  if (!reassociation)
    return Value();
  if (from.getRank() > to.getRank())
    return tensor::CollapseShapeOp::create(rewriter, loc, v, *reassociation);
  return tensor::ExpandShapeOp::create(rewriter, loc, to, v, *reassociation);
}

} // namespace

GroupNormRaise raise::raiseGroupNorm(RewriterBase &rewriter, Value v,
                                     function_ref<void(Operation *)> erase) {
  GroupNormRaise outcome;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  Operation *rootOp = v.getDefiningOp();
  if (!type || !rootOp || type.getRank() < 2 || type.isDynamicDim(1) ||
      !isa<FloatType>(type.getElementType()))
    return outcome;
  Type resultElem = type.getElementType();
  for (const GroupedView &view : groupedViews(v)) {
    int64_t groups = view.groups();
    GroupNormRecognizer recognizer(v, view);
    std::optional<GroupNormMatch> m = recognizer.run();
    if (!m)
      continue;
    auto fail = [&](const Twine &why) {
      outcome.nearMiss =
          ("GroupNorm with " + Twine(groups) + " groups: " + why).str();
      return outcome;
    };
    // The element type of the op: the result's, which x (and γ, β) may
    // reach only by widening; the statistics type must not be narrower.
    Type xElem = getElementTypeOrSelf(m->input.getType());
    for (Type t :
         {xElem,
          getElementTypeOrSelf(m->gamma ? m->gamma.getType() : resultElem),
          getElementTypeOrSelf(m->beta ? m->beta.getType() : resultElem)})
      if (t.getIntOrFloatBitWidth() > resultElem.getIntOrFloatBitWidth() ||
          (t != resultElem && resultElem != m->accType))
        return fail("the input is " + llvm::formatv("{0}", t).str() +
                    " and the result " +
                    llvm::formatv("{0}", resultElem).str() +
                    "; the casts do not round where a norm op would");
    if (m->accType.getWidth() < resultElem.getIntOrFloatBitWidth())
      return fail("statistics narrower than the result");

    // The cone: the traced ops between x, γ, β and v. Other users may only
    // read values that hold no statistic (a converted input).
    llvm::SmallDenseSet<Value, 4> stops;
    for (Value s : {m->input, m->gamma, m->beta})
      if (s)
        stops.insert(s);
    llvm::SetVector<Operation *> cone, inits;
    cone.insert(rootOp);
    for (unsigned i = 0; i < cone.size(); ++i) {
      for (OpOperand &use : cone[i]->getOpOperands()) {
        Operation *def = use.get().getDefiningOp();
        auto linalgOp = dyn_cast<linalg::LinalgOp>(cone[i]);
        if (linalgOp && linalgOp.isDpsInit(&use)) {
          if (def)
            inits.insert(def);
          continue;
        }
        if (def && !stops.contains(use.get()) &&
            recognizer.tracedOps().contains(def))
          cone.insert(def);
      }
    }
    for (Operation *op : cone) {
      if (op->getBlock() != rootOp->getBlock())
        return fail("the computation spans several blocks");
      for (Value res : op->getResults())
        if (res != v && !recognizer.isStatisticFree(res) &&
            llvm::any_of(res.getUsers(),
                         [&](Operation *u) { return !cone.contains(u); }))
          return fail("the intermediate '" + op->getName().getStringRef() +
                      "' is also used outside the norm (statistics results "
                      "are not raised)");
    }
    for (Value s : stops)
      if (Operation *def = s.getDefiningOp())
        if (def->getBlock() == rootOp->getBlock() &&
            !def->isBeforeInBlock(rootOp))
          return fail("an operand is defined after the chain");

    // x as [N, C, S...] (directly, or through the grouped shape), γ/β as
    // [C]: checked before anything is created.
    auto inputType = cast<RankedTensorType>(m->input.getType());
    SmallVector<int64_t> opShape = view.opShape();
    auto reshapable = [](Value value, ArrayRef<int64_t> shape) {
      auto from = cast<RankedTensorType>(value.getType());
      return from.getShape() == shape ||
             getReassociationIndicesForReshape(from, from.clone(shape));
    };
    bool direct = reshapable(m->input, opShape);
    if ((!direct && !reshapable(m->input, view.shape)) ||
        (m->gamma && !reshapable(m->gamma, {opShape[1]})) ||
        (m->beta && !reshapable(m->beta, {opShape[1]})))
      return fail("x, γ or β cannot be reshaped to [N, C, ...] and [C]");
    Location loc = rootOp->getLoc();
    rewriter.setInsertionPoint(rootOp);
    Value x = m->input;
    if (!direct)
      x = reshapeTensor(rewriter, loc, x, inputType.clone(view.shape));
    x = widenTo(rewriter, loc,
                reshapeTensor(rewriter, loc, x, inputType.clone(opShape)),
                resultElem);
    SmallVector<Value> params;
    for (Value p : {m->gamma, m->beta})
      params.push_back(
          p ? widenTo(
                  rewriter, loc,
                  reshapeTensor(
                      rewriter, loc, p,
                      cast<RankedTensorType>(p.getType()).clone({opShape[1]})),
                  resultElem)
            : Value());
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, x), resultElem);
    MLIRContext *ctx = rewriter.getContext();
    Type defaultAcc = resultElem.isF64() ? Type(Float64Type::get(ctx))
                                         : Type(Float32Type::get(ctx));
    Type attrType = m->accType.isF64() ? Type(Float64Type::get(ctx))
                                       : Type(Float32Type::get(ctx));
    auto normOp = GroupNormOp::create(
        rewriter, loc, TypeRange{init.getType()}, x, params[0], params[1], init,
        Value(), Value(), rewriter.getI64IntegerAttr(groups),
        FloatAttr::get(attrType, m->epsilon),
        m->accType != defaultAcc ? TypeAttr::get(m->accType) : TypeAttr());
    Value y = reshapeTensor(rewriter, loc, normOp.getResult(0), type);
    rewriter.replaceUsesWithIf(v, y, [&](OpOperand &use) {
      return !cone.contains(use.getOwner()) &&
             use.getOwner() != y.getDefiningOp();
    });

    // Erase what is dead now, the chain and the inits it used, repeating
    // until nothing more dies; a dead init's own init (the tensor.empty
    // under a linalg.fill) joins the candidates.
    llvm::SetVector<Operation *> dead(cone.begin(), cone.end());
    dead.insert(inits.begin(), inits.end());
    llvm::SmallPtrSet<Operation *, 16> gone;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < dead.size(); ++i) {
        Operation *op = dead[i];
        if (gone.contains(op) || !op->use_empty() ||
            !(cone.contains(op) || isa<tensor::EmptyOp, linalg::FillOp>(op)))
          continue;
        for (Value operand : op->getOperands())
          if (auto empty = operand.getDefiningOp<tensor::EmptyOp>())
            dead.insert(empty);
        gone.insert(op);
        erase(op);
        changed = true;
      }
    }

    outcome.raised = normOp;
    llvm::raw_string_ostream os(outcome.description);
    os << "num_groups " << groups << ", epsilon " << formatDouble(m->epsilon);
    if (m->gamma)
      os << ", weight";
    if (m->beta)
      os << ", bias";
    os << ", acc " << m->accType;
    if (xElem != resultElem)
      os << ", input widened from " << xElem;
    return outcome;
  }
  return outcome;
}
