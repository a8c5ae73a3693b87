//===- GradGuesses.h - what a norm backward may read ------------*- C++ -*-===//
//
// The norm backward's recognizer (GradRecognizer.cpp) checks DESIGN.md §9's
// formulas against the IR for guesses of what the backward reads: dy, x,
// γ, the saved or recomputed statistics, ε and its mode. This file's one
// job is enumerating those guesses from the leaves of a part's polynomial,
// as the product of independent choices (GuessGenerator), so that a new
// kind of guess is one more axis, not one more nested loop.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADGUESSES_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADGUESSES_H

#include "NormExpr.h"
#include "Recognize.h"

#include <functional>
#include <limits>

namespace mlir {
namespace norm {
namespace raise {

/// ε where only dx would say (outside the root of saved statistics, in a
/// guess from dγ, which does not read it).
constexpr double kUnknownEpsilon = std::numeric_limits<double>::quiet_NaN();

/// One guess of what the backward reads.
struct Pieces {
  bool layerNorm = false;
  AtomId dy = 0, x = 0;
  /// The residual form with the sum recomputed in the backward: the norm's
  /// input is x + residual (two tensors, not the saved sum).
  std::optional<AtomId> residual;
  std::optional<AtomId> gamma, mean, rstd;
  /// The weight is γ + weightOffset (Gemma's 1 + γ: offset 1).
  double weightOffset = 0.0;
  /// Recomputed statistics: ε, inside the square root (1/√(var + ε)) or
  /// outside it (1/(√var + ε)); or kUnknownEpsilon.
  double epsilon = 0.0;
  EpsMode epsMode = EpsMode::inside_sqrt;
  /// ε outside the square root with saved statistics: what the saved row
  /// tensor `rstd` holds (r = 1/(σ + ε), σ or σ + ε), and σ's own tensor
  /// when σ and σ + ε are both saved.
  enum class Saved { Rstd, Sigma, Denominator } saved = Saved::Rstd;
  std::optional<AtomId> sigma;
  /// The residual form (the forward normalized s = x + r, `x` is s): the
  /// incoming gradient of s from its other users, which dx adds.
  std::optional<AtomId> sumGrad;
  /// Set by the match: dx equals the formula only with the saved mean
  /// replaced by mean(x) (autograd's graph of x − μ keeps the mean
  /// backward's Σ_j (x_j − μ) term), which the mean was shown to be (the
  /// mean result of a norm.layer_norm of x) or is assumed to be.
  enum class MeanOfX { NotUsed, Shown, Assumed } meanOfX = MeanOfX::NotUsed;
  /// pRMSNorm: the statistic over the first `prefix` elements of the row
  /// (0: all of it). Set by the match of a part that depends on it (dx, or
  /// a dγ with recomputed statistics); unset while no part has.
  std::optional<int64_t> prefix;
};

/// The leaves of a part, sorted by how they are indexed.
struct Leaves {
  SmallVector<AtomId> full, rows, columns;
  SmallVector<double> epsilons = {0.0};
  /// The ε of roots of σ = d − ε (a saved σ + ε or 1/r less ε).
  SmallVector<double> shifts;
};

/// Enumerates guesses as the product of independent choices, one axis
/// each. The first axis is the outermost, so guesses come in the order of
/// the axes' choices (most specific first).
class GuessGenerator {
public:
  /// Sets its part of a guess; false when it does not apply to the parts
  /// the axes before it set (a saved mean to a RMSNorm).
  using Choice = std::function<bool(Pieces &)>;

  void axis(SmallVector<Choice> choices) { axes.push_back(std::move(choices)); }
  /// An axis that sets one part to each of `values`.
  template <typename T, typename Set>
  void axisOver(ArrayRef<T> values, Set set) {
    SmallVector<Choice> choices;
    for (const T &v : values)
      choices.push_back([=](Pieces &p) {
        set(p, v);
        return true;
      });
    axis(std::move(choices));
  }

  /// Calls `visit` on each guess, in order, until it returns false. The
  /// product of the axes grows multiplicatively with the leaves of a
  /// training graph's part (every full-size tensor is a dy, x and sum
  /// gradient candidate), so guesses are made one at a time, never held.
  void forEach(function_ref<bool(const Pieces &)> visit) const;

private:
  SmallVector<SmallVector<Choice>> axes;
};

/// The guesses consistent with the leaves of a part, most specific first.
GuessGenerator guessBackward(const Leaves &l, const RecognizeOptions &opts);

/// The guesses that complete `pieces` (found from dγ or dβ) with what only
/// dx reads, from dx's leaves: γ, ε outside the root of saved statistics
/// and the residual form's sum gradient.
GuessGenerator completeForDx(const Pieces &pieces, const Leaves &dx);

} // namespace raise
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_GRADGUESSES_H
