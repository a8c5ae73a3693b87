// Plain C++ baseline: the loops a programmer writes first.
//   RMSNorm:   y = x * rsqrt(mean(x^2) + eps) * γ
//   LayerNorm: two-pass statistics (mean, then mean of (x-mean)^2),
//              y = (x - mean) * rsqrt(var + eps) * γ + β
// Per row, f32 accumulation; bf16 is stored as uint16 and converted to f32
// on load (shift) and back on store (round to nearest even). Rows are split
// over OpenMP threads (static schedule). The only help given to the compiler
// is `#pragma omp simd reduction` on the sums, so that -O3 may vectorize them
// without -ffast-math.
//
//   cxx_norm --op=rms|ln --dtype=f32|bf16 --rows=R --hidden=H --threads=T [--target=0.5]
// prints one `cxx_norm: ...` line (see common.h Problem::print).
//
// Build (run.sh does it): clang++-22 -O3 -march=native -fopenmp cxx_norm.cpp
#include "common.h"

#include <omp.h>

using namespace bench;

namespace {

template <class T> inline float ld(const T *p, int64_t i);
template <> inline float ld<float>(const float *p, int64_t i) { return p[i]; }
template <> inline float ld<uint16_t>(const uint16_t *p, int64_t i) { return bf16_to_f32(p[i]); }
inline void st(float *p, int64_t i, float v) { p[i] = v; }
inline void st(uint16_t *p, int64_t i, float v) { p[i] = f32_to_bf16(v); }

template <class T>
void rms_norm(const T *x, const T *g, T *y, int64_t R, int64_t H, float eps, int threads) {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t r = 0; r < R; ++r) {
    const T *xr = x + r * H;
    T *yr = y + r * H;
    float ss = 0.f;
#pragma omp simd reduction(+ : ss)
    for (int64_t c = 0; c < H; ++c) { float v = ld(xr, c); ss += v * v; }
    float rstd = 1.f / std::sqrt(ss / (float)H + eps);
#pragma omp simd
    for (int64_t c = 0; c < H; ++c) st(yr, c, ld(xr, c) * rstd * ld(g, c));
  }
}

template <class T>
void layer_norm(const T *x, const T *g, const T *b, T *y, int64_t R, int64_t H, float eps, int threads) {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t r = 0; r < R; ++r) {
    const T *xr = x + r * H;
    T *yr = y + r * H;
    float s = 0.f;
#pragma omp simd reduction(+ : s)
    for (int64_t c = 0; c < H; ++c) s += ld(xr, c);
    float mean = s / (float)H;
    float ss = 0.f;
#pragma omp simd reduction(+ : ss)
    for (int64_t c = 0; c < H; ++c) { float d = ld(xr, c) - mean; ss += d * d; }
    float rstd = 1.f / std::sqrt(ss / (float)H + eps);
#pragma omp simd
    for (int64_t c = 0; c < H; ++c) st(yr, c, (ld(xr, c) - mean) * rstd * ld(g, c) + ld(b, c));
  }
}

}  // namespace

int main(int argc, char **argv) {
  Args a(argc, argv);
  std::string op = a.str("op", "rms"), dtype = a.str("dtype", "f32");
  int T = (int)a.num("threads", 1);
  Problem p;
  p.setup(op, dtype, a.num("rows", 16), a.num("hidden", 4096), T);
  float eps = (float)p.eps;
  std::function<void()> fn;
  if (p.bf16) {
    auto *x = (const uint16_t *)p.x, *g = (const uint16_t *)p.g, *b = (const uint16_t *)p.b;
    auto *y = (uint16_t *)p.y;
    if (p.layer) fn = [=] { layer_norm(x, g, b, y, p.R, p.H, eps, T); };
    else fn = [=] { rms_norm(x, g, y, p.R, p.H, eps, T); };
  } else {
    auto *x = (const float *)p.x, *g = (const float *)p.g, *b = (const float *)p.b;
    auto *y = (float *)p.y;
    if (p.layer) fn = [=] { layer_norm(x, g, b, y, p.R, p.H, eps, T); };
    else fn = [=] { rms_norm(x, g, y, p.R, p.H, eps, T); };
  }
  Timing t = time_it(fn, a.real("target", 0.5), (int)a.num("warmup", 2));
  p.print("cxx_norm", op, dtype, T, t);
  return 0;
}
