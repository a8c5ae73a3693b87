//===- GradRecognizer.cpp - raising the norms' backward ---------*- C++ -*-===//
//
// Recognizes the backward of RMSNorm and LayerNorm (DESIGN.md §9) as
// autograd decomposes it and replaces it by norm.rms_norm_grad /
// norm.layer_norm_grad. The parts are found algebraically, like the
// forward (RecognizeNorms.cpp): dx is a tensor of x's shape, dγ and dβ
// column sums, each evaluated symbolically over x's index space and
// compared, as a polynomial, with the op's formula for a guess of dy, x,
// γ and the statistics (saved row tensors, or recomputed from x with an
// ε taken from a root's constant term; GradGuesses.h), both sides
// linearized first (GradLinearizer.h). pRMSNorm's backward reaches the
// first k inputs through autograd's slice_backward, which the tracer reads
// as an indicator [j < k] (Tracer::traceSliceBackward); k is the one the
// part shows, and the op gets the `partial` whose ⌈p·n⌉ is k.
//
//===----------------------------------------------------------------------===//

#include "GradGuesses.h"
#include "GradLinearizer.h"
#include "Recognize.h"

#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

namespace {

//===----------------------------------------------------------------------===//
// The gradient's formulas
//===----------------------------------------------------------------------===//

/// The norm's input: x, or the residual sum x + r recomputed in the
/// backward.
static Poly inputOf(const Pieces &p) {
  Poly x = Poly::atom(p.x);
  if (p.residual)
    x.terms[Poly::atom(*p.residual).terms.begin()->first] = 1.0;
  return x;
}

/// Builds the formulas of DESIGN.md §9 for a guess, over x's index space.
class Formulas {
public:
  Formulas(PolyContext &ctx, Linearizer &lin, const Pieces &p,
           ArrayRef<unsigned> normDims, ArrayRef<unsigned> rowDims,
           const Poly &invN)
      : ctx(ctx), lin(lin), p(p), normDims(normDims), rowDims(rowDims),
        invN(invN), prefix(p.prefix.value_or(0)) {}

  /// x̂ and r; nullopt when they have no canonical form.
  bool init() {
    // pRMSNorm only: LayerNorm has no partial form.
    if (prefix && p.layerNorm)
      return false;
    Poly x = inputOf(p);
    Poly mean =
        p.mean ? Poly::atom(*p.mean) : ctx.mul(invN, lin.sum(normDims, x));
    centered = p.layerNorm ? ctx.sub(x, mean) : x;
    if (p.rstd && p.epsMode == EpsMode::outside_sqrt) {
      if (!initSavedOutside())
        return false;
    } else if (p.rstd) {
      rstd = Poly::atom(*p.rstd);
      projectionFactor = rstd;
    } else {
      // pRMSNorm's mean of squares runs over the first k elements.
      Poly var =
          prefix
              ? ctx.mul(Poly::constant(1.0 / double(prefix)),
                        lin.sum(normDims, ctx.mul(centered, centered), prefix))
              : ctx.mul(invN, lin.sum(normDims, ctx.mul(centered, centered)));
      Poly eps = Poly::constant(p.epsilon);
      if (p.epsMode == EpsMode::inside_sqrt) {
        std::optional<Poly> r = ctx.pow(ctx.add(var, eps), Rat::get(-1, 2));
        if (!r)
          return false;
        rstd = *r;
        projectionFactor = rstd;
      } else {
        // r = 1/(σ + ε): d r / d σ = −r², where the inside form has
        // −r³·σ; the op scales the projection term by c = (σ + ε)/σ
        // (NormGradOps.td), so its r·c is 1/σ.
        std::optional<Poly> sigma = ctx.pow(var, Rat::get(1, 2));
        if (!sigma)
          return false;
        Poly denominator = ctx.add(*sigma, eps);
        std::optional<Poly> r = ctx.pow(denominator, Rat::get(-1));
        std::optional<Poly> invSigma = ctx.pow(var, Rat::get(-1, 2));
        // r² as the division's backward spells it, −g/(d·d): the square
        // is multiplied out before the inverse, another atom than r·r.
        rstdSquared = ctx.pow(ctx.mul(denominator, denominator), Rat::get(-1));
        if (!r || !invSigma || !rstdSquared)
          return false;
        rstd = *r;
        projectionFactor = *invSigma;
      }
    }
    xhat = ctx.mul(centered, rstd);
    dyhat = Poly::atom(p.dy);
    if (p.gamma)
      dyhat = ctx.mul(
          dyhat, ctx.add(Poly::atom(*p.gamma), Poly::constant(p.weightOffset)));
    return true;
  }

  /// r and 1/σ from saved statistics with ε outside the square root.
  bool initSavedOutside() {
    Poly saved = Poly::atom(*p.rstd);
    if (std::isnan(p.epsilon)) {
      // Enough for dγ, which is all matches() asks of it.
      std::optional<Poly> r = p.saved == Pieces::Saved::Denominator
                                  ? ctx.pow(saved, Rat::get(-1))
                                  : std::optional<Poly>(saved);
      if (!r || p.saved == Pieces::Saved::Sigma)
        return false;
      rstd = *r;
      return true;
    }
    Poly eps = Poly::constant(p.epsilon);
    std::optional<Poly> r, invSigma;
    switch (p.saved) {
    case Pieces::Saved::Rstd:
      r = saved;
      if (std::optional<Poly> d = ctx.pow(saved, Rat::get(-1)))
        invSigma = ctx.pow(ctx.sub(*d, eps), Rat::get(-1));
      break;
    case Pieces::Saved::Sigma: {
      Poly d = ctx.add(saved, eps);
      r = ctx.pow(d, Rat::get(-1));
      rstdSquared = ctx.pow(ctx.mul(d, d), Rat::get(-1));
      invSigma = ctx.pow(saved, Rat::get(-1));
      break;
    }
    case Pieces::Saved::Denominator:
      r = ctx.pow(saved, Rat::get(-1));
      invSigma = ctx.pow(p.sigma ? Poly::atom(*p.sigma) : ctx.sub(saved, eps),
                         Rat::get(-1));
      break;
    }
    if (!r || !invSigma || (p.saved == Pieces::Saved::Sigma && !rstdSquared))
      return false;
    rstd = *r;
    projectionFactor = *invSigma;
    return true;
  }

  /// The number of spellings of dx (dxTerms' `spelling`): r² as r·r, and
  /// with ε outside the square root also as 1/(d·d).
  unsigned dxSpellings() const { return rstdSquared ? 2 : 1; }

  /// dx's terms: r·dŷ, −r·mean(dŷ) (LayerNorm), −r·x̂·mean(dŷ·x̂). For
  /// pRMSNorm the last is [j < k]·r·x̂·(1/k)·Σ_{i<n}(dŷ·x̂) (NormGradOps.td):
  /// the statistic's gradient reaches the first k inputs only.
  SmallVector<Poly, 3> dxTerms(unsigned spelling = 0) {
    SmallVector<Poly, 3> terms = {ctx.mul(rstd, dyhat)};
    if (p.layerNorm)
      terms.push_back(ctx.scale(
          ctx.mul(rstd, ctx.mul(invN, lin.sum(normDims, dyhat))), -1.0));
    Poly scale = invN;
    if (prefix) {
      Atom mask{AtomKind::Indicator};
      mask.sumDims.assign(normDims.begin(), normDims.end());
      mask.prefix = prefix;
      scale = ctx.scale(Poly::atom(ctx.intern(std::move(mask))),
                        1.0 / double(prefix));
    }
    if (spelling == 1) {
      Poly proj = ctx.mul(scale, lin.sum(normDims, ctx.mul(dyhat, centered)));
      terms.push_back(ctx.scale(ctx.mul(ctx.mul(projectionFactor, *rstdSquared),
                                        ctx.mul(centered, proj)),
                                -1.0));
      return terms;
    }
    Poly proj = ctx.mul(scale, lin.sum(normDims, ctx.mul(dyhat, xhat)));
    terms.push_back(
        ctx.scale(ctx.mul(projectionFactor, ctx.mul(xhat, proj)), -1.0));
    return terms;
  }
  Poly dgamma() { return lin.sum(rowDims, ctx.mul(Poly::atom(p.dy), xhat)); }
  Poly dbeta() { return lin.sum(rowDims, Poly::atom(p.dy)); }

private:
  PolyContext &ctx;
  Linearizer &lin;
  const Pieces &p;
  ArrayRef<unsigned> normDims, rowDims;
  Poly invN;
  /// pRMSNorm's k (0: the whole row).
  int64_t prefix;
  Poly centered, rstd, xhat, dyhat;
  std::optional<Poly> rstdSquared;
  /// The factor of dx's projection term: r, or r·c = 1/σ with ε outside
  /// the square root.
  Poly projectionFactor;
};

enum class Part { DX, DGamma, DBeta };

/// A part found in the IR.
struct Found {
  Value value;
  Part part;
  llvm::SetVector<Operation *> traced;
};

//===----------------------------------------------------------------------===//
// The recognizer
//===----------------------------------------------------------------------===//

class GradRecognizer {
public:
  GradRecognizer(RewriterBase &rewriter, const RecognizeOptions &opts)
      : rewriter(rewriter), opts(opts), lin(ctx) {}

  GradRaise run(Value v, function_ref<void(Operation *)> erase);

private:
  /// Evaluates `v` over the index space of `rootType` at `binding` and
  /// linearizes it; the ops it looked through go to `traced`.
  std::optional<Poly> evaluate(Value v, RankedTensorType rootType,
                               const Binding &binding,
                               llvm::SetVector<Operation *> &traced);
  /// For a column tensor `v` (a reduction over rows): x's type and the
  /// binding of `v` in it.
  std::optional<std::pair<RankedTensorType, Binding>> columnRoot(Value v);
  Leaves leavesOf(const Poly &p, RankedTensorType rootType, unsigned axis);
  Poly invN(RankedTensorType rootType, unsigned axis);
  /// `p` linearized with each Σ over the row of a body free of the summed
  /// dims (Σ_j μ, which the linearizer keeps a sum) replaced by the count
  /// times the body, and with the atom `a`, if given, replaced by `value`
  /// in its monomials and in those bodies (not in other atoms' bodies).
  std::optional<Poly> countOut(const Poly &p, RankedTensorType rootType,
                               std::optional<AtomId> a = std::nullopt,
                               const Poly *value = nullptr);
  /// Is the saved mean of `pieces` shown to be mean(x): the mean result of
  /// a norm.layer_norm of x over the same dims?
  bool savedMeanShown(const Pieces &pieces, unsigned axis);
  /// Does `p` equal the formula of `part` for `pieces`? Sets `nearMiss`
  /// when dx differs in one term only.
  bool matches(const Poly &p, Part part, Pieces &pieces,
               RankedTensorType rootType, unsigned axis, std::string *nearMiss);
  /// matches() for the pRMSNorm prefix `pieces.prefix` (set).
  bool matchesWith(const Poly &p, Part part, Pieces &pieces,
                   RankedTensorType rootType, unsigned axis,
                   std::string *nearMiss);
  /// The prefixes k that `p` shows: of its indicators [j < k] and its sums
  /// over the first k elements of the row.
  SmallVector<int64_t> prefixesOf(const Poly &p, bool indicatorsOnly);
  /// Why the dx `v`, which puts part of itself into the first k elements
  /// of the row (autograd's slice_backward), was not raised; empty if it
  /// does not.
  std::string sliceBackwardRemark(Value v, RankedTensorType type);
  /// Finds the other parts of the backward of `pieces` in `block`.
  void collectParts(Block *block, Pieces &pieces, RankedTensorType rootType,
                    unsigned axis, SmallVectorImpl<Found> &parts);
  /// Is `v` the part `part` of `pieces`? A dx may add γ to them.
  bool tryPart(Value v, Part part, Pieces &pieces, RankedTensorType rootType,
               unsigned axis, Found &found);
  GradRaise create(ArrayRef<Found> parts, const Pieces &pieces,
                   RankedTensorType rootType, unsigned axis,
                   function_ref<void(Operation *)> erase);

  RewriterBase &rewriter;
  RecognizeOptions opts;
  PolyContext ctx;
  Linearizer lin;
  /// Why a dx that matches with its saved mean taken as mean(x) was not
  /// raised (the remark, ahead of other near misses).
  std::string meanRefused;
};

} // namespace

std::optional<Poly>
GradRecognizer::evaluate(Value v, RankedTensorType rootType,
                         const Binding &binding,
                         llvm::SetVector<Operation *> &traced) {
  ExprArena arena;
  Tracer tracer(arena, rootType);
  tracer.traceSliceBackward = true;
  Expr *e = tracer.eval(v, binding);
  if (!e || e->kind == ExprKind::Leaf ||
      !tracer.uninitializedReductions.empty())
    return std::nullopt;
  // The result's rounding to its element type is the op's own.
  if (e->kind == ExprKind::Trunc)
    e = const_cast<Expr *>(e->operands[0]);
  Canonicalizer canon(ctx);
  std::optional<Poly> p = canon.canon(e);
  if (!p)
    return std::nullopt;
  traced.insert(tracer.tracedOps.begin(), tracer.tracedOps.end());
  return lin.lin(*p);
}

std::optional<std::pair<RankedTensorType, Binding>>
GradRecognizer::columnRoot(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto op = v.getDefiningOp<linalg::LinalgOp>();
  if (!op || op.getNumReductionLoops() == 0)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto t = dyn_cast<RankedTensorType>(input->get().getType());
    if (!t)
      continue;
    // v's dims, leading unit ones (kept reduced dims) aside, are t's
    // trailing dims.
    unsigned lead = 0;
    ArrayRef<int64_t> cols = type.getShape();
    while (!cols.empty() && (t.getRank() <= int64_t(cols.size()) ||
                             t.getShape().take_back(cols.size()) != cols)) {
      if (cols.front() != 1)
        break;
      cols = cols.drop_front();
      ++lead;
    }
    if (cols.empty() || t.getRank() <= int64_t(cols.size()) ||
        t.getShape().take_back(cols.size()) != cols ||
        ShapedType::isDynamicShape(cols))
      continue;
    Binding b(lead, DimGroup());
    unsigned first = t.getRank() - cols.size();
    for (unsigned i = 0; i < cols.size(); ++i)
      b.push_back(cols[i] == 1 ? DimGroup() : DimGroup{first + i});
    return std::make_pair(t, b);
  }
  return std::nullopt;
}

Leaves GradRecognizer::leavesOf(const Poly &p, RankedTensorType rootType,
                                unsigned axis) {
  ExprArena arena;
  Tracer tracer(arena, rootType);
  Leaves l;
  SmallVector<AtomId> atoms;
  ctx.collectAtoms(p, atoms);
  SmallVector<unsigned> normDims;
  for (unsigned d = axis; d < rootType.getRank(); ++d)
    if (rootType.getDimSize(d) != 1)
      normDims.push_back(d);
  for (AtomId id : atoms) {
    const Atom &a = ctx.getAtom(id);
    if (a.kind == AtomKind::Root) {
      double eps = a.body.constantTerm();
      if (eps > 0 && std::isfinite(eps) && !llvm::is_contained(l.epsilons, eps))
        l.epsilons.push_back(eps);
      if (eps < 0 && std::isfinite(eps) && !llvm::is_contained(l.shifts, -eps))
        l.shifts.push_back(-eps);
    }
    if (a.kind != AtomKind::Leaf)
      continue;
    auto t = dyn_cast<RankedTensorType>(a.value.getType());
    if (!t)
      continue;
    SmallVector<unsigned> dims;
    bool grouped = false;
    for (const DimGroup &g : a.binding) {
      grouped |= g.size() > 1;
      llvm::append_range(dims, g);
    }
    if (grouped)
      continue;
    if (tracer.isRootBinding(a.binding, t) &&
        t.getShape() == rootType.getShape())
      l.full.push_back(id);
    else if (isRowBinding(tracer, a.binding, axis))
      l.rows.push_back(id);
    else if (dims == normDims)
      l.columns.push_back(id);
  }
  return l;
}

Poly GradRecognizer::invN(RankedTensorType rootType, unsigned axis) {
  Poly n = Poly::constant(1.0);
  for (unsigned d = axis; d < rootType.getRank(); ++d) {
    int64_t size = rootType.getDimSize(d);
    if (!ShapedType::isDynamic(size)) {
      n = ctx.scale(n, double(size));
      continue;
    }
    Atom a{AtomKind::Extent};
    a.dim = d;
    n = ctx.mul(n, Poly::atom(ctx.intern(std::move(a))));
  }
  return *ctx.pow(n, Rat::get(-1));
}

std::optional<Poly> GradRecognizer::countOut(const Poly &p,
                                             RankedTensorType rootType,
                                             std::optional<AtomId> a,
                                             const Poly *value) {
  Poly out;
  for (const auto &[monomial, coefficient] : p.terms) {
    Poly term = Poly::constant(coefficient);
    for (auto [id, e] : monomial) {
      // A copy: interning new atoms moves the atom table.
      Atom atom = ctx.getAtom(id);
      std::optional<Poly> factor = Poly::atom(id, e);
      if (a && id == *a) {
        factor = ctx.pow(*value, e);
      } else if (atom.kind == AtomKind::Sum && atom.prefix == 0) {
        bool dependent = false;
        for (const auto &[m, c] : atom.body.terms)
          for (const auto &[b, be] : m)
            for (unsigned d : lin.freeDims(b))
              dependent |= llvm::is_contained(atom.sumDims, d);
        if (!dependent) {
          // Σ over the dims of a body free of them: the count times it
          // (an extent atom for a dynamic dim, as invN has).
          Poly count = Poly::constant(1.0);
          for (unsigned d : atom.sumDims) {
            if (!rootType.isDynamicDim(d)) {
              count = ctx.scale(count, double(rootType.getDimSize(d)));
              continue;
            }
            Atom extent{AtomKind::Extent};
            extent.dim = d;
            count = ctx.mul(count, Poly::atom(ctx.intern(std::move(extent))));
          }
          std::optional<Poly> inner = countOut(atom.body, rootType, a, value);
          factor = inner ? ctx.pow(ctx.mul(count, *inner), e) : std::nullopt;
        }
      }
      if (!factor)
        return std::nullopt;
      term = ctx.mul(term, *factor);
    }
    out = ctx.add(out, term);
  }
  return lin.lin(out);
}

bool GradRecognizer::savedMeanShown(const Pieces &pieces, unsigned axis) {
  if (!pieces.mean)
    return false;
  Value mean = ctx.getAtom(*pieces.mean).value;
  auto norm = mean.getDefiningOp<LayerNormOp>();
  if (!norm || !norm.getMeanInit() ||
      norm.getTiedOpResult(&norm.getMeanInitMutable()[0]) != mean ||
      norm.getNormalizedAxis() != int64_t(axis))
    return false;
  // The op's mean is of its input plus its residual: the same tensors the
  // guess normalizes (x, or x + r recomputed), or x is the op's sum.
  Value x = ctx.getAtom(pieces.x).value;
  Value residual =
      pieces.residual ? ctx.getAtom(*pieces.residual).value : Value();
  if (norm.getSumInit() &&
      norm.getTiedOpResult(&norm.getSumInitMutable()[0]) == x && !residual)
    return true;
  Value in = norm.getInput(), res = norm.getResidual();
  return (in == x && res == residual) ||
         (residual && in == residual && res == x);
}

SmallVector<int64_t> GradRecognizer::prefixesOf(const Poly &p,
                                                bool indicatorsOnly) {
  SmallVector<int64_t> out;
  SmallVector<AtomId> atoms;
  ctx.collectAtoms(p, atoms);
  for (AtomId id : atoms) {
    const Atom &a = ctx.getAtom(id);
    bool counts = a.kind == AtomKind::Indicator ||
                  (!indicatorsOnly && a.kind == AtomKind::Sum);
    if (counts && a.prefix && !llvm::is_contained(out, a.prefix))
      out.push_back(a.prefix);
  }
  return out;
}

bool GradRecognizer::matches(const Poly &p, Part part, Pieces &pieces,
                             RankedTensorType rootType, unsigned axis,
                             std::string *nearMiss) {
  // pRMSNorm's k: what an earlier part fixed, else the whole row or a k
  // the part shows (the indicator's first: the near miss is told for it).
  SmallVector<int64_t> prefixes;
  if (pieces.prefix) {
    prefixes.push_back(*pieces.prefix);
  } else {
    prefixes = prefixesOf(p, /*indicatorsOnly=*/true);
    for (int64_t k : prefixesOf(p, /*indicatorsOnly=*/false))
      if (!llvm::is_contained(prefixes, k))
        prefixes.push_back(k);
    prefixes.insert(prefixes.begin() + std::min<size_t>(1, prefixes.size()),
                    int64_t(0));
  }
  for (auto [i, k] : llvm::enumerate(prefixes)) {
    Pieces trial = pieces;
    trial.prefix = k;
    if (!matchesWith(p, part, trial, rootType, axis,
                     i == 0 ? nearMiss : nullptr))
      continue;
    // dγ of saved statistics does not read k: a later dx says it.
    if (part != Part::DX && trial.rstd && !pieces.prefix)
      trial.prefix.reset();
    pieces = trial;
    return true;
  }
  return false;
}

bool GradRecognizer::matchesWith(const Poly &p, Part part, Pieces &pieces,
                                 RankedTensorType rootType, unsigned axis,
                                 std::string *nearMiss) {
  SmallVector<unsigned> normDims, rowDims;
  for (unsigned d = 0; d < rootType.getRank(); ++d)
    if (rootType.getDimSize(d) != 1)
      (d < axis ? rowDims : normDims).push_back(d);
  Formulas f(ctx, lin, pieces, normDims, rowDims, invN(rootType, axis));
  if (!f.init())
    return false;
  if (part == Part::DGamma)
    return ctx.equal(p, f.dgamma());
  if (part == Part::DBeta)
    return ctx.equal(p, f.dbeta());
  if (std::isnan(pieces.epsilon))
    return false;
  // The residual form: dx is the formula plus the sum gradient.
  const Poly dx = pieces.sumGrad ? ctx.sub(p, Poly::atom(*pieces.sumGrad)) : p;
  auto sum = [&](ArrayRef<Poly> terms) {
    Poly out;
    for (const Poly &t : terms)
      out = ctx.add(out, t);
    return out;
  };
  // dx is linear in the weight offset c (dŷ = dy·(γ + c)): with dx_c the
  // formula at offset c, p is dx_k exactly when p − dx_0 = k·(dx_1 − dx_0),
  // which finds Gemma's 1 + γ and any other constant offset.
  auto dxAt = [&](unsigned spelling, double offset) -> std::optional<Poly> {
    Pieces withOffset = pieces;
    withOffset.weightOffset = offset;
    Formulas g(ctx, lin, withOffset, normDims, rowDims, invN(rootType, axis));
    if (!g.init())
      return std::nullopt;
    return sum(g.dxTerms(spelling));
  };
  // Autograd's graph of a module's LayerNorm (x − μ, not torch's closed
  // form) keeps the mean backward's term Σ_j (x_j − μ)·g, zero exactly
  // when μ = mean(x); the linearizer leaves its Σ_j μ a sum. So dx is also
  // compared with such sums counted out, which is exact (μ traced from x,
  // the forward in the same function, cancels then), and, with a saved μ,
  // with μ replaced by mean(x) on both sides. That changes the function
  // unless μ is mean(x): it is raised only where the IR shows it
  // (savedMeanShown) or the option assumes it.
  enum class Form { AsIs, Counted, MeanOfX };
  for (Form form : {Form::AsIs, Form::Counted, Form::MeanOfX}) {
    std::optional<Poly> meanOfX;
    if (form == Form::MeanOfX) {
      if (!pieces.mean)
        break;
      meanOfX =
          ctx.mul(invN(rootType, axis), lin.sum(normDims, inputOf(pieces)));
    }
    auto rewrite = [&](std::optional<Poly> q) -> std::optional<Poly> {
      if (!q || form == Form::AsIs)
        return q;
      if (form == Form::Counted)
        return countOut(*q, rootType);
      return countOut(*q, rootType, pieces.mean, &*meanOfX);
    };
    std::optional<Poly> ir = rewrite(dx);
    // Nothing counted out: the same comparison as before.
    if (!ir || (form == Form::Counted && ctx.equal(*ir, dx)))
      continue;
    std::optional<double> offset;
    for (unsigned spelling = 0; spelling < f.dxSpellings() && !offset;
         ++spelling) {
      std::optional<Poly> at0 = rewrite(dxAt(spelling, 0.0));
      if (!at0)
        continue;
      if (ctx.equal(*ir, *at0)) {
        offset = 0.0;
        break;
      }
      std::optional<Poly> at1 =
          pieces.gamma ? rewrite(dxAt(spelling, 1.0)) : std::nullopt;
      if (!at1)
        continue;
      Poly perOffset = ctx.sub(*at1, *at0), rest = ctx.sub(*ir, *at0);
      if (perOffset.isZero() || rest.terms.size() != perOffset.terms.size() ||
          rest.terms.begin()->first != perOffset.terms.begin()->first)
        continue;
      double k = rest.terms.begin()->second / perOffset.terms.begin()->second;
      if (ctx.equal(rest, ctx.scale(perOffset, k)))
        offset = k;
    }
    if (!offset)
      continue;
    if (form == Form::MeanOfX) {
      if (savedMeanShown(pieces, axis)) {
        pieces.meanOfX = Pieces::MeanOfX::Shown;
      } else if (opts.assumeSavedMean || pieces.sigma) {
        // With σ and σ + ε both saved, create() refuses it for the more
        // basic reason (ε unknown), whatever the mean.
        pieces.meanOfX = Pieces::MeanOfX::Assumed;
      } else {
        if (nearMiss && meanRefused.empty())
          meanRefused =
              "the saved mean is not shown to be mean(x); dx's Σ(x−μ) term, "
              "which the op drops, would change (assume-saved-mean takes "
              "it to be mean(x))";
        return false;
      }
    }
    pieces.weightOffset = *offset;
    return true;
  }
  SmallVector<Poly, 3> terms = f.dxTerms();
  if (!nearMiss || !nearMiss->empty() || pieces.sumGrad)
    return false;
  std::string formula =
      std::string("the ") + (pieces.layerNorm ? "LayerNorm" : "RMSNorm") +
      " gradient dx = r·(dŷ − " + (pieces.layerNorm ? "mean(dŷ) − " : "") +
      "x̂·mean(dŷ·x̂))";
  if (int64_t k = pieces.prefix.value_or(0))
    formula = "the partial RMSNorm gradient dx = r·(dŷ − [j < k]·x̂·Σ(dŷ·x̂)/k)"
              " with k = " +
              std::to_string(k) + " (the slice_backward's)";
  // The residual form with its sum gradient scaled: a near miss too.
  Poly residual = p;
  for (const Poly &t : terms)
    residual = ctx.sub(residual, t);
  if (auto m = residual.asMonomial();
      m && m->first.size() == 1 && m->first[0].second == Rat::get(1)) {
    AtomId s = m->first[0].first;
    const Atom &a = ctx.getAtom(s), &x = ctx.getAtom(pieces.x);
    if (a.kind == AtomKind::Leaf && s != pieces.dy && s != pieces.x &&
        a.value.getType() == x.value.getType() && a.binding == x.binding) {
      *nearMiss = formula +
                  " + ds adds the incoming sum gradient ds scaled by " +
                  formatDouble(m->second);
      return false;
    }
  }
  // One term missing or scaled: a near miss worth a remark.
  static const char *names[] = {"r·dŷ", "r·mean(dŷ)", "r·x̂·mean(dŷ·x̂)"};
  for (unsigned i = 0; i < terms.size(); ++i) {
    Poly rest = p;
    for (unsigned j = 0; j < terms.size(); ++j)
      if (j != i)
        rest = ctx.sub(rest, terms[j]);
    const Poly &t = terms[i];
    double k = 0.0;
    if (!rest.isZero()) {
      if (rest.terms.size() != t.terms.size())
        continue;
      k = rest.terms.begin()->second / t.terms.begin()->second;
      if (!ctx.equal(rest, ctx.scale(t, k)))
        continue;
    }
    // The sums must be there: r·dŷ alone is a forward norm's shape.
    bool hasSum = false;
    for (unsigned j = 0; j < terms.size(); ++j)
      if (j != i || k != 0.0) {
        SmallVector<AtomId> atoms;
        ctx.collectAtoms(terms[j], atoms);
        hasSum |= llvm::any_of(atoms, [&](AtomId a) {
          return ctx.getAtom(a).kind == AtomKind::Sum;
        });
      }
    if (!hasSum)
      continue;
    unsigned name = pieces.layerNorm || i == 0 ? i : 2;
    *nearMiss = formula + " " +
                (k == 0.0 ? std::string("misses its term ") + names[name]
                          : std::string("has its term ") + names[name] +
                                " scaled by " + formatDouble(k));
    return false;
  }
  return false;
}

bool GradRecognizer::tryPart(Value v, Part part, Pieces &pieces,
                             RankedTensorType rootType, unsigned axis,
                             Found &found) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return false;
  std::optional<Poly> p;
  found = Found{v, part, {}};
  if (part == Part::DX) {
    if (type.getShape() != rootType.getShape())
      return false;
    ExprArena arena;
    Tracer tracer(arena, rootType);
    p = evaluate(v, rootType, tracer.rootBinding(), found.traced);
  } else {
    auto root = columnRoot(v);
    if (!root || root->first.getShape() != rootType.getShape())
      return false;
    p = evaluate(v, rootType, root->second, found.traced);
  }
  if (!p)
    return false;
  bool knownEpsilon = !std::isnan(pieces.epsilon);
  if (part != Part::DX || (pieces.gamma && knownEpsilon))
    return matches(*p, part, pieces, rootType, axis, nullptr);
  // dγ and dβ do not read γ, nor ε outside the root of saved statistics;
  // dx may.
  bool completedOne = false;
  completeForDx(pieces, leavesOf(*p, rootType, axis))
      .forEach([&](const Pieces &guess) {
        Pieces completed = guess;
        if (!matches(*p, part, completed, rootType, axis, nullptr))
          return true;
        pieces = completed;
        completedOne = true;
        return false;
      });
  return completedOne;
}

void GradRecognizer::collectParts(Block *block, Pieces &pieces,
                                  RankedTensorType rootType, unsigned axis,
                                  SmallVectorImpl<Found> &parts) {
  auto has = [&](Part part) {
    return llvm::any_of(parts, [&](const Found &f) { return f.part == part; });
  };
  SmallVector<Part> wanted = {Part::DX, Part::DGamma};
  if (pieces.layerNorm)
    wanted.push_back(Part::DBeta);
  for (Operation &op : *block) {
    if (!isa<linalg::LinalgOp>(op) || op.getNumResults() != 1)
      continue;
    Value v = op.getResult(0);
    if (llvm::any_of(parts, [&](const Found &f) { return f.value == v; }))
      continue;
    for (Part part : wanted) {
      Found f;
      if (!has(part) && tryPart(v, part, pieces, rootType, axis, f)) {
        parts.push_back(std::move(f));
        break;
      }
    }
  }
}

std::string GradRecognizer::sliceBackwardRemark(Value v,
                                                RankedTensorType type) {
  if (type.getRank() < 2)
    return "";
  ExprArena arena;
  Tracer tracer(arena, type);
  tracer.traceSliceBackward = true;
  Expr *e = tracer.eval(v, tracer.rootBinding());
  // An insert or pad not looked through: its reason.
  if (!tracer.sliceBackwardRefusals.empty()) {
    auto &[op, why] = tracer.sliceBackwardRefusals.front();
    return "dx reads a " + op->getName().getStringRef().str() +
           " (autograd's slice_backward, as in pRMSNorm's backward) that " +
           why + ": the partial RMSNorm gradient is not raised";
  }
  if (!e)
    return "";
  Canonicalizer canon(ctx);
  std::optional<Poly> p = canon.canon(e);
  if (!p)
    return "";
  SmallVector<int64_t> masks = prefixesOf(*p, /*indicatorsOnly=*/true);
  if (masks.empty())
    return "";
  SmallVector<int64_t> sums;
  for (int64_t k : prefixesOf(*p, /*indicatorsOnly=*/false))
    if (!llvm::is_contained(masks, k))
      sums.push_back(k);
  std::string s = "dx adds a term to the first " + std::to_string(masks[0]) +
                  " elements of the row only (autograd's slice_backward)";
  if (masks.size() > 1)
    return s + " and another to the first " + std::to_string(masks[1]) +
           ": no one k, the partial RMSNorm gradient is not raised";
  if (!sums.empty())
    return s + " but its statistic sums the first " + std::to_string(sums[0]) +
           ": k differs, the partial RMSNorm gradient is not raised";
  return s + " but is not the partial RMSNorm gradient with that k: not "
             "raised";
}

GradRaise GradRecognizer::run(Value v, function_ref<void(Operation *)> erase) {
  GradRaise result;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!type || !def || !isa<linalg::LinalgOp>(def) || def->getNumResults() != 1)
    return result;

  // As dx (over its own index space) or as dγ/dβ (over x's).
  SmallVector<std::pair<Part, std::pair<RankedTensorType, Binding>>> tries;
  {
    ExprArena arena;
    Tracer tracer(arena, type);
    tries.push_back({Part::DX, {type, tracer.rootBinding()}});
  }
  if (auto root = columnRoot(v))
    tries.push_back({Part::DGamma, *root});

  for (auto &[triedPart, root] : tries) {
    // Named, not bound: the guess loop's lambda captures them.
    Part part = triedPart;
    RankedTensorType rootType = root.first;
    auto &binding = root.second;
    llvm::SetVector<Operation *> traced;
    std::optional<Poly> p = evaluate(v, rootType, binding, traced);
    if (!p)
      continue;
    // The normalized dims: what dx's sums run over, or what dγ keeps.
    unsigned axis = rootType.getRank();
    if (part == Part::DX) {
      SmallVector<AtomId> atoms;
      ctx.collectAtoms(*p, atoms);
      for (AtomId a : atoms)
        if (ctx.getAtom(a).kind == AtomKind::Sum &&
            !ctx.getAtom(a).sumDims.empty()) {
          axis = ctx.getAtom(a).sumDims.front();
          break;
        }
    } else {
      for (auto [i, g] : llvm::enumerate(binding))
        if (!g.empty()) {
          axis = g.front();
          break;
        }
    }
    if (axis == 0 || axis >= rootType.getRank())
      continue;
    Leaves leaves = leavesOf(*p, rootType, axis);
    if (leaves.full.size() < (part == Part::DX ? 2u : 1u))
      continue;
    // Several guesses can match one part (dγ = Σ dy·x·r of a RMSNorm does
    // not say which of dy and x is which): the one that explains the most
    // parts wins.
    std::string nearMiss;
    std::optional<Pieces> best;
    SmallVector<Found> bestParts;
    guessBackward(leaves, opts).forEach([&](const Pieces &guess) {
      Pieces pieces = guess;
      if (!matches(*p, part, pieces, rootType, axis,
                   part == Part::DX ? &nearMiss : nullptr))
        return true;
      SmallVector<Found> parts;
      parts.push_back(Found{v, part, traced});
      collectParts(def->getBlock(), pieces, rootType, axis, parts);
      if (!best || parts.size() > bestParts.size()) {
        best = pieces;
        bestParts = std::move(parts);
      }
      // dx, dγ (and dβ) all found: no later guess explains more.
      return bestParts.size() < (pieces.layerNorm ? 3u : 2u);
    });
    if (best) {
      GradRaise r = create(bestParts, *best, rootType, axis, erase);
      if (r.raised || !r.nearMiss.empty())
        return r;
    }
    // Matched but for the saved mean: the most specific reason.
    if (!meanRefused.empty()) {
      result.nearMiss = meanRefused;
      return result;
    }
    if (!nearMiss.empty()) {
      result.nearMiss = nearMiss;
      return result;
    }
  }
  // pRMSNorm's backward adds its projection term to the first k columns
  // through autograd's slice_backward: an insert or pad not looked
  // through, or a k that matched nothing, is said rather than nothing.
  result.nearMiss = sliceBackwardRemark(v, type);
  return result;
}

/// An identity-map linalg.generic over `inputs` (all of the first one's
/// type) into a tensor of that type, its body built by `body`.
static Value
elementwise(RewriterBase &rewriter, Location loc, ValueRange inputs,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value first = inputs.front();
  auto type = cast<RankedTensorType>(first.getType());
  Value init = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, first),
      type.getElementType());
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              rewriter.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      rewriter, loc, type, inputs, init, maps, parallel,
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, body(b, l, args));
      });
  return op.getResult(0);
}

/// 1/(s + shift), elementwise: the rstd operand of a backward whose saved
/// statistic is σ (shift ε) or σ + ε (shift 0).
static Value reciprocal(RewriterBase &rewriter, Location loc, Value s,
                        double shift) {
  return elementwise(
      rewriter, loc, s, [&](OpBuilder &b, Location l, ValueRange args) {
        Type t = args[0].getType();
        Value d = args[0];
        if (shift != 0.0)
          d = arith::AddFOp::create(
              b, l, d,
              arith::ConstantOp::create(b, l, b.getFloatAttr(t, shift)));
        Value one = arith::ConstantOp::create(b, l, b.getFloatAttr(t, 1.0));
        return Value(arith::DivFOp::create(b, l, one, d));
      });
}

/// a + b, elementwise in their element type: the residual sum the
/// backward recomputed, as the op's input.
static Value residualSum(RewriterBase &rewriter, Location loc, Value a,
                         Value b) {
  return elementwise(rewriter, loc, ValueRange{a, b},
                     [](OpBuilder &builder, Location l, ValueRange args) {
                       return Value(
                           arith::AddFOp::create(builder, l, args[0], args[1]));
                     });
}

/// The k of the norm.rms_norm whose rstd result `rstd` is (over the
/// normalized dims from `axis`, of a static row): ⌈p·n⌉, or n; 0 when
/// `rstd` is not such a result.
static int64_t forwardPrefix(Value rstd, unsigned axis) {
  auto norm = rstd ? rstd.getDefiningOp<RMSNormOp>() : nullptr;
  if (!norm || !norm.getRstdInit() ||
      norm.getTiedOpResult(&norm.getRstdInitMutable()[0]) != rstd ||
      norm.getNormalizedAxis() != int64_t(axis))
    return 0;
  auto type = cast<ShapedType>(norm.getInput().getType());
  ArrayRef<int64_t> row = type.getShape().drop_front(axis);
  if (ShapedType::isDynamicShape(row))
    return 0;
  int64_t n = 1;
  for (int64_t d : row)
    n *= d;
  double p = norm.getPartialValue();
  return p >= 1.0 ? n : int64_t(std::ceil(p * double(n)));
}

GradRaise GradRecognizer::create(ArrayRef<Found> parts, const Pieces &pieces,
                                 RankedTensorType rootType, unsigned axis,
                                 function_ref<void(Operation *)> erase) {
  GradRaise r;
  auto valueOf = [&](std::optional<AtomId> id) -> Value {
    return id ? ctx.getAtom(*id).value : Value();
  };
  Value dy = valueOf(pieces.dy), x = valueOf(pieces.x);
  Value residual = valueOf(pieces.residual);
  Value gamma = valueOf(pieces.gamma);
  Value mean = valueOf(pieces.mean), rstd = valueOf(pieces.rstd);
  const Found *dx = nullptr, *dg = nullptr, *db = nullptr;
  for (const Found &f : parts)
    (f.part == Part::DX ? dx : f.part == Part::DGamma ? dg : db) = &f;
  // Only dx reads the sum gradient.
  Value sumGrad = dx ? valueOf(pieces.sumGrad) : Value();
  // dβ alone is any column sum: not a norm's backward.
  if (!dx && !dg)
    return r;
  if (pieces.sigma) {
    r.nearMiss = std::string("the ") +
                 (pieces.layerNorm ? "LayerNorm" : "RMSNorm") +
                 " gradient with epsilon outside the square root reads the "
                 "saved σ and σ + ε as two tensors and not epsilon: the op's "
                 "epsilon is unknown";
    return r;
  }
  auto xType = cast<RankedTensorType>(x.getType());
  auto elemType = dyn_cast<FloatType>(xType.getElementType());
  if (dy.getType() != x.getType() || !elemType ||
      (sumGrad && sumGrad.getType() != x.getType()) ||
      (residual && residual.getType() != x.getType()))
    return r;
  MLIRContext *mctx = x.getContext();
  FloatType accType = elemType.isF64() ? FloatType(Float64Type::get(mctx))
                                       : FloatType(Float32Type::get(mctx));
  auto statType =
      RankedTensorType::get(xType.getShape().take_front(axis), accType);
  for (Value s : {mean, rstd})
    if (s && (getElementTypeOrSelf(s.getType()) != accType ||
              !canReshape(cast<RankedTensorType>(s.getType()), statType))) {
      r.nearMiss = "the saved statistics are not " + [&] {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << statType;
        return s;
      }() + " (or a reshape of it)";
      return r;
    }
  auto columnType = RankedTensorType::get(
      xType.getShape().drop_front(axis),
      gamma ? getElementTypeOrSelf(gamma.getType()) : Type(elemType));
  if (gamma &&
      (!canReshape(cast<RankedTensorType>(gamma.getType()), columnType) ||
       !isWidenedElementType(columnType.getElementType(), elemType, accType)))
    return r;
  for (const Found *f : {dx, dg, db}) {
    if (!f)
      continue;
    auto t = cast<RankedTensorType>(f->value.getType());
    Type want = f == dx ? Type(elemType) : columnType.getElementType();
    if (!isWidenedElementType(t.getElementType(), want, accType) ||
        (f != dx && !canReshape(t, columnType.clone(t.getElementType()))))
      return r;
  }

  // pRMSNorm: the p whose ⌈p·n⌉ is the IR's k (as the forward's raise).
  FloatAttr partialAttr;
  int64_t prefix = pieces.prefix.value_or(0);
  if (prefix) {
    ArrayRef<int64_t> row = xType.getShape().drop_front(axis);
    if (ShapedType::isDynamicShape(row)) {
      r.nearMiss = "the partial RMSNorm gradient of a dynamic row: the "
                   "fraction k/n is not known before run time";
      return r;
    }
    int64_t n = 1;
    for (int64_t d : row)
      n *= d;
    bool isF64 = false;
    std::optional<double> fraction = partialFraction(prefix, n, isF64);
    if (!fraction) {
      r.nearMiss = "no partial fraction p gives ⌈p·" + std::to_string(n) +
                   "⌉ = " + std::to_string(prefix);
      return r;
    }
    partialAttr = FloatAttr::get(isF64 ? Type(Float64Type::get(mctx))
                                       : Type(Float32Type::get(mctx)),
                                 *fraction);
  }

  // A saved rstd that a norm.rms_norm in the IR computed (the forward)
  // must be of the k dx shows: the gradient of another pRMSNorm is no
  // gradient of this one.
  if (int64_t k = forwardPrefix(rstd, axis); k && dx && pieces.prefix) {
    // dx's k, or the whole row (the forward's n) without a slice_backward.
    int64_t ours = prefix;
    if (!ours) {
      auto type = cast<ShapedType>(
          rstd.getDefiningOp<RMSNormOp>().getInput().getType());
      ours = 1;
      for (int64_t d : type.getShape().drop_front(axis))
        ours *= d;
    }
    if (ours != k) {
      r.nearMiss = "the saved rstd is the forward norm.rms_norm's over the "
                   "first " +
                   std::to_string(k) +
                   " elements of the row, dx's statistic gradient reaches "
                   "the first " +
                   std::to_string(ours) +
                   ": the forward's k and the backward's differ";
      return r;
    }
  }

  // The op goes before the first part; its operands must be there by then.
  Block *block = Value(parts.front().value).getParentBlock();
  Operation *at = nullptr;
  for (const Found &f : parts) {
    Operation *op = f.value.getDefiningOp();
    if (op->getBlock() != block)
      return r;
    if (!at || op->isBeforeInBlock(at))
      at = op;
  }
  for (Value s : {dy, x, residual, sumGrad, gamma, mean, rstd})
    if (s)
      if (Operation *d = s.getDefiningOp())
        if (d->getBlock() == block && !d->isBeforeInBlock(at))
          return r;

  Location loc = at->getLoc();
  rewriter.setInsertionPoint(at);
  if (residual)
    x = residualSum(rewriter, loc, x, residual);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, x);
  SmallVector<Type> resultTypes;
  auto empty = [&](const Found *f, RankedTensorType t) -> Value {
    if (!f)
      return Value();
    t = t.clone(getElementTypeOrSelf(f->value.getType()));
    // x's sizes, or its normalized dims' for dγ/dβ.
    ArrayRef<OpFoldResult> s = sizes;
    Value e = tensor::EmptyOp::create(rewriter, loc,
                                      s.drop_front(s.size() - t.getRank()),
                                      t.getElementType());
    resultTypes.push_back(e.getType());
    return e;
  };
  Value dxInit = empty(dx, xType);
  Value dgInit = empty(dg, columnType);
  Value dbInit = empty(db, columnType);
  if (gamma)
    gamma = reshapeTo(rewriter, loc, gamma, columnType);
  if (mean)
    mean = reshapeTo(rewriter, loc, mean, statType);
  if (rstd)
    rstd = reshapeTo(rewriter, loc, rstd, statType);
  // ε outside the root of saved statistics; unknown for dγ alone, which
  // does not read it: that op is the one of ε inside.
  bool savedOutside = rstd && pieces.epsMode == EpsMode::outside_sqrt &&
                      !std::isnan(pieces.epsilon);
  if (rstd && pieces.saved != Pieces::Saved::Rstd)
    rstd =
        reciprocal(rewriter, loc, rstd,
                   pieces.saved == Pieces::Saved::Sigma ? pieces.epsilon : 0.0);
  IntegerAttr axisAttr = axis + 1 == unsigned(xType.getRank())
                             ? IntegerAttr()
                             : rewriter.getI64IntegerAttr(axis);
  Type attrType = accType.isF64() ? Type(Float64Type::get(mctx))
                                  : Type(Float32Type::get(mctx));
  FloatAttr epsAttr = rstd && !savedOutside
                          ? FloatAttr()
                          : FloatAttr::get(attrType, pieces.epsilon);
  FloatAttr offsetAttr = pieces.weightOffset != 0.0
                             ? FloatAttr::get(attrType, pieces.weightOffset)
                             : FloatAttr();
  EpsModeAttr epsModeAttr =
      pieces.epsMode == EpsMode::outside_sqrt && (!rstd || savedOutside)
          ? EpsModeAttr::get(mctx, pieces.epsMode)
          : EpsModeAttr();
  Operation *op;
  if (pieces.layerNorm)
    op = LayerNormGradOp::create(
        rewriter, loc, resultTypes, dy, x, sumGrad, gamma, mean, rstd, dxInit,
        dgInit, dbInit, axisAttr, epsAttr, offsetAttr, TypeAttr(), epsModeAttr);
  else
    op = RMSNormGradOp::create(
        rewriter, loc, resultTypes, dy, x, sumGrad, gamma, rstd, dxInit, dgInit,
        axisAttr, epsAttr, offsetAttr, partialAttr, TypeAttr(), epsModeAttr);

  // Redirect the parts' uses and erase what became dead.
  llvm::SetVector<Operation *> dead;
  unsigned next = 0;
  for (const Found *f : {dx, dg, db}) {
    if (!f)
      continue;
    Value res = op->getResult(next++);
    rewriter.replaceAllUsesWith(
        f->value, reshapeTo(rewriter, loc, res,
                            cast<RankedTensorType>(f->value.getType())));
    dead.insert(f->traced.begin(), f->traced.end());
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *d : llvm::reverse(dead)) {
      if (!isOpTriviallyDead(d))
        continue;
      for (Value operand : d->getOperands())
        if (Operation *def = operand.getDefiningOp())
          dead.insert(def);
      dead.remove(d);
      erase(d);
      changed = true;
      break;
    }
  }

  std::string desc;
  llvm::raw_string_ostream os(desc);
  os << "axis " << axis;
  if (dx)
    os << ", dx";
  if (dg)
    os << ", weight grad";
  if (db)
    os << ", bias grad";
  if (gamma)
    os << ", weight";
  if (pieces.weightOffset != 0.0)
    os << ", weight offset " << formatDouble(pieces.weightOffset);
  if (partialAttr)
    os << ", partial " << formatDouble(partialAttr.getValueAsDouble())
       << " (k = " << prefix << ")";
  if (residual)
    os << ", recomputed residual sum";
  if (sumGrad)
    os << ", sum grad";
  if (!rstd)
    os << ", recomputed statistics";
  else
    os << (mean ? ", saved mean and " : ", saved ")
       << (pieces.saved == Pieces::Saved::Rstd    ? "rstd"
           : pieces.saved == Pieces::Saved::Sigma ? "sigma"
                                                  : "sigma + epsilon");
  if (dx && pieces.meanOfX == Pieces::MeanOfX::Shown)
    os << ", the saved mean shown to be mean(x)";
  if (dx && pieces.meanOfX == Pieces::MeanOfX::Assumed)
    os << ", the saved mean assumed to be mean(x) (assume-saved-mean)";
  if (!rstd || savedOutside)
    os << ", epsilon " << formatDouble(pieces.epsilon)
       << (pieces.epsMode == EpsMode::outside_sqrt ? " outside the square root"
                                                   : "");
  r.raised = op;
  r.description = desc;
  return r;
}

GradRaise raise::raiseNormGrad(RewriterBase &rewriter, Value v,
                               const RecognizeOptions &opts,
                               function_ref<void(Operation *)> erase) {
  return GradRecognizer(rewriter, opts).run(v, erase);
}
