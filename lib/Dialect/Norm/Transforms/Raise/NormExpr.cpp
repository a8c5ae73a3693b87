//===- NormExpr.cpp - polynomial canonical form of element expressions ----===//
//
// The algebra behind norm-raise's recognition: sums of monomials over atoms
// (tensor elements, reductions, roots of polynomials, roundings) with
// rational exponents. Only rewrites that are exact in real arithmetic are
// made (e.g. sqrt(x²) is not x), so two Exprs with equal Polys compute the
// same value up to floating-point rounding.
//
//===----------------------------------------------------------------------===//

#include "NormExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

//===----------------------------------------------------------------------===//
// Rat
//===----------------------------------------------------------------------===//

Rat Rat::get(int64_t n, int64_t d) {
  if (d < 0) {
    n = -n;
    d = -d;
  }
  int64_t g = std::gcd(n < 0 ? -n : n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  return Rat{n, d};
}

Rat raise::operator+(Rat a, Rat b) {
  return Rat::get(a.num * b.den + b.num * a.den, a.den * b.den);
}
Rat raise::operator*(Rat a, Rat b) {
  return Rat::get(a.num * b.num, a.den * b.den);
}

//===----------------------------------------------------------------------===//
// Poly
//===----------------------------------------------------------------------===//

Poly Poly::constant(double c) {
  Poly p;
  if (c != 0.0)
    p.terms[{}] = c;
  return p;
}

Poly Poly::atom(AtomId a, Rat e) {
  Poly p;
  p.terms[{{a, e}}] = 1.0;
  return p;
}

double Poly::constantTerm() const { return coefficient({}); }

double Poly::coefficient(const Monomial &m) const {
  auto it = terms.find(m);
  return it == terms.end() ? 0.0 : it->second;
}

std::optional<std::pair<Monomial, double>> Poly::asMonomial() const {
  if (terms.size() != 1)
    return std::nullopt;
  return std::make_pair(terms.begin()->first, terms.begin()->second);
}

bool raise::coefficientsEqual(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b))
    return false;
  return std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

//===----------------------------------------------------------------------===//
// PolyContext
//===----------------------------------------------------------------------===//

bool PolyContext::atomEqual(const Atom &a, const Atom &b) const {
  return a.kind == b.kind && a.value == b.value && a.binding == b.binding &&
         a.type == b.type && a.dim == b.dim && a.sumDims == b.sumDims &&
         a.prefix == b.prefix && a.nanKeeps == b.nanKeeps &&
         equal(a.body, b.body) && equal(a.other, b.other);
}

AtomId PolyContext::intern(Atom atom) {
  for (auto [i, a] : llvm::enumerate(atoms))
    if (atomEqual(a, atom))
      return i;
  atoms.push_back(std::move(atom));
  return atoms.size() - 1;
}

/// Adds `c` to the coefficient of `m`, dropping it when the terms cancel
/// (to rounding: a cancellation of two spelled-out terms is exact in reals).
static void accumulate(std::map<Monomial, double> &terms, const Monomial &m,
                       double c) {
  auto [it, inserted] = terms.try_emplace(m, c);
  if (inserted) {
    if (c == 0.0)
      terms.erase(it);
    return;
  }
  double old = it->second;
  double sum = old + c;
  if (std::fabs(sum) <= 1e-9 * std::max(std::fabs(old), std::fabs(c)))
    terms.erase(it);
  else
    it->second = sum;
}

Poly PolyContext::add(const Poly &a, const Poly &b) const {
  Poly r = a;
  for (const auto &[m, c] : b.terms)
    accumulate(r.terms, m, c);
  return r;
}

Poly PolyContext::scale(const Poly &a, double c) const {
  Poly r;
  if (c == 0.0)
    return r;
  for (const auto &[m, k] : a.terms)
    r.terms[m] = k * c;
  return r;
}

static Monomial mulMonomials(const Monomial &a, const Monomial &b) {
  Monomial r;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      r.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      r.push_back(b[j++]);
    } else {
      Rat e = a[i].second + b[j].second;
      if (e.num != 0)
        r.push_back({a[i].first, e});
      ++i;
      ++j;
    }
  }
  return r;
}

Poly PolyContext::mul(const Poly &a, const Poly &b) const {
  Poly r;
  for (const auto &[ma, ca] : a.terms)
    for (const auto &[mb, cb] : b.terms) {
      Monomial m = mulMonomials(ma, mb);
      // An indicator is 0 or 1: I·I = I (pow keeps its exponent positive
      // and integral).
      for (auto &[atom, e] : m)
        if (atoms[atom].kind == AtomKind::Indicator)
          e = Rat::get(1);
      accumulate(r.terms, m, ca * cb);
    }
  return r;
}

std::optional<Poly> PolyContext::pow(const Poly &a, Rat e) {
  if (e.num == 0)
    return Poly::constant(1.0);
  if (e == Rat::get(1))
    return a;
  // Small positive integer powers of any polynomial: multiply out, so that
  // x·x and x² (and (x-μ)² either way) agree.
  if (e.isInteger() && e.num > 0 && e.num <= 4) {
    Poly r = a;
    for (int64_t i = 1; i < e.num; ++i)
      r = mul(r, a);
    return r;
  }
  if (auto mono = a.asMonomial()) {
    auto [m, c] = *mono;
    // (c·Πa_i^p_i)^e = c^e·Πa_i^(p_i·e): exact for integer e; for
    // fractional e only when c > 0 and no a_i^p_i is an even power (which
    // would hide a sign: sqrt(x²) = |x|).
    bool distributes = e.isInteger() ? c != 0.0 : c > 0.0;
    // 1/I and √I are no functions the IR spells exactly: I·(1/I) would
    // cancel to 1 where the IR divides by zero.
    for (const auto &[atom, p] : m)
      if (atoms[atom].kind == AtomKind::Indicator &&
          !(e.isInteger() && e.num > 0))
        return std::nullopt;
    if (!e.isInteger())
      for (const auto &[atom, p] : m)
        if (p.num % 2 == 0)
          distributes = false;
    if (distributes) {
      Monomial r;
      for (const auto &[atom, p] : m)
        r.push_back({atom, atoms[atom].kind == AtomKind::Indicator ? Rat::get(1)
                                                                   : p * e});
      Poly out;
      double ce = std::pow(c, e.toDouble());
      if (!std::isfinite(ce))
        return std::nullopt;
      out.terms[r] = ce;
      return out;
    }
  }
  if (a.isZero())
    return e.num > 0 ? std::optional<Poly>(Poly()) : std::nullopt;
  Atom root{AtomKind::Root};
  root.body = a;
  return Poly::atom(intern(std::move(root)), e);
}

Poly PolyContext::sum(ArrayRef<unsigned> dims, const Poly &body,
                      int64_t prefix) {
  if (body.isZero())
    return Poly();
  double c = body.terms.begin()->second;
  Atom s(AtomKind::Sum);
  s.sumDims.assign(dims.begin(), dims.end());
  s.prefix = prefix;
  s.body = scale(body, 1.0 / c);
  return scale(Poly::atom(intern(std::move(s))), c);
}

bool PolyContext::equal(const Poly &a, const Poly &b) const {
  if (a.terms.size() != b.terms.size())
    return false;
  for (auto [ta, tb] : llvm::zip(a.terms, b.terms))
    if (ta.first != tb.first || !coefficientsEqual(ta.second, tb.second))
      return false;
  return true;
}

void PolyContext::collectAtoms(const Poly &p,
                               llvm::SmallVectorImpl<AtomId> &out) const {
  for (const auto &[m, c] : p.terms)
    for (const auto &[atom, e] : m) {
      if (llvm::is_contained(out, atom))
        continue;
      out.push_back(atom);
      collectAtoms(atoms[atom].body, out);
    }
}

std::string PolyContext::print(const Poly &p) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (p.isZero())
    os << "0";
  bool first = true;
  for (const auto &[m, c] : p.terms) {
    if (!first)
      os << " + ";
    first = false;
    os << c;
    for (const auto &[atom, e] : m) {
      const Atom &a = atoms[atom];
      os << "·";
      switch (a.kind) {
      case AtomKind::Leaf:
        os << "t" << atom;
        break;
      case AtomKind::Scalar:
        os << "s" << atom;
        break;
      case AtomKind::Extent:
        os << "n" << a.dim;
        break;
      case AtomKind::Sum:
        os << "Σ";
        if (a.prefix)
          os << "<" << a.prefix;
        os << "(" << print(a.body) << ")";
        break;
      case AtomKind::Root:
        os << "(" << print(a.body) << ")";
        break;
      case AtomKind::Trunc:
        os << "trunc(" << print(a.body) << ")";
        break;
      case AtomKind::Abs:
        os << "|" << print(a.body) << "|";
        break;
      case AtomKind::Max:
        os << "max(" << print(a.body) << ", " << print(a.other) << ")";
        break;
      case AtomKind::MaxReduce:
        os << "max_Σ(" << print(a.body) << ")";
        break;
      case AtomKind::Indicator:
        os << "[<" << a.prefix << "]";
        break;
      }
      if (!(e == Rat::get(1)))
        os << "^" << e.num << (e.den != 1 ? "/" + std::to_string(e.den) : "");
    }
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Canonicalizer
//===----------------------------------------------------------------------===//

/// An exponent as a rational with denominator 1, 2 or 4 (what norms use).
static std::optional<Rat> toRat(double v) {
  for (int64_t den : {1, 2, 4}) {
    double n = v * den;
    if (std::fabs(n - std::round(n)) < 1e-9 && std::fabs(n) < 1e6)
      return Rat::get(int64_t(std::round(n)), den);
  }
  return std::nullopt;
}

std::optional<Poly> Canonicalizer::canonMaxReduce(const Expr *e) {
  const Expr *init = e->operands[0];
  std::optional<Poly> body = canon(e->operands[1]);
  if (!body || body->isZero() || init->kind != ExprKind::Const)
    return std::nullopt;
  // The start must not change the maximum: −∞, or 0 under a body that is
  // never negative (c·|p|, c > 0: an amax).
  auto mono = body->asMonomial();
  bool nonNegative = mono && mono->second > 0.0 && mono->first.size() == 1 &&
                     mono->first[0].second == Rat::get(1) &&
                     ctx.getAtom(mono->first[0].first).kind == AtomKind::Abs;
  if (!(std::isinf(init->constant) && init->constant < 0) &&
      !(init->constant == 0.0 && nonNegative))
    return std::nullopt;
  // max(c·f) = c·max(f) for c > 0.
  double c = body->terms.begin()->second;
  if (c <= 0.0)
    c = 1.0;
  Atom max{AtomKind::MaxReduce};
  max.sumDims.assign(e->sumDims.begin(), e->sumDims.end());
  max.body = ctx.scale(*body, 1.0 / c);
  max.nanKeeps = e->nanKeeps;
  return ctx.scale(Poly::atom(ctx.intern(std::move(max))), c);
}

std::optional<Poly> Canonicalizer::canon(const Expr *e) {
  if (!e)
    return std::nullopt;
  auto it = memo.find(e);
  if (it != memo.end())
    return it->second;

  auto operand = [&](unsigned i) -> std::optional<Poly> {
    if (i >= e->operands.size())
      return std::nullopt;
    return canon(e->operands[i]);
  };

  std::optional<Poly> result;
  switch (e->kind) {
  case ExprKind::Leaf:
  case ExprKind::Scalar:
  case ExprKind::Extent: {
    // An atom of the same kind and parts (value and binding, value, dim: the
    // tracer leaves the parts a kind does not have unset).
    Atom a{e->kind == ExprKind::Leaf     ? AtomKind::Leaf
           : e->kind == ExprKind::Scalar ? AtomKind::Scalar
                                         : AtomKind::Extent};
    a.value = e->value;
    a.binding = e->binding;
    a.dim = e->dim;
    result = Poly::atom(ctx.intern(std::move(a)));
    break;
  }
  case ExprKind::Const:
    if (std::isfinite(e->constant))
      result = Poly::constant(e->constant);
    break;
  case ExprKind::Add:
  case ExprKind::Sub:
  case ExprKind::Mul:
  case ExprKind::Div: {
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      break;
    if (e->kind == ExprKind::Add)
      result = ctx.add(*a, *b);
    else if (e->kind == ExprKind::Sub)
      result = ctx.sub(*a, *b);
    else if (e->kind == ExprKind::Mul)
      result = ctx.mul(*a, *b);
    else if (auto inv = ctx.pow(*b, Rat::get(-1)))
      result = ctx.mul(*a, *inv);
    break;
  }
  case ExprKind::Neg:
    if (auto a = operand(0))
      result = ctx.scale(*a, -1.0);
    break;
  case ExprKind::Sqrt:
  case ExprKind::Rsqrt:
    if (auto a = operand(0))
      result = ctx.pow(*a, Rat::get(e->kind == ExprKind::Sqrt ? 1 : -1, 2));
    break;
  case ExprKind::Pow: {
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      break;
    std::optional<Rat> exp;
    if (b->isZero())
      exp = Rat::get(0);
    else if (b->terms.size() == 1 && b->terms.begin()->first.empty())
      exp = toRat(b->constantTerm());
    if (exp)
      result = ctx.pow(*a, *exp);
    break;
  }
  case ExprKind::Ext:
    result = operand(0);
    break;
  case ExprKind::Trunc:
    if (auto a = operand(0)) {
      Atom t{AtomKind::Trunc};
      t.type = e->type;
      t.body = *a;
      result = Poly::atom(ctx.intern(std::move(t)));
    }
    break;
  case ExprKind::Sum:
    if (auto a = operand(0))
      result = ctx.sum(e->sumDims, *a, e->prefix);
    break;
  case ExprKind::Abs:
    if (auto a = operand(0)) {
      if (a->isZero()) {
        result = Poly();
        break;
      }
      // |c·p| = |c|·|p|: one atom for p and −p.
      double c = a->terms.begin()->second;
      Atom abs{AtomKind::Abs};
      abs.body = ctx.scale(*a, 1.0 / c);
      result = ctx.scale(Poly::atom(ctx.intern(std::move(abs))), std::fabs(c));
    }
    break;
  case ExprKind::Max:
    if (auto a = operand(0), b = operand(1); a && b) {
      Atom max{AtomKind::Max};
      max.body = *a;
      max.other = *b;
      max.nanKeeps = e->nanKeeps;
      result = Poly::atom(ctx.intern(std::move(max)));
    }
    break;
  case ExprKind::MaxReduce:
    result = canonMaxReduce(e);
    break;
  case ExprKind::Indicator: {
    Atom a{AtomKind::Indicator};
    a.sumDims.assign(e->sumDims.begin(), e->sumDims.end());
    a.prefix = e->prefix;
    result = Poly::atom(ctx.intern(std::move(a)));
    break;
  }
  case ExprKind::Min:
  case ExprKind::RoundEven:
  case ExprKind::Round:
  case ExprKind::FPToSI:
    // Clamps, roundings and casts are read from the Expr tree
    // (QuantRecognizer.cpp), never compared as polynomials.
    break;
  }
  // A blow-up guard: a trace that multiplies out into thousands of terms is
  // not a norm.
  if (result && result->terms.size() > 512)
    result = std::nullopt;
  memo[e] = result;
  return result;
}
