//===- GradLinearizer.cpp - linearized polynomials, norm backward ---------===//
//
// Linearizer (GradLinearizer.h): sums distributed over their bodies' terms,
// the factors that do not depend on the summed dims taken out of them.
//
//===----------------------------------------------------------------------===//

#include "GradLinearizer.h"

using namespace mlir;
using namespace mlir::norm::raise;

std::optional<Poly> Linearizer::lin(const Poly &p) {
  Poly out;
  for (const auto &[m, c] : p.terms) {
    Poly term = Poly::constant(c);
    for (const auto &[a, e] : m) {
      std::optional<Poly> f = linAtom(a, e);
      if (!f)
        return std::nullopt;
      term = ctx.mul(term, *f);
    }
    out = ctx.add(out, term);
  }
  return out;
}

Poly Linearizer::sum(ArrayRef<unsigned> dims, const Poly &body,
                     int64_t prefix) {
  Poly out;
  for (const auto &[m, c] : body.terms) {
    Monomial inner, outer;
    for (const auto &[a, e] : m)
      (dependsOn(a, dims) ? inner : outer).push_back({a, e});
    Poly in, coef;
    in.terms[inner] = 1.0;
    coef.terms[outer] = c;
    if (inner.empty()) {
      // Nothing depends on the summed dims: keep Σ of the whole term.
      out = ctx.add(out, ctx.sum(dims, coef, prefix));
      continue;
    }
    out = ctx.add(out, ctx.mul(coef, ctx.sum(dims, in, prefix)));
  }
  return out;
}

SmallVector<unsigned> Linearizer::freeDims(AtomId id) {
  Atom a = ctx.getAtom(id);
  SmallVector<unsigned> out;
  auto addPoly = [&](const Poly &p) {
    for (const auto &[m, c] : p.terms)
      for (const auto &[b, e] : m)
        for (unsigned d : freeDims(b))
          if (!llvm::is_contained(out, d))
            out.push_back(d);
  };
  switch (a.kind) {
  case AtomKind::Leaf:
    for (const DimGroup &g : a.binding)
      for (unsigned d : g)
        if (!llvm::is_contained(out, d))
          out.push_back(d);
    break;
  case AtomKind::Sum:
    addPoly(a.body);
    llvm::erase_if(
        out, [&](unsigned d) { return llvm::is_contained(a.sumDims, d); });
    break;
  case AtomKind::Root:
  case AtomKind::Trunc:
    addPoly(a.body);
    break;
  case AtomKind::Indicator:
    // [j < k] depends on the dims it tests: a Σ over them keeps it inside.
    out.assign(a.sumDims.begin(), a.sumDims.end());
    break;
  default:
    break;
  }
  return out;
}

bool Linearizer::dependsOn(AtomId a, ArrayRef<unsigned> dims) {
  return llvm::any_of(freeDims(a),
                      [&](unsigned d) { return llvm::is_contained(dims, d); });
}

std::optional<Poly> Linearizer::linAtom(AtomId id, Rat e) {
  // A copy: interning new atoms moves the atom table.
  Atom a = ctx.getAtom(id);
  switch (a.kind) {
  case AtomKind::Sum: {
    std::optional<Poly> body = lin(a.body);
    if (!body)
      return std::nullopt;
    return ctx.pow(sum(a.sumDims, *body, a.prefix), e);
  }
  case AtomKind::Root: {
    std::optional<Poly> body = lin(a.body);
    if (!body)
      return std::nullopt;
    return ctx.pow(*body, e);
  }
  case AtomKind::Trunc: {
    std::optional<Poly> body = lin(a.body);
    if (!body)
      return std::nullopt;
    a.body = *body;
    return Poly::atom(ctx.intern(std::move(a)), e);
  }
  default:
    return Poly::atom(id, e);
  }
}
