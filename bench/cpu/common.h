// Shared helpers for the CPU norm benchmarks (bench/cpu/*.cpp): argument
// parsing, deterministic inputs, bf16 conversion, float64 reference, timing.
// Header-only on purpose: each benchmark is one translation unit that
// run.sh compiles with a single clang++ command.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace bench {

// ---- arguments: --key=value -------------------------------------------------
struct Args {
  std::vector<std::pair<std::string, std::string>> kv;
  Args(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) {
        std::fprintf(stderr, "bad argument '%s' (expected --key=value)\n", argv[i]);
        std::exit(2);
      }
      auto eq = a.find('=');
      if (eq == std::string::npos) kv.push_back({a.substr(2), "1"});
      else kv.push_back({a.substr(2, eq - 2), a.substr(eq + 1)});
    }
  }
  const std::string *find(const char *k) const {
    for (auto &p : kv) if (p.first == k) return &p.second;
    return nullptr;
  }
  std::string str(const char *k, const char *def) const { auto *v = find(k); return v ? *v : def; }
  long long num(const char *k, long long def) const { auto *v = find(k); return v ? std::atoll(v->c_str()) : def; }
  double real(const char *k, double def) const { auto *v = find(k); return v ? std::atof(v->c_str()) : def; }
  bool flag(const char *k) const { return find(k) != nullptr; }
};

// ---- deterministic inputs -----------------------------------------------------
inline uint64_t splitmix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// uniform in [0, 1)
inline double unit(uint64_t i, uint64_t stream) {
  return (double)(splitmix64(i * 4 + stream) >> 11) * (1.0 / 9007199254740992.0);
}
// x[r,c] = 0.5*u_r + (2u-1): a per-row offset so LayerNorm's mean matters.
inline double x_val(int64_t r, int64_t c, int64_t H) {
  return 0.5 * unit((uint64_t)r, 3) + 2.0 * unit((uint64_t)(r * H + c), 0) - 1.0;
}
inline double gamma_val(int64_t c) { return 0.5 + unit((uint64_t)c, 1); }
inline double beta_val(int64_t c) { return 0.5 * unit((uint64_t)c, 2) - 0.25; }

// ---- bf16 as uint16 storage -------------------------------------------------------
inline float bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint16_t f32_to_bf16(float f) {  // round to nearest even (no NaN inputs here)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

// ---- float64 reference on one row -----------------------------------------------
// in[c], g[c], b[c] are the (already dtype-rounded) inputs as doubles.
inline void ref_row(bool layer, const double *in, const double *g, const double *b,
                    int64_t H, double eps, double *out) {
  double mean = 0, ss = 0;
  if (layer) {
    for (int64_t c = 0; c < H; ++c) mean += in[c];
    mean /= (double)H;
  }
  for (int64_t c = 0; c < H; ++c) ss += (in[c] - mean) * (in[c] - mean);
  double rstd = 1.0 / std::sqrt(ss / (double)H + eps);
  for (int64_t c = 0; c < H; ++c)
    out[c] = (in[c] - mean) * rstd * g[c] + (layer ? b[c] : 0.0);
}

// Error metric of one row: max|y - ref| / max|ref|.
inline double row_err(const double *y, const double *ref, int64_t H) {
  double num = 0, den = 0;
  for (int64_t c = 0; c < H; ++c) {
    num = std::max(num, std::fabs(y[c] - ref[c]));
    den = std::max(den, std::fabs(ref[c]));
  }
  return num / (den > 0 ? den : 1.0);
}

// Rows that are checked (cheap: 3 rows whatever the shape).
inline std::vector<int64_t> check_rows(int64_t R) {
  std::vector<int64_t> v{0, R / 2, R - 1};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// ---- timing ----------------------------------------------------------------------
inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing { double median_ms, min_ms; long long calls, batch; };

// Runs fn `warmup` times, then times batches of calls (a batch lasts >= 20 us
// so that clock overhead is negligible for tiny shapes) until about
// target_s seconds have passed (at least min_batches batches); reports the
// median and minimum over batches of the time per call.
inline Timing time_it(const std::function<void()> &fn, double target_s, int warmup = 2,
                      int min_batches = 5, int max_batches = 100000) {
  for (int i = 0; i < warmup; ++i) fn();
  // Calibrate: double the number of calls until they take >= 10 ms.
  double per = 0;
  for (long long k = 1;; k *= 2) {
    double t0 = now_s();
    for (long long i = 0; i < k; ++i) fn();
    double el = now_s() - t0;
    per = el / k;
    if (el >= 10e-3 || per >= 5e-3) break;
  }
  long long batch = std::max(1LL, (long long)std::ceil(20e-6 / std::max(per, 1e-9)));
  long long nb = (long long)(target_s / std::max(per * batch, 1e-9));
  nb = std::min<long long>(std::max<long long>(nb, min_batches), max_batches);
  std::vector<double> v;
  v.reserve(nb);
  for (long long k = 0; k < nb; ++k) {
    double a = now_s();
    for (long long i = 0; i < batch; ++i) fn();
    v.push_back((now_s() - a) / batch);
  }
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2] * 1e3, v[0] * 1e3, nb * batch, batch};
}

inline void *alloc_bytes(size_t n) {
  size_t a = 2u << 20;  // 2 MiB alignment: lets the kernel back large buffers with huge pages
  void *p = std::aligned_alloc(a, (n + a - 1) / a * a);
  if (!p) { std::fprintf(stderr, "allocation of %zu bytes failed\n", n); std::exit(1); }
  return p;
}

}  // namespace bench

// ---- one norm problem: buffers, deterministic init, float64 check ---------------
#include <thread>

namespace bench {

struct Problem {
  bool layer = false;   // LayerNorm (γ, β) or RMSNorm (γ)
  bool bf16 = false;    // storage type of x, y, γ, β: bf16 (uint16) or f32
  int64_t R = 0, H = 0;
  double eps = 0;
  void *x = nullptr, *y = nullptr, *g = nullptr, *b = nullptr;

  size_t esize() const { return bf16 ? 2 : 4; }
  // Bytes moved by one call: x read + y written + weights read.
  double bytes() const { return (double)esize() * (2.0 * R * H + (layer ? 2.0 : 1.0) * H); }

  double xd(int64_t r, int64_t c) const {
    size_t i = (size_t)(r * H + c);
    return bf16 ? bf16_to_f32(((uint16_t *)x)[i]) : ((float *)x)[i];
  }
  double yd(int64_t r, int64_t c) const {
    size_t i = (size_t)(r * H + c);
    return bf16 ? bf16_to_f32(((uint16_t *)y)[i]) : ((float *)y)[i];
  }
  double gd(int64_t c) const { return bf16 ? bf16_to_f32(((uint16_t *)g)[c]) : ((float *)g)[c]; }
  double bd(int64_t c) const { return bf16 ? bf16_to_f32(((uint16_t *)b)[c]) : ((float *)b)[c]; }

  void setup(const std::string &op, const std::string &dtype, int64_t rows, int64_t hidden, int init_threads) {
    if (op != "rms" && op != "ln") { std::fprintf(stderr, "--op must be rms or ln\n"); std::exit(2); }
    if (dtype != "f32" && dtype != "bf16") { std::fprintf(stderr, "--dtype must be f32 or bf16\n"); std::exit(2); }
    layer = op == "ln";
    bf16 = dtype == "bf16";
    R = rows;
    H = hidden;
    eps = layer ? 1e-5 : 1e-6;
    size_t n = (size_t)(R * H);
    x = alloc_bytes(n * esize());
    y = alloc_bytes(n * esize());
    g = alloc_bytes(H * esize());
    b = alloc_bytes(H * esize());
    // Fill x and pre-fault y with the same row split the kernels use.
    int nt = std::max(1, init_threads);
    std::vector<std::thread> th;
    for (int t = 0; t < nt; ++t)
      th.emplace_back([=] {
        int64_t r0 = R * t / nt, r1 = R * (t + 1) / nt;
        for (int64_t r = r0; r < r1; ++r)
          for (int64_t c = 0; c < H; ++c) {
            size_t i = (size_t)(r * H + c);
            float v = (float)x_val(r, c, H);
            if (bf16) { ((uint16_t *)x)[i] = f32_to_bf16(v); ((uint16_t *)y)[i] = 0; }
            else { ((float *)x)[i] = v; ((float *)y)[i] = 0.f; }
          }
      });
    for (auto &t : th) t.join();
    for (int64_t c = 0; c < H; ++c) {
      float gv = (float)gamma_val(c), bv = (float)beta_val(c);
      if (bf16) { ((uint16_t *)g)[c] = f32_to_bf16(gv); ((uint16_t *)b)[c] = f32_to_bf16(bv); }
      else { ((float *)g)[c] = gv; ((float *)b)[c] = bv; }
    }
  }

  double tol() const { return bf16 ? 1.6e-2 : 1e-4; }

  // Max error (row_err) over check_rows() against float64; also a checksum
  // (sum of y over those rows) to compare implementations with each other.
  double check(double *checksum) const {
    std::vector<double> in(H), gg(H), bb(H), ref(H), out(H);
    for (int64_t c = 0; c < H; ++c) { gg[c] = gd(c); bb[c] = bd(c); }
    double err = 0, sum = 0;
    for (int64_t r : check_rows(R)) {
      for (int64_t c = 0; c < H; ++c) { in[c] = xd(r, c); out[c] = yd(r, c); sum += out[c]; }
      ref_row(layer, in.data(), gg.data(), bb.data(), H, eps, ref.data());
      double e = row_err(out.data(), ref.data(), H);
      if (!(e == e)) e = 1e30;  // NaN
      err = std::max(err, e);
    }
    if (checksum) *checksum = sum;
    return err;
  }

  // The result line shared by the C++ benchmarks.
  void print(const char *tool, const std::string &op, const std::string &dtype, int T,
             const Timing &t, const char *extra = "") const {
    double cs = 0, e = check(&cs);
    std::printf("%s: op=%s dtype=%s rows=%lld hidden=%lld threads=%d bytes=%.0f median_ms=%.6f "
                "min_ms=%.6f gbps=%.2f calls=%lld rel_err=%.3g tol=%.3g %s checksum=%.9g%s\n",
                tool, op.c_str(), dtype.c_str(), (long long)R, (long long)H, T, bytes(), t.median_ms,
                t.min_ms, bytes() / (t.median_ms * 1e-3) * 1e-9, t.calls, e, tol(),
                e <= tol() ? "PASS" : "FAIL", cs, extra);
    std::fflush(stdout);
  }
};

}  // namespace bench
