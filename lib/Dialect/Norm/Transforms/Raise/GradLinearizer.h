//===- GradLinearizer.h - linearized polynomials, norm backward -*- C++ -*-===//
//
// The norm backward's recognizer (GradRecognizer.cpp) compares the IR's dx,
// dγ and dβ with DESIGN.md §9's formulas as polynomials. Spellings differ
// in where row factors sit relative to the sums (rstd·Σ(dŷ·x) or
// Σ(dŷ·x̂)), so both sides are linearized first: a sum distributes over its
// body's terms and the factors that do not depend on the summed dims leave
// it. This file's one job is that rewriting.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADLINEARIZER_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADLINEARIZER_H

#include "NormExpr.h"

namespace mlir {
namespace norm {
namespace raise {

/// Rewrites Polys so that every Sum atom's body is one monomial of
/// coefficient 1 that depends on every one of its factors' summed dims.
class Linearizer {
public:
  explicit Linearizer(PolyContext &ctx) : ctx(ctx) {}

  /// `p` linearized; nullopt when a power has no canonical form.
  std::optional<Poly> lin(const Poly &p);
  /// Σ over `dims` of a linearized `body`.
  Poly sum(ArrayRef<unsigned> dims, const Poly &body, int64_t prefix = 0);
  /// The root dims `a` reads (none for a statistic of the summed dims).
  SmallVector<unsigned> freeDims(AtomId id);

private:
  bool dependsOn(AtomId a, ArrayRef<unsigned> dims);
  std::optional<Poly> linAtom(AtomId id, Rat e);

  PolyContext &ctx;
};

} // namespace raise
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADLINEARIZER_H
