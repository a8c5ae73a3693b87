// Times RMSNorm f32 R x H (issue 32, the large-row gap on the Zen 4 VM):
// the project's kernel compiled ahead of time (probe.sh: norm-opt, opt/llc
// -O3 -mcpu=znver4, as norm-run's JIT compiles it on that host) against
// hand-written AVX-512 kernels on the same buffers (2 MiB aligned plus the
// given byte offsets):
//   ./aot_VARIANT KIND R H xoff yoff goff runs
// KIND: jit (the linked kernel), hand (copy_bw.cpp's rms_f32_512 with a γ
// load: a sum-of-squares sweep, then a scaling sweep with streaming
// stores), hand1 (the same with γ = 1, copy_bw's own), pipe (the project's
// row pipelining by hand: row r+1's sum of squares in row r's scaling
// sweep). Prints min and median ms of `runs` calls after one warm-up.
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void rms_norm(float *, float *, long, long, long, long, long, float *, float *,
              long, long, long, float *, float *, long, long, long, long, long);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
__attribute__((target("avx512f"))) static void
hand(const float *s, const float *g, float *d, long R, long H, int useg) {
  for (long r = 0; r < R; ++r) {
    const float *x = s + r * H;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (long i = 0; i < H; i += 64) {
      __m512 v0 = _mm512_load_ps(x + i), v1 = _mm512_load_ps(x + i + 16);
      __m512 v2 = _mm512_load_ps(x + i + 32), v3 = _mm512_load_ps(x + i + 48);
      a0 = _mm512_fmadd_ps(v0, v0, a0);
      a1 = _mm512_fmadd_ps(v1, v1, a1);
      a2 = _mm512_fmadd_ps(v2, v2, a2);
      a3 = _mm512_fmadd_ps(v3, v3, a3);
    }
    float ss = _mm512_reduce_add_ps(
        _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
    __m512 scale = _mm512_set1_ps(1.f / sqrtf(ss / H + 1e-6f));
    if (useg)
      for (long i = 0; i < H; i += 16)
        _mm512_stream_ps(
            d + r * H + i,
            _mm512_mul_ps(_mm512_mul_ps(_mm512_load_ps(x + i), scale),
                          _mm512_load_ps(g + i)));
    else
      for (long i = 0; i < H; i += 16)
        _mm512_stream_ps(d + r * H + i,
                         _mm512_mul_ps(_mm512_load_ps(x + i), scale));
  }
  _mm_sfence();
}
// The JIT's structure by hand: row r+1's sum of squares during row r's
// normalize sweep (one loop, x[r] re-read from cache, x[r+1] from DRAM).
__attribute__((target("avx512f"))) static void
pipe(const float *s, const float *g, float *d, long R, long H) {
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (long i = 0; i < H; i += 64) {
    __m512 v0 = _mm512_load_ps(s + i), v1 = _mm512_load_ps(s + i + 16);
    __m512 v2 = _mm512_load_ps(s + i + 32), v3 = _mm512_load_ps(s + i + 48);
    a0 = _mm512_fmadd_ps(v0, v0, a0);
    a1 = _mm512_fmadd_ps(v1, v1, a1);
    a2 = _mm512_fmadd_ps(v2, v2, a2);
    a3 = _mm512_fmadd_ps(v3, v3, a3);
  }
  for (long r = 0; r < R; ++r) {
    const float *x = s + r * H, *xn = s + (r + 1 < R ? r + 1 : r) * H;
    float ss = _mm512_reduce_add_ps(
        _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
    __m512 scale = _mm512_set1_ps(1.f / sqrtf(ss / H + 1e-6f));
    a0 = _mm512_setzero_ps();
    a1 = a0;
    a2 = a0;
    a3 = a0;
    for (long i = 0; i < H; i += 64) {
#define STEP(k, acc)                                                           \
  _mm512_stream_ps(                                                            \
      d + r * H + i + k,                                                       \
      _mm512_mul_ps(_mm512_mul_ps(_mm512_load_ps(x + i + k), scale),           \
                    _mm512_load_ps(g + i + k)));                               \
  {                                                                            \
    __m512 v = _mm512_load_ps(xn + i + k);                                     \
    acc = _mm512_fmadd_ps(v, v, acc);                                          \
  }
      STEP(0, a0) STEP(16, a1) STEP(32, a2) STEP(48, a3)
    }
  }
  _mm_sfence();
}
int main(int argc, char **argv) {
  if (argc < 8)
    return 2;
  const char *kind = argv[1];
  long R = atol(argv[2]), H = atol(argv[3]);
  size_t xo = atol(argv[4]), yo = atol(argv[5]), go = atol(argv[6]);
  int runs = atoi(argv[7]);
  size_t A = 2u << 20, n = (size_t)R * H;
  char *xb = aligned_alloc(A, n * 4 + A), *yb = aligned_alloc(A, n * 4 + A),
       *gb = aligned_alloc(A, H * 4 + A);
  float *x = (float *)(xb + xo), *y = (float *)(yb + yo),
        *g = (float *)(gb + go);
  for (size_t i = 0; i < n; ++i)
    x[i] = (float)((i * 7919) % 2001) / 1000.f - 1.f;
  memset(y, 0, n * 4);
  for (long i = 0; i < H; ++i)
    g[i] = 1.f + (float)(i % 7) / 8.f;
  double t[256];
  if (runs > 256)
    runs = 256;
  for (int k = -1; k < runs; ++k) {
    double a = now();
    if (!strcmp(kind, "jit"))
      rms_norm(x, x, 0, R, H, H, 1, g, g, 0, H, 1, y, y, 0, R, H, H, 1);
    else if (!strcmp(kind, "pipe"))
      pipe(x, g, y, R, H);
    else
      hand(x, g, y, R, H, strcmp(kind, "hand1") != 0);
    if (k >= 0)
      t[k] = now() - a;
  }
  qsort(t, runs, sizeof(double), cmp);
  double bytes = 2.0 * n * 4;
  printf("%s R=%ld H=%ld xo=%zu yo=%zu go=%zu min_ms=%.2f median_ms=%.2f "
         "gbps_min=%.1f gbps_med=%.1f y0=%g\n",
         kind, R, H, xo, yo, go, t[0], t[runs / 2], bytes / t[0] / 1e6,
         bytes / t[runs / 2] / 1e6, (double)y[n - 1]);
  return 0;
}
