// STREAM-like copy bandwidth: the memory-system limit for a standalone norm
// (which reads x once and writes y once).
//
//   copy_bw --mode=dram  --threads=T [--mib=512] [--runs=10]
//       copies a buffer much larger than the L3 (default 512 MiB -> 512 MiB);
//       best of `runs` passes. Three kinds:
//         nt     vector loads + non-temporal stores (stream_ps), sfence
//         plain  vector loads + ordinary stores (write-allocate: the hardware
//                also reads the destination, which is not counted)
//         memcpy glibc memcpy per thread (it switches to non-temporal stores
//                itself above a size threshold)
//       and, not copies, rms-f32 and rms-bf16: hand-written intrinsics
//       RMSNorms over rows of 8192 f32 / bf16 on the same buffers (same
//       traffic), the reference for what hand-tuned code reaches beside the
//       copy.
//   The vectors are AVX-512 where the CPU has AVX-512F + BW, else AVX2 + FMA
//   (chosen at run time; the first output line says which: isa=...).
//   copy_bw --mode=cache --threads=T --bytes=B [--target=0.3]
//       in-cache copy whose traffic (read + written) is B bytes, i.e. B/2 bytes
//       copied, repeated on the same (warm) buffers; median per copy.
//       Kinds plain and nt.
//   copy_bw --mode=pattern --threads=T --rows=R --hidden=H --esize=4|2
//   --weights=1|2
//       the norm's streams without its statistics (y = x*g (+b) per row) on
//       buffers of the norm's sizes; median. For reference next to the
//       in-cache copy (see README.md).
//
// Output, one line per kind:
//   copy_bw: mode=<m> kind=<k> threads=<T> bytes=<read+written> best_ms=<t>
//   median_ms=<t> gbps=<x>
// gbps = bytes / time, time = best (dram) or median (cache).
//
// Build (run.sh does it): clang++-22 -O3 -march=native -fopenmp copy_bw.cpp
#include "common.h"

#include <immintrin.h>
#include <omp.h>

using namespace bench;

namespace {

// Split n floats (a multiple of 16) over the team, 64-byte aligned chunks.
inline void chunk(size_t n, int tid, int nt, size_t &b, size_t &e) {
  size_t vecs = n / 16, per = vecs / nt, rem = vecs % nt;
  size_t vb = tid * per + std::min<size_t>(tid, rem);
  size_t ve = vb + per + (tid < (int)rem ? 1 : 0);
  b = vb * 16;
  e = ve * 16;
}

// The vector kernels exist twice, for AVX-512 and for AVX2 + FMA, each
// compiled with its own target attribute (so the file builds on either
// machine with -march=native), and `main` picks one at run time: an AVX-512
// body on an AVX2-only CPU would SIGILL.
#define AVX512 __attribute__((target("avx512f,avx512bw")))
#define AVX2 __attribute__((target("avx2,fma")))

AVX512 void copy_nt_512(const float *__restrict s, float *__restrict d,
                        size_t b, size_t e) {
  size_t i = b;
  for (; i + 64 <= e; i += 64) {
    __m512 a0 = _mm512_load_ps(s + i), a1 = _mm512_load_ps(s + i + 16);
    __m512 a2 = _mm512_load_ps(s + i + 32), a3 = _mm512_load_ps(s + i + 48);
    _mm512_stream_ps(d + i, a0);
    _mm512_stream_ps(d + i + 16, a1);
    _mm512_stream_ps(d + i + 32, a2);
    _mm512_stream_ps(d + i + 48, a3);
  }
  for (; i < e; i += 16) _mm512_stream_ps(d + i, _mm512_load_ps(s + i));
  _mm_sfence();
}

AVX2 void copy_nt_256(const float *__restrict s, float *__restrict d, size_t b,
                      size_t e) {
  size_t i = b;
  for (; i + 32 <= e; i += 32) {
    __m256 a0 = _mm256_load_ps(s + i), a1 = _mm256_load_ps(s + i + 8);
    __m256 a2 = _mm256_load_ps(s + i + 16), a3 = _mm256_load_ps(s + i + 24);
    _mm256_stream_ps(d + i, a0);
    _mm256_stream_ps(d + i + 8, a1);
    _mm256_stream_ps(d + i + 16, a2);
    _mm256_stream_ps(d + i + 24, a3);
  }
  for (; i < e; i += 8)
    _mm256_stream_ps(d + i, _mm256_load_ps(s + i));
  _mm_sfence();
}

AVX512 void copy_plain_512(const float *__restrict s, float *__restrict d,
                           size_t b, size_t e) {
  size_t i = b;
  for (; i + 64 <= e; i += 64) {
    __m512 a0 = _mm512_load_ps(s + i), a1 = _mm512_load_ps(s + i + 16);
    __m512 a2 = _mm512_load_ps(s + i + 32), a3 = _mm512_load_ps(s + i + 48);
    _mm512_store_ps(d + i, a0);
    _mm512_store_ps(d + i + 16, a1);
    _mm512_store_ps(d + i + 32, a2);
    _mm512_store_ps(d + i + 48, a3);
  }
  for (; i < e; i += 16) _mm512_store_ps(d + i, _mm512_load_ps(s + i));
}

AVX2 void copy_plain_256(const float *__restrict s, float *__restrict d,
                         size_t b, size_t e) {
  size_t i = b;
  for (; i + 32 <= e; i += 32) {
    __m256 a0 = _mm256_load_ps(s + i), a1 = _mm256_load_ps(s + i + 8);
    __m256 a2 = _mm256_load_ps(s + i + 16), a3 = _mm256_load_ps(s + i + 24);
    _mm256_store_ps(d + i, a0);
    _mm256_store_ps(d + i + 8, a1);
    _mm256_store_ps(d + i + 16, a2);
    _mm256_store_ps(d + i + 24, a3);
  }
  for (; i < e; i += 8)
    _mm256_store_ps(d + i, _mm256_load_ps(s + i));
}

// Not a copy: a hand-written RMSNorm (γ = 1) over rows of kRmsRow elements,
// the same traffic as a copy. Per row a sum-of-squares sweep with four
// accumulators (x from DRAM), then a scaling sweep (x from L1) with
// streaming stores. What intrinsics code reaches next to the copy. The f32
// kind reads the buffers as rows of 8192 floats, the bf16 kind as rows of
// 8192 bf16 (the same bytes, twice the elements; the input's bit patterns
// are whatever the f32 fill makes them, finite either way).
constexpr size_t kRmsRow = 8192;
AVX512 void rms_f32_512(const float *__restrict s, float *__restrict d,
                        size_t b, size_t e) {
  for (size_t r = b; r + kRmsRow <= e; r += kRmsRow) {
    const float *x = s + r;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = 0; i < kRmsRow; i += 64) {
      __m512 v0 = _mm512_load_ps(x + i), v1 = _mm512_load_ps(x + i + 16);
      __m512 v2 = _mm512_load_ps(x + i + 32), v3 = _mm512_load_ps(x + i + 48);
      a0 = _mm512_fmadd_ps(v0, v0, a0);
      a1 = _mm512_fmadd_ps(v1, v1, a1);
      a2 = _mm512_fmadd_ps(v2, v2, a2);
      a3 = _mm512_fmadd_ps(v3, v3, a3);
    }
    float ss = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
    __m512 scale = _mm512_set1_ps(1.f / std::sqrt(ss / kRmsRow + 1e-6f));
    for (size_t i = 0; i < kRmsRow; i += 16)
      _mm512_stream_ps(d + r + i, _mm512_mul_ps(_mm512_load_ps(x + i), scale));
  }
  _mm_sfence();
}

AVX2 inline float hsum256(__m256 v) {
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_movehdup_ps(h));
  return _mm_cvtss_f32(h);
}

AVX2 void rms_f32_256(const float *__restrict s, float *__restrict d, size_t b,
                      size_t e) {
  for (size_t r = b; r + kRmsRow <= e; r += kRmsRow) {
    const float *x = s + r;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = 0; i < kRmsRow; i += 32) {
      __m256 v0 = _mm256_load_ps(x + i), v1 = _mm256_load_ps(x + i + 8);
      __m256 v2 = _mm256_load_ps(x + i + 16), v3 = _mm256_load_ps(x + i + 24);
      a0 = _mm256_fmadd_ps(v0, v0, a0);
      a1 = _mm256_fmadd_ps(v1, v1, a1);
      a2 = _mm256_fmadd_ps(v2, v2, a2);
      a3 = _mm256_fmadd_ps(v3, v3, a3);
    }
    float ss =
        hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
    __m256 scale = _mm256_set1_ps(1.f / std::sqrt(ss / kRmsRow + 1e-6f));
    for (size_t i = 0; i < kRmsRow; i += 8)
      _mm256_stream_ps(d + r + i, _mm256_mul_ps(_mm256_load_ps(x + i), scale));
  }
  _mm_sfence();
}

// bf16 -> f32 is a 16-bit shift; f32 -> bf16 rounds to nearest even in
// integer arithmetic (u + 0x7fff + bit 16, then the high half), which needs
// no AVX512-BF16. For the sum of squares the element order does not matter,
// so each 32-bit lane gives two values: its low half shifted up and its
// high half masked.
AVX512 void rms_bf16_512(const float *__restrict s, float *__restrict d,
                         size_t b, size_t e) {
  const __m512i hi = _mm512_set1_epi32((int)0xffff0000u),
                bias = _mm512_set1_epi32(0x7fff);
  for (size_t r = b; r + kRmsRow / 2 <= e; r += kRmsRow / 2) {
    const __m512i *x = (const __m512i *)(s + r);
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = 0; i < kRmsRow / 32; i += 2) {
      __m512i w0 = _mm512_load_si512(x + i), w1 = _mm512_load_si512(x + i + 1);
      __m512 v0 = _mm512_castsi512_ps(_mm512_slli_epi32(w0, 16)),
             v1 = _mm512_castsi512_ps(_mm512_and_si512(w0, hi));
      __m512 v2 = _mm512_castsi512_ps(_mm512_slli_epi32(w1, 16)),
             v3 = _mm512_castsi512_ps(_mm512_and_si512(w1, hi));
      a0 = _mm512_fmadd_ps(v0, v0, a0);
      a1 = _mm512_fmadd_ps(v1, v1, a1);
      a2 = _mm512_fmadd_ps(v2, v2, a2);
      a3 = _mm512_fmadd_ps(v3, v3, a3);
    }
    float ss = _mm512_reduce_add_ps(
        _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
    __m512 scale = _mm512_set1_ps(1.f / std::sqrt(ss / kRmsRow + 1e-6f));
    const uint16_t *xs = (const uint16_t *)(s + r);
    uint16_t *ys = (uint16_t *)(d + r);
    for (size_t i = 0; i < kRmsRow; i += 32) {
      __m512i out[2];
      for (int h = 0; h < 2; ++h) {
        __m512i u = _mm512_cvtepu16_epi32(
            _mm256_load_si256((const __m256i *)(xs + i + 16 * h)));
        __m512i y = _mm512_castps_si512(_mm512_mul_ps(
            _mm512_castsi512_ps(_mm512_slli_epi32(u, 16)), scale));
        y = _mm512_add_epi32(
            y, _mm512_add_epi32(bias, _mm512_and_si512(_mm512_srli_epi32(y, 16),
                                                       _mm512_set1_epi32(1))));
        out[h] = _mm512_srli_epi32(y, 16);
      }
      // packus works within 128-bit lanes; the permute restores the order.
      __m512i p = _mm512_packus_epi32(out[0], out[1]);
      p = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                   p);
      _mm512_stream_si512((__m512i *)(ys + i), p);
    }
  }
  _mm_sfence();
}

AVX2 void rms_bf16_256(const float *__restrict s, float *__restrict d, size_t b,
                       size_t e) {
  const __m256i hi = _mm256_set1_epi32((int)0xffff0000u),
                bias = _mm256_set1_epi32(0x7fff);
  const __m256i one = _mm256_set1_epi32(1);
  for (size_t r = b; r + kRmsRow / 2 <= e; r += kRmsRow / 2) {
    const __m256i *x = (const __m256i *)(s + r);
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = 0; i < kRmsRow / 16; i += 2) {
      __m256i w0 = _mm256_load_si256(x + i), w1 = _mm256_load_si256(x + i + 1);
      __m256 v0 = _mm256_castsi256_ps(_mm256_slli_epi32(w0, 16)),
             v1 = _mm256_castsi256_ps(_mm256_and_si256(w0, hi));
      __m256 v2 = _mm256_castsi256_ps(_mm256_slli_epi32(w1, 16)),
             v3 = _mm256_castsi256_ps(_mm256_and_si256(w1, hi));
      a0 = _mm256_fmadd_ps(v0, v0, a0);
      a1 = _mm256_fmadd_ps(v1, v1, a1);
      a2 = _mm256_fmadd_ps(v2, v2, a2);
      a3 = _mm256_fmadd_ps(v3, v3, a3);
    }
    float ss =
        hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
    __m256 scale = _mm256_set1_ps(1.f / std::sqrt(ss / kRmsRow + 1e-6f));
    const uint16_t *xs = (const uint16_t *)(s + r);
    uint16_t *ys = (uint16_t *)(d + r);
    for (size_t i = 0; i < kRmsRow; i += 16) {
      __m256i out[2];
      for (int h = 0; h < 2; ++h) {
        __m256i u = _mm256_cvtepu16_epi32(
            _mm_load_si128((const __m128i *)(xs + i + 8 * h)));
        __m256i y = _mm256_castps_si256(_mm256_mul_ps(
            _mm256_castsi256_ps(_mm256_slli_epi32(u, 16)), scale));
        y = _mm256_add_epi32(
            y, _mm256_add_epi32(
                   bias, _mm256_and_si256(_mm256_srli_epi32(y, 16), one)));
        out[h] = _mm256_srli_epi32(y, 16);
      }
      // packus works within 128-bit lanes; the permute restores the order.
      __m256i p =
          _mm256_permute4x64_epi64(_mm256_packus_epi32(out[0], out[1]), 0xd8);
      _mm256_stream_si256((__m256i *)(ys + i), p);
    }
  }
  _mm_sfence();
}

void copy_memcpy(const float *__restrict s, float *__restrict d, size_t b, size_t e) {
  std::memcpy(d + b, s + b, (e - b) * sizeof(float));
}

// y[r,:] = x[r,:] * g (+ b) for rows [r0, r1); Hf a multiple of 16.
AVX512 void pattern_rows_512(const float *__restrict x,
                             const float *__restrict g,
                             const float *__restrict b, float *__restrict y,
                             int64_t Hf, int k, int64_t r0, int64_t r1) {
  for (int64_t r = r0; r < r1; ++r) {
    const float *xr = x + r * Hf;
    float *yr = y + r * Hf;
    int64_t c = 0;
    if (k == 2) {
      for (; c + 64 <= Hf; c += 64)
        for (int u = 0; u < 64; u += 16)
          _mm512_store_ps(yr + c + u, _mm512_fmadd_ps(_mm512_load_ps(xr + c + u), _mm512_load_ps(g + c + u),
                                                      _mm512_load_ps(b + c + u)));
      for (; c < Hf; c += 16)
        _mm512_store_ps(yr + c, _mm512_fmadd_ps(_mm512_load_ps(xr + c), _mm512_load_ps(g + c), _mm512_load_ps(b + c)));
    } else {
      for (; c + 64 <= Hf; c += 64)
        for (int u = 0; u < 64; u += 16)
          _mm512_store_ps(yr + c + u, _mm512_mul_ps(_mm512_load_ps(xr + c + u), _mm512_load_ps(g + c + u)));
      for (; c < Hf; c += 16) _mm512_store_ps(yr + c, _mm512_mul_ps(_mm512_load_ps(xr + c), _mm512_load_ps(g + c)));
    }
  }
}

AVX2 void pattern_rows_256(const float *__restrict x, const float *__restrict g,
                           const float *__restrict b, float *__restrict y,
                           int64_t Hf, int k, int64_t r0, int64_t r1) {
  for (int64_t r = r0; r < r1; ++r) {
    const float *xr = x + r * Hf;
    float *yr = y + r * Hf;
    int64_t c = 0;
    if (k == 2) {
      for (; c + 32 <= Hf; c += 32)
        for (int u = 0; u < 32; u += 8)
          _mm256_store_ps(yr + c + u,
                          _mm256_fmadd_ps(_mm256_load_ps(xr + c + u),
                                          _mm256_load_ps(g + c + u),
                                          _mm256_load_ps(b + c + u)));
      for (; c < Hf; c += 8)
        _mm256_store_ps(yr + c, _mm256_fmadd_ps(_mm256_load_ps(xr + c),
                                                _mm256_load_ps(g + c),
                                                _mm256_load_ps(b + c)));
    } else {
      for (; c + 32 <= Hf; c += 32)
        for (int u = 0; u < 32; u += 8)
          _mm256_store_ps(yr + c + u, _mm256_mul_ps(_mm256_load_ps(xr + c + u),
                                                    _mm256_load_ps(g + c + u)));
      for (; c < Hf; c += 8)
        _mm256_store_ps(yr + c, _mm256_mul_ps(_mm256_load_ps(xr + c),
                                              _mm256_load_ps(g + c)));
    }
  }
}

using CopyFn = void (*)(const float *, float *, size_t, size_t);
using PatternFn = void (*)(const float *, const float *, const float *, float *,
                           int64_t, int, int64_t, int64_t);

// The kernels of the running CPU's widest vector ISA.
struct Isa {
  const char *name;
  CopyFn nt, plain, rms_f32, rms_bf16;
  PatternFn pattern;
};
Isa pick_isa() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return {"avx512",    copy_nt_512,  copy_plain_512,
            rms_f32_512, rms_bf16_512, pattern_rows_512};
  return {"avx2",      copy_nt_256,  copy_plain_256,
          rms_f32_256, rms_bf16_256, pattern_rows_256};
}

void run(CopyFn f, const float *s, float *d, size_t n, int T) {
  if (T == 1) { f(s, d, 0, n); return; }
#pragma omp parallel num_threads(T)
  {
    size_t b, e;
    chunk(n, omp_get_thread_num(), omp_get_num_threads(), b, e);
    f(s, d, b, e);
  }
}

void report(const char *mode, const char *kind, int T, double bytes, double best_s, double med_s,
            bool use_best) {
  double t = use_best ? best_s : med_s;
  std::printf("copy_bw: mode=%s kind=%s threads=%d bytes=%.0f best_ms=%.6f median_ms=%.6f gbps=%.2f\n",
              mode, kind, T, bytes, best_s * 1e3, med_s * 1e3, bytes / t * 1e-9);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char **argv) {
  Args a(argc, argv);
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::fprintf(stderr, "copy_bw: needs AVX2 + FMA or AVX-512\n");
    return 2;
  }
  const Isa isa = pick_isa();
  std::printf("copy_bw: isa=%s\n", isa.name);
  std::string mode = a.str("mode", "dram");
  int T = (int)a.num("threads", 1);
  if (mode == "dram") {
    size_t n = (size_t)a.num("mib", 512) * (1u << 20) / sizeof(float);
    int runs = (int)a.num("runs", 10);
    float *s = (float *)alloc_bytes(n * 4), *d = (float *)alloc_bytes(n * 4);
#pragma omp parallel num_threads(T)
    {  // first touch by the thread that will copy the chunk
      size_t b, e;
      chunk(n, omp_get_thread_num(), omp_get_num_threads(), b, e);
      for (size_t i = b; i < e; ++i) { s[i] = (float)(i & 1023); d[i] = 0.f; }
    }
    struct {
      const char *name;
      CopyFn f;
    } kinds[] = {{"nt", isa.nt},
                 {"plain", isa.plain},
                 {"memcpy", copy_memcpy},
                 {"rms-f32", isa.rms_f32},
                 {"rms-bf16", isa.rms_bf16}};
    for (auto &k : kinds) {
      std::vector<double> v;
      run(k.f, s, d, n, T);  // warm-up pass
      for (int r = 0; r < runs; ++r) {
        double t0 = now_s();
        run(k.f, s, d, n, T);
        v.push_back(now_s() - t0);
      }
      std::sort(v.begin(), v.end());
      if (k.f != isa.rms_f32 && k.f != isa.rms_bf16 &&
          (d[n - 1] != s[n - 1] || d[n / 2] != s[n / 2])) {
        std::fprintf(stderr, "copy_bw: wrong copy\n");
        return 1;
      }
      report("dram", k.name, T, 2.0 * n * 4, v[0], v[v.size() / 2], true);
    }
    std::free(s);
    std::free(d);
    return 0;
  }
  if (mode == "cache") {
    double bytes = (double)a.num("bytes", 65536);
    double target = a.real("target", 0.3);
    size_t n = (size_t)(bytes / 2 / sizeof(float));
    n = std::max<size_t>(16, (n + 15) / 16 * 16);
    float *s = (float *)alloc_bytes(n * 4), *d = (float *)alloc_bytes(n * 4);
#pragma omp parallel num_threads(T)
    {
      size_t b, e;
      chunk(n, omp_get_thread_num(), omp_get_num_threads(), b, e);
      for (size_t i = b; i < e; ++i) { s[i] = (float)(i & 1023); d[i] = 0.f; }
    }
    struct {
      const char *name;
      CopyFn f;
    } kinds[] = {{"plain", isa.plain}, {"nt", isa.nt}};
    for (auto &k : kinds) {
      Timing t = time_it([&] { run(k.f, s, d, n, T); }, target, 20);
      report("cache", k.name, T, 2.0 * n * 4, t.min_ms * 1e-3, t.median_ms * 1e-3, false);
    }
    std::free(s);
    std::free(d);
    return 0;
  }
  if (mode == "pattern") {
    // The norm's access pattern without its statistics: per row,
    // y[r,:] = x[r,:] * g (+ b), on buffers of exactly the norm's sizes
    // (viewed as f32), plain vector stores. Not a copy: it reads `weights`
    // extra streams per row, which in L1 a copy (1 load : 1 store) cannot
    // show, so a norm can beat the in-cache copy but not this.
    int64_t R = a.num("rows", 1), H = a.num("hidden", 4096), es = a.num("esize", 4);
    int k = (int)a.num("weights", 1);
    int64_t Hf = H * es / 4;
    if (Hf % 16) { std::fprintf(stderr, "copy_bw: pattern needs hidden*esize a multiple of 64 bytes\n"); return 2; }
    float *x = (float *)alloc_bytes(R * Hf * 4), *y = (float *)alloc_bytes(R * Hf * 4);
    float *g = (float *)alloc_bytes(Hf * 4), *b = (float *)alloc_bytes(Hf * 4);
    for (int64_t i = 0; i < R * Hf; ++i) { x[i] = (float)(i & 1023); y[i] = 0.f; }
    for (int64_t i = 0; i < Hf; ++i) { g[i] = 1.f; b[i] = 0.5f; }
    PatternFn pattern_rows = isa.pattern;
    auto rows = [=](int64_t r0, int64_t r1) {
      pattern_rows(x, g, b, y, Hf, k, r0, r1);
    };
    auto fn = [&] {
      if (T == 1) { rows(0, R); return; }
#pragma omp parallel num_threads(T)
      {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        rows(R * t / n, R * (t + 1) / n);
      }
    };
    Timing t = time_it(fn, a.real("target", 0.3), 20);
    double bytes = (double)es * (2.0 * R * H + (double)k * H);
    report("pattern", k == 2 ? "x*g+b" : "x*g", T, bytes, t.min_ms * 1e-3, t.median_ms * 1e-3, false);
    return 0;
  }
  std::fprintf(stderr, "copy_bw: unknown --mode=%s\n", mode.c_str());
  return 2;
}
