// RUN: norm-opt %s --transform-interpreter -canonicalize | FileCheck %s

// TilingInterface of norm.matmul_rms_norm with a rotary embedding: tiled
// over rows (N whole), the angles take the tile's rows and all the heads.
// CHECK-LABEL: func.func @tile_rope
//  CHECK-SAME: %[[C:[^:]*]]: tensor<64x1x32xf32>, %[[S:[^:]*]]: tensor<64x1x32xf32>
//       CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
//       CHECK:   %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]], 0, 0] [16, 1, 32] [1, 1, 1]
//       CHECK:   %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]], 0, 0] [16, 1, 32] [1, 1, 1]
//       CHECK:   norm.matmul_rms_norm ins(%{{.*}} : tensor<16x48xf32>) rhs(%{{.*}} : tensor<48x128xf32>) rope(%[[CT]], %[[ST]] : tensor<16x1x32xf32>, tensor<16x1x32xf32>) outs(%{{.*}} : tensor<16x128xf32>)
func.func @tile_rope(%a: tensor<64x48xf32>, %w: tensor<48x128xf32>, %c: tensor<64x1x32xf32>, %s: tensor<64x1x32xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %y = norm.matmul_rms_norm ins(%a : tensor<64x48xf32>) rhs(%w : tensor<48x128xf32>) rope(%c, %s : tensor<64x1x32xf32>, tensor<64x1x32xf32>) outs(%e : tensor<64x128xf32>) {head_dim = 32 : i64} -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.matmul_rms_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %l0 = transform.structured.tile_using_for %op tile_sizes [16, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
