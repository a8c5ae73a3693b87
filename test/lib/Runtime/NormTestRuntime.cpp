//===- NormTestRuntime.cpp - float64 reference checks for execution tests -===//
//
// A small shared library (libnorm_test_runtime.so) that the CPU execution
// tests load into mlir-runner with -shared-libs. It fills memrefs with seeded
// pseudo-random data and checks the results of compiled norm ops against a
// float64 reference computed on the host from the actual input values.
//
// It needs only the header mlir/ExecutionEngine/CRunnerUtils.h (descriptor
// layouts) and the plain C++ library NormReference
// (include/norm/Reference/NormReference.h), which holds the reference math
// and is shared with norm-run; no MLIR or LLVM library is linked.
//
// Calling convention: every entry point is exported as
// `_mlir_ciface_<name>` with C linkage and takes unranked memref descriptors
// by pointer, so MLIR declares it as
//
//   func.func private @<name>(memref<*xf32>, ..., i64, f64, ...)
//       attributes {llvm.emit_c_interface}
//
// Every function exists for three element types, with the suffix _f32, _f16
// or _bf16 (memref<*xf32>, memref<*xf16>, memref<*xbf16>). f16 and bf16 are
// stored as 16-bit patterns and converted here by hand. Any rank, any
// strides, any offset is accepted; elements are always visited in logical
// row-major order, so results do not depend on the layout.
//
// Fill functions:
//   norm_test_fill_<dt>(m, i64 seed, f64 mean, f64 scale)
//       m[i] = round_dt(mean + scale * u_i), u_i uniform in [-1, 1) from a
//       splitmix64 stream seeded with `seed` (i = row-major linear index).
//   norm_test_fill_rows_<dt>(m, i64 seed, f64 mean, f64 scale, i64 axis)
//       like fill, but row r (the linear index over dims [0, axis); a row is
//       the n elements of dims [axis, rank)) uses
//          mean_r  = mean * (1 + r % 3) * (r odd ? -1 : 1)
//          scale_r = scale * 2^(r % 4 - 1)
//       except row 1 (when there are >= 2 rows), which gets
//          mean_1  = 1e4 * scale,  scale_1 = scale
//       i.e. |mean| >> std, to exercise cancellation in the statistics.
//       Negative axis counts from the end.
//
// Checkers (print exactly one line to stdout, then fflush; return nothing):
//   norm_test_check_rms_norm_<dt>(x, residual, gamma, y, sum, rstd,
//                                 i64 axis, f64 epsilon, f64 weight_offset,
//                                 f64 partial, i64 flags)
//   norm_test_check_layer_norm_<dt>(x, residual, gamma, beta, y, sum, mean,
//                                   rstd, i64 axis, f64 epsilon,
//                                   f64 weight_offset, i64 flags)
//   norm_test_check_group_norm_<dt>(x, gamma, beta, y, mean, rstd,
//                                   i64 num_groups, f64 epsilon, i64 flags)
//       norm.group_norm on x [N, C, S...] (InstanceNorm: num_groups = C;
//       referenceGroupNorm, the LayerNorm of each (sample, group) run of
//       C/G·ΠS elements, then γ[c], β[c] per channel); γ, β of shape [C],
//       mean and rstd [N, G]. Only the gamma, beta, mean and rstd bits may
//       be set (any other fails the check). Output line:
//         group_norm <dtype> [shape] groups=<G> <flags>: rel_err=... PASS
//   norm_test_check_rope_norm_<dt>(x, residual, gamma, beta, cos, sin, y,
//                                  sum, i64 is_layer_norm, i64 interleaved,
//                                  f64 epsilon, f64 weight_offset, i64 flags)
//       a norm over the last dim with the rotary embedding (rope_mode
//       interleaved or rotate_half): the reference y rotated before its one
//       rounding (applyRotaryEmbedding), cos and sin of the input's rank,
//       each dim its size or 1; with the flag kRopeEachStep (65536),
//       rope_rounding = each_step (y and each step rounded to <dt>).
//   norm_test_check_rms_norm_matmul_<dt>(x, gamma, w, matmul_bias, c,
//                                        f64 epsilon, f64 weight_offset,
//                                        i64 flags)
//   norm_test_check_layer_norm_matmul_<dt>(x, gamma, beta, w, matmul_bias, c,
//                                          f64 epsilon, f64 weight_offset,
//                                          i64 flags)
//   norm_test_check_residual_rms_norm_matmul_<dt>(x, residual, gamma, w,
//                                                 matmul_bias, c, sum,
//                                                 f64 epsilon,
//                                                 f64 weight_offset, i64 flags)
//   norm_test_check_residual_layer_norm_matmul_<dt>(x, residual, gamma, beta,
//                                                   w, matmul_bias, c, sum,
//                                                   f64 epsilon,
//                                                   f64 weight_offset,
//                                                   i64 flags)
//   norm_test_check_norm_matmul_statistics_<dt>(x, residual, mean, rstd,
//                                               i64 is_layer_norm,
//                                               f64 epsilon, f64 partial,
//                                               i64 flags)
//       the saved statistics of a norm -> matmul op (mean_outs, rstd_outs):
//       those of the norm of X (of S = round_dt(X + residual) with the
//       residual bit) over the last dim, as the standalone norm's, at the
//       statistics tolerance; only the residual, eps_outside_sqrt, mean and
//       rstd bits count (C is checked by the checkers above).
//   norm_test_check_matmul_rms_norm_<dt>(a, w, matmul_bias, residual, gamma,
//                                        y, sum, f64 epsilon,
//                                        f64 weight_offset, i64 flags)
//   norm_test_check_matmul_layer_norm_<dt>(a, w, matmul_bias, residual, gamma,
//                                          beta, y, sum, f64 epsilon,
//                                          f64 weight_offset, i64 flags)
//   norm_test_check_norm_grad_<dt>(dy, x, sum_grad, gamma, mean, rstd, dx,
//                                  dgamma, dbeta, i64 is_layer_norm,
//                                  i64 axis, f64 epsilon, f64 weight_offset,
//                                  i64 flags)
//       the gradient ops (DESIGN.md §9, referenceNormGrad): here the
//       residual bit means sum_grad is given and the mean/rstd bits that the
//       statistics are given (inputs); dx, dγ, dβ (all <dt>) are compared
//       when their bits (1024, 2048, 4096) are set; dγ and dβ at the
//       tolerance of a sum over rows (getColumnSumTolerance).
//   norm_test_check_matmul_<dt>(a, w, memref<*xf32> c_before,
//                               memref<*xf32> c, i64 flags)
//       C = C_before + A * W (transpose_rhs only), an f32 C with <dt> inputs:
//       the GEMM alone, as linalg.matmul accumulates, at the fused ops'
//       f32 tolerance (an f32 sum of K products: 2e-6 at K = 2048 on an
//       H100 with split-K, past the norms' 1e-6).
// Data memrefs have the element type <dt>; the statistics memrefs (mean,
// rstd) are always memref<*xf32>. The fused checkers (not check_matmul) also
// exist for mixed element types (docs/design.md, "Mixed element types"),
// with <dt> bf16 or f16 followed by
//   _pf32: gamma and beta are memref<*xf32>, everything else <dt>;
//   _of32: gamma, beta, c / y, the matmul bias and, for matmul -> norm, the
//          residual and sum are memref<*xf32>; x / a and w are <dt> (S then
//          rounds to f32, and C or Y is checked at f32's tolerance, except
//          norm -> matmul's C, at <dt>'s: the tensor-core and bf16-dot
//          kernels take the normalized activations at <dt>).
// The matmul -> norm checkers also exist with <dt> f32 and a 16-bit S and
// Y (the f32 product rounded to a 16-bit norm's type), suffixed
//   _obf16 / _of16: gamma, beta, y, the matmul bias, the residual and sum
//          bf16 / f16 (checked at that type's tolerance);
//   _pf32_obf16 / _pf32_of16: the same with f32 gamma and beta.
// An absent optional operand is passed as any dummy memref and its flag bit
// is left clear.
//
// flags (bit set = feature present):
//      1 has_residual        2 has_gamma           4 has_beta
//      8 eps_outside_sqrt   16 cast_before_weight 32 has_sum_output
//     64 has_mean_output   128 has_rstd_output   256 has_matmul_bias
//    512 transpose_rhs   1024 has_dx           2048 has_dgamma
//   4096 has_dbeta      8192 is_layer_norm (checkQuantNorm)
//  16384 static_scale (checkQuantNorm)
//  32768 round_normalized (norm -> matmul with cast_mode; with bit 16
//                          before_weight, else after_weight)
//   bits 16..31 (norm -> matmul): pRMSNorm's p as a multiple of 2^-16
//                            (0: no partial)
//
// Reference semantics (float64): rows = prod(dims[0, axis)), n =
// prod(dims[axis, rank)); the fused ops normalize the last dim.
//   s    = round_dt(x + residual)  (or x)
//   RMS:  k = ceil(partial * n), ms = sum_{j<k} s_j^2 / k
//   LN:   mu = mean(s), var = mean((s - mu)^2)   (two passes)
//   rstd = 1/sqrt(v + eps)   or 1/(sqrt(v) + eps) with eps_outside_sqrt
//   z    = (s [- mu]) * rstd;  with cast_before_weight z = round_dt(z)
//   y    = z * (gamma + weight_offset) [+ beta]    (gamma = 1, beta = 0 when
//                                                   absent)
//   norm -> matmul:  C = norm(X) * W + matmul_bias (W is [K,N], or [N,K] with
//                    transpose_rhs); no intermediate rounding. The residual_
//                    checkers normalize S = round_dt(X + residual) instead of
//                    X; with has_sum_output the returned sum is compared with
//                    S and C with the product of the returned sum (as for
//                    matmul -> norm below).
//   matmul -> norm:  S = round_dt(A * W + matmul_bias + residual); Y = norm(S).
//                    With has_sum_output, the returned sum is compared with S
//                    and Y with the norm of the returned sum (the op's
//                    contract: Y is exactly the norm of the S it returns).
//   The sum output of rms_norm / layer_norm is compared with round_dt(x + r).
//
// Metric: rel = ||out - ref||_2 / ||ref||_2 over the whole output (absolute
// norm when ||ref|| = 0); a NaN (or Inf) in out where ref is finite fails.
// Tolerances (DESIGN.md section 4): main output f32 1e-6 (fused matmul ops
// 1e-5), f16 2e-3, bf16 1e-2; sum output: the same tolerance as the main
// output; f32 statistics: 1e-6 for f32 ops, 1e-5 for f16/bf16 ops.
//
// With NORM_TEST_VERBOSE set in the environment, the per-row errors of the
// main output are also printed to stderr.
//
// Output line:
//   <op> <dtype> [<d0>x<d1>...] <flags>: rel_err=<%.3e> tol=<%.0e>
//       [sum_err=<%.3e>] [mean_err=<%.3e>] [rstd_err=<%.3e>] PASS|FAIL
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "norm/Reference/NormReference.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define NORM_RT_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

enum CheckFlags : int64_t {
  kHasResidual = 1,
  kHasGamma = 2,
  kHasBeta = 4,
  kEpsOutsideSqrt = 8,
  kCastBeforeWeight = 16,
  kHasSumOutput = 32,
  kHasMeanOutput = 64,
  kHasRstdOutput = 128,
  kHasMatmulBias = 256,
  kTransposeRhs = 512,
  kHasDx = 1024,
  kHasWeightGrad = 2048,
  kHasBiasGrad = 4096,
  kIsLayerNorm = 8192,  // checkQuantNorm: layer_norm, not rms_norm
  kStaticScale = 16384, // checkQuantNorm: `scale`, not `scale_outs`
  kRoundNormalized = 32768,
  kRopeEachStep = 65536, // checkNorm with rope: rope_rounding = each_step
};

/// checkMatmulNorm: a per-head op's head_dim, in flags bits 32..47 (bits
/// 16..31 hold pRMSNorm's p).
constexpr int64_t kHeadDimShift = 32;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

namespace nref = mlir::norm::reference;

struct F32 {
  using Storage = float;
  static constexpr const char *name = "f32";
  static constexpr nref::ElemType kind = nref::ElemType::F32;
  static double toDouble(float v) { return v; }
  static float fromDouble(double v) { return static_cast<float>(v); }
};

struct F16 {
  using Storage = uint16_t;
  static constexpr const char *name = "f16";
  static constexpr nref::ElemType kind = nref::ElemType::F16;
  static double toDouble(uint16_t h) { return nref::f16BitsToDouble(h); }
  static uint16_t fromDouble(double v) { return nref::doubleToF16Bits(v); }
};

struct BF16 {
  using Storage = uint16_t;
  static constexpr const char *name = "bf16";
  static constexpr nref::ElemType kind = nref::ElemType::BF16;
  static double toDouble(uint16_t b) { return nref::bf16BitsToDouble(b); }
  static uint16_t fromDouble(double v) { return nref::doubleToBF16Bits(v); }
};

/// The tolerances of DESIGN.md section 4 (see NormReference.h).
template <typename DT>
double tolOf() {
  return nref::getTolerance(DT::kind, /*fused=*/false);
}
template <typename DT>
double fusedTolOf() {
  return nref::getTolerance(DT::kind, /*fused=*/true);
}
template <typename DT>
double statTolOf() {
  return nref::getStatTolerance(DT::kind);
}

//===----------------------------------------------------------------------===//
// Memref access
//===----------------------------------------------------------------------===//

/// A memref seen as a row-major list of elements (any rank and strides).
template <typename S>
struct View {
  std::vector<int64_t> shape;
  std::vector<int64_t> offsets; // element offsets from `data`, row-major
  S *data = nullptr;

  explicit View(UnrankedMemRefType<S> *m) {
    DynamicMemRefType<S> d(*m);
    data = d.data;
    shape.assign(d.sizes, d.sizes + d.rank);
    int64_t count = 1;
    for (int64_t s : shape)
      count *= s;
    offsets.reserve(count > 0 ? count : 0);
    if (count <= 0)
      return;
    std::vector<int64_t> idx(d.rank, 0);
    for (int64_t i = 0; i < count; ++i) {
      int64_t off = d.offset;
      for (int64_t k = 0; k < d.rank; ++k)
        off += idx[k] * d.strides[k];
      offsets.push_back(off);
      for (int64_t k = d.rank - 1; k >= 0; --k) {
        if (++idx[k] < shape[k])
          break;
        idx[k] = 0;
      }
    }
  }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t size() const { return static_cast<int64_t>(offsets.size()); }
  S &at(int64_t i) { return data[offsets[i]]; }
};

template <typename DT>
std::vector<double> load(UnrankedMemRefType<typename DT::Storage> *m,
                         std::vector<int64_t> *shape = nullptr) {
  View<typename DT::Storage> v(m);
  std::vector<double> out(v.size());
  for (int64_t i = 0; i < v.size(); ++i)
    out[i] = DT::toDouble(v.at(i));
  if (shape)
    *shape = v.shape;
  return out;
}

int64_t product(const std::vector<int64_t> &shape, int64_t from, int64_t to) {
  int64_t p = 1;
  for (int64_t i = from; i < to; ++i)
    p *= shape[i];
  return p;
}

//===----------------------------------------------------------------------===//
// Random fill
//===----------------------------------------------------------------------===//

template <typename DT>
void fillImpl(UnrankedMemRefType<typename DT::Storage> *m, int64_t seed,
              double mean, double scale, int64_t axis, bool perRow) {
  View<typename DT::Storage> v(m);
  nref::SplitMix64 rng(static_cast<uint64_t>(seed));
  int64_t rank = v.rank();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    axis = rank;
  int64_t rows = product(v.shape, 0, axis);
  int64_t n = product(v.shape, axis, rank);
  for (int64_t r = 0; r < rows; ++r) {
    double mu = mean, sc = scale;
    if (perRow) {
      if (r == 1) {
        mu = 1e4 * scale;
      } else {
        mu = mean * static_cast<double>(1 + r % 3) * ((r & 1) ? -1.0 : 1.0);
        sc = std::ldexp(scale, static_cast<int>(r % 4) - 1);
      }
    }
    for (int64_t j = 0; j < n; ++j)
      v.at(r * n + j) = DT::fromDouble(mu + sc * rng.uniform());
  }
}

//===----------------------------------------------------------------------===//
// Comparison and reporting
//===----------------------------------------------------------------------===//

using Err = nref::CompareResult;

/// With NORM_TEST_VERBOSE set in the environment, prints the relative error
/// of every row (`rowLen` elements) to stderr, to locate a failure.
void printRowErrors(const char *what, const std::vector<double> &out,
                    const std::vector<double> &ref, int64_t rowLen) {
  if (!std::getenv("NORM_TEST_VERBOSE") || rowLen <= 0 ||
      out.size() != ref.size())
    return;
  int64_t rows = static_cast<int64_t>(ref.size()) / rowLen;
  for (int64_t r = 0; r < rows; ++r) {
    double num = 0.0, den = 0.0, maxAbs = 0.0;
    for (int64_t j = r * rowLen; j < (r + 1) * rowLen; ++j) {
      double d = out[j] - ref[j];
      num += d * d;
      den += ref[j] * ref[j];
      maxAbs = std::fmax(maxAbs, std::fabs(d));
    }
    std::fprintf(stderr, "  %s row %lld: rel_err=%.3e max_abs_err=%.3e\n",
                 what, static_cast<long long>(r),
                 den > 0.0 ? std::sqrt(num / den) : std::sqrt(num), maxAbs);
  }
  std::fflush(stderr);
}

Err compare(const std::vector<double> &out, const std::vector<double> &ref,
            double tol) {
  return nref::compare(out, ref, tol);
}

struct Report {
  std::string head; // "<op> <dtype> [shape] <flags>"
  Err main;
  double tol;
  std::vector<std::pair<std::string, Err>> extra;
  std::vector<std::string> notes;
  /// Set when `main` is a count (quantized elements that differ), printed
  /// as `<countName>=N` instead of a relative error and tolerance.
  const char *countName = nullptr;

  void print() {
    bool ok = main.ok;
    std::string line = head + ": ";
    char buf[128];
    if (countName)
      std::snprintf(buf, sizeof(buf), "%s=%.0f", countName, main.relErr);
    else
      std::snprintf(buf, sizeof(buf), "rel_err=%.3e tol=%.0e", main.relErr,
                    tol);
    line += buf;
    for (auto &[name, e] : extra) {
      std::snprintf(buf, sizeof(buf), " %s_err=%.3e", name.c_str(), e.relErr);
      line += buf;
      ok = ok && e.ok;
      if (!e.note.empty())
        notes.push_back(name + ": " + e.note);
    }
    if (!main.note.empty())
      notes.push_back(main.note);
    for (auto &n : notes)
      line += " (" + n + ")";
    line += ok ? " PASS" : " FAIL";
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
};

std::string flagStr(int64_t flags, bool isRms) {
  std::string s;
  auto add = [&](int64_t bit, const char *name) {
    if (flags & bit) {
      s += " ";
      s += name;
    }
  };
  add(kHasResidual, "residual");
  add(kHasGamma, "gamma");
  if (!isRms)
    add(kHasBeta, "beta");
  add(kHasMatmulBias, "mbias");
  add(kTransposeRhs, "trans_rhs");
  add(kEpsOutsideSqrt, "eps_out");
  add(kCastBeforeWeight, "cast_bw");
  add(kHasSumOutput, "sum");
  if (!isRms)
    add(kHasMeanOutput, "mean");
  add(kHasRstdOutput, "rstd");
  return s;
}

std::string numStr(const char *name, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), " %s=%g", name, v);
  return buf;
}

//===----------------------------------------------------------------------===//
// The float64 reference
//===----------------------------------------------------------------------===//

using nref::NormParams;

/// The shared reference (NormReference.h) over the element type DT.
template <typename DT>
void referenceNorm(const std::vector<double> &s, int64_t rows, int64_t n,
                   const double *gamma, const double *beta,
                   const NormParams &p, std::vector<double> &y,
                   std::vector<double> &mean, std::vector<double> &rstd) {
  nref::referenceNorm(DT::kind, s.data(), rows, n, gamma, beta, p, y, mean,
                     rstd);
}

/// Reads `dims` of the optional 1-D-or-more parameter `m` (gamma, beta,
/// biases) when `present`, checking that it has `expect` elements.
template <typename DT>
bool loadParam(UnrankedMemRefType<typename DT::Storage> *m, bool present,
               int64_t expect, const char *name, std::vector<double> &out,
               Report &rep) {
  if (!present)
    return true;
  out = load<DT>(m);
  if (static_cast<int64_t>(out.size()) != expect) {
    rep.notes.push_back(std::string(name) + " has " +
                        std::to_string(out.size()) + " elements, expected " +
                        std::to_string(expect));
    return false;
  }
  return true;
}

void failEarly(Report &rep) {
  rep.main.ok = false;
  rep.main.relErr = NAN;
  rep.print();
}

//===----------------------------------------------------------------------===//
// Checkers
//===----------------------------------------------------------------------===//

/// A standalone norm run on the host in float64: its rows, the residual sum
/// s and the reference y, mean and rstd.
struct ReferenceRun {
  int64_t rows = 0, n = 0;
  std::vector<double> s, y, mean, rstd;
};

/// What checkNorm and checkQuantNorm share: reads the inputs, names the case
/// in `rep.head` and computes the reference; false (reported) when the
/// inputs do not fit.
template <typename DT>
bool runReference(bool isRms, UnrankedMemRefType<typename DT::Storage> *x,
                  UnrankedMemRefType<typename DT::Storage> *residual,
                  UnrankedMemRefType<typename DT::Storage> *gamma,
                  UnrankedMemRefType<typename DT::Storage> *beta, int64_t axis,
                  double eps, double offset, double partial, int64_t flags,
                  Report &rep, ReferenceRun &run) {
  std::vector<int64_t> shape;
  std::vector<double> xs = load<DT>(x, &shape);
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t ax = axis < 0 ? axis + rank : axis;

  rep.head = std::string(isRms ? "rms_norm " : "layer_norm ") + DT::name +
             " " + nref::shapeString(shape) + " axis=" + std::to_string(ax) +
             flagStr(flags, isRms);
  if (offset != 0.0)
    rep.head += numStr("offset", offset);
  if (isRms && partial != 1.0)
    rep.head += numStr("partial", partial);
  if (ax < 0 || ax >= rank) {
    rep.notes.push_back("bad axis");
    return false;
  }
  int64_t rows = product(shape, 0, ax), n = product(shape, ax, rank);
  run.rows = rows;
  run.n = n;

  // s = round_dt(x + r).
  std::vector<double> &s = run.s;
  s = xs;
  if (flags & kHasResidual) {
    std::vector<double> rs = load<DT>(residual);
    if (rs.size() != xs.size()) {
      rep.notes.push_back("residual size mismatch");
      return false;
    }
    for (size_t i = 0; i < s.size(); ++i)
      s[i] = nref::roundTo(DT::kind, xs[i] + rs[i]);
  }
  std::vector<double> g, b;
  if (!loadParam<DT>(gamma, flags & kHasGamma, n, "gamma", g, rep) ||
      !loadParam<DT>(beta, !isRms && (flags & kHasBeta), n, "beta", b, rep))
    return false;

  NormParams p;
  p.isRms = isRms;
  p.eps = eps;
  p.offset = offset;
  p.partial = isRms ? partial : 1.0;
  p.epsOutside = flags & kEpsOutsideSqrt;
  p.castBeforeWeight = flags & kCastBeforeWeight;
  referenceNorm<DT>(s, rows, n, g.empty() ? nullptr : g.data(),
                    b.empty() ? nullptr : b.data(), p, run.y, run.mean,
                    run.rstd);
  return true;
}

/// The rotary embedding's angles of a checked norm (null without one).
template <typename DT> struct RopeAngles {
  UnrankedMemRefType<typename DT::Storage> *cos = nullptr, *sin = nullptr;
  bool interleaved = false;
};

template <typename DT>
void checkNorm(bool isRms, UnrankedMemRefType<typename DT::Storage> *x,
               UnrankedMemRefType<typename DT::Storage> *residual,
               UnrankedMemRefType<typename DT::Storage> *gamma,
               UnrankedMemRefType<typename DT::Storage> *beta,
               UnrankedMemRefType<typename DT::Storage> *y,
               UnrankedMemRefType<typename DT::Storage> *sum,
               UnrankedMemRefType<float> *meanOut,
               UnrankedMemRefType<float> *rstdOut, int64_t axis, double eps,
               double offset, double partial, int64_t flags,
               RopeAngles<DT> rope = {}) {
  Report rep;
  rep.tol = tolOf<DT>();
  ReferenceRun run;
  if (!runReference<DT>(isRms, x, residual, gamma, beta, axis, eps, offset,
                        partial, flags, rep, run))
    return failEarly(rep);
  if (rope.cos) {
    rep.head += rope.interleaved ? " rope=interleaved" : " rope=rotate_half";
    std::optional<nref::ElemType> eachStep;
    if (flags & kRopeEachStep) {
      rep.head += " rounding=each_step";
      eachStep = DT::kind;
    }
    std::vector<int64_t> shape, angleShape;
    load<DT>(x, &shape);
    std::vector<double> cos = load<DT>(rope.cos, &angleShape),
                        sin = load<DT>(rope.sin);
    nref::applyRotaryEmbedding(run.y, shape, angleShape, cos.data(), sin.data(),
                               rope.interleaved, eachStep);
  }
  const std::vector<double> &yRef = run.y, &meanRef = run.mean,
                            &rstdRef = run.rstd;
  std::vector<double> yOut = load<DT>(y);
  printRowErrors("y", yOut, yRef, run.n);
  rep.main = compare(yOut, yRef, tolOf<DT>());
  if (flags & kHasSumOutput)
    rep.extra.push_back({"sum", compare(load<DT>(sum), run.s, tolOf<DT>())});
  if (!isRms && (flags & kHasMeanOutput))
    rep.extra.push_back({"mean", compare(load<F32>(meanOut), meanRef,
                                         statTolOf<DT>())});
  if (flags & kHasRstdOutput)
    rep.extra.push_back({"rstd", compare(load<F32>(rstdOut), rstdRef,
                                         statTolOf<DT>())});
  rep.print();
}

/// norm.group_norm (InstanceNorm: groups == channels) on x [N, C, S...]
/// against the shared float64 reference (referenceGroupNorm): y at the
/// element type's tolerance, mean and rstd ([N, G], f32) at the statistics
/// tolerance. Only the gamma, beta, mean and rstd bits are meaningful; any
/// other bit is a mistake in the test and fails the check.
template <typename DT>
void checkGroupNorm(UnrankedMemRefType<typename DT::Storage> *x,
                    UnrankedMemRefType<typename DT::Storage> *gamma,
                    UnrankedMemRefType<typename DT::Storage> *beta,
                    UnrankedMemRefType<typename DT::Storage> *y,
                    UnrankedMemRefType<float> *meanOut,
                    UnrankedMemRefType<float> *rstdOut, int64_t groups,
                    double eps, int64_t flags) {
  Report rep;
  rep.tol = tolOf<DT>();
  std::vector<int64_t> shape;
  std::vector<double> xs = load<DT>(x, &shape);
  int64_t rank = static_cast<int64_t>(shape.size());
  rep.head = std::string("group_norm ") + DT::name + " " +
             nref::shapeString(shape) + " groups=" + std::to_string(groups) +
             flagStr(flags, /*isRms=*/false);
  int64_t known = kHasGamma | kHasBeta | kHasMeanOutput | kHasRstdOutput;
  if (flags & ~known) {
    rep.notes.push_back("flags other than gamma, beta, mean, rstd");
    return failEarly(rep);
  }
  if (rank < 2 || groups < 1 || shape[1] % groups != 0) {
    rep.notes.push_back("the input has no " + std::to_string(groups) +
                        " groups of channels");
    return failEarly(rep);
  }
  int64_t batch = shape[0], channels = shape[1];
  int64_t spatial = product(shape, 2, rank);
  std::vector<double> g, b;
  if (!loadParam<DT>(gamma, flags & kHasGamma, channels, "gamma", g, rep) ||
      !loadParam<DT>(beta, flags & kHasBeta, channels, "beta", b, rep))
    return failEarly(rep);

  NormParams p;
  p.eps = eps;
  std::vector<double> yRef, meanRef, rstdRef;
  nref::referenceGroupNorm(DT::kind, xs.data(), batch, channels, spatial,
                           groups, g.empty() ? nullptr : g.data(),
                           b.empty() ? nullptr : b.data(), p, yRef, meanRef,
                           rstdRef);
  std::vector<double> yOut = load<DT>(y);
  printRowErrors("y", yOut, yRef, channels / groups * spatial);
  rep.main = compare(yOut, yRef, tolOf<DT>());
  if (flags & kHasMeanOutput)
    rep.extra.push_back(
        {"mean", compare(load<F32>(meanOut), meanRef, statTolOf<DT>())});
  if (flags & kHasRstdOutput)
    rep.extra.push_back(
        {"rstd", compare(load<F32>(rstdOut), rstdRef, statTolOf<DT>())});
  rep.print();
}

/// A quantized standalone norm (DESIGN.md section 8): every element of `q`
/// (bytes of quantized type `qt`) against the quantization of the float64
/// y divided by the exact scale (equal, or one step apart within 1e-6 of a
/// rounding boundary), the dynamic scales (`group` elements each, 0 for one
/// per row) within 1e-6 relative, and the sum as checkNorm does.
template <typename DT>
void checkQuantNorm(nref::QuantType qt,
                    UnrankedMemRefType<typename DT::Storage> *x,
                    UnrankedMemRefType<typename DT::Storage> *residual,
                    UnrankedMemRefType<typename DT::Storage> *gamma,
                    UnrankedMemRefType<typename DT::Storage> *beta,
                    UnrankedMemRefType<uint8_t> *q,
                    UnrankedMemRefType<typename DT::Storage> *sum,
                    UnrankedMemRefType<float> *scalesOut, int64_t axis,
                    double eps, double offset, double staticScale,
                    double scaleMin, int64_t group, int64_t flags) {
  bool isRms = !(flags & kIsLayerNorm);
  Report rep;
  rep.tol = 0.0;
  ReferenceRun run;
  bool fits = runReference<DT>(isRms, x, residual, gamma, beta, axis, eps,
                               offset, /*partial=*/1.0, flags, rep, run);
  bool isStatic = flags & kStaticScale;
  rep.head += std::string(" -> ") + nref::getQuantTypeName(qt);
  if (isStatic)
    rep.head += numStr("scale", staticScale);
  else
    rep.head += group ? " group=" + std::to_string(group) : " per_token";
  if (!fits)
    return failEarly(rep);
  if (scaleMin <= 0.0)
    scaleMin = 1.0 / (nref::getQuantMax(qt) * 512.0);
  int64_t perScale = isStatic ? run.rows * run.n : group ? group : run.n;
  std::vector<double> scales =
      isStatic
          ? std::vector<double>{staticScale}
          : nref::quantScales(qt, run.y, run.rows, run.n, perScale, scaleMin);
  View<uint8_t> bytes(q);
  std::vector<double> qOut(bytes.size());
  for (int64_t i = 0; i < bytes.size(); ++i)
    qOut[i] = nref::decodeQuant(qt, bytes.at(i));
  nref::QuantCompareResult cmp =
      nref::compareQuantized(qt, qOut, run.y, scales, perScale);
  rep.main.ok = cmp.ok;
  rep.main.relErr = static_cast<double>(cmp.mismatches);
  rep.countName = "mismatches";
  rep.notes.push_back(std::to_string(qOut.size()) + " values, " +
                      std::to_string(cmp.boundarySteps) +
                      " one step off at a rounding boundary");
  if (!cmp.note.empty())
    rep.notes.push_back(cmp.note);
  if (!isStatic) {
    Err scaleErr;
    scaleErr.relErr = nref::maxRelativeError(load<F32>(scalesOut), scales);
    scaleErr.ok = scaleErr.relErr <= 1e-6;
    rep.extra.push_back({"scale", scaleErr});
  }
  if (flags & kHasSumOutput)
    rep.extra.push_back({"sum", compare(load<DT>(sum), run.s, tolOf<DT>())});
  rep.print();
}

/// C = norm(X) · W + matmul_bias, or with kHasResidual C = norm(S) · W +
/// matmul_bias with S = round_dt(X + residual), S also compared with `sum`
/// under kHasSumOutput.
/// " params=f32 out=f32" for the types of γ/β (PT) and of the output (OT)
/// that differ from the input's (DT); empty when all are DT.
template <typename DT, typename PT, typename OT> std::string mixedTypesStr() {
  std::string s;
  if (PT::kind != DT::kind)
    s += std::string(" params=") + PT::name;
  if (OT::kind != DT::kind)
    s += std::string(" out=") + OT::name;
  return s;
}

/// C = norm(X) · W + bias with X, W and the residual stream of DT, γ/β of
/// PT, C and the bias of OT.
template <typename DT, typename PT = DT, typename OT = DT>
void checkNormMatmul(bool isRms, UnrankedMemRefType<typename DT::Storage> *x,
                     UnrankedMemRefType<typename DT::Storage> *residual,
                     UnrankedMemRefType<typename DT::Storage> *sum,
                     UnrankedMemRefType<typename PT::Storage> *gamma,
                     UnrankedMemRefType<typename PT::Storage> *beta,
                     UnrankedMemRefType<typename DT::Storage> *w,
                     UnrankedMemRefType<typename OT::Storage> *mbias,
                     UnrankedMemRefType<typename OT::Storage> *c, double eps,
                     double offset, int64_t flags) {
  std::vector<int64_t> xShape, wShape;
  std::vector<double> xs = load<DT>(x, &xShape);
  std::vector<double> ws = load<DT>(w, &wShape);
  bool trans = flags & kTransposeRhs;

  Report rep;
  rep.tol = fusedTolOf<DT>();
  rep.head =
      std::string(isRms ? "rms_norm_matmul " : "layer_norm_matmul ") +
      DT::name + " " + nref::shapeString(xShape) +
      " w=" + nref::shapeString(wShape) +
      flagStr(flags & ~(kCastBeforeWeight | kHasMeanOutput | kHasRstdOutput),
              isRms) +
      mixedTypesStr<DT, PT, OT>();
  // cast_mode and pRMSNorm's p (bits 16..31, in 2^-16).
  if (flags & kRoundNormalized)
    rep.head += (flags & kCastBeforeWeight) ? " cast=before" : " cast=after";
  double partial = static_cast<double>((flags >> 16) & 0xffff) / 65536.0;
  if (partial > 0.0)
    rep.head += numStr("partial", partial);
  if (offset != 0.0)
    rep.head += numStr("offset", offset);
  if (xShape.empty() || wShape.size() != 2) {
    rep.notes.push_back("bad rank");
    return failEarly(rep);
  }
  int64_t rank = static_cast<int64_t>(xShape.size());
  int64_t rows = product(xShape, 0, rank - 1), K = xShape[rank - 1];
  int64_t wK = trans ? wShape[1] : wShape[0];
  int64_t N = trans ? wShape[0] : wShape[1];
  if (wK != K) {
    rep.notes.push_back("K mismatch");
    return failEarly(rep);
  }
  std::vector<double> g, b, mb;
  if (!loadParam<PT>(gamma, flags & kHasGamma, K, "gamma", g, rep) ||
      !loadParam<PT>(beta, !isRms && (flags & kHasBeta), K, "beta", b, rep) ||
      !loadParam<OT>(mbias, flags & kHasMatmulBias, N, "matmul_bias", mb, rep))
    return failEarly(rep);

  // S = round_dt(X + R). When S is an output, the product is taken of the
  // returned values (checked against S on their own), as in checkMatmulNorm.
  if (flags & kHasResidual) {
    std::vector<double> rs;
    if (!loadParam<DT>(residual, true, rows * K, "residual", rs, rep))
      return failEarly(rep);
    xs = nref::residualAdd(DT::kind, xs, rs);
    if (flags & kHasSumOutput) {
      std::vector<double> sOut = load<DT>(sum);
      rep.extra.push_back({"sum", compare(sOut, xs, tolOf<DT>())});
      if (sOut.size() == xs.size())
        xs = sOut;
    }
  }
  NormParams p;
  p.isRms = isRms;
  p.eps = eps;
  p.offset = offset;
  p.epsOutside = flags & kEpsOutsideSqrt;
  p.roundNormalized = flags & kRoundNormalized;
  p.castBeforeWeight = flags & kCastBeforeWeight;
  if (partial > 0.0)
    p.partial = partial;
  std::vector<double> cRef;
  nref::referenceNormMatmul(DT::kind, xs.data(), rows, K, ws.data(), N, trans,
                           g.empty() ? nullptr : g.data(),
                           b.empty() ? nullptr : b.data(),
                           mb.empty() ? nullptr : mb.data(), p, cRef);
  std::vector<double> cOut = load<OT>(c);
  printRowErrors("c", cOut, cRef, N);
  rep.main = compare(cOut, cRef, fusedTolOf<DT>());
  rep.print();
}

/// The saved statistics of a norm → matmul op: the standalone norm's
/// reference statistics of its input (S with a residual), rstd the main
/// result when present.
template <typename DT>
void checkNormMatmulStatistics(
    bool isRms, UnrankedMemRefType<typename DT::Storage> *x,
    UnrankedMemRefType<typename DT::Storage> *residual,
    UnrankedMemRefType<float> *meanOut, UnrankedMemRefType<float> *rstdOut,
    double eps, double partial, int64_t flags) {
  Report rep;
  rep.tol = statTolOf<DT>();
  ReferenceRun run;
  flags &= kHasResidual | kEpsOutsideSqrt | kHasRstdOutput |
           (isRms ? 0 : kHasMeanOutput);
  // The statistics read only x and the residual. runReference also
  // computes y, for which γ and β must be buffers of at least a row's
  // elements: x's first row serves, and the y computed from it is never
  // compared.
  bool fits = runReference<DT>(isRms, x, residual, /*gamma=*/x, /*beta=*/x,
                               /*axis=*/-1, eps, /*offset=*/0.0, partial, flags,
                               rep, run);
  rep.head = std::string(isRms ? "rms_norm_matmul" : "layer_norm_matmul") +
             " statistics" + rep.head.substr(rep.head.find(' '));
  if (!fits)
    return failEarly(rep);
  std::vector<std::pair<std::string, Err>> results;
  if (flags & kHasRstdOutput)
    results.push_back(
        {"rstd", compare(load<F32>(rstdOut), run.rstd, statTolOf<DT>())});
  if (flags & kHasMeanOutput)
    results.push_back(
        {"mean", compare(load<F32>(meanOut), run.mean, statTolOf<DT>())});
  if (results.empty()) {
    rep.notes.push_back("no statistics to check");
    return failEarly(rep);
  }
  rep.main = results.front().second;
  rep.extra.assign(results.begin() + 1, results.end());
  rep.print();
}

/// C = C_before + A · W in float64 from the actual inputs (f32 C).
template <typename DT>
void checkMatmul(UnrankedMemRefType<typename DT::Storage> *a,
                 UnrankedMemRefType<typename DT::Storage> *w,
                 UnrankedMemRefType<float> *cBefore,
                 UnrankedMemRefType<float> *c, int64_t flags) {
  std::vector<int64_t> aShape, wShape;
  std::vector<double> as = load<DT>(a, &aShape);
  std::vector<double> ws = load<DT>(w, &wShape);
  bool trans = flags & kTransposeRhs;
  Report rep;
  rep.tol = fusedTolOf<F32>();
  rep.head = std::string("matmul ") + DT::name + " " +
             nref::shapeString(aShape) + " w=" + nref::shapeString(wShape) +
             (trans ? " trans_rhs" : "");
  if (aShape.size() != 2 || wShape.size() != 2 ||
      (trans ? wShape[1] : wShape[0]) != aShape[1]) {
    rep.notes.push_back("bad shapes");
    return failEarly(rep);
  }
  int64_t M = aShape[0], K = aShape[1], N = trans ? wShape[0] : wShape[1];
  std::vector<double> cRef = load<F32>(cBefore);
  if (static_cast<int64_t>(cRef.size()) != M * N) {
    rep.notes.push_back("C has the wrong size");
    return failEarly(rep);
  }
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0.0;
      for (int64_t k = 0; k < K; ++k)
        sum += as[i * K + k] * (trans ? ws[j * K + k] : ws[k * N + j]);
      cRef[i * N + j] += sum;
    }
  std::vector<double> cOut = load<F32>(c);
  printRowErrors("c", cOut, cRef, N);
  rep.main = compare(cOut, cRef, rep.tol);
  rep.print();
}

/// Y = norm(round_ot(A · W + matmul_bias + residual)) with A and W of DT,
/// γ/β of PT, and S, Y, the bias and the residual of OT.
template <typename DT, typename PT = DT, typename OT = DT>
void checkMatmulNorm(bool isRms, UnrankedMemRefType<typename DT::Storage> *a,
                     UnrankedMemRefType<typename DT::Storage> *w,
                     UnrankedMemRefType<typename OT::Storage> *mbias,
                     UnrankedMemRefType<typename OT::Storage> *residual,
                     UnrankedMemRefType<typename PT::Storage> *gamma,
                     UnrankedMemRefType<typename PT::Storage> *beta,
                     UnrankedMemRefType<typename OT::Storage> *y,
                     UnrankedMemRefType<typename OT::Storage> *sum, double eps,
                     double offset, int64_t flags) {
  std::vector<int64_t> aShape, wShape;
  std::vector<double> as = load<DT>(a, &aShape);
  std::vector<double> ws = load<DT>(w, &wShape);
  bool trans = flags & kTransposeRhs;

  Report rep;
  rep.tol = fusedTolOf<OT>();
  rep.head =
      std::string(isRms ? "matmul_rms_norm " : "matmul_layer_norm ") +
      DT::name + " " + nref::shapeString(aShape) +
      " w=" + nref::shapeString(wShape) +
      flagStr(flags & ~(kCastBeforeWeight | kHasMeanOutput | kHasRstdOutput),
              isRms) +
      mixedTypesStr<DT, PT, OT>();
  // cast_mode and pRMSNorm's p (bits 16..31, in 2^-16).
  if (flags & kRoundNormalized)
    rep.head += (flags & kCastBeforeWeight) ? " cast=before" : " cast=after";
  double partial = static_cast<double>((flags >> 16) & 0xffff) / 65536.0;
  if (partial > 0.0)
    rep.head += numStr("partial", partial);
  if (offset != 0.0)
    rep.head += numStr("offset", offset);
  // A per-head op's head_dim D (bits 32..47; 0: one norm over N).
  int64_t headDim = (flags >> kHeadDimShift) & 0xffff;
  if (headDim != 0)
    rep.head += " head_dim=" + std::to_string(headDim);
  if (aShape.empty() || wShape.size() != 2) {
    rep.notes.push_back("bad rank");
    return failEarly(rep);
  }
  int64_t rank = static_cast<int64_t>(aShape.size());
  int64_t rows = product(aShape, 0, rank - 1), K = aShape[rank - 1];
  int64_t wK = trans ? wShape[1] : wShape[0];
  int64_t N = trans ? wShape[0] : wShape[1];
  if (wK != K) {
    rep.notes.push_back("K mismatch");
    return failEarly(rep);
  }
  if (headDim != 0 && N % headDim != 0) {
    rep.notes.push_back("N not a multiple of head_dim");
    return failEarly(rep);
  }
  // The norm's rows and their length: S's rows, or its heads.
  int64_t normCols = headDim != 0 ? headDim : N;
  int64_t normRows = rows * (N / normCols);
  std::vector<double> g, b, mb, res;
  if (!loadParam<OT>(mbias, flags & kHasMatmulBias, N, "matmul_bias", mb,
                     rep) ||
      !loadParam<OT>(residual, flags & kHasResidual, rows * N, "residual", res,
                     rep) ||
      !loadParam<PT>(gamma, flags & kHasGamma, normCols, "gamma", g, rep) ||
      !loadParam<PT>(beta, !isRms && (flags & kHasBeta), normCols, "beta", b,
                     rep))
    return failEarly(rep);

  std::vector<double> sRef;
  nref::referenceMatmulSum(OT::kind, as.data(), rows, K, ws.data(), N, trans,
                           mb.empty() ? nullptr : mb.data(),
                           res.empty() ? nullptr : res.data(), sRef);
  // The op normalizes the S it returns. When that S is an output, normalize
  // the returned values (checked against sRef on their own): a one-ulp
  // difference in the rounding of S would otherwise be amplified by rows
  // whose |mean| >> std and show up as an error in Y.
  std::vector<double> sNorm = sRef;
  if (flags & kHasSumOutput) {
    std::vector<double> sOut = load<OT>(sum);
    Err e = compare(sOut, sRef, fusedTolOf<OT>());
    if (sOut.size() == sRef.size())
      sNorm = sOut;
    rep.extra.push_back({"sum", e});
  }
  NormParams p;
  p.isRms = isRms;
  p.eps = eps;
  p.offset = offset;
  p.epsOutside = flags & kEpsOutsideSqrt;
  std::vector<double> yRef, meanRef, rstdRef;
  referenceNorm<OT>(sNorm, normRows, normCols, g.empty() ? nullptr : g.data(),
                    b.empty() ? nullptr : b.data(), p, yRef, meanRef, rstdRef);
  std::vector<double> yOut = load<OT>(y);
  printRowErrors("y", yOut, yRef, normCols);
  rep.main = compare(yOut, yRef, fusedTolOf<OT>());
  rep.print();
}

/// dx, dγ and dβ of a gradient op against referenceNormGrad.
template <typename DT>
void checkNormGrad(bool isLayerNorm,
                   UnrankedMemRefType<typename DT::Storage> *dy,
                   UnrankedMemRefType<typename DT::Storage> *x,
                   UnrankedMemRefType<typename DT::Storage> *sumGrad,
                   UnrankedMemRefType<typename DT::Storage> *gamma,
                   UnrankedMemRefType<float> *mean,
                   UnrankedMemRefType<float> *rstd,
                   UnrankedMemRefType<typename DT::Storage> *dx,
                   UnrankedMemRefType<typename DT::Storage> *dgamma,
                   UnrankedMemRefType<typename DT::Storage> *dbeta,
                   int64_t axis, double eps, double offset, int64_t flags) {
  std::vector<int64_t> shape;
  std::vector<double> xs = load<DT>(x, &shape);
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t ax = axis < 0 ? axis + rank : axis;
  Report rep;
  rep.tol = tolOf<DT>();
  rep.head = std::string(isLayerNorm ? "layer_norm_grad " : "rms_norm_grad ") +
             DT::name + " " + nref::shapeString(shape) +
             " axis=" + std::to_string(ax) + flagStr(flags, !isLayerNorm);
  if (offset != 0.0)
    rep.head += numStr("offset", offset);
  if (ax < 0 || ax >= rank) {
    rep.notes.push_back("bad axis");
    return failEarly(rep);
  }
  int64_t rows = product(shape, 0, ax), n = product(shape, ax, rank);
  std::vector<double> dys = load<DT>(dy), ds, g, meanIn, rstdIn;
  if (!loadParam<DT>(sumGrad, flags & kHasResidual, rows * n, "sum_grad", ds,
                     rep) ||
      !loadParam<DT>(gamma, flags & kHasGamma, n, "gamma", g, rep))
    return failEarly(rep);
  if (isLayerNorm && (flags & kHasMeanOutput))
    meanIn = load<F32>(mean);
  if (flags & kHasRstdOutput)
    rstdIn = load<F32>(rstd);
  auto ptr = [](const std::vector<double> &v) {
    return v.empty() ? nullptr : v.data();
  };
  NormParams p;
  p.isRms = !isLayerNorm;
  p.eps = eps;
  p.offset = offset;
  p.epsOutside = flags & kEpsOutsideSqrt;
  std::vector<double> dxRef, dgRef, dbRef;
  nref::referenceNormGrad(DT::kind, dys.data(), xs.data(), rows, n, ptr(g),
                          ptr(ds), ptr(meanIn), ptr(rstdIn), p, dxRef, dgRef,
                          dbRef);
  double columnTol = nref::getColumnSumTolerance(DT::kind);
  rep.main.ok = true;
  if (flags & kHasDx) {
    std::vector<double> dxOut = load<DT>(dx);
    printRowErrors("dx", dxOut, dxRef, n);
    rep.main = compare(dxOut, dxRef, tolOf<DT>());
  }
  if (flags & kHasWeightGrad)
    rep.extra.push_back(
        {"dgamma", compare(load<DT>(dgamma), dgRef, columnTol)});
  if (isLayerNorm && (flags & kHasBiasGrad))
    rep.extra.push_back({"dbeta", compare(load<DT>(dbeta), dbRef, columnTol)});
  rep.print();
}

} // namespace

//===----------------------------------------------------------------------===//
// Exported entry points
//===----------------------------------------------------------------------===//

/// The fused checkers for input type DT, γ/β type PT and output type OT,
/// with the name suffix NAME.
#define NORM_RT_DEFINE_FUSED(NAME, DT, PT, OT)                                 \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_rms_norm_matmul_##NAME(     \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *w,                                      \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *c, double epsilon, double weightOffset, \
      int64_t flags) {                                                         \
    checkNormMatmul<DT, PT, OT>(                                               \
        /*isRms=*/true, x, /*residual=*/x, /*sum=*/x, gamma, /*beta=*/gamma,   \
        w, matmulBias, c, epsilon, weightOffset,                               \
        flags & ~(int64_t)(kHasBeta | kHasResidual | kHasSumOutput));          \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_layer_norm_matmul_##NAME(   \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<PT::Storage> *beta,                                   \
      UnrankedMemRefType<DT::Storage> *w,                                      \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *c, double epsilon, double weightOffset, \
      int64_t flags) {                                                         \
    checkNormMatmul<DT, PT, OT>(                                               \
        /*isRms=*/false, x, /*residual=*/x, /*sum=*/x, gamma, beta, w,         \
        matmulBias, c, epsilon, weightOffset,                                  \
        flags & ~(int64_t)(kHasResidual | kHasSumOutput));                     \
  }                                                                            \
  NORM_RT_EXPORT void                                                          \
  _mlir_ciface_norm_test_check_residual_rms_norm_matmul_##NAME(                \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *w,                                      \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *c,                                      \
      UnrankedMemRefType<DT::Storage> *sum, double epsilon,                    \
      double weightOffset, int64_t flags) {                                    \
    checkNormMatmul<DT, PT, OT>(/*isRms=*/true, x, residual, sum, gamma,       \
                                /*beta=*/gamma, w, matmulBias, c, epsilon,     \
                                weightOffset, flags & ~(int64_t)kHasBeta);     \
  }                                                                            \
  NORM_RT_EXPORT void                                                          \
  _mlir_ciface_norm_test_check_residual_layer_norm_matmul_##NAME(              \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<PT::Storage> *beta,                                   \
      UnrankedMemRefType<DT::Storage> *w,                                      \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *c,                                      \
      UnrankedMemRefType<DT::Storage> *sum, double epsilon,                    \
      double weightOffset, int64_t flags) {                                    \
    checkNormMatmul<DT, PT, OT>(/*isRms=*/false, x, residual, sum, gamma,      \
                                beta, w, matmulBias, c, epsilon, weightOffset, \
                                flags);                                        \
  }                                                                            \
  NORM_RT_DEFINE_MATMUL_NORM(NAME, DT, PT, OT)

/// The matmul → norm checkers alone: A and W of DT, γ/β of PT, S, Y, the
/// bias and the residual of OT (which may be narrower than DT: bf16 or f16
/// from f32 operands).
#define NORM_RT_DEFINE_MATMUL_NORM(NAME, DT, PT, OT)                           \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_matmul_rms_norm_##NAME(     \
      UnrankedMemRefType<DT::Storage> *a, UnrankedMemRefType<DT::Storage> *w,  \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *residual,                               \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<OT::Storage> *y,                                      \
      UnrankedMemRefType<OT::Storage> *sum, double epsilon,                    \
      double weightOffset, int64_t flags) {                                    \
    checkMatmulNorm<DT, PT, OT>(/*isRms=*/true, a, w, matmulBias, residual,    \
                                gamma, /*beta=*/gamma, y, sum, epsilon,        \
                                weightOffset, flags & ~(int64_t)kHasBeta);     \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_matmul_layer_norm_##NAME(   \
      UnrankedMemRefType<DT::Storage> *a, UnrankedMemRefType<DT::Storage> *w,  \
      UnrankedMemRefType<OT::Storage> *matmulBias,                             \
      UnrankedMemRefType<OT::Storage> *residual,                               \
      UnrankedMemRefType<PT::Storage> *gamma,                                  \
      UnrankedMemRefType<PT::Storage> *beta,                                   \
      UnrankedMemRefType<OT::Storage> *y,                                      \
      UnrankedMemRefType<OT::Storage> *sum, double epsilon,                    \
      double weightOffset, int64_t flags) {                                    \
    checkMatmulNorm<DT, PT, OT>(/*isRms=*/false, a, w, matmulBias, residual,   \
                                gamma, beta, y, sum, epsilon, weightOffset,    \
                                flags);                                        \
  }

#define NORM_RT_DEFINE(DTNAME, DT)                                             \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_fill_##DTNAME(                    \
      UnrankedMemRefType<DT::Storage> *m, int64_t seed, double mean,           \
      double scale) {                                                          \
    fillImpl<DT>(m, seed, mean, scale, /*axis=*/-1, /*perRow=*/false);         \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_fill_rows_##DTNAME(               \
      UnrankedMemRefType<DT::Storage> *m, int64_t seed, double mean,           \
      double scale, int64_t axis) {                                            \
    fillImpl<DT>(m, seed, mean, scale, axis, /*perRow=*/true);                 \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_rms_norm_##DTNAME(          \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<DT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *y,                                      \
      UnrankedMemRefType<DT::Storage> *sum, UnrankedMemRefType<float> *rstd,   \
      int64_t axis, double epsilon, double weightOffset, double partial,       \
      int64_t flags) {                                                         \
    checkNorm<DT>(/*isRms=*/true, x, residual, gamma, /*beta=*/gamma, y, sum,  \
                  /*mean=*/rstd, rstd, axis, epsilon, weightOffset, partial,   \
                  flags & ~(int64_t)(kHasBeta | kHasMeanOutput));              \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_layer_norm_##DTNAME(        \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<DT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *beta,                                   \
      UnrankedMemRefType<DT::Storage> *y,                                      \
      UnrankedMemRefType<DT::Storage> *sum, UnrankedMemRefType<float> *mean,   \
      UnrankedMemRefType<float> *rstd, int64_t axis, double epsilon,           \
      double weightOffset, int64_t flags) {                                    \
    checkNorm<DT>(/*isRms=*/false, x, residual, gamma, beta, y, sum, mean,     \
                  rstd, axis, epsilon, weightOffset, /*partial=*/1.0, flags);  \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_group_norm_##DTNAME(        \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *beta,                                   \
      UnrankedMemRefType<DT::Storage> *y, UnrankedMemRefType<float> *mean,     \
      UnrankedMemRefType<float> *rstd, int64_t numGroups, double epsilon,      \
      int64_t flags) {                                                         \
    checkGroupNorm<DT>(x, gamma, beta, y, mean, rstd, numGroups, epsilon,      \
                       flags);                                                 \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_rope_norm_##DTNAME(         \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<DT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *beta,                                   \
      UnrankedMemRefType<DT::Storage> *cos,                                    \
      UnrankedMemRefType<DT::Storage> *sin,                                    \
      UnrankedMemRefType<DT::Storage> *y,                                      \
      UnrankedMemRefType<DT::Storage> *sum, int64_t isLayerNorm,               \
      int64_t interleaved, double epsilon, double weightOffset,                \
      int64_t flags) {                                                         \
    int64_t statistics = kHasMeanOutput | kHasRstdOutput;                      \
    checkNorm<DT>(isLayerNorm == 0, x, residual, gamma, beta, y, sum,          \
                  /*mean=*/nullptr, /*rstd=*/nullptr, /*axis=*/-1, epsilon,    \
                  weightOffset, /*partial=*/1.0, flags & ~statistics,          \
                  {cos, sin, interleaved != 0});                               \
  }                                                                            \
  NORM_RT_DEFINE_FUSED(DTNAME, DT, DT, DT)                                     \
  NORM_RT_EXPORT void                                                          \
  _mlir_ciface_norm_test_check_norm_matmul_statistics_##DTNAME(                \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<float> *mean, UnrankedMemRefType<float> *rstd,        \
      int64_t isLayerNorm, double epsilon, double partial, int64_t flags) {    \
    checkNormMatmulStatistics<DT>(isLayerNorm == 0, x, residual, mean, rstd,   \
                                  epsilon, partial, flags);                    \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_norm_grad_##DTNAME(         \
      UnrankedMemRefType<DT::Storage> *dy, UnrankedMemRefType<DT::Storage> *x, \
      UnrankedMemRefType<DT::Storage> *sumGrad,                                \
      UnrankedMemRefType<DT::Storage> *gamma, UnrankedMemRefType<float> *mean, \
      UnrankedMemRefType<float> *rstd, UnrankedMemRefType<DT::Storage> *dx,    \
      UnrankedMemRefType<DT::Storage> *dgamma,                                 \
      UnrankedMemRefType<DT::Storage> *dbeta, int64_t isLayerNorm,             \
      int64_t axis, double epsilon, double weightOffset, int64_t flags) {      \
    checkNormGrad<DT>(isLayerNorm != 0, dy, x, sumGrad, gamma, mean, rstd, dx, \
                      dgamma, dbeta, axis, epsilon, weightOffset, flags);      \
  }                                                                            \
  NORM_RT_EXPORT void _mlir_ciface_norm_test_check_matmul_##DTNAME(            \
      UnrankedMemRefType<DT::Storage> *a, UnrankedMemRefType<DT::Storage> *w,  \
      UnrankedMemRefType<float> *cBefore, UnrankedMemRefType<float> *c,        \
      int64_t flags) {                                                         \
    checkMatmul<DT>(a, w, cBefore, c, flags);                                  \
  }

/// The quantized-norm checker for input type DT and quantized type QT
/// (bytes in memory), named norm_test_check_quant_norm_<DTNAME>_<QTNAME>.
#define NORM_RT_DEFINE_QUANT(DTNAME, DT, QTNAME, QT)                           \
  NORM_RT_EXPORT void                                                          \
  _mlir_ciface_norm_test_check_quant_norm_##DTNAME##_##QTNAME(                 \
      UnrankedMemRefType<DT::Storage> *x,                                      \
      UnrankedMemRefType<DT::Storage> *residual,                               \
      UnrankedMemRefType<DT::Storage> *gamma,                                  \
      UnrankedMemRefType<DT::Storage> *beta, UnrankedMemRefType<uint8_t> *q,   \
      UnrankedMemRefType<DT::Storage> *sum, UnrankedMemRefType<float> *scales, \
      int64_t axis, double epsilon, double weightOffset, double scale,         \
      double scaleMin, int64_t group, int64_t flags) {                         \
    checkQuantNorm<DT>(nref::QuantType::QT, x, residual, gamma, beta, q, sum,  \
                       scales, axis, epsilon, weightOffset, scale, scaleMin,   \
                       group, flags);                                          \
  }

NORM_RT_DEFINE(f32, F32)
NORM_RT_DEFINE(f16, F16)
NORM_RT_DEFINE(bf16, BF16)
NORM_RT_DEFINE_QUANT(f32, F32, f8E4M3FN, F8E4M3FN)
NORM_RT_DEFINE_QUANT(f32, F32, f8E5M2, F8E5M2)
NORM_RT_DEFINE_QUANT(f32, F32, i8, I8)
NORM_RT_DEFINE_QUANT(bf16, BF16, f8E4M3FN, F8E4M3FN)
NORM_RT_DEFINE_QUANT(bf16, BF16, f8E5M2, F8E5M2)
NORM_RT_DEFINE_QUANT(bf16, BF16, i8, I8)
// Mixed element types: f32 γ/β (_pf32), and f32 γ/β and output (_of32).
NORM_RT_DEFINE_FUSED(bf16_pf32, BF16, F32, BF16)
NORM_RT_DEFINE_FUSED(f16_pf32, F16, F32, F16)
NORM_RT_DEFINE_FUSED(bf16_of32, BF16, F32, F32)
NORM_RT_DEFINE_FUSED(f16_of32, F16, F32, F32)
// f32 A and W whose product rounds to a 16-bit S and Y (matmul -> norm
// only): γ/β of the output's type (_obf16, _of16) or f32 (_pf32_o...).
NORM_RT_DEFINE_MATMUL_NORM(f32_obf16, F32, BF16, BF16)
NORM_RT_DEFINE_MATMUL_NORM(f32_of16, F32, F16, F16)
NORM_RT_DEFINE_MATMUL_NORM(f32_pf32_obf16, F32, F32, BF16)
NORM_RT_DEFINE_MATMUL_NORM(f32_pf32_of16, F32, F32, F16)

#undef NORM_RT_DEFINE
#undef NORM_RT_DEFINE_FUSED
#undef NORM_RT_DEFINE_MATMUL_NORM
#undef NORM_RT_DEFINE_QUANT
