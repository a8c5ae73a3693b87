// RUN: norm-opt %s -canonicalize -split-input-file | FileCheck %s

// A splat γ of one with no offset scales by one: it is dropped.
// CHECK-LABEL: func.func @drop_unit_weight
// CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @drop_unit_weight(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = arith.constant dense<1.0> : tensor<8xf32>
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Gemma: a splat γ of zero with weight_offset = 1 also scales by one; the
// offset goes with it.
// CHECK-LABEL: func.func @drop_gemma_zero_weight
// CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>) -> tensor<4x8xbf16>
func.func @drop_gemma_zero_weight(%x: tensor<4x8xbf16>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = arith.constant dense<0.0> : tensor<8xbf16>
  %y = norm.rms_norm ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xbf16>)
      {weight_offset = 1.0 : f32} -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// Not dropped: γ = 1 with a non-zero offset scales by two.
// CHECK-LABEL: func.func @keep_offset_weight
// CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8xf32>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {weight_offset = 1.000000e+00 : f32}
func.func @keep_offset_weight(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = arith.constant dense<1.0> : tensor<8xf32>
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>)
      {weight_offset = 1.0 : f32} -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Not dropped: a non-splat constant γ.
// CHECK-LABEL: func.func @keep_non_splat_weight
// CHECK: weight(%{{.*}} : tensor<2xf32>)
func.func @keep_non_splat_weight(%x: tensor<4x2xf32>, %e: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %g = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = norm.rms_norm ins(%x : tensor<4x2xf32>) weight(%g : tensor<2xf32>) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// LayerNorm: γ = 1 and β = 0 both go.
// CHECK-LABEL: func.func @layer_norm_identity_affine
// CHECK: norm.layer_norm ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @layer_norm_identity_affine(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = arith.constant dense<1.0> : tensor<8xf32>
  %b = arith.constant dense<0.0> : tensor<8xf32>
  %y = norm.layer_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>)
      outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Not dropped: a β that is a splat of a non-zero value.
// CHECK-LABEL: func.func @layer_norm_keep_bias
// CHECK: bias(%{{.*}} : tensor<8xf32>)
func.func @layer_norm_keep_bias(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = arith.constant dense<0.5> : tensor<8xf32>
  %y = norm.layer_norm ins(%x : tensor<4x8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Unused statistics and sums are dropped; used ones stay.
// CHECK-LABEL: func.func @drop_unused_outputs
// CHECK: %[[R:.*]]:2 = norm.layer_norm ins(%{{.*}} : tensor<4x8xf32>) residual(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) rstd_outs(%{{.*}} : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @drop_unused_outputs(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %e: tensor<4x8xf32>, %s: tensor<4x8xf32>,
    %m: tensor<4xf32>, %rs: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %y, %sum, %mean, %rstd = norm.layer_norm ins(%x : tensor<4x8xf32>) residual(%r : tensor<4x8xf32>)
      outs(%e : tensor<4x8xf32>) sum_outs(%s : tensor<4x8xf32>) mean_outs(%m : tensor<4xf32>) rstd_outs(%rs : tensor<4xf32>)
      -> tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return %y, %rstd : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// On memrefs the outputs are observable writes: nothing is dropped.
// CHECK-LABEL: func.func @memref_outputs_stay
// CHECK: norm.rms_norm ins(%{{.*}} : memref<4x8xf32>) outs(%{{.*}} : memref<4x8xf32>) rstd_outs(%{{.*}} : memref<4xf32>)
func.func @memref_outputs_stay(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %rs: memref<4xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) rstd_outs(%rs : memref<4xf32>)
  return
}

// -----

// A norm op on tensors whose results are all unused is dead.
// CHECK-LABEL: func.func @dead_norm
// CHECK-NOT: norm.
func.func @dead_norm(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) {
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Fused ops: unit γ, zero β and zero matmul bias go; an unused pre-norm sum
// too.
// CHECK-LABEL: func.func @fused_cleanup
// CHECK: norm.layer_norm_matmul ins(%{{.*}} : tensor<4x8xf32>) rhs(%{{.*}} : tensor<8x3xf32>) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x8xf32>) rhs(%{{.*}} : tensor<8x3xf32>) residual(%{{.*}} : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @fused_cleanup(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %r: tensor<4x3xf32>, %e: tensor<4x3xf32>,
    %s: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %g = arith.constant dense<1.0> : tensor<8xf32>
  %b = arith.constant dense<0.0> : tensor<8xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %c = norm.layer_norm_matmul ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>)
      rhs(%w : tensor<8x3xf32>) matmul_bias(%mb : tensor<3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y, %sum = norm.matmul_rms_norm ins(%x : tensor<4x8xf32>) rhs(%w : tensor<8x3xf32>) residual(%r : tensor<4x3xf32>)
      outs(%e : tensor<4x3xf32>) sum_outs(%s : tensor<4x3xf32>) -> tensor<4x3xf32>, tensor<4x3xf32>
  return %c, %y : tensor<4x3xf32>, tensor<4x3xf32>
}
