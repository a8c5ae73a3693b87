//===- GPUQuantizedRow.cpp - the GPU row kernel's quantized output --------===//
//
// Quantizes the GPU row kernel's y (GPUQuantizedRow.h) as DESIGN.md §8 says:
// saturating, rounding to nearest even once from the acc_type value. fp8
// takes the hardware conversion where the chip has it (one instruction a
// pair of values), else createQuantize's integer encoding, the bytes the
// decomposition and the CPU kernel write; i8 is createQuantize's everywhere.
//
//===----------------------------------------------------------------------===//

#include "GPUQuantizedRow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;

GPUQuantGroupLayout GPUQuantizedRow::groupLayout(int64_t vectorWidth,
                                                 int64_t threadsPerRow) const {
  int64_t chunks = quant.groupSize / vectorWidth;
  assert(chunks * vectorWidth == quant.groupSize && "V divides G");
  int64_t threads = std::min(chunks, threadsPerRow);
  return {threads, chunks / threads};
}

Value GPUQuantizedRow::inverseOf(OpBuilder &b, Value scale) {
  return toAcc(b, arith::DivFOp::create(b, loc, f32(b, 1.0), scale));
}

Value GPUQuantizedRow::staticInverseScale(OpBuilder &b) {
  Value scale = quant.scale;
  if (isa<MemRefType>(scale.getType()))
    scale = memref::LoadOp::create(b, loc, scale, ValueRange{});
  return inverseOf(b, scale);
}

Value GPUQuantizedRow::dynamicInverseScale(OpBuilder &b, Value amax,
                                           ValueRange at, Value store) {
  // Rounding is monotonic: the f32 of the acc_type maximum is the maximum
  // of the f32 values the decomposition compares.
  Value scale =
      createDynamicScale(b, loc, narrow(b, amax, b.getF32Type()), quant);
  scf::IfOp::create(b, loc, store, [&](OpBuilder &nb, Location) {
    memref::StoreOp::create(nb, loc, scale, quant.scales, at);
    scf::YieldOp::create(nb, loc);
  });
  return inverseOf(b, scale);
}

bool GPUQuantizedRow::convertsInHardware() const {
  return isa<FloatType>(quant.type) && smVersion >= 90 && acc.isF32();
}

SmallVector<Value>
GPUQuantizedRow::quantizeChunk(OpBuilder &b, ArrayRef<Value> y, Value inverse) {
  SmallVector<Value> q;
  if (!convertsInHardware()) {
    for (Value v : y)
      q.push_back(createQuantize(b, loc, v, inverse, quant.type));
    return q;
  }
  // cvt.rn.satfinite packs the conversion of its first operand in the high
  // byte, of its second in the low byte: pass (y[i+1], y[i]). NaN stays
  // NaN, a finite value beyond the largest saturates to it (§8).
  Type i8 = b.getI8Type();
  auto byte = [&](Value packed, int64_t shift) -> Value {
    if (shift)
      packed = arith::ShRUIOp::create(
          b, loc, packed,
          arith::ConstantIntOp::create(b, loc, b.getI16Type(), shift));
    return arith::BitcastOp::create(
        b, loc, quant.type, arith::TruncIOp::create(b, loc, i8, packed));
  };
  for (size_t i = 0; i < y.size(); i += 2) {
    Value low = arith::MulFOp::create(b, loc, y[i], inverse);
    bool pair = i + 1 < y.size();
    Value high = pair ? Value(arith::MulFOp::create(b, loc, y[i + 1], inverse))
                      : accConst(b, 0.0);
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, b.getI16Type(), high, low, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, quant.type);
    q.push_back(byte(packed, 0));
    if (pair)
      q.push_back(byte(packed, 8));
  }
  return q;
}
