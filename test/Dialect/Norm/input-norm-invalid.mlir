// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The verifier rules of the input norm on norm.matmul_rms_norm
// (`input_epsilon`: norm → matmul → norm).

func.func @input_weight_without_epsilon(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %gi: tensor<16xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'input_weight', 'input_weight_offset' and 'input_cast_mode' require 'input_epsilon'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) input_weight(%gi : tensor<16xf32>) outs(%i : tensor<4x24xf32>) -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @cast_mode_without_epsilon(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{require 'input_epsilon'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) {input_cast_mode = #norm.cast_mode<after_weight>} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_weight_shape(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %gi: tensor<24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'input_weight' shape [24] must equal [K] (the input's last dimension) = [16]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) input_weight(%gi : tensor<24xf32>) outs(%i : tensor<4x24xf32>) {input_epsilon = 1.0e-6 : f32} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_weight_type(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %gi: tensor<16xbf16>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'input_weight' element type 'bf16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) input_weight(%gi : tensor<16xbf16>) outs(%i : tensor<4x24xf32>) {input_epsilon = 1.0e-6 : f32} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_epsilon_negative(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'input_epsilon' must be finite and >= 0, got -1.000000e+00 : f32}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) {input_epsilon = -1.0 : f32} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_weight_offset_inf(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'input_weight_offset' must be finite}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) {input_epsilon = 1.0e-6 : f32, input_weight_offset = 0x7F800000 : f32} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_norm_residual(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %r: tensor<4x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{an op with an input norm ('input_epsilon') takes no 'residual'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) residual(%r : tensor<4x24xf32>) outs(%i : tensor<4x24xf32>) {input_epsilon = 1.0e-6 : f32} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @input_norm_rstd(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>, %ri: tensor<4xf32>) -> (tensor<4x24xf32>, tensor<4xf32>) {
  // expected-error @+1 {{an op with an input norm ('input_epsilon') takes no 'rstd_outs'}}
  %y, %r = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) rstd_outs(%ri : tensor<4xf32>) {input_epsilon = 1.0e-6 : f32} -> tensor<4x24xf32>, tensor<4xf32>
  return %y, %r : tensor<4x24xf32>, tensor<4xf32>
}
