// RUN: norm-opt %s --transform-interpreter -split-input-file -canonicalize | FileCheck %s

// TilingInterface: rows are parallel and tiled; the normalized dims are
// taken whole; γ is passed whole; rstd is tiled in the row space.
// CHECK-LABEL: func.func @tile_rms_norm_rows
// CHECK-SAME: %[[X:[^:]*]]: tensor<128x64xf32>, %[[G:[^:]*]]: tensor<64xf32>
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y:.*]] = %{{.*}}, %[[RS:.*]] = %{{.*}})
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[IV]], 0] [16, 64] [1, 1]
// CHECK:   %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[IV]], 0] [16, 64] [1, 1]
// CHECK:   %[[RT:.*]] = tensor.extract_slice %[[RS]][%[[IV]]] [16] [1]
// CHECK:   %[[T:.*]]:2 = norm.rms_norm ins(%[[XT]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%[[YT]] : tensor<16x64xf32>) rstd_outs(%[[RT]] : tensor<16xf32>)
// CHECK:   tensor.insert_slice %[[T]]#0 into %[[Y]][%[[IV]], 0] [16, 64] [1, 1]
// CHECK:   tensor.insert_slice %[[T]]#1 into %[[RS]][%[[IV]]] [16] [1]
func.func @tile_rms_norm_rows(%x: tensor<128x64xf32>, %g: tensor<64xf32>, %e: tensor<128x64xf32>, %r: tensor<128xf32>)
    -> (tensor<128x64xf32>, tensor<128xf32>) {
  %y, %rs = norm.rms_norm ins(%x : tensor<128x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<128x64xf32>)
      rstd_outs(%r : tensor<128xf32>) -> tensor<128x64xf32>, tensor<128xf32>
  return %y, %rs : tensor<128x64xf32>, tensor<128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.rms_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [16, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// LayerNorm with a residual: x, the residual and both outputs are tiled by
// rows.
// CHECK-LABEL: func.func @tile_layer_norm_residual
// CHECK: scf.for
// CHECK:   norm.layer_norm ins(%{{.*}} : tensor<8x64xf32>) residual(%{{.*}} : tensor<8x64xf32>) outs(%{{.*}} : tensor<8x64xf32>) sum_outs(%{{.*}} : tensor<8x64xf32>)
func.func @tile_layer_norm_residual(%x: tensor<32x64xf32>, %r: tensor<32x64xf32>, %e: tensor<32x64xf32>,
    %s: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %y, %sum = norm.layer_norm ins(%x : tensor<32x64xf32>) residual(%r : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>)
      sum_outs(%s : tensor<32x64xf32>) -> tensor<32x64xf32>, tensor<32x64xf32>
  return %y, %sum : tensor<32x64xf32>, tensor<32x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.layer_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// norm → matmul tiles rows and output columns: X by rows (all of K), W by
// columns, the bias by columns.
// CHECK-LABEL: func.func @tile_rms_norm_matmul
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK:   scf.for %[[J:[^ ]*]] =
// CHECK:     tensor.extract_slice %{{.*}}[%[[I]], 0] [4, 32] [1, 1] : tensor<16x32xf32> to tensor<4x32xf32>
// CHECK:     tensor.extract_slice %{{.*}}[%[[J]], 0] [8, 32] [1, 1] : tensor<24x32xf32> to tensor<8x32xf32>
// CHECK:     tensor.extract_slice %{{.*}}[%[[J]]] [8] [1] : tensor<24xf32> to tensor<8xf32>
// CHECK:     norm.rms_norm_matmul ins(%{{.*}} : tensor<4x32xf32>) weight(%{{.*}} : tensor<32xf32>) rhs(%{{.*}} : tensor<8x32xf32>) matmul_bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {transpose_rhs}
func.func @tile_rms_norm_matmul(%x: tensor<16x32xf32>, %g: tensor<32xf32>, %w: tensor<24x32xf32>, %b: tensor<24xf32>,
    %e: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %c = norm.rms_norm_matmul ins(%x : tensor<16x32xf32>) weight(%g : tensor<32xf32>) rhs(%w : tensor<24x32xf32>)
      matmul_bias(%b : tensor<24xf32>) outs(%e : tensor<16x24xf32>) {transpose_rhs} -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.rms_norm_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [4, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// matmul → norm tiles rows only; the residual and both outputs by rows.
// CHECK-LABEL: func.func @tile_matmul_rms_norm
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK:   tensor.extract_slice %{{.*}}[%[[I]], 0] [2, 12] [1, 1] : tensor<8x12xf32> to tensor<2x12xf32>
// CHECK:   norm.matmul_rms_norm ins(%{{.*}} : tensor<2x12xf32>) rhs(%{{.*}} : tensor<12x6xf32>) residual(%{{.*}} : tensor<2x6xf32>) outs(%{{.*}} : tensor<2x6xf32>) sum_outs(%{{.*}} : tensor<2x6xf32>)
func.func @tile_matmul_rms_norm(%a: tensor<8x12xf32>, %w: tensor<12x6xf32>, %r: tensor<8x6xf32>, %e: tensor<8x6xf32>,
    %s: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
  %y, %sum = norm.matmul_rms_norm ins(%a : tensor<8x12xf32>) rhs(%w : tensor<12x6xf32>) residual(%r : tensor<8x6xf32>)
      outs(%e : tensor<8x6xf32>) sum_outs(%s : tensor<8x6xf32>) -> tensor<8x6xf32>, tensor<8x6xf32>
  return %y, %sum : tensor<8x6xf32>, tensor<8x6xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.matmul_rms_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// norm → matmul returning its residual sum: N is a reduction then (every N
// tile would write the same rows of the sum), so a tile over N widens to
// all of N; rows tile, and the residual and the sum tile with them, K whole.
// CHECK-LABEL: func.func @tile_residual_rms_norm_matmul
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK:   tensor.extract_slice %{{.*}}[%[[I]], 0] [4, 32] [1, 1] : tensor<16x32xf32> to tensor<4x32xf32>
// CHECK:   norm.rms_norm_matmul ins(%{{.*}} : tensor<4x32xf32>) residual(%{{.*}} : tensor<4x32xf32>) rhs(%{{.*}} : tensor<32x24xf32>) outs(%{{.*}} : tensor<4x24xf32>) sum_outs(%{{.*}} : tensor<4x32xf32>) -> tensor<4x24xf32>, tensor<4x32xf32>
// CHECK:   tensor.insert_slice %{{.*}} into %{{.*}}[%[[I]], 0] [4, 24] [1, 1] : tensor<4x24xf32> into tensor<16x24xf32>
// CHECK:   tensor.insert_slice %{{.*}} into %{{.*}}[%[[I]], 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<16x32xf32>
func.func @tile_residual_rms_norm_matmul(%x: tensor<16x32xf32>, %r: tensor<16x32xf32>, %w: tensor<32x24xf32>,
    %e: tensor<16x24xf32>, %s: tensor<16x32xf32>) -> (tensor<16x24xf32>, tensor<16x32xf32>) {
  %c, %sum = norm.rms_norm_matmul ins(%x : tensor<16x32xf32>) residual(%r : tensor<16x32xf32>) rhs(%w : tensor<32x24xf32>)
      outs(%e : tensor<16x24xf32>) sum_outs(%s : tensor<16x32xf32>) -> tensor<16x24xf32>, tensor<16x32xf32>
  return %c, %sum : tensor<16x24xf32>, tensor<16x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.rms_norm_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [4, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A quantized output with per-group scales: the scales are tiled by rows
// with all their groups; a static scale is passed whole.
// CHECK-LABEL: func.func @tile_quantized_per_group
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Q:.*]] = %{{.*}}, %[[SC:.*]] = %{{.*}})
// CHECK:   %[[ST:.*]] = tensor.extract_slice %[[SC]][%[[IV]], 0] [8, 2] [1, 1]
// CHECK:   %[[T:.*]]:2 = norm.rms_norm ins(%{{.*}} : tensor<8x128xf32>) outs(%{{.*}} : tensor<8x128xi8>) scale_outs(%[[ST]] : tensor<8x2xf32>) {group_size = 64 : i64}
// CHECK:   tensor.insert_slice %[[T]]#1 into %[[SC]][%[[IV]], 0] [8, 2] [1, 1]
func.func @tile_quantized_per_group(%x: tensor<32x128xf32>, %e: tensor<32x128xi8>, %s: tensor<32x2xf32>)
    -> (tensor<32x128xi8>, tensor<32x2xf32>) {
  %q, %sc = norm.rms_norm ins(%x : tensor<32x128xf32>) outs(%e : tensor<32x128xi8>)
      scale_outs(%s : tensor<32x2xf32>) {group_size = 64 : i64} -> tensor<32x128xi8>, tensor<32x2xf32>
  return %q, %sc : tensor<32x128xi8>, tensor<32x2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.rms_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [8, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @tile_quantized_static
// CHECK-SAME: %[[S:[^:]*]]: f32
// CHECK: scf.for
// CHECK:   norm.layer_norm ins(%{{.*}} : tensor<8x64xf32>) scale(%[[S]] : f32) outs(%{{.*}} : tensor<8x64xf8E5M2>)
func.func @tile_quantized_static(%x: tensor<32x64xf32>, %s: f32, %e: tensor<32x64xf8E5M2>) -> tensor<32x64xf8E5M2> {
  %q = norm.layer_norm ins(%x : tensor<32x64xf32>) scale(%s : f32) outs(%e : tensor<32x64xf8E5M2>) -> tensor<32x64xf8E5M2>
  return %q : tensor<32x64xf8E5M2>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["norm.layer_norm"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [8, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
