//===- ReferenceGradCheck.cpp - the gradient reference vs differences -----===//
//
// referenceNormGrad writes DESIGN.md §9's closed forms; the execution tests
// of the gradient ops compare the compiled code with it, so a wrong formula
// would pass them all. This program checks the reference itself against
// central finite differences of the forward reference (referenceNorm), in
// float64, for every variant the gradient ops take: RMSNorm and LayerNorm,
// γ and the weight offset, partial RMSNorm, both eps modes, the residual
// form's incoming gradient and saved statistics. For a loss
// L = Σ dy · y + Σ ds · x, dL/dx must equal dx, dL/dγ must equal dγ and
// dL/dβ must equal dβ.
//
// Prints one line per case ("<case>: max_rel_err=... PASS") and exits 1 if
// any case fails.
//
//===----------------------------------------------------------------------===//

#include "norm/Reference/NormReference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace mlir::norm::reference;

namespace {

struct Case {
  const char *name;
  NormParams params;
  bool withGamma, withSumGrad, savedStats;
};

/// L = Σ dy · norm(x; γ, β) + Σ ds · x, in float64.
double loss(const std::vector<double> &x, const std::vector<double> &gamma,
            const std::vector<double> &beta, const std::vector<double> &dy,
            const std::vector<double> &ds, int64_t rows, int64_t n,
            const NormParams &p) {
  std::vector<double> y, mean, rstd;
  referenceNorm(ElemType::F32, x.data(), rows, n,
                gamma.empty() ? nullptr : gamma.data(), beta.data(), p, y, mean,
                rstd);
  double l = 0.0;
  for (size_t i = 0; i < y.size(); ++i)
    l += dy[i] * y[i] + (ds.empty() ? 0.0 : ds[i] * x[i]);
  return l;
}

/// max |a − b| / max |b|: differences are only accurate to ~1e-8 of the
/// largest component.
double maxRelErr(const std::vector<double> &a, const std::vector<double> &b) {
  double err = 0.0, scale = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    err = std::max(err, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return scale == 0.0 ? err : err / scale;
}

/// Central differences of `loss` with respect to each element of `v`.
template <typename LossFn>
std::vector<double> differences(std::vector<double> &v, LossFn lossOf) {
  std::vector<double> grad(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    double saved = v[i], h = 1e-6 * std::max(1.0, std::fabs(saved));
    v[i] = saved + h;
    double up = lossOf();
    v[i] = saved - h;
    double down = lossOf();
    v[i] = saved;
    grad[i] = (up - down) / (2 * h);
  }
  return grad;
}

bool runCase(const Case &c) {
  const int64_t rows = 3, n = 10;
  SplitMix64 rng(42);
  auto fill = [&](size_t size, double offset) {
    std::vector<double> v(size);
    for (double &e : v)
      e = offset + rng.uniform();
    return v;
  };
  std::vector<double> x = fill(rows * n, 0.3), dy = fill(rows * n, 0.0);
  std::vector<double> gamma =
      c.withGamma ? fill(n, 1.0) : std::vector<double>();
  std::vector<double> beta = fill(n, 0.0);
  std::vector<double> ds =
      c.withSumGrad ? fill(rows * n, 0.0) : std::vector<double>();
  const NormParams &p = c.params;

  std::vector<double> y, mean, rstd;
  referenceNorm(ElemType::F32, x.data(), rows, n,
                gamma.empty() ? nullptr : gamma.data(), beta.data(), p, y, mean,
                rstd);
  std::vector<double> dx, dgamma, dbeta;
  referenceNormGrad(ElemType::F32, dy.data(), x.data(), rows, n,
                    gamma.empty() ? nullptr : gamma.data(),
                    ds.empty() ? nullptr : ds.data(),
                    c.savedStats ? mean.data() : nullptr,
                    c.savedStats ? rstd.data() : nullptr, p, dx, dgamma, dbeta);

  auto lossOf = [&] { return loss(x, gamma, beta, dy, ds, rows, n, p); };
  double err = maxRelErr(dx, differences(x, lossOf));
  if (c.withGamma)
    err = std::max(err, maxRelErr(dgamma, differences(gamma, lossOf)));
  if (!p.isRms)
    err = std::max(err, maxRelErr(dbeta, differences(beta, lossOf)));
  bool ok = err < 1e-6;
  std::printf("%s: max_rel_err=%.1e %s\n", c.name, err, ok ? "PASS" : "FAIL");
  return ok;
}

NormParams params(bool isRms, double eps, double offset, double partial,
                  bool epsOutside) {
  NormParams p;
  p.isRms = isRms;
  p.eps = eps;
  p.offset = offset;
  p.partial = partial;
  p.epsOutside = epsOutside;
  return p;
}

} // namespace

int main() {
  const Case cases[] = {
      {"rms", params(true, 1e-6, 0.0, 1.0, false), true, false, false},
      {"rms-no-weight", params(true, 1e-6, 0.0, 1.0, false), false, false,
       false},
      {"rms-offset", params(true, 1e-6, 1.0, 1.0, false), true, false, false},
      {"rms-partial", params(true, 1e-6, 0.0, 0.35, false), true, false, false},
      {"rms-outside-sqrt", params(true, 0.1, 0.0, 1.0, true), true, false,
       false},
      {"rms-partial-outside-sqrt", params(true, 0.1, 0.0, 0.5, true), true,
       false, false},
      {"rms-saved-stats-residual", params(true, 1e-6, 0.0, 1.0, false), true,
       true, true},
      {"layer-norm", params(false, 1e-5, 0.0, 1.0, false), true, false, false},
      {"layer-norm-offset-no-weight", params(false, 1e-5, 1.0, 1.0, false),
       false, false, false},
      {"layer-norm-outside-sqrt", params(false, 0.1, 0.0, 1.0, true), true,
       false, false},
      {"layer-norm-saved-stats-residual", params(false, 1e-5, 0.0, 1.0, false),
       true, true, true},
  };
  bool ok = true;
  for (const Case &c : cases)
    ok = runCase(c) && ok;
  return ok ? 0 : 1;
}
