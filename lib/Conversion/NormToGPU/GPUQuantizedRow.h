//===- GPUQuantizedRow.h - the GPU row kernel's quantized y -----*- C++ -*-===//
//
// Private to NormToGPU: what the GPU row kernel (GPURowKernel.cpp) asks of a
// quantized y (DESIGN.md §8): the inverse scale, static or from the amax of
// a row or of a group, where a group lies on the kernel's threads, and each
// chunk of y quantized to the elements it stores.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GPUQUANTIZEDROW_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GPUQUANTIZEDROW_H

#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Conversion/Utils/ScalarArith.h"

namespace mlir {
namespace norm {

/// Where one group of G elements (per-group scales) lies on a row kernel
/// whose thread t of T holds the chunks t, t + T, ... of V elements: on
/// `threads` consecutive threads (an aligned run of lanes of one warp, or
/// of whole warps), `chunks` consecutive chunks of each (t + c·T for c in a
/// run of `chunks`). G, V and T are powers of two and V divides G, so a
/// group is G / V consecutive chunks: threads = min(G / V, T), chunks =
/// G / (V · threads).
struct GPUQuantGroupLayout {
  int64_t threads;
  int64_t chunks;
};

/// The quantized y of one row kernel (`p.quant` is set).
class GPUQuantizedRow : ScalarArith {
public:
  GPUQuantizedRow(Location loc, const RowNormProblem &p, int64_t smVersion)
      : ScalarArith(loc, p.accType), quant(*p.quant), smVersion(smVersion) {}

  bool isDynamic() const { return quant.isDynamic(); }
  /// G of per-group scales; 0 for a static or a per-token scale.
  int64_t groupSize() const { return quant.groupSize; }
  GPUQuantGroupLayout groupLayout(int64_t vectorWidth,
                                  int64_t threadsPerRow) const;

  /// 1/s of the static scale, in f32 as the decomposition computes it,
  /// widened to acc_type.
  Value staticInverseScale(OpBuilder &b);

  /// s = max(amax / qmax, s_min) from the amax of a row or a group
  /// (acc_type), stored at scales[`at`] under `store`; returns 1/s as
  /// staticInverseScale does.
  Value dynamicInverseScale(OpBuilder &b, Value amax, ValueRange at,
                            Value store);

  /// q = sat(rne(y · inverse)) for each value of a chunk (acc_type), as
  /// elements of the quantized type.
  SmallVector<Value> quantizeChunk(OpBuilder &b, ArrayRef<Value> y,
                                   Value inverse);

private:
  /// 1/s in f32, widened to acc_type.
  Value inverseOf(OpBuilder &b, Value scale);
  /// fp8 pairs through cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32: sm_90 and
  /// later (LLVM 22 selects it on sm_89 only from PTX 8.1, above the
  /// pipeline's default level), from an f32 accumulator (an f64 one would
  /// round twice).
  bool convertsInHardware() const;

  const NormQuantization &quant;
  int64_t smVersion;
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOGPU_GPUQUANTIZEDROW_H
