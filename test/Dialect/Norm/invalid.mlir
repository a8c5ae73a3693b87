// RUN: norm-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the six norm ops (C1-C5 in NormOps.td), the ODS type
// constraints, the DestinationStyleOpInterface checks and a few parser errors.
// One case per split; each function takes exactly the values it needs.

//===----------------------------------------------------------------------===//
// norm.rms_norm
//===----------------------------------------------------------------------===//

// (C2) axis out of range, positive.
func.func @rms_axis_too_large(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'axis' = 2 is out of range for an input of rank 2 (expected -2 <= axis < 2)}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = 2 : i64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C2) axis out of range, negative.
func.func @rms_axis_too_small(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'axis' = -3 is out of range for an input of rank 2 (expected -2 <= axis < 2)}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = -3 : i64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C2) A huge axis must not overflow anything.
func.func @rms_axis_int64_min(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'axis' = -9223372036854775808 is out of range for an input of rank 2}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = -9223372036854775808 : i64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C2) The axis attribute must be an i64.
func.func @rms_axis_i32(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = 1 : i32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// A rank-0 input has no dimension to normalize.
func.func @rms_rank0(%x: tensor<f32>, %e: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'norm.rms_norm' op input must have rank >= 1}}
  %y = norm.rms_norm ins(%x : tensor<f32>) outs(%e : tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// (C1) outs element type.
func.func @rms_outs_element_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.rms_norm' op 'outs' element type 'f16' does not match the input element type 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf16>) -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C1) outs shape.
func.func @rms_outs_shape(%x: tensor<4x17xf32>, %e: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'outs' shape [4, 16] must equal the input shape [4, 17]}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// (C1) outs rank.
func.func @rms_outs_rank(%x: tensor<4x17xf32>, %e: tensor<68xf32>) -> tensor<68xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'outs' shape [68] must equal the input shape [4, 17]}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<68xf32>) -> tensor<68xf32>
  return %y : tensor<68xf32>
}

// -----

// (C1) outs shape, static against static where the input is partly dynamic.
func.func @rms_outs_shape_dynamic(%x: tensor<?x17xf32>, %e: tensor<?x18xf32>) -> tensor<?x18xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'outs' shape [?, 18] must equal the input shape [?, 17]}}
  %y = norm.rms_norm ins(%x : tensor<?x17xf32>) outs(%e : tensor<?x18xf32>) -> tensor<?x18xf32>
  return %y : tensor<?x18xf32>
}

// -----

// (C1) residual element type.
func.func @rms_residual_element_type(%x: tensor<4x17xf32>, %r: tensor<4x17xbf16>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'residual' element type 'bf16' does not match the input element type 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xbf16>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) residual shape.
func.func @rms_residual_shape(%x: tensor<4x17xf32>, %r: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'residual' shape [17] must equal the input shape [4, 17]}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C5) sum_outs without residual.
func.func @rms_sum_outs_without_residual(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %s: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'sum_outs' requires a 'residual' operand}}
  %y, %sum = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) sum_outs(%s : tensor<4x17xf32>) -> tensor<4x17xf32>, tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) sum_outs shape.
func.func @rms_sum_outs_shape(%x: tensor<4x17xf32>, %r: tensor<4x17xf32>, %e: tensor<4x17xf32>, %s: tensor<4x18xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'sum_outs' shape [4, 18] must equal the input shape [4, 17]}}
  %y, %sum = norm.rms_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) sum_outs(%s : tensor<4x18xf32>) -> tensor<4x17xf32>, tensor<4x18xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) sum_outs element type.
func.func @rms_sum_outs_element_type(%x: tensor<4x17xf32>, %r: tensor<4x17xf32>, %e: tensor<4x17xf32>, %s: tensor<4x17xf64>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'sum_outs' element type 'f64' does not match the input element type 'f32'}}
  %y, %sum = norm.rms_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) sum_outs(%s : tensor<4x17xf64>) -> tensor<4x17xf32>, tensor<4x17xf64>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) weight shape: the normalized dimensions.
func.func @rms_weight_shape(%x: tensor<4x17xf32>, %g: tensor<16xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'weight' shape [16] must equal the normalized dimensions of the input [17]}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) weight shape with a multi-dimensional normalized range (axis = 1).
func.func @rms_weight_shape_axis(%x: tensor<2x3x5xf32>, %g: tensor<5xf32>, %e: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'weight' shape [5] must equal the normalized dimensions of the input [3, 5]}}
  %y = norm.rms_norm ins(%x : tensor<2x3x5xf32>) weight(%g : tensor<5xf32>) outs(%e : tensor<2x3x5xf32>) {axis = 1 : i64} -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// (C1) weight element type.
func.func @rms_weight_element_type(%x: tensor<4x17xf32>, %g: tensor<17xf16>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'weight' element type 'f16' does not match the input element type 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf16>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) The normalized dimensions must not be empty.
func.func @rms_empty_normalized_dim(%x: tensor<4x0xf32>, %e: tensor<4x0xf32>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'norm.rms_norm' op the normalized dimensions must not be empty (dimension 1 has size 0)}}
  %y = norm.rms_norm ins(%x : tensor<4x0xf32>) outs(%e : tensor<4x0xf32>) -> tensor<4x0xf32>
  return %y : tensor<4x0xf32>
}

// -----

// (C1) An empty dimension anywhere in the normalized range (axis = -2).
func.func @rms_empty_normalized_dim_inner(%x: tensor<4x0x3xf32>, %e: tensor<4x0x3xf32>) -> tensor<4x0x3xf32> {
  // expected-error @+1 {{'norm.rms_norm' op the normalized dimensions must not be empty (dimension 1 has size 0)}}
  %y = norm.rms_norm ins(%x : tensor<4x0x3xf32>) outs(%e : tensor<4x0x3xf32>) {axis = -2 : i64} -> tensor<4x0x3xf32>
  return %y : tensor<4x0x3xf32>
}

// -----

// (C4) rstd_outs element type must be the accumulation type (f32 by default).
func.func @rms_rstd_element_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %re: tensor<4xf64>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' element type 'f64' must be the accumulation type 'f32'}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) rstd_outs(%re : tensor<4xf64>) -> tensor<4x17xf32>, tensor<4xf64>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) rstd_outs element type follows acc_type.
func.func @rms_rstd_element_type_acc(%x: tensor<4x17xf16>, %e: tensor<4x17xf16>, %re: tensor<4xf32>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' element type 'f32' must be the accumulation type 'f64'}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf16>) outs(%e : tensor<4x17xf16>) rstd_outs(%re : tensor<4xf32>) {acc_type = f64} -> tensor<4x17xf16>, tensor<4xf32>
  return %y : tensor<4x17xf16>
}

// -----

// (C4) rstd_outs element type: f64 data accumulates in f64 by default.
func.func @rms_rstd_element_type_f64(%x: tensor<4x17xf64>, %e: tensor<4x17xf64>, %re: tensor<4xf32>) -> tensor<4x17xf64> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' element type 'f32' must be the accumulation type 'f64'}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf64>) outs(%e : tensor<4x17xf64>) rstd_outs(%re : tensor<4xf32>) -> tensor<4x17xf64>, tensor<4xf32>
  return %y : tensor<4x17xf64>
}

// -----

// (C4) Statistics can never be f16 (ODS constraint).
func.func @rms_rstd_f16(%x: tensor<4x17xf16>, %e: tensor<4x17xf16>, %re: tensor<4xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.rms_norm' op operand #2 must be ranked tensor or memref of f32 or f64 values, but got 'tensor<4xf16>'}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf16>) outs(%e : tensor<4x17xf16>) rstd_outs(%re : tensor<4xf16>) -> tensor<4x17xf16>, tensor<4xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C4) rstd_outs shape: the non-normalized dimensions.
func.func @rms_rstd_shape(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %re: tensor<5xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' shape [5] must equal the non-normalized dimensions of the input [4]}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) rstd_outs(%re : tensor<5xf32>) -> tensor<4x17xf32>, tensor<5xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) rstd_outs shape with keepdim-style unit dimensions is not accepted.
func.func @rms_rstd_shape_keepdim(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %re: tensor<4x1xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' shape [4, 1] must equal the non-normalized dimensions of the input [4]}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) rstd_outs(%re : tensor<4x1xf32>) -> tensor<4x17xf32>, tensor<4x1xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) rstd_outs shape for a 1-D input: rank 0.
func.func @rms_rstd_shape_rank1(%x: tensor<17xf32>, %e: tensor<17xf32>, %re: tensor<1xf32>) -> tensor<17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'rstd_outs' shape [1] must equal the non-normalized dimensions of the input []}}
  %y, %rstd = norm.rms_norm ins(%x : tensor<17xf32>) outs(%e : tensor<17xf32>) rstd_outs(%re : tensor<1xf32>) -> tensor<17xf32>, tensor<1xf32>
  return %y : tensor<17xf32>
}

// -----

// (C3) epsilon negative.
func.func @rms_epsilon_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'epsilon' must be finite and >= 0, got -5.000000e-01 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = -0.5 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon NaN.
func.func @rms_epsilon_nan(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'epsilon' must be finite and >= 0, got 0x7FC00000 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0x7FC00000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon +inf (f64).
func.func @rms_epsilon_inf(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'epsilon' must be finite and >= 0, got 0x7FF0000000000000 : f64}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0x7FF0000000000000 : f64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon -0.0 is >= 0; -inf is not.
func.func @rms_epsilon_neg_inf(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'epsilon' must be finite and >= 0, got 0xFF800000 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0xFF800000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon must be an f32 or f64 attribute.
func.func @rms_epsilon_string(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute or 64-bit float attribute}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = "1e-5"} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon must be an f32 or f64 attribute, not f16.
func.func @rms_epsilon_f16(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute or 64-bit float attribute}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 1.0e-05 : f16} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) weight_offset inf.
func.func @rms_weight_offset_inf(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'weight_offset' must be finite, got 0x7F800000 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {weight_offset = 0x7F800000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) weight_offset NaN.
func.func @rms_weight_offset_nan(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'weight_offset' must be finite, got 0x7FF8000000000000 : f64}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {weight_offset = 0x7FF8000000000000 : f64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) partial = 0.
func.func @rms_partial_zero(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'partial' must be in (0, 1], got 0.000000e+00 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = 0.0 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) partial > 1.
func.func @rms_partial_above_one(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'partial' must be in (0, 1], got 1.500000e+00 : f64}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = 1.5 : f64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) partial negative.
func.func @rms_partial_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'partial' must be in (0, 1], got -2.500000e-01 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = -0.25 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) partial NaN.
func.func @rms_partial_nan(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'partial' must be in (0, 1], got 0x7FC00000 : f32}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = 0x7FC00000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) partial must be a float attribute.
func.func @rms_partial_integer(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'partial' failed to satisfy constraint: 32-bit float attribute or 64-bit float attribute}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = 1 : i64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) acc_type f16.
func.func @rms_acc_type_f16(%x: tensor<4x17xf16>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.rms_norm' op 'acc_type' must be f32 or f64, got 'f16'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf16>) outs(%e : tensor<4x17xf16>) {acc_type = f16} -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C4) acc_type bf16.
func.func @rms_acc_type_bf16(%x: tensor<4x17xbf16>, %e: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
  // expected-error @+1 {{'norm.rms_norm' op 'acc_type' must be f32 or f64, got 'bf16'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xbf16>) outs(%e : tensor<4x17xbf16>) {acc_type = bf16} -> tensor<4x17xbf16>
  return %y : tensor<4x17xbf16>
}

// -----

// (C4) acc_type tf32 is a float type, but not an accumulation type.
func.func @rms_acc_type_tf32(%x: tensor<4x17xf16>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.rms_norm' op 'acc_type' must be f32 or f64, got 'tf32'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf16>) outs(%e : tensor<4x17xf16>) {acc_type = tf32} -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C4) acc_type narrower than the element type.
func.func @rms_acc_type_narrow(%x: tensor<4x17xf64>, %e: tensor<4x17xf64>) -> tensor<4x17xf64> {
  // expected-error @+1 {{'norm.rms_norm' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf64>) outs(%e : tensor<4x17xf64>) {acc_type = f32} -> tensor<4x17xf64>
  return %y : tensor<4x17xf64>
}

// -----

// (C4) acc_type must be a float type (ODS constraint).
func.func @rms_acc_type_i32(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {acc_type = i32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) acc_type must be a type attribute.
func.func @rms_acc_type_not_a_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {acc_type = 1.0 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @rms_mixed_kinds(%x: tensor<4x17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op operands must be all tensors or all memrefs; operand #1 is 'memref<4x17xf32>'}}
  norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : memref<4x17xf32>)
  return
}

// -----

// (C5) Tensors and memrefs are not mixed: a memref statistic on a tensor op.
func.func @rms_mixed_kinds_stat(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %re: memref<4xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op operands must be all tensors or all memrefs; operand #2 is 'memref<4xf32>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) rstd_outs(%re : memref<4xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C5) Tensors and memrefs are not mixed: a memref input with tensor outs.
func.func @rms_mixed_kinds_input(%x: memref<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op operands must be all tensors or all memrefs; operand #1 is 'tensor<4x17xf32>'}}
  %y = norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// DPS: the memref form has no results.
func.func @rms_memref_with_result(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %y = norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) -> tensor<4x17xf32>
  return
}

// -----

// DPS: the tensor form returns one result per outs operand.
func.func @rms_tensor_without_result(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>)
  return
}

// -----

// DPS: too many results.
func.func @rms_tensor_extra_result(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op expected the number of tensor results (2) to be equal to the number of output tensors (1)}}
  %y:2 = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>, tensor<4x17xf32>
  return %y#0 : tensor<4x17xf32>
}

// -----

// DPS: too few results for outs + rstd_outs.
func.func @rms_tensor_missing_stat_result(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %re: tensor<4xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (2)}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) rstd_outs(%re : tensor<4xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// DPS: each result has the type of its outs operand.
func.func @rms_tensor_result_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'norm.rms_norm' op expected type of operand #1 ('tensor<4x17xf32>') to match type of corresponding result ('tensor<4x16xf32>')}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// DPS: a result may not be more dynamic than its outs operand.
func.func @rms_tensor_result_dynamic(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<?x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op expected type of operand #1 ('tensor<4x17xf32>') to match type of corresponding result ('tensor<?x17xf32>')}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<?x17xf32>
  return %y : tensor<?x17xf32>
}

// -----

// Results are tensors (ODS constraint).
func.func @rms_memref_result(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<4x17xf32>'}}
  %y = norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) -> memref<4x17xf32>
  return
}

// -----

// Unsupported element type: integers.
func.func @rms_i32(%x: tensor<4x17xi32>, %e: tensor<4x17xi32>) -> tensor<4x17xi32> {
  // expected-error @+1 {{'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<4x17xi32>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xi32>) outs(%e : tensor<4x17xi32>) -> tensor<4x17xi32>
  return %y : tensor<4x17xi32>
}

// -----

// Unsupported element type: fp8.
func.func @rms_f8(%x: tensor<4x17xf8E4M3FN>, %e: tensor<4x17xf8E4M3FN>) -> tensor<4x17xf8E4M3FN> {
  // expected-error @+1 {{'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<4x17xf8E4M3FN>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf8E4M3FN>) outs(%e : tensor<4x17xf8E4M3FN>) -> tensor<4x17xf8E4M3FN>
  return %y : tensor<4x17xf8E4M3FN>
}

// -----

// Unsupported element type: complex.
func.func @rms_complex(%x: tensor<4x17xcomplex<f32>>, %e: tensor<4x17xcomplex<f32>>) -> tensor<4x17xcomplex<f32>> {
  // expected-error @+1 {{'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<4x17xcomplex<f32>>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xcomplex<f32>>) outs(%e : tensor<4x17xcomplex<f32>>) -> tensor<4x17xcomplex<f32>>
  return %y : tensor<4x17xcomplex<f32>>
}

// -----

// Unsupported element type on an optional operand.
func.func @rms_weight_i8(%x: tensor<4x17xf32>, %g: tensor<17xi8>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op operand #1 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<17xi8>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xi8>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Unranked tensors are not accepted.
func.func @rms_unranked(%x: tensor<*xf32>, %e: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<*xf32>'}}
  %y = norm.rms_norm ins(%x : tensor<*xf32>) outs(%e : tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Unranked memrefs are not accepted.
func.func @rms_unranked_memref(%x: memref<*xf32>, %e: memref<*xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'memref<*xf32>'}}
  norm.rms_norm ins(%x : memref<*xf32>) outs(%e : memref<*xf32>)
  return
}

// -----

// Parser: bad cast_mode enum value.
func.func @rms_bad_cast_mode(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+2 {{expected ::mlir::norm::CastMode to be one of: after_weight, before_weight}}
  // expected-error @+1 {{failed to parse Norm_CastModeAttr parameter 'value' which is to be a `::mlir::norm::CastMode`}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {cast_mode = #norm.cast_mode<llama>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: bad eps_mode enum value.
func.func @rms_bad_eps_mode(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+2 {{expected ::mlir::norm::EpsMode to be one of: inside_sqrt, outside_sqrt}}
  // expected-error @+1 {{failed to parse Norm_EpsModeAttr parameter 'value' which is to be a `::mlir::norm::EpsMode`}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {eps_mode = #norm.eps_mode<inside>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// cast_mode of the wrong attribute kind.
func.func @rms_cast_mode_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op attribute 'cast_mode' failed to satisfy constraint}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {cast_mode = #norm.eps_mode<inside_sqrt>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: unknown clause keyword.
func.func @rms_unknown_clause(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{custom op 'norm.rms_norm' expected 'outs'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) gamma(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: clauses in the wrong order (weight before residual).
func.func @rms_clause_order(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{custom op 'norm.rms_norm' expected 'outs'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>) residual(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: bias is a layer_norm clause only.
func.func @rms_bias_clause(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{custom op 'norm.rms_norm' expected 'outs'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) bias(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: mean_outs is a layer_norm clause only. (Memref form: on tensors the
// op would end before the clause and the error would be about result names.)
func.func @rms_mean_outs_clause(%x: memref<4x17xf32>, %e: memref<4x17xf32>, %m: memref<4xf32>) {
  // expected-error @+1 {{custom op 'mean_outs' is unknown}}
  norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) mean_outs(%m : memref<4xf32>)
  return
}

// -----

// The memref form checks the same rules (here: weight shape).
func.func @rms_memref_weight_shape(%x: memref<?x17xf16>, %g: memref<?x17xf16>, %e: memref<?x17xf16>) {
  // expected-error @+1 {{'norm.rms_norm' op 'weight' shape [?, 17] must equal the normalized dimensions of the input [17]}}
  norm.rms_norm ins(%x : memref<?x17xf16>) weight(%g : memref<?x17xf16>) outs(%e : memref<?x17xf16>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// norm.layer_norm
//===----------------------------------------------------------------------===//

// (C2) axis out of range, positive.
func.func @ln_axis_too_large(%x: tensor<2x3x5xf32>, %e: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'axis' = 3 is out of range for an input of rank 3 (expected -3 <= axis < 3)}}
  %y = norm.layer_norm ins(%x : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {axis = 3 : i64} -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// (C2) axis out of range, negative.
func.func @ln_axis_too_small(%x: tensor<2x3x5xf32>, %e: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'axis' = -4 is out of range for an input of rank 3 (expected -3 <= axis < 3)}}
  %y = norm.layer_norm ins(%x : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {axis = -4 : i64} -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// A rank-0 input.
func.func @ln_rank0(%x: memref<f32>, %e: memref<f32>) {
  // expected-error @+1 {{'norm.layer_norm' op input must have rank >= 1}}
  norm.layer_norm ins(%x : memref<f32>) outs(%e : memref<f32>)
  return
}

// -----

// (C1) outs element type: as wide as x but another type.
func.func @ln_outs_element_type(%x: tensor<4x17xbf16>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.layer_norm' op 'outs' element type 'f16' does not match the input element type 'bf16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xbf16>) outs(%e : tensor<4x17xf16>) -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C1) outs shape.
func.func @ln_outs_shape(%x: tensor<4x17xf32>, %e: tensor<3x17xf32>) -> tensor<3x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'outs' shape [3, 17] must equal the input shape [4, 17]}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<3x17xf32>) -> tensor<3x17xf32>
  return %y : tensor<3x17xf32>
}

// -----

// (C1) residual element type.
func.func @ln_residual_element_type(%x: tensor<4x17xf32>, %r: tensor<4x17xf64>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'residual' element type 'f64' does not match the input element type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xf64>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) residual shape.
func.func @ln_residual_shape(%x: tensor<4x17xf32>, %r: tensor<4x1xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'residual' shape [4, 1] must equal the input shape [4, 17]}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x1xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C5) sum_outs without residual.
func.func @ln_sum_outs_without_residual(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %s: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'sum_outs' requires a 'residual' operand}}
  %y, %sum = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) sum_outs(%s : tensor<4x17xf32>) -> tensor<4x17xf32>, tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) sum_outs shape.
func.func @ln_sum_outs_shape(%x: memref<4x17xf32>, %r: memref<4x17xf32>, %e: memref<4x17xf32>, %s: memref<17xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op 'sum_outs' shape [17] must equal the input shape [4, 17]}}
  norm.layer_norm ins(%x : memref<4x17xf32>) residual(%r : memref<4x17xf32>) outs(%e : memref<4x17xf32>) sum_outs(%s : memref<17xf32>)
  return
}

// -----

// (C1) weight shape.
func.func @ln_weight_shape(%x: tensor<4x17xf32>, %g: tensor<4xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'weight' shape [4] must equal the normalized dimensions of the input [17]}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) weight element type: wider than x but wider than acc_type too.
func.func @ln_weight_element_type(%x: tensor<4x17xf16>, %g: tensor<17xf64>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.layer_norm' op 'weight' element type 'f64' does not match the input element type 'f16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf16>) weight(%g : tensor<17xf64>) outs(%e : tensor<4x17xf16>) -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C1) γ and β share one element type.
func.func @ln_weight_bias_element_types(%x: tensor<4x17xbf16>, %g: tensor<17xf32>, %b: tensor<17xbf16>, %e: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
  // expected-error @+1 {{'norm.layer_norm' op 'bias' element type 'bf16' does not match the 'weight' element type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xbf16>) weight(%g : tensor<17xf32>) bias(%b : tensor<17xbf16>) outs(%e : tensor<4x17xbf16>) -> tensor<4x17xbf16>
  return %y : tensor<4x17xbf16>
}

// -----

// (C1) β narrower than x.
func.func @ln_bias_narrower(%x: tensor<4x17xf32>, %b: tensor<17xf16>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'bias' element type 'f16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) bias(%b : tensor<17xf16>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) a wider result is still checked against acc_type.
func.func @rms_outs_wider_than_acc(%x: tensor<4x17xbf16>, %e: tensor<4x17xf64>) -> tensor<4x17xf64> {
  // expected-error @+1 {{'norm.rms_norm' op 'outs' element type 'f64' does not match the input element type 'bf16' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xbf16>) outs(%e : tensor<4x17xf64>) -> tensor<4x17xf64>
  return %y : tensor<4x17xf64>
}

// -----

// (C1) the residual and sum stay in x's type (the residual stream).
func.func @rms_residual_wider(%x: tensor<4x17xbf16>, %r: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.rms_norm' op 'residual' element type 'f32' does not match the input element type 'bf16'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xbf16>) residual(%r : tensor<4x17xf32>) weight(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) the fused ops take γ of x's type or wider, not another 16-bit type
// (f32 γ with bf16 x: fused-mixed-types.mlir).
func.func @rms_matmul_other_weight(%x: tensor<4x16xbf16>, %g: tensor<16xf16>, %w: tensor<16x8xbf16>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'weight' element type 'f16' does not match the input element type 'bf16'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<4x16xbf16>) weight(%g : tensor<16xf16>) rhs(%w : tensor<16x8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %c : tensor<4x8xbf16>
}

// -----

// (C1) bias shape.
func.func @ln_bias_shape(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %b: tensor<1xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'bias' shape [1] must equal the normalized dimensions of the input [17]}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>) bias(%b : tensor<1xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) bias shape without a weight.
func.func @ln_bias_shape_no_weight(%x: tensor<2x3x5xf32>, %b: tensor<5xf32>, %e: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'bias' shape [5] must equal the normalized dimensions of the input [3, 5]}}
  %y = norm.layer_norm ins(%x : tensor<2x3x5xf32>) bias(%b : tensor<5xf32>) outs(%e : tensor<2x3x5xf32>) {axis = -2 : i64} -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// (C1) bias element type.
func.func @ln_bias_element_type(%x: tensor<4x17xf32>, %b: tensor<17xbf16>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'bias' element type 'bf16' does not match the input element type 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) bias(%b : tensor<17xbf16>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C1) Empty normalized dimension.
func.func @ln_empty_normalized_dim(%x: tensor<4x0xf32>, %e: tensor<4x0xf32>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'norm.layer_norm' op the normalized dimensions must not be empty (dimension 1 has size 0)}}
  %y = norm.layer_norm ins(%x : tensor<4x0xf32>) outs(%e : tensor<4x0xf32>) -> tensor<4x0xf32>
  return %y : tensor<4x0xf32>
}

// -----

// (C4) mean_outs element type.
func.func @ln_mean_element_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<4xf64>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'mean_outs' element type 'f64' must be the accumulation type 'f32'}}
  %y, %mean = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<4xf64>) -> tensor<4x17xf32>, tensor<4xf64>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) mean_outs shape.
func.func @ln_mean_shape(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'mean_outs' shape [17] must equal the non-normalized dimensions of the input [4]}}
  %y, %mean = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<17xf32>) -> tensor<4x17xf32>, tensor<17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) rstd_outs element type.
func.func @ln_rstd_element_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<4xf64>, %re: tensor<4xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'rstd_outs' element type 'f32' must be the accumulation type 'f64'}}
  %y, %mean, %rstd = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<4xf64>) rstd_outs(%re : tensor<4xf32>) {acc_type = f64} -> tensor<4x17xf32>, tensor<4xf64>, tensor<4xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) rstd_outs shape.
func.func @ln_rstd_shape(%x: tensor<2x3x5xf32>, %e: tensor<2x3x5xf32>, %m: tensor<2xf32>, %re: tensor<2x3xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'rstd_outs' shape [2, 3] must equal the non-normalized dimensions of the input [2]}}
  %y, %mean, %rstd = norm.layer_norm ins(%x : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) mean_outs(%m : tensor<2xf32>) rstd_outs(%re : tensor<2x3xf32>) {axis = 1 : i64} -> tensor<2x3x5xf32>, tensor<2xf32>, tensor<2x3xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// (C3) epsilon negative.
func.func @ln_epsilon_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'epsilon' must be finite and >= 0, got -1.000000e+00 : f64}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = -1.0 : f64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon NaN.
func.func @ln_epsilon_nan(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'epsilon' must be finite and >= 0, got 0x7FC00000 : f32}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0x7FC00000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) epsilon inf.
func.func @ln_epsilon_inf(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'epsilon' must be finite and >= 0, got 0x7F800000 : f32}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0x7F800000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C3) weight_offset inf.
func.func @ln_weight_offset_inf(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op 'weight_offset' must be finite, got 0xFF800000 : f32}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {weight_offset = 0xFF800000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C4) acc_type f16.
func.func @ln_acc_type_f16(%x: tensor<4x17xf16>, %e: tensor<4x17xf16>) -> tensor<4x17xf16> {
  // expected-error @+1 {{'norm.layer_norm' op 'acc_type' must be f32 or f64, got 'f16'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf16>) outs(%e : tensor<4x17xf16>) {acc_type = f16} -> tensor<4x17xf16>
  return %y : tensor<4x17xf16>
}

// -----

// (C4) acc_type narrower than the element type.
func.func @ln_acc_type_narrow(%x: tensor<4x17xf64>, %e: tensor<4x17xf64>) -> tensor<4x17xf64> {
  // expected-error @+1 {{'norm.layer_norm' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf64>) outs(%e : tensor<4x17xf64>) {acc_type = f32} -> tensor<4x17xf64>
  return %y : tensor<4x17xf64>
}

// -----

// (C4) acc_type non-float.
func.func @ln_acc_type_index(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {acc_type = index} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @ln_mixed_kinds(%x: memref<4x17xf32>, %g: tensor<17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op operands must be all tensors or all memrefs; operand #1 is 'tensor<17xf32>'}}
  norm.layer_norm ins(%x : memref<4x17xf32>) weight(%g : tensor<17xf32>) outs(%e : memref<4x17xf32>)
  return
}

// -----

// DPS: the memref form has no results.
func.func @ln_memref_with_result(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %y = norm.layer_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) -> tensor<4x17xf32>
  return
}

// -----

// DPS: one result per outs operand.
func.func @ln_tensor_result_count(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<4xf32>, %re: tensor<4xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op expected the number of tensor results (2) to be equal to the number of output tensors (3)}}
  %y, %mean = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<4xf32>) rstd_outs(%re : tensor<4xf32>) -> tensor<4x17xf32>, tensor<4xf32>
  return %y : tensor<4x17xf32>
}

// -----

// DPS: result types follow the outs operands, in order.
func.func @ln_tensor_result_order(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<4xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{'norm.layer_norm' op expected type of operand #1 ('tensor<4x17xf32>') to match type of corresponding result ('tensor<4xf32>')}}
  %mean, %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<4xf32>) -> tensor<4xf32>, tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Unsupported element type.
func.func @ln_i32(%x: memref<4x17xi32>, %e: memref<4x17xi32>) {
  // expected-error @+1 {{'norm.layer_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'memref<4x17xi32>'}}
  norm.layer_norm ins(%x : memref<4x17xi32>) outs(%e : memref<4x17xi32>)
  return
}

// -----

// Unsupported element type: fp8.
func.func @ln_f8(%x: tensor<4x17xf8E5M2>, %e: tensor<4x17xf8E5M2>) -> tensor<4x17xf8E5M2> {
  // expected-error @+1 {{'norm.layer_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<4x17xf8E5M2>'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf8E5M2>) outs(%e : tensor<4x17xf8E5M2>) -> tensor<4x17xf8E5M2>
  return %y : tensor<4x17xf8E5M2>
}

// -----

// Parser: bad eps_mode enum value.
func.func @ln_bad_eps_mode(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+2 {{expected ::mlir::norm::EpsMode to be one of: inside_sqrt, outside_sqrt}}
  // expected-error @+1 {{failed to parse Norm_EpsModeAttr parameter 'value' which is to be a `::mlir::norm::EpsMode`}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {eps_mode = #norm.eps_mode<outside>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: bad cast_mode enum value.
func.func @ln_bad_cast_mode(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+2 {{expected ::mlir::norm::CastMode to be one of: after_weight, before_weight}}
  // expected-error @+1 {{failed to parse Norm_CastModeAttr parameter 'value' which is to be a `::mlir::norm::CastMode`}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {cast_mode = #norm.cast_mode<gemma>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: clauses in the wrong order (bias before weight).
func.func @ln_clause_order(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // expected-error @+1 {{custom op 'norm.layer_norm' expected 'outs'}}
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) bias(%g : tensor<17xf32>) weight(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// Parser: statistics clauses in the wrong order (rstd_outs before mean_outs).
func.func @ln_stat_clause_order(%x: memref<4x17xf32>, %e: memref<4x17xf32>, %m: memref<4xf32>) {
  // expected-error @+1 {{custom op 'mean_outs' is unknown}}
  norm.layer_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) rstd_outs(%m : memref<4xf32>) mean_outs(%m : memref<4xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// norm.rms_norm_matmul
//===----------------------------------------------------------------------===//

// rhs must be 2-D (rank 1).
func.func @rmsmm_rhs_rank1(%x: tensor<8x33xf32>, %w: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 1}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// rhs must be 2-D (rank 3).
func.func @rmsmm_rhs_rank3(%x: tensor<8x33xf32>, %w: tensor<2x33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 3}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<2x33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// rhs must be 2-D (rank 0).
func.func @rmsmm_rhs_rank0(%x: tensor<8x33xf32>, %w: tensor<f32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 0}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<f32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// K mismatch, W as K x N.
func.func @rmsmm_k_mismatch(%x: tensor<8x33xf32>, %w: tensor<32x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op contraction size mismatch: the input has K = 33 but 'rhs' dimension 0 has size 32}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<32x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// K mismatch, W as N x K (transpose_rhs): a K x N rhs is wrong.
func.func @rmsmm_k_mismatch_transposed(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op contraction size mismatch: the input has K = 33 but 'rhs' dimension 1 has size 20 (transpose_rhs)}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// rhs element type.
func.func @rmsmm_rhs_element_type(%x: tensor<8x33xbf16>, %w: tensor<33x20xf32>, %e: tensor<8x20xbf16>) -> tensor<8x20xbf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'rhs' element type 'f32' does not match the input element type 'bf16'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xbf16>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xbf16>) -> tensor<8x20xbf16>
  return %c : tensor<8x20xbf16>
}

// -----

// outs shape: [..., N].
func.func @rmsmm_outs_shape(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x33xf32>) -> tensor<8x33xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'outs' shape [8, 33] must equal the input's leading dimensions and N: [8, 20]}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x33xf32>) -> tensor<8x33xf32>
  return %c : tensor<8x33xf32>
}

// -----

// outs shape: the leading dimensions of the input.
func.func @rmsmm_outs_leading(%x: tensor<2x8x33xf32>, %w: tensor<20x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'outs' shape [8, 20] must equal the input's leading dimensions and N: [2, 8, 20]}}
  %c = norm.rms_norm_matmul ins(%x : tensor<2x8x33xf32>) rhs(%w : tensor<20x33xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// outs element type.
func.func @rmsmm_outs_element_type(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf16>) -> tensor<8x20xf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'outs' element type 'f16' does not match the input element type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf16>) -> tensor<8x20xf16>
  return %c : tensor<8x20xf16>
}

// -----

// matmul_bias shape: [N].
func.func @rmsmm_matmul_bias_shape(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %mb: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'matmul_bias' shape [33] must equal [N] = [20]}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) matmul_bias(%mb : tensor<33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// matmul_bias element type.
func.func @rmsmm_matmul_bias_element_type(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %mb: tensor<20xf64>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'matmul_bias' element type 'f64' does not match the input element type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) matmul_bias(%mb : tensor<20xf64>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// weight shape: [K], not [N].
func.func @rmsmm_weight_shape(%x: tensor<8x33xf32>, %g: tensor<20xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'weight' shape [20] must equal [K] (the input's last dimension) = [33]}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<20xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// weight element type.
func.func @rmsmm_weight_element_type(%x: tensor<8x33xf32>, %g: tensor<33xf16>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'weight' element type 'f16' does not match the input element type 'f32'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<33xf16>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// A rank-0 input.
func.func @rmsmm_rank0(%x: tensor<f32>, %w: tensor<1x20xf32>, %e: tensor<20xf32>) -> tensor<20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op input must have rank >= 1}}
  %c = norm.rms_norm_matmul ins(%x : tensor<f32>) rhs(%w : tensor<1x20xf32>) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  return %c : tensor<20xf32>
}

// -----

// (C3) epsilon NaN.
func.func @rmsmm_epsilon_nan(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'epsilon' must be finite and >= 0, got 0x7FF8000000000000 : f64}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {epsilon = 0x7FF8000000000000 : f64} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C3) epsilon negative.
func.func @rmsmm_epsilon_negative(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'epsilon' must be finite and >= 0, got -2.500000e-01 : f32}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {epsilon = -0.25 : f32} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C3) weight_offset inf.
func.func @rmsmm_weight_offset_inf(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'weight_offset' must be finite, got 0x7F800000 : f32}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {weight_offset = 0x7F800000 : f32} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C4) acc_type f16.
func.func @rmsmm_acc_type_f16(%x: tensor<8x33xf16>, %w: tensor<33x20xf16>, %e: tensor<8x20xf16>) -> tensor<8x20xf16> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'acc_type' must be f32 or f64, got 'f16'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf16>) rhs(%w : tensor<33x20xf16>) outs(%e : tensor<8x20xf16>) {acc_type = f16} -> tensor<8x20xf16>
  return %c : tensor<8x20xf16>
}

// -----

// (C4) acc_type narrower than the element type.
func.func @rmsmm_acc_type_narrow(%x: tensor<8x33xf64>, %w: tensor<33x20xf64>, %e: tensor<8x20xf64>) -> tensor<8x20xf64> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf64>) rhs(%w : tensor<33x20xf64>) outs(%e : tensor<8x20xf64>) {acc_type = f32} -> tensor<8x20xf64>
  return %c : tensor<8x20xf64>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @rmsmm_mixed_kinds(%x: tensor<8x33xf32>, %w: memref<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op operands must be all tensors or all memrefs; operand #1 is 'memref<33x20xf32>'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : memref<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// DPS: the memref form has no results.
func.func @rmsmm_memref_with_result(%x: memref<8x33xf32>, %w: memref<33x20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %c = norm.rms_norm_matmul ins(%x : memref<8x33xf32>) rhs(%w : memref<33x20xf32>) outs(%e : memref<8x20xf32>) -> tensor<8x20xf32>
  return
}

// -----

// DPS: the tensor form needs its result.
func.func @rmsmm_tensor_without_result(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>)
  return
}

// -----

// Unsupported element type.
func.func @rmsmm_i8(%x: tensor<8x33xi8>, %w: tensor<33x20xi8>, %e: tensor<8x20xi8>) -> tensor<8x20xi8> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<8x33xi8>'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xi8>) rhs(%w : tensor<33x20xi8>) outs(%e : tensor<8x20xi8>) -> tensor<8x20xi8>
  return %c : tensor<8x20xi8>
}

// -----

// Parser: bad eps_mode enum value.
func.func @rmsmm_bad_eps_mode(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+2 {{expected ::mlir::norm::EpsMode to be one of: inside_sqrt, outside_sqrt}}
  // expected-error @+1 {{failed to parse Norm_EpsModeAttr parameter 'value' which is to be a `::mlir::norm::EpsMode`}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {eps_mode = #norm.eps_mode<sqrt>} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// Parser: rhs is required.
func.func @rmsmm_missing_rhs(%x: tensor<8x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{custom op 'norm.rms_norm_matmul' expected 'rhs'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// Parser: a clause out of place (the residual comes right after ins).
func.func @rmsmm_unknown_clause(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{custom op 'norm.rms_norm_matmul' expected 'outs'}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) residual(%x : tensor<8x33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// norm → matmul with a residual: sum_outs needs the residual; both have the
// input's shape and element type.
func.func @rmsmm_sum_without_residual(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>, %s: tensor<8x33xf32>) -> (tensor<8x20xf32>, tensor<8x33xf32>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'sum_outs' requires a 'residual' operand}}
  %c:2 = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) sum_outs(%s : tensor<8x33xf32>) -> tensor<8x20xf32>, tensor<8x33xf32>
  return %c#0, %c#1 : tensor<8x20xf32>, tensor<8x33xf32>
}

// -----

func.func @rmsmm_residual_shape(%x: tensor<8x33xf32>, %r: tensor<8x20xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op 'residual' shape [8, 20] must equal the input shape [8, 33]}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) residual(%r : tensor<8x20xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @lnmm_residual_type(%x: tensor<8x33xbf16>, %r: tensor<8x33xf32>, %w: tensor<33x20xbf16>, %e: tensor<8x20xbf16>) -> tensor<8x20xbf16> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'residual' element type 'f32' does not match the input element type 'bf16'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xbf16>) residual(%r : tensor<8x33xf32>) rhs(%w : tensor<33x20xbf16>) outs(%e : tensor<8x20xbf16>) -> tensor<8x20xbf16>
  return %c : tensor<8x20xbf16>
}

// -----

func.func @lnmm_sum_shape(%x: memref<8x33xf32>, %r: memref<8x33xf32>, %w: memref<33x20xf32>, %e: memref<8x20xf32>, %s: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'sum_outs' shape [8, 20] must equal the input shape [8, 33]}}
  norm.layer_norm_matmul ins(%x : memref<8x33xf32>) residual(%r : memref<8x33xf32>) rhs(%w : memref<33x20xf32>) outs(%e : memref<8x20xf32>) sum_outs(%s : memref<8x20xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// norm.layer_norm_matmul
//===----------------------------------------------------------------------===//

// rhs must be 2-D.
func.func @lnmm_rhs_rank1(%x: memref<8x33xf32>, %w: memref<33xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 1}}
  norm.layer_norm_matmul ins(%x : memref<8x33xf32>) rhs(%w : memref<33xf32>) outs(%e : memref<8x20xf32>)
  return
}

// -----

// K mismatch without transpose_rhs: an N x K rhs is wrong.
func.func @lnmm_k_mismatch(%x: tensor<8x33xf32>, %w: tensor<20x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op contraction size mismatch: the input has K = 33 but 'rhs' dimension 0 has size 20}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<20x33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// K mismatch with transpose_rhs.
func.func @lnmm_k_mismatch_transposed(%x: tensor<8x33xf32>, %w: tensor<20x34xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op contraction size mismatch: the input has K = 33 but 'rhs' dimension 1 has size 34 (transpose_rhs)}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<20x34xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// rhs element type.
func.func @lnmm_rhs_element_type(%x: tensor<8x33xf32>, %w: tensor<33x20xf16>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'rhs' element type 'f16' does not match the input element type 'f32'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf16>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// outs shape: N comes from the transposed rhs.
func.func @lnmm_outs_shape_transposed(%x: tensor<8x33xf32>, %w: tensor<20x33xf32>, %e: tensor<8x33xf32>) -> tensor<8x33xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'outs' shape [8, 33] must equal the input's leading dimensions and N: [8, 20]}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<20x33xf32>) outs(%e : tensor<8x33xf32>) {transpose_rhs} -> tensor<8x33xf32>
  return %c : tensor<8x33xf32>
}

// -----

// matmul_bias shape.
func.func @lnmm_matmul_bias_shape(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %mb: tensor<8x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'matmul_bias' shape [8, 20] must equal [N] = [20]}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) matmul_bias(%mb : tensor<8x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// weight shape: [K].
func.func @lnmm_weight_shape(%x: tensor<8x33xf32>, %g: tensor<20xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'weight' shape [20] must equal [K] (the input's last dimension) = [33]}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<20xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// bias shape: [K].
func.func @lnmm_bias_shape(%x: tensor<8x33xf32>, %g: tensor<33xf32>, %b: tensor<20xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'bias' shape [20] must equal [K] (the input's last dimension) = [33]}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<33xf32>) bias(%b : tensor<20xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// bias element type.
func.func @lnmm_bias_element_type(%x: tensor<8x33xf32>, %b: tensor<33xf64>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'bias' element type 'f64' does not match the input element type 'f32'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) bias(%b : tensor<33xf64>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// A rank-0 input.
func.func @lnmm_rank0(%x: tensor<f32>, %w: tensor<1x20xf32>, %e: tensor<20xf32>) -> tensor<20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op input must have rank >= 1}}
  %c = norm.layer_norm_matmul ins(%x : tensor<f32>) rhs(%w : tensor<1x20xf32>) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  return %c : tensor<20xf32>
}

// -----

// (C3) epsilon inf.
func.func @lnmm_epsilon_inf(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'epsilon' must be finite and >= 0, got 0x7F800000 : f32}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {epsilon = 0x7F800000 : f32} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C3) weight_offset NaN.
func.func @lnmm_weight_offset_nan(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'weight_offset' must be finite, got 0x7FC00000 : f32}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {weight_offset = 0x7FC00000 : f32} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C4) acc_type narrower than the element type.
func.func @lnmm_acc_type_narrow(%x: tensor<8x33xf64>, %w: tensor<33x20xf64>, %e: tensor<8x20xf64>) -> tensor<8x20xf64> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf64>) rhs(%w : tensor<33x20xf64>) outs(%e : tensor<8x20xf64>) {acc_type = f32} -> tensor<8x20xf64>
  return %c : tensor<8x20xf64>
}

// -----

// (C4) acc_type non-float.
func.func @lnmm_acc_type_i32(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {acc_type = i32} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @lnmm_mixed_kinds(%x: memref<8x33xf32>, %w: memref<33x20xf32>, %mb: tensor<20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op operands must be all tensors or all memrefs; operand #2 is 'tensor<20xf32>'}}
  norm.layer_norm_matmul ins(%x : memref<8x33xf32>) rhs(%w : memref<33x20xf32>) matmul_bias(%mb : tensor<20xf32>) outs(%e : memref<8x20xf32>)
  return
}

// -----

// DPS: result type.
func.func @lnmm_result_type(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x33xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op expected type of operand #2 ('tensor<8x20xf32>') to match type of corresponding result ('tensor<8x33xf32>')}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x33xf32>
  return %c : tensor<8x33xf32>
}

// -----

// Unsupported element type: fp8.
func.func @lnmm_f8(%x: tensor<8x33xf8E4M3FN>, %w: tensor<33x20xf8E4M3FN>, %e: tensor<8x20xf8E4M3FN>) -> tensor<8x20xf8E4M3FN> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<8x33xf8E4M3FN>'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf8E4M3FN>) rhs(%w : tensor<33x20xf8E4M3FN>) outs(%e : tensor<8x20xf8E4M3FN>) -> tensor<8x20xf8E4M3FN>
  return %c : tensor<8x20xf8E4M3FN>
}

// -----

// Parser: the fused ops have no cast_mode; the attribute is then a
// discardable attribute, but a bad enum value still fails to parse.
func.func @lnmm_bad_cast_mode(%x: tensor<8x33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+2 {{expected ::mlir::norm::CastMode to be one of: after_weight, before_weight}}
  // expected-error @+1 {{failed to parse Norm_CastModeAttr parameter 'value' which is to be a `::mlir::norm::CastMode`}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) outs(%e : tensor<8x20xf32>) {cast_mode = #norm.cast_mode<bad>} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// transpose_rhs is a unit attribute.
func.func @lnmm_transpose_rhs_bool(%x: tensor<8x33xf32>, %w: tensor<20x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.layer_norm_matmul' op attribute 'transpose_rhs' failed to satisfy constraint: unit attribute}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<20x33xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs = true} -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

// Parser: clauses in the wrong order (rhs before weight).
func.func @lnmm_clause_order(%x: tensor<8x33xf32>, %g: tensor<33xf32>, %w: tensor<33x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{custom op 'norm.layer_norm_matmul' expected 'outs'}}
  %c = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33x20xf32>) weight(%g : tensor<33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

//===----------------------------------------------------------------------===//
// norm.matmul_rms_norm
//===----------------------------------------------------------------------===//

// rhs must be 2-D.
func.func @mmrms_rhs_rank1(%a: tensor<8x24xf32>, %w: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'rhs' must be a 2-D matrix, got rank 1}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// K mismatch.
func.func @mmrms_k_mismatch(%a: tensor<8x24xf32>, %w: tensor<20x24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op contraction size mismatch: the input has K = 24 but 'rhs' dimension 0 has size 20}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<20x24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// K mismatch with transpose_rhs.
func.func @mmrms_k_mismatch_transposed(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op contraction size mismatch: the input has K = 24 but 'rhs' dimension 1 has size 20 (transpose_rhs)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// rhs element type.
func.func @mmrms_rhs_element_type(%a: tensor<8x24xf16>, %w: tensor<24x20xbf16>, %e: tensor<8x20xf16>) -> tensor<8x20xf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'rhs' element type 'bf16' does not match the input element type 'f16'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf16>) rhs(%w : tensor<24x20xbf16>) outs(%e : tensor<8x20xf16>) -> tensor<8x20xf16>
  return %y : tensor<8x20xf16>
}

// -----

// outs shape.
func.func @mmrms_outs_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x24xf32>) -> tensor<8x24xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'outs' shape [8, 24] must equal the input's leading dimensions and N: [8, 20]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  return %y : tensor<8x24xf32>
}

// -----

// matmul_bias shape.
func.func @mmrms_matmul_bias_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %mb: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'matmul_bias' shape [24] must equal [N] = [20]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) matmul_bias(%mb : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// residual shape: the output shape.
func.func @mmrms_residual_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %r: tensor<8x24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'residual' shape [8, 24] must equal the output shape [8, 20]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) residual(%r : tensor<8x24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// residual element type.
func.func @mmrms_residual_element_type(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %r: tensor<8x20xf16>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'residual' element type 'f16' does not match the input element type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) residual(%r : tensor<8x20xf16>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// weight shape: [N], not [K].
func.func @mmrms_weight_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %g: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight' shape [24] must equal [N] (the output's last dimension) = [20]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// weight element type.
func.func @mmrms_weight_element_type(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %g: tensor<20xbf16>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight' element type 'bf16' does not match the input element type 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<20xbf16>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// sum_outs shape.
func.func @mmrms_sum_outs_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>, %s: tensor<8x24xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'sum_outs' shape [8, 24] must equal the output shape [8, 20]}}
  %y, %sum = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) sum_outs(%s : tensor<8x24xf32>) -> tensor<8x20xf32>, tensor<8x24xf32>
  return %y : tensor<8x20xf32>
}

// -----

// sum_outs element type.
func.func @mmrms_sum_outs_element_type(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>, %s: tensor<8x20xf64>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'sum_outs' element type 'f64' does not match the input element type 'f32'}}
  %y, %sum = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) sum_outs(%s : tensor<8x20xf64>) -> tensor<8x20xf32>, tensor<8x20xf64>
  return %y : tensor<8x20xf32>
}

// -----

// A rank-0 input.
func.func @mmrms_rank0(%a: memref<f32>, %w: memref<1x20xf32>, %e: memref<20xf32>) {
  // expected-error @+1 {{'norm.matmul_rms_norm' op input must have rank >= 1}}
  norm.matmul_rms_norm ins(%a : memref<f32>) rhs(%w : memref<1x20xf32>) outs(%e : memref<20xf32>)
  return
}

// -----

// (C3) epsilon negative.
func.func @mmrms_epsilon_negative(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'epsilon' must be finite and >= 0, got -5.000000e-01 : f64}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {epsilon = -0.5 : f64} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// (C3) weight_offset inf.
func.func @mmrms_weight_offset_inf(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'weight_offset' must be finite, got 0x7FF0000000000000 : f64}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {weight_offset = 0x7FF0000000000000 : f64} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// (C4) acc_type f16.
func.func @mmrms_acc_type_f16(%a: tensor<8x24xbf16>, %w: tensor<24x20xbf16>, %e: tensor<8x20xbf16>) -> tensor<8x20xbf16> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op 'acc_type' must be f32 or f64, got 'f16'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xbf16>) rhs(%w : tensor<24x20xbf16>) outs(%e : tensor<8x20xbf16>) {acc_type = f16} -> tensor<8x20xbf16>
  return %y : tensor<8x20xbf16>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @mmrms_mixed_kinds(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.matmul_rms_norm' op operands must be all tensors or all memrefs; operand #2 is 'memref<8x20xf32>'}}
  norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : memref<8x20xf32>)
  return
}

// -----

// DPS: one result per outs operand (outs + sum_outs).
func.func @mmrms_result_count(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>, %s: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (2)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) sum_outs(%s : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// Unsupported element type.
func.func @mmrms_i32(%a: tensor<8x24xi32>, %w: tensor<24x20xi32>, %e: tensor<8x20xi32>) -> tensor<8x20xi32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<8x24xi32>'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xi32>) rhs(%w : tensor<24x20xi32>) outs(%e : tensor<8x20xi32>) -> tensor<8x20xi32>
  return %y : tensor<8x20xi32>
}

// -----

// Parser: clauses in the wrong order (weight before residual).
func.func @mmrms_clause_order(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %r: tensor<8x20xf32>, %g: tensor<20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{custom op 'norm.matmul_rms_norm' expected 'outs'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<20xf32>) residual(%r : tensor<8x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

//===----------------------------------------------------------------------===//
// norm.matmul_layer_norm
//===----------------------------------------------------------------------===//

// rhs must be 2-D.
func.func @mmln_rhs_rank1(%a: tensor<8x24xf32>, %w: tensor<20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'rhs' must be a 2-D matrix, got rank 1}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// K mismatch.
func.func @mmln_k_mismatch(%a: tensor<8x24xf32>, %w: tensor<25x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op contraction size mismatch: the input has K = 24 but 'rhs' dimension 0 has size 25}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<25x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// K mismatch with transpose_rhs.
func.func @mmln_k_mismatch_transposed(%a: memref<8x24xf32>, %w: memref<24x20xf32>, %e: memref<8x24xf32>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op contraction size mismatch: the input has K = 24 but 'rhs' dimension 1 has size 20 (transpose_rhs)}}
  norm.matmul_layer_norm ins(%a : memref<8x24xf32>) rhs(%w : memref<24x20xf32>) outs(%e : memref<8x24xf32>) {transpose_rhs}
  return
}

// -----

// rhs element type.
func.func @mmln_rhs_element_type(%a: tensor<8x24xf64>, %w: tensor<24x20xf32>, %e: tensor<8x20xf64>) -> tensor<8x20xf64> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'rhs' element type 'f32' does not match the input element type 'f64'}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf64>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf64>) -> tensor<8x20xf64>
  return %y : tensor<8x20xf64>
}

// -----

// outs shape.
func.func @mmln_outs_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<7x20xf32>) -> tensor<7x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'outs' shape [7, 20] must equal the input's leading dimensions and N: [8, 20]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<7x20xf32>) -> tensor<7x20xf32>
  return %y : tensor<7x20xf32>
}

// -----

// matmul_bias shape.
func.func @mmln_matmul_bias_shape(%a: tensor<8x24xf32>, %w: tensor<20x24xf32>, %mb: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'matmul_bias' shape [24] must equal [N] = [20]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<20x24xf32>) matmul_bias(%mb : tensor<24xf32>) outs(%e : tensor<8x20xf32>) {transpose_rhs} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// residual shape.
func.func @mmln_residual_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %r: tensor<20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'residual' shape [20] must equal the output shape [8, 20]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) residual(%r : tensor<20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// weight shape: [N], not [K].
func.func @mmln_weight_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %g: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'weight' shape [24] must equal [N] (the output's last dimension) = [20]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// bias shape: [N].
func.func @mmln_bias_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %g: tensor<20xf32>, %b: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'bias' shape [24] must equal [N] (the output's last dimension) = [20]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<20xf32>) bias(%b : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// bias element type.
func.func @mmln_bias_element_type(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %b: tensor<20xf16>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'bias' element type 'f16' does not match the input element type 'f32'}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) bias(%b : tensor<20xf16>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// sum_outs shape.
func.func @mmln_sum_outs_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %r: tensor<8x20xf32>, %e: tensor<8x20xf32>, %s: tensor<8x21xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'sum_outs' shape [8, 21] must equal the output shape [8, 20]}}
  %y, %sum = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) residual(%r : tensor<8x20xf32>) outs(%e : tensor<8x20xf32>) sum_outs(%s : tensor<8x21xf32>) -> tensor<8x20xf32>, tensor<8x21xf32>
  return %y : tensor<8x20xf32>
}

// -----

// A rank-0 input.
func.func @mmln_rank0(%a: tensor<f32>, %w: tensor<1x20xf32>, %e: tensor<20xf32>) -> tensor<20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op input must have rank >= 1}}
  %y = norm.matmul_layer_norm ins(%a : tensor<f32>) rhs(%w : tensor<1x20xf32>) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  return %y : tensor<20xf32>
}

// -----

// (C3) epsilon NaN.
func.func @mmln_epsilon_nan(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'epsilon' must be finite and >= 0, got 0x7FC00000 : f32}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {epsilon = 0x7FC00000 : f32} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// (C3) weight_offset NaN.
func.func @mmln_weight_offset_nan(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'weight_offset' must be finite, got 0x7FC00000 : f32}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {weight_offset = 0x7FC00000 : f32} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// (C4) acc_type narrower than the element type.
func.func @mmln_acc_type_narrow(%a: tensor<8x24xf64>, %w: tensor<24x20xf64>, %e: tensor<8x20xf64>) -> tensor<8x20xf64> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf64>) rhs(%w : tensor<24x20xf64>) outs(%e : tensor<8x20xf64>) {acc_type = f32} -> tensor<8x20xf64>
  return %y : tensor<8x20xf64>
}

// -----

// (C4) acc_type non-float.
func.func @mmln_acc_type_i32(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {acc_type = i32} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// (C5) Tensors and memrefs are not mixed.
func.func @mmln_mixed_kinds(%a: memref<8x24xf32>, %w: memref<24x20xf32>, %g: tensor<20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op operands must be all tensors or all memrefs; operand #2 is 'tensor<20xf32>'}}
  norm.matmul_layer_norm ins(%a : memref<8x24xf32>) rhs(%w : memref<24x20xf32>) weight(%g : tensor<20xf32>) outs(%e : memref<8x20xf32>)
  return
}

// -----

// DPS: the memref form has no results.
func.func @mmln_memref_with_result(%a: memref<8x24xf32>, %w: memref<24x20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %y = norm.matmul_layer_norm ins(%a : memref<8x24xf32>) rhs(%w : memref<24x20xf32>) outs(%e : memref<8x20xf32>) -> tensor<8x20xf32>
  return
}

// -----

// Unsupported element type: fp8.
func.func @mmln_f8(%a: tensor<8x24xf8E4M3FN>, %w: tensor<24x20xf8E4M3FN>, %e: tensor<8x20xf8E4M3FN>) -> tensor<8x20xf8E4M3FN> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<8x24xf8E4M3FN>'}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf8E4M3FN>) rhs(%w : tensor<24x20xf8E4M3FN>) outs(%e : tensor<8x20xf8E4M3FN>) -> tensor<8x20xf8E4M3FN>
  return %y : tensor<8x20xf8E4M3FN>
}

// -----

// Parser: bad eps_mode enum value.
func.func @mmln_bad_eps_mode(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+2 {{expected valid keyword or string}}
  // expected-error @+1 {{failed to parse Norm_EpsModeAttr parameter 'value' which is to be a `::mlir::norm::EpsMode`}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) {eps_mode = #norm.eps_mode<2>} -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// Parser: unknown clause keyword (var_outs: the fused ops save mean and rstd).
func.func @mmln_unknown_clause(%a: memref<8x24xf32>, %w: memref<24x20xf32>, %e: memref<8x20xf32>, %m: memref<8xf32>) {
  // expected-error @+1 {{custom op 'var_outs' is unknown}}
  norm.matmul_layer_norm ins(%a : memref<8x24xf32>) rhs(%w : memref<24x20xf32>) outs(%e : memref<8x20xf32>) var_outs(%m : memref<8xf32>)
  return
}

// -----

// Parser: on tensors, a trailing unknown clause ends the op early; the op then
// has no results to name.
func.func @mmln_unknown_clause_tensor(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %e: tensor<8x20xf32>, %m: tensor<8xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{cannot name an operation with no results}}
  %y, %mean = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) outs(%e : tensor<8x20xf32>) var_outs(%m : tensor<8xf32>) -> tensor<8x20xf32>, tensor<8xf32>
  return %y : tensor<8x20xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Generic form: required operand segments (ins, rhs, outs) hold exactly one
// operand. ODS only bounds the optional ones.
//===----------------------------------------------------------------------===//

func.func @rms_generic_no_input(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op required operand segment #0 must hold exactly one operand, got 0}}
  "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 1, 0, 0, 0>}> : (memref<4x17xf32>, memref<4x17xf32>) -> ()
  return
}

// -----

func.func @ln_generic_no_outs(%x: tensor<4x17xf32>, %r: tensor<4x17xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op required operand segment #7 must hold exactly one operand, got 0}}
  "norm.layer_norm"(%x, %r) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> ()
  return
}

// -----

func.func @rmsmm_generic_no_rhs(%x: tensor<8x33xf32>, %g: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op required operand segment #3 must hold exactly one operand, got 0}}
  %c = "norm.rms_norm_matmul"(%x, %g, %e) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 1, 0, 0>}> : (tensor<8x33xf32>, tensor<33xf32>, tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @lnmm_generic_two_inputs(%x: memref<8x33xf32>, %w: memref<33x20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op required operand segment #0 must hold exactly one operand, got 2}}
  "norm.layer_norm_matmul"(%x, %x, %w, %e) <{operandSegmentSizes = array<i32: 2, 0, 0, 0, 1, 0, 1, 0, 0, 0>}> : (memref<8x33xf32>, memref<8x33xf32>, memref<33x20xf32>, memref<8x20xf32>) -> ()
  return
}

// -----

func.func @mmrms_generic_no_rhs(%a: memref<8x24xf32>, %mb: memref<20xf32>, %e: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.matmul_rms_norm' op required operand segment #1 must hold exactly one operand, got 0}}
  "norm.matmul_rms_norm"(%a, %mb, %e) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0>}> : (memref<8x24xf32>, memref<20xf32>, memref<8x20xf32>) -> ()
  return
}

// -----

func.func @mmln_generic_no_outs(%a: memref<8x24xf32>, %w: memref<24x20xf32>, %s: memref<8x20xf32>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op required operand segment #6 must hold exactly one operand, got 0}}
  "norm.matmul_layer_norm"(%a, %w, %s) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 1, 0, 0>}> : (memref<8x24xf32>, memref<24x20xf32>, memref<8x20xf32>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Fused ops: the normalized dimension (K for norm -> matmul, N for
// matmul -> norm) must not be empty.
//===----------------------------------------------------------------------===//

func.func @rmsmm_k_empty(%x: tensor<8x0xf32>, %w: tensor<0x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // expected-error @+1 {{'norm.rms_norm_matmul' op the normalized dimension K (the input's last dimension) must not be empty}}
  %c = norm.rms_norm_matmul ins(%x : tensor<8x0xf32>) rhs(%w : tensor<0x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @lnmm_k_empty(%x: memref<8x0xf16>, %w: memref<20x0xf16>, %e: memref<8x20xf16>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op the normalized dimension K (the input's last dimension) must not be empty}}
  norm.layer_norm_matmul ins(%x : memref<8x0xf16>) rhs(%w : memref<20x0xf16>) outs(%e : memref<8x20xf16>) {transpose_rhs}
  return
}

// -----

func.func @mmrms_n_empty(%a: tensor<8x24xf32>, %w: tensor<24x0xf32>, %e: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // expected-error @+1 {{'norm.matmul_rms_norm' op the normalized dimension N (the output's last dimension) must not be empty}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x0xf32>) outs(%e : tensor<8x0xf32>) -> tensor<8x0xf32>
  return %y : tensor<8x0xf32>
}

// -----

func.func @mmln_n_empty(%a: tensor<8x24xf32>, %w: tensor<0x24xf32>, %e: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // expected-error @+1 {{'norm.matmul_layer_norm' op the normalized dimension N (the output's last dimension) must not be empty}}
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<0x24xf32>) outs(%e : tensor<8x0xf32>) {transpose_rhs} -> tensor<8x0xf32>
  return %y : tensor<8x0xf32>
}

// -----

// Mixed element types stop at floats: an integer γ is refused by the type
// constraint.
func.func @rms_integer_weight(%x: tensor<4x17xbf16>, %g: tensor<17xi32>, %e: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
  // expected-error @+1 {{'norm.rms_norm' op operand #1 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'tensor<17xi32>'}}
  %y = norm.rms_norm ins(%x : tensor<4x17xbf16>) weight(%g : tensor<17xi32>) outs(%e : tensor<4x17xbf16>) -> tensor<4x17xbf16>
  return %y : tensor<4x17xbf16>
}
