// RUN: norm-opt %s --convert-norm-to-gpu --canonicalize --cse -split-input-file | FileCheck %s

// The rotary embedding (QK-norm → RoPE) in the GPU row kernel: the value y
// would round from (acc type) is rotated with the angles of the row's
// position, y_d = v_d · cos_d ± v_p(d) · sin_d, and rounded once as it is
// stored. A thread's chunks come in groups holding every partner, so no
// value crosses threads: rotate_half pairs chunk g of the first half with
// chunk g + n / 2V, interleaved the lanes 2i, 2i + 1 of one chunk (or, with
// scalar accesses, the chunks 2g, 2g + 1).

// Qwen3's q: [T, H, D] heads with [T, 1, D] angles, rotate_half, f32: a warp
// a row, 16-byte chunks; thread t holds chunk t of each half (t < 16), and
// row r takes angle row (r / H) mod T. The angles are part of the
// alignment test.
// CHECK-LABEL: func.func @half_f32
//  CHECK-SAME: (%[[X:[^:]*]]: memref<8x4x128xf32>, %[[G:[^:]*]]: memref<128xf32>, %[[C:[^:]*]]: memref<8x1x128xf32>, %[[S:[^:]*]]: memref<8x1x128xf32>, %[[Y:[^:]*]]: memref<8x4x128xf32>)
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [32, 128], strides: [128, 1]
//       CHECK:   %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [32, 128], strides: [128, 1]
//       CHECK:   %[[CV:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [8, 128], strides: [128, 1]
//       CHECK:   %[[SV:.*]] = memref.reinterpret_cast %[[S]] to offset: [0], sizes: [8, 128], strides: [128, 1]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[CV]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[SV]]
//       CHECK:   scf.if
//       CHECK:     gpu.launch {{.*}} threads(%[[T:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1)
//       CHECK:       %[[ROW:.*]] = arith.minui
//       CHECK:       %[[HELD:.*]] = arith.cmpi ult, %[[T]], %c16
//       CHECK:       %[[LO:.*]] = arith.muli %[[T]], %c4
//       CHECK:       vector.load %[[XV]][%[[ROW]], %[[LO]]]
//       CHECK:       %[[HI:.*]] = arith.addi %{{.*}}, %c64
//       CHECK:       vector.load %[[XV]][%[[ROW]], %[[HI]]]
//       CHECK:       gpu.shuffle xor
//       CHECK:       %[[POS:.*]] = arith.divui %[[ROW]], %c4
//       CHECK:       %[[AROW:.*]] = arith.remui %[[POS]], %c8
//       CHECK:       scf.if
//       CHECK:         vector.load %[[CV]][%[[AROW]], %[[LO2:.*]]] {alignment = 16 : i64} : memref<8x128xf32>, vector<4xf32>
//       CHECK:         vector.load %[[SV]][%[[AROW]], %[[LO2]]]
//       CHECK:         vector.load %[[CV]][%[[AROW]], %[[HI2:.*]]]
//       CHECK:         vector.load %[[SV]][%[[AROW]], %[[HI2]]]
//       CHECK:         %[[A:.*]] = arith.mulf %[[VLO:.*]], %{{.*}} : f32
//       CHECK:         %[[B:.*]] = arith.mulf %[[VHI:.*]], %{{.*}} : f32
//       CHECK:         %[[YLO:.*]] = arith.subf %[[A]], %[[B]] : f32
//       CHECK:         %[[E:.*]] = arith.mulf %[[VHI]], %{{.*}} : f32
//       CHECK:         %[[F:.*]] = arith.mulf %[[VLO]], %{{.*}} : f32
//       CHECK:         %[[YHI:.*]] = arith.addf %[[E]], %[[F]] : f32
//       CHECK:         %[[OUTLO:.*]] = vector.from_elements %[[YLO]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
//       CHECK:         vector.store %[[OUTLO]], %[[YV]][%[[ROW]], %[[LO2]]]
//       CHECK:         %[[OUTHI:.*]] = vector.from_elements %[[YHI]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
//       CHECK:         vector.store %[[OUTHI]], %[[YV]][%[[ROW]], %[[HI2]]]
//       CHECK:   } else {
//       CHECK:     gpu.launch
//   CHECK-NOT: norm.rms_norm
func.func @half_f32(%x: memref<8x4x128xf32>, %g: memref<128xf32>, %c: memref<8x1x128xf32>,
                    %s: memref<8x1x128xf32>, %y: memref<8x4x128xf32>) {
  norm.rms_norm ins(%x : memref<8x4x128xf32>) weight(%g : memref<128xf32>)
      rope(%c, %s : memref<8x1x128xf32>, memref<8x1x128xf32>)
      outs(%y : memref<8x4x128xf32>)
  return
}

// -----

// Interleaved, bf16 with f32 angles: the pairs are lanes 2i, 2i + 1 of one
// 16-byte chunk (8 lanes), the angles read 8 f32 at a time; the rotation in
// f32, rounded to bf16 once, at the store.
// CHECK-LABEL: func.func @pairs_bf16
//       CHECK:   gpu.launch
//       CHECK:     vector.load %{{.*}} : memref<8x64xf32>, vector<8xf32>
//       CHECK:     %[[C0:.*]] = vector.extract %[[CVEC:.*]][0] : f32 from vector<8xf32>
//       CHECK:     %[[C1:.*]] = vector.extract %[[CVEC]][1] : f32 from vector<8xf32>
//       CHECK:     vector.load %{{.*}} : memref<8x64xf32>, vector<8xf32>
//       CHECK:     %[[S0:.*]] = vector.extract %[[SVEC:.*]][0] : f32 from vector<8xf32>
//       CHECK:     %[[S1:.*]] = vector.extract %[[SVEC]][1] : f32 from vector<8xf32>
//       CHECK:     %[[A:.*]] = arith.mulf %[[V0:.*]], %[[C0]] : f32
//       CHECK:     %[[B:.*]] = arith.mulf %[[V1:.*]], %[[S0]] : f32
//       CHECK:     %[[Y0:.*]] = arith.subf %[[A]], %[[B]] : f32
//       CHECK:     %[[E:.*]] = arith.mulf %[[V1]], %[[C1]] : f32
//       CHECK:     %[[F:.*]] = arith.mulf %[[V0]], %[[S1]] : f32
//       CHECK:     %[[Y1:.*]] = arith.addf %[[E]], %[[F]] : f32
//       CHECK:     %[[R0:.*]] = arith.truncf %[[Y0]] : f32 to bf16
//       CHECK:     %[[R1:.*]] = arith.truncf %[[Y1]] : f32 to bf16
//       CHECK:     vector.from_elements %[[R0]], %[[R1]], {{.*}} : vector<8xbf16>
//       CHECK:     vector.store {{.*}} : memref<32x64xbf16>, vector<8xbf16>
//   CHECK-NOT: norm.rms_norm
func.func @pairs_bf16(%x: memref<8x4x64xbf16>, %g: memref<64xf32>, %c: memref<8x1x64xf32>,
                      %s: memref<8x1x64xf32>, %y: memref<8x4x64xbf16>) {
  norm.rms_norm ins(%x : memref<8x4x64xbf16>) weight(%g : memref<64xf32>)
      rope(%c, %s : memref<8x1x64xf32>, memref<8x1x64xf32>)
      outs(%y : memref<8x4x64xbf16>) {rope_mode = #norm.rope_mode<interleaved>}
  return
}

// -----

// Scalar accesses (D / 2 = 17 is odd for rotate_half; the fallback kernel
// for interleaved): rotate_half pairs elements t and t + 17, interleaved the
// elements 2t and 2t + 1 of thread t.
// CHECK-LABEL: func.func @half_scalar
//       CHECK:   gpu.launch
//       CHECK:     %[[AROW:.*]] = arith.remui %{{.*}}, %c7 : index
//       CHECK:     scf.if
//       CHECK:       memref.load %[[CV:.*]][%[[AROW]], %[[T:.*]]] : memref<7x34xf32>
//       CHECK:       %[[HI:.*]] = arith.addi %[[T]], %c17 : index
//       CHECK:       memref.load %[[CV]][%[[AROW]], %[[HI]]] : memref<7x34xf32>
//       CHECK:       arith.subf
//       CHECK:       arith.addf
//       CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[T]]] : memref<14x34xf32>
//       CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[HI]]] : memref<14x34xf32>
//   CHECK-NOT: gpu.launch
func.func @half_scalar(%x: memref<7x2x34xf32>, %c: memref<7x1x34xf32>,
                       %s: memref<7x1x34xf32>, %y: memref<7x2x34xf32>) {
  norm.rms_norm ins(%x : memref<7x2x34xf32>)
      rope(%c, %s : memref<7x1x34xf32>, memref<7x1x34xf32>)
      outs(%y : memref<7x2x34xf32>)
  return
}

// -----

// LayerNorm with γ and β, interleaved, angles over a leading broadcast dim
// ([1, T, D] over [B, T, D]: angle row r mod T), D = 34: 8-byte chunks, or
// the scalar kernel's chunk pairs 2t, 2t + 1.
// CHECK-LABEL: func.func @pairs_layer_norm
//       CHECK:   gpu.launch
//       CHECK:     vector<2xf32>
//       CHECK:   } else {
//       CHECK:     gpu.launch
//       CHECK:       %[[EVEN:.*]] = arith.muli %{{.*}}, %c2 : index
//       CHECK:       %[[AROW:.*]] = arith.remui %{{.*}}, %c3 : index
//       CHECK:       %[[ODD:.*]] = arith.addi %[[EVEN]], %c1 : index
//       CHECK:       memref.load %{{.*}}[%[[AROW]], %[[EVEN]]] : memref<3x34xf32>
//       CHECK:       memref.load %{{.*}}[%[[AROW]], %[[ODD]]] : memref<3x34xf32>
//       CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[EVEN]]] : memref<15x34xf32>
//       CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[ODD]]] : memref<15x34xf32>
//   CHECK-NOT: norm.layer_norm
func.func @pairs_layer_norm(%x: memref<5x3x34xf32>, %g: memref<34xf32>, %b: memref<34xf32>,
                            %c: memref<1x3x34xf32>, %s: memref<1x3x34xf32>,
                            %y: memref<5x3x34xf32>) {
  norm.layer_norm ins(%x : memref<5x3x34xf32>) weight(%g : memref<34xf32>) bias(%b : memref<34xf32>)
      rope(%c, %s : memref<1x3x34xf32>, memref<1x3x34xf32>)
      outs(%y : memref<5x3x34xf32>) {axis = 2 : i64, rope_mode = #norm.rope_mode<interleaved>}
  return
}
