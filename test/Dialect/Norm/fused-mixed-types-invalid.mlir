// RUN: norm-opt %s -split-input-file -verify-diagnostics

// What the fused ops still refuse with mixed element types (docs/design.md,
// "Mixed element types"): an output narrower than the input or of another
// type of its width, or wider than acc_type; a matmul bias, residual or sum
// not of the type the op adds them at; γ/β narrower than what they scale,
// or of two types.

func.func @narrower_output(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'outs' element type 'bf16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %c : tensor<4x8xbf16>
}

// -----

func.func @same_width_output(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'outs' element type 'f16' does not match the input element type 'bf16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

func.func @output_wider_than_acc(%a: tensor<4x16xf16>, %w: tensor<16x8xf16>, %e: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'outs' element type 'f64' does not match the input element type 'f16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.matmul_layer_norm ins(%a : tensor<4x16xf16>) rhs(%w : tensor<16x8xf16>) outs(%e : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %y : tensor<4x8xf64>
}

// -----

// With acc_type f64 an f64 output is allowed; its matmul bias is f64 too.
func.func @output_f64_acc(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %mb: tensor<8xf32>, %e: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'matmul_bias' element type 'f32' does not match the output element type 'f64'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) matmul_bias(%mb : tensor<8xf32>) outs(%e : tensor<4x8xf64>) {acc_type = f64} -> tensor<4x8xf64>
  return %y : tensor<4x8xf64>
}

// -----

// The matmul bias is added at the output's type.
func.func @bias_of_input_type(%x: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %mb: tensor<8xbf16>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'matmul_bias' element type 'bf16' does not match the output element type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) matmul_bias(%mb : tensor<8xbf16>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// matmul → norm: the residual is added to S, which has the output's type.
func.func @matmul_norm_residual_of_input_type(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %h: tensor<4x8xbf16>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'residual' element type 'bf16' does not match the output element type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) residual(%h : tensor<4x8xbf16>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @matmul_norm_sum_of_input_type(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %h: tensor<4x8xf32>, %e: tensor<4x8xf32>, %e1: tensor<4x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xbf16>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'sum_outs' element type 'bf16' does not match the output element type 'f32'}}
  %y, %s = norm.matmul_layer_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) residual(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) sum_outs(%e1 : tensor<4x8xbf16>) -> tensor<4x8xf32>, tensor<4x8xbf16>
  return %y, %s : tensor<4x8xf32>, tensor<4x8xbf16>
}

// -----

// matmul → norm: γ scales S (f32 here), so a bf16 γ is narrower.
func.func @matmul_norm_weight_narrower_than_sum(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %g: tensor<8xbf16>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight' element type 'bf16' does not match the output element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @matmul_norm_head_weight(%a: tensor<4x16xbf16>, %w: tensor<16x32xbf16>, %g: tensor<8xbf16>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight' element type 'bf16' does not match the output element type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x32xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// norm → matmul: the residual stream keeps x's type.
func.func @norm_matmul_residual_of_output_type(%x: tensor<4x16xbf16>, %r: tensor<4x16xf32>, %w: tensor<16x8xbf16>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'residual' element type 'f32' does not match the input element type 'bf16'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x16xbf16>) residual(%r : tensor<4x16xf32>) rhs(%w : tensor<16x8xbf16>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

func.func @norm_matmul_weight_wider_than_acc(%x: tensor<4x16xf16>, %g: tensor<16xf64>, %w: tensor<16x8xf16>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'weight' element type 'f64' does not match the input element type 'f16' and is not a wider float type up to the accumulation type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x16xf16>) weight(%g : tensor<16xf64>) rhs(%w : tensor<16x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %c : tensor<4x8xf16>
}

// -----

func.func @norm_matmul_params_differ(%x: tensor<4x16xbf16>, %g: tensor<16xf32>, %b: tensor<16xbf16>, %w: tensor<16x8xbf16>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'bias' element type 'bf16' does not match the 'weight' element type 'f32'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<4x16xbf16>) weight(%g : tensor<16xf32>) bias(%b : tensor<16xbf16>) rhs(%w : tensor<16x8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %c : tensor<4x8xbf16>
}

// -----

// W keeps the input's type, whatever the output's.
func.func @rhs_of_output_type(%a: tensor<4x16xbf16>, %w: tensor<16x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'rhs' element type 'f32' does not match the input element type 'bf16'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
