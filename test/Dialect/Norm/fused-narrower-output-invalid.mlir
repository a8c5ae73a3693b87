// RUN: norm-opt %s -split-input-file -verify-diagnostics

// A matmul → norm op's output narrower than its operands (docs/design.md,
// "Mixed element types in the fused ops"): legal only as bf16 or f16 from
// f32 A and W, with the residual, sum_outs and matmul bias of the output's
// type, γ/β of it or wider, and no input norm. Everything else is refused.

func.func @f64_operands_to_bf16(%a: tensor<4x16xf64>, %w: tensor<16x8xf64>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'outs' element type 'bf16' is narrower than the input element type 'f64': a narrower output is a 16-bit float (bf16 or f16) from f32 operands only}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf64>) rhs(%w : tensor<16x8xf64>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

func.func @f64_operands_to_f32(%a: tensor<4x16xf64>, %w: tensor<16x8xf64>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'outs' element type 'f32' is narrower than the input element type 'f64': a narrower output is a 16-bit float (bf16 or f16) from f32 operands only}}
  %y = norm.matmul_layer_norm ins(%a : tensor<4x16xf64>) rhs(%w : tensor<16x8xf64>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// norm → matmul has no narrower output.
func.func @norm_matmul_to_f16(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'outs' element type 'f16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %c : tensor<4x8xf16>
}

// -----

// The residual is added to S, which has the output's type.
func.func @residual_of_input_type(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %h: tensor<4x8xf32>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'residual' element type 'f32' does not match the output element type 'bf16'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) residual(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

func.func @sum_of_input_type(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %h: tensor<4x8xbf16>, %e: tensor<4x8xbf16>, %e1: tensor<4x8xf32>) -> (tensor<4x8xbf16>, tensor<4x8xf32>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'sum_outs' element type 'f32' does not match the output element type 'bf16'}}
  %y, %s = norm.matmul_layer_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) residual(%h : tensor<4x8xbf16>) outs(%e : tensor<4x8xbf16>) sum_outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xbf16>, tensor<4x8xf32>
  return %y, %s : tensor<4x8xbf16>, tensor<4x8xf32>
}

// -----

// The matmul bias is added at the output's type (an f32 bias would have to
// be added before the rounding).
func.func @bias_of_input_type(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %mb: tensor<8xf32>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'matmul_bias' element type 'f32' does not match the output element type 'f16'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) matmul_bias(%mb : tensor<8xf32>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// γ scales S (bf16): f16 is another 16-bit type.
func.func @weight_of_other_type(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %g: tensor<8xf16>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight' element type 'f16' does not match the output element type 'bf16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) weight(%g : tensor<8xf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// An input norm's S is a norm.rms_norm_matmul's C, never narrower.
func.func @input_norm(%a: tensor<4x16xf32>, %w: tensor<16x32xf32>, %e: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op an op with an input norm ('input_epsilon') has an output of the input's type or a wider one (its S is a norm.rms_norm_matmul's C), got 'bf16' from 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x32xf32>) outs(%e : tensor<4x32xbf16>) {head_dim = 8 : i64, input_epsilon = 1.0e-6 : f64} -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
