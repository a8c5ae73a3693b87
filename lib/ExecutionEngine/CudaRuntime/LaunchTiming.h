//===- LaunchTiming.h - optional GPU timing of kernel launches --*- C++ -*-===//
//
// Benchmarks need the GPU time of a kernel, not the host time of a
// synchronous launch (which adds stream creation, launch latency and the
// synchronization: ~10 µs, as much as a 4096×4096 bf16 norm takes). When
// enabled (normCudaEnableLaunchTiming), mgpuLaunchKernel brackets each
// launch with timing events on the launch's stream, and
// normCudaLastLaunchMilliseconds returns the interval from the start of the
// first launch since its last call to the end of the last: the whole op,
// however many kernels it launches (split-K adds a reduction).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_LAUNCHTIMING_H
#define NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_LAUNCHTIMING_H

#include "cuda.h"

namespace norm_cuda {

/// Whether launches are being timed.
bool launchTimingEnabled();
/// Records the start event on `stream` (before the launch).
void recordLaunchStart(CUstream stream);
/// Records the stop event on `stream` (after the launch).
void recordLaunchStop(CUstream stream);

} // namespace norm_cuda

#endif // NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_LAUNCHTIMING_H
