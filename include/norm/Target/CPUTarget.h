//===- CPUTarget.h - the CPU targets of the vector code --------*- C++ -*-===//
//
// The one description of the CPU targets (NormTarget): what a `target` name
// means for the vector code (register width, AVX512-BF16), the host's
// last-level cache and the most threads to start, read by
// convert-norm-to-vector, norm-vectorize-elementwise, norm-lower-to-cpu and
// norm-run.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TARGET_CPUTARGET_H
#define NORM_TARGET_CPUTARGET_H

#include <cstdint>
#include <string>

namespace mlir {
namespace norm {

/// The register width (in bits) for a `target` name: "avx512" → 512,
/// "avx512-bf16" → 512, "avx2" → 256, "generic" → 128, "host" → the widest
/// the host CPU supports.
/// Returns 0 for an unknown name.
int64_t getVectorBitsForTarget(const std::string &target);

/// Whether `target` has AVX512-BF16: "avx512-bf16", or "host" on a CPU with
/// the avx512bf16 feature.
bool targetHasNativeBF16(const std::string &target);

/// Whether `target` is an x86 CPU: "avx512", "avx512-bf16", "avx2", or
/// "host" on x86 ("generic" promises no ISA).
bool targetIsX86(const std::string &target);

/// The host's last-level cache size in bytes (32 MiB when unknown).
int64_t getHostLastLevelCacheBytes();

/// The most OpenMP threads a `num-threads` option may ask for: libomp
/// aborts the process, rather than failing, when it cannot start them.
inline constexpr int64_t kMaxCPUThreads = 1024;

} // namespace norm
} // namespace mlir

#endif // NORM_TARGET_CPUTARGET_H
