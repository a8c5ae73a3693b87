// RUN: norm-opt %s -split-input-file -verify-diagnostics

// `partial` on norm.rms_norm_matmul is checked as on norm.rms_norm (C3).
func.func @partial_zero(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %e: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'partial' must be in (0, 1], got 0.000000e+00 : f32}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xf32>) rhs(%w : tensor<8x2xf32>) outs(%e : tensor<4x2xf32>) {partial = 0.0 : f32} -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @partial_above_one(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %e: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'partial' must be in (0, 1], got 1.500000e+00 : f64}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xf32>) rhs(%w : tensor<8x2xf32>) outs(%e : tensor<4x2xf32>) {partial = 1.5 : f64} -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @partial_not_float(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %e: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{attribute 'partial' failed to satisfy constraint}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xf32>) rhs(%w : tensor<8x2xf32>) outs(%e : tensor<4x2xf32>) {partial = 1 : i32} -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @cast_mode_not_enum(%x: tensor<4x8xbf16>, %w: tensor<8x2xbf16>, %e: tensor<4x2xbf16>) -> tensor<4x2xbf16> {
  // expected-error @+1 {{attribute 'cast_mode' failed to satisfy constraint}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xbf16>) rhs(%w : tensor<8x2xbf16>) outs(%e : tensor<4x2xbf16>) {cast_mode = 1 : i32} -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}

// -----

func.func @cast_mode_unknown(%x: tensor<4x8xbf16>, %w: tensor<8x2xbf16>, %e: tensor<4x2xbf16>) -> tensor<4x2xbf16> {
  // expected-error @+2 {{expected ::mlir::norm::CastMode to be one of: after_weight, before_weight}}
  // expected-error @+1 {{failed to parse Norm_CastModeAttr parameter 'value'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<4x8xbf16>) rhs(%w : tensor<8x2xbf16>) outs(%e : tensor<4x2xbf16>) {cast_mode = #norm.cast_mode<sideways>} -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}
