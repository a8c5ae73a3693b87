// Machine limits for the matmul-fusion benchmark (run-gemm.sh):
//
//   gemm_limits --mode=fma  --threads=T [--seconds=0.3]
//       FMA peak: every thread runs 16 independent chains of vector FMAs
//       (AVX-512 zmm when compiled with -march=native on an AVX-512 host,
//       else AVX2 ymm), acc = acc * a + b on registers only; best of 5
//       passes. Reports f32 GFLOP/s (2 flops per lane per FMA). With
//       AVX512-BF16 it also times vdpbf16ps (2 bf16 products per f32 lane,
//       4 flops per lane per instruction) as kind=bf16-dot.
//   gemm_limits --mode=read --threads=T [--mib=256] [--runs=10]
//       streaming read bandwidth: each thread sums its contiguous share of
//       a buffer much larger than the L3 (default 256 MiB) with vector loads
//       and 8 accumulators; best of `runs` passes. This is the bound of a
//       matmul with M = 1 or 16, which streams W once per call.
//
// Output, one line per kind:
//   gemm_limits: mode=<m> kind=<k> threads=<T> gflops=<x>          (fma)
//   gemm_limits: mode=read kind=avx threads=<T> bytes=<B> best_ms=<t> median_ms=<t> gbps=<x>
//
// Build (run-gemm.sh does it): clang++-22 -O3 -march=native -fopenmp gemm_limits.cpp
#include "common.h"

#include <immintrin.h>
#include <omp.h>

using namespace bench;

namespace {

#if defined(__AVX512F__)
typedef __m512 vf;
constexpr int kLanes = 16;
inline vf vset(float x) { return _mm512_set1_ps(x); }
inline vf vfma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
inline vf vload(const float *p) { return _mm512_load_ps(p); }
inline vf vadd(vf a, vf b) { return _mm512_add_ps(a, b); }
inline float vsum(vf a) { return _mm512_reduce_add_ps(a); }
const char *kIsa = "avx512";
#else
typedef __m256 vf;
constexpr int kLanes = 8;
inline vf vset(float x) { return _mm256_set1_ps(x); }
inline vf vfma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
inline vf vload(const float *p) { return _mm256_load_ps(p); }
inline vf vadd(vf a, vf b) { return _mm256_add_ps(a, b); }
inline float vsum(vf a) {
  float t[8];
  _mm256_storeu_ps(t, a);
  return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
}
const char *kIsa = "avx2";
#endif

constexpr int kChains = 16;

// iters × kChains FMAs on registers; the result depends on every chain.
__attribute__((noinline)) float fma_chains(long long iters, float seed) {
  vf a = vset(0.999999f), b = vset(1e-7f);
  vf c0 = vset(seed), c1 = vset(seed + 1), c2 = vset(seed + 2), c3 = vset(seed + 3);
  vf c4 = vset(seed + 4), c5 = vset(seed + 5), c6 = vset(seed + 6), c7 = vset(seed + 7);
  vf c8 = vset(seed + 8), c9 = vset(seed + 9), c10 = vset(seed + 10), c11 = vset(seed + 11);
  vf c12 = vset(seed + 12), c13 = vset(seed + 13), c14 = vset(seed + 14), c15 = vset(seed + 15);
  for (long long i = 0; i < iters; ++i) {
    c0 = vfma(c0, a, b); c1 = vfma(c1, a, b); c2 = vfma(c2, a, b); c3 = vfma(c3, a, b);
    c4 = vfma(c4, a, b); c5 = vfma(c5, a, b); c6 = vfma(c6, a, b); c7 = vfma(c7, a, b);
    c8 = vfma(c8, a, b); c9 = vfma(c9, a, b); c10 = vfma(c10, a, b); c11 = vfma(c11, a, b);
    c12 = vfma(c12, a, b); c13 = vfma(c13, a, b); c14 = vfma(c14, a, b); c15 = vfma(c15, a, b);
    __asm__ volatile("" ::: "memory");
  }
  vf s = vadd(vadd(vadd(c0, c1), vadd(c2, c3)), vadd(vadd(c4, c5), vadd(c6, c7)));
  s = vadd(s, vadd(vadd(vadd(c8, c9), vadd(c10, c11)), vadd(vadd(c12, c13), vadd(c14, c15))));
  return vsum(s);
}

#if defined(__AVX512BF16__)
__attribute__((noinline)) float bf16_chains(long long iters, float seed) {
  __m512bh a = (__m512bh)_mm512_set1_epi16(0x3f80), b = a;  // 1.0 in bf16
  __m512 c[kChains];
  for (int j = 0; j < kChains; ++j) c[j] = _mm512_set1_ps(seed + j);
  for (long long i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < kChains; ++j) c[j] = _mm512_dpbf16_ps(c[j], a, b);
    __asm__ volatile("" ::: "memory");
  }
  __m512 s = c[0];
  for (int j = 1; j < kChains; ++j) s = _mm512_add_ps(s, c[j]);
  return _mm512_reduce_add_ps(s);
}
#endif

// Runs f on T threads for about `seconds`; best of 10 passes (short passes,
// so that one of them finds the cores free on a shared machine); GFLOP/s.
template <class F>
double peak(F f, int T, double seconds, double flops_per_iter) {
  long long iters = 1 << 16;
  for (;;) {  // calibrate on one thread
    double t0 = now_s();
    volatile float r = f(iters, 1.f);
    (void)r;
    double el = now_s() - t0;
    if (el > seconds / 10 / 4) { iters = (long long)(iters * (seconds / 10) / el); break; }
    iters *= 4;
  }
  double best = 1e30;
  for (int pass = 0; pass < 10; ++pass) {
    double t0 = now_s();
    float sink = 0;
#pragma omp parallel num_threads(T) reduction(+ : sink)
    sink += f(iters, (float)omp_get_thread_num());
    double el = now_s() - t0;
    if (sink == 12345.f) std::printf(" ");
    best = std::min(best, el);
  }
  return flops_per_iter * (double)iters * T / best * 1e-9;
}

}  // namespace

int main(int argc, char **argv) {
  Args a(argc, argv);
  std::string mode = a.str("mode", "fma");
  int T = (int)a.num("threads", 1);
  if (mode == "fma") {
    double sec = a.real("seconds", 0.3);
    double g = peak(fma_chains, T, sec, 2.0 * kLanes * kChains);
    std::printf("gemm_limits: mode=fma kind=f32-%s threads=%d gflops=%.2f\n", kIsa, T, g);
#if defined(__AVX512BF16__)
    double gb = peak(bf16_chains, T, sec, 4.0 * 16 * kChains);
    std::printf("gemm_limits: mode=fma kind=bf16-dot threads=%d gflops=%.2f\n", T, gb);
#endif
    std::fflush(stdout);
    return 0;
  }
  if (mode == "read") {
    size_t n = (size_t)a.num("mib", 256) * (1u << 20) / sizeof(float);
    int runs = (int)a.num("runs", 10);
    float *s = (float *)alloc_bytes(n * 4);
    size_t per = n / T / 128 * 128;
#pragma omp parallel num_threads(T)
    {  // first touch by the thread that reads the chunk
      size_t b = per * omp_get_thread_num(), e = b + per;
      for (size_t i = b; i < e; ++i) s[i] = (float)(i & 1023) * 1e-3f;
    }
    std::vector<double> v;
    double total = 0;
    for (int r = 0; r <= runs; ++r) {  // pass 0 is a warm-up
      double t0 = now_s(), sum = 0;
#pragma omp parallel num_threads(T) reduction(+ : sum)
      {
        size_t b = per * omp_get_thread_num(), e = b + per;
        vf acc[8];
        for (int j = 0; j < 8; ++j) acc[j] = vset(0.f);
        for (size_t i = b; i < e; i += 8 * kLanes)
          for (int j = 0; j < 8; ++j) acc[j] = vadd(acc[j], vload(s + i + j * kLanes));
        vf t = acc[0];
        for (int j = 1; j < 8; ++j) t = vadd(t, acc[j]);
        sum += vsum(t);
      }
      double el = now_s() - t0;
      total += sum;
      if (r) v.push_back(el);
    }
    std::sort(v.begin(), v.end());
    double bytes = (double)per * T * 4;
    if (total == 0) std::fprintf(stderr, "gemm_limits: unexpected zero sum\n");
    std::printf("gemm_limits: mode=read kind=%s threads=%d bytes=%.0f best_ms=%.4f median_ms=%.4f gbps=%.2f\n",
                kIsa, T, bytes, v[0] * 1e3, v[v.size() / 2] * 1e3, bytes / v[0] * 1e-9);
    std::fflush(stdout);
    std::free(s);
    return 0;
  }
  std::fprintf(stderr, "gemm_limits: unknown --mode=%s\n", mode.c_str());
  return 2;
}
