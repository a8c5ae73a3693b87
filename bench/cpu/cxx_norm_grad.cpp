// Plain C++ baseline for the norm gradients: the loops a programmer writes
// first, given the forward's saved statistics (rstd, and the mean for
// LayerNorm), with x^ = (x - mean) * rstd and dy^ = dy * γ:
//   RMSNorm:   dx = rstd * (dy^ - x^ * mean(dy^ * x^));           dγ = Σ_rows
//   dy * x^ LayerNorm: dx = rstd * (dy^ - mean(dy^) - x^ * mean(dy^ * x^)); dγ,
//   dβ = Σ_rows dy
// f32 arithmetic; bf16 stored as uint16. Rows are split over OpenMP
// threads (static schedule); each thread sums dγ/dβ into its own f32 row,
// and the rows are added after the parallel loop. `#pragma omp simd` on the
// row loops, as cxx_norm.cpp.
//
//   cxx_norm_grad --op=rms|ln --dtype=f32|bf16 --rows=R --hidden=H --threads=T
//   [--target=0.5]
// prints one `cxx_norm_grad: ...` line (the same fields as norm-run's).
//
// Build (run-grad.sh does it): clang++-22 -O3 -march=native -fopenmp
// cxx_norm_grad.cpp
#include "common.h"

#include <omp.h>

using namespace bench;

namespace {

template <class T> inline float ld(const T *p, int64_t i);
template <> inline float ld<float>(const float *p, int64_t i) { return p[i]; }
template <> inline float ld<uint16_t>(const uint16_t *p, int64_t i) {
  return bf16_to_f32(p[i]);
}
inline void st(float *p, int64_t i, float v) { p[i] = v; }
inline void st(uint16_t *p, int64_t i, float v) { p[i] = f32_to_bf16(v); }

template <class T>
void norm_grad(bool layer, const T *dy, const T *x, const T *g,
               const float *mean, const float *rstd, T *dx, T *dg, T *db,
               float *partials, int64_t R, int64_t H, int threads) {
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    int t = omp_get_thread_num();
    float *pg = partials + (size_t)t * 2 * H, *pb = pg + H;
    for (int64_t c = 0; c < 2 * H; ++c)
      pg[c] = 0.f;
#pragma omp for schedule(static)
    for (int64_t r = 0; r < R; ++r) {
      const T *dyr = dy + r * H, *xr = x + r * H;
      T *dxr = dx + r * H;
      float mu = layer ? mean[r] : 0.f, rs = rstd[r];
      float a = 0.f, b = 0.f;
#pragma omp simd reduction(+ : a, b)
      for (int64_t c = 0; c < H; ++c) {
        float dyh = ld(dyr, c) * ld(g, c), xh = (ld(xr, c) - mu) * rs;
        a += dyh * xh;
        b += dyh;
      }
      a /= (float)H;
      b = layer ? b / (float)H : 0.f;
#pragma omp simd
      for (int64_t c = 0; c < H; ++c) {
        float d = ld(dyr, c), xh = (ld(xr, c) - mu) * rs;
        st(dxr, c, rs * (d * ld(g, c) - b - xh * a));
        pg[c] += d * xh;
        pb[c] += d;
      }
    }
  }
  int nt = threads > 1 ? threads : 1;
  for (int64_t c = 0; c < H; ++c) {
    float sg = 0.f, sb = 0.f;
    for (int t = 0; t < nt; ++t) {
      sg += partials[(size_t)t * 2 * H + c];
      sb += partials[(size_t)t * 2 * H + H + c];
    }
    st(dg, c, sg);
    if (layer)
      st(db, c, sb);
  }
}

} // namespace

int main(int argc, char **argv) {
  Args a(argc, argv);
  std::string op = a.str("op", "rms"), dtype = a.str("dtype", "f32");
  int T = (int)a.num("threads", 1);
  int64_t R = a.num("rows", 16), H = a.num("hidden", 4096);
  bool layer = op == "ln", bf16 = dtype == "bf16";
  size_t es = bf16 ? 2 : 4, n = (size_t)(R * H);
  void *dy = alloc_bytes(n * es), *x = alloc_bytes(n * es),
       *dx = alloc_bytes(n * es);
  void *g = alloc_bytes(H * es), *dg = alloc_bytes(H * es),
       *db = alloc_bytes(H * es);
  float *mean = (float *)alloc_bytes(R * 4),
        *rstd = (float *)alloc_bytes(R * 4);
  float *partials = (float *)alloc_bytes((size_t)std::max(T, 1) * 2 * H * 4);
  for (size_t i = 0; i < n; ++i) {
    float xv = (float)x_val((int64_t)(i / H), (int64_t)(i % H), H),
          dv = (float)(2.0 * unit(i, 4) - 1.0);
    if (bf16) {
      ((uint16_t *)x)[i] = f32_to_bf16(xv);
      ((uint16_t *)dy)[i] = f32_to_bf16(dv);
      ((uint16_t *)dx)[i] = 0;
    } else {
      ((float *)x)[i] = xv;
      ((float *)dy)[i] = dv;
      ((float *)dx)[i] = 0.f;
    }
  }
  for (int64_t c = 0; c < H; ++c) {
    float gv = (float)gamma_val(c);
    if (bf16)
      ((uint16_t *)g)[c] = f32_to_bf16(gv);
    else
      ((float *)g)[c] = gv;
  }
  for (int64_t r = 0; r < R; ++r) {
    mean[r] = 0.25f;
    rstd[r] = 1.5f;
  }
  std::function<void()> fn;
  if (bf16)
    fn = [=] {
      norm_grad(layer, (const uint16_t *)dy, (const uint16_t *)x,
                (const uint16_t *)g, mean, rstd, (uint16_t *)dx, (uint16_t *)dg,
                (uint16_t *)db, partials, R, H, T);
    };
  else
    fn = [=] {
      norm_grad(layer, (const float *)dy, (const float *)x, (const float *)g,
                mean, rstd, (float *)dx, (float *)dg, (float *)db, partials, R,
                H, T);
    };
  Timing t = time_it(fn, a.real("target", 0.5), (int)a.num("warmup", 2));
  // dx on the checked rows against float64 (common.h check_rows).
  auto val = [&](void *p, size_t i) {
    return bf16 ? (double)bf16_to_f32(((uint16_t *)p)[i])
                : (double)((float *)p)[i];
  };
  double err = 0;
  for (int64_t r : check_rows(R)) {
    std::vector<double> ref(H), out(H);
    double mu = layer ? mean[r] : 0.0, rs = rstd[r], sa = 0, sb = 0;
    for (int64_t c = 0; c < H; ++c) {
      double dyh = val(dy, r * H + c) * val(g, c),
             xh = (val(x, r * H + c) - mu) * rs;
      sa += dyh * xh;
      sb += dyh;
    }
    for (int64_t c = 0; c < H; ++c) {
      double dyh = val(dy, r * H + c) * val(g, c),
             xh = (val(x, r * H + c) - mu) * rs;
      ref[c] = rs * (dyh - (layer ? sb / H : 0.0) - xh * sa / H);
      out[c] = val(dx, r * H + c);
    }
    err = std::max(err, row_err(out.data(), ref.data(), H));
  }
  double tol = bf16 ? 1.6e-2 : 1e-4;
  // dy, x read, dx written, γ read, dγ (dβ) written, the statistics read.
  double bytes = (double)es * (3.0 * R * H + (layer ? 3.0 : 2.0) * H) +
                 (layer ? 8.0 : 4.0) * R;
  std::printf("cxx_norm_grad: op=%s dtype=%s rows=%lld hidden=%lld threads=%d "
              "bytes=%.0f median_ms=%.6f "
              "min_ms=%.6f gbps=%.2f rel_err=%.3g tol=%.3g %s\n",
              op.c_str(), dtype.c_str(), (long long)R, (long long)H, T, bytes,
              t.median_ms, t.min_ms, bytes / (t.median_ms * 1e-3) * 1e-9, err,
              tol, err <= tol ? "PASS" : "FAIL");
  return 0;
}
