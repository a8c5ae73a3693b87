// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The verifier rules of the rotary embedding (R1–R5 of the norm.rms_norm
// description), one case per rule.

func.func @mode_without_rope(%x: tensor<4x32xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'rope_mode' requires 'rope(cos, sin)' operands}}
  %y = norm.rms_norm ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {rope_mode = #norm.rope_mode<interleaved>} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @cos_only(%x: tensor<4x32xf32>, %c: tensor<4x32xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'rope' needs both 'cos' and 'sin', got only 'cos'}}
  %y = "norm.rms_norm"(%x, %c, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 1, 0, 1, 0, 0, 0>}> : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @two_dims(%x: tensor<4x2x16xf32>, %c: tensor<4x2x16xf32>, %e: tensor<4x2x16xf32>) -> tensor<4x2x16xf32> {
  // expected-error @+1 {{'rope' rotates within the last dimension: the normalized dimensions must be the last one only, got axis = 1 for rank 3}}
  %y = norm.rms_norm ins(%x : tensor<4x2x16xf32>) rope(%c, %c : tensor<4x2x16xf32>, tensor<4x2x16xf32>) outs(%e : tensor<4x2x16xf32>) {axis = 1 : i64} -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}

// -----

func.func @odd(%x: tensor<4x33xf32>, %c: tensor<4x33xf32>, %e: tensor<4x33xf32>) -> tensor<4x33xf32> {
  // expected-error @+1 {{'rope' needs a static, even last dimension, got [4, 33]}}
  %y = norm.rms_norm ins(%x : tensor<4x33xf32>) rope(%c, %c : tensor<4x33xf32>, tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) -> tensor<4x33xf32>
  return %y : tensor<4x33xf32>
}

// -----

func.func @dynamic_d(%x: tensor<4x?xf32>, %c: tensor<4x?xf32>, %e: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'rope' needs a static, even last dimension, got [4, ?]}}
  %y = norm.layer_norm ins(%x : tensor<4x?xf32>) rope(%c, %c : tensor<4x?xf32>, tensor<4x?xf32>) outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

func.func @quantized(%x: tensor<4x32xbf16>, %c: tensor<4x32xbf16>, %e: tensor<4x32xf8E4M3FN>, %sc: f32) -> tensor<4x32xf8E4M3FN> {
  // expected-error @+1 {{'rope' is not supported with a quantized 'outs'}}
  %y = norm.rms_norm ins(%x : tensor<4x32xbf16>) rope(%c, %c : tensor<4x32xbf16>, tensor<4x32xbf16>) scale(%sc : f32) outs(%e : tensor<4x32xf8E4M3FN>) -> tensor<4x32xf8E4M3FN>
  return %y : tensor<4x32xf8E4M3FN>
}

// -----

func.func @narrower_angles(%x: tensor<4x32xf32>, %c: tensor<4x32xbf16>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'cos' element type 'bf16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x32xf32>) rope(%c, %c : tensor<4x32xbf16>, tensor<4x32xbf16>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @sin_type(%x: tensor<4x32xbf16>, %c: tensor<4x32xbf16>, %s: tensor<4x32xf32>, %e: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{'sin' type 'tensor<4x32xf32>' does not match the 'cos' type 'tensor<4x32xbf16>'}}
  %y = norm.rms_norm ins(%x : tensor<4x32xbf16>) rope(%c, %s : tensor<4x32xbf16>, tensor<4x32xf32>) outs(%e : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}

// -----

func.func @angles_rank(%x: tensor<8x4x32xf32>, %c: tensor<8x32xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'cos' shape [8, 32] must have the input's rank, each dimension the input's or 1 (broadcast), and the last D = 32; the input shape is [8, 4, 32]}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %c : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

func.func @angles_dim(%x: tensor<8x4x32xf32>, %c: tensor<8x2x32xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'cos' shape [8, 2, 32] must have the input's rank}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %c : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// Partial rotary (rotary_dim < D) is not this op's: the angles cover all D.
func.func @angles_partial(%x: tensor<8x4x32xf32>, %c: tensor<8x1x16xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'cos' shape [8, 1, 16] must have the input's rank, each dimension the input's or 1 (broadcast), and the last D = 32}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %c : tensor<8x1x16xf32>, tensor<8x1x16xf32>) outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// (R1) rope_rounding only with the angles.
func.func @rounding_without_rope(%x: tensor<4x32xbf16>, %e: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{'rope_rounding' requires 'rope(cos, sin)' operands}}
  %y = norm.rms_norm ins(%x : tensor<4x32xbf16>) outs(%e : tensor<4x32xbf16>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}

// -----

// (R5) each_step rounds to y's type: meaningless when it is acc_type.
func.func @each_step_f32(%x: tensor<8x4x32xf32>, %c: tensor<8x1x32xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'rope_rounding' each_step rounds to the output element type, which must be narrower than the accumulation type 'f32', got 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %c : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%e : tensor<8x4x32xf32>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// (R5) An f32 y from bf16 x is not narrower than acc_type either.
func.func @each_step_wide_y(%x: tensor<8x4x32xbf16>, %c: tensor<8x1x32xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'rope_rounding' each_step rounds to the output element type, which must be narrower than the accumulation type 'f32', got 'f32'}}
  %y = norm.layer_norm ins(%x : tensor<8x4x32xbf16>) rope(%c, %c : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%e : tensor<8x4x32xf32>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// (R5) Wider angles would round each product twice.
func.func @each_step_f32_angles(%x: tensor<8x4x32xbf16>, %c: tensor<8x1x32xf32>, %e: tensor<8x4x32xbf16>) -> tensor<8x4x32xbf16> {
  // expected-error @+1 {{'rope_rounding' each_step needs 'cos' and 'sin' of the output element type 'bf16', got 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xbf16>) rope(%c, %c : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%e : tensor<8x4x32xbf16>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<8x4x32xbf16>
  return %y : tensor<8x4x32xbf16>
}

// -----

// An unknown rounding is a parse error.
func.func @unknown_rounding(%x: tensor<8x4x32xbf16>, %c: tensor<8x1x32xbf16>, %e: tensor<8x4x32xbf16>) -> tensor<8x4x32xbf16> {
  // expected-error @+2 {{expected ::mlir::norm::RopeRounding to be one of: once, each_step}}
  // expected-error @+1 {{failed to parse Norm_RopeRoundingAttr parameter 'value'}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xbf16>) rope(%c, %c : tensor<8x1x32xbf16>, tensor<8x1x32xbf16>) outs(%e : tensor<8x4x32xbf16>) {rope_rounding = #norm.rope_rounding<twice>} -> tensor<8x4x32xbf16>
  return %y : tensor<8x4x32xbf16>
}

// -----

// A dynamic sequence length leaves the other dims checked: the heads dim of
// the angles is neither the input's 4 nor a broadcast 1.
func.func @dynamic_seq_angles_dim(%x: tensor<?x4x32xf32>, %c: tensor<?x2x32xf32>, %e: tensor<?x4x32xf32>) -> tensor<?x4x32xf32> {
  // expected-error @+1 {{'cos' shape [?, 2, 32] must have the input's rank, each dimension the input's or 1 (broadcast), and the last D = 32; the input shape is [?, 4, 32]}}
  %y = norm.rms_norm ins(%x : tensor<?x4x32xf32>) rope(%c, %c : tensor<?x2x32xf32>, tensor<?x2x32xf32>) outs(%e : tensor<?x4x32xf32>) -> tensor<?x4x32xf32>
  return %y : tensor<?x4x32xf32>
}

// -----

// The rotated dim of the angles stays static: D, not `?`.
func.func @dynamic_angle_d(%x: tensor<?x4x32xf32>, %c: tensor<?x1x?xf32>, %e: tensor<?x4x32xf32>) -> tensor<?x4x32xf32> {
  // expected-error @+1 {{'cos' shape [?, 1, ?] must have the input's rank, each dimension the input's or 1 (broadcast), and the last D = 32; the input shape is [?, 4, 32]}}
  %y = norm.rms_norm ins(%x : tensor<?x4x32xf32>) rope(%c, %c : tensor<?x1x?xf32>, tensor<?x1x?xf32>) outs(%e : tensor<?x4x32xf32>) -> tensor<?x4x32xf32>
  return %y : tensor<?x4x32xf32>
}

// -----

// A dynamic angle dim against a static input dim of another size is
// accepted (the sizes meet only at run time); a static mismatch is not.
func.func @static_seq_mismatch(%x: tensor<8x4x32xf32>, %c: tensor<7x1x32xf32>, %e: tensor<8x4x32xf32>) -> tensor<8x4x32xf32> {
  // expected-error @+1 {{'cos' shape [7, 1, 32] must have the input's rank}}
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %c : tensor<7x1x32xf32>, tensor<7x1x32xf32>) outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}
