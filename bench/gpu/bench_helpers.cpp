//===- bench_helpers.cpp - host helpers of the GPU norm benchmark ---------===//
//
// Called from the benchmark's MLIR (bench.py generates it): fill device
// buffers with seeded random data, flush the L2 between timed launches,
// collect the GPU time of each launch (libnorm_cuda_runtime's launch timing)
// and print the median; measure the device-to-device copy bandwidth the
// same way, as the roofline of a memory-bound norm.
//
// Built by run.sh: clang++ -shared against cuda.h, the driver (stub at link
// time) and libnorm_cuda_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "cuda.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define BENCH_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" void normCudaEnableLaunchTiming(int on);
extern "C" double normCudaLastLaunchMilliseconds();

namespace {

void check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  fprintf(stderr, "bench_helpers: %s failed with %s\n", what,
          name ? name : "?");
  exit(1);
}

/// Makes the primary context of device 0 current (the runtime uses the same
/// one).
void ensureContext() {
  static bool done = [] {
    check(cuInit(0), "cuInit");
    CUdevice device;
    check(cuDeviceGet(&device, 0), "cuDeviceGet");
    CUcontext context;
    check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    return true;
  }();
  (void)done;
}

struct UnrankedMemRef {
  int64_t rank;
  void *descriptor; // {allocated, aligned, offset, sizes[rank], strides[rank]}
};

/// Element count and device address of a contiguous ranked memref.
std::pair<size_t, CUdeviceptr> view(UnrankedMemRef *m, size_t elementBytes) {
  auto *words = static_cast<int64_t *>(m->descriptor);
  char *aligned = reinterpret_cast<char *>(words[1]);
  int64_t offset = words[2];
  size_t count = 1;
  for (int64_t d = 0; d < m->rank; ++d)
    count *= words[3 + d];
  return {count, reinterpret_cast<CUdeviceptr>(aligned + offset * elementBytes)};
}

uint16_t toBF16(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  bits += 0x7FFF + ((bits >> 16) & 1); // round to nearest even
  return bits >> 16;
}

/// Uniform values in [0.5 − 1, 0.5 + 1): non-zero mean, as DESIGN.md §4 asks.
template <typename Store>
void fill(UnrankedMemRef *m, int64_t seed, Store store, size_t bytes) {
  ensureContext();
  auto [count, device] = view(m, bytes);
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 1.5f);
  std::vector<char> host(count * bytes);
  for (size_t i = 0; i < count; ++i)
    store(host.data() + i * bytes, uniform(generator));
  check(cuMemcpyHtoD(device, host.data(), host.size()), "cuMemcpyHtoD");
}

std::vector<double> samples;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

} // namespace

BENCH_EXPORT void _mlir_ciface_bench_fill_f32(UnrankedMemRef *m, int64_t seed) {
  fill(m, seed, [](char *p, float v) { memcpy(p, &v, 4); }, 4);
}

BENCH_EXPORT void _mlir_ciface_bench_fill_bf16(UnrankedMemRef *m,
                                                int64_t seed) {
  fill(m, seed, [](char *p, float v) {
    uint16_t b = toBF16(v);
    memcpy(p, &b, 2);
  }, 2);
}

/// Overwrites a buffer of twice the L2 size, so the next launch reads its
/// inputs from DRAM.
BENCH_EXPORT void bench_flush_l2() {
  ensureContext();
  static CUdeviceptr scratch = 0;
  static size_t words = 0;
  if (!scratch) {
    CUdevice device;
    check(cuCtxGetDevice(&device), "cuCtxGetDevice");
    int l2Bytes = 0;
    check(cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                               device),
          "cuDeviceGetAttribute(L2_CACHE_SIZE)");
    words = std::max(2 * (size_t)l2Bytes, (size_t)64 << 20) / 4;
    check(cuMemAlloc(&scratch, words * 4), "cuMemAlloc");
  }
  static unsigned value = 0;
  check(cuMemsetD32(scratch, ++value, words), "cuMemsetD32");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
}

BENCH_EXPORT void bench_begin() {
  ensureContext();
  samples.clear();
  normCudaEnableLaunchTiming(1);
}

/// Records the GPU time of the launch just made.
BENCH_EXPORT void bench_sample() {
  samples.push_back(normCudaLastLaunchMilliseconds());
}

/// Prints the median (and minimum) time of the samples and the bandwidth
/// for `bytes` moved per launch.
BENCH_EXPORT void bench_report(int64_t bytes) {
  normCudaEnableLaunchTiming(0);
  double ms = median(samples);
  double best = *std::min_element(samples.begin(), samples.end());
  printf("bench: median_us=%.3f min_us=%.3f gbps=%.1f samples=%zu\n",
         ms * 1e3, best * 1e3, bytes / (ms * 1e-3) / 1e9, samples.size());
  fflush(stdout);
}

/// Device-to-device copies of `bytes` (reads + writes = 2·bytes), L2
/// flushed before each, timed with events: the median bandwidth.
BENCH_EXPORT void bench_copy_bandwidth(int64_t bytes, int64_t repeats) {
  ensureContext();
  CUdeviceptr source, destination;
  check(cuMemAlloc(&source, bytes), "cuMemAlloc");
  check(cuMemAlloc(&destination, bytes), "cuMemAlloc");
  check(cuMemsetD8(source, 1, bytes), "cuMemsetD8");
  CUevent start, stop;
  check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  std::vector<double> times;
  for (int64_t r = 0; r < repeats + 2; ++r) {
    bench_flush_l2();
    check(cuEventRecord(start, nullptr), "cuEventRecord");
    check(cuMemcpyDtoDAsync(destination, source, bytes, nullptr),
          "cuMemcpyDtoDAsync");
    check(cuEventRecord(stop, nullptr), "cuEventRecord");
    check(cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    if (r >= 2) // two warm-up copies
      times.push_back(ms);
  }
  double ms = median(times);
  printf("bench: copy_bytes=%lld copy_median_us=%.3f copy_gbps=%.1f\n",
         (long long)bytes, ms * 1e3, 2.0 * bytes / (ms * 1e-3) / 1e9);
  fflush(stdout);
  cuMemFree(source);
  cuMemFree(destination);
  cuEventDestroy(start);
  cuEventDestroy(stop);
}
