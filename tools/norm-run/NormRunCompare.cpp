//===- NormRunCompare.cpp - norm-run's --compare-pipeline -------*- C++ -*-===//
//
// --compare-pipeline: the entry compiled through a second pipeline runs on
// the same inputs (fresh buffers with the same seeded values), timed like
// the first, and every result and argument buffer is compared with its
// counterpart from the first run, with --compare-tol or a default per
// element type. Quantized results (f8E4M3FN, f8E5M2, i8: a norm's
// quantized output) must be equal element for element, or one step of
// their format apart, counted in `cmp_quant_one_step`.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Reference/NormReference.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;
namespace ref = mlir::norm::reference;

namespace {

/// The default --compare-tol of a buffer: 1e-4 for f32, 2e-2 for f16/bf16.
double defaultCompareTol(ElemType et) {
  return et == ElemType::F32 ? 1e-4 : 2e-2;
}

/// Two quantized buffers: each element equal (NaN with NaN), or the
/// neighbour of the other in its format, which is what two computations
/// of y that differ in the last f32 bits give where y / s lies at a
/// rounding boundary (DESIGN.md section 8). Neighbours: no value of the
/// format lies between them, so their midpoint rounds to one of them.
struct QuantDiff {
  int64_t steps = 0, mismatches = 0, count = 0;
};
QuantDiff compareQuantBuffers(ref::QuantType t, const std::vector<double> &a,
                              const std::vector<double> &b) {
  QuantDiff d;
  d.count = static_cast<int64_t>(a.size());
  if (a.size() != b.size()) {
    d.mismatches = std::max(d.count, static_cast<int64_t>(b.size()));
    return d;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))
      continue;
    double mid = ref::quantize(t, 0.5 * (a[i] + b[i]));
    if (std::isfinite(a[i]) && std::isfinite(b[i]) &&
        (mid == a[i] || mid == b[i]))
      ++d.steps;
    else
      ++d.mismatches;
  }
  return d;
}

/// Compares the buffers of the two runs pairwise: every result, then every
/// argument. The outcome keeps the worst buffer (largest rel_err / tol; NaN
/// first) and one detail line per buffer.
CheckOutcome compareBuffers(const Options &o, const std::vector<Buffer> &args,
                            const std::vector<Buffer> &results,
                            const std::vector<Buffer> &cargs,
                            const std::vector<Buffer> &cresults) {
  CheckOutcome outcome;
  double worstRatio = -1.0;
  auto compare = [&](const std::string &what, const Buffer &a,
                     const Buffer &b) {
    if (a.quant) {
      QuantDiff d = compareQuantBuffers(*a.quant, a.load(), b.load());
      bool ok = d.mismatches == 0;
      outcome.quantSteps += d.steps;
      outcome.quantElements += d.count;
      if (!ok && worstRatio < INFINITY) {
        worstRatio = INFINITY;
        outcome.relErr = INFINITY;
        outcome.tol = 0.0;
      }
      char q[256];
      std::snprintf(q, sizeof(q), "%s: %s one_step=%lld mismatches=%lld %s",
                    what.c_str(), ref::getQuantTypeName(*a.quant),
                    static_cast<long long>(d.steps),
                    static_cast<long long>(d.mismatches), ok ? "PASS" : "FAIL");
      outcome.details.push_back(q);
      outcome.ok &= ok;
      return;
    }
    double tol =
        o.compareTol > 0.0 ? o.compareTol : defaultCompareTol(a.elemType);
    ref::CompareResult r = ref::compare(a.load(), b.load(), tol);
    double ratio = std::isnan(r.relErr) ? INFINITY : r.relErr / tol;
    if (ratio > worstRatio) {
      worstRatio = ratio;
      outcome.relErr = r.relErr;
      outcome.tol = tol;
    }
    char d[256];
    std::snprintf(d, sizeof(d), "%s: rel_err=%.3e tol=%.0e %s", what.c_str(),
                  r.relErr, tol, r.ok ? "PASS" : "FAIL");
    outcome.details.push_back(d + (r.note.empty() ? "" : " (" + r.note + ")"));
    outcome.ok &= r.ok;
  };
  for (size_t i = 0; i < results.size(); ++i)
    compare("result #" + std::to_string(i), results[i], cresults[i]);
  for (size_t i = 0; i < args.size(); ++i)
    compare("argument #" + std::to_string(i), args[i], cargs[i]);
  if (worstRatio < 0.0) // nothing to compare
    outcome.tol = o.compareTol > 0.0 ? o.compareTol : 1e-4;
  return outcome;
}

} // namespace

FailureOr<bool> normrun::runComparison(const Options &o, const Program &p,
                                       const CudaRuntime *cuda,
                                       const std::vector<Buffer> &args,
                                       const std::vector<Buffer> &results,
                                       double median, std::string &line) {
  ArgBuffers cargs;
  if (failed(allocateArgs(p.argSigs, p.outputArgs, o, cuda, cargs)))
    return failure();
  std::vector<Buffer> cresults;
  std::vector<double> ctimes =
      callTimed(*p.compareCompiled, cargs, p.resultSigs, o, cuda, cresults);
  auto [cmedian, cminMs] = medianMin(ctimes);
  CheckOutcome outcome = compareBuffers(o, args, results, cargs.bufs, cresults);
  freeResults(cresults, cargs.bufs, cuda);
  // Quantized results: how many elements were one step apart.
  std::string quantField;
  if (outcome.quantElements)
    quantField = " cmp_quant_one_step=" + std::to_string(outcome.quantSteps) +
                 "/" + std::to_string(outcome.quantElements);
  char fields[512];
  std::snprintf(fields, sizeof(fields),
                " cmp_pipeline=%s cmp_median_ms=%.6f cmp_min_ms=%.6f "
                "speedup=%.3f cmp_rel_err=%.3e cmp_tol=%.0e%s %s",
                p.compareKind.c_str(), cmedian, cminMs,
                median > 0.0 ? cmedian / median : 0.0, outcome.relErr,
                outcome.tol, quantField.c_str(), outcome.ok ? "PASS" : "FAIL");
  line += fields;
  if (!outcome.ok)
    for (const std::string &d : outcome.details)
      llvm::errs() << "norm-run: compare: " << d << "\n";
  return outcome.ok;
}
