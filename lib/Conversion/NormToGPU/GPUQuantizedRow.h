//===- GPUQuantizedRow.h - the GPU row kernel's quantized y -----*- C++ -*-===//
//
// Private to NormToGPU: what the GPU row kernel (GPURowKernel.cpp) asks of a
// quantized y (DESIGN.md §8): the inverse scale, static or from the row's
// amax, and each chunk of y quantized to the elements it stores.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOGPU_GPUQUANTIZEDROW_H
#define NORM_LIB_CONVERSION_NORMTOGPU_GPUQUANTIZEDROW_H

#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Conversion/Utils/ScalarArith.h"

#include <string>

namespace mlir {
namespace norm {

/// Why the GPU row kernel does not write the quantized `op`'s result (empty
/// when it does): per-group scales, whose groups span lanes, chunks and
/// warps differently in every kernel shape.
std::string unsupportedGPUQuantizedReason(Operation *op);

/// The quantized y of one row kernel (`p.quant` is set).
class GPUQuantizedRow : ScalarArith {
public:
  GPUQuantizedRow(Location loc, const RowNormProblem &p, int64_t smVersion)
      : ScalarArith(loc, p.accType), quant(*p.quant), smVersion(smVersion) {}

  bool isDynamic() const { return quant.isDynamic(); }

  /// 1/s of the static scale, in f32 as the decomposition computes it,
  /// widened to acc_type.
  Value staticInverseScale(OpBuilder &b);

  /// s = max(amax / qmax, s_min) from the row's amax (acc_type), stored at
  /// scales[row] under `store`; returns 1/s as staticInverseScale does.
  Value dynamicInverseScale(OpBuilder &b, Value amax, Value row, Value store);

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
