// VARIANT 2 to 5 of replica.c against VARIANT 0 on every f32 bit pattern
// (16 consecutive patterns a step): the same 16 bytes or a count of
// mismatching steps. Variant 6, where the CPU has AVX-512BW, is the AVX-512
// form of quantizeFloat8ByMadd (QuantizedRow.cpp): 4's 256 · code from one
// 512-bit vpmaddwd, t's bit 31 shifted to bit 15 and or-ed in, the word
// shifted down by 8 and truncated to its low byte (vpmovdb).
// clang-22 -O3 -march=znver3 exhaustive.c -o exhaustive -lm
#define NO_MAIN
#define VARIANT 0
#include "replica.c"

static __m128i variant2(__m256 t0, __m256 t1) {
  __m256i m = _mm256_set1_epi32(0xff);
  __m256i p = _mm256_packus_epi32(_mm256_and_si256(magnitude(t0), m),
                                  _mm256_and_si256(magnitude(t1), m));
  __m256i s = _mm256_srai_epi16(
      _mm256_packs_epi32(_mm256_castps_si256(t0), _mm256_castps_si256(t1)), 15);
  p = _mm256_or_si256(p, _mm256_and_si256(s, _mm256_set1_epi16(0x80)));
  __m128i q = _mm_packus_epi16(_mm256_castsi256_si128(p),
                               _mm256_extracti128_si256(p, 1));
  return _mm_shuffle_epi32(q, 0xd8);
}

static __m128i variant3(__m256 t0, __m256 t1) {
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
}

// VARIANT 4 (vpshufb) and 5 (vpsrlw, the packs and vpshufd).
static __m128i variant45(__m256 t0, __m256 t1, int five) {
  __m256i r = _mm256_packs_epi32(code256(t0), code256(t1));
  __m256i s =
      _mm256_packs_epi32(_mm256_castps_si256(t0), _mm256_castps_si256(t1));
  __m256i w =
      _mm256_or_si256(r, _mm256_and_si256(s, _mm256_set1_epi16((short)0x8000)));
  if (!five) {
    const __m256i m = _mm256_setr_epi8(1, 3, 5, 7, -1, -1, -1, -1, 9, 11, 13,
                                       15, -1, -1, -1, -1, -1, -1, -1, -1, 1, 3,
                                       5, 7, -1, -1, -1, -1, 9, 11, 13, 15);
    __m256i p = _mm256_shuffle_epi8(w, m);
    return _mm_or_si128(_mm256_castsi256_si128(p),
                        _mm256_extracti128_si256(p, 1));
  }
  w = _mm256_srli_epi16(w, 8);
  __m128i q = _mm_packus_epi16(_mm256_castsi256_si128(w),
                               _mm256_extracti128_si256(w, 1));
  return _mm_shuffle_epi32(q, 0xd8);
}

// 16 values, one register, as the kernel on a 512-bit target encodes them.
__attribute__((target("avx512f,avx512bw"))) static __m128i
variant6(const uint32_t *u) {
  __m512 t = _mm512_loadu_ps((const float *)u);
  __m512 a = _mm512_castsi512_ps(
      _mm512_and_si512(_mm512_castps_si512(t), _mm512_set1_epi32(0x7fffffff)));
  a = _mm512_min_ps(_mm512_set1_ps(448.f), a); // NaN stays
  a = _mm512_min_ps(a, _mm512_set1_ps(480.f)); // NaN -> 480
  __m512 p =
      _mm512_max_ps(_mm512_castsi512_ps(_mm512_and_si512(
                        _mm512_castps_si512(a), _mm512_set1_epi32(0x7f800000))),
                    _mm512_set1_ps(0x1p-6f));
  __m512 s = _mm512_fmadd_ps(p, _mm512_set1_ps(1056627.0f), a);
  __m512i r = _mm512_madd_epi16(_mm512_castps_si512(s),
                                _mm512_set1_epi32((16 << 16) | 256));
  __m512i sign = _mm512_and_si512(_mm512_srli_epi32(_mm512_castps_si512(t), 16),
                                  _mm512_set1_epi32(0x8000));
  return _mm512_cvtepi32_epi8(_mm512_srli_epi32(_mm512_or_si512(r, sign), 8));
}

int main(void) {
  long bad2 = 0, bad3 = 0, bad4 = 0, bad5 = 0, bad6 = 0;
  __builtin_cpu_init();
  int avx512 = __builtin_cpu_supports("avx512bw");
  for (uint64_t b = 0; b < (1ull << 32); b += 16) {
    uint32_t u[16];
    for (int i = 0; i < 16; i++)
      u[i] = (uint32_t)(b + i);
    __m256 t0 = _mm256_loadu_ps((float *)u),
           t1 = _mm256_loadu_ps((float *)(u + 8));
    __m128i ref = truncate16(encode(t0), encode(t1));
    bad2 += _mm_movemask_epi8(_mm_cmpeq_epi8(ref, variant2(t0, t1))) != 0xffff;
    bad3 += _mm_movemask_epi8(_mm_cmpeq_epi8(ref, variant3(t0, t1))) != 0xffff;
    bad4 +=
        _mm_movemask_epi8(_mm_cmpeq_epi8(ref, variant45(t0, t1, 0))) != 0xffff;
    bad5 +=
        _mm_movemask_epi8(_mm_cmpeq_epi8(ref, variant45(t0, t1, 1))) != 0xffff;
    if (avx512)
      bad6 += _mm_movemask_epi8(_mm_cmpeq_epi8(ref, variant6(u))) != 0xffff;
  }
  printf("mismatching 16-value steps of 2^28: variant2=%ld variant3=%ld "
         "variant4=%ld variant5=%ld",
         bad2, bad3, bad4, bad5);
  if (avx512)
    printf(" variant6=%ld\n", bad6);
  else
    printf(" variant6=skipped (no AVX-512BW)\n");
  return bad2 || bad3 || bad4 || bad5 || bad6;
}
