// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The verifier rules of quantized outputs (DESIGN.md §8; Q1–Q4 of the
// norm.rms_norm description), one case per rule.

// Q1: a quantized `outs` needs a scale.
func.func @quantized_without_scale(%x: tensor<4x64xf32>, %i: tensor<4x64xf8E4M3FN>) -> tensor<4x64xf8E4M3FN> {
  // expected-error @+1 {{a quantized 'outs' ('f8E4M3FN') needs exactly one of 'scale' (static) and 'scale_outs' (dynamic)}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) outs(%i : tensor<4x64xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  return %q : tensor<4x64xf8E4M3FN>
}

// -----

// Q1: not both.
func.func @static_and_dynamic(%x: tensor<4x64xf32>, %s: f32, %i: tensor<4x64xi8>, %si: tensor<4xf32>) -> (tensor<4x64xi8>, tensor<4xf32>) {
  // expected-error @+1 {{a quantized 'outs' ('i8') needs exactly one of 'scale' (static) and 'scale_outs' (dynamic)}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : f32) outs(%i : tensor<4x64xi8>) scale_outs(%si : tensor<4xf32>) -> tensor<4x64xi8>, tensor<4xf32>
  return %q, %sc : tensor<4x64xi8>, tensor<4xf32>
}

// -----

// Q1: a scale without a quantized `outs`.
func.func @scale_without_quantized_outs(%x: tensor<4x64xf32>, %s: f32, %i: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{'scale' requires a quantized 'outs' element type (f8E4M3FN, f8E5M2 or i8), got 'f32'}}
  %y = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : f32) outs(%i : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

func.func @scale_outs_without_quantized_outs(%x: tensor<4x64xf32>, %i: tensor<4x64xbf16>, %si: tensor<4xf32>) -> (tensor<4x64xbf16>, tensor<4xf32>) {
  // expected-error @+1 {{'scale_outs' requires a quantized 'outs' element type (f8E4M3FN, f8E5M2 or i8), got 'bf16'}}
  %y, %sc = norm.layer_norm ins(%x : tensor<4x64xf32>) outs(%i : tensor<4x64xbf16>) scale_outs(%si : tensor<4xf32>) -> tensor<4x64xbf16>, tensor<4xf32>
  return %y, %sc : tensor<4x64xbf16>, tensor<4xf32>
}

// -----

// Q2: the dynamic-only attributes need `scale_outs`.
func.func @group_size_static(%x: tensor<4x64xf32>, %s: f32, %i: tensor<4x64xf8E5M2>) -> tensor<4x64xf8E5M2> {
  // expected-error @+1 {{'group_size' requires 'scale_outs' (dynamic scales)}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : f32) outs(%i : tensor<4x64xf8E5M2>) {group_size = 64 : i64} -> tensor<4x64xf8E5M2>
  return %q : tensor<4x64xf8E5M2>
}

// -----

func.func @scale_min_static(%x: tensor<4x64xf32>, %s: f32, %i: tensor<4x64xf8E5M2>) -> tensor<4x64xf8E5M2> {
  // expected-error @+1 {{'scale_min' requires 'scale_outs' (dynamic scales)}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : f32) outs(%i : tensor<4x64xf8E5M2>) {scale_min = 1.0e-6 : f32} -> tensor<4x64xf8E5M2>
  return %q : tensor<4x64xf8E5M2>
}

// -----

// Q2: scale_min finite and > 0.
func.func @scale_min_zero(%x: tensor<4x64xf32>, %i: tensor<4x64xi8>, %si: tensor<4xf32>) -> (tensor<4x64xi8>, tensor<4xf32>) {
  // expected-error @+1 {{'scale_min' must be finite and > 0, got 0.000000e+00 : f32}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x64xf32>) outs(%i : tensor<4x64xi8>) scale_outs(%si : tensor<4xf32>) {scale_min = 0.0 : f32} -> tensor<4x64xi8>, tensor<4xf32>
  return %q, %sc : tensor<4x64xi8>, tensor<4xf32>
}

// -----

// Q3: the group sizes serving stacks use.
func.func @group_size_48(%x: tensor<4x96xf32>, %i: tensor<4x96xi8>, %si: tensor<4x2xf32>) -> (tensor<4x96xi8>, tensor<4x2xf32>) {
  // expected-error @+1 {{'group_size' must be 32, 64 or 128, got 48}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x96xf32>) outs(%i : tensor<4x96xi8>) scale_outs(%si : tensor<4x2xf32>) {group_size = 48 : i64} -> tensor<4x96xi8>, tensor<4x2xf32>
  return %q, %sc : tensor<4x96xi8>, tensor<4x2xf32>
}

// -----

func.func @group_size_dynamic_n(%x: tensor<4x?xf32>, %i: tensor<4x?xi8>, %si: tensor<4x?xf32>) -> (tensor<4x?xi8>, tensor<4x?xf32>) {
  // expected-error @+1 {{'group_size' needs static normalized dimensions, got [?]}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x?xf32>) outs(%i : tensor<4x?xi8>) scale_outs(%si : tensor<4x?xf32>) {group_size = 64 : i64} -> tensor<4x?xi8>, tensor<4x?xf32>
  return %q, %sc : tensor<4x?xi8>, tensor<4x?xf32>
}

// -----

func.func @group_size_not_dividing(%x: tensor<4x96xf32>, %i: tensor<4x96xi8>, %si: tensor<4x1xf32>) -> (tensor<4x96xi8>, tensor<4x1xf32>) {
  // expected-error @+1 {{'group_size' 64 does not divide the 96 normalized elements}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x96xf32>) outs(%i : tensor<4x96xi8>) scale_outs(%si : tensor<4x1xf32>) {group_size = 64 : i64} -> tensor<4x96xi8>, tensor<4x1xf32>
  return %q, %sc : tensor<4x96xi8>, tensor<4x1xf32>
}

// -----

// Q4: the scales' shape, per token and per group.
func.func @per_token_shape(%x: tensor<4x64xf32>, %i: tensor<4x64xf8E4M3FN>, %si: tensor<4x1xf32>) -> (tensor<4x64xf8E4M3FN>, tensor<4x1xf32>) {
  // expected-error @+1 {{'scale_outs' shape [4, 1] must equal the non-normalized dimensions of the input [4]}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x64xf32>) outs(%i : tensor<4x64xf8E4M3FN>) scale_outs(%si : tensor<4x1xf32>) -> tensor<4x64xf8E4M3FN>, tensor<4x1xf32>
  return %q, %sc : tensor<4x64xf8E4M3FN>, tensor<4x1xf32>
}

// -----

func.func @per_group_shape(%x: tensor<4x2x64xf32>, %i: tensor<4x2x64xf8E4M3FN>, %si: tensor<4x2xf32>) -> (tensor<4x2x64xf8E4M3FN>, tensor<4x2xf32>) {
  // expected-error @+1 {{'scale_outs' shape [4, 2] must equal the non-normalized dimensions and [n / group_size]: [4, 4]}}
  %q, %sc = norm.layer_norm ins(%x : tensor<4x2x64xf32>) outs(%i : tensor<4x2x64xf8E4M3FN>) scale_outs(%si : tensor<4x2xf32>) {axis = 1 : i64, group_size = 32 : i64} -> tensor<4x2x64xf8E4M3FN>, tensor<4x2xf32>
  return %q, %sc : tensor<4x2x64xf8E4M3FN>, tensor<4x2xf32>
}

// -----

// The scales are f32 (ODS).
func.func @scales_f64(%x: tensor<4x64xf32>, %i: tensor<4x64xi8>, %si: tensor<4xf64>) -> (tensor<4x64xi8>, tensor<4xf64>) {
  // expected-error @+1 {{operand #2 must be ranked tensor or memref of f32 values, but got 'tensor<4xf64>'}}
  %q, %sc = norm.rms_norm ins(%x : tensor<4x64xf32>) outs(%i : tensor<4x64xi8>) scale_outs(%si : tensor<4xf64>) -> tensor<4x64xi8>, tensor<4xf64>
  return %q, %sc : tensor<4x64xi8>, tensor<4xf64>
}

// -----

// A static scale is a scalar or 0-d (ODS) ...
func.func @scale_rank_1(%x: tensor<4x64xf32>, %s: tensor<1xf32>, %i: tensor<4x64xi8>) -> tensor<4x64xi8> {
  // expected-error @+1 {{operand #1 must be f32, or a 0-d tensor or memref of f32, but got 'tensor<1xf32>'}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : tensor<1xf32>) outs(%i : tensor<4x64xi8>) -> tensor<4x64xi8>
  return %q : tensor<4x64xi8>
}

// -----

// ... of the op's kind: no 0-d memref on tensors.
func.func @scale_memref_on_tensors(%x: tensor<4x64xf32>, %s: memref<f32>, %i: tensor<4x64xi8>) -> tensor<4x64xi8> {
  // expected-error @+1 {{operands must be all tensors or all memrefs; operand #1 is 'memref<f32>'}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : memref<f32>) outs(%i : tensor<4x64xi8>) -> tensor<4x64xi8>
  return %q : tensor<4x64xi8>
}

// -----

// Other quantized types are refused (ODS).
func.func @outs_f8e4m3fnuz(%x: tensor<4x64xf32>, %s: f32, %i: tensor<4x64xf8E4M3FNUZ>) -> tensor<4x64xf8E4M3FNUZ> {
  // expected-error @+1 {{must be ranked tensor or memref of f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or i8 values}}
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) scale(%s : f32) outs(%i : tensor<4x64xf8E4M3FNUZ>) -> tensor<4x64xf8E4M3FNUZ>
  return %q : tensor<4x64xf8E4M3FNUZ>
}
