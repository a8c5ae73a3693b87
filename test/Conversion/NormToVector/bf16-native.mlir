// RUN: norm-opt %s --convert-norm-to-vector="target=avx512-bf16 parallel-threshold=-1 streaming-threshold=-1 bf16-pair-order=false" | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 bf16-pair-order=false" | FileCheck %s --check-prefix=PLAIN

// On AVX512-BF16 targets (target=avx512-bf16, or host on such a CPU) f32 →
// bf16 rounding is vcvtneps2bf16 (x86vector) instead of arith.truncf, which
// arith-expand would turn into an integer rounding sequence. (Natural
// order: rows whose operands are all bf16 otherwise take 32 lanes in pair
// order, rounded by vcvtne2ps2bf16: bf16-pair-order-avx512.mlir.)

// CHECK-LABEL: func.func @rms_bf16
//       CHECK: x86vector.avx512.cvt.packed.f32_to_bf16 %{{.*}} : vector<16xf32> -> vector<16xbf16>
//   CHECK-NOT: arith.truncf
//       CHECK: return
// PLAIN-LABEL: func.func @rms_bf16
//   PLAIN-NOT: x86vector
//       PLAIN: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
func.func @rms_bf16(%x: memref<4x64xbf16>, %r: memref<4x64xbf16>, %y: memref<4x64xbf16>, %s: memref<4x64xbf16>) {
  norm.rms_norm ins(%x : memref<4x64xbf16>) residual(%r : memref<4x64xbf16>)
      outs(%y : memref<4x64xbf16>) sum_outs(%s : memref<4x64xbf16>)
  return
}
