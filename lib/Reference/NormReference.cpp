//===- NormReference.cpp - float64 reference for the norm ops -------------===//
//
// See include/norm/Reference/NormReference.h. No MLIR or LLVM dependency.
//
//===----------------------------------------------------------------------===//

#include "norm/Reference/NormReference.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir::norm::reference;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

const char *mlir::norm::reference::getElemTypeName(ElemType t) {
  switch (t) {
  case ElemType::F32:
    return "f32";
  case ElemType::F16:
    return "f16";
  case ElemType::BF16:
    return "bf16";
  }
  return "?";
}

unsigned mlir::norm::reference::getElemTypeByteWidth(ElemType t) {
  return t == ElemType::F32 ? 4 : 2;
}

double mlir::norm::reference::roundToFormat(double v, int precision, int emin,
                                            double maxFinite) {
  if (!std::isfinite(v) || v == 0.0)
    return v;
  int e = std::ilogb(v);
  if (e < emin)
    e = emin; // subnormal range: fixed quantum 2^(emin - precision + 1)
  double quantum = std::ldexp(1.0, e - precision + 1);
  // Scaling by a power of two is exact; nearbyint rounds half to even in the
  // default rounding mode.
  double r = std::nearbyint(v / quantum) * quantum;
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, v);
  return r;
}

namespace {
double roundF16(double v) { return roundToFormat(v, 11, -14, 65504.0); }
// Largest finite bf16: (2 - 2^-7) * 2^127.
double roundBF16(double v) {
  return roundToFormat(v, 8, -126, std::ldexp(255.0, 120));
}
} // namespace

double mlir::norm::reference::roundTo(ElemType t, double v) {
  switch (t) {
  case ElemType::F32:
    return static_cast<float>(v);
  case ElemType::F16:
    return roundF16(v);
  case ElemType::BF16:
    return roundBF16(v);
  }
  return v;
}

double mlir::norm::reference::f16BitsToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double mag;
  if (exp == 0)
    mag = std::ldexp(static_cast<double>(mant), -24);
  else if (exp == 0x1f)
    mag = mant ? NAN : INFINITY;
  else
    mag = std::ldexp(static_cast<double>(mant | 0x400), exp - 25);
  return sign ? -mag : mag;
}

uint16_t mlir::norm::reference::doubleToF16Bits(double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return sign | 0x7e00;
  double r = std::fabs(roundF16(v));
  if (std::isinf(r))
    return sign | 0x7c00;
  if (r == 0.0)
    return sign;
  if (r < std::ldexp(1.0, -14)) // subnormal
    return sign | static_cast<uint16_t>(std::ldexp(r, 24));
  int e = std::ilogb(r);
  uint16_t mant =
      static_cast<uint16_t>(std::ldexp(r, 10 - e)) & 0x3ff; // drop hidden 1
  return sign | static_cast<uint16_t>((e + 15) << 10) | mant;
}

double mlir::norm::reference::bf16BitsToDouble(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t mlir::norm::reference::doubleToBF16Bits(double v) {
  if (std::isnan(v))
    return std::signbit(v) ? 0xffc0 : 0x7fc0;
  // The rounded value is exactly representable in bf16, hence in f32, and
  // its low 16 f32 bits are zero.
  float f = static_cast<float>(roundBF16(v));
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

double mlir::norm::reference::loadElement(ElemType t, const void *base,
                                          int64_t index) {
  switch (t) {
  case ElemType::F32:
    return static_cast<const float *>(base)[index];
  case ElemType::F16:
    return f16BitsToDouble(static_cast<const uint16_t *>(base)[index]);
  case ElemType::BF16:
    return bf16BitsToDouble(static_cast<const uint16_t *>(base)[index]);
  }
  return NAN;
}

void mlir::norm::reference::storeElement(ElemType t, void *base,
                                         int64_t index, double v) {
  switch (t) {
  case ElemType::F32:
    static_cast<float *>(base)[index] = static_cast<float>(v);
    return;
  case ElemType::F16:
    static_cast<uint16_t *>(base)[index] = doubleToF16Bits(v);
    return;
  case ElemType::BF16:
    static_cast<uint16_t *>(base)[index] = doubleToBF16Bits(v);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Tolerances
//===----------------------------------------------------------------------===//

double mlir::norm::reference::getTolerance(ElemType t, bool fused) {
  switch (t) {
  case ElemType::F32:
    return fused ? 1e-5 : 1e-6;
  case ElemType::F16:
    return 2e-3;
  case ElemType::BF16:
    return 1e-2;
  }
  return 0.0;
}

double mlir::norm::reference::getNormTolerance(ElemType in, ElemType out,
                                               bool castBeforeWeight) {
  double tol = getTolerance(out, /*fused=*/false);
  if (castBeforeWeight)
    tol = std::max(tol, getTolerance(in, /*fused=*/false));
  return tol;
}

double mlir::norm::reference::getStatTolerance(ElemType t) {
  return t == ElemType::F32 ? 1e-6 : 1e-5;
}

double mlir::norm::reference::getColumnSumTolerance(ElemType out) {
  return out == ElemType::F32 ? 1e-5 : getTolerance(out, /*fused=*/false);
}

//===----------------------------------------------------------------------===//
// Op semantics
//===----------------------------------------------------------------------===//

std::vector<double>
mlir::norm::reference::residualAdd(ElemType t, const std::vector<double> &x,
                                   const std::vector<double> &residual) {
  std::vector<double> s(x.size());
  for (size_t i = 0; i < x.size() && i < residual.size(); ++i)
    s[i] = roundTo(t, x[i] + residual[i]);
  return s;
}

void mlir::norm::reference::referenceNorm(ElemType t, const double *s,
                                          int64_t rows, int64_t n,
                                          const double *gamma,
                                          const double *beta,
                                          const NormParams &p,
                                          std::vector<double> &y,
                                          std::vector<double> &mean,
                                          std::vector<double> &rstd) {
  y.assign(rows * n, 0.0);
  mean.assign(rows, 0.0);
  rstd.assign(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = s + r * n;
    double mu = 0.0, v = 0.0;
    if (p.isRms) {
      int64_t k = n;
      if (p.partial < 1.0) {
        k = static_cast<int64_t>(std::ceil(p.partial * static_cast<double>(n)));
        if (k < 1)
          k = 1;
        if (k > n)
          k = n;
      }
      for (int64_t j = 0; j < k; ++j)
        v += row[j] * row[j];
      v /= static_cast<double>(k);
    } else {
      for (int64_t j = 0; j < n; ++j)
        mu += row[j];
      mu /= static_cast<double>(n);
      for (int64_t j = 0; j < n; ++j)
        v += (row[j] - mu) * (row[j] - mu);
      v /= static_cast<double>(n);
    }
    double rs = p.epsOutside ? 1.0 / (std::sqrt(v) + p.eps)
                             : 1.0 / std::sqrt(v + p.eps);
    mean[r] = mu;
    rstd[r] = rs;
    for (int64_t j = 0; j < n; ++j) {
      double z = (row[j] - mu) * rs;
      if (p.castBeforeWeight)
        z = roundTo(t, z);
      double g = (gamma ? gamma[j] : 1.0) + p.offset;
      y[r * n + j] = z * g + (beta ? beta[j] : 0.0);
    }
  }
}

void mlir::norm::reference::applyRotaryEmbedding(
    std::vector<double> &y, const std::vector<int64_t> &shape,
    const std::vector<int64_t> &angleShape, const double *cos,
    const double *sin, bool interleaved, std::optional<ElemType> eachStep) {
  size_t rank = shape.size();
  if (rank == 0 || angleShape.size() != rank)
    return;
  int64_t d = shape[rank - 1];
  // Each step rounded to the output type, or nothing rounded.
  auto step = [&](double value) {
    return eachStep ? roundTo(*eachStep, value) : value;
  };
  std::vector<double> v = y;
  for (double &value : v)
    value = step(value);
  for (size_t i = 0; i < v.size(); ++i) {
    // The angles' element: the same index, 0 in their broadcast dims.
    int64_t rest = static_cast<int64_t>(i), angle = 0, angleStride = 1;
    for (size_t k = rank; k-- > 0;) {
      int64_t index = rest % shape[k];
      rest /= shape[k];
      if (angleShape[k] != 1)
        angle += index * angleStride;
      angleStride *= angleShape[k];
    }
    int64_t j = static_cast<int64_t>(i) % d, row = static_cast<int64_t>(i) - j;
    bool first = interleaved ? j % 2 == 0 : j < d / 2;
    int64_t partner =
        interleaved ? (first ? j + 1 : j - 1) : (first ? j + d / 2 : j - d / 2);
    double term = step(v[row + partner] * sin[angle]);
    y[i] = step(step(v[i] * cos[angle]) + (first ? -term : term));
  }
}

void mlir::norm::reference::referenceNormGrad(
    ElemType t, const double *dy, const double *x, int64_t rows, int64_t n,
    const double *gamma, const double *sumGrad, const double *meanIn,
    const double *rstdIn, const NormParams &p, std::vector<double> &dx,
    std::vector<double> &dgamma, std::vector<double> &dbeta) {
  std::vector<double> mean, rstd;
  if (rstdIn) {
    rstd.assign(rstdIn, rstdIn + rows);
    mean.assign(rows, 0.0);
    if (meanIn && !p.isRms)
      mean.assign(meanIn, meanIn + rows);
  } else {
    std::vector<double> y;
    referenceNorm(t, x, rows, n, nullptr, nullptr, p, y, mean, rstd);
  }
  int64_t k = n;
  if (p.isRms && p.partial < 1.0)
    k = std::min<int64_t>(
        n,
        std::max<int64_t>(1, static_cast<int64_t>(std::ceil(p.partial * n))));
  dx.assign(rows * n, 0.0);
  dgamma.assign(n, 0.0);
  dbeta.assign(n, 0.0);
  std::vector<double> xhat(n), dyhat(n);
  for (int64_t r = 0; r < rows; ++r) {
    const double *dyRow = dy + r * n, *xRow = x + r * n;
    double sumDyHat = 0.0, sumDyHatXHat = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      xhat[j] = (xRow[j] - mean[r]) * rstd[r];
      dyhat[j] = dyRow[j] * ((gamma ? gamma[j] : 1.0) + p.offset);
      sumDyHat += dyhat[j];
      sumDyHatXHat += dyhat[j] * xhat[j];
      dgamma[j] += dyRow[j] * xhat[j];
      dbeta[j] += dyRow[j];
    }
    double c = 1.0;
    if (p.epsOutside) {
      double sigma = 1.0 / rstd[r] - p.eps;
      c = (sigma + p.eps) / sigma;
    }
    for (int64_t j = 0; j < n; ++j) {
      double v = dyhat[j];
      if (!p.isRms)
        v -= sumDyHat / static_cast<double>(n);
      if (j < k)
        v -= c * xhat[j] * sumDyHatXHat / static_cast<double>(k);
      dx[r * n + j] = rstd[r] * v + (sumGrad ? sumGrad[r * n + j] : 0.0);
    }
  }
}

void mlir::norm::reference::referenceGroupNorm(
    ElemType t, const double *x, int64_t batch, int64_t channels,
    int64_t spatial, int64_t groups, const double *gamma, const double *beta,
    const NormParams &p, std::vector<double> &y, std::vector<double> &mean,
    std::vector<double> &rstd) {
  NormParams layerNorm;
  layerNorm.isRms = false;
  layerNorm.eps = p.eps;
  // Rows are the (sample, group) runs, contiguous in [N, C, S...].
  referenceNorm(t, x, batch * groups, channels / groups * spatial, nullptr,
                nullptr, layerNorm, y, mean, rstd);
  for (int64_t i = 0, e = batch * channels * spatial; i < e; ++i) {
    int64_t c = i / spatial % channels;
    y[i] = y[i] * (gamma ? gamma[c] : 1.0) + (beta ? beta[c] : 0.0);
  }
}

void mlir::norm::reference::referenceNormMatmul(
    ElemType t, const double *x, int64_t rows, int64_t k, const double *w,
    int64_t n, bool transposeRhs, const double *gamma, const double *beta,
    const double *matmulBias, const NormParams &p, std::vector<double> &c,
    std::vector<double> *mean, std::vector<double> *rstd) {
  NormParams np = p;
  np.castBeforeWeight = p.roundNormalized && p.castBeforeWeight;
  std::vector<double> z, means, rstds;
  referenceNorm(t, x, rows, k, gamma, beta, np, z, means, rstds);
  if (mean)
    *mean = std::move(means);
  if (rstd)
    *rstd = std::move(rstds);
  if (p.roundNormalized)
    for (double &v : z)
      v = roundTo(t, v);
  c.assign(rows * n, 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = matmulBias ? matmulBias[j] : 0.0;
      for (int64_t q = 0; q < k; ++q)
        acc += z[i * k + q] * (transposeRhs ? w[j * k + q] : w[q * n + j]);
      c[i * n + j] = acc;
    }
}

void mlir::norm::reference::referenceMatmulSum(
    ElemType t, const double *a, int64_t rows, int64_t k, const double *w,
    int64_t n, bool transposeRhs, const double *matmulBias,
    const double *residual, std::vector<double> &s) {
  s.assign(rows * n, 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0.0;
      for (int64_t q = 0; q < k; ++q)
        acc += a[i * k + q] * (transposeRhs ? w[j * k + q] : w[q * n + j]);
      if (matmulBias)
        acc += matmulBias[j];
      if (residual)
        acc += residual[i * n + j];
      s[i * n + j] = roundTo(t, acc);
    }
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

CompareResult mlir::norm::reference::compare(const std::vector<double> &out,
                                             const std::vector<double> &ref,
                                             double tol) {
  CompareResult e;
  if (out.size() != ref.size()) {
    e.ok = false;
    e.relErr = NAN;
    e.note = "size mismatch (" + std::to_string(out.size()) + " vs " +
             std::to_string(ref.size()) + ")";
    return e;
  }
  double num = 0.0, den = 0.0;
  bool bad = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(ref[i])) {
      // Non-finite reference: out must be the same kind of value.
      bool same = std::isnan(ref[i]) ? std::isnan(out[i]) : out[i] == ref[i];
      if (!same)
        bad = true;
      continue;
    }
    if (!std::isfinite(out[i])) {
      bad = true;
      continue;
    }
    double d = out[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  e.relErr = den > 0.0 ? std::sqrt(num / den) : std::sqrt(num);
  if (bad)
    e.relErr = NAN;
  e.ok = !bad && e.relErr <= tol;
  return e;
}

//===----------------------------------------------------------------------===//
// Quantized outputs
//===----------------------------------------------------------------------===//

const char *mlir::norm::reference::getQuantTypeName(QuantType t) {
  switch (t) {
  case QuantType::F8E4M3FN:
    return "f8E4M3FN";
  case QuantType::F8E5M2:
    return "f8E5M2";
  case QuantType::I8:
    return "i8";
  }
  return "?";
}

double mlir::norm::reference::getQuantMax(QuantType t) {
  switch (t) {
  case QuantType::F8E4M3FN:
    return 448.0;
  case QuantType::F8E5M2:
    return 57344.0;
  case QuantType::I8:
    return 127.0;
  }
  return 0.0;
}

double mlir::norm::reference::quantize(QuantType t, double v) {
  if (std::isnan(v))
    return v;
  double qmax = getQuantMax(t);
  switch (t) {
  case QuantType::F8E4M3FN:
    return roundToFormat(std::clamp(v, -qmax, qmax), 4, -6, qmax);
  case QuantType::F8E5M2:
    return roundToFormat(std::clamp(v, -qmax, qmax), 3, -14, qmax);
  case QuantType::I8:
    return std::clamp(std::nearbyint(v), -qmax - 1.0, qmax);
  }
  return v;
}

double mlir::norm::reference::decodeQuant(QuantType t, uint8_t bits) {
  if (t == QuantType::I8)
    return static_cast<int8_t>(bits);
  int mantissaBits = t == QuantType::F8E4M3FN ? 3 : 2;
  int bias = t == QuantType::F8E4M3FN ? 7 : 15;
  int exponent = (bits & 0x7f) >> mantissaBits;
  int mantissa = bits & ((1 << mantissaBits) - 1);
  int maxExponent = (1 << (7 - mantissaBits)) - 1;
  double magnitude;
  if (t == QuantType::F8E4M3FN && (bits & 0x7f) == 0x7f)
    magnitude = NAN; // E4M3FN: no infinities, one NaN pattern
  else if (t == QuantType::F8E5M2 && exponent == maxExponent)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(mantissa, 1 - bias - mantissaBits);
  else
    magnitude = std::ldexp(mantissa | (1 << mantissaBits),
                           exponent - bias - mantissaBits);
  return (bits & 0x80) ? -magnitude : magnitude;
}

std::vector<double>
mlir::norm::reference::quantScales(QuantType t, const std::vector<double> &y,
                                   int64_t rows, int64_t n, int64_t group,
                                   double sMin) {
  std::vector<double> scales;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t g = 0; g < n; g += group) {
      double amax = 0.0;
      for (int64_t j = g; j < g + group; ++j)
        amax = std::isnan(y[r * n + j])
                   ? NAN
                   : std::fmax(amax, std::fabs(y[r * n + j]));
      scales.push_back(
          std::isnan(amax) ? amax : std::fmax(amax / getQuantMax(t), sMin));
    }
  return scales;
}

QuantCompareResult mlir::norm::reference::compareQuantized(
    QuantType t, const std::vector<double> &out, const std::vector<double> &y,
    const std::vector<double> &scales, int64_t perScale) {
  QuantCompareResult e;
  if (out.size() != y.size() || perScale <= 0 ||
      scales.size() * perScale != y.size()) {
    e.ok = false;
    e.note = "size mismatch";
    return e;
  }
  constexpr double kBoundary = 1e-6;
  for (size_t i = 0; i < out.size(); ++i) {
    double exact = y[i] / scales[i / perScale];
    double q = quantize(t, exact);
    if (std::isnan(exact)) {
      // fp8 keeps NaN; an i8 NaN row is unspecified.
      if (t != QuantType::I8 && !std::isnan(out[i]))
        ++e.mismatches;
      continue;
    }
    if (out[i] == q)
      continue;
    if (out[i] == quantize(t, exact * (1 + kBoundary)) ||
        out[i] == quantize(t, exact * (1 - kBoundary)))
      ++e.boundarySteps;
    else
      ++e.mismatches;
  }
  e.ok = e.mismatches == 0;
  return e;
}

double mlir::norm::reference::maxRelativeError(const std::vector<double> &out,
                                               const std::vector<double> &ref) {
  if (out.size() != ref.size())
    return NAN;
  double worst = 0.0;
  for (size_t i = 0; i < out.size(); ++i) {
    double err = std::fabs(out[i] - ref[i]) / std::fabs(ref[i]);
    if (!(err <= worst)) // NaN sticks
      worst = std::isnan(err) && out[i] == ref[i] ? worst : err;
  }
  return worst;
}

//===----------------------------------------------------------------------===//
// Random streams
//===----------------------------------------------------------------------===//

uint64_t SplitMix64::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0;
}

double SplitMix64::normal() {
  // u1 in (0, 1] so that log(u1) is finite.
  double u1 = static_cast<double>((next() >> 11) + 1) * 0x1.0p-53;
  double u2 = static_cast<double>(next() >> 11) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

std::string mlir::norm::reference::shapeString(
    const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += "x";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}
