// Peers of the fused RMSNorm -> matmul (run-gemm.sh): a BLAS matmul alone
// and the same matmul after an RMSNorm, C = rms_norm(X; γ, ε = 1e-6) · W,
// X M×K, W K×N row-major (the sgemm "NN" case), C M×N.
//
// One source, two programs (run-gemm.sh builds whichever library is there):
//   -DUSE_OPENBLAS  gemm_openblas: cblas_sgemm (f32 only; Debian's OpenBLAS
//                   has no sbgemm), threads from OPENBLAS_NUM_THREADS and
//                   openblas_set_num_threads(T).
//   -DUSE_DNNL      gemm_dnnl: dnnl::matmul, plain row-major ("ab") src,
//                   weights and dst, f32, or bf16 src/weights/dst with f32
//                   accumulation; threads from OMP_NUM_THREADS (libdnnl's
//                   libgomp). Weights are not pre-packed (the project packs
//                   W on every call too).
// The norm before the matmul is the C++ RMSNorm below for both: oneDNN 2.6
// has no RMSNorm primitive and OpenBLAS has none. It is the straightforward
// per-row loop (f32 accumulation, `#pragma omp simd` reduction, y rounded to
// the storage type once after γ), rows split over T std::threads when the
// norm touches at least 1 MiB (std::thread rather than OpenMP so that it
// does not load a second OpenMP runtime beside libdnnl's libgomp).
//
//   gemm_{openblas,dnnl} --dtype=f32|bf16 --m=M --k=K --n=N --threads=T [--target=0.5]
//
// Output, one line per mode (mm: the matmul alone, C = X·W; rms_mm: norm then
// matmul, the norm's output y a separate M×K buffer):
//   gemm_<lib>: mode=<mm|rms_mm> dtype=.. m=.. k=.. n=.. threads=.. median_ms=.. min_ms=..
//               gflops=.. calls=.. rel_err=.. tol=.. PASS|FAIL checksum=.. [impl=..]
// rel_err: ‖c − ref‖₂ / ‖ref‖₂ over rows 0, M/2, M−1 against float64 (ref
// from the dtype-rounded inputs; for rms_mm the normalized rows unrounded),
// tolerance 1e-5 (f32) or 1e-2 (bf16), as norm-run's for the fused ops.
#include "common.h"

#include <thread>

#if defined(USE_OPENBLAS)
#include <cblas.h>
#define TOOL "gemm_openblas"
#elif defined(USE_DNNL)
#include <oneapi/dnnl/dnnl.hpp>
#define TOOL "gemm_dnnl"
#else
#error "define USE_OPENBLAS or USE_DNNL"
#endif

using namespace bench;

namespace {

// W[k, n]: uniform in [-1, 1) from its own stream (also in torch_gemm.py).
inline double w_val(int64_t k, int64_t n, int64_t N) {
  return 2.0 * unit((uint64_t)(k * N + n) + (1ull << 40), 2) - 1.0;
}

template <class T> inline float ld(const T *p, size_t i);
template <> inline float ld<float>(const float *p, size_t i) { return p[i]; }
template <> [[maybe_unused]] inline float ld<uint16_t>(const uint16_t *p, size_t i) { return bf16_to_f32(p[i]); }
inline void st(float *p, size_t i, float v) { p[i] = v; }
[[maybe_unused]] inline void st(uint16_t *p, size_t i, float v) { p[i] = f32_to_bf16(v); }

// The C++ RMSNorm: rows [r0, r1).
template <class T>
void rms_rows(const T *x, const T *g, T *y, int64_t K, int64_t r0, int64_t r1) {
  for (int64_t r = r0; r < r1; ++r) {
    const T *xr = x + r * K;
    T *yr = y + r * K;
    float ss = 0.f;
#pragma omp simd reduction(+ : ss)
    for (int64_t c = 0; c < K; ++c) { float v = ld(xr, c); ss += v * v; }
    float s = 1.f / std::sqrt(ss / (float)K + 1e-6f);
#pragma omp simd
    for (int64_t c = 0; c < K; ++c) st(yr, c, ld(xr, c) * s * ld(g, c));
  }
}

template <class T>
void rms_norm(const T *x, const T *g, T *y, int64_t M, int64_t K, int nt) {
  if (nt <= 1 || (double)M * K * sizeof(T) * 2 < (1 << 20) || M < nt) {
    rms_rows(x, g, y, K, 0, M);
    return;
  }
  std::vector<std::thread> th;
  for (int t = 1; t < nt; ++t)
    th.emplace_back([=] { rms_rows(x, g, y, K, M * t / nt, M * (t + 1) / nt); });
  rms_rows(x, g, y, K, 0, M / nt);
  for (auto &t : th) t.join();
}

struct Buffers {
  bool bf16;
  int64_t M, K, N;
  void *x, *g, *y, *w, *c;
  size_t es() const { return bf16 ? 2 : 4; }
  double get(const void *p, size_t i) const {
    return bf16 ? bf16_to_f32(((const uint16_t *)p)[i]) : ((const float *)p)[i];
  }
  void put(void *p, size_t i, double v) const {
    if (bf16) ((uint16_t *)p)[i] = f32_to_bf16((float)v);
    else ((float *)p)[i] = (float)v;
  }
};

// Fills x, γ, W (dtype-rounded), zeroes y and c; T threads by rows.
void setup(Buffers &b, int T) {
  b.x = alloc_bytes(b.M * b.K * b.es());
  b.y = alloc_bytes(b.M * b.K * b.es());
  b.g = alloc_bytes(b.K * b.es());
  b.w = alloc_bytes(b.K * b.N * b.es());
  b.c = alloc_bytes(b.M * b.N * b.es());
  std::vector<std::thread> th;
  for (int t = 0; t < T; ++t)
    th.emplace_back([&b, t, T] {
      for (int64_t r = b.M * t / T; r < b.M * (t + 1) / T; ++r)
        for (int64_t c = 0; c < b.K; ++c) { b.put(b.x, r * b.K + c, x_val(r, c, b.K)); b.put(b.y, r * b.K + c, 0); }
      for (int64_t r = b.M * t / T; r < b.M * (t + 1) / T; ++r)
        for (int64_t n = 0; n < b.N; ++n) b.put(b.c, r * b.N + n, 0);
      for (int64_t k = b.K * t / T; k < b.K * (t + 1) / T; ++k)
        for (int64_t n = 0; n < b.N; ++n) b.put(b.w, k * b.N + n, w_val(k, n, b.N));
    });
  for (auto &t : th) t.join();
  for (int64_t c = 0; c < b.K; ++c) b.put(b.g, c, gamma_val(c));
}

// ‖c − ref‖₂ / ‖ref‖₂ over the checked rows; checksum = Σ c over them.
double check(const Buffers &b, bool norm, double *checksum) {
  double num = 0, den = 0, cs = 0;
  std::vector<double> a(b.K), acc(b.N);
  for (int64_t r : check_rows(b.M)) {
    double ss = 0;
    for (int64_t k = 0; k < b.K; ++k) { a[k] = b.get(b.x, r * b.K + k); ss += a[k] * a[k]; }
    if (norm) {
      double s = 1.0 / std::sqrt(ss / (double)b.K + 1e-6);
      for (int64_t k = 0; k < b.K; ++k) a[k] *= s * b.get(b.g, k);
    }
    std::fill(acc.begin(), acc.end(), 0.0);
    for (int64_t k = 0; k < b.K; ++k)
      for (int64_t n = 0; n < b.N; ++n) acc[n] += a[k] * b.get(b.w, k * b.N + n);
    for (int64_t n = 0; n < b.N; ++n) {
      double c = b.get(b.c, r * b.N + n);
      num += (c - acc[n]) * (c - acc[n]);
      den += acc[n] * acc[n];
      cs += c;
    }
  }
  *checksum = cs;
  double e = std::sqrt(num) / (den > 0 ? std::sqrt(den) : 1.0);
  return e == e ? e : 1e30;
}

void report(const Buffers &b, const char *mode, int T, const Timing &t, bool norm, const std::string &extra) {
  double cs = 0, e = check(b, norm, &cs), tol = b.bf16 ? 1e-2 : 1e-5;
  double flops = 2.0 * b.M * b.K * b.N;
  std::printf(TOOL ": mode=%s dtype=%s m=%lld k=%lld n=%lld threads=%d median_ms=%.6f min_ms=%.6f gflops=%.2f "
              "calls=%lld rel_err=%.3g tol=%.0e %s checksum=%.9g%s\n",
              mode, b.bf16 ? "bf16" : "f32", (long long)b.M, (long long)b.K, (long long)b.N, T, t.median_ms,
              t.min_ms, flops / (t.median_ms * 1e-3) * 1e-9, t.calls, e, tol, e <= tol ? "PASS" : "FAIL", cs,
              extra.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char **argv) {
  Args a(argc, argv);
  Buffers b;
  std::string dtype = a.str("dtype", "f32");
  b.bf16 = dtype == "bf16";
  b.M = a.num("m", 16);
  b.K = a.num("k", 4096);
  b.N = a.num("n", 4096);
  int T = (int)a.num("threads", 1);
  double target = a.real("target", 0.5);
  std::string only = a.str("modes", "mm,rms_mm");

#if defined(USE_OPENBLAS)
  if (b.bf16) {
    std::printf(TOOL ": mode=mm dtype=bf16 m=%lld k=%lld n=%lld threads=%d unsupported (no sbgemm in this OpenBLAS)\n",
                (long long)b.M, (long long)b.K, (long long)b.N, T);
    return 0;
  }
  openblas_set_num_threads(T);
  setup(b, T);
  auto mm = [&](const void *src) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)b.M, (int)b.N, (int)b.K, 1.f,
                (const float *)src, (int)b.K, (const float *)b.w, (int)b.N, 0.f, (float *)b.c, (int)b.N);
  };
  std::string extra = std::string(" impl=openblas-") + openblas_get_corename() + "-" +
                      (openblas_get_parallel() == 1 ? "pthreads" : openblas_get_parallel() == 2 ? "openmp" : "serial");
  auto run_mm = [&] { mm(b.x); };
  auto run_rms = [&] { rms_norm((const float *)b.x, (const float *)b.g, (float *)b.y, b.M, b.K, T); mm(b.y); };
#else
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream strm(eng);
  memory::data_type dt = b.bf16 ? memory::data_type::bf16 : memory::data_type::f32;
  memory::desc smd({b.M, b.K}, dt, memory::format_tag::ab), wmd({b.K, b.N}, dt, memory::format_tag::ab),
      dmd({b.M, b.N}, dt, memory::format_tag::ab);
  matmul::primitive_desc pd;
  try {
#if DNNL_VERSION_MAJOR >= 3
    pd = matmul::primitive_desc(eng, smd, wmd, dmd);
#else
    pd = matmul::primitive_desc(matmul::desc(smd, wmd, dmd), eng);
#endif
  } catch (dnnl::error &e) {
    std::printf(TOOL ": mode=mm dtype=%s m=%lld k=%lld n=%lld threads=%d unsupported (%s)\n", dtype.c_str(),
                (long long)b.M, (long long)b.K, (long long)b.N, T, e.what());
    return 0;
  }
  setup(b, T);
  matmul prim(pd);
  memory xm(smd, eng, b.x), ym(smd, eng, b.y), wm(wmd, eng, b.w), cm(dmd, eng, b.c);
  std::string extra = std::string(" impl=") + pd.impl_info_str();
  auto run_mm = [&] {
    prim.execute(strm, {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, cm}});
    strm.wait();
  };
  auto run_rms = [&] {
    if (b.bf16) rms_norm((const uint16_t *)b.x, (const uint16_t *)b.g, (uint16_t *)b.y, b.M, b.K, T);
    else rms_norm((const float *)b.x, (const float *)b.g, (float *)b.y, b.M, b.K, T);
    prim.execute(strm, {{DNNL_ARG_SRC, ym}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, cm}});
    strm.wait();
  };
#endif
  if (only.find("rms_mm") != std::string::npos) {
    Timing t = time_it(run_rms, target, 1);
    report(b, "rms_mm", T, t, true, extra);
  }
  if (only == "mm" || only.rfind("mm,", 0) == 0 || only.find(",mm") != std::string::npos) {
    Timing t = time_it(run_mm, target, 1);
    report(b, "mm", T, t, false, extra);
  }
  return 0;
}
