//===- ParallelThreshold.cpp - when a kernel's rows go to threads ---------===//
//
// The cost model of `parallel-threshold`: split when the work the other
// threads take exceeds the fork/join (docs/design.md, "Threads for small
// problems"; the constants' measurements are in
// bench/cpu/results/2026-11-27-thresh.md).
//
//===----------------------------------------------------------------------===//

#include "norm/Target/ParallelThreshold.h"

#include "norm/Target/CPUTarget.h"

using namespace mlir;

int64_t mlir::norm::getCoreBytesPerNsForTarget(const std::string &target) {
  // RMSNorm f32 16×4096 on one thread moves 512 KiB (x read, y written):
  // 3.95 µs with AVX-512 on the AVX-512 VM of earlier sessions (133 B/ns),
  // 11.7–13.2 µs with AVX2 and 12.9 µs with 128-bit vectors on the AMD
  // EPYC Zen 3 AVX2 VM (40 B/ns both: that core's rate is its L2's, not
  // its vector width's). Round numbers: the model is good to tens of
  // percent, not to the byte.
  switch (getVectorBitsForTarget(target)) {
  case 512:
    return 128;
  case 256:
  case 128:
    return 40;
  default:
    return 0;
  }
}

std::string mlir::norm::checkParallelThresholdOptions(int64_t parallelThreshold,
                                                      int64_t numThreads,
                                                      int64_t forkJoinNs,
                                                      int64_t coreBytesPerNs) {
  auto range = [](const char *name, int64_t value, int64_t min, int64_t max) {
    if (value >= min && value <= max)
      return std::string();
    return std::string(name) + " must be in [" + std::to_string(min) + ", " +
           std::to_string(max) + "], got " + std::to_string(value);
  };
  // Bounds that keep T/(T-1) · fork-join-ns · rate far from overflow: a
  // second of fork/join, a TB/s core.
  constexpr int64_t kMaxForkJoinNs = 1000000000;
  constexpr int64_t kMaxCoreBytesPerNs = 1000000;
  for (const std::string &message :
       {parallelThreshold < kDerivedParallelThreshold
            ? "parallel-threshold must be a byte count, -1 (never) or -2 "
              "(derived), got " +
                  std::to_string(parallelThreshold)
            : std::string(),
        range("num-threads", numThreads, 0, kMaxCPUThreads),
        range("fork-join-ns", forkJoinNs, 0, kMaxForkJoinNs),
        range("core-bytes-per-ns", coreBytesPerNs, 0, kMaxCoreBytesPerNs)})
    if (!message.empty())
      return message;
  return std::string();
}

int64_t mlir::norm::resolveParallelThreshold(const std::string &target,
                                             int64_t parallelThreshold,
                                             int64_t numThreads,
                                             int64_t forkJoinNs,
                                             int64_t coreBytesPerNs) {
  if (numThreads == 1 || parallelThreshold == kNeverParallel)
    return kNeverParallel;
  if (parallelThreshold != kDerivedParallelThreshold)
    return parallelThreshold;
  int64_t threads = numThreads == 0 ? 2 : numThreads;
  int64_t rate =
      coreBytesPerNs ? coreBytesPerNs : getCoreBytesPerNsForTarget(target);
  // ceil(T · F · rate / (T − 1)), in integers.
  int64_t work = threads * forkJoinNs * rate;
  return (work + threads - 2) / (threads - 1);
}
