// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=INT
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false bf16-pair-order=false" | FileCheck %s --check-prefix=OFF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=AVX2

// Plain bf16 rows on AVX-512 in pair order (docs/design.md, "bf16 rows in
// pair order"): 32 f32 lanes (two zmm), a load of 32 bf16 widened by one
// shift (the even elements) and one and (the odd ones). On AVX512-BF16, y
// is narrowed by vcvtne2ps2bf16 of the odd and the even half (the even
// elements' bf16 first) and one word shuffle back to element order; on
// AVX-512 without it, by the integer rounding, shift and or. The masked
// tail loads and stores 32 lanes with its natural-order mask; the
// statistic goes back to natural order before its halving tree.

// CHECK-LABEL: func.func @rms
// The statistics sweep.
//       CHECK: %[[W:.*]] = vector.bitcast %{{.*}} : vector<32xbf16> to vector<16xi32>
//       CHECK: %[[EVEN:.*]] = arith.shli %[[W]], %{{.*}} : vector<16xi32>
//       CHECK: %[[ODD:.*]] = arith.andi %[[W]], %{{.*}} : vector<16xi32>
//       CHECK: %[[EF:.*]] = arith.bitcast %[[EVEN]] : vector<16xi32> to vector<16xf32>
//       CHECK: %[[OF:.*]] = arith.bitcast %[[ODD]] : vector<16xi32> to vector<16xf32>
//       CHECK: %[[S:.*]] = vector.shuffle %[[EF]], %[[OF]] [0, 1, 2, {{.*}}, 30, 31] : vector<16xf32>, vector<16xf32>
//       CHECK: vector.fma %[[S]], %[[S]]
// The masked tail widens the same way.
//       CHECK: %[[TM:.*]] = vector.create_mask %{{.*}} : vector<32xi1>
//  CHECK-NEXT: arith.constant
//  CHECK-NEXT: vector.maskedload %{{.*}}, %[[TM]], %{{.*}} into vector<32xbf16>
//  CHECK-NEXT: vector.bitcast %{{.*}} : vector<32xbf16> to vector<16xi32>
// Natural order, then the halving tree.
//       CHECK: %[[NAT:.*]] = vector.shuffle %[[ACC:.*]], %[[ACC]] [0, 16, 1, 17, 2, 18, {{.*}}, 15, 31] : vector<32xf32>
//       CHECK: vector.shuffle %[[NAT]], %[[NAT]] [0, 1, {{.*}}, 14, 15] : vector<32xf32>
//       CHECK: arith.addf %{{.*}} : vector<16xf32>
//       CHECK: arith.addf %{{.*}} : vector<8xf32>
//       CHECK: %[[TOP:.*]] = arith.addf %{{.*}} : vector<1xf32>
//  CHECK-NEXT: vector.extract %[[TOP]][0] : f32 from vector<1xf32>
//   CHECK-NOT: vector.extract
// The normalize sweep: vcvtne2ps2bf16(odd, even), interleaved, one store.
//       CHECK: %[[E:.*]] = vector.shuffle %[[Y:.*]], %[[Y]] [0, 1, {{.*}}, 14, 15] : vector<32xf32>
//       CHECK: %[[O:.*]] = vector.shuffle %[[Y]], %[[Y]] [16, 17, {{.*}}, 30, 31] : vector<32xf32>
//       CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512bf16.cvtne2ps2bf16.512"(%[[O]], %[[E]]) : (vector<16xf32>, vector<16xf32>) -> vector<32xbf16>
//       CHECK: %[[EL:.*]] = vector.shuffle %[[R]], %[[R]] [0, 16, 1, 17, {{.*}}, 15, 31] : vector<32xbf16>
//       CHECK: vector.store %[[EL]], %{{.*}} : memref<?x?xbf16>, vector<32xbf16>
// The masked tail: the natural-order mask on the store.
//       CHECK: %[[M:.*]] = vector.create_mask %{{.*}} : vector<32xi1>
//       CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.cvtne2ps2bf16.512"
//       CHECK: %[[TEL:.*]] = vector.shuffle %{{.*}} [0, 16, 1, 17, {{.*}}, 15, 31] : vector<32xbf16>
//       CHECK: vector.maskedstore %{{.*}}, %[[M]], %[[TEL]] : memref<?x?xbf16>, vector<32xi1>, vector<32xbf16>
//   CHECK-NOT: arith.truncf
//   CHECK-NOT: arith.extf
//       CHECK: return

// Without AVX512-BF16: the integer rounding of 32 lanes, the even half's
// bits shifted into the low halves of the words.
// INT-LABEL: func.func @rms
//   INT-NOT: call_intrinsic
//       INT: vector.bitcast %{{.*}} : vector<32xbf16> to vector<16xi32>
//       INT: %[[NAN:.*]] = arith.cmpf uno, %[[V:.*]], %[[V]] : vector<32xf32>
//       INT: %[[E:.*]] = vector.shuffle %[[BIASED:.*]], %[[BIASED]] [0, 1, {{.*}}, 14, 15] : vector<32xi32>
//       INT: %[[O:.*]] = vector.shuffle %[[BIASED]], %[[BIASED]] [16, 17, {{.*}}, 30, 31] : vector<32xi32>
//       INT: %[[LO:.*]] = arith.shrui %[[E]], %{{.*}} : vector<16xi32>
//       INT: %[[HI:.*]] = arith.andi %[[O]], %{{.*}} : vector<16xi32>
//       INT: %[[WORDS:.*]] = arith.ori %[[LO]], %[[HI]] : vector<16xi32>
//       INT: %[[Y:.*]] = vector.bitcast %[[WORDS]] : vector<16xi32> to vector<32xbf16>
//       INT: vector.store %[[Y]]
//       INT: vector.maskedstore %{{.*}} : memref<?x?xbf16>, vector<32xi1>, vector<32xbf16>
//   INT-NOT: call_intrinsic
//   INT-NOT: arith.truncf
//       INT: return

// The option off: natural order, 16 lanes, vcvtneps2bf16.
// OFF-LABEL: func.func @rms
//   OFF-NOT: vector<32x
//       OFF: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//       OFF: x86vector.avx512.cvt.packed.f32_to_bf16 %{{.*}} : vector<16xf32> -> vector<16xbf16>
//   OFF-NOT: vector<32x
//       OFF: return

// AVX2 keeps its 16 lanes of pair order.
// AVX2-LABEL: func.func @rms
//   AVX2-NOT: vector<32x
//       AVX2: vector.bitcast %{{.*}} : vector<16xbf16> to vector<8xi32>
//   AVX2-NOT: vector<32x
//       AVX2: return
func.func @rms(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// The residual sum s = x + r is rounded lane for lane as natural order's
// vcvtneps2bf16 rounds it: vcvtne2ps2bf16 of the upper and the lower 16
// lanes (the same lanes out), widened back; stored as y is.
// CHECK-LABEL: func.func @residual
//       CHECK: %[[SUM:.*]] = arith.addf %{{.*}} : vector<32xf32>
//       CHECK: %[[LOW:.*]] = vector.shuffle %[[SUM]], %[[SUM]] [0, 1, {{.*}}, 14, 15] : vector<32xf32>
//       CHECK: %[[HIGH:.*]] = vector.shuffle %[[SUM]], %[[SUM]] [16, 17, {{.*}}, 30, 31] : vector<32xf32>
//       CHECK: %[[RS:.*]] = llvm.call_intrinsic "llvm.x86.avx512bf16.cvtne2ps2bf16.512"(%[[HIGH]], %[[LOW]])
//  CHECK-NEXT: arith.extf %[[RS]] : vector<32xbf16> to vector<32xf32>
//       CHECK: %[[S:.*]] = vector.shuffle %{{.*}} [0, 16, 1, 17, {{.*}}, 15, 31] : vector<32xbf16>
//  CHECK-NEXT: vector.store %[[S]]
//   CHECK-NOT: arith.truncf
//       CHECK: return
// INT-LABEL: func.func @residual
//   INT-NOT: call_intrinsic
//       INT: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
//   INT-NOT: call_intrinsic
//       INT: return
// OFF-LABEL: func.func @residual
//   OFF-NOT: vector<32x
//       OFF: return
func.func @residual(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>,
                    %y: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>)
  return
}

// -----

// LayerNorm: the masked tail's d = s − m is zeroed by the row mask in pair
// order (the same shuffle as the lanes).
// CHECK-LABEL: func.func @ln
//       CHECK: %[[M:.*]] = vector.create_mask %{{.*}} : vector<32xi1>
//       CHECK: %[[PM:.*]] = vector.shuffle %[[M]], %[[M]] [0, 2, 4, {{.*}}, 29, 31] : vector<32xi1>
//       CHECK: arith.select %[[PM]], %{{.*}} : vector<32xi1>, vector<32xf32>
//   CHECK-NOT: arith.truncf
//       CHECK: return
// INT-LABEL: func.func @ln
//       INT: vector<32xi1>
// OFF-LABEL: func.func @ln
//   OFF-NOT: vector<32x
//       OFF: return
func.func @ln(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}

// -----

// An f32 γ with bf16 rows keeps natural order and 16 lanes.
// CHECK-LABEL: func.func @f32_gamma
//   CHECK-NOT: vector<32x
//       CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//   CHECK-NOT: vector<32x
//       CHECK: return
// INT-LABEL: func.func @f32_gamma
//   INT-NOT: vector<32x
//       INT: return
func.func @f32_gamma(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// The rotary embedding pairs lanes: natural order, 16 lanes.
// CHECK-LABEL: func.func @rope
//   CHECK-NOT: vector<32x
//   CHECK-NOT: call_intrinsic
//       CHECK: return
// INT-LABEL: func.func @rope
//   INT-NOT: vector<32x
//       INT: return
func.func @rope(%x: memref<6x4x64xbf16>, %c: memref<6x1x64xbf16>, %s: memref<6x1x64xbf16>, %g: memref<64xbf16>, %y: memref<6x4x64xbf16>) {
  norm.rms_norm ins(%x : memref<6x4x64xbf16>) weight(%g : memref<64xbf16>)
      rope(%c, %s : memref<6x1x64xbf16>, memref<6x1x64xbf16>)
      outs(%y : memref<6x4x64xbf16>)
  return
}
