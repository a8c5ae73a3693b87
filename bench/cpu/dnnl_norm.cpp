// oneDNN peer: dnnl::layer_normalization_forward (forward_inference) on the
// same inputs as cxx_norm. LayerNorm uses use_scale | use_shift; RMSNorm uses
// normalization_flags::rms_norm when the installed oneDNN has it
// (HAVE_DNNL_RMS, detected by run.sh at build time), otherwise it prints
// `dnnl_norm: ... unsupported` and the column is n/a. γ and β are passed as
// f32 (oneDNN 2.x takes scale/shift in f32 only); for bf16 they are the
// bf16-rounded values, so the math is the same as the other columns.
//
// Threads: oneDNN's OpenMP runtime (libgomp in Debian) -> set OMP_NUM_THREADS.
//
//   OMP_NUM_THREADS=T dnnl_norm --op=rms|ln --dtype=f32|bf16 --rows=R --hidden=H --threads=T
//
// Build (run.sh does it): clang++-22 -O3 -march=native -pthread dnnl_norm.cpp -ldnnl
// (no -fopenmp: libdnnl already links libgomp; mixing in libomp is avoided).
#include "common.h"

#include <oneapi/dnnl/dnnl.hpp>

using namespace bench;

int main(int argc, char **argv) {
  Args a(argc, argv);
  std::string op = a.str("op", "rms"), dtype = a.str("dtype", "f32");
  int T = (int)a.num("threads", 1);
  const char *env = std::getenv("OMP_NUM_THREADS");
  if (!env || std::atoi(env) != T)
    std::fprintf(stderr, "dnnl_norm: warning: OMP_NUM_THREADS=%s but --threads=%d\n", env ? env : "(unset)", T);

#ifndef HAVE_DNNL_RMS
  if (op == "rms") {
    std::printf("dnnl_norm: op=%s dtype=%s rows=%lld hidden=%lld threads=%d unsupported "
                "(oneDNN %d.%d has no normalization_flags::rms_norm)\n",
                op.c_str(), dtype.c_str(), a.num("rows", 0), a.num("hidden", 0), T,
                DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR);
    return 0;
  }
#endif

  Problem p;
  p.setup(op, dtype, a.num("rows", 16), a.num("hidden", 4096), T);
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream strm(eng);
  memory::dims dims = {p.R, p.H};
  memory::data_type dt = p.bf16 ? memory::data_type::bf16 : memory::data_type::f32;
  memory::desc md(dims, dt, memory::format_tag::ab);
  memory::desc wmd({p.H}, memory::data_type::f32, memory::format_tag::a);

  normalization_flags flags = normalization_flags::use_scale;
  if (p.layer) flags = flags | normalization_flags::use_shift;
#ifdef HAVE_DNNL_RMS
  else flags = flags | normalization_flags::rms_norm;
#endif

  std::vector<float> gs(p.H), bs(p.H);
  for (int64_t c = 0; c < p.H; ++c) { gs[c] = (float)p.gd(c); bs[c] = (float)p.bd(c); }

  layer_normalization_forward::primitive_desc pd;
  try {
#if DNNL_VERSION_MAJOR >= 3
    pd = layer_normalization_forward::primitive_desc(eng, prop_kind::forward_inference, md, md,
                                                     (float)p.eps, flags);
#else
    auto d = layer_normalization_forward::desc(prop_kind::forward_inference, md, (float)p.eps, flags);
    pd = layer_normalization_forward::primitive_desc(d, eng);
#endif
  } catch (dnnl::error &e) {
    std::printf("dnnl_norm: op=%s dtype=%s rows=%lld hidden=%lld threads=%d unsupported (%s)\n",
                op.c_str(), dtype.c_str(), (long long)p.R, (long long)p.H, T, e.what());
    return 0;
  }
  layer_normalization_forward prim(pd);
  memory src(md, eng, p.x), dst(md, eng, p.y), scale(wmd, eng, gs.data()), shift(wmd, eng, bs.data());
  std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
#if DNNL_VERSION_MAJOR >= 3 || (DNNL_VERSION_MAJOR == 2 && DNNL_VERSION_MINOR >= 3)
  args[DNNL_ARG_SCALE] = scale;
  if (p.layer) args[DNNL_ARG_SHIFT] = shift;
#else
#error "oneDNN >= 2.3 is needed (DNNL_ARG_SCALE / DNNL_ARG_SHIFT)"
#endif
  // The statistics outputs are not needed for forward_inference.
  auto fn = [&] {
    prim.execute(strm, args);
    strm.wait();
  };
  Timing t = time_it(fn, a.real("target", 0.5), (int)a.num("warmup", 2));
  std::string extra = std::string(" impl=") + pd.impl_info_str();
  p.print("dnnl_norm", op, dtype, T, t, extra.c_str());
  return 0;
}
