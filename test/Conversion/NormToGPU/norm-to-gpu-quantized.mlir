// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_80" -split-input-file | FileCheck %s --check-prefix=SM80

// Quantized outputs (DESIGN.md §8) on the GPU row kernel
// (GPUQuantizedRow.cpp): y quantized in the normalize sweep, never stored
// unquantized. fp8 through cvt.rn.satfinite (nvvm.convert.f32x2.to.f8x2,
// a pair a conversion, the second value in the high byte) on sm_90, the
// integer encoding on sm_80; i8 rounds to nearest even and clamps.

// Static scale: 1/s once, each pair of a chunk converted, stored as fp8.
// CHECK-LABEL: func.func @static_e4m3
//       CHECK: gpu.launch
//       CHECK: arith.divf %{{.*}}, %arg1 : f32
//       CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %{{.*}}, %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK: arith.trunci %[[P]] : i16 to i8
//       CHECK: arith.shrui %[[P]]
//       CHECK: vector.store {{.*}} : memref<4x64xf8E4M3FN>, vector<4xf8E4M3FN>
// SM80-LABEL: func.func @static_e4m3
//  SM80-NOT: nvvm.convert
//      SM80: arith.bitcast {{.*}} : i8 to f8E4M3FN
//      SM80: vector.store {{.*}} : memref<4x64xf8E4M3FN>, vector<4xf8E4M3FN>
func.func @static_e4m3(%x: memref<4x64xf32>, %s: f32, %q: memref<4x64xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<4x64xf32>) scale(%s : f32) outs(%q : memref<4x64xf8E4M3FN>)
  return
}

// -----

// Per-token scales: the row's amax (maximumf of |y| over the thread's
// chunks, then across the row: a warp butterfly and, with several warps,
// a third pair of shared-memory slots a warp), s = max(amax / 127, s_min)
// stored by the row's thread 0, then q with 1/s.
// CHECK-LABEL: func.func @token_i8
//       CHECK: gpu.launch
//  CHECK-SAME: workgroup(%{{.*}} : memref<48xf32, #gpu.address_space<workgroup>>)
//       CHECK: math.absf
//       CHECK: arith.maximumf
//       CHECK: gpu.shuffle  xor
//       CHECK: arith.maximumf
//       CHECK: arith.constant 1.270000e+02 : f32
//       CHECK: arith.divf
//       CHECK: arith.maximumf
//       CHECK: memref.store {{.*}} : memref<8xf32>
//       CHECK: math.roundeven
//       CHECK: arith.fptosi {{.*}} : f32 to i8
//       CHECK: vector.store {{.*}} : memref<8x4096xi8>, vector<8xi8>
func.func @token_i8(%x: memref<8x4096xbf16>, %g: memref<4096xbf16>, %q: memref<8x4096xi8>, %sc: memref<8xf32>) {
  norm.layer_norm ins(%x : memref<8x4096xbf16>) weight(%g : memref<4096xbf16>) outs(%q : memref<8x4096xi8>) scale_outs(%sc : memref<8xf32>)
  return
}
