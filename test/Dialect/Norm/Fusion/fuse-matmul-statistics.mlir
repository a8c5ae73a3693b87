// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// A training graph keeps each forward norm's statistics for its backward:
// the norm still fuses, and one fused op returns them.

// norm → matmul: q and k share the norm; the first fused op returns rstd,
// which norm.rms_norm_grad reads.
// CHECK-LABEL: func.func @rms_saved_rstd
//  CHECK-SAME: %[[X:[^:]*]]: tensor<?x8xf32>
//       CHECK: %[[RE:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
//       CHECK: %[[Q:.*]]:2 = norm.rms_norm_matmul ins(%[[X]] : tensor<?x8xf32>) weight(%{{.*}} : tensor<8xf32>) rhs(%{{.*}} : tensor<8x2xf32>) outs(%{{.*}} : tensor<?x2xf32>) rstd_outs(%[[RE]] : tensor<?xf32>) -> tensor<?x2xf32>, tensor<?xf32>
//       CHECK: %[[K:.*]] = norm.rms_norm_matmul ins(%[[X]] : tensor<?x8xf32>) weight(%{{.*}} : tensor<8xf32>) rhs(%{{.*}} : tensor<8x3xf32>) outs(%{{.*}} : tensor<?x3xf32>) -> tensor<?x3xf32>
//       CHECK: norm.rms_norm_grad grad(%{{.*}} : tensor<?x8xf32>) ins(%[[X]] : tensor<?x8xf32>) weight(%{{.*}} : tensor<8xf32>) rstd(%[[Q]]#1 : tensor<?xf32>)
//   CHECK-NOT: norm.rms_norm ins
func.func @rms_saved_rstd(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %wq: tensor<8x2xf32>, %wk: tensor<8x3xf32>, %dy: tensor<?x8xf32>) -> (tensor<?x2xf32>, tensor<?x3xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %re = tensor.empty(%m) : tensor<?xf32>
  // expected-remark @+1 {{norm.rms_norm fused into 2 consuming matmul(s)}}
  %n, %r = norm.rms_norm ins(%x : tensor<?x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<?x8xf32>) rstd_outs(%re : tensor<?xf32>) -> tensor<?x8xf32>, tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %qe = tensor.empty(%m) : tensor<?x2xf32>
  %qz = linalg.fill ins(%zero : f32) outs(%qe : tensor<?x2xf32>) -> tensor<?x2xf32>
  %q = linalg.matmul ins(%n, %wq : tensor<?x8xf32>, tensor<8x2xf32>) outs(%qz : tensor<?x2xf32>) -> tensor<?x2xf32>
  %ke = tensor.empty(%m) : tensor<?x3xf32>
  %kz = linalg.fill ins(%zero : f32) outs(%ke : tensor<?x3xf32>) -> tensor<?x3xf32>
  %k = linalg.matmul ins(%n, %wk : tensor<?x8xf32>, tensor<8x3xf32>) outs(%kz : tensor<?x3xf32>) -> tensor<?x3xf32>
  %dx = norm.rms_norm_grad grad(%dy : tensor<?x8xf32>) ins(%x : tensor<?x8xf32>) weight(%g : tensor<8xf32>) rstd(%r : tensor<?xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %q, %k, %dx : tensor<?x2xf32>, tensor<?x3xf32>, tensor<?x8xf32>
}

// -----

// LayerNorm with a residual: the fused op returns the sum, the mean and the
// rstd, in that order.
// CHECK-LABEL: func.func @ln_saved_stats
//       CHECK: %[[F:.*]]:4 = norm.layer_norm_matmul ins(%{{.*}} : tensor<4x8xf32>) residual(%{{.*}} : tensor<4x8xf32>) {{.*}} sum_outs(%{{.*}} : tensor<4x8xf32>) mean_outs(%{{.*}} : tensor<4xf32>) rstd_outs(%{{.*}} : tensor<4xf32>)
//       CHECK: return %[[F]]#0, %[[F]]#1, %[[F]]#2, %[[F]]#3
func.func @ln_saved_stats(%x: tensor<4x8xf32>, %h: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %se = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{norm.layer_norm fused into 1 consuming matmul(s)}}
  %n, %s, %mu, %r = norm.layer_norm ins(%x : tensor<4x8xf32>) residual(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) sum_outs(%e : tensor<4x8xf32>) mean_outs(%se : tensor<4xf32>) rstd_outs(%se : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c, %s, %mu, %r : tensor<4x2xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// matmul → norm: the fused op returns the rstd of the product's rows.
// CHECK-LABEL: func.func @mm_rms_saved_rstd
//       CHECK: %[[F:.*]]:2 = norm.matmul_rms_norm ins(%{{.*}} : tensor<4x8xf32>) rhs(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) rstd_outs(%{{.*}} : tensor<4xf32>) -> tensor<4x16xf32>, tensor<4xf32>
//       CHECK: return %[[F]]#0, %[[F]]#1
func.func @mm_rms_saved_rstd(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %re = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y, %r = norm.rms_norm ins(%c : tensor<4x16xf32>) outs(%ce : tensor<4x16xf32>) rstd_outs(%re : tensor<4xf32>) -> tensor<4x16xf32>, tensor<4xf32>
  return %y, %r : tensor<4x16xf32>, tensor<4xf32>
}

// -----

// Per head (QK-norm through a reshape): the statistics are per head, which
// the fused op does not return; the norm stays.
// CHECK-LABEL: func.func @per_head_stats
//       CHECK: norm.rms_norm ins
func.func @per_head_stats(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x2x8xf32>, tensor<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %he = tensor.empty() : tensor<4x2x8xf32>
  %re = tensor.empty() : tensor<4x2xf32>
  // expected-remark @+1 {{with a producer: its statistics results are used and the product reaches it through views (per head or reshaped)}}
  %y, %r = norm.rms_norm ins(%h : tensor<4x2x8xf32>) outs(%he : tensor<4x2x8xf32>) rstd_outs(%re : tensor<4x2xf32>) -> tensor<4x2x8xf32>, tensor<4x2xf32>
  return %y, %r : tensor<4x2x8xf32>, tensor<4x2xf32>
}
