// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s

// norm.group_norm on the GPU: the row kernel over the [N·G, C/G·ΠS] view
// (each (sample, group) a row), LayerNorm statistics, and γ/β read per
// element by its channel, (row mod G)·C/G + j / ΠS, in the same normalize
// sweep (no second pass over y).

// CHECK-LABEL: func.func @gn_f32
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [8, 30], strides: [30, 1] : memref<2x8x5x3xf32> to memref<8x30xf32>
//       CHECK: gpu.launch
//       CHECK:   gpu.shuffle
//       CHECK:   %[[G:.*]] = arith.remui %{{.*}}, %c4{{.*}} : index
//       CHECK:   arith.muli %[[G]], %c2{{.*}} : index
//       CHECK:   arith.divui %{{.*}}, %c15{{.*}} : index
//       CHECK:   memref.load %{{.*}} : memref<8xf32>
//       CHECK:   memref.load %{{.*}} : memref<8xf32>
//       CHECK:   vector.store
//   CHECK-NOT: norm.group_norm
func.func @gn_f32(%x: memref<2x8x5x3xf32>, %g: memref<8xf32>, %b: memref<8xf32>, %y: memref<2x8x5x3xf32>) {
  norm.group_norm ins(%x : memref<2x8x5x3xf32>) weight(%g : memref<8xf32>)
      bias(%b : memref<8xf32>) outs(%y : memref<2x8x5x3xf32>) {num_groups = 4 : i64}
  return
}

// -----

// InstanceNorm on f16 with a dynamic batch and spatial size, statistics
// returned.
// CHECK-LABEL: func.func @instance_norm_f16
//       CHECK: gpu.launch
//       CHECK:   arith.extf
//       CHECK:   memref.store %{{.*}} : memref<?xf32>
//       CHECK:   arith.truncf
//   CHECK-NOT: norm.group_norm
func.func @instance_norm_f16(%x: memref<?x16x?xf16>, %g: memref<16xf16>, %y: memref<?x16x?xf16>,
                             %m: memref<?x16xf32>, %r: memref<?x16xf32>) {
  norm.group_norm ins(%x : memref<?x16x?xf16>) weight(%g : memref<16xf16>)
      outs(%y : memref<?x16x?xf16>) mean_outs(%m : memref<?x16xf32>)
      rstd_outs(%r : memref<?x16xf32>) {num_groups = 16 : i64}
  return
}
