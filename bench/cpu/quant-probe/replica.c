// What bounds the f8E4M3FN normalize + quantize sweep on AVX2 (issue 29)?
// A C replica of the row kernel's static-scale loop on 16x4096 bf16 rows
// (QuantizedRow.cpp's quantizeFloat8, as the JIT runs it: the row's
// x * (1/rms) * gamma * (1/s), the encoding, a 16-byte store of 16 codes and
// the next row's sum of squares in the same sweep), timed with variants that
// each remove or change one part. Timing only, except VARIANT 2 to 5, whose
// bytes equal VARIANT 0's on every f32 (exhaustive.c). See probe.sh and
// docs/performance.md, "2026-11-27: what bounds the fp8 sweep (AVX2 VM)".
//
//   VARIANT 0  the kernel's encoding and its truncation (and 0xFF, vpackusdw,
//              vpackuswb), as llc emits it
//   VARIANT 1  i8 through vcvtps2dq (the i8 kernel's cost)
//   VARIANT 2  0's magnitude, the sign through the signed packs of t's bits
//   VARIANT 3  0's encoding, the bytes gathered by vpshufb
//   VARIANT 4  C = max(2^e, 2^-6) · K in one FMA with |t|, 256 · code by
//              vpmaddwd, the signed packs, the sign from the signed packs of
//              t's bits, the high bytes gathered by vpshufb (the kernel's
//              quantizeFloat8ByMadd, QuantizedRow.cpp)
//   VARIANT 5  4 with vpsrlw / vpackuswb / vpshufd for the gather
//   -DNOSIGN / -DNOCLAMP / -DNOC  drop the sign (3 ops a vector), the two
//              vminps, or the exponent's copy into C's mantissa (2 ops)
//   -DDEINT    bf16 widened from 32-byte loads by vpslld / vpand (no
//              vpmovzxwd; wrong values, same op count elsewhere)
//   -DSWP      the quantization of step j overlapped with step j+1's loads
//              and multiplies (software pipelined; same bytes)
//   -DEXTRA=n  n independent vpaddd a step (the cost of one more vector op)
//   -DFTZ      MXCSR flush-to-zero and denormals-are-zero
//   -DCOUNT    count the subnormal y and t of the inputs
//
// Build: clang-22 -O3 -march=znver3 [-D...] replica.c -o replica -lm
// Run:   ./replica [calls per round] [rounds]  (prints median/min us a call)
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define R 16
#define H 4096
#ifndef VARIANT
#define VARIANT 0
#endif
#ifndef EXTRA
#define EXTRA 0
#endif

static inline __m256 ld(const uint16_t *p) {
#ifdef DEINT
  __m256i v =
      _mm256_loadu_si256((const __m256i *)(((uintptr_t)p) & ~(uintptr_t)31));
  if (((uintptr_t)p >> 4) & 1)
    return _mm256_castsi256_ps(
        _mm256_and_si256(v, _mm256_set1_epi32(0xffff0000)));
  return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
#else
  return _mm256_castsi256_ps(_mm256_slli_epi32(
      _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)), 16));
#endif
}

// |t| clamped (NaN -> 480, code 0x7F), rounded by one addition of C; the
// code is the low byte of the sum (QuantizedRow.cpp's comment).
static inline __m256i magnitude(__m256 t) {
  __m256 a =
      _mm256_and_ps(t, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
#ifndef NOCLAMP
  a = _mm256_min_ps(_mm256_set1_ps(448.f), a); // NaN stays
  a = _mm256_min_ps(a, _mm256_set1_ps(480.f)); // NaN -> 480
#endif
  __m256i e =
      _mm256_and_si256(_mm256_castps_si256(a), _mm256_set1_epi32(0x7f800000));
  __m256i ex = _mm256_subs_epu16(e, _mm256_set1_epi32((127 + 1 - 7) << 23));
#ifdef NOC
  __m256i c = _mm256_add_epi32(ex, _mm256_set1_epi32((127 + 1 - 7 + 20) << 23));
#else
  __m256i c = _mm256_add_epi32(_mm256_or_si256(ex, _mm256_srli_epi32(ex, 20)),
                               _mm256_set1_epi32((127 + 1 - 7 + 20) << 23));
#endif
  return _mm256_castps_si256(_mm256_add_ps(a, _mm256_castsi256_ps(c)));
}

static inline __m256i encode(__m256 t) {
#ifdef NOSIGN
  return magnitude(t);
#else
  __m256i sign = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(t), 24),
                                  _mm256_set1_epi32(0x80));
  return _mm256_or_si256(magnitude(t), sign);
#endif
}

// 256 * code as an i32 (VARIANT 4 and 5): |t| clamped as in magnitude(),
// C = max(2^e, 2^-6) * K in the rounding addition's FMA (K = 2^20 (1 + 64408
// 2^-23): the code's exponent part then lies in the sum's exponent field,
// and the low word holds n - 1128), and vpmaddwd's 256 * low + 16 * high
// word gives 256 (n + 8 (e' + 6)) = 256 * code.
static inline __m256i code256(__m256 t) {
  __m256 a =
      _mm256_and_ps(t, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
  a = _mm256_min_ps(_mm256_set1_ps(448.f), a); // NaN stays
  a = _mm256_min_ps(a, _mm256_set1_ps(480.f)); // NaN -> 480
  __m256 p = _mm256_max_ps(
      _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(0x7f800000))),
      _mm256_set1_ps(0x1p-6f));
  __m256 s = _mm256_fmadd_ps(p, _mm256_set1_ps(1056627.0f), a);
  return _mm256_madd_epi16(_mm256_castps_si256(s),
                           _mm256_set1_epi32((16 << 16) | 256));
}

static inline __m128i truncate16(__m256i a, __m256i b) {
  __m256i m = _mm256_set1_epi32(0xff);
  __m256i p =
      _mm256_packus_epi32(_mm256_and_si256(a, m), _mm256_and_si256(b, m));
  __m128i q = _mm_packus_epi16(_mm256_castsi256_si128(p),
                               _mm256_extracti128_si256(p, 1));
  return _mm_shuffle_epi32(q, 0xd8);
}

// 16 values (two vectors of 8) to 16 bytes.
static inline __m128i quantize16(__m256 t0, __m256 t1) {
#if VARIANT == 0
  return truncate16(encode(t0), encode(t1));
#elif VARIANT == 1
  __m256 b = _mm256_set1_ps(127.f);
  __m256i a = _mm256_cvtps_epi32(_mm256_min_ps(b, t0));
  __m256i c = _mm256_cvtps_epi32(_mm256_min_ps(b, t1));
  __m256i p = _mm256_packs_epi32(a, c);
  __m128i q = _mm_packs_epi16(_mm256_castsi256_si128(p),
                              _mm256_extracti128_si256(p, 1));
  return _mm_shuffle_epi32(q, 0xd8);
#elif VARIANT == 2
  __m256i m = _mm256_set1_epi32(0xff);
  __m256i p = _mm256_packus_epi32(_mm256_and_si256(magnitude(t0), m),
                                  _mm256_and_si256(magnitude(t1), m));
  // The signed packs keep a negative int32 negative: bit 15 of the word is
  // t's sign for every bit pattern.
  __m256i s = _mm256_srai_epi16(
      _mm256_packs_epi32(_mm256_castps_si256(t0), _mm256_castps_si256(t1)), 15);
  p = _mm256_or_si256(p, _mm256_and_si256(s, _mm256_set1_epi16(0x80)));
  __m128i q = _mm_packus_epi16(_mm256_castsi256_si128(p),
                               _mm256_extracti128_si256(p, 1));
  return _mm_shuffle_epi32(q, 0xd8);
#elif VARIANT == 4 || VARIANT == 5
  __m256i r = _mm256_packs_epi32(code256(t0), code256(t1));
  // Bit 15 of the signed packs' word is t's sign; the code is the high byte.
  __m256i s =
      _mm256_packs_epi32(_mm256_castps_si256(t0), _mm256_castps_si256(t1));
  __m256i w =
      _mm256_or_si256(r, _mm256_and_si256(s, _mm256_set1_epi16((short)0x8000)));
#if VARIANT == 4
  const __m256i m = _mm256_setr_epi8(1, 3, 5, 7, -1, -1, -1, -1, 9, 11, 13, 15,
                                     -1, -1, -1, -1, -1, -1, -1, -1, 1, 3, 5, 7,
                                     -1, -1, -1, -1, 9, 11, 13, 15);
  __m256i p = _mm256_shuffle_epi8(w, m);
  return _mm_or_si128(_mm256_castsi256_si128(p),
                      _mm256_extracti128_si256(p, 1));
#else
  w = _mm256_srli_epi16(w, 8);
  __m128i q = _mm_packus_epi16(_mm256_castsi256_si128(w),
                               _mm256_extracti128_si256(w, 1));
  return _mm_shuffle_epi32(q, 0xd8);
#endif
#elif VARIANT == 3
  const __m256i ma = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1,
                                      -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4,
                                      8, 12, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i mb = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
                                      12, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                      -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12);
  __m256i p = _mm256_or_si256(_mm256_shuffle_epi8(encode(t0), ma),
                              _mm256_shuffle_epi8(encode(t1), mb));
  return _mm_or_si128(_mm256_castsi256_si128(p),
                      _mm256_extracti128_si256(p, 1));
#endif
}

volatile __m256i sink;

__attribute__((noinline)) void kernel(const uint16_t *x, const uint16_t *g,
                                      uint8_t *q, float inverseScale) {
  __m256 inv = _mm256_set1_ps(inverseScale);
  __m256i extra[EXTRA + 1];
  for (int e = 0; e <= EXTRA; e++)
    extra[e] = _mm256_setzero_si256();
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  for (int j = 0; j < H; j += 16) {
    __m256 a = ld(x + j), b = ld(x + j + 8);
    s0 = _mm256_fmadd_ps(a, a, s0);
    s1 = _mm256_fmadd_ps(b, b, s1);
  }
  for (int r = 0; r < R; r++) {
    __m256 ss = _mm256_add_ps(s0, s1);
    __m128 h =
        _mm_add_ps(_mm256_castps256_ps128(ss), _mm256_extractf128_ps(ss, 1));
    h = _mm_hadd_ps(h, h);
    h = _mm_hadd_ps(h, h);
    __m256 rinv = _mm256_set1_ps(1.0f / sqrtf(_mm_cvtss_f32(h) / H + 1e-6f));
    const uint16_t *xr = x + (size_t)r * H,
                   *xn = x + (size_t)(r + 1 < R ? r + 1 : r) * H;
    s0 = s1 = _mm256_setzero_ps();
#ifdef SWP
    __m256 p0 =
        _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(ld(xr), rinv), ld(g)), inv);
    __m256 p1 = _mm256_mul_ps(
        _mm256_mul_ps(_mm256_mul_ps(ld(xr + 8), rinv), ld(g + 8)), inv);
#endif
    for (int j = 0; j < H; j += 16) {
#ifdef SWP
      int jn = j + 16 < H ? j + 16 : j;
      __m256 y0 = _mm256_mul_ps(_mm256_mul_ps(ld(xr + jn), rinv), ld(g + jn));
      __m256 y1 =
          _mm256_mul_ps(_mm256_mul_ps(ld(xr + jn + 8), rinv), ld(g + jn + 8));
      _mm_store_si128((__m128i *)(q + (size_t)r * H + j), quantize16(p0, p1));
      p0 = _mm256_mul_ps(y0, inv);
      p1 = _mm256_mul_ps(y1, inv);
#else
      __m256 y0 = _mm256_mul_ps(_mm256_mul_ps(ld(xr + j), rinv), ld(g + j));
      __m256 y1 =
          _mm256_mul_ps(_mm256_mul_ps(ld(xr + j + 8), rinv), ld(g + j + 8));
      _mm_store_si128(
          (__m128i *)(q + (size_t)r * H + j),
          quantize16(_mm256_mul_ps(y0, inv), _mm256_mul_ps(y1, inv)));
#endif
      __m256 a = ld(xn + j), b = ld(xn + j + 8);
      s0 = _mm256_fmadd_ps(a, a, s0);
      s1 = _mm256_fmadd_ps(b, b, s1);
      for (int e = 0; e < EXTRA; e++)
        extra[e] =
            _mm256_add_epi32(extra[e], _mm256_castps_si256(e & 1 ? y1 : y0));
    }
  }
  for (int e = 0; e < EXTRA; e++)
    sink = extra[e];
}

#ifndef NO_MAIN
static uint16_t bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u + 0x7FFF + ((u >> 16) & 1)) >> 16;
}
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

uint8_t qbuf[R * H] __attribute__((aligned(64)));

int main(int argc, char **argv) {
#ifdef FTZ
  _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
  int calls = argc > 1 ? atoi(argv[1]) : 2000,
      rounds = argc > 2 ? atoi(argv[2]) : 7;
  if (rounds < 1 || rounds > 64)
    rounds = 7;
  uint16_t *x = aligned_alloc(4096, R * H * 2), *g = aligned_alloc(4096, H * 2);
  srand(1); // uniform in [-1, 1], as norm-run's default inputs
  for (int i = 0; i < R * H; i++)
    x[i] = bf16(2.0f * (float)rand() / (float)RAND_MAX - 1.0f);
  for (int i = 0; i < H; i++)
    g[i] = bf16(2.0f * (float)rand() / (float)RAND_MAX - 1.0f);
#ifdef COUNT
  long subnormal = 0;
  float smallest = INFINITY;
  for (int r = 0; r < R; r++) {
    double ss = 0;
    for (int j = 0; j < H; j++) {
      uint32_t u = (uint32_t)x[r * H + j] << 16;
      float f;
      memcpy(&f, &u, 4);
      ss += (double)f * f;
    }
    float rinv = 1.0f / sqrtf((float)(ss / H) + 1e-6f);
    for (int j = 0; j < H; j++) {
      uint32_t u = (uint32_t)x[r * H + j] << 16, v = (uint32_t)g[j] << 16;
      float a, b;
      memcpy(&a, &u, 4);
      memcpy(&b, &v, 4);
      float y = a * rinv * b, t = y * 50.f;
      if (fabsf(t) != 0 && fabsf(t) < smallest)
        smallest = fabsf(t);
      subnormal +=
          (y != 0 && fabsf(y) < 0x1p-126f) + (t != 0 && fabsf(t) < 0x1p-126f);
    }
  }
  printf("values=%d subnormal_y_and_t=%ld smallest_nonzero_abs_t=%g\n", R * H,
         subnormal, smallest);
#endif
  for (int i = 0; i < 200; i++)
    kernel(x, g, qbuf, 50.f);
  double t[64];
  for (int r = 0; r < rounds; r++) {
    double a = now();
    for (int i = 0; i < calls; i++)
      kernel(x, g, qbuf, 50.f);
    t[r] = (now() - a) / calls / 1e3;
  }
  qsort(t, rounds, sizeof(double), cmp);
  uint32_t hash = 0;
  for (int i = 0; i < R * H; i++)
    hash = hash * 31 + qbuf[i];
  printf("median_us=%.3f min_us=%.3f max_us=%.3f bytes_hash=%08x\n",
         t[rounds / 2], t[0], t[rounds - 1], hash);
  return 0;
}
#endif
