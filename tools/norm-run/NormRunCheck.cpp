//===- NormRunCheck.cpp - norm-run: shapes and --check ----------*- C++ -*-===//
//
// What norm-run checks with the records of the norm ops (NormRunSpecs.cpp):
// before the first call, that the argument shapes (from the signature and
// --dims) fit each op, so the compiled code does not read out of bounds;
// after the run, with --check, every output of each checkable op against
// the float64 reference (NormReference) computed from the buffers.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Reference/NormReference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;
namespace ref = mlir::norm::reference;

//===----------------------------------------------------------------------===//
// Shape validation
//===----------------------------------------------------------------------===//

namespace {

std::vector<int64_t> slice(const std::vector<int64_t> &v, size_t from,
                           size_t to) {
  return std::vector<int64_t>(v.begin() + from, v.begin() + to);
}

int64_t product(const std::vector<int64_t> &shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    p *= shape[i];
  return p;
}

} // namespace

std::string normrun::validateArgShapes(const CheckSpec &spec,
                                       const std::vector<Buffer> &args) {
  // The shape of an argument slot in the op's frame (through its views),
  // or null (absent, a result, or views whose dynamic sizes cannot be
  // told: not checked here, and --check fails on them).
  // Views whose sizes, taken from the arguments, contradict the buffer's
  // (the function's own reshape does not fit them) are an error here.
  std::map<const Slot *, std::vector<int64_t>> frames;
  std::string misfitWhy;
  auto argShape = [&](const Slot &s) -> const std::vector<int64_t> * {
    if (s.kind != Slot::Arg || s.index >= args.size())
      return nullptr;
    if (s.views.empty())
      return &args[s.index].shape;
    std::string why;
    bool misfit = false;
    std::optional<std::vector<int64_t>> shape =
        frameShape(s, args[s.index].shape, args, why, &misfit);
    if (misfit && misfitWhy.empty())
      misfitWhy = "argument #" + std::to_string(s.index) + "): " + why;
    if (!shape)
      return nullptr;
    return &(frames[&s] = std::move(*shape));
  };
  // Every operand's views first: sizes that contradict the function's
  // own reshape of any argument (the input, γ, β, the residual, W, the
  // rotary tables, ...) are an error before the run, as they are for the
  // input, not a read out of bounds or a --check failure after it.
  const std::pair<const Slot *, const char *> operands[] = {
      {&spec.x, "ins"},
      {&spec.residual, "residual"},
      {&spec.gamma, "weight"},
      {&spec.beta, "bias"},
      {&spec.rhs, "rhs"},
      {&spec.matmulBias, "matmul_bias"},
      {&spec.inputGamma, "input_weight"},
      {&spec.cos, "cos"},
      {&spec.sin, "sin"},
      {&spec.dy, "grad"},
      {&spec.sumGrad, "sum_grad"},
      {&spec.scale, "scale"},
      {&spec.y, "outs"},
      {&spec.sum, "sum_outs"},
      {&spec.mean, "mean"},
      {&spec.rstd, "rstd"},
      {&spec.weightGrad, "weight_grad_outs"},
      {&spec.biasGrad, "bias_grad_outs"},
      {&spec.scales, "scales"}};
  for (auto [slot, name] : operands) {
    argShape(*slot);
    if (!misfitWhy.empty())
      return std::string(name) + " (" + misfitWhy;
  }
  const std::vector<int64_t> *x = argShape(spec.x);
  if (!x)
    return "";
  auto expect = [&](const Slot &s, const char *name,
                    const std::vector<int64_t> &want) -> std::string {
    const std::vector<int64_t> *got = argShape(s);
    if (!got || *got == want)
      return "";
    return std::string(name) + " (argument #" + std::to_string(s.index) +
           ") has shape " + ref::shapeString(*got) + ", expected " + ref::shapeString(want);
  };
  std::string err;
  auto check = [&](const Slot &s, const char *name,
                   const std::vector<int64_t> &want) {
    if (err.empty())
      err = expect(s, name, want);
  };
  // A rotary embedding's angles: the dims of `shape` (the input, or a
  // per-head op's heads view), or 1 (broadcast) where their type has a
  // static 1: a dynamic dim must be the input's size at run time (the
  // lowered code cannot check it; docs of `rope`).
  auto checkAngles = [&](const std::vector<int64_t> &shape) {
    const std::vector<int64_t> *angles = argShape(spec.cos);
    if (!angles)
      return;
    std::vector<int64_t> want = shape;
    bool typed = spec.angleBroadcast.size() == shape.size();
    for (size_t d = 0; d < shape.size() && angles->size() == shape.size(); ++d)
      if (typed ? spec.angleBroadcast[d] : (*angles)[d] == 1)
        want[d] = 1;
    check(spec.cos, "cos", want);
    check(spec.sin, "sin", want);
  };

  size_t rank = x->size();
  if (spec.kind == CheckOpKind::GroupNorm) {
    if (rank < 2 || spec.groups < 1 || (*x)[1] % spec.groups != 0)
      return "the input " + ref::shapeString(*x) + " has no " +
             std::to_string(spec.groups) + " groups of channels";
    std::vector<int64_t> stats = {(*x)[0], spec.groups};
    check(spec.gamma, "weight", {(*x)[1]});
    check(spec.beta, "bias", {(*x)[1]});
    check(spec.y, "outs", *x);
    check(spec.mean, "mean_outs", stats);
    check(spec.rstd, "rstd_outs", stats);
    return err;
  }
  if (spec.isGrad()) {
    if (spec.axis < 0 || static_cast<size_t>(spec.axis) >= rank)
      return "axis out of range";
    size_t ax = static_cast<size_t>(spec.axis);
    std::vector<int64_t> normalized = slice(*x, ax, rank);
    std::vector<int64_t> rows = slice(*x, 0, ax);
    check(spec.dy, "grad", *x);
    check(spec.sumGrad, "sum_grad", *x);
    check(spec.gamma, "weight", normalized);
    check(spec.mean, "mean", rows);
    check(spec.rstd, "rstd", rows);
    check(spec.y, "outs", *x);
    check(spec.weightGrad, "weight_grad_outs", normalized);
    check(spec.biasGrad, "bias_grad_outs", normalized);
    return err;
  }
  if (!spec.isFused()) {
    if (spec.axis < 0 || static_cast<size_t>(spec.axis) >= rank)
      return "axis out of range";
    size_t ax = static_cast<size_t>(spec.axis);
    std::vector<int64_t> normalized = slice(*x, ax, rank);
    std::vector<int64_t> rows = slice(*x, 0, ax);
    check(spec.residual, "residual", *x);
    check(spec.gamma, "weight", normalized);
    check(spec.beta, "bias", normalized);
    check(spec.y, "outs", *x);
    check(spec.sum, "sum_outs", *x);
    check(spec.mean, "mean_outs", rows);
    check(spec.rstd, "rstd_outs", rows);
    checkAngles(*x);
    if (err.empty() && product(normalized, 0, normalized.size()) == 0)
      err = "the normalized dims " + ref::shapeString(normalized) + " are empty";
    return err;
  }

  if (rank == 0)
    return "the input has rank 0";
  int64_t k = (*x)[rank - 1];
  std::vector<int64_t> lead = slice(*x, 0, rank - 1);
  std::optional<int64_t> n;
  if (const std::vector<int64_t> *w = argShape(spec.rhs)) {
    if (w->size() != 2)
      return "rhs has shape " + ref::shapeString(*w) + ", expected rank 2";
    int64_t wk = spec.transposeRhs ? (*w)[1] : (*w)[0];
    n = spec.transposeRhs ? (*w)[0] : (*w)[1];
    if (wk != k)
      return "rhs has shape " + ref::shapeString(*w) + " but the input " +
             ref::shapeString(*x) + " has K = " + std::to_string(k);
  }
  if (k == 0)
    return "the input " + ref::shapeString(*x) + " has K = 0";
  bool normFirst = spec.kind == CheckOpKind::RMSNormMatmul ||
                   spec.kind == CheckOpKind::LayerNormMatmul;
  check(spec.inputGamma, "input_weight", {k});
  if (normFirst) {
    check(spec.residual, "residual", *x);
    check(spec.gamma, "weight", {k});
    check(spec.beta, "bias", {k});
    check(spec.sum, "sum_outs", *x);
  }
  // The saved statistics: one per row (the leading dims).
  check(spec.mean, "mean_outs", lead);
  check(spec.rstd, "rstd_outs", lead);
  if (!n)
    return err;
  std::vector<int64_t> outShape = lead;
  outShape.push_back(*n);
  check(spec.matmulBias, "matmul_bias", {*n});
  if (!normFirst) {
    check(spec.residual, "residual", outShape);
    int64_t normalized = spec.headDim ? spec.headDim : *n;
    check(spec.gamma, "weight", {normalized});
    check(spec.beta, "bias", {normalized});
    check(spec.sum, "sum_outs", outShape);
    // The per-head rotation's angles, against S viewed as [..., H, D].
    if (spec.headDim > 0 && *n % spec.headDim == 0) {
      std::vector<int64_t> heads = lead;
      heads.push_back(*n / spec.headDim);
      heads.push_back(spec.headDim);
      checkAngles(heads);
    }
    if (err.empty() && *n == 0)
      err = "the normalized dim N is 0";
  }
  check(spec.y, "outs", outShape);
  return err;
}

LogicalResult normrun::checkArgShapes(const std::vector<CheckSpec> &specs,
                                      const std::vector<Buffer> &args) {
  for (const CheckSpec &spec : specs) {
    std::string why = validateArgShapes(spec, args);
    if (!why.empty()) {
      error(spec.location +
            ": the argument shapes (from the signature and --dims) do not "
            "fit " +
            spec.opName + ": " + why);
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

namespace {

const Buffer *bufferOf(const Slot &s, const std::vector<Buffer> &args,
                       const std::vector<Buffer> &results) {
  if (s.kind == Slot::Arg && s.index < args.size())
    return &args[s.index];
  if (s.kind == Slot::Result && s.index < results.size())
    return &results[s.index];
  return nullptr;
}

class Checker {
public:
  Checker(const std::vector<Buffer> &args, const std::vector<Buffer> &results,
          CheckOutcome &outcome)
      : args(args), results(results), outcome(outcome) {}

  void check(const CheckSpec &spec) {
    currentHead = spec.opName + " at " + spec.location + ": ";
    const Buffer *x = get(spec.x);
    if (!x)
      return;
    ElemType et = spec.elemType;
    std::vector<int64_t> shape = x->shape;
    size_t rank = shape.size();
    std::vector<double> xs = x->load();
    std::vector<double> g = loadOpt(spec.gamma), b = loadOpt(spec.beta);
    const double *gp = g.empty() ? nullptr : g.data();
    const double *bp = b.empty() ? nullptr : b.data();
    std::string head = currentHead;

    if (spec.kind == CheckOpKind::GroupNorm) {
      std::vector<double> y, mean, rstd;
      ref::referenceGroupNorm(et, xs.data(), shape[0], shape[1],
                              product(shape, 2, rank), spec.groups, gp, bp,
                              spec.params, y, mean, rstd);
      double statTol = ref::getStatTolerance(et);
      compareOut(head + "y", spec.y, y, ref::getTolerance(et, false));
      compareOut(head + "mean", spec.mean, mean, statTol);
      compareOut(head + "rstd", spec.rstd, rstd, statTol);
      return;
    }
    if (spec.isGrad()) {
      checkGrad(spec, xs, gp, head);
      return;
    }
    if (!spec.isFused()) {
      size_t ax = static_cast<size_t>(spec.axis);
      int64_t rows = product(shape, 0, ax), n = product(shape, ax, rank);
      std::vector<double> s = xs;
      if (spec.residual)
        s = ref::residualAdd(et, xs, loadOpt(spec.residual));
      std::vector<double> y, mean, rstd;
      ref::referenceNorm(et, s.data(), rows, n, gp, bp, spec.params, y, mean,
                         rstd);
      const Buffer *cosBuf = get(spec.cos);
      const Buffer *outBuf = get(spec.y);
      std::optional<ref::ElemType> eachStep;
      if (spec.ropeEachStep)
        eachStep = outBuf ? outBuf->elemType : et;
      if (cosBuf && get(spec.sin))
        ref::applyRotaryEmbedding(
            y, shape, cosBuf->shape, cosBuf->load().data(),
            get(spec.sin)->load().data(), spec.ropeInterleaved, eachStep);
      double tol = ref::getTolerance(et, /*fused=*/false);
      double statTol = ref::getStatTolerance(et);
      if (spec.quant) {
        checkQuantized(spec, y, rows, n, head);
        compareOut(head + "sum", spec.sum, s, tol);
        return;
      }
      // y may be wider than x (f32 from bf16): its tolerance is its own.
      const Buffer *yBuf = get(spec.y);
      double yTol = ref::getNormTolerance(et, yBuf ? yBuf->elemType : et,
                                          spec.params.castBeforeWeight);
      compareOut(head + "y", spec.y, y, yTol);
      compareOut(head + "sum", spec.sum, s, tol);
      compareOut(head + "mean", spec.mean, mean, statTol);
      compareOut(head + "rstd", spec.rstd, rstd, statTol);
      return;
    }

    const Buffer *w = get(spec.rhs);
    if (!w || w->shape.size() != 2 || rank == 0)
      return;
    std::vector<double> ws = w->load();
    std::vector<double> mb = loadOpt(spec.matmulBias);
    const double *mbp = mb.empty() ? nullptr : mb.data();
    int64_t k = shape[rank - 1], rows = product(shape, 0, rank - 1);
    int64_t n = spec.transposeRhs ? w->shape[0] : w->shape[1];
    // The output may be wider than the input (bf16 A and W, f32 C). A
    // norm → matmul C is checked at the input's tolerance even then: the
    // tensor-core and bf16-dot kernels take the normalized activations at
    // the input's type.
    const Buffer *yBuf = get(spec.y);
    ElemType outType = yBuf ? yBuf->elemType : et;
    double tol = ref::getTolerance(et, /*fused=*/true);
    ref::NormParams p = spec.params;

    if (spec.kind == CheckOpKind::RMSNormMatmul ||
        spec.kind == CheckOpKind::LayerNormMatmul) {
      // With a residual the op normalizes S = round(X + R), which it may
      // also return.
      std::vector<double> s = xs;
      if (spec.residual) {
        s = ref::residualAdd(et, xs, loadOpt(spec.residual));
        compareOut(head + "sum", spec.sum, s, ref::getTolerance(et, false));
      }
      std::vector<double> c, mean, rstd;
      ref::referenceNormMatmul(et, s.data(), rows, k, ws.data(), n,
                               spec.transposeRhs, gp, bp, mbp, p, c, &mean,
                               &rstd);
      compareOut(head + "y", spec.y, c, tol);
      compareOut(head + "mean", spec.mean, mean, ref::getStatTolerance(et));
      compareOut(head + "rstd", spec.rstd, rstd, ref::getStatTolerance(et));
      return;
    }

    // matmul → norm: S rounds to the output's type, and Y is the norm of S
    // in that type, checked at its tolerance.
    tol = ref::getTolerance(outType, /*fused=*/true);
    std::vector<double> res = loadOpt(spec.residual);
    std::vector<double> sRef;
    if (spec.inputParams) {
      // norm → matmul → norm: S is the norm → matmul's C, rounded to the
      // output's type as that op stores it.
      std::vector<double> ig = loadOpt(spec.inputGamma);
      ref::referenceNormMatmul(et, xs.data(), rows, k, ws.data(), n,
                               spec.transposeRhs,
                               ig.empty() ? nullptr : ig.data(), nullptr, mbp,
                               *spec.inputParams, sRef);
      for (double &v : sRef)
        v = ref::roundTo(outType, v);
    } else {
      ref::referenceMatmulSum(outType, xs.data(), rows, k, ws.data(), n,
                              spec.transposeRhs, mbp,
                              res.empty() ? nullptr : res.data(), sRef);
    }
    // The op normalizes the S it returns: when S is an output, normalize the
    // returned values (checked against sRef on their own), as the test
    // runtime does; a one-ulp difference in S would otherwise be amplified
    // by rows with |mean| >> std.
    std::vector<double> sNorm = sRef;
    if (const Buffer *sb = get(spec.sum)) {
      std::vector<double> sOut = sb->load();
      compareOut(head + "sum", spec.sum, sRef, tol);
      if (sOut.size() == sRef.size())
        sNorm = sOut;
    }
    std::vector<double> y, mean, rstd;
    // Per head: rows of one head each.
    int64_t d = spec.headDim ? spec.headDim : n;
    ref::referenceNorm(outType, sNorm.data(), rows * (n / d), d, gp, bp, p, y,
                       mean, rstd);
    // The per-head rotation, on the heads view of Y (unrounded, as the
    // standalone norm's reference).
    const Buffer *cosBuf = get(spec.cos);
    if (cosBuf && get(spec.sin)) {
      std::vector<int64_t> heads(shape.begin(), shape.end() - 1);
      heads.push_back(n / d);
      heads.push_back(d);
      std::optional<ref::ElemType> eachStep;
      if (spec.ropeEachStep)
        eachStep = outType;
      ref::applyRotaryEmbedding(y, heads, cosBuf->shape, cosBuf->load().data(),
                                get(spec.sin)->load().data(),
                                spec.ropeInterleaved, eachStep);
    }
    compareOut(head + "y", spec.y, y, tol);
    compareOut(head + "mean", spec.mean, mean, ref::getStatTolerance(outType));
    compareOut(head + "rstd", spec.rstd, rstd, ref::getStatTolerance(outType));
  }

private:
  /// The buffer of `s` in the op's frame (through its views); null when
  /// absent, or when its views cannot be followed, which fails the check.
  const Buffer *get(const Slot &s) {
    const Buffer *buffer = bufferOf(s, args, results);
    if (!buffer || s.views.empty())
      return buffer;
    auto [it, inserted] = frames.try_emplace(&s);
    if (!inserted)
      return it->second ? &*it->second : nullptr;
    std::string why;
    it->second = frameBuffer(s, *buffer, args, storage, why);
    if (!it->second) {
      std::string what = s.kind == Slot::Arg ? "argument #" : "result #";
      outcome.details.push_back(currentHead + what + std::to_string(s.index) +
                                ": --check cannot follow its views: " + why +
                                " FAIL");
      outcome.ok = false;
      haveWorst = true;
      worstScore = std::numeric_limits<double>::infinity();
      outcome.relErr = NAN;
      return nullptr;
    }
    return &*it->second;
  }

  /// A quantized y (DESIGN.md section 8): every element against the
  /// quantization of the float64 y / s (equal, or one step off within
  /// 1e-6 of a rounding boundary), the dynamic scales within 1e-6.
  void checkQuantized(const CheckSpec &spec, const std::vector<double> &y,
                      int64_t rows, int64_t n, const std::string &head) {
    const Buffer *q = get(spec.y);
    if (!q || !q->quant)
      return;
    ref::QuantType qt = *spec.quant;
    int64_t perScale = spec.staticScaled ? rows * n
                       : spec.groupSize  ? spec.groupSize
                                         : n;
    std::vector<double> scales;
    if (!spec.staticScaled)
      scales = ref::quantScales(qt, y, rows, n, perScale, spec.scaleMin);
    else if (const Buffer *s = get(spec.scale))
      scales = {s->load().at(0)};
    else
      scales = {spec.staticScale};
    ref::QuantCompareResult cmp =
        ref::compareQuantized(qt, q->load(), y, scales, perScale);
    char buf[160];
    std::snprintf(
        buf, sizeof(buf), "y: %s mismatches=%lld one_step_at_boundary=%lld %s",
        ref::getQuantTypeName(qt), static_cast<long long>(cmp.mismatches),
        static_cast<long long>(cmp.boundarySteps), cmp.ok ? "PASS" : "FAIL");
    outcome.details.push_back(head + buf +
                              (cmp.note.empty() ? "" : " (" + cmp.note + ")"));
    outcome.ok = outcome.ok && cmp.ok;
    outcome.quantElements += q->getNumElements();
    outcome.quantSteps += cmp.boundarySteps;
    if (!spec.staticScaled)
      compareOut(head + "scales", spec.scales, scales, 1e-6);
  }

  /// dx, dγ and dβ of a gradient op, each in the tolerance of its own
  /// element type (dγ, dβ: sums over the rows).
  void checkGrad(const CheckSpec &spec, const std::vector<double> &xs,
                 const double *gp, const std::string &head) {
    const Buffer *dy = get(spec.dy);
    if (!dy)
      return;
    const std::vector<int64_t> &shape = get(spec.x)->shape;
    size_t ax = static_cast<size_t>(spec.axis);
    int64_t rows = product(shape, 0, ax), n = product(shape, ax, shape.size());
    std::vector<double> dys = dy->load(), ds = loadOpt(spec.sumGrad),
                        mean = loadOpt(spec.mean), rstd = loadOpt(spec.rstd);
    auto ptr = [](const std::vector<double> &v) {
      return v.empty() ? nullptr : v.data();
    };
    std::vector<double> dx, dgamma, dbeta;
    ref::referenceNormGrad(spec.elemType, dys.data(), xs.data(), rows, n, gp,
                           ptr(ds), ptr(mean), ptr(rstd), spec.params, dx,
                           dgamma, dbeta);
    auto typeOf = [&](const Slot &slot) {
      const Buffer *buf = get(slot);
      return buf ? buf->elemType : spec.elemType;
    };
    compareOut(head + "dx", spec.y, dx,
               ref::getTolerance(typeOf(spec.y), /*fused=*/false));
    compareOut(head + "dgamma", spec.weightGrad, dgamma,
               ref::getColumnSumTolerance(typeOf(spec.weightGrad)));
    compareOut(head + "dbeta", spec.biasGrad, dbeta,
               ref::getColumnSumTolerance(typeOf(spec.biasGrad)));
  }

  std::vector<double> loadOpt(const Slot &s) {
    const Buffer *buf = get(s);
    return buf ? buf->load() : std::vector<double>();
  }

  void compareOut(const std::string &what, const Slot &slot,
                  const std::vector<double> &refValues, double tol) {
    const Buffer *out = get(slot);
    if (!out)
      return;
    ref::CompareResult r = ref::compare(out->load(), refValues, tol);
    char buf[128];
    std::snprintf(buf, sizeof(buf), " rel_err=%.3e tol=%.0e %s", r.relErr,
                  tol, r.ok ? "PASS" : "FAIL");
    std::string line = what + buf;
    if (!r.note.empty())
      line += " (" + r.note + ")";
    outcome.details.push_back(line);
    // Keep the worst output: NaN first, then the largest rel_err / tol.
    double score = std::isnan(r.relErr)
                       ? std::numeric_limits<double>::infinity()
                       : r.relErr / tol;
    if (!haveWorst || score > worstScore) {
      haveWorst = true;
      worstScore = score;
      outcome.relErr = r.relErr;
      outcome.tol = tol;
    }
    outcome.ok = outcome.ok && r.ok;
  }

  const std::vector<Buffer> &args;
  const std::vector<Buffer> &results;
  CheckOutcome &outcome;
  /// Buffers seen through views, per slot, and the copies they own.
  std::map<const Slot *, std::optional<Buffer>> frames;
  std::vector<std::unique_ptr<std::vector<char>>> storage;
  std::string currentHead;
  bool haveWorst = false;
  double worstScore = 0.0;
};

} // namespace

LogicalResult normrun::requireCheckable(const std::vector<CheckSpec> &specs,
                                        const Options &o) {
  if (llvm::any_of(specs, [](const CheckSpec &s) { return s.checkable; })) {
    // A returned result --check cannot read is not skipped silently.
    for (const CheckSpec &s : specs)
      if (s.unfollowedView)
        llvm::errs() << "norm-run: warning: --check: " << s.opName << " at "
                     << s.location << " is not checked: " << s.reason << "\n";
    return success();
  }
  std::string why;
  for (const CheckSpec &s : specs)
    why += "; " + s.opName + " at " + s.location + " is not: " + s.reason;
  error("--check: @" + o.entry +
        " has no checkable norm op (a norm.rms_norm, norm.layer_norm, "
        "fused norm/matmul or gradient op whose operands are function "
        "arguments, or, on tensors, whose results are returned)" +
        (specs.empty() ? std::string("; it has no norm op at all") : why));
  return failure();
}

CheckOutcome normrun::checkAll(const std::vector<CheckSpec> &specs,
                               const std::vector<Buffer> &args,
                               const std::vector<Buffer> &results) {
  CheckOutcome outcome;
  Checker checker(args, results, outcome);
  for (const CheckSpec &spec : specs)
    if (spec.checkable)
      checker.check(spec);
  if (outcome.details.empty()) {
    outcome.ok = false;
    outcome.relErr = NAN;
  }
  return outcome;
}
