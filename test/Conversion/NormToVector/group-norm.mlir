// RUN: norm-opt %s --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="target=avx2 parallel-threshold=0" | FileCheck %s --check-prefix=THREADS

// norm.group_norm on the CPU (AVX2 width: 8 × f32): x and y as [N·G,
// C/G·ΠS] rows (a group is contiguous), the row kernel's LayerNorm
// statistics sweeps over a row, then one sweep per channel of the group
// with scale = rstd·γ_c and β_c loaded once: y = ((x − m) − c)·scale + β_c,
// one FMA an element, a masked tail per channel segment.

// CHECK-LABEL: func.func @gn_f32
//       CHECK: %[[X:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [8, 30], strides: [30, 1] : memref<2x8x5x3xf32> to memref<8x30xf32>
//       CHECK: %[[Y:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [8, 30], strides: [30, 1] : memref<2x8x5x3xf32> to memref<8x30xf32>
//       CHECK: %[[MEAN:.*]] = memref.reinterpret_cast %{{.*}} : memref<2x4xf32> to memref<8xf32>
//       CHECK: %[[RSTD:.*]] = memref.reinterpret_cast %{{.*}} : memref<2x4xf32> to memref<8xf32>
//       CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c8
// Σx, then Σd and Σd² about the mean.
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   memref.store %{{.*}}, %[[MEAN]][%[[ROW]]]
//       CHECK:   memref.store %[[R:.*]], %[[RSTD]][%[[ROW]]]
// The group's channels: (row mod 4)·2 + c.
//       CHECK:   %[[G:.*]] = arith.remui %[[ROW]], %c4
//       CHECK:   %[[FIRST:.*]] = arith.muli %[[G]], %c2
//       CHECK:   scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:     %[[CH:.*]] = arith.addi %[[FIRST]], %[[C]]
//       CHECK:     %[[GAMMA:.*]] = memref.load %{{.*}}[%[[CH]]] : memref<8xf32>
//       CHECK:     %[[SCALE:.*]] = arith.mulf %[[R]], %[[GAMMA]] : f32
//       CHECK:     %[[SV:.*]] = vector.broadcast %[[SCALE]]
//       CHECK:     %[[BETA:.*]] = memref.load %{{.*}}[%[[CH]]] : memref<8xf32>
//       CHECK:     %[[BV:.*]] = vector.broadcast %[[BETA]]
//       CHECK:     scf.for
//       CHECK:       vector.load %[[X]]
//       CHECK:       %[[V:.*]] = vector.fma %{{.*}}, %[[SV]], %[[BV]] : vector<8xf32>
//       CHECK:       vector.store %[[V]], %[[Y]]
//       CHECK:     scf.if
//       CHECK:       vector.maskedstore %[[Y]]
//   CHECK-NOT: norm.group_norm

// Threads: the groups split by scf.parallel above the threshold.
// THREADS-LABEL: func.func @gn_f32
//       THREADS: scf.parallel
//   THREADS-NOT: norm.group_norm
func.func @gn_f32(%x: memref<2x8x5x3xf32>, %g: memref<8xf32>, %b: memref<8xf32>, %y: memref<2x8x5x3xf32>,
                  %m: memref<2x4xf32>, %r: memref<2x4xf32>) {
  norm.group_norm ins(%x : memref<2x8x5x3xf32>) weight(%g : memref<8xf32>)
      bias(%b : memref<8xf32>) outs(%y : memref<2x8x5x3xf32>)
      mean_outs(%m : memref<2x4xf32>) rstd_outs(%r : memref<2x4xf32>) {num_groups = 4 : i64}
  return
}

// bf16 InstanceNorm, no γ: the scale is rstd itself, β = 0; values are
// rounded once, when stored.
// CHECK-LABEL: func.func @instance_norm_bf16
//       CHECK: scf.for
//       CHECK:   arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
//       CHECK:   scf.for
//       CHECK:     vector.fma
//       CHECK:     arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
//       CHECK:     vector.store
func.func @instance_norm_bf16(%x: memref<?x16x?xbf16>, %y: memref<?x16x?xbf16>) {
  norm.group_norm ins(%x : memref<?x16x?xbf16>) outs(%y : memref<?x16x?xbf16>) {num_groups = 16 : i64}
  return
}
