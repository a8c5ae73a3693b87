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

// -----

// Per-group scales (GPUQuantGroupLayout), groups of 128 on a whole warp
// (f32 chunks of 4): each held chunk's max |y|, a butterfly over the 32
// lanes (xor 16 … 1) for each of the thread's two groups, s stored at
// [row, group] by lane 0, q with that group's 1/s.
// CHECK-LABEL: func.func @group128_e4m3
//       CHECK: gpu.launch
//   CHECK-NOT: workgroup
//       CHECK: math.absf
//       CHECK: arith.maximumf
//       CHECK: gpu.shuffle  xor %[[A0:[0-9]+]], %c16_i32
//       CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
//       CHECK: gpu.shuffle  xor %[[A1:[0-9]+]], %c16_i32
//       CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
//       CHECK: arith.constant 4.480000e+02 : f32
//       CHECK: memref.store {{.*}} : memref<4x2xf32>
//       CHECK: nvvm.convert.f32x2.to.f8x2
//       CHECK: vector.store {{.*}} : memref<4x256xf8E4M3FN>, vector<4xf8E4M3FN>
//       CHECK: memref.store {{.*}} : memref<4x2xf32>
//       CHECK: vector.store {{.*}} : memref<4x256xf8E4M3FN>, vector<4xf8E4M3FN>
func.func @group128_e4m3(%x: memref<4x256xf32>, %q: memref<4x256xf8E4M3FN>, %sc: memref<4x2xf32>) {
  norm.rms_norm ins(%x : memref<4x256xf32>) outs(%q : memref<4x256xf8E4M3FN>) scale_outs(%sc : memref<4x2xf32>) {group_size = 128 : i64}
  return
}

// -----

// Groups of 32 on 4 lanes (bf16 chunks of 8; 8 chunks a row, so lanes 8 on
// hold none and give 0): the amax butterfly stops at xor 2, 1; the group's
// first lane (t mod 4 = 0) stores s.
// CHECK-LABEL: func.func @group32_i8
//       CHECK: gpu.launch
//       CHECK: math.absf
//       CHECK: arith.maximumf
//       CHECK: } else {
//       CHECK: %[[C2:.*]] = arith.constant 2 : i32
//  CHECK-NEXT: arith.constant 32 : i32
//  CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %[[C2]]
//  CHECK-NEXT: arith.maximumf
//  CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
//  CHECK-NEXT: arith.constant 32 : i32
//  CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %[[C1]]
//  CHECK-NEXT: arith.maximumf
//  CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
//  CHECK-NEXT: arith.remui %{{.*}}, %[[C4]] : index
//       CHECK: arith.constant 1.270000e+02 : f32
//       CHECK: memref.store {{.*}} : memref<4x2xf32>
//       CHECK: math.roundeven
//       CHECK: vector.store {{.*}} : memref<4x64xi8>, vector<8xi8>
func.func @group32_i8(%x: memref<4x64xbf16>, %q: memref<4x64xi8>, %sc: memref<4x2xf32>) {
  norm.layer_norm ins(%x : memref<4x64xbf16>) outs(%q : memref<4x64xi8>) scale_outs(%sc : memref<4x2xf32>) {group_size = 32 : i64}
  return
}

// -----

// Groups across warps: the scalar kernel (unaligned buffers) of a 4-warp
// row puts a group of 64 on 2 warps. Each warp's amax for each of its 32
// held chunks goes to a slot of its own (32 slots a warp: 32 · 3 stages ·
// 2 rows · 4 warps), one barrier, then each thread combines its warp pair
// (warp − warp mod 2, + 1). The vector kernel's groups of 16 chunks stay
// in a warp (the statistics' 48 slots).
// CHECK-LABEL: func.func @group64_warps
//       CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<48xf32, #gpu.address_space<workgroup>>)
//       CHECK: } else {
//       CHECK: gpu.launch {{.*}} workgroup(%[[WG:.*]] : memref<768xf32, #gpu.address_space<workgroup>>)
//       CHECK: %[[W:.*]] = arith.divui %{{.*}}, %c32
//       CHECK: arith.maximumf
//       CHECK: gpu.barrier
//       CHECK: %[[C2:.*]] = arith.constant 2 : index
//  CHECK-NEXT: %[[M:.*]] = arith.remui %[[W]], %[[C2]] : index
//  CHECK-NEXT: arith.subi %[[W]], %[[M]] : index
//       CHECK: memref.load %[[WG]]
//       CHECK: memref.store {{.*}} : memref<2x64xf32>
//       CHECK: memref.store {{.*}} : memref<2x4096xi8>
func.func @group64_warps(%x: memref<2x4096xf32>, %q: memref<2x4096xi8>, %sc: memref<2x64xf32>) {
  norm.rms_norm ins(%x : memref<2x4096xf32>) outs(%q : memref<2x4096xi8>) scale_outs(%sc : memref<2x64xf32>) {group_size = 64 : i64}
  return
}
