//===- ParallelThreshold.h - when a kernel's rows go to threads -*- C++ -*-===//
//
// The cost model behind `parallel-threshold` (convert-norm-to-vector,
// norm-vectorize-elementwise): split an op across T threads when the time
// the other threads save exceeds the fork/join. See docs/design.md,
// "Threads for small problems".
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TARGET_PARALLELTHRESHOLD_H
#define NORM_TARGET_PARALLELTHRESHOLD_H

#include <cstdint>
#include <string>

namespace mlir {
namespace norm {

/// `parallel-threshold` values: -1 never splits, -2 (the default) derives
/// the threshold from the cost model below; >= 0 is a byte count used as is.
inline constexpr int64_t kNeverParallel = -1;
inline constexpr int64_t kDerivedParallelThreshold = -2;

/// The fork/join of a 2-thread OpenMP region (libomp's hot team, one
/// barrier) where no CPU-specific number is known: about 2 µs on the AMD
/// EPYC Zen 3 2-core AVX2 VM (bench/cpu/results/2026-11-27-thresh.md).
inline constexpr int64_t kDefaultForkJoinNs = 2000;

/// `fork-join-ns` -1 (its default): the target's (ThreadCostDefaults).
inline constexpr int64_t kTargetForkJoinNs = -1;

/// The cost model's constants for one CPU: the bytes one core's norm kernel
/// moves per nanosecond with its rows in cache (measured with the fastest
/// row kernel, RMSNorm f32 16×4096 on one thread), and the nanoseconds one
/// fork/join of 2 threads costs.
struct ThreadCostDefaults {
  int64_t coreBytesPerNs;
  int64_t forkJoinNs;
};

/// The defaults of `core-bytes-per-ns` and `fork-join-ns` for `target`.
/// With "host" they are keyed on the host CPU's LLVM name (`hostCPU`, or
/// llvm::sys::getHostCPUName() when it is empty) where it was measured
/// (znver3, znver4, znver5); every other CPU and the explicit targets get
/// the vector width's (512-bit: 128 B/ns; 256- and 128-bit: 40 B/ns; 2 µs),
/// the same on every host. The rate is 0 for an unknown target.
ThreadCostDefaults getThreadCostDefaultsForTarget(const std::string &target,
                                                  const std::string &hostCPU);

/// Returns an error message for out-of-range cost model options, or "".
/// `hostCPU` must be empty or an x86-64 CPU name LLVM knows, and is only
/// accepted with target "host".
std::string checkParallelThresholdOptions(const std::string &target,
                                          const std::string &hostCPU,
                                          int64_t parallelThreshold,
                                          int64_t numThreads,
                                          int64_t forkJoinNs,
                                          int64_t coreBytesPerNs);

/// The byte threshold the kernels compare against (-1: never split).
/// An explicit `parallelThreshold` >= 0 is returned as is, and -1 stays -1.
/// -2 derives it: a serial op of B bytes takes B / rate ns; on T threads
/// it takes B / (T · rate) + forkJoin, so splitting pays from
///   B = T / (T − 1) · forkJoinNs · rate,
/// rate = `coreBytesPerNs` (0: the target's), forkJoinNs -1: the target's
/// (getThreadCostDefaultsForTarget with `hostCPU`). `numThreads` 1 never splits
/// (whatever the threshold: a one-thread region is pure overhead); 0 (the
/// OpenMP default, unknown here) is taken as 2, the largest factor.
int64_t resolveParallelThreshold(const std::string &target,
                                 const std::string &hostCPU,
                                 int64_t parallelThreshold, int64_t numThreads,
                                 int64_t forkJoinNs, int64_t coreBytesPerNs);

} // namespace norm
} // namespace mlir

#endif // NORM_TARGET_PARALLELTHRESHOLD_H
