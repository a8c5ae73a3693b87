//===- NormExpr.h - symbolic element expressions for norm-raise -*- C++ -*-===//
//
// norm-raise does not match op sequences. It evaluates one element of a
// candidate tensor symbolically: `Expr` is what the IR computes for the
// element at the root's index (d0, ..., d_{R-1}), looking through linalg
// bodies, broadcasts, reshapes and casts (Tracing.h). `Poly` is the
// canonical form of an Expr (a sum of monomials with rational exponents), in
// which every spelling of a norm (x·x or x², rsqrt or 1/sqrt or pow(·, -½),
// sum·(1/n) or sum/n, the reassociated LayerNorm, ...) becomes the same
// value, so recognition (Recognize.h) compares polynomials, not op trees.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_NORMEXPR_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_NORMEXPR_H

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace norm {
namespace raise {

//===----------------------------------------------------------------------===//
// Bindings: how a tensor's dims are indexed from the root's dims
//===----------------------------------------------------------------------===//

/// The root dims, in order, that one tensor dim is indexed by (several root
/// dims linearized row-major, as behind a collapse_shape), or none: index 0
/// of a unit dim (a broadcast, or a kept reduced dim).
using DimGroup = llvm::SmallVector<unsigned, 2>;
/// One DimGroup per dim of the tensor read.
using Binding = llvm::SmallVector<DimGroup, 4>;

//===----------------------------------------------------------------------===//
// Expr: the element computation as the IR spells it (typed)
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Leaf,   // element of an untraced tensor `value` read at `binding`
  Scalar, // a non-constant scalar from outside (e.g. a function argument)
  Const,  // a floating-point constant
  Extent, // the size of root dim `dim` (from tensor.dim), as a float
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  Sqrt,
  Rsqrt,
  Pow,   // operands[0] ^ operands[1] (powf, fpowi, tosa.pow)
  Ext,   // extf to `type`
  Trunc, // truncf to `type`
  Sum,   // Σ over the root dims `sumDims` of operands[0] (or a prefix)
  // Quantization (traced only with Tracer::traceQuantization, except a
  // max(s, 0) of a statistic s: Tracer::clampedAtZero):
  Max,       // maximumf / maxnumf / a compare-and-select; `nanKeeps`
  Min,       // minimumf / minnumf / a compare-and-select; `nanKeeps`
  Abs,       // absf
  RoundEven, // math.roundeven
  Round,     // math.round (ties away from zero)
  FPToSI,    // fptosi to the integer `type`
  MaxReduce, // max over the root dims `sumDims` of operands[1], from
             // operands[0] (the accumulator's start)
  // The norm backward (Tracer::traceSliceBackward):
  Indicator, // 1 where the root dims `sumDims`, linearized (row-major), are
             // below `prefix`, else 0: [j < k] (pRMSNorm's slice_backward)
};

struct Expr {
  Expr(ExprKind kind, Type type) : kind(kind), type(type) {}
  ExprKind kind;
  /// Element type of the value (the computation's type for arithmetic).
  Type type;
  double constant = 0.0;
  Value value;
  Binding binding;
  unsigned dim = 0;
  llvm::SmallVector<unsigned, 2> sumDims;
  /// A Sum over the first `prefix` elements of `sumDims` linearized
  /// (row-major) only, as over a slice of the row (pRMSNorm); 0: all of them.
  int64_t prefix = 0;
  /// Max / Min / MaxReduce: a NaN operand gives NaN (maximumf); false when
  /// the other operand is taken (maxnumf, an ordered compare-and-select).
  bool nanKeeps = true;
  llvm::SmallVector<const Expr *, 2> operands;
  /// The tensor whose element at the root index this is (a value traced
  /// with the identity binding), if any: what the raised op can take as x.
  Value origin;
};

/// Owns Exprs; pointers stay valid for the context's lifetime.
class ExprArena {
public:
  Expr *make(ExprKind kind, Type type) {
    if (storage.size() >= kMaxNodes)
      return nullptr;
    storage.emplace_back(kind, type);
    return &storage.back();
  }
  /// A guard against exponential or huge traces: evaluation fails past it.
  static constexpr size_t kMaxNodes = 8192;

private:
  std::deque<Expr> storage;
};

//===----------------------------------------------------------------------===//
// Poly: the canonical form
//===----------------------------------------------------------------------===//

/// Exponents are rationals (x^½ from sqrt, x^-1 from division).
struct Rat {
  int64_t num = 0, den = 1;
  static Rat get(int64_t n, int64_t d = 1);
  bool isInteger() const { return den == 1; }
  double toDouble() const { return double(num) / double(den); }
  bool operator==(const Rat &o) const { return num == o.num && den == o.den; }
  bool operator<(const Rat &o) const { return num * o.den < o.num * den; }
};
Rat operator+(Rat a, Rat b);
Rat operator*(Rat a, Rat b);

using AtomId = unsigned;
/// Atoms with non-zero exponents, sorted by atom id.
using Monomial = std::vector<std::pair<AtomId, Rat>>;

struct Poly {
  /// monomial -> coefficient; no zero coefficients.
  std::map<Monomial, double> terms;

  static Poly constant(double c);
  static Poly atom(AtomId a, Rat e = Rat::get(1));
  bool isZero() const { return terms.empty(); }
  /// The constant term (coefficient of the empty monomial).
  double constantTerm() const;
  /// The coefficient of `m` (0 if absent).
  double coefficient(const Monomial &m) const;
  /// If this is c·(one monomial), the monomial and c.
  std::optional<std::pair<Monomial, double>> asMonomial() const;
};

/// Coefficients equal within a relative 1e-6: constants such as 1/768 are
/// written by frontends rounded to f32.
bool coefficientsEqual(double a, double b);

enum class AtomKind {
  Leaf,   // tensor element (value, binding); casts are looked through
  Scalar, // non-constant scalar `value`
  Extent, // size of root dim `dim`
  Sum,    // Σ_{sumDims} body (over the first `prefix` elements if non-zero)
  Root,   // a polynomial `body` that is not a monomial, under a power
  Trunc,  // body rounded to `type` (kept opaque: rounding is not algebra)
  // Quantization: opaque functions of polynomials.
  Abs,       // |body|, the body scaled to a leading coefficient of 1
  Max,       // max(body, other); `nanKeeps`
  MaxReduce, // max over `sumDims` of body (a non-negative body, started
             // from 0 or −∞); `nanKeeps`
  Indicator, // [sumDims linearized < prefix]: 0 or 1, so I·I = I; never
             // under a negative or fractional power
};

struct Atom {
  explicit Atom(AtomKind kind) : kind(kind) {}
  AtomKind kind;
  Value value;
  Binding binding;
  Type type;
  unsigned dim = 0;
  llvm::SmallVector<unsigned, 2> sumDims;
  int64_t prefix = 0;
  Poly body;
  /// Max: the second operand.
  Poly other;
  bool nanKeeps = true;
};

/// Hash-consed atoms and the polynomial algebra over them. Atoms are equal
/// when their parts are (bodies compared as polynomials), so two spellings
/// of Σx² share one atom.
class PolyContext {
public:
  AtomId intern(Atom atom);
  const Atom &getAtom(AtomId id) const { return atoms[id]; }

  Poly add(const Poly &a, const Poly &b) const;
  Poly scale(const Poly &a, double c) const;
  Poly sub(const Poly &a, const Poly &b) const { return add(a, scale(b, -1)); }
  Poly mul(const Poly &a, const Poly &b) const;
  /// a^e. Integer e ≥ 0 expands; a monomial distributes e when that is
  /// exact (integer e, or fractional e on a positive coefficient and atoms
  /// of exponent 1); anything else becomes a Root atom.
  std::optional<Poly> pow(const Poly &a, Rat e);
  /// Σ over `dims` of `body`, with a constant factor taken out (Σ(x²/n) =
  /// (1/n)·Σx²: the body is scaled so that its first coefficient is 1).
  /// A non-zero `prefix` sums the first `prefix` elements only.
  Poly sum(ArrayRef<unsigned> dims, const Poly &body, int64_t prefix = 0);
  bool equal(const Poly &a, const Poly &b) const;
  /// The atoms of `p` and, recursively, of their bodies.
  void collectAtoms(const Poly &p, llvm::SmallVectorImpl<AtomId> &out) const;

  std::string print(const Poly &p) const;

private:
  bool atomEqual(const Atom &a, const Atom &b) const;
  std::vector<Atom> atoms;
};

/// Canonicalizes Exprs (memoized per node). Ext is looked through; Trunc is
/// kept as a Trunc atom. Fails (nullopt) on what has no canonical form
/// (a zero divisor, a non-constant exponent).
class Canonicalizer {
public:
  explicit Canonicalizer(PolyContext &ctx) : ctx(ctx) {}
  std::optional<Poly> canon(const Expr *e);
  PolyContext &context() { return ctx; }

private:
  /// A MaxReduce whose start does not change the maximum.
  std::optional<Poly> canonMaxReduce(const Expr *e);

  PolyContext &ctx;
  llvm::DenseMap<const Expr *, std::optional<Poly>> memo;
};

} // namespace raise
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_NORMEXPR_H
