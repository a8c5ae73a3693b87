//===- ParallelThreshold.cpp - when a kernel's rows go to threads ---------===//
//
// The cost model of `parallel-threshold`: split when the work the other
// threads take exceeds the fork/join (docs/design.md, "Threads for small
// problems"; the constants' measurements are in
// bench/cpu/results/2026-11-27-thresh.md and docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "norm/Target/ParallelThreshold.h"

#include "norm/Target/CPUTarget.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace mlir;

namespace {
/// The cost model's constants measured on one CPU (its LLVM name, as
/// llvm::sys::getHostCPUName() gives it), with `bench/cpu/calibrate-threads.sh`
/// or the runs before it.
struct MeasuredCPU {
  const char *name;
  norm::ThreadCostDefaults costs;
};
} // namespace

// RMSNorm f32 16×4096 on one thread moves 512 KiB (x read, y written); F is
// RMSNorm f32 2×4096 on 2 threads, split minus half the serial time. Round
// numbers: the model is good to tens of percent, not to the byte.
static constexpr MeasuredCPU kMeasuredCPUs[] = {
    // AMD EPYC Zen 3 2-core AVX2 VM (2026-11-27, 2026-11-27-thresh.md):
    // 11.7–13.2 µs with AVX2, 12.9 with 128-bit vectors (40 B/ns both: the
    // core's rate is its L2's, not its vector width's); F 2.0–2.3 µs.
    {"znver3", {40, 2000}},
    // AMD EPYC Zen 4 2-core AVX-512 VM (2026-11-28, docs/performance.md):
    // 9.13 µs (57 B/ns), F 856 ns.
    {"znver4", {56, 900}},
    // AMD EPYC Zen 5 class 2-core AVX-512 VM of the earlier sessions: 3.95
    // µs (133 B/ns); F never measured alone there (the 2 µs default).
    {"znver5", {128, norm::kDefaultForkJoinNs}},
};

norm::ThreadCostDefaults
mlir::norm::getThreadCostDefaultsForTarget(const std::string &target,
                                           const std::string &hostCPU) {
  if (target == "host") {
    std::string cpu =
        hostCPU.empty() ? llvm::sys::getHostCPUName().str() : hostCPU;
    for (const MeasuredCPU &measured : kMeasuredCPUs)
      if (cpu == measured.name)
        return measured.costs;
  }
  // Any other CPU, and the explicit targets (deterministic whatever the
  // host): by the vector width, from the CPUs above.
  switch (getVectorBitsForTarget(target)) {
  case 512:
    return {128, kDefaultForkJoinNs};
  case 256:
  case 128:
    return {40, kDefaultForkJoinNs};
  default:
    return {0, kDefaultForkJoinNs};
  }
}

std::string mlir::norm::checkParallelThresholdOptions(
    const std::string &target, const std::string &hostCPU,
    int64_t parallelThreshold, int64_t numThreads, int64_t forkJoinNs,
    int64_t coreBytesPerNs) {
  auto range = [](const char *name, int64_t value, int64_t min, int64_t max) {
    if (value >= min && value <= max)
      return std::string();
    return std::string(name) + " must be in [" + std::to_string(min) + ", " +
           std::to_string(max) + "], got " + std::to_string(value);
  };
  auto cpuName = [&]() {
    if (hostCPU.empty())
      return std::string();
    if (target != "host")
      return "host-cpu applies to target=host only, got host-cpu=" + hostCPU +
             " with target=" + target;
    if (llvm::X86::parseArchX86(hostCPU, /*Only64Bit=*/true) ==
        llvm::X86::CK_None)
      return "host-cpu must be an x86-64 CPU name LLVM knows (e.g. znver4, "
             "sapphirerapids), got '" +
             hostCPU + "'";
    return std::string();
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
        range("fork-join-ns", forkJoinNs, kTargetForkJoinNs, kMaxForkJoinNs),
        range("core-bytes-per-ns", coreBytesPerNs, 0, kMaxCoreBytesPerNs),
        cpuName()})
    if (!message.empty())
      return message;
  return std::string();
}

int64_t mlir::norm::resolveParallelThreshold(const std::string &target,
                                             const std::string &hostCPU,
                                             int64_t parallelThreshold,
                                             int64_t numThreads,
                                             int64_t forkJoinNs,
                                             int64_t coreBytesPerNs) {
  if (numThreads == 1 || parallelThreshold == kNeverParallel)
    return kNeverParallel;
  if (parallelThreshold != kDerivedParallelThreshold)
    return parallelThreshold;
  int64_t threads = numThreads == 0 ? 2 : numThreads;
  ThreadCostDefaults defaults = getThreadCostDefaultsForTarget(target, hostCPU);
  int64_t rate = coreBytesPerNs ? coreBytesPerNs : defaults.coreBytesPerNs;
  int64_t fork =
      forkJoinNs == kTargetForkJoinNs ? defaults.forkJoinNs : forkJoinNs;
  // ceil(T · F · rate / (T − 1)), in integers.
  int64_t work = threads * fork * rate;
  return (work + threads - 2) / (threads - 1);
}
