// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// norm → matmul → norm (Qwen3's and Gemma 3's q/k norms after the layer's
// input norm): a per-head (or whole-row) norm of a norm.rms_norm_matmul's
// product fuses into norm.matmul_rms_norm, taking that norm as its input
// norm (`input_epsilon`, `input_weight`, `input_weight_offset`,
// `input_cast_mode`); the reshapes and transposes follow the fused op.

// The whole chain from the standalone input norm: it fuses into the
// projection first (norm → matmul), then the q-norm over the heads of its
// product takes that op as its input norm.
// CHECK-LABEL: func.func @input_norm_then_heads
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<4x32xf32>) rhs(%arg1 : tensor<32x16xf32>) weight(%arg3 : tensor<8xf32>) input_weight(%arg2 : tensor<32xf32>) outs(%{{.*}} : tensor<4x16xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 8 : i64, input_epsilon = 9.99999974E-6 : f32} -> tensor<4x16xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
//   CHECK-NOT: norm.rms_norm
//   CHECK-NOT: linalg.matmul
//       CHECK: return %[[H]]
func.func @input_norm_then_heads(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>, %gi: tensor<32xf32>, %g: tensor<8xf32>) -> tensor<4x2x8xf32> {
  %ex = tensor.empty() : tensor<4x32xf32>
  // expected-remark @+1 {{fused into 1 consuming matmul(s)}}
  %n = norm.rms_norm ins(%x : tensor<4x32xf32>) weight(%gi : tensor<32xf32>) outs(%ex : tensor<4x32xf32>) {epsilon = 1.0e-5 : f32} -> tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<4x2x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x2x8xf32>) {epsilon = 1.0e-6 : f32} -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Gemma 3's bf16 form: f32 γs with 1 + γ, the input norm rounding its
// normalized activations (cast_mode), W as N×K, heads transposed to
// [H, T, D]; the producer's default ε is written out.
// CHECK-LABEL: func.func @gemma_transposed_heads
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<8x64xbf16>) rhs(%arg1 : tensor<64x64xbf16>) weight(%arg3 : tensor<32xf32>) input_weight(%arg2 : tensor<64xf32>) outs(%{{.*}} : tensor<8x64xbf16>) {epsilon = 9.99999997E-7 : f32, head_dim = 32 : i64, input_cast_mode = #norm.cast_mode<after_weight>, input_epsilon = 9.9999999999999995E-7 : f64, input_weight_offset = 1.000000e+00 : f32, transpose_rhs, weight_offset = 1.000000e+00 : f32} -> tensor<8x64xbf16>
//       CHECK: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 32]
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<8x2x32xbf16>) outs(%{{.*}} : tensor<2x8x32xbf16>) permutation = [1, 0, 2]
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[T]]
func.func @gemma_transposed_heads(%x: tensor<8x64xbf16>, %w: tensor<64x64xbf16>, %gi: tensor<64xf32>, %g: tensor<32xf32>) -> tensor<2x8x32xbf16> {
  %ec = tensor.empty() : tensor<8x64xbf16>
  %c = norm.rms_norm_matmul ins(%x : tensor<8x64xbf16>) weight(%gi : tensor<64xf32>) rhs(%w : tensor<64x64xbf16>) outs(%ec : tensor<8x64xbf16>) {cast_mode = #norm.cast_mode<after_weight>, transpose_rhs, weight_offset = 1.0 : f32} -> tensor<8x64xbf16>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [8, 2, 32] : tensor<8x64xbf16> into tensor<8x2x32xbf16>
  %te = tensor.empty() : tensor<2x8x32xbf16>
  %t = linalg.transpose ins(%h : tensor<8x2x32xbf16>) outs(%te : tensor<2x8x32xbf16>) permutation = [1, 0, 2]
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<2x8x32xbf16>) weight(%g : tensor<32xf32>) outs(%te : tensor<2x8x32xbf16>) {epsilon = 1.0e-6 : f32, weight_offset = 1.0 : f32} -> tensor<2x8x32xbf16>
  return %y : tensor<2x8x32xbf16>
}

// -----

// OLMo2's order: the norm over all of N, no head split; the matmul bias
// goes with the product.
// CHECK-LABEL: func.func @whole_rows
//       CHECK: norm.matmul_rms_norm ins(%arg0 : tensor<4x32xf32>) rhs(%arg1 : tensor<32x16xf32>) matmul_bias(%arg2 : tensor<16xf32>) weight(%arg3 : tensor<16xf32>) outs(%{{.*}} : tensor<4x16xf32>) {input_epsilon = 9.99999997E-7 : f32} -> tensor<4x16xf32>
//   CHECK-NOT: norm.rms_norm
func.func @whole_rows(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>, %mb: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %ec = tensor.empty() : tensor<4x16xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x32xf32>) rhs(%w : tensor<32x16xf32>) matmul_bias(%mb : tensor<16xf32>) outs(%ec : tensor<4x16xf32>) {epsilon = 1.0e-6 : f32} -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%c : tensor<4x16xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Refused: the norm → matmul has a residual (its residual stream and the
// input norm's would be two residuals on one op).
// CHECK-LABEL: func.func @producer_with_residual
//       CHECK: norm.rms_norm_matmul
//       CHECK: norm.rms_norm ins
func.func @producer_with_residual(%x: tensor<4x32xf32>, %r: tensor<4x32xf32>, %w: tensor<32x16xf32>, %g: tensor<8xf32>) -> tensor<4x2x8xf32> {
  %ec = tensor.empty() : tensor<4x16xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x32xf32>) residual(%r : tensor<4x32xf32>) rhs(%w : tensor<32x16xf32>) outs(%ec : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{with a producer: the reshapes before the norm do not start at a matmul (the norm → matmul producing it has a residual or saved statistics)}}
  %y = norm.rms_norm ins(%h : tensor<4x2x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Refused: a per-head LayerNorm after the norm → matmul.
// CHECK-LABEL: func.func @layer_norm_heads
//       CHECK: norm.rms_norm_matmul
//       CHECK: norm.layer_norm ins
func.func @layer_norm_heads(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x2x8xf32> {
  %ec = tensor.empty() : tensor<4x16xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x32xf32>) rhs(%w : tensor<32x16xf32>) outs(%ec : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{a LayerNorm after a norm → matmul has no fused form}}
  %y = norm.layer_norm ins(%h : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Refused: the product has another user, which needs S itself.
// CHECK-LABEL: func.func @product_read_elsewhere
//       CHECK: norm.rms_norm_matmul
//       CHECK: norm.rms_norm ins
func.func @product_read_elsewhere(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %ec = tensor.empty() : tensor<4x16xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x32xf32>) rhs(%w : tensor<32x16xf32>) outs(%ec : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  // expected-remark @+1 {{with a producer: the matmul's result has other users}}
  %y = norm.rms_norm ins(%c : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %c : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Refused: a different eps_mode in the two norms (the fused op has one).
// CHECK-LABEL: func.func @eps_modes_differ
//       CHECK: norm.rms_norm_matmul
//       CHECK: norm.rms_norm ins
func.func @eps_modes_differ(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %ec = tensor.empty() : tensor<4x16xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x32xf32>) rhs(%w : tensor<32x16xf32>) outs(%ec : tensor<4x16xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>} -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  // expected-remark @+1 {{the norm → matmul producing it has another eps_mode or acc_type}}
  %y = norm.rms_norm ins(%c : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
