// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The rotary embedding of norm.matmul_rms_norm: only per head, its angles
// checked against the output viewed as [..., H, D] by the standalone
// norm's rules (R1–R3).

func.func @rope_without_head_dim(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x1x32xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'rope' needs 'head_dim' (the rotation is within a head)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) rope(%c, %c : tensor<4x1x32xf32>, tensor<4x1x32xf32>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @mode_without_rope(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'rope_mode' requires 'rope(cos, sin)' operands}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64, rope_mode = #norm.rope_mode<interleaved>} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @odd_head(%a: tensor<4x64xf32>, %w: tensor<64x28xf32>, %c: tensor<4x1x7xf32>, %e: tensor<4x28xf32>) -> tensor<4x28xf32> {
  // expected-error @+1 {{'rope' needs a static, even last dimension, got [4, 4, 7]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x28xf32>) rope(%c, %c : tensor<4x1x7xf32>, tensor<4x1x7xf32>) outs(%e : tensor<4x28xf32>) {head_dim = 7 : i64} -> tensor<4x28xf32>
  return %y : tensor<4x28xf32>
}

// -----

// The angles of the output's rank (one per row, not per head view).
func.func @angles_not_heads(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x8xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'cos' shape [4, 8] must have the heads view's rank, each dimension the heads view's or 1 (broadcast), and the last D = 8; the heads view shape is [4, 4, 8]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) rope(%c, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Partial rotary (rotary_dim < D): the angles are not D wide.
func.func @partial_rotary(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x1x4xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'cos' shape [4, 1, 4] must have the heads view's rank, each dimension the heads view's or 1 (broadcast), and the last D = 8; the heads view shape is [4, 4, 8]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) rope(%c, %c : tensor<4x1x4xf32>, tensor<4x1x4xf32>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Angles narrower than the values they rotate (S is f32 from bf16 A, W).
func.func @narrow_angles(%a: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %c: tensor<4x1x8xbf16>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'cos' element type 'bf16' does not match}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xbf16>) rhs(%w : tensor<64x32xbf16>) rope(%c, %c : tensor<4x1x8xbf16>, tensor<4x1x8xbf16>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @sin_type(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x1x8xf32>, %s: tensor<1x1x8xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'sin' type 'tensor<1x1x8xf32>' does not match the 'cos' type 'tensor<4x1x8xf32>'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) rope(%c, %s : tensor<4x1x8xf32>, tensor<1x1x8xf32>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// The per-head norm's rope_rounding follows the standalone rules: each_step
// needs an output narrower than acc_type, and only with head_dim and rope.
func.func @fused_each_step_f32(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x1x8xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'rope_rounding' each_step rounds to the output element type, which must be narrower than the accumulation type 'f32', got 'f32'}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<64x32xf32>) rope(%c, %c : tensor<4x1x8xf32>, tensor<4x1x8xf32>) outs(%e : tensor<4x32xf32>) {head_dim = 8 : i64, rope_rounding = #norm.rope_rounding<each_step>} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @fused_rounding_without_head_dim(%a: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %e: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  // expected-error @+1 {{'rope' needs 'head_dim' (the rotation is within a head)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xbf16>) rhs(%w : tensor<64x32xbf16>) outs(%e : tensor<4x32xbf16>) {rope_rounding = #norm.rope_rounding<once>} -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
