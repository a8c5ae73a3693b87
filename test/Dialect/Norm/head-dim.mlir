// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: norm-opt %s --norm-decompose -split-input-file | FileCheck %s

// `head_dim` on the matmul → norm ops (QK-norm): round trip, and the
// decomposition, which is the reference semantics: the norm of the rounded
// sum S viewed as [..., N / D, D] over D, with γ (β) of shape [D].

// ROUND-LABEL: func.func @rms_heads
//       ROUND: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x64xf32>) rhs(%{{.*}} : tensor<64x32xf32>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<?x32xf32>) {head_dim = 8 : i64} -> tensor<?x32xf32>
// CHECK-LABEL: func.func @rms_heads
//       CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?x64xf32>, tensor<64x32xf32>) outs(%{{.*}} : tensor<?x32xf32>)
//       CHECK: %[[S:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x32xf32>)
//       CHECK: %[[SH:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 4, 8] : tensor<?x32xf32> into tensor<?x4x8xf32>
//       CHECK: %[[YH:.*]] = tensor.expand_shape %arg3 {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 4, 8] : tensor<?x32xf32> into tensor<?x4x8xf32>
//       CHECK: linalg.generic {{.*}} ins(%[[SH]] : tensor<?x4x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<?x4xf32>)
//       CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[SH]], %{{.*}}, %arg2 : tensor<?x4x8xf32>, tensor<?x4xf32>, tensor<8xf32>) outs(%[[YH]] : tensor<?x4x8xf32>)
//       CHECK: %[[Y:.*]] = tensor.collapse_shape %[[N]] {{\[\[}}0], [1, 2]] : tensor<?x4x8xf32> into tensor<?x32xf32>
//       CHECK: return %[[Y]]
func.func @rms_heads(%a: tensor<?x64xf32>, %w: tensor<64x32xf32>, %g: tensor<8xf32>, %i: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %y = norm.matmul_rms_norm ins(%a : tensor<?x64xf32>) rhs(%w : tensor<64x32xf32>) weight(%g : tensor<8xf32>) outs(%i : tensor<?x32xf32>) {head_dim = 8 : i64} -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// -----

// ROUND-LABEL: func.func @layer_norm_heads_memref
//       ROUND: norm.matmul_layer_norm ins(%{{.*}} : memref<2x3x16xbf16>) rhs(%{{.*}} : memref<24x16xbf16>) weight(%{{.*}} : memref<8xbf16>) bias(%{{.*}} : memref<8xbf16>) outs(%{{.*}} : memref<2x3x24xbf16>) {head_dim = 8 : i64, transpose_rhs}
// CHECK-LABEL: func.func @layer_norm_heads_memref
//       CHECK: %[[SH:.*]] = memref.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [2, 3, 3, 8] : memref<2x3x24xbf16> into memref<2x3x3x8xbf16>
//       CHECK: %[[YH:.*]] = memref.expand_shape %arg4 {{\[\[}}0], [1], [2, 3]] output_shape [2, 3, 3, 8] : memref<2x3x24xbf16> into memref<2x3x3x8xbf16>
//       CHECK: linalg.generic {{.*}} ins(%[[SH]], %[[SH]], %{{.*}}, %{{.*}}, %arg2, %arg3 : memref<2x3x3x8xbf16>, memref<2x3x3x8xbf16>, memref<2x3x3xf32>, memref<2x3x3xf32>, memref<8xbf16>, memref<8xbf16>) outs(%[[YH]] : memref<2x3x3x8xbf16>)
func.func @layer_norm_heads_memref(%a: memref<2x3x16xbf16>, %w: memref<24x16xbf16>, %g: memref<8xbf16>, %b: memref<8xbf16>, %y: memref<2x3x24xbf16>) {
  norm.matmul_layer_norm ins(%a : memref<2x3x16xbf16>) rhs(%w : memref<24x16xbf16>) weight(%g : memref<8xbf16>) bias(%b : memref<8xbf16>) outs(%y : memref<2x3x24xbf16>) {head_dim = 8 : i64, transpose_rhs}
  return
}
