// RUN: norm-opt %s --transform-interpreter -canonicalize | FileCheck %s

// TilingInterface with a rotary embedding: the angles are tiled like the
// input over their positions and keep their one index over a broadcast
// (size-1) dim.
// CHECK-LABEL: func.func @tile_rope
// CHECK-SAME: %[[X:[^:]*]]: tensor<64x4x32xf32>, %[[C:[^:]*]]: tensor<64x1x32xf32>, %[[S:[^:]*]]: tensor<64x1x32xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y:.*]] = %{{.*}})
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y2:.*]] = %[[Y]])
// CHECK:     %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[J]], 0] [16, 2, 32] [1, 1, 1]
// CHECK:     %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]], 0, 0] [16, 1, 32] [1, 1, 1]
// CHECK:     %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]], 0, 0] [16, 1, 32] [1, 1, 1]
// CHECK:     norm.rms_norm ins(%[[XT]] : tensor<16x2x32xf32>) rope(%[[CT]], %[[ST]] : tensor<16x1x32xf32>, tensor<16x1x32xf32>)
func.func @tile_rope(%x: tensor<64x4x32xf32>, %c: tensor<64x1x32xf32>, %s: tensor<64x1x32xf32>) -> tensor<64x4x32xf32> {
  %e = tensor.empty() : tensor<64x4x32xf32>
  %y = norm.rms_norm ins(%x : tensor<64x4x32xf32>) rope(%c, %s : tensor<64x1x32xf32>, tensor<64x1x32xf32>)
         outs(%e : tensor<64x4x32xf32>) -> tensor<64x4x32xf32>
  return %y : tensor<64x4x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.rms_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [16, 2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
