//===- RecognizeNorms.cpp - RMSNorm / LayerNorm as polynomial identities --===//
//
// The normal forms, with X the normalized input, n the number of elements
// reduced, r = rstd:
//
//   RMSNorm   y = X · r · (γ + c)                 ms  = Σ X² / n
//   LayerNorm y = (X − μ) · r · (γ + c) + β       μ = Σ X / n,
//                                                 var = Σ (X − μ)² / n
//                                                    (or Σ X² / n − μ²)
//   r = (s + ε)^(-1/2)  (inside_sqrt)   or   (s^(1/2) + ε)^(-1) (outside)
//
// pRMSNorm is the RMSNorm form with ms = Σ_{j<k} X_j² / k, a Sum over the
// first k elements of the row (a reduction over a slice); the op's
// `partial` p is then chosen so that its k = ⌈p·n⌉ is exactly the IR's.
//
// each expanded into a Poly and compared with the candidate's Poly. Casts
// are checked separately: statistics in the accumulation type A, x (and γ,
// β) converted from the element type E, and either one rounding at the end
// (after_weight) or a rounding of X·r before γ and β are applied in E
// (before_weight). γ, β and the result may be wider than E (f32 γ with bf16
// x): before_weight then widens the rounded X·r to γ's type (PyTorch's
// promotion in Llama's `weight * hidden.to(input_dtype)`).
//
//===----------------------------------------------------------------------===//

#include "Recognize.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

std::optional<double> raise::partialFraction(int64_t k, int64_t n,
                                             bool &isF64) {
  if (k <= 0 || n <= 0 || k >= n)
    return std::nullopt;
  // The op computes k = ⌈p·n⌉ in double from the attribute's value, and
  // takes all n elements when p is 1.
  auto gives = [&](double p) {
    return p > 0.0 && p < 1.0 && std::ceil(p * double(n)) == double(k);
  };
  double exact = double(k) / double(n);
  float f = float(exact);
  for (float c : {f, std::nextafter(f, 0.0f), std::nextafter(f, 2.0f)})
    if (gives(double(c))) {
      isF64 = false;
      return double(c);
    }
  for (double c :
       {exact, std::nextafter(exact, 0.0), std::nextafter(exact, 2.0)})
    if (gives(c)) {
      isF64 = true;
      return c;
    }
  return std::nullopt;
}

bool raise::isRowBinding(const Tracer &tracer, const Binding &b,
                         unsigned axis) {
  SmallVector<unsigned> dims;
  for (const DimGroup &g : b) {
    if (g.size() > 1)
      return false;
    llvm::append_range(dims, g);
  }
  SmallVector<unsigned> expected;
  for (unsigned d = 0; d < axis; ++d)
    if (tracer.rootDimSize(d) != 1)
      expected.push_back(d);
  return dims == expected;
}

namespace {

/// What the equation search found.
struct Solution {
  bool isLayerNorm = false;
  double epsilon = 0.0, offset = 0.0;
  EpsMode epsMode = EpsMode::inside_sqrt;
  bool beforeWeight = false;
  std::optional<AtomId> gamma, beta;
  Poly mean, rstd;
};

class Recognizer {
public:
  Recognizer(Tracer &tracer, Canonicalizer &canon, Value root,
             const Expr *rootExpr, const RecognizeOptions &opts)
      : tracer(tracer), canon(canon), ctx(canon.context()), root(root),
        rootExpr(rootExpr), opts(opts) {}

  Recognition run();

private:
  Recognition fail(const Twine &why, bool near) {
    Recognition r;
    r.reason = why.str();
    r.nearMiss = near;
    return r;
  }
  /// `varInvN`: the variance's 1/n when it differs from the mean's (only
  /// to name Bessel's correction in a remark; nothing is raised with it).
  std::optional<Solution> solve(const Poly &x, const Poly &invN, bool layerNorm,
                                const Poly *varInvN = nullptr);
  std::optional<Solution> solveWith(const Poly &stat, const Poly &center,
                                    const Poly &mean, bool isLayerNorm);
  bool isColumnAtom(AtomId id) const;
  bool checkA(const Expr *e) const;
  bool checkE(const Expr *e) const;
  bool checkTopE(const Expr *e, Type topType) const;

  Tracer &tracer;
  Canonicalizer &canon;
  PolyContext &ctx;
  Value root;
  const Expr *rootExpr;
  RecognizeOptions opts;

  SmallVector<unsigned> normDims;
  /// The reductions cover the first `prefix` elements of the row (0: all).
  int64_t prefix = 0;
  Type accType, elemType;
  Poly y;
  SmallVector<double> epsilons;
  SmallVector<AtomId> columns;
  /// The trace has a max(s, 0) of a statistic (Tracer::clampedAtZero).
  bool hasClamp = false;
};

} // namespace

bool Recognizer::isColumnAtom(AtomId id) const {
  const Atom &a = ctx.getAtom(id);
  if (a.kind != AtomKind::Leaf)
    return false;
  SmallVector<unsigned> dims;
  for (const DimGroup &g : a.binding) {
    if (g.size() > 1)
      return false;
    llvm::append_range(dims, g);
  }
  return dims == normDims;
}

// Statistics and everything else under the rounding: computed in A, with
// values of type E only as converted tensors (x, γ, β) or the residual sum.
bool Recognizer::checkA(const Expr *e) const {
  switch (e->kind) {
  case ExprKind::Leaf:
    return e->type == accType;
  case ExprKind::Scalar:
  case ExprKind::Const:
  case ExprKind::Extent:
    return true;
  case ExprKind::Ext:
    // Or a narrower tensor widened exactly: γ/β kept in f16 while x is an
    // f32 tensor (onnx's SkipSimplifiedLayerNormalization with stash_type
    // f32 normalizes the f32 sum); whether it is γ/β is the equation's.
    return e->type == accType &&
           (checkE(e->operands[0]) ||
            (e->operands[0]->kind == ExprKind::Leaf &&
             isExactlyWidened(e->operands[0]->type, elemType)));
  case ExprKind::Trunc:
    return false;
  default:
    return e->type == accType &&
           llvm::all_of(e->operands, [&](const Expr *o) { return checkA(o); });
  }
}

// f16 and bf16 values are all f32 (and f64) values: widening is exact.
bool raise::isExactlyWidened(Type narrow, Type wide) {
  auto n = dyn_cast<FloatType>(narrow);
  auto w = dyn_cast<FloatType>(wide);
  return n && w && n.getWidth() < w.getWidth() && w.getWidth() >= 32 &&
         n.getWidth() >= 16;
}

// A value of type E that the op reads whole: a tensor, however it was
// computed before the norm (a matmul's f32 accumulator rounded to E, an
// earlier norm's output, a transpose to heads), or the residual add of two
// such tensors, rounded to E. Its rounding points are x's, not the norm's;
// a rounding inside the norm's own computation is an opaque Trunc atom in
// the Poly, which the equation then fails on.
bool Recognizer::checkE(const Expr *e) const {
  auto isTensorE = [&](const Expr *o) {
    return o->type == elemType && (o->kind == ExprKind::Leaf || o->origin);
  };
  if (e->kind == ExprKind::Const || isTensorE(e))
    return true;
  return e->kind == ExprKind::Add && e->type == elemType &&
         llvm::all_of(e->operands, isTensorE);
}

// before_weight: γ and β applied in `topType` (E, or γ's wider type) to
// the normalized value rounded to E (and widened to `topType`).
bool Recognizer::checkTopE(const Expr *e, Type topType) const {
  switch (e->kind) {
  case ExprKind::Leaf:
    return e->type == topType;
  case ExprKind::Const:
    return true;
  case ExprKind::Trunc:
    return e->type == elemType && checkA(e->operands[0]);
  case ExprKind::Ext:
    return e->type == topType && e->operands[0]->kind == ExprKind::Trunc &&
           checkTopE(e->operands[0], topType);
  case ExprKind::Add:
  case ExprKind::Sub:
  case ExprKind::Mul:
    return e->type == topType && llvm::all_of(e->operands, [&](auto *o) {
             return checkTopE(o, topType);
           });
  default:
    return false;
  }
}

std::optional<Solution> Recognizer::solveWith(const Poly &stat,
                                              const Poly &center,
                                              const Poly &mean,
                                              bool isLayerNorm) {
  for (EpsMode mode : {EpsMode::inside_sqrt, EpsMode::outside_sqrt}) {
    for (double eps : epsilons) {
      std::optional<Poly> rstd;
      if (mode == EpsMode::inside_sqrt) {
        rstd = ctx.pow(ctx.add(stat, Poly::constant(eps)), Rat::get(-1, 2));
      } else {
        auto root = ctx.pow(stat, Rat::get(1, 2));
        if (root)
          rstd = ctx.pow(ctx.add(*root, Poly::constant(eps)), Rat::get(-1));
      }
      if (!rstd)
        continue;
      Poly core = ctx.mul(center, *rstd);
      if (core.isZero())
        continue;
      // Either y is built from `core` directly (after_weight), or from a
      // rounding of it (before_weight).
      SmallVector<std::pair<Poly, bool>> targets = {{core, false}};
      for (const auto &[m, c] : y.terms)
        for (const auto &[a, e] : m)
          if (ctx.getAtom(a).kind == AtomKind::Trunc &&
              ctx.equal(ctx.getAtom(a).body, core))
            targets.push_back({Poly::atom(a), true});
      for (const auto &[target, before] : targets) {
        const auto &[m0, k0] = *target.terms.begin();
        SmallVector<std::optional<AtomId>> gammas = {std::nullopt};
        for (AtomId c : columns)
          gammas.push_back(c);
        for (std::optional<AtomId> gamma : gammas) {
          // The monomial of core·γ: its coefficient says γ is there once.
          Monomial mg = m0;
          if (gamma) {
            Poly unit;
            unit.terms[m0] = 1.0;
            mg = ctx.mul(Poly::atom(*gamma), unit).terms.begin()->first;
          }
          double offset = 0.0;
          if (gamma) {
            if (!coefficientsEqual(y.coefficient(mg), k0))
              continue;
            offset = y.coefficient(m0) / k0;
          } else if (!coefficientsEqual(y.coefficient(m0), k0)) {
            continue;
          }
          // γ + offset, or 1 without γ.
          Poly weight = gamma ? ctx.add(Poly::constant(offset),
                                        Poly::atom(*gamma))
                              : Poly::constant(1.0);
          Poly scaled = ctx.mul(target, weight);
          SmallVector<std::optional<AtomId>> betas = {std::nullopt};
          if (isLayerNorm)
            for (AtomId c : columns)
              if (c != gamma)
                betas.push_back(c);
          for (std::optional<AtomId> beta : betas) {
            Poly expected =
                beta ? ctx.add(scaled, Poly::atom(*beta)) : scaled;
            if (!ctx.equal(y, expected))
              continue;
            Solution s;
            s.isLayerNorm = isLayerNorm;
            s.epsilon = eps;
            s.offset = std::fabs(offset) < 1e-12 ? 0.0 : offset;
            s.epsMode = mode;
            s.beforeWeight = before && (gamma || beta);
            s.gamma = gamma;
            s.beta = beta;
            s.mean = mean;
            s.rstd = *rstd;
            return s;
          }
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<Solution> Recognizer::solve(const Poly &x, const Poly &invN,
                                          bool layerNorm, const Poly *varInvN) {
  auto sumOf = [&](const Poly &body) {
    return ctx.sum(normDims, body, prefix);
  };
  // There is no LayerNorm over a prefix of the row.
  if (layerNorm && prefix)
    return std::nullopt;
  if (!layerNorm) {
    Poly ms = ctx.mul(invN, sumOf(ctx.mul(x, x)));
    if (auto s = solveWith(ms, x, Poly(), /*isLayerNorm=*/false))
      return s;
  }
  if (layerNorm) {
    Poly mean = ctx.mul(invN, sumOf(x));
    Poly centered = ctx.sub(x, mean);
    Poly var =
        ctx.mul(varInvN ? *varInvN : invN, sumOf(ctx.mul(centered, centered)));
    if (auto s = solveWith(var, centered, mean, /*isLayerNorm=*/true))
      return s;
    if (varInvN)
      return std::nullopt;
    // The one-pass spelling E[x²] − E[x]²: equal in exact arithmetic; the
    // op computes it stably.
    Poly onePass =
        ctx.sub(ctx.mul(invN, sumOf(ctx.mul(x, x))), ctx.mul(mean, mean));
    if (auto s = solveWith(onePass, centered, mean, /*isLayerNorm=*/true))
      return s;
    // Flax's fast variance max(0, E[x²] − E[x]²): the clamp only removes a
    // negative rounding error (the exact value is ≥ 0), so this too is the
    // variance in exact arithmetic. With maxnumf a NaN variance becomes 0,
    // but it is NaN only when x is, and x − μ then makes y NaN either way.
    if (hasClamp) {
      for (bool nanKeeps : {true, false}) {
        Atom clamp{AtomKind::Max};
        clamp.body = onePass;
        clamp.other = Poly();
        clamp.nanKeeps = nanKeeps;
        Poly clamped = Poly::atom(ctx.intern(std::move(clamp)));
        if (auto s = solveWith(clamped, centered, mean, /*isLayerNorm=*/true))
          return s;
      }
    }
  }
  return std::nullopt;
}

/// The tensors x and r of a residual add x + r rounded to E: added in E,
/// or widened, added in a type of at least 2p + 2 bits of precision (p:
/// E's) and rounded to E once, which gives the same value (docs/design.md,
/// "Element-type rounding"; how PyTorch's CPU kernels add bf16 tensors).
static std::optional<std::pair<Value, Value>> residualAdd(const Expr *xs,
                                                          Type elemType) {
  const Expr *add = xs;
  bool widened = add->kind == ExprKind::Trunc;
  if (widened)
    add = add->operands[0];
  if (xs->type != elemType || add->kind != ExprKind::Add)
    return std::nullopt;
  if (widened) {
    auto wide = dyn_cast<FloatType>(add->type);
    auto narrow = dyn_cast<FloatType>(elemType);
    if (!wide || !narrow ||
        wide.getFPMantissaWidth() < 2 * narrow.getFPMantissaWidth() + 2)
      return std::nullopt;
  }
  Value tensors[2];
  for (auto [i, addend] : llvm::enumerate(add->operands)) {
    const Expr *operand = addend;
    if (widened) {
      if (operand->kind != ExprKind::Ext)
        return std::nullopt;
      operand = operand->operands[0];
    }
    if (operand->type != elemType || !operand->origin)
      return std::nullopt;
    tensors[i] = operand->origin;
  }
  return std::make_pair(tensors[0], tensors[1]);
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

Recognition Recognizer::run() {
  // Every node, and the reductions among them.
  SmallVector<const Expr *> nodes, sums;
  llvm::DenseSet<const Expr *> seen;
  SmallVector<const Expr *> stack = {rootExpr};
  while (!stack.empty()) {
    const Expr *e = stack.pop_back_val();
    if (!e || !seen.insert(e).second)
      continue;
    nodes.push_back(e);
    if (e->kind == ExprKind::Sum)
      sums.push_back(e);
    if (e->kind == ExprKind::Max)
      hasClamp = true;
    llvm::append_range(stack, e->operands);
  }
  if (sums.empty())
    return Recognition();

  // A square root of a statistic is what makes a failure a near miss worth
  // a remark; softmax, sums over a batch and the like are not.
  bool looksLikeNorm = false;
  if (std::optional<Poly> whole = canon.canon(rootExpr)) {
    SmallVector<AtomId> atoms;
    ctx.collectAtoms(*whole, atoms);
    SmallVector<const Poly *> polys = {&*whole};
    for (AtomId a : atoms)
      polys.push_back(&ctx.getAtom(a).body);
    for (const Poly *p : polys)
      for (const auto &[m, c] : p->terms)
        for (const auto &[a, e] : m)
          if (ctx.getAtom(a).kind == AtomKind::Root ||
              (ctx.getAtom(a).kind == AtomKind::Sum && !e.isInteger()))
            looksLikeNorm = true;
  }

  // A reduction into a bare tensor.empty adds to undefined values: say so,
  // on the reduction, rather than that the algebra does not match.
  if (!tracer.uninitializedReductions.empty()) {
    Recognition r =
        fail("the reduction's accumulator is a bare tensor.empty that "
             "nothing initializes (no linalg.fill): the sum starts from "
             "undefined values",
             looksLikeNorm);
    r.at = tracer.uninitializedReductions.front();
    return r;
  }

  // One set of reduced dims, trailing.
  normDims.assign(sums.front()->sumDims.begin(), sums.front()->sumDims.end());
  prefix = sums.front()->prefix;
  for (const Expr *s : sums)
    if (s->sumDims != sums.front()->sumDims)
      return fail("reductions over different dims", looksLikeNorm);
  for (const Expr *s : sums)
    if (s->prefix != prefix)
      return fail("reductions over different parts of the row", looksLikeNorm);
  unsigned rank = tracer.rootRank();
  if (normDims.empty())
    return fail("a reduction over no dims", looksLikeNorm);
  unsigned axis = normDims.front();
  for (unsigned d = axis; d < rank; ++d)
    if (tracer.rootDimSize(d) != 1 && !llvm::is_contained(normDims, d)) {
      std::string dims;
      llvm::raw_string_ostream os(dims);
      llvm::interleaveComma(normDims, os);
      return fail("reduction over dims [" + dims + "] of a rank-" +
                      Twine(rank) +
                      " tensor: the norm ops normalize trailing dims only",
                  looksLikeNorm);
    }

  accType = sums.front()->type;
  for (const Expr *s : sums)
    if (s->type != accType)
      // torch-mlir's var / var_mean compute the variance in f64 (and round
      // it to f32) beside an f32 mean: two accumulation types, where the
      // ops have one.
      return fail("reductions in different types (" + typeString(accType) +
                      " and " + typeString(s->type) +
                      "); the norm ops compute every statistic in one "
                      "accumulation type",
                  looksLikeNorm);
  if (!accType.isF32() && !accType.isF64())
    return fail("statistics accumulated in " + typeString(accType) +
                    "; the norm ops accumulate in f32 or f64",
                looksLikeNorm);

  // After_weight rounds once at the end: peel it.
  const Expr *top = rootExpr;
  bool topTrunc = top->kind == ExprKind::Trunc;
  if (topTrunc)
    top = top->operands[0];
  std::optional<Poly> yPoly = canon.canon(top);
  if (!yPoly)
    return fail("no canonical form (a non-constant or unsupported exponent)",
                false);
  y = *yPoly;

  // n = Π extents of the normalized dims.
  Poly n = Poly::constant(1.0);
  bool staticN = true;
  int64_t rowSize = 1;
  for (unsigned d : normDims) {
    int64_t size = tracer.rootDimSize(d);
    if (!ShapedType::isDynamic(size) &&
        llvm::MulOverflow(rowSize, size, rowSize))
      rowSize = 0; // no fraction is looked for
    if (ShapedType::isDynamic(size)) {
      staticN = false;
      Atom a{AtomKind::Extent};
      a.dim = d;
      n = ctx.mul(n, Poly::atom(ctx.intern(std::move(a))));
    } else {
      n = ctx.scale(n, double(size));
    }
  }
  // pRMSNorm: the statistic is over the first k elements.
  if (prefix)
    n = Poly::constant(double(prefix));
  std::optional<Poly> invN = ctx.pow(n, Rat::get(-1));
  if (!invN)
    return fail("no canonical form", false);

  // ε: the constant term of some root's base (or 0).
  SmallVector<AtomId> allAtoms;
  ctx.collectAtoms(y, allAtoms);
  epsilons = {0.0};
  bool scalarInRoot = false;
  for (AtomId a : allAtoms) {
    const Atom &atom = ctx.getAtom(a);
    if (atom.kind != AtomKind::Root)
      continue;
    double eps = atom.body.constantTerm();
    if (eps > 0 && std::isfinite(eps) && !llvm::is_contained(epsilons, eps))
      epsilons.push_back(eps);
    SmallVector<AtomId> inner;
    ctx.collectAtoms(atom.body, inner);
    for (AtomId i : inner)
      if (ctx.getAtom(i).kind == AtomKind::Scalar)
        scalarInRoot = true;
  }
  for (const auto &[m, c] : y.terms)
    for (const auto &[a, e] : m)
      if (isColumnAtom(a) && !llvm::is_contained(columns, a))
        columns.push_back(a);

  // X: what the reductions reduce (x², x, or (x − μ)²).
  SmallVector<const Expr *> candidates;
  auto addCandidate = [&](const Expr *e) {
    if (e && !llvm::is_contained(candidates, e))
      candidates.push_back(e);
  };
  // A constant factor (Σ x²/n, the mean accumulated directly) is no part
  // of x.
  auto isConstant = [&](const Expr *e) {
    auto p = canon.canon(e);
    return p && (p->isZero() || (p->terms.size() == 1 &&
                                 p->terms.begin()->first.empty()));
  };
  auto stripScale = [&](const Expr *e) {
    while ((e->kind == ExprKind::Mul || e->kind == ExprKind::Div) &&
           (isConstant(e->operands[1]) ||
            (e->kind == ExprKind::Mul && isConstant(e->operands[0]))))
      e = isConstant(e->operands[1]) ? e->operands[0] : e->operands[1];
    return e;
  };
  for (const Expr *s : sums) {
    const Expr *body = stripScale(s->operands[0]);
    const Expr *base = nullptr;
    if (body->kind == ExprKind::Mul) {
      auto a = canon.canon(body->operands[0]);
      auto b = canon.canon(body->operands[1]);
      if (a && b && ctx.equal(*a, *b))
        base = body->operands[0];
    } else if (body->kind == ExprKind::Pow) {
      auto e = canon.canon(body->operands[1]);
      if (e && ctx.equal(*e, Poly::constant(2.0)))
        base = body->operands[0];
    }
    if (!base)
      base = body;
    addCandidate(base);
    const Expr *stripped = base;
    while (stripped->kind == ExprKind::Ext)
      stripped = stripped->operands[0];
    if (stripped->kind == ExprKind::Sub)
      addCandidate(stripped->operands[0]);
  }

  // LayerNorm first: LN(x) is also RMSNorm(x − μ), and x − μ is no tensor
  // to raise (nor what the user wrote).
  std::optional<Solution> solution;
  const Expr *xExpr = nullptr;
  for (bool layerNorm : {true, false}) {
    for (const Expr *candidate : candidates) {
      auto x = canon.canon(candidate);
      if (!x || x->isZero())
        continue;
      if ((solution = solve(*x, *invN, layerNorm))) {
        xExpr = candidate;
        break;
      }
    }
    if (solution)
      break;
  }
  if (!solution) {
    if (scalarInRoot)
      return fail("ε is not a constant", true);
    if (!tracer.dynamicRowSlices.empty()) {
      int64_t k = tracer.dynamicRowSlices.front().second;
      return fail("the sum of squares covers the first " + Twine(k) +
                      " elements of a row of dynamic size; no pRMSNorm "
                      "fraction p gives k = ⌈p·n⌉ = " +
                      Twine(k) + " for every n",
                  true);
    }
    // Would a different 1/n have matched? Then say so.
    if (staticN) {
      SmallVector<double> tried;
      // Copies: solving interns new atoms, which moves the atom table.
      std::vector<Poly> polys = {y};
      for (AtomId a : allAtoms)
        if (ctx.getAtom(a).kind == AtomKind::Root)
          polys.push_back(ctx.getAtom(a).body);
      for (const Poly &p : polys)
        for (const auto &[m, c] : p.terms)
          for (const auto &[a, e] : m) {
            if (ctx.getAtom(a).kind != AtomKind::Sum || e.toDouble() <= 0)
              continue;
            double k = std::pow(std::fabs(c), 1.0 / e.toDouble());
            if (!std::isfinite(k) || k == 0 ||
                coefficientsEqual(k, invN->constantTerm()) ||
                llvm::is_contained(tried, k))
              continue;
            tried.push_back(k);
            for (const Expr *candidate : candidates) {
              auto x = canon.canon(candidate);
              if (x && !x->isZero() &&
                  (solve(*x, Poly::constant(k), true) ||
                   solve(*x, Poly::constant(k), false))) {
                std::string msg;
                llvm::raw_string_ostream os(msg);
                os << "the mean scales the sum by " << llvm::format("%g", k)
                   << " (1/" << llvm::format("%g", 1.0 / k)
                   << ") but the reduction covers "
                   << llvm::format("%g", 1.0 / invN->constantTerm())
                   << " elements";
                return fail(msg, true);
              }
            }
          }
    }
    // The unbiased variance (÷ (n − 1)): torch.std / torch.var default to
    // it, and hand-written LayerNorms (the Annotated Transformer's) use it.
    if (std::optional<Poly> invN1 =
            ctx.pow(ctx.sub(n, Poly::constant(1.0)), Rat::get(-1))) {
      for (const Expr *candidate : candidates) {
        auto x = canon.canon(candidate);
        if (x && !x->isZero() && solve(*x, *invN, true, &*invN1))
          return fail("the variance divides by n − 1 (Bessel's correction, "
                      "torch.std / torch.var's default); the norm ops "
                      "normalize by the biased variance (÷ n)",
                      true);
      }
    }
    if (hasClamp)
      return fail("a max(·, 0) of a statistic that is not the one-pass "
                  "variance E[x²] − E[x]² of the normalized input",
                  true);
    return fail("not a RMSNorm or LayerNorm form", looksLikeNorm);
  }
  if ((solution->isLayerNorm && !opts.layerNorm) ||
      (!solution->isLayerNorm && !opts.rmsNorm))
    return Recognition();

  // x: the reductions' operand, without its conversion to A; its type is E.
  const Expr *xs = xExpr;
  while (xs->kind == ExprKind::Ext)
    xs = xs->operands[0];
  // Casts: where the computation rounds must be what the op does.
  Type rootElem = getElementTypeOrSelf(root.getType());
  elemType = xs->type;
  // x is a tensor the op reads (or the residual add of two), whatever
  // computed it; its rounding points are then x's.
  NormMatch m;
  if (auto operands = residualAdd(xs, elemType)) {
    std::tie(m.input, m.residual) = *operands;
    m.sum = xs->origin;
  } else {
    m.input = xs->origin;
  }
  if (!m.input)
    return fail("the normalized input is computed inside a fused body, not "
                "a tensor the op can take",
                true);
  bool typesOk;
  if (solution->beforeWeight)
    typesOk = checkTopE(top, top->type);
  else if (topTrunc)
    typesOk = top->type == accType && checkA(top);
  else
    typesOk = rootElem == accType && checkA(rootExpr);
  if (!typesOk)
    return fail("the casts do not round where a norm op would (" +
                    typeString(rootElem) + " result, statistics in " +
                    typeString(accType) + ")",
                true);

  m.isLayerNorm = solution->isLayerNorm;
  m.axis = axis;
  m.epsilon = solution->epsilon;
  m.weightOffset = solution->offset;
  m.epsMode = solution->epsMode;
  m.castMode = solution->beforeWeight ? CastMode::before_weight
                                      : CastMode::after_weight;
  m.mean = solution->mean;
  m.rstd = solution->rstd;
  if (prefix) {
    std::optional<double> p = partialFraction(prefix, rowSize, m.partialF64);
    if (!p)
      return fail("the sum of squares covers the first " + Twine(prefix) +
                      " of " + Twine(rowSize) +
                      " elements; no f32 or f64 pRMSNorm fraction p gives "
                      "⌈p·n⌉ = " +
                      Twine(prefix),
                  true);
    m.partial = *p;
  }
  m.accType = cast<FloatType>(accType);
  m.elemType = dyn_cast<FloatType>(elemType);
  m.resultType = dyn_cast<FloatType>(rootElem);
  // An A-typed x normalized in A and rounded once at the end to a narrower
  // type (onnx's SkipSimplifiedLayerNormalization normalizes its f32 sum
  // and returns f16; IREE fuses that truncf into the last generic): the op
  // in A, then the same truncf.
  if (topTrunc && !solution->beforeWeight && m.elemType &&
      elemType == accType && isExactlyWidened(rootElem, elemType)) {
    m.truncatedResult = m.resultType;
    m.resultType = m.elemType;
  }
  if (getElementTypeOrSelf(m.input.getType()) != elemType || !m.elemType ||
      !isWidenedElementType(m.resultType, elemType, m.accType))
    return fail("the result is " + typeString(rootElem) +
                    " but the input is " +
                    typeString(getElementTypeOrSelf(m.input.getType())),
                true);
  // A dynamic n must be the extent of the tensor being normalized.
  for (Value v : tracer.extentSources) {
    auto it = tracer.memo.find({v.getAsOpaquePointer(), tracer.rootBinding()});
    if (v != m.input && v != m.residual && v != root &&
        (it == tracer.memo.end() || !it->second))
      return fail("n is the size of a tensor that is not normalized", true);
  }
  auto weightValue = [&](std::optional<AtomId> id) -> Value {
    return id ? ctx.getAtom(*id).value : Value();
  };
  m.gamma = weightValue(solution->gamma);
  m.beta = weightValue(solution->beta);
  // γ/β narrower than x were read widened (checkA): the raise widens them
  // to x's type (exact), as the IR does.
  if (!solution->beforeWeight)
    for (Value w : {m.gamma, m.beta})
      if (w && isExactlyWidened(getElementTypeOrSelf(w.getType()), elemType))
        m.widenParams = true;
  for (Value w : {m.gamma, m.beta})
    if (w && !m.widenParams &&
        !isWidenedElementType(getElementTypeOrSelf(w.getType()), elemType,
                              m.accType))
      return fail("γ/β are " + typeString(getElementTypeOrSelf(w.getType())) +
                      " but the input is " + typeString(elemType) +
                      "; the norm ops take them in the input's type or a "
                      "wider one up to the accumulation type",
                  true);
  if (m.widenParams)
    for (Value w : {m.gamma, m.beta})
      if (w && !isExactlyWidened(getElementTypeOrSelf(w.getType()), elemType) &&
          getElementTypeOrSelf(w.getType()) != elemType)
        return fail("γ/β are " + typeString(getElementTypeOrSelf(w.getType())) +
                        " but the input is " + typeString(elemType),
                    true);
  if (!m.widenParams && m.gamma && m.beta &&
      getElementTypeOrSelf(m.gamma.getType()) !=
          getElementTypeOrSelf(m.beta.getType()))
    return fail("γ and β have different element types", true);
  Recognition r;
  r.match = m;
  return r;
}

Recognition raise::recognizeNorm(Tracer &tracer, Canonicalizer &canon,
                                 Value root, const Expr *rootExpr,
                                 const RecognizeOptions &opts) {
  return Recognizer(tracer, canon, root, rootExpr, opts).run();
}
