// RUN: norm-opt %s --split-input-file | norm-opt --split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s --split-input-file --norm-decompose | FileCheck %s --check-prefix=DECOMP

// norm.group_norm: the assembly round-trips, and the decomposition (the
// reference semantics) is the LayerNorm of the [N, G, C/G, S...] view with
// γ/β indexed by (group, channel in group), rounded once.

// ROUNDTRIP-LABEL: func.func @gn_tensor
//       ROUNDTRIP: norm.group_norm ins(%{{.*}} : tensor<?x8x5x3xf32>) weight(%{{.*}} : tensor<8xf32>) bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<?x8x5x3xf32>) mean_outs(%{{.*}} : tensor<?x4xf32>) rstd_outs(%{{.*}} : tensor<?x4xf32>) {epsilon = 9.99999974E-6 : f32, num_groups = 4 : i64} -> tensor<?x8x5x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>

// DECOMP-LABEL: func.func @gn_tensor
//   DECOMP-DAG: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [%{{.*}}, 4, 2, 5, 3] : tensor<?x8x5x3xf32> into tensor<?x4x2x5x3xf32>
//   DECOMP-DAG: %[[G:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
// Statistics per (n, g): Kahan-compensated sums over dims 2-4.
//       DECOMP: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
// The normalize sweep: γ and β read at (d1, d2), one rounding.
//       DECOMP: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[X]], %{{.*}}, %{{.*}}, %[[G]], %{{.*}} : tensor<?x4x2x5x3xf32>, tensor<?x4x2x5x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
//       DECOMP: tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x4x2x5x3xf32> into tensor<?x8x5x3xf32>
//   DECOMP-NOT: norm.group_norm
func.func @gn_tensor(%x: tensor<?x8x5x3xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>,
                     %e: tensor<?x8x5x3xf32>, %m: tensor<?x4xf32>, %r: tensor<?x4xf32>)
    -> (tensor<?x8x5x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %y, %mean, %rstd = norm.group_norm ins(%x : tensor<?x8x5x3xf32>)
      weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>)
      outs(%e : tensor<?x8x5x3xf32>) mean_outs(%m : tensor<?x4xf32>)
      rstd_outs(%r : tensor<?x4xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f32}
      -> tensor<?x8x5x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>
  return %y, %mean, %rstd : tensor<?x8x5x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// InstanceNorm (G = C) on memrefs, f16 in, statistics in f32, no spatial
// dims beyond one.
// ROUNDTRIP-LABEL: func.func @instance_norm_memref
//       ROUNDTRIP: norm.group_norm ins(%{{.*}} : memref<2x6x7xf16>) weight(%{{.*}} : memref<6xf16>) outs(%{{.*}} : memref<2x6x7xf16>) {num_groups = 6 : i64}
//   ROUNDTRIP-NOT: ->

// DECOMP-LABEL: func.func @instance_norm_memref
//       DECOMP: memref.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 6, 1, 7] : memref<2x6x7xf16> into memref<2x6x1x7xf16>
//       DECOMP: arith.extf %{{.*}} : f16 to f32
//       DECOMP: arith.truncf %{{.*}} : f32 to f16
//   DECOMP-NOT: norm.group_norm
func.func @instance_norm_memref(%x: memref<2x6x7xf16>, %g: memref<6xf16>, %y: memref<2x6x7xf16>) {
  norm.group_norm ins(%x : memref<2x6x7xf16>) weight(%g : memref<6xf16>)
      outs(%y : memref<2x6x7xf16>) {num_groups = 6 : i64}
  return
}
