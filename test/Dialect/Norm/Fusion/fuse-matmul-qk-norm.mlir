// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// QK-norm (Qwen3, Gemma 3): the projection's rows split into heads
// ([T, H·D] → [T, H, D], maybe transposed to [H, T, D]) and normalized per
// head over D fuse into the matmul as norm.matmul_rms_norm with head_dim = D;
// the reshapes (and transposes) follow the fused op.

// The expand_shape form: [4, 2·8] → [4, 2, 8], RMSNorm over the 8 columns
// of each head with one γ of shape [8].
// CHECK-LABEL: func.func @qk_norm_expand
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<4x32xf32>) rhs(%arg1 : tensor<32x16xf32>) weight(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<4x16xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 8 : i64} -> tensor<4x16xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
//   CHECK-NOT: linalg.matmul
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[H]]
func.func @qk_norm_expand(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %g: tensor<8xf32>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<4x2x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x2x8xf32>) {epsilon = 1.0e-6 : f32} -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Batched rows and W as N×K (PyTorch's Linear): [B·T, K] × [H·D, K]ᵀ, rows
// split to [B, T, H, D] with dynamic T, then transposed to [B, H, T, D]
// (the transpose keeps D last, and a norm over D commutes with it).
// CHECK-LABEL: func.func @qk_norm_transpose
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<?x64xbf16>) rhs(%arg1 : tensor<32x64xbf16>) weight(%arg2 : tensor<16xbf16>) outs(%{{.*}} : tensor<?x32xbf16>) {head_dim = 16 : i64, transpose_rhs} -> tensor<?x32xbf16>
//       CHECK: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2, 3]] output_shape [2, %{{.*}}, 2, 16]
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<2x?x2x16xbf16>) outs(%{{.*}} : tensor<2x2x?x16xbf16>) permutation = [0, 2, 1, 3]
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[T]]
func.func @qk_norm_transpose(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %g: tensor<16xbf16>, %t: index) -> tensor<2x2x?x16xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xbf16>
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty(%m) : tensor<?x32xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<?x64xbf16>, tensor<32x64xbf16>) outs(%z : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2, %t, 2, 16] : tensor<?x32xbf16> into tensor<2x?x2x16xbf16>
  %te = tensor.empty(%t) : tensor<2x2x?x16xbf16>
  %tr = linalg.transpose ins(%h : tensor<2x?x2x16xbf16>) outs(%te : tensor<2x2x?x16xbf16>) permutation = [0, 2, 1, 3]
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%tr : tensor<2x2x?x16xbf16>) weight(%g : tensor<16xbf16>) outs(%te : tensor<2x2x?x16xbf16>) -> tensor<2x2x?x16xbf16>
  return %y : tensor<2x2x?x16xbf16>
}

// -----

// A collapse of batched rows, then the head split: [B, T, H·D] → [B·T, H·D]
// → [B·T, H, D]. The per-head LayerNorm (StableLM, Command R) fuses the
// same way, with γ and β of shape [D].
// CHECK-LABEL: func.func @qk_layer_norm_collapse_expand
//       CHECK: %[[Y:.*]] = norm.matmul_layer_norm ins(%arg0 : tensor<2x3x32xf32>) rhs(%arg1 : tensor<32x24xf32>) weight(%arg2 : tensor<8xf32>) bias(%arg3 : tensor<8xf32>) outs(%{{.*}} : tensor<2x3x24xf32>) {head_dim = 8 : i64} -> tensor<2x3x24xf32>
//  CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[Y]]
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[C]]
//   CHECK-NOT: norm.layer_norm
//       CHECK: return %[[H]]
func.func @qk_layer_norm_collapse_expand(%a: tensor<2x3x32xf32>, %w: tensor<32x24xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<6x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<2x3x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x3x24xf32>) -> tensor<2x3x24xf32>
  %wb = tensor.empty() : tensor<2x32x24xf32>
  %wbc = linalg.broadcast ins(%w : tensor<32x24xf32>) outs(%wb : tensor<2x32x24xf32>) dimensions = [0]
  %c = linalg.batch_matmul ins(%a, %wbc : tensor<2x3x32xf32>, tensor<2x32x24xf32>) outs(%z : tensor<2x3x24xf32>) -> tensor<2x3x24xf32>
  %r = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x3x24xf32> into tensor<6x24xf32>
  %h = tensor.expand_shape %r [[0], [1, 2]] output_shape [6, 3, 8] : tensor<6x24xf32> into tensor<6x3x8xf32>
  %e = tensor.empty() : tensor<6x3x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.layer_norm ins(%h : tensor<6x3x8xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<6x3x8xf32>) -> tensor<6x3x8xf32>
  return %y : tensor<6x3x8xf32>
}

// -----

// OLMo2 normalizes q over the whole H·D before the head split: the plain
// matmul → norm fusion, no head_dim; the expand_shape stays after it.
// CHECK-LABEL: func.func @olmo2_whole_row
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<4x32xf32>) rhs(%arg1 : tensor<32x16xf32>) weight(%arg2 : tensor<16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]]
//       CHECK: return %[[H]]
func.func @olmo2_whole_row(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %g: tensor<16xf32>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%c : tensor<4x16xf32>) weight(%g : tensor<16xf32>) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %y [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  return %h : tensor<4x2x8xf32>
}

// -----

// A reshape whose rows are not within the product's rows: [4, 12] → [6, 8]
// (8 does not divide 12), so a normalized row of 8 would span two rows of
// the product. Not fused.
// CHECK-LABEL: func.func @reshape_not_heads
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @reshape_not_heads(%a: tensor<4x32xf32>, %w: tensor<32x12xf32>) -> tensor<6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x12xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x12xf32>) -> tensor<4x12xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x12xf32>) outs(%z : tensor<4x12xf32>) -> tensor<4x12xf32>
  %f = tensor.collapse_shape %c [[0, 1]] : tensor<4x12xf32> into tensor<48xf32>
  %r = tensor.expand_shape %f [[0, 1]] output_shape [6, 8] : tensor<48xf32> into tensor<6x8xf32>
  %e = tensor.empty() : tensor<6x8xf32>
  // expected-remark @+1 {{with a producer: its normalized dim (8) does not divide the matmul's N (12), so a normalized row would span rows of the product}}
  %y = norm.rms_norm ins(%r : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

// -----

// A transpose that moves the normalized dim: [T, H, D] → [T, D, H], norm
// over H. Not fused.
// CHECK-LABEL: func.func @transpose_moves_last_dim
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @transpose_moves_last_dim(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %te = tensor.empty() : tensor<4x8x2xf32>
  %t = linalg.transpose ins(%h : tensor<4x2x8xf32>) outs(%te : tensor<4x8x2xf32>) permutation = [0, 2, 1]
  // expected-remark @+1 {{with a producer: its normalized dim (size 2) is not 2 consecutive columns of one row of the product: it takes columns of different heads (each row of the product as 8 heads of 2) ('linalg.transpose', view 2 of 2 after the matmul, makes it so)}}
  %y = norm.rms_norm ins(%t : tensor<4x8x2xf32>) outs(%te : tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  return %y : tensor<4x8x2xf32>
}

// -----

// The heads are also read unnormalized (the rotary embedding of v, say):
// the view must stay, so the norm is left alone.
// CHECK-LABEL: func.func @heads_other_user
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @heads_other_user(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> (tensor<4x2x8xf32>, tensor<4x2x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{with a producer: a reshape or transpose of the product has other users}}
  %y = norm.rms_norm ins(%h : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y, %h : tensor<4x2x8xf32>, tensor<4x2x8xf32>
}

// -----

// A dynamic N: the head split cannot be proven. Not fused.
// CHECK-LABEL: func.func @dynamic_n
//       CHECK: norm.rms_norm ins
func.func @dynamic_n(%a: tensor<4x32xf32>, %w: tensor<32x?xf32>, %h0: index) -> tensor<4x?x8xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %w, %c1 : tensor<32x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%n) : tensor<4x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x?xf32>) -> tensor<4x?xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x?xf32>) outs(%z : tensor<4x?xf32>) -> tensor<4x?xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, %h0, 8] : tensor<4x?xf32> into tensor<4x?x8xf32>
  %e = tensor.empty(%h0) : tensor<4x?x8xf32>
  // expected-remark @+1 {{with a producer: the matmul's N is dynamic, so its split into heads is unknown}}
  %y = norm.rms_norm ins(%h : tensor<4x?x8xf32>) outs(%e : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  return %y : tensor<4x?x8xf32>
}
