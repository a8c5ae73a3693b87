// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false bf16-pair-order=false" | FileCheck %s --check-prefix=OFF

// bf16 rows on AVX2 in pair order (docs/design.md, "bf16 rows in pair
// order"): 16 bf16 are loaded as eight 32-bit words and widened to 16 f32
// lanes, the even elements (word << 16) then the odd ones (word &
// 0xffff0000); y is rounded in those lanes (NaN chosen among them) and the
// even lanes' bits shift into the low halves of the words, the odd lanes'
// keep the high halves. The row's statistic returns to natural order before
// its halving-tree sum. The option off keeps natural order: extf and
// truncf, which arith-expand rounds, and the same halving tree without the
// shuffle back. AVX-512's 32 lanes: bf16-pair-order-avx512.mlir.

// CHECK-LABEL: func.func @rms
// The statistics sweep.
//       CHECK: %[[W:.*]] = vector.bitcast %{{.*}} : vector<16xbf16> to vector<8xi32>
//       CHECK: %[[EVEN:.*]] = arith.shli %[[W]], %{{.*}} : vector<8xi32>
//       CHECK: %[[ODD:.*]] = arith.andi %[[W]], %{{.*}} : vector<8xi32>
//       CHECK: %[[EF:.*]] = arith.bitcast %[[EVEN]] : vector<8xi32> to vector<8xf32>
//       CHECK: %[[OF:.*]] = arith.bitcast %[[ODD]] : vector<8xi32> to vector<8xf32>
//       CHECK: %[[S:.*]] = vector.shuffle %[[EF]], %[[OF]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
//       CHECK: vector.fma %[[S]], %[[S]]
// The masked tail widens the same way.
//       CHECK: vector.maskedload {{.*}} into vector<16xbf16>
//  CHECK-NEXT: vector.bitcast %{{.*}} : vector<16xbf16> to vector<8xi32>
// Natural order, then the halving tree.
//       CHECK: %[[NAT:.*]] = vector.shuffle %[[ACC:.*]], %[[ACC]] [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15] : vector<16xf32>
//       CHECK: vector.shuffle %[[NAT]], %[[NAT]] [0, 1, 2, 3, 4, 5, 6, 7]
//       CHECK: vector.shuffle %[[NAT]], %[[NAT]] [8, 9, 10, 11, 12, 13, 14, 15]
//       CHECK: arith.addf %{{.*}} : vector<8xf32>
//       CHECK: arith.addf %{{.*}} : vector<4xf32>
//       CHECK: arith.addf %{{.*}} : vector<2xf32>
//       CHECK: %[[TOP:.*]] = arith.addf %{{.*}} : vector<1xf32>
//  CHECK-NEXT: vector.extract %[[TOP]][0] : f32 from vector<1xf32>
// The tree is the row's only horizontal sum: nothing else leaves a vector
// before the normalize sweep.
//   CHECK-NOT: vector.extract
// The normalize sweep: y rounded in pair order and stored as bf16.
//       CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V:.*]], %[[V]] : vector<16xf32>
//       CHECK: %[[SEL:.*]] = arith.select %[[NAN]], %{{.*}}, %[[V]] : vector<16xi1>, vector<16xf32>
//       CHECK: %[[BITS:.*]] = arith.bitcast %[[SEL]] : vector<16xf32> to vector<16xi32>
//       CHECK: arith.shrui %[[BITS]]
//       CHECK: arith.addi %[[BITS]]
//       CHECK: %[[BIASED:.*]] = arith.addi
//       CHECK: %[[E:.*]] = vector.shuffle %[[BIASED]], %[[BIASED]] [0, 1, 2, 3, 4, 5, 6, 7]
//       CHECK: %[[O:.*]] = vector.shuffle %[[BIASED]], %[[BIASED]] [8, 9, 10, 11, 12, 13, 14, 15]
//       CHECK: %[[LO:.*]] = arith.shrui %[[E]], %{{.*}} : vector<8xi32>
//       CHECK: %[[HI:.*]] = arith.andi %[[O]], %{{.*}} : vector<8xi32>
//       CHECK: %[[WORDS:.*]] = arith.ori %[[LO]], %[[HI]] : vector<8xi32>
//       CHECK: %[[Y:.*]] = vector.bitcast %[[WORDS]] : vector<8xi32> to vector<16xbf16>
//       CHECK: vector.store %[[Y]]
//   CHECK-NOT: arith.truncf
//   CHECK-NOT: arith.extf
//       CHECK: return
// OFF-LABEL: func.func @rms
//   OFF-NOT: vector<8xi32>
//       OFF: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//   OFF-NOT: vector.shuffle %{{.*}} [0, 8, 1, 9
//       OFF: vector.shuffle %[[ACC:.*]], %[[ACC]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<16xf32>
//       OFF: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       OFF: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
//   OFF-NOT: vector<8xi32>
//       OFF: return
func.func @rms(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// LayerNorm: the masked tail's d = s − m is zeroed by the row mask in pair
// order (the same shuffle as the lanes).
// CHECK-LABEL: func.func @ln
//       CHECK: %[[M:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
//       CHECK: %[[PM:.*]] = vector.shuffle %[[M]], %[[M]] [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15] : vector<16xi1>
//       CHECK: arith.select %[[PM]], %{{.*}} : vector<16xi1>, vector<16xf32>
//   CHECK-NOT: arith.truncf
//       CHECK: return
func.func @ln(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}

// -----

// An f32 γ with bf16 rows keeps natural order (its loads would need a
// shuffle each), and so do f16 rows (their widening is no shift).
// CHECK-LABEL: func.func @f32_gamma
//   CHECK-NOT: vector<8xi32>
//       CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//   CHECK-NOT: vector<8xi32>
//       CHECK: return
// OFF-LABEL: func.func @f32_gamma
func.func @f32_gamma(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xbf16>)
  return
}

// -----

// CHECK-LABEL: func.func @f16
//   CHECK-NOT: vector<8xi32>
//       CHECK: arith.extf %{{.*}} : vector<16xf16> to vector<16xf32>
//   CHECK-NOT: vector<8xi32>
//       CHECK: return
// OFF-LABEL: func.func @f16
func.func @f16(%x: memref<?x?xf16>, %g: memref<?xf16>, %y: memref<?x?xf16>) {
  norm.rms_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf16>)
      outs(%y : memref<?x?xf16>)
  return
}
