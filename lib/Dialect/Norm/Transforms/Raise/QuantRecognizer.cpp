//===- QuantRecognizer.cpp - raising the quantization of a norm -*- C++ -*-===//
//
// Raises the quantization that follows a norm op into the op's quantized
// result (DESIGN.md §8): `q = cast(clamp(round(y · k)))` with k = 1/s for a
// scalar s (static) or for s = max(amax / qmax, floor), amax the max of |y|
// over the row or over trailing groups of it (dynamic). The quantized value
// is evaluated symbolically like a norm (Tracing.h, with the quantization
// ops traced), the norm's result y a leaf. The cast, clamps and rounding
// are read from the top of the Expr tree in whatever order and spelling
// they come (maximumf, minimumf, compare-and-select, tosa.clamp, tosa.cast);
// y · k is compared as a polynomial (NormExpr.h), so y / s, y · (1/s),
// amax / qmax and amax · (1/qmax) agree. What differs from the op's
// numbers (a missing clamp, other bounds, a rounding that is not to nearest
// even, a NaN sent to a bound in fp8, a floor the op cannot hold, y rounded
// before it is quantized) is refused with the reason.
//
//===----------------------------------------------------------------------===//

#include "Recognize.h"
#include "Tracing.h"

#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

namespace {

/// What a candidate's Expr says, or why it is not the op's quantization.
struct QuantForm {
  Type type;
  /// y · k, under the cast, the clamps and the rounding.
  const Expr *core = nullptr;
  /// The static scale: the atom s of k = c · s^e (null: k = c).
  std::optional<AtomId> scaleAtom;
  int64_t scaleExp = -1;
  double coefficient = 1.0;
  /// Dynamic: the scale (as the IR computes it), its floor and group size
  /// (0: per token), and the root dims the scales are indexed by.
  std::optional<Poly> scales;
  double floor = 0.0;
  int64_t groupSize = 0;
  SmallVector<unsigned> scaleDims;
};

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool isConstantPoly(const Poly &p) {
  return p.isZero() || (p.terms.size() == 1 && p.terms.begin()->first.empty());
}

class QuantRecognizer {
public:
  QuantRecognizer(Tracer &tracer, Canonicalizer &canon, Value y, unsigned axis,
                  FloatType accType)
      : tracer(tracer), canon(canon), ctx(canon.context()), y(y), axis(axis),
        accType(accType) {}

  /// The form of `root`'s Expr, or the reason in `why`.
  std::optional<QuantForm> run(const Expr *root, std::string &why);

  /// The root dims that index y's dims [0, axis) and [axis, rank).
  SmallVector<unsigned> rowDims, normDims;
  AtomId yAtom = 0;

private:
  bool peel(const Expr *root, QuantForm &form, std::string &why);
  bool coreTypesOk(const Expr *e) const;
  bool dynamicScale(const Atom &s, double c, QuantForm &form, std::string &why);

  Tracer &tracer;
  Canonicalizer &canon;
  PolyContext &ctx;
  Value y;
  unsigned axis;
  FloatType accType;
};

} // namespace

// The cast at the top, then clamps (a max and a min against constants, in
// either order, several folded into one) and a rounding, down to y · k.
bool QuantRecognizer::peel(const Expr *e, QuantForm &form, std::string &why) {
  bool fp8 = e->kind == ExprKind::Trunc &&
             isa<Float8E4M3FNType, Float8E5M2Type>(e->type);
  bool i8 = e->kind == ExprKind::FPToSI && e->type.isSignlessInteger(8);
  if (!fp8 && !i8) {
    why = "the quantized value is not an arith.truncf to fp8 or an "
          "arith.fptosi to i8 of the scaled norm result";
    return false;
  }
  form.type = e->type;
  e = e->operands[0];
  std::optional<double> lo, hi;
  bool nanKeeps = true, roundEven = false;
  for (;;) {
    if (e->kind == ExprKind::Max || e->kind == ExprKind::Min) {
      const Expr *a = e->operands[0], *b = e->operands[1];
      if (a->kind == ExprKind::Const)
        std::swap(a, b);
      if (b->kind != ExprKind::Const || a->kind == ExprKind::Const)
        break;
      nanKeeps &= e->nanKeeps;
      double c = b->constant;
      if (e->kind == ExprKind::Max)
        lo = lo ? std::max(*lo, c) : c;
      else
        hi = hi ? std::min(*hi, c) : c;
      e = a;
      continue;
    }
    if (e->kind == ExprKind::RoundEven) {
      roundEven = true;
      e = e->operands[0];
      continue;
    }
    if (e->kind == ExprKind::Round) {
      why = "math.round rounds halfway cases away from zero; the op rounds "
            "to nearest even";
      return false;
    }
    // A zero point: torch-mlir's quantize_per_tensor adds it after the
    // rounding (0 converted by sitofp for the symmetric qint8 case).
    if (e->kind == ExprKind::Add) {
      const Expr *a = e->operands[0], *b = e->operands[1];
      if (a->kind == ExprKind::Const)
        std::swap(a, b);
      if (b->kind != ExprKind::Const || a->kind == ExprKind::Const)
        break;
      if (b->constant != 0.0) {
        why = "the quantization adds the zero point " +
              formatDouble(b->constant) +
              " (asymmetric); the op quantizes symmetrically (zero point 0)";
        return false;
      }
      // ± 0 after the rounding: fptosi gives 0 for both zeros. In fp8 the
      // sign of a zero would change, so there the + 0 is not looked through.
      if (!i8)
        break;
      e = a;
      continue;
    }
    break;
  }
  form.core = e;
  double qmax = getQuantizedMax(form.type);
  double qmin = fp8 ? -qmax : -qmax - 1;
  std::string range =
      "[" + formatDouble(qmin) + ", " + formatDouble(qmax) + "]";
  if (fp8 && roundEven) {
    why = "math.roundeven rounds to an integer before the cast to " +
          typeName(form.type) + "; the op rounds to the fp8 precision";
    return false;
  }
  if (i8 && !roundEven) {
    why = "arith.fptosi truncates toward zero and nothing rounds before it; "
          "the op rounds to nearest even";
    return false;
  }
  if (!lo || !hi) {
    why = "no clamp to " + range + " before the cast to " +
          typeName(form.type) + ": " +
          (fp8 ? "arith.truncf does not saturate (a value beyond the "
                 "largest finite one becomes NaN or Inf)"
               : "arith.fptosi of an out-of-range value is poison") +
          ", the op saturates";
    return false;
  }
  if (*lo != qmin || *hi != qmax) {
    why = "the clamp is to [" + formatDouble(*lo) + ", " + formatDouble(*hi) +
          "]; " + typeName(form.type) + " saturates to " + range;
    return false;
  }
  if (fp8 && !nanKeeps) {
    why = "the clamp sends a NaN to a bound (maxnumf / minnumf, or a "
          "compare-and-select taking the bound); the op keeps NaN in fp8";
    return false;
  }
  return true;
}

// Under the rounding, everything is computed in the accumulation type from
// y and the scale, rounded nowhere.
bool QuantRecognizer::coreTypesOk(const Expr *e) const {
  switch (e->kind) {
  case ExprKind::Const:
  case ExprKind::Scalar:
  case ExprKind::Leaf:
  case ExprKind::Extent:
    return true;
  case ExprKind::Trunc:
    return false;
  case ExprKind::Ext:
    // A widened scale, not a widened y (checked by the caller).
    return e->type == accType;
  default:
    return e->type == accType && llvm::all_of(e->operands, [&](const Expr *o) {
             return coreTypesOk(o);
           });
  }
}

bool QuantRecognizer::dynamicScale(const Atom &s, double c, QuantForm &form,
                                   std::string &why) {
  std::string qmaxText = formatDouble(getQuantizedMax(form.type));
  if (s.kind == AtomKind::MaxReduce) {
    why = "the scale amax / qmax has no floor (max(amax / qmax, s_min)): an "
          "all-zero row divides by zero, and the op's scale_min must be > 0";
    return false;
  }
  // s = max(k·amax, f): the op's s = max(amax / qmax, s_min) once divided
  // by the IR's c (q = y · c / s).
  const Poly *amaxSide = &s.body, *floorSide = &s.other;
  if (isConstantPoly(*amaxSide))
    std::swap(amaxSide, floorSide);
  auto amaxMono = amaxSide->asMonomial();
  if (s.kind != AtomKind::Max || !isConstantPoly(*floorSide) || !amaxMono ||
      amaxMono->first.size() != 1 ||
      !(amaxMono->first[0].second == Rat::get(1)) ||
      ctx.getAtom(amaxMono->first[0].first).kind != AtomKind::MaxReduce) {
    why = "the scale is not max(amax / qmax, floor) with amax a max over "
          "the row";
    return false;
  }
  const Atom &amax = ctx.getAtom(amaxMono->first[0].first);
  // amax = max |y| over the row (or a group): its body is |y|.
  auto absMono = amax.body.asMonomial();
  bool overY =
      absMono && absMono->second == 1.0 && absMono->first.size() == 1 &&
      absMono->first[0].second == Rat::get(1) &&
      ctx.getAtom(absMono->first[0].first).kind == AtomKind::Abs &&
      ctx.equal(ctx.getAtom(absMono->first[0].first).body, Poly::atom(yAtom));
  if (!overY) {
    why = "the amax is not the max of |y| over the normalized values";
    return false;
  }
  double k = amaxMono->second / c;
  if (!coefficientsEqual(k * getQuantizedMax(form.type), 1.0)) {
    why = "the scale is amax / " + formatDouble(1.0 / k) + "; " +
          typeName(form.type) + "'s qmax is " + qmaxText;
    return false;
  }
  double floor = floorSide->constantTerm() / c;
  if (!(floor > 0.0) || !std::isfinite(floor)) {
    why = "the scale's floor is " + formatDouble(floor) +
          "; the op's scale_min must be finite and > 0";
    return false;
  }
  if (!isa<IntegerType>(form.type) && (!s.nanKeeps || !amax.nanKeeps)) {
    why = "the amax or the scale's floor drops a NaN (maxnumf, or a "
          "compare-and-select); the op's fp8 result keeps NaN";
    return false;
  }
  if (!accType.isF32()) {
    why = "the scales are computed in " + typeName(accType) +
          "; the op's scale_outs are f32";
    return false;
  }
  // Per token: amax over all of the row; per group: over a trailing part.
  ArrayRef<unsigned> reduced = amax.sumDims;
  ArrayRef<unsigned> norm = normDims;
  if (reduced.size() > norm.size() ||
      norm.take_back(reduced.size()) != reduced) {
    why = "the amax is not over the normalized dims, nor a trailing group "
          "of them";
    return false;
  }
  form.scaleDims.assign(rowDims.begin(), rowDims.end());
  if (reduced.size() < norm.size()) {
    int64_t g = 1;
    for (unsigned d : reduced)
      g = ShapedType::isDynamic(tracer.rootDimSize(d))
              ? ShapedType::kDynamic
              : g * tracer.rootDimSize(d);
    if (g != 32 && g != 64 && g != 128) {
      why = "the amax is over groups of " +
            (ShapedType::isDynamic(g) ? std::string("a dynamic number of")
                                      : std::to_string(g)) +
            " elements; the op's group_size is 32, 64 or 128";
      return false;
    }
    form.groupSize = g;
    llvm::append_range(form.scaleDims, norm.drop_back(reduced.size()));
  }
  form.floor = floor;
  form.scales = ctx.scale(Poly::atom(ctx.intern(Atom(s))), 1.0 / c);
  return true;
}

std::optional<QuantForm> QuantRecognizer::run(const Expr *root,
                                              std::string &why) {
  QuantForm form;
  if (!peel(root, form, why))
    return std::nullopt;
  Type yElem = getElementTypeOrSelf(y.getType());
  if (yElem != accType) {
    why = "the norm's result is rounded to " + typeName(yElem) +
          " before it is quantized; the quantized op quantizes y unrounded "
          "(in " +
          typeName(accType) + ")";
    return std::nullopt;
  }
  if (!coreTypesOk(form.core)) {
    why = "the value quantized is not computed in " + typeName(accType) +
          " (a rounding or another type between y and the cast)";
    return std::nullopt;
  }
  std::optional<Poly> p = canon.canon(form.core);
  auto mono = p ? p->asMonomial() : std::nullopt;
  // y · k: exactly one factor y, to the first power.
  std::optional<AtomId> yId;
  Monomial rest;
  if (mono) {
    for (const auto &[a, e] : mono->first) {
      const Atom &atom = ctx.getAtom(a);
      if (atom.kind == AtomKind::Leaf && atom.value == y && !yId &&
          e == Rat::get(1))
        yId = a;
      else
        rest.push_back({a, e});
    }
  }
  if (!yId) {
    why = "the value quantized is not the norm's result times a scale";
    return std::nullopt;
  }
  yAtom = *yId;
  // y read at the root index, element for element (a reshape of it).
  const Binding &yb = ctx.getAtom(yAtom).binding;
  auto yType = cast<RankedTensorType>(y.getType());
  SmallVector<unsigned> flat;
  for (auto [i, g] : llvm::enumerate(yb)) {
    int64_t size = 1;
    for (unsigned d : g)
      size = ShapedType::isDynamic(tracer.rootDimSize(d)) ||
                     ShapedType::isDynamic(size)
                 ? ShapedType::kDynamic
                 : size * tracer.rootDimSize(d);
    if (g.size() > 1 && size != yType.getDimSize(i)) {
      flat.clear();
      break;
    }
    llvm::append_range(flat, g);
    llvm::append_range(i < axis ? rowDims : normDims, g);
  }
  SmallVector<unsigned> expected;
  for (const DimGroup &g : tracer.rootBinding())
    llvm::append_range(expected, g);
  if (flat != expected) {
    why = "the quantized value does not read the norm's result element for "
          "element";
    return std::nullopt;
  }
  double c = mono->second;
  // Static: k = c · s^±1 with s a scalar or a one-element tensor, or k = c.
  if (rest.empty()) {
    form.coefficient = c;
    return form;
  }
  if (rest.size() == 1) {
    const Atom &s = ctx.getAtom(rest[0].first);
    Rat e = rest[0].second;
    bool oneElement =
        s.kind == AtomKind::Leaf && s.value != y &&
        llvm::all_of(s.binding, [](const DimGroup &g) { return g.empty(); });
    if ((s.kind == AtomKind::Scalar || oneElement) &&
        (e == Rat::get(1) || e == Rat::get(-1))) {
      if (!getElementTypeOrSelf(s.value.getType()).isF32()) {
        why = "the scale is " +
              typeName(getElementTypeOrSelf(s.value.getType())) +
              "; the op's static scale is f32";
        return std::nullopt;
      }
      form.scaleAtom = rest[0].first;
      form.scaleExp = e.num;
      form.coefficient = c;
      return form;
    }
    if ((s.kind == AtomKind::Max || s.kind == AtomKind::MaxReduce) &&
        e == Rat::get(-1)) {
      Atom copy = s;
      if (!dynamicScale(copy, c, form, why))
        return std::nullopt;
      return form;
    }
  }
  why = "the scale is neither a scalar (static) nor max(amax / qmax, floor) "
        "over the row (dynamic): y · " +
        ctx.print(*p);
  return std::nullopt;
}

namespace {

/// The tensors of a quantized element type computed from `y` (through
/// traced ops in its block), in program order.
SmallVector<Value> quantizedCandidates(Value y) {
  SmallVector<Value> found;
  llvm::SetVector<Operation *> seen;
  SmallVector<Value> work = {y};
  while (!work.empty() && seen.size() < 64) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != y.getParentBlock() || !isTraceable(user) ||
          !seen.insert(user))
        continue;
      for (Value r : user->getResults()) {
        auto t = dyn_cast<RankedTensorType>(r.getType());
        if (!t)
          continue;
        if (isQuantizedElementType(t.getElementType()))
          found.push_back(r);
        else
          work.push_back(r);
      }
    }
  }
  llvm::sort(found, [](Value a, Value b) {
    return a.getDefiningOp()->isBeforeInBlock(b.getDefiningOp());
  });
  found.erase(llvm::unique(found), found.end());
  return found;
}

/// True if the Expr reads `y` somewhere.
bool readsValue(const Expr *e, Value y) {
  SmallVector<const Expr *> stack = {e};
  llvm::DenseSet<const Expr *> seen;
  while (!stack.empty()) {
    const Expr *x = stack.pop_back_val();
    if (!x || !seen.insert(x).second)
      continue;
    if (x->kind == ExprKind::Leaf && x->value == y)
      return true;
    llvm::append_range(stack, x->operands);
  }
  return false;
}

/// `op` rebuilt with the quantized `init`, `scale` or `scaleInit`, and
/// the dynamic scales' attributes.
Operation *rebuildQuantized(RewriterBase &rewriter, Operation *op, Value init,
                            Value scale, Value scaleInit, IntegerAttr groupSize,
                            FloatAttr scaleMin) {
  SmallVector<Type> resultTypes{init.getType()};
  for (Value result : op->getResults().drop_front())
    resultTypes.push_back(result.getType());
  if (scaleInit)
    resultTypes.push_back(scaleInit.getType());
  Location loc = op->getLoc();
  if (auto rms = dyn_cast<RMSNormOp>(op))
    return RMSNormOp::create(
        rewriter, loc, resultTypes, rms.getInput(), rms.getResidual(),
        rms.getWeight(), scale, rms.getCos(), rms.getSin(), init,
        rms.getSumInit(), rms.getRstdInit(), scaleInit, groupSize, scaleMin,
        rms.getAxisAttr(), rms.getEpsilonAttr(), rms.getWeightOffsetAttr(),
        rms.getPartialAttr(), rms.getAccTypeAttr(), rms.getCastModeAttr(),
        rms.getEpsModeAttr(), rms.getRopeModeAttr(), rms.getRopeRoundingAttr());
  auto ln = cast<LayerNormOp>(op);
  return LayerNormOp::create(
      rewriter, loc, resultTypes, ln.getInput(), ln.getResidual(),
      ln.getWeight(), ln.getBias(), scale, ln.getCos(), ln.getSin(), init,
      ln.getSumInit(), ln.getMeanInit(), ln.getRstdInit(), scaleInit, groupSize,
      scaleMin, ln.getAxisAttr(), ln.getEpsilonAttr(), ln.getWeightOffsetAttr(),
      ln.getAccTypeAttr(), ln.getCastModeAttr(), ln.getEpsModeAttr(),
      ln.getRopeModeAttr(), ln.getRopeRoundingAttr());
}

/// Tries one quantized tensor `q` computed from the norm `op`'s result.
QuantRaise raiseCandidate(RewriterBase &rewriter, Operation *op, Value q,
                          function_ref<void(Operation *)> erase) {
  QuantRaise out;
  Value y = op->getResult(0);
  auto qType = cast<RankedTensorType>(q.getType());
  Operation *rootOp = q.getDefiningOp();
  out.at = rootOp;
  auto fail = [&](const Twine &why) {
    out.nearMiss = why.str();
    return out;
  };
  // The op's rule R4: a rotary embedding and a quantized result exclude
  // each other (rebuildQuantized would build an op the verifier refuses).
  // Checked before the trace, which it makes pointless.
  if (getNormRotary(op))
    return fail("the norm applies a rotary embedding (rope), which a "
                "quantized result cannot have");
  ExprArena arena;
  Tracer tracer(arena, qType);
  tracer.traceQuantization = true;
  Expr *root = tracer.eval(q, tracer.rootBinding());
  if (!root || !readsValue(root, y))
    return out;
  unsigned axis = isa<RMSNormOp>(op)
                      ? cast<RMSNormOp>(op).getNormalizedAxis()
                      : cast<LayerNormOp>(op).getNormalizedAxis();
  FloatType accType = isa<RMSNormOp>(op)
                          ? cast<RMSNormOp>(op).getAccumulationType()
                          : cast<LayerNormOp>(op).getAccumulationType();
  PolyContext polys;
  Canonicalizer canon(polys);
  QuantRecognizer recognizer(tracer, canon, y, axis, accType);
  std::optional<QuantForm> form = recognizer.run(root, out.nearMiss);
  if (!form)
    return out;
  // The cone: the traced ops between y (and the static scale) and q.
  std::optional<Value> scaleValue;
  if (form->scaleAtom)
    scaleValue = polys.getAtom(*form->scaleAtom).value;
  SmallVector<Value> stops = {y};
  if (scaleValue)
    stops.push_back(*scaleValue);
  llvm::SetVector<Operation *> cone, initProducers;
  collectCone(rootOp, tracer.tracedOps, stops, cone, initProducers);
  Block *block = op->getBlock();
  for (Operation *c : cone)
    if (c->getBlock() != block)
      return fail("the quantization spans several blocks");
  for (Operation *user : y.getUsers())
    if (!cone.contains(user))
      return fail("the norm's result is also used by '" +
                  user->getName().getStringRef() +
                  "'; the quantized op returns only the quantized value");

  // The op's scale_outs type (rows, and n / G per group).
  auto yType = cast<RankedTensorType>(y.getType());
  SmallVector<int64_t> scaleShape(yType.getShape().take_front(axis));
  ArrayRef<int64_t> normShape = yType.getShape().drop_front(axis);
  if (form->groupSize) {
    if (ShapedType::isDynamicShape(normShape) ||
        ShapedType::getNumElements(normShape) % form->groupSize != 0)
      return fail("groups of " + Twine(form->groupSize) +
                  " need static normalized dims that they divide");
    scaleShape.push_back(ShapedType::getNumElements(normShape) /
                         form->groupSize);
  }
  auto scaleType = RankedTensorType::get(scaleShape, rewriter.getF32Type());

  // Uses outside the cone: the dynamic scales (the op returns them) and
  // values that do not depend on y (1/s from a static scale).
  SmallVector<Value> scaleUses;
  for (Operation *c : cone) {
    for (Value res : c->getResults()) {
      if (res == q || llvm::all_of(res.getUsers(), [&](Operation *u) {
            return cone.contains(u);
          }))
        continue;
      bool isScales = false, dependsOnY = false;
      for (const auto &[key, expr] : tracer.memo) {
        if (key.first != res.getAsOpaquePointer() || !expr)
          continue;
        dependsOnY |= readsValue(expr, y);
        std::optional<Poly> p = canon.canon(expr);
        auto t = dyn_cast<RankedTensorType>(res.getType());
        SmallVector<unsigned> dims;
        for (const DimGroup &g : key.second)
          llvm::append_range(dims, g);
        if (form->scales && p && polys.equal(*p, *form->scales) && t &&
            t.getElementType().isF32() && dims == form->scaleDims &&
            canReshape(scaleType, t))
          isScales = true;
      }
      if (isScales) {
        scaleUses.push_back(res);
        continue;
      }
      if (!dependsOnY)
        continue;
      Operation *user = *llvm::find_if(
          res.getUsers(), [&](Operation *u) { return !cone.contains(u); });
      return fail("the intermediate '" + c->getName().getStringRef() +
                  "' is also used by '" + user->getName().getStringRef() +
                  "', and the norm op cannot provide its value");
    }
  }

  // The op goes where the norm is, or after a static scale computed later
  // when nothing uses the norm's other results before that.
  Operation *at = op;
  if (scaleValue)
    if (Operation *def = scaleValue->getDefiningOp())
      if (def->getBlock() == block && !def->isBeforeInBlock(op)) {
        at = rootOp;
        if (!def->isBeforeInBlock(at))
          return fail("the scale is computed after the quantization");
        for (Value r : op->getResults().drop_front())
          for (Operation *user : r.getUsers()) {
            Operation *anc = block->findAncestorOpInBlock(*user);
            if (!anc || anc->isBeforeInBlock(at))
              return fail("the scale is computed after the norm, and the "
                          "norm's other results are used before it");
          }
      }

  RankedTensorType opQType = yType.clone(form->type);
  if (!canReshape(opQType, qType))
    return fail("the quantized value's shape is no reshape of the norm's");

  // Create the quantized op.
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(at);
  Value input = op->getOperand(0);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, input);
  Value init = tensor::EmptyOp::create(rewriter, loc, sizes, form->type);
  Value scale, scaleInit;
  IntegerAttr groupAttr;
  FloatAttr scaleMinAttr;
  Type f32 = rewriter.getF32Type();
  if (form->scales) {
    SmallVector<OpFoldResult> scaleSizes(sizes.begin(), sizes.begin() + axis);
    if (form->groupSize) {
      scaleSizes.push_back(rewriter.getIndexAttr(scaleShape.back()));
      groupAttr = rewriter.getI64IntegerAttr(form->groupSize);
    }
    scaleInit = tensor::EmptyOp::create(rewriter, loc, scaleSizes, f32);
    scaleMinAttr = rewriter.getF32FloatAttr(form->floor);
  } else {
    // s for q = y · c · s^e: s itself (c = 1, e = −1), else 1 / (c · s^e).
    auto constF32 = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc, f32,
                                       rewriter.getF32FloatAttr(v));
    };
    if (!form->scaleAtom) {
      scale = constF32(1.0 / form->coefficient);
    } else {
      Value s = *scaleValue;
      bool direct = form->scaleExp == -1 && form->coefficient == 1.0;
      if (auto t = dyn_cast<RankedTensorType>(s.getType())) {
        if (direct) {
          scale = reshapeTo(rewriter, loc, s, RankedTensorType::get({}, f32));
        } else {
          SmallVector<Value> zeros(
              t.getRank(), arith::ConstantIndexOp::create(rewriter, loc, 0));
          s = tensor::ExtractOp::create(rewriter, loc, s, zeros);
        }
      } else if (direct) {
        scale = s;
      }
      if (!scale) {
        Value k = form->scaleExp == -1
                      ? Value(arith::DivFOp::create(
                            rewriter, loc, constF32(form->coefficient), s))
                      : Value(arith::MulFOp::create(
                            rewriter, loc, constF32(form->coefficient), s));
        scale = arith::DivFOp::create(rewriter, loc, constF32(1.0), k);
      }
    }
  }
  Operation *quantized = rebuildQuantized(rewriter, op, init, scale, scaleInit,
                                          groupAttr, scaleMinAttr);

  // Redirect the uses: q, the norm's other results, the scales.
  auto notInCone = [&](OpOperand &use) {
    return !cone.contains(use.getOwner()) && use.getOwner() != quantized;
  };
  rewriter.replaceUsesWithIf(
      q, reshapeTo(rewriter, loc, quantized->getResult(0), qType), notInCone);
  for (auto [from, to] : llvm::zip(op->getResults().drop_front(),
                                   quantized->getResults().drop_front()))
    rewriter.replaceAllUsesWith(from, to);
  if (scaleInit) {
    Value scales = quantized->getResults().back();
    for (Value s : scaleUses)
      rewriter.replaceUsesWithIf(
          s,
          reshapeTo(rewriter, loc, scales, cast<RankedTensorType>(s.getType())),
          notInCone);
  }

  // Erase what is dead: the quantization, the norm, then their inits.
  if (Operation *def = cast<DestinationStyleOpInterface>(op)
                           .getDpsInitOperand(0)
                           ->get()
                           .getDefiningOp())
    initProducers.insert(def);
  cone.insert(op);
  eraseDeadChain(cone, initProducers, erase);

  out.raised = quantized;
  std::string desc;
  llvm::raw_string_ostream os(desc);
  os << form->type << ", ";
  if (!form->scales)
    os << "static scale";
  else if (form->groupSize)
    os << "per-group scales, group_size " << form->groupSize;
  else
    os << "per-token scales";
  if (form->scales)
    os << ", scale_min " << formatDouble(form->floor);
  out.description = desc;
  return out;
}

} // namespace

QuantRaise raise::raiseNormQuantization(RewriterBase &rewriter, Operation *op,
                                        function_ref<void(Operation *)> erase) {
  QuantRaise out;
  if (!isa<RMSNormOp, LayerNormOp>(op) || op->getNumResults() == 0 ||
      getNormQuantization(op) ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return out;
  // Values already quantized by the op are not traced again.
  if (isQuantizedElementType(getElementTypeOrSelf(op->getResult(0))))
    return out;
  for (Value q : quantizedCandidates(op->getResult(0))) {
    QuantRaise r = raiseCandidate(rewriter, op, q, erase);
    if (r.raised)
      return r;
    if (out.nearMiss.empty() && !r.nearMiss.empty())
      out = r;
  }
  return out;
}
