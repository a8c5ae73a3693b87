// VARIANT 2 to 5 of replica.c against VARIANT 0 on every f32 bit pattern
// (16 consecutive patterns a step): the same 16 bytes or a count of
// mismatching steps. Variant 6, where the CPU has AVX-512BW, is the AVX-512
// form of quantizeFloat8ByMadd (QuantizedRow.cpp): 4's 256 · code from one
// 512-bit vpmaddwd, t's bit 31 shifted to bit 15 and or-ed in, the word
// shifted down by 8 and truncated to its low byte (vpmovdb). Variant 7,
// where the CPU has AVX-512 VBMI, is its form since issue 29's
// encode change (enc29), for f8E4M3FN and f8E5M2: variant 6's clamp and
// rounding, the bytes of 32 values gathered by two vpermt2b (byte 1 of
// 256 · code, byte 3 of t) and merged by a vpternlogd; it is checked against
// ref8, a scalar integer rounding (round half to even, saturation, NaN ->
// 0x7F | sign) of every f32, for both formats.
// clang-22 -O3 -march=znver3 exhaustive.c -o exhaustive -lm
// ./exhaustive runs variants 2 to 6; ./exhaustive --variant7 runs 7.
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

// sat(rne(t)) in the format with m mantissa bits, exponent bias `bias`
// and largest finite code `maxcode`, from t's bits, by integer arithmetic.
static uint8_t ref8(uint32_t u, int m, int bias, int maxcode) {
  uint8_t sign = (u >> 24) & 0x80;
  uint32_t a = u & 0x7fffffff;
  if (a > 0x7f800000)
    return sign | 0x7f;
  if (a == 0x7f800000)
    return sign | maxcode;
  int field = a >> 23;
  uint64_t mant = field ? (a & 0x7fffff) | 0x800000 : a;
  int e = field ? field - 127 : -126; // a = mant * 2^(e - 23)
  int ep = e < 1 - bias ? 1 - bias : e;
  // n = rne(a * 2^(m - ep)) = rne(mant >> s)
  int s = 23 - m + ep - e;
  uint64_t n;
  if (s >= 40)
    n = 0;
  else {
    uint64_t q = mant >> s, r = mant & ((1ull << s) - 1),
             half = 1ull << (s - 1);
    n = q + (r > half || (r == half && (q & 1)));
  }
  long code = (long)(ep + bias - 1) * (1l << m) + (long)n;
  if (code > maxcode)
    code = maxcode;
  return sign | (uint8_t)code;
}

// 32 values (two registers) as quantizeFloat8ByMadd encodes them since
// enc29 on 512-bit registers with VBMI: m, largest, the NaN's value
// (480 / 114688), K and the vpmaddwd weight as the kernel derives them.
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vl"))) static __m256i
variant7(const uint32_t *u, int m, float largest, float nanValue, float floor,
         float factor) {
  __m512 t[2];
  __m512i codes[2];
  for (int i = 0; i < 2; i++) {
    t[i] = _mm512_loadu_ps((const float *)u + 16 * i);
    __m512 a = _mm512_castsi512_ps(_mm512_and_si512(
        _mm512_castps_si512(t[i]), _mm512_set1_epi32(0x7fffffff)));
    a = _mm512_min_ps(_mm512_set1_ps(largest), a);  // NaN stays
    a = _mm512_min_ps(a, _mm512_set1_ps(nanValue)); // NaN -> nanValue
    __m512 p = _mm512_max_ps(
        _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a),
                                             _mm512_set1_epi32(0x7f800000))),
        _mm512_set1_ps(floor));
    __m512 s = _mm512_fmadd_ps(p, _mm512_set1_ps(factor), a);
    codes[i] = _mm512_madd_epi16(_mm512_castps_si512(s),
                                 _mm512_set1_epi32((2 << m << 16) | 256));
  }
  uint8_t code_idx[64], sign_idx[64];
  for (int e = 0; e < 64; e++) {
    int lane = e % 32;
    code_idx[e] = (uint8_t)(4 * lane + 1);
    sign_idx[e] = (uint8_t)(4 * lane + 3);
  }
  __m512i ci = _mm512_loadu_si512(code_idx), si = _mm512_loadu_si512(sign_idx);
  __m512i c = _mm512_permutex2var_epi8(codes[0], ci, codes[1]);
  __m512i sg = _mm512_permutex2var_epi8(_mm512_castps_si512(t[0]), si,
                                        _mm512_castps_si512(t[1]));
  // c | (sg & 0x80): 0x80 ? sg : c, bit by bit.
  __m512i r =
      _mm512_ternarylogic_epi32(_mm512_set1_epi8((char)0x80), sg, c, 0xCA);
  return _mm512_castsi512_si256(r);
}

static int check7(void) {
  // E4M3: m 3, bias 7; E5M2: m 2, bias 15 (K as quantizeFloat8ByMadd).
  const struct {
    const char *name;
    int m, bias, maxcode;
    float largest, nanValue, floor, factor;
  } f[2] = {{"f8E4M3FN", 3, 7, 0x7e, 448.f, 480.f, 0x1p-6f, 1056627.0f},
            {"f8E5M2", 2, 15, 0x7b, 57344.f, 114688.f, 0x1p-14f, 2113402.0f}};
  int bad = 0;
  for (int k = 0; k < 2; k++) {
    long mismatches = 0;
    for (uint64_t b = 0; b < (1ull << 32); b += 32) {
      uint32_t u[32];
      uint8_t want[32], got[32];
      for (int i = 0; i < 32; i++) {
        u[i] = (uint32_t)(b + i);
        want[i] = ref8(u[i], f[k].m, f[k].bias, f[k].maxcode);
      }
      _mm256_storeu_si256((__m256i *)got,
                          variant7(u, f[k].m, f[k].largest, f[k].nanValue,
                                   f[k].floor, f[k].factor));
      if (memcmp(want, got, 32)) {
        if (mismatches < 4)
          for (int i = 0; i < 32; i++)
            if (want[i] != got[i])
              printf("%s: t bits 0x%08x: want 0x%02x got 0x%02x\n", f[k].name,
                     u[i], want[i], got[i]);
        mismatches++;
      }
    }
    printf("variant7 %s: mismatching 32-value steps of 2^27: %ld\n", f[k].name,
           mismatches);
    bad |= mismatches != 0;
  }
  return bad;
}

int main(int argc, char **argv) {
  __builtin_cpu_init();
  if (argc > 1 && !strcmp(argv[1], "--variant7")) {
    if (!__builtin_cpu_supports("avx512vbmi")) {
      printf("variant7: skipped (no AVX-512 VBMI)\n");
      return 0;
    }
    return check7();
  }
  long bad2 = 0, bad3 = 0, bad4 = 0, bad5 = 0, bad6 = 0;
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
