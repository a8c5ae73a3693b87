// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1" -canonicalize | FileCheck %s

// The rotary embedding in the row kernel's normalize sweep, while the row is
// in cache: no temporary, no second pass over y. rotate_half sweeps the
// first half and normalizes, rotates and stores d and d + D/2 in one step;
// interleaved swaps each vector's lane pairs with a shuffle and a ±1 sign.
// The angle row is (row / rows sharing it) mod (angle rows).

// CHECK-LABEL: func.func @half
//  CHECK-SAME: %[[C:[^:]*]]: memref<16x1x64xf32>, %[[S:[^:]*]]: memref<16x1x64xf32>
//   CHECK-DAG: %[[CV:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [16, 64]
//   CHECK-DAG: %[[SV:.*]] = memref.reinterpret_cast %[[S]] to offset: [0], sizes: [16, 64]
//       CHECK: scf.for %[[ROW:.*]] =
//       CHECK:   %[[Q:.*]] = arith.divui %[[ROW]], %c4
//       CHECK:   %[[AROW:.*]] = arith.remui %[[Q]], %c16
//       CHECK:   scf.for %[[J:.*]] = %c0 to %c32 step %c16
//       CHECK:     %[[K:.*]] = arith.addi %[[J]], %c32
//       CHECK:     %[[LO:.*]] = arith.mulf
//       CHECK:     %[[HI:.*]] = arith.mulf
//       CHECK:     %[[CLO:.*]] = vector.load %[[CV]][%[[AROW]], %[[J]]]
//       CHECK:     %[[A:.*]] = arith.mulf %[[LO]], %[[CLO]]
//       CHECK:     %[[SLO:.*]] = vector.load %[[SV]][%[[AROW]], %[[J]]]
//       CHECK:     %[[B:.*]] = arith.mulf %[[HI]], %[[SLO]]
//       CHECK:     %[[YLO:.*]] = arith.subf %[[A]], %[[B]]
//       CHECK:     %[[CHI:.*]] = vector.load %[[CV]][%[[AROW]], %[[K]]]
//       CHECK:     %[[E:.*]] = arith.mulf %[[HI]], %[[CHI]]
//       CHECK:     %[[SHI:.*]] = vector.load %[[SV]][%[[AROW]], %[[K]]]
//       CHECK:     %[[F:.*]] = arith.mulf %[[LO]], %[[SHI]]
//       CHECK:     %[[YHI:.*]] = arith.addf %[[E]], %[[F]]
//       CHECK:     vector.store %[[YLO]], %{{.*}}[%[[ROW]], %[[J]]]
//       CHECK:     vector.store %[[YHI]], %{{.*}}[%[[ROW]], %[[K]]]
//   CHECK-NOT: norm.rms_norm
func.func @half(%x: memref<16x4x64xf32>, %c: memref<16x1x64xf32>, %s: memref<16x1x64xf32>, %y: memref<16x4x64xf32>) {
  norm.rms_norm ins(%x : memref<16x4x64xf32>) rope(%c, %s : memref<16x1x64xf32>, memref<16x1x64xf32>) outs(%y : memref<16x4x64xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @pairs
//   CHECK-DAG: %[[SIGN:.*]] = arith.constant dense<[-1.000000e+00, 1.000000e+00, {{.*}}]> : vector<16xf32>
//       CHECK: scf.for %[[ROW:.*]] =
//       CHECK:   %[[AROW:.*]] = arith.remui %[[ROW]], %c4
//       CHECK:   scf.for %[[J:.*]] = %c0 to %c32 step %c16
//       CHECK:     %[[V:.*]] = arith.mulf
//       CHECK:     %[[P:.*]] = vector.shuffle %[[V]], %[[V]] [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]
//       CHECK:     %[[PS:.*]] = arith.mulf %[[P]], %[[SIGN]]
//       CHECK:     %[[SN:.*]] = vector.load %{{.*}}[%[[AROW]], %[[J]]] : memref<4x32xf32>
//       CHECK:     %[[T:.*]] = arith.mulf %[[PS]], %[[SN]]
//       CHECK:     %[[CS:.*]] = vector.load %{{.*}}[%[[AROW]], %[[J]]] : memref<4x32xf32>
//       CHECK:     %[[VC:.*]] = arith.mulf %[[V]], %[[CS]]
//       CHECK:     %[[R:.*]] = arith.addf %[[VC]], %[[T]]
//       CHECK:     %[[Y:.*]] = arith.truncf %[[R]] : vector<16xf32> to vector<16xbf16>
//       CHECK:     vector.store %[[Y]], %{{.*}}[%[[ROW]], %[[J]]]
func.func @pairs(%x: memref<6x4x32xbf16>, %c: memref<1x4x32xf32>, %s: memref<1x4x32xf32>, %y: memref<6x4x32xbf16>) {
  norm.rms_norm ins(%x : memref<6x4x32xbf16>) rope(%c, %s : memref<1x4x32xf32>, memref<1x4x32xf32>) outs(%y : memref<6x4x32xbf16>) {rope_mode = #norm.rope_mode<interleaved>}
  return
}
