//===- LaunchTiming.cpp - optional GPU timing of kernel launches ----------===//
//
// Two timing events, created on first use, recorded while timing is
// enabled: the start before the first launch after the last reading, the
// stop after every launch. A reading thus spans all the launches of one op
// (a split-K GEMM and its reduction, a gradient's two kernels), not only its
// last. Single-threaded use only (benchmarks).
//
//===----------------------------------------------------------------------===//

#include "LaunchTiming.h"
#include "DriverLoader.h"

#define NORM_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

using norm_cuda::check;
using norm_cuda::driver;

namespace {
bool enabled = false;
bool recorded = false;
bool spanOpen = false;
CUevent startEvent = nullptr;
CUevent stopEvent = nullptr;
} // namespace

bool norm_cuda::launchTimingEnabled() { return enabled; }

void norm_cuda::recordLaunchStart(CUstream stream) {
  if (!startEvent) {
    check(driver().eventCreate(&startEvent, CU_EVENT_DEFAULT), "cuEventCreate");
    check(driver().eventCreate(&stopEvent, CU_EVENT_DEFAULT), "cuEventCreate");
  }
  if (spanOpen)
    return;
  check(driver().eventRecord(startEvent, stream), "cuEventRecord");
  spanOpen = true;
}

void norm_cuda::recordLaunchStop(CUstream stream) {
  check(driver().eventRecord(stopEvent, stream), "cuEventRecord");
  recorded = true;
}

/// Turns the timing of launches on (non-zero) or off.
NORM_CUDA_EXPORT void normCudaEnableLaunchTiming(int on) { enabled = on != 0; }

/// The GPU time in milliseconds from the start of the first timed launch
/// since the last reading to the end of the last one (waiting for it to
/// finish), or -1 when no launch has been timed.
NORM_CUDA_EXPORT double normCudaLastLaunchMilliseconds() {
  if (!recorded)
    return -1.0;
  spanOpen = false;
  check(driver().eventSynchronize(stopEvent), "cuEventSynchronize");
  float milliseconds = 0;
  check(driver().eventElapsedTime(&milliseconds, startEvent, stopEvent),
        "cuEventElapsedTime");
  return milliseconds;
}
