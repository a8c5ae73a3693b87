// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The fused ops' statistics outputs: acc_type, one per row, none per head.

func.func @rstd_type(%x: tensor<4x8xbf16>, %w: tensor<8x2xbf16>, %c: tensor<4x2xbf16>, %r: tensor<4xf64>) {
  // expected-error @+1 {{'rstd_outs' element type 'f64' must be the accumulation type 'f32'}}
  %0:2 = norm.rms_norm_matmul ins(%x : tensor<4x8xbf16>) rhs(%w : tensor<8x2xbf16>) outs(%c : tensor<4x2xbf16>) rstd_outs(%r : tensor<4xf64>) -> tensor<4x2xbf16>, tensor<4xf64>
  return
}

// -----

func.func @mean_shape(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %c: tensor<4x2xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{'mean_outs'}}
  %0:2 = norm.layer_norm_matmul ins(%x : tensor<4x8xf32>) rhs(%w : tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) mean_outs(%m : tensor<2xf32>) -> tensor<4x2xf32>, tensor<2xf32>
  return
}

// -----

func.func @rstd_shape_mm(%a: memref<4x8xf32>, %w: memref<8x2xf32>, %y: memref<4x2xf32>, %r: memref<4x2xf32>) {
  // expected-error @+1 {{'rstd_outs'}}
  norm.matmul_rms_norm ins(%a : memref<4x8xf32>) rhs(%w : memref<8x2xf32>) outs(%y : memref<4x2xf32>) rstd_outs(%r : memref<4x2xf32>)
  return
}

// -----

func.func @per_head(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %y: tensor<4x16xf32>, %r: tensor<4xf32>) {
  // expected-error @+1 {{'mean_outs' and 'rstd_outs' are per row; a per-head op ('head_dim') takes none}}
  %0:2 = norm.matmul_layer_norm ins(%a : tensor<4x8xf32>) rhs(%w : tensor<8x16xf32>) outs(%y : tensor<4x16xf32>) rstd_outs(%r : tensor<4xf32>) {head_dim = 8 : i64} -> tensor<4x16xf32>, tensor<4xf32>
  return
}
