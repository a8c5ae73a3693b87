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

/// The default `fork-join-ns`: one fork/join of a 2-thread OpenMP region
/// (libomp's hot team, one barrier), measured on the AMD EPYC Zen 3 2-core
/// AVX2 VM at about 2 µs (bench/cpu/results/2026-11-27-thresh.md).
inline constexpr int64_t kDefaultForkJoinNs = 2000;

/// The bytes one core's norm kernel moves per nanosecond with its rows in
/// cache, for `target` (its vector width; "host" is read from the CPU): the
/// default `core-bytes-per-ns`. Measured with the fastest row kernel
/// (RMSNorm f32, 16×4096, one thread); 0 for an unknown target.
int64_t getCoreBytesPerNsForTarget(const std::string &target);

/// Returns an error message for out-of-range cost model options, or "".
std::string checkParallelThresholdOptions(int64_t parallelThreshold,
                                          int64_t numThreads,
                                          int64_t forkJoinNs,
                                          int64_t coreBytesPerNs);

/// The byte threshold the kernels compare against (-1: never split).
/// An explicit `parallelThreshold` >= 0 is returned as is, and -1 stays -1.
/// -2 derives it: a serial op of B bytes takes B / rate ns; on T threads
/// it takes B / (T · rate) + forkJoin, so splitting pays from
///   B = T / (T − 1) · forkJoinNs · rate,
/// rate = `coreBytesPerNs` (0: the target's). `numThreads` 1 never splits
/// (whatever the threshold: a one-thread region is pure overhead); 0 (the
/// OpenMP default, unknown here) is taken as 2, the largest factor.
int64_t resolveParallelThreshold(const std::string &target,
                                 int64_t parallelThreshold, int64_t numThreads,
                                 int64_t forkJoinNs, int64_t coreBytesPerNs);

} // namespace norm
} // namespace mlir

#endif // NORM_TARGET_PARALLELTHRESHOLD_H
