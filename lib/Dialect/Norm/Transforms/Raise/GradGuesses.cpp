//===- GradGuesses.cpp - what a norm backward may read --------------------===//
//
// The guesses of the norm backward's recognizer (GradGuesses.h): the
// axes of choices and the odometer that enumerates their product.
//
//===----------------------------------------------------------------------===//

#include "GradGuesses.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::raise;

void GuessGenerator::forEach(function_ref<bool(const Pieces &)> visit) const {
  if (llvm::any_of(axes, [](const auto &a) { return a.empty(); }))
    return;
  // An odometer over the axes, the last one turning fastest.
  SmallVector<size_t> at(axes.size(), 0);
  for (;;) {
    Pieces p;
    if (llvm::all_of(llvm::enumerate(axes),
                     [&](auto a) { return a.value()[at[a.index()]](p); }) &&
        !visit(p))
      return;
    size_t i = axes.size();
    while (i > 0 && ++at[i - 1] == axes[i - 1].size())
      at[--i] = 0;
    if (i == 0)
      return;
  }
}

/// The residual form's sum gradient: none, or a full leaf other than dy
/// and x.
static void sumGradAxis(GuessGenerator &gen, ArrayRef<AtomId> full) {
  SmallVector<GuessGenerator::Choice> choices = {[](Pieces &) { return true; }};
  for (AtomId s : full)
    choices.push_back([=](Pieces &p) {
      p.sumGrad = s;
      return s != p.dy && s != p.x && s != p.residual;
    });
  gen.axis(std::move(choices));
}

/// γ: none, or each column leaf.
static SmallVector<std::optional<AtomId>> gammaChoices(const Leaves &l) {
  SmallVector<std::optional<AtomId>> out = {std::nullopt};
  llvm::append_range(out, l.columns);
  return out;
}

GuessGenerator raise::guessBackward(const Leaves &l,
                                    const RecognizeOptions &opts) {
  GuessGenerator gen;
  SmallVector<bool> kinds;
  for (bool layerNorm : {true, false})
    if (layerNorm ? opts.layerNorm : opts.rmsNorm)
      kinds.push_back(layerNorm);
  gen.axisOver<bool>(kinds, [](Pieces &p, bool k) { p.layerNorm = k; });

  SmallVector<std::pair<AtomId, AtomId>> inputs;
  for (AtomId dy : l.full)
    for (AtomId x : l.full)
      if (dy != x)
        inputs.push_back({dy, x});
  gen.axisOver<std::pair<AtomId, AtomId>>(
      inputs, [](Pieces &p, auto in) { std::tie(p.dy, p.x) = in; });

  // The residual sum recomputed in the backward: none, or a second full
  // leaf added to x (ordered after it: x + r and r + x are one guess).
  SmallVector<GuessGenerator::Choice> residuals = {
      [](Pieces &) { return true; }};
  for (AtomId r : l.full)
    residuals.push_back([=](Pieces &p) {
      p.residual = r;
      return r != p.dy && r > p.x;
    });
  gen.axis(std::move(residuals));

  gen.axisOver<std::optional<AtomId>>(
      gammaChoices(l), [](Pieces &p, std::optional<AtomId> g) { p.gamma = g; });

  // The statistics: saved (rstd, and for LayerNorm a mean other than it),
  // then recomputed with each ε and eps mode.
  SmallVector<GuessGenerator::Choice> stats;
  for (AtomId r : l.rows)
    stats.push_back([=](Pieces &p) {
      p.rstd = r;
      return !p.layerNorm;
    });
  for (AtomId r : l.rows)
    for (AtomId m : l.rows)
      if (m != r)
        stats.push_back([=](Pieces &p) {
          p.rstd = r;
          p.mean = m;
          return p.layerNorm;
        });
  for (double eps : l.epsilons)
    for (EpsMode mode : {EpsMode::inside_sqrt, EpsMode::outside_sqrt})
      if (mode == EpsMode::inside_sqrt || eps != 0.0)
        stats.push_back([=](Pieces &p) {
          p.epsilon = eps;
          p.epsMode = mode;
          return true;
        });
  // ε outside the square root with saved statistics: the saved row tensor
  // is σ (the IR adds ε), r or σ + ε (the IR finds σ as 1/r − ε or
  // (σ + ε) − ε), or σ and σ + ε are both saved; for LayerNorm with a
  // saved mean other than them.
  auto savedOutside = [&](AtomId s, Pieces::Saved saved, double eps,
                          std::optional<AtomId> sigma,
                          std::optional<AtomId> mean) {
    stats.push_back([=](Pieces &p) {
      p.rstd = s;
      p.mean = mean;
      p.saved = saved;
      p.sigma = sigma;
      p.epsilon = eps;
      p.epsMode = EpsMode::outside_sqrt;
      return p.layerNorm == mean.has_value();
    });
  };
  SmallVector<std::optional<AtomId>> means = {std::nullopt};
  llvm::append_range(means, l.rows);
  for (std::optional<AtomId> m : means)
    for (AtomId s : l.rows) {
      if (m == s)
        continue;
      for (double eps : l.epsilons)
        if (eps != 0.0)
          savedOutside(s, Pieces::Saved::Sigma, eps, std::nullopt, m);
      for (double eps : l.shifts) {
        savedOutside(s, Pieces::Saved::Rstd, eps, std::nullopt, m);
        savedOutside(s, Pieces::Saved::Denominator, eps, std::nullopt, m);
      }
      // For dγ, which does not read ε: dx will say (completeForDx).
      for (auto saved : {Pieces::Saved::Rstd, Pieces::Saved::Denominator})
        savedOutside(s, saved, kUnknownEpsilon, std::nullopt, m);
      for (AtomId sigma : l.rows)
        if (sigma != s && m != sigma)
          savedOutside(s, Pieces::Saved::Denominator, 0.0, sigma, m);
    }
  gen.axis(std::move(stats));
  sumGradAxis(gen, l.full);
  return gen;
}

GuessGenerator raise::completeForDx(const Pieces &pieces, const Leaves &dx) {
  GuessGenerator gen;
  gen.axis({[=](Pieces &p) {
    p = pieces;
    return true;
  }});
  SmallVector<std::optional<AtomId>> gammas = {pieces.gamma};
  if (!pieces.gamma)
    gammas = gammaChoices(dx);
  gen.axisOver<std::optional<AtomId>>(
      gammas, [](Pieces &p, std::optional<AtomId> g) { p.gamma = g; });
  SmallVector<double> epsilons = {pieces.epsilon};
  if (std::isnan(pieces.epsilon))
    epsilons.assign(dx.shifts.begin(), dx.shifts.end());
  gen.axisOver<double>(epsilons, [](Pieces &p, double e) { p.epsilon = e; });
  if (!pieces.sumGrad)
    sumGradAxis(gen, dx.full);
  return gen;
}
