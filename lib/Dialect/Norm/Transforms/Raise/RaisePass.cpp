//===- RaisePass.cpp - the norm-raise pass -------------------------------===//
//
// Visits every tensor value that could end a norm, latest first, so that a
// chain is raised whole from its last value before its inner values are
// considered. For each: evaluate its element symbolically (Tracing.h),
// recognize a norm (Recognize.h), work out the ops the norm replaces (the
// cone) and check that nothing outside needs their values except what the op
// returns (y, the residual sum, mean, rstd); then create the op, redirect
// those uses and erase what became dead. A walk, not the greedy driver:
// each candidate is one decision with one remark.
//
//===----------------------------------------------------------------------===//

#include "Recognize.h"
#include "Tracing.h"

#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMRAISEPASS
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

namespace {

/// True if some user would extend the value's element computation (an
/// elementwise op or reshape): then the value is not the end of a chain.
bool feedsElementwise(Value v) {
  for (Operation *user : v.getUsers()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
      if (linalgOp.hasPureTensorSemantics() &&
          linalgOp.getNumLoops() == linalgOp.getNumParallelLoops())
        return true;
      continue;
    }
    if (isTraceable(user) && !isa<linalg::LinalgOp>(user) &&
        user->getName().getStringRef() != "tosa.matmul")
      return true;
  }
  return false;
}

/// The `partial` attribute of a pRMSNorm match (none for a whole row).
FloatAttr partialAttr(MLIRContext *ctx, const NormMatch &m) {
  if (m.partial == 1.0)
    return FloatAttr();
  if (m.partialF64)
    return FloatAttr::get(Float64Type::get(ctx), m.partial);
  return FloatAttr::get(Float32Type::get(ctx), m.partial);
}

/// The binding that reads a row tensor of type `t` (one entry per
/// non-normalized root dim of size ≠ 1, possibly with unit dims anywhere),
/// or nullopt if `t` has another shape.
std::optional<Binding> rowBindingOf(const Tracer &tracer, RankedTensorType t,
                                    unsigned axis) {
  SmallVector<unsigned> rowDims;
  for (unsigned d = 0; d < axis; ++d)
    if (tracer.rootDimSize(d) != 1)
      rowDims.push_back(d);
  Binding b;
  unsigned next = 0;
  for (int64_t size : t.getShape()) {
    if (next < rowDims.size() && size == tracer.rootDimSize(rowDims[next])) {
      b.push_back({rowDims[next++]});
      continue;
    }
    if (size != 1)
      return std::nullopt;
    b.push_back({});
  }
  if (next != rowDims.size())
    return std::nullopt;
  return b;
}

/// If every user of `res` outside the cone computes, from the chain's
/// values, a row tensor equal to μ or rstd (a saved statistic recomputed
/// from the variance the norm uses), adds those users to the cone, where
/// the uses check finds them as statistics. Returns true if it did.
bool absorbStatisticUsers(Tracer &tracer, Canonicalizer &canon,
                          const NormMatch &m, Value res,
                          llvm::SetVector<Operation *> &cone,
                          llvm::SetVector<Operation *> &initProducers) {
  PolyContext &polys = canon.context();
  SmallVector<Operation *> users;
  for (Operation *user : res.getUsers())
    if (!cone.contains(user) && !llvm::is_contained(users, user))
      users.push_back(user);
  for (Operation *user : users) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (user->getBlock() != res.getParentBlock() ||
        user->getNumResults() == 0 ||
        (linalgOp && !linalgOp.hasPureTensorSemantics()))
      return false;
    for (Value r : user->getResults()) {
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (!t || t.getElementType() != m.accType)
        return false;
      std::optional<Binding> b = rowBindingOf(tracer, t, m.axis);
      if (!b)
        return false;
      Expr *e = tracer.eval(r, *b);
      std::optional<Poly> p = e ? canon.canon(e) : std::nullopt;
      if (!p || !((m.isLayerNorm && polys.equal(*p, m.mean)) ||
                  polys.equal(*p, m.rstd)))
        return false;
    }
  }
  for (Operation *user : users) {
    cone.insert(user);
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
      for (OpOperand &init : linalgOp.getDpsInitsMutable())
        if (Operation *def = init.get().getDefiningOp())
          initProducers.insert(def);
  }
  return !users.empty();
}

/// Where the norm op goes: before the chain's last op `rootOp`, or before
/// the first user outside the cone of a value it replaces, if that comes
/// earlier; failure if the op's operands are not computed by then.
FailureOr<Operation *>
normInsertionPoint(Operation *rootOp, ArrayRef<Value> replaced,
                   const llvm::SetVector<Operation *> &cone,
                   const NormMatch &m) {
  Block *block = rootOp->getBlock();
  Operation *at = rootOp;
  for (Value r : replaced) {
    if (!r)
      continue;
    for (Operation *user : r.getUsers()) {
      if (cone.contains(user))
        continue;
      Operation *anc = block->findAncestorOpInBlock(*user);
      if (!anc)
        return failure();
      if (anc->isBeforeInBlock(at))
        at = anc;
    }
  }
  if (at == rootOp)
    return at;
  for (Value s : {m.input, m.residual, m.gamma, m.beta})
    if (s)
      if (Operation *def = s.getDefiningOp())
        if (def->getBlock() == block && !def->isBeforeInBlock(at))
          return failure();
  return at;
}

class Raiser {
public:
  Raiser(RewriterBase &rewriter, const RaiseNormsOptions &options)
      : rewriter(rewriter), options(options) {}

  unsigned run(Operation *scope);

private:
  /// Tries `v` as the last value of a norm. Returns true if raised.
  bool tryRaise(Value v);
  void report(Operation *root, const Twine &msg,
              const llvm::SetVector<Operation *> &traced);

  void erase(Operation *op) {
    op->walk([&](Operation *nested) { erased.insert(nested); });
    rewriter.eraseOp(op);
  }

  RewriterBase &rewriter;
  const RaiseNormsOptions &options;
  unsigned numRaised = 0;
  /// Erased ops, so that stale candidates are skipped.
  llvm::DenseSet<Operation *> erased;

  /// Failed chains, reported at the end unless a norm inside them was
  /// raised later (then the failure was about what follows the norm).
  struct Pending {
    Location loc;
    std::string message;
    llvm::SmallPtrSet<Operation *, 16> ops;
  };
  SmallVector<Pending> pending;
};

} // namespace

bool raise::isTraceable(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureTensorSemantics();
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(op))
    return true;
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return ns == "tosa" || ns == "arith" || ns == "math";
}

void raise::collectCone(Operation *rootOp,
                        const llvm::SetVector<Operation *> &traced,
                        ArrayRef<Value> stops,
                        llvm::SetVector<Operation *> &cone,
                        llvm::SetVector<Operation *> &initProducers) {
  cone.insert(rootOp);
  for (unsigned i = 0; i < cone.size(); ++i) {
    Operation *op = cone[i];
    for (OpOperand &use : op->getOpOperands()) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      Operation *def = use.get().getDefiningOp();
      if (linalgOp && linalgOp.isDpsInit(&use)) {
        if (def)
          initProducers.insert(def);
        continue;
      }
      if (llvm::is_contained(stops, use.get()) || !def || !traced.contains(def))
        continue;
      cone.insert(def);
    }
  }
}

void raise::eraseDeadChain(llvm::SetVector<Operation *> &cone,
                           llvm::SetVector<Operation *> &initProducers,
                           function_ref<void(Operation *)> erase) {
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : llvm::reverse(cone)) {
      if (!op || !op->use_empty())
        continue;
      erase(op);
      initProducers.remove(op);
      cone.remove(op);
      changed = true;
      break;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : llvm::reverse(initProducers)) {
      if (!isOpTriviallyDead(op))
        continue;
      SmallVector<Operation *> operandDefs;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          operandDefs.push_back(def);
      erase(op);
      initProducers.remove(op);
      for (Operation *def : operandDefs)
        if (isa<tensor::EmptyOp, linalg::FillOp>(def))
          initProducers.insert(def);
      changed = true;
      break;
    }
  }
}

std::string raise::formatDouble(double d) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%g", d);
  return s;
}

bool raise::canReshape(RankedTensorType from, RankedTensorType to) {
  if (from.getElementType() != to.getElementType())
    return false;
  if (from.getRank() == to.getRank())
    return tensor::CastOp::areCastCompatible(from, to);
  return getReassociationIndicesForReshape(from, to).has_value();
}

Value raise::reshapeTo(RewriterBase &rewriter, Location loc, Value v,
                       RankedTensorType to) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from == to)
    return v;
  if (from.getRank() > to.getRank()) {
    auto reassociation = *getReassociationIndicesForReshape(from, to);
    v = tensor::CollapseShapeOp::create(rewriter, loc, v, reassociation);
  } else if (from.getRank() < to.getRank()) {
    auto reassociation = *getReassociationIndicesForReshape(from, to);
    v = tensor::ExpandShapeOp::create(rewriter, loc, to, v, reassociation);
  }
  if (v.getType() != to)
    v = tensor::CastOp::create(rewriter, loc, to, v);
  return v;
}

Value raise::widenTo(RewriterBase &rewriter, Location loc, Value v, Type type) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getElementType() == type)
    return v;
  return arith::ExtFOp::create(rewriter, loc, t.clone(type), v);
}

void Raiser::report(Operation *root, const Twine &msg,
                    const llvm::SetVector<Operation *> &traced) {
  Pending p{root->getLoc(), msg.str(), {}};
  p.ops.insert(traced.begin(), traced.end());
  pending.push_back(std::move(p));
}

unsigned Raiser::run(Operation *scope) {
  SmallVector<Operation *> ops;
  scope->walk([&](Operation *op) {
    // Only ops producing tensors can end a norm (not the scalar ops in
    // linalg bodies).
    if (op != scope && isTraceable(op) &&
        llvm::any_of(op->getResultTypes(),
                     [](Type t) { return isa<RankedTensorType>(t); }))
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops)) {
    if (erased.contains(op))
      continue;
    for (Value v : op->getResults())
      if (tryRaise(v))
        break;
  }
  // The quantization after each norm op, raised or already there
  // (QuantRecognizer.cpp).
  // The erased ops so far are gone for good: a norm op created since may
  // sit at the address of one of them.
  erased.clear();
  SmallVector<Operation *> norms;
  scope->walk([&](Operation *op) {
    if (isa<RMSNormOp, LayerNormOp>(op))
      norms.push_back(op);
  });
  for (Operation *norm : norms) {
    if (erased.contains(norm))
      continue;
    QuantRaise quant = raiseNormQuantization(rewriter, norm,
                                             [&](Operation *op) { erase(op); });
    if (quant.raised) {
      ++numRaised;
      llvm::erase_if(
          pending, [&](const Pending &p) { return p.ops.contains(quant.at); });
      if (options.remarks)
        emitRemark(quant.raised->getLoc())
            << "norm-raise: raised the quantization into "
            << quant.raised->getName() << " (" << quant.description << ")";
    } else if (!quant.nearMiss.empty() && options.remarks) {
      emitRemark(quant.at->getLoc())
          << "norm-raise: quantization not raised: " << quant.nearMiss;
    }
  }
  if (options.remarks)
    for (const Pending &p : pending)
      emitRemark(p.loc) << "norm-raise: not raised: " << p.message;
  pending.clear();
  return numRaised;
}

bool Raiser::tryRaise(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() < 1 || !isa<FloatType>(type.getElementType()))
    return false;
  Operation *rootOp = v.getDefiningOp();

  // GroupNorm first: its per-channel γ/β are what the recognizer below
  // cannot express (GroupNormRecognizer.cpp).
  GroupNormRaise group =
      raiseGroupNorm(rewriter, v, [&](Operation *op) { erase(op); });
  if (group.raised) {
    ++numRaised;
    llvm::erase_if(pending,
                   [&](const Pending &p) { return p.ops.contains(rootOp); });
    if (options.remarks)
      emitRemark(group.raised->getLoc())
          << "norm-raise: raised norm.group_norm (" << group.description << ")";
    return true;
  }
  if (!group.nearMiss.empty() && !feedsElementwise(v))
    report(rootOp, group.nearMiss, {});

  // The backward of a norm (GradRecognizer.cpp), before the forward
  // recognizer can take a recomputed x̂ inside it for a norm.
  RecognizeOptions recognizeOptions;
  recognizeOptions.rmsNorm = options.rmsNorm;
  recognizeOptions.layerNorm = options.layerNorm;
  recognizeOptions.assumeSavedMean = options.assumeSavedMean;
  GradRaise grad = raiseNormGrad(rewriter, v, recognizeOptions,
                                 [&](Operation *op) { erase(op); });
  if (grad.raised) {
    ++numRaised;
    if (options.remarks)
      emitRemark(grad.raised->getLoc())
          << "norm-raise: raised " << grad.raised->getName() << " ("
          << grad.description << ")";
    return true;
  }
  if (!grad.nearMiss.empty() && !feedsElementwise(v))
    report(rootOp, grad.nearMiss, {});

  ExprArena arena;
  Tracer tracer(arena, type);
  Expr *rootExpr = tracer.eval(v, tracer.rootBinding());
  if (!rootExpr || rootExpr->kind == ExprKind::Leaf)
    return false;
  PolyContext polys;
  Canonicalizer canon(polys);
  Recognition recognition =
      recognizeNorm(tracer, canon, v, rootExpr, recognizeOptions);
  bool endOfChain = !feedsElementwise(v);
  if (!recognition.match) {
    // A backward's own reason, when it has one, is the more specific.
    if (recognition.nearMiss && endOfChain && grad.nearMiss.empty())
      report(recognition.at ? recognition.at : rootOp, recognition.reason,
             tracer.tracedOps);
    return false;
  }
  const NormMatch &m = *recognition.match;
  auto fail = [&](const Twine &why) {
    if (endOfChain)
      report(rootOp, why, tracer.tracedOps);
    return false;
  };

  // The cone: the traced ops between the op's operands and `v`.
  SmallVector<Value> stops;
  for (Value s : {m.input, m.residual, m.gamma, m.beta})
    if (s)
      stops.push_back(s);
  llvm::SetVector<Operation *> cone;
  llvm::SetVector<Operation *> initProducers;
  collectCone(rootOp, tracer.tracedOps, stops, cone, initProducers);
  Block *block = rootOp->getBlock();
  for (Operation *op : cone)
    if (op->getBlock() != block)
      return fail("the computation spans several blocks");

  // Uses outside the cone: the residual sum, the statistics, or values
  // that do not depend on x (a converted γ) may stay; nothing else.
  Value sumValue;
  SmallVector<std::pair<Value, bool>> stats; // value, isMean
  auto statType = [&]() {
    auto xType = cast<RankedTensorType>(m.input.getType());
    return RankedTensorType::get(xType.getShape().take_front(m.axis),
                                 m.accType);
  };
  for (unsigned coneIndex = 0; coneIndex < cone.size(); ++coneIndex) {
    Operation *op = cone[coneIndex];
    for (Value res : op->getResults()) {
      if (res == v)
        continue;
      bool external = llvm::any_of(res.getUsers(), [&](Operation *user) {
        return !cone.contains(user);
      });
      if (!external)
        continue;
      if (m.sum && res == m.sum) {
        sumValue = res;
        continue;
      }
      bool provided = false, harmless = true;
      auto resType = dyn_cast<RankedTensorType>(res.getType());
      for (const auto &[key, expr] : tracer.memo) {
        if (key.first != res.getAsOpaquePointer() || !expr)
          continue;
        std::optional<Poly> p = canon.canon(expr);
        if (!p) {
          harmless = false;
          continue;
        }
        // A plain copy or conversion of an input (x.to(f32) read by other
        // ops too) stays; it is no intermediate of the norm.
        if (auto mono = p->asMonomial();
            mono && mono->second == 1.0 && mono->first.size() == 1 &&
            mono->first[0].second == Rat::get(1) &&
            polys.getAtom(mono->first[0].first).kind == AtomKind::Leaf)
          continue;
        SmallVector<AtomId> atoms;
        polys.collectAtoms(*p, atoms);
        for (AtomId a : atoms) {
          const Atom &atom = polys.getAtom(a);
          if (atom.kind == AtomKind::Sum ||
              (atom.kind == AtomKind::Leaf &&
               (atom.value == m.input || atom.value == m.residual)))
            harmless = false;
        }
        if (!resType || resType.getElementType() != m.accType ||
            !isRowBinding(tracer, key.second, m.axis) ||
            !canReshape(statType(), resType))
          continue;
        if (m.isLayerNorm && polys.equal(*p, m.mean)) {
          stats.push_back({res, true});
          provided = true;
          break;
        }
        if (polys.equal(*p, m.rstd)) {
          stats.push_back({res, false});
          provided = true;
          break;
        }
      }
      if (provided || harmless)
        continue;
      // Users that recompute a statistic from the chain's intermediates (the
      // saved rstd from the variance the norm also uses) are replaced too.
      if (absorbStatisticUsers(tracer, canon, m, res, cone, initProducers))
        continue;
      Operation *user = *llvm::find_if(res.getUsers(), [&](Operation *u) {
        return !cone.contains(u);
      });
      return fail("the intermediate '" + op->getName().getStringRef() +
                  "' is also used by '" + user->getName().getStringRef() +
                  "', and the norm op cannot provide its value");
    }
  }
  // The norm op takes the place of the chain's last op, or of the first
  // other user of a value it replaces (statistics saved for the backward,
  // reshaped before the normalized result is computed).
  SmallVector<Value> replaced = {sumValue};
  for (auto [s, isMean] : stats)
    replaced.push_back(s);
  FailureOr<Operation *> insertAt =
      normInsertionPoint(rootOp, replaced, cone, m);
  if (failed(insertAt))
    return fail("a statistic or the residual sum is used before an operand "
                "of the norm (x, the residual, γ or β) is computed");
  // γ and β in the op's shape.
  auto xType = cast<RankedTensorType>(m.input.getType());
  Value param = m.gamma ? m.gamma : m.beta;
  auto columnType = RankedTensorType::get(
      xType.getShape().drop_front(m.axis),
      param && !m.widenParams ? getElementTypeOrSelf(param.getType())
                              : Type(m.elemType));
  for (Value w : {m.gamma, m.beta})
    if (w && !canReshape(cast<RankedTensorType>(w.getType())
                             .clone(columnType.getElementType()),
                         columnType))
      return fail("γ/β do not have the shape of the normalized dims");
  if (!tensor::CastOp::areCastCompatible(xType.clone(type.getElementType()),
                                         type))
    return fail("the input and the result have different shapes");
  for (Value s : {m.input, m.residual, m.gamma, m.beta})
    if (s)
      if (Operation *def = s.getDefiningOp())
        if (def->getBlock() == block && !def->isBeforeInBlock(rootOp))
          return fail("an operand is defined after the chain");

  // Create the op in place of the chain's last op (or earlier, see above).
  Location loc = rootOp->getLoc();
  MLIRContext *ctx = rootOp->getContext();
  rewriter.setInsertionPoint(*insertAt);
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, m.input);
  SmallVector<OpFoldResult> rowSizes(sizes.begin(), sizes.begin() + m.axis);
  auto empty = [&](ArrayRef<OpFoldResult> s, Type t) -> Value {
    return tensor::EmptyOp::create(rewriter, loc, s, t);
  };
  bool wantMean = llvm::any_of(stats, [](auto s) { return s.second; });
  bool wantRstd = llvm::any_of(stats, [](auto s) { return !s.second; });
  Value init = empty(sizes, m.resultType);
  Value sumInit = sumValue ? empty(sizes, m.elemType) : Value();
  Value meanInit = wantMean ? empty(rowSizes, m.accType) : Value();
  Value rstdInit = wantRstd ? empty(rowSizes, m.accType) : Value();
  auto operand = [&](Value w) -> Value {
    if (!w)
      return Value();
    Type elem = columnType.getElementType();
    return reshapeTo(rewriter, loc, widenTo(rewriter, loc, w, elem),
                     columnType);
  };
  Value gamma = operand(m.gamma);
  Value beta = operand(m.beta);

  SmallVector<Type> resultTypes = {init.getType()};
  for (Value i : {sumInit, meanInit, rstdInit})
    if (i)
      resultTypes.push_back(i.getType());
  Type attrType = m.accType.isF64() ? Type(Float64Type::get(ctx))
                                    : Type(Float32Type::get(ctx));
  IntegerAttr axisAttr =
      m.axis + 1 == unsigned(xType.getRank())
          ? IntegerAttr()
          : rewriter.getI64IntegerAttr(m.axis);
  FloatAttr epsAttr = FloatAttr::get(attrType, m.epsilon);
  FloatAttr offsetAttr =
      m.weightOffset != 0.0 ? FloatAttr::get(attrType, m.weightOffset)
                            : FloatAttr();
  Type defaultAcc = m.elemType.isF64() ? Type(Float64Type::get(ctx))
                                       : Type(Float32Type::get(ctx));
  TypeAttr accAttr =
      m.accType != defaultAcc ? TypeAttr::get(m.accType) : TypeAttr();
  CastModeAttr castAttr = m.castMode == CastMode::before_weight
                              ? CastModeAttr::get(ctx, m.castMode)
                              : CastModeAttr();
  EpsModeAttr epsModeAttr = m.epsMode == EpsMode::outside_sqrt
                                ? EpsModeAttr::get(ctx, m.epsMode)
                                : EpsModeAttr();
  Operation *normOp;
  if (m.isLayerNorm)
    normOp = LayerNormOp::create(
        rewriter, loc, resultTypes, m.input, m.residual, gamma, beta,
        /*scale=*/Value(), /*cos=*/Value(), /*sin=*/Value(), init, sumInit,
        meanInit, rstdInit, /*scale_outs=*/Value(), IntegerAttr(), Attribute(),
        axisAttr, epsAttr, offsetAttr, accAttr, castAttr, epsModeAttr,
        RopeModeAttr(), RopeRoundingAttr());
  else
    normOp = RMSNormOp::create(
        rewriter, loc, resultTypes, m.input, m.residual, gamma,
        /*scale=*/Value(), /*cos=*/Value(), /*sin=*/Value(), init, sumInit,
        rstdInit, /*scale_outs=*/Value(), IntegerAttr(), Attribute(), axisAttr,
        epsAttr, offsetAttr, partialAttr(ctx, m), accAttr, castAttr,
        epsModeAttr, RopeModeAttr(), RopeRoundingAttr());

  // Redirect the uses.
  unsigned next = 0;
  Value y = normOp->getResult(next++);
  Value sum = sumValue ? normOp->getResult(next++) : Value();
  Value mean = wantMean ? normOp->getResult(next++) : Value();
  Value rstd = wantRstd ? normOp->getResult(next++) : Value();
  auto notInCone = [&](OpOperand &use) {
    return !cone.contains(use.getOwner()) && use.getOwner() != normOp;
  };
  if (m.truncatedResult)
    y = arith::TruncFOp::create(
        rewriter, loc,
        cast<RankedTensorType>(y.getType()).clone(m.truncatedResult), y);
  rewriter.replaceUsesWithIf(v, reshapeTo(rewriter, loc, y, type), notInCone);
  if (sumValue)
    rewriter.replaceUsesWithIf(
        sumValue,
        reshapeTo(rewriter, loc, sum, cast<RankedTensorType>(sumValue.getType())),
        notInCone);
  for (auto [s, isMean] : stats)
    rewriter.replaceUsesWithIf(
        s,
        reshapeTo(rewriter, loc, isMean ? mean : rstd,
                  cast<RankedTensorType>(s.getType())),
        notInCone);

  // Pending failures of chains that contain this norm were about what
  // follows it.
  llvm::erase_if(pending, [&](const Pending &p) {
    return p.ops.contains(rootOp);
  });

  // Erase what is dead now: the chain, then the inits it used.
  eraseDeadChain(cone, initProducers, [&](Operation *op) { erase(op); });

  ++numRaised;
  if (options.remarks) {
    std::string desc;
    llvm::raw_string_ostream os(desc);
    os << "axis " << m.axis << ", epsilon " << formatDouble(m.epsilon);
    if (m.gamma)
      os << ", weight";
    if (m.beta)
      os << ", bias";
    if (m.widenParams)
      os << " widened from "
         << getElementTypeOrSelf((m.gamma ? m.gamma : m.beta).getType());
    if (m.weightOffset != 0.0)
      os << ", weight_offset " << formatDouble(m.weightOffset);
    if (m.partial != 1.0)
      os << ", partial " << formatDouble(m.partial);
    if (m.residual)
      os << ", residual";
    if (sumValue)
      os << ", sum";
    if (wantMean)
      os << ", mean";
    if (wantRstd)
      os << ", rstd";
    if (m.epsMode == EpsMode::outside_sqrt)
      os << ", eps outside sqrt";
    os << ", acc " << m.accType;
    if (m.truncatedResult)
      os << ", result truncated to " << m.truncatedResult;
    if (m.castMode == CastMode::before_weight)
      os << ", cast before weight";
    emitRemark(loc) << "norm-raise: raised " << normOp->getName() << " ("
                    << desc << ")";
  }
  return true;
}

unsigned mlir::norm::raiseNorms(RewriterBase &rewriter, Operation *scope,
                                const RaiseNormsOptions &options) {
  Raiser raiser(rewriter, options);
  return raiser.run(scope);
}

namespace {

struct NormRaisePass : public norm::impl::NormRaisePassBase<NormRaisePass> {
  using Base::Base;

  void runOnOperation() override {
    RaiseNormsOptions options;
    options.rmsNorm = raiseRMSNorm;
    options.layerNorm = raiseLayerNorm;
    options.remarks = remarks;
    options.assumeSavedMean = assumeSavedMean;
    IRRewriter rewriter(&getContext());
    raiseNorms(rewriter, getOperation(), options);
  }
};

} // namespace
