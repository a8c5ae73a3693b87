//===- TargetInfo.h - NVIDIA facts the GPU kernels use ----------*- C++ -*-===//
//
// Private to NormToGPU: the target choices of the row kernels and the GEMMs
// (Gemm/) in one place (warp size, widest vector access, block shapes, SM
// count), so that another GPU target would change this file rather than
// the emitters. Which chips have which features (tensor-core GEMM,
// warpgroup MMA) is norm/Target/NVIDIATarget.h's.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_TARGETINFO_H
#define NORM_LIB_CONVERSION_NORMTOGPU_TARGETINFO_H

#include <cstdint>

namespace mlir {
namespace norm {

struct NVIDIATargetInfo {
  /// Threads per warp; gpu.shuffle reductions run over this width.
  static constexpr int64_t kWarpSize = 32;
  /// The widest global load/store (ld.global.v4.b32 / v2.b64): 16 bytes.
  static constexpr int64_t kMaxAccessBytes = 16;
  /// Threads per row in the block-per-row kernel. 512 rather than 1024 so
  /// that a thread may use up to 128 registers (65536 per SM / 512).
  static constexpr int64_t kBlockThreads = 512;
  /// Threads per block of the multi-row kernels (rows per block =
  /// kRowBlockThreads / threads per row).
  static constexpr int64_t kRowBlockThreads = 256;
  /// Streaming multiprocessors of the data-center chip of an SM version
  /// (H100 SXM: 132, A100: 108); only the split-K heuristic of the fused
  /// GEMM uses it, to tell whether the output's blocks fill the GPU.
  static int64_t multiprocessors(int64_t smVersion) {
    return smVersion >= 90 ? 132 : 108;
  }
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_TARGETINFO_H
