// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// QK-norm → RoPE (Qwen3's q/k norms): a per-head norm with a rotary
// embedding, on the product split into [..., H, D], fuses into
// norm.matmul_rms_norm with the rotation (`rope(cos, sin)`, `rope_mode`),
// its angles as the norm had them; after the input norm's norm → matmul too
// (the whole chain in one op). Rotations that cannot go with the fused op
// leave the norm standalone, with a remark that says why.

// Qwen3's q: the input norm's projection, its heads, the q-norm with the
// rotation it took (norm.rms_norm rope), all one op.
// CHECK-LABEL: func.func @qwen3_q
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<8x64xf32>) rhs(%arg1 : tensor<128x64xf32>) weight(%arg3 : tensor<32xf32>) input_weight(%arg2 : tensor<64xf32>) rope(%arg4, %arg5 : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%{{.*}} : tensor<8x128xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 32 : i64, input_epsilon = 9.99999997E-7 : f32, transpose_rhs} -> tensor<8x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [8, 4, 32]
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[H]]
func.func @qwen3_q(%x: tensor<8x64xf32>, %w: tensor<128x64xf32>, %gi: tensor<64xf32>, %g: tensor<32xf32>, %c: tensor<8x1x32xf32>, %s: tensor<8x1x32xf32>) -> tensor<8x4x32xf32> {
  %ec = tensor.empty() : tensor<8x128xf32>
  %p = norm.rms_norm_matmul ins(%x : tensor<8x64xf32>) weight(%gi : tensor<64xf32>) rhs(%w : tensor<128x64xf32>) outs(%ec : tensor<8x128xf32>) {epsilon = 1.0e-6 : f32, transpose_rhs} -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>) rope(%c, %s : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%e : tensor<8x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// A plain matmul, interleaved pairs, one angle row for every row.
// CHECK-LABEL: func.func @pairs
//       CHECK: norm.matmul_rms_norm ins(%arg0 : tensor<6x16xf32>) rhs(%arg1 : tensor<16x32xf32>) rope(%arg2, %arg3 : tensor<1x1x16xf32>, tensor<1x1x16xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 16 : i64, rope_mode = #norm.rope_mode<interleaved>} -> tensor<6x32xf32>
//   CHECK-NOT: norm.rms_norm
func.func @pairs(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<1x1x16xf32>, %s: tensor<1x1x16xf32>) -> tensor<6x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %e = tensor.empty() : tensor<6x2x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<6x2x16xf32>) rope(%c, %s : tensor<1x1x16xf32>, tensor<1x1x16xf32>) outs(%e : tensor<6x2x16xf32>) {rope_mode = #norm.rope_mode<interleaved>} -> tensor<6x2x16xf32>
  return %y : tensor<6x2x16xf32>
}

// -----

// Heads transposed to [H, T, D] before the norm: a norm over D commutes
// with the transpose. The angles ([1, T, D]: one row per position, every
// head) vary along T and D, in the same order in the product's [T, H, D]
// view, so they are the fused op's as [T, 1, D] (a reshape), and the
// transpose follows the fused op.
// CHECK-LABEL: func.func @transposed_heads
//  CHECK-SAME: %[[C:[^:]*]]: tensor<1x6x16xf32>, %[[S:[^:]*]]: tensor<1x6x16xf32>
//   CHECK-DAG: %[[CC:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1], [2]] : tensor<1x6x16xf32> into tensor<6x16xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[CC]] {{\[}}[0, 1], [2]] output_shape [6, 1, 16] : tensor<6x16xf32> into tensor<6x1x16xf32>
//   CHECK-DAG: %[[SC:.*]] = tensor.collapse_shape %[[S]]
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[SC]]
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%{{.*}} : tensor<6x16xf32>) rhs(%{{.*}} : tensor<16x32xf32>) rope(%[[CV]], %[[SV]] : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 16 : i64} -> tensor<6x32xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [6, 2, 16]
//  CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<6x2x16xf32>) outs(%{{.*}} : tensor<2x6x16xf32>) permutation = [1, 0, 2]
//  CHECK-NEXT: return %[[T]]
func.func @transposed_heads(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<1x6x16xf32>, %s: tensor<1x6x16xf32>) -> tensor<2x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %te = tensor.empty() : tensor<2x6x16xf32>
  %t = linalg.transpose ins(%h : tensor<6x2x16xf32>) outs(%te : tensor<2x6x16xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<2x6x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<2x6x16xf32>) rope(%c, %s : tensor<1x6x16xf32>, tensor<1x6x16xf32>) outs(%e : tensor<2x6x16xf32>) -> tensor<2x6x16xf32>
  return %y : tensor<2x6x16xf32>
}

// -----

// Hugging Face's layout: [B, T, H·D] from a batch matmul, viewed
// [B, T, H, D], transposed to [B, H, T, D], angles [B, 1, T, D]: in the
// product's view [B, T, 1, D], interleaved pairs.
// CHECK-LABEL: func.func @hf_batch_heads
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%{{.*}} : tensor<2x6x16xf32>) rhs(%{{.*}} : tensor<16x64xf32>) rope(%{{.*}}, %{{.*}} : tensor<2x6x1x16xf32>, tensor<2x6x1x16xf32>) outs(%{{.*}} : tensor<2x6x64xf32>) {head_dim = 16 : i64, rope_mode = #norm.rope_mode<interleaved>} -> tensor<2x6x64xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, 6, 4, 16]
//  CHECK-NEXT: linalg.transpose ins(%[[H]] : tensor<2x6x4x16xf32>) outs(%{{.*}} : tensor<2x4x6x16xf32>) permutation = [0, 2, 1, 3]
func.func @hf_batch_heads(%a: tensor<2x6x16xf32>, %w: tensor<16x64xf32>, %c: tensor<2x1x6x16xf32>, %s: tensor<2x1x6x16xf32>) -> tensor<2x4x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %we = tensor.empty() : tensor<2x16x64xf32>
  %wb = linalg.broadcast ins(%w : tensor<16x64xf32>) outs(%we : tensor<2x16x64xf32>) dimensions = [0]
  %ce = tensor.empty() : tensor<2x6x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
  %p = linalg.batch_matmul ins(%a, %wb : tensor<2x6x16xf32>, tensor<2x16x64xf32>) outs(%z : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
  %h = tensor.expand_shape %p [[0], [1], [2, 3]] output_shape [2, 6, 4, 16] : tensor<2x6x64xf32> into tensor<2x6x4x16xf32>
  %te = tensor.empty() : tensor<2x4x6x16xf32>
  %t = linalg.transpose ins(%h : tensor<2x6x4x16xf32>) outs(%te : tensor<2x4x6x16xf32>) permutation = [0, 2, 1, 3]
  %e = tensor.empty() : tensor<2x4x6x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<2x4x6x16xf32>) rope(%c, %s : tensor<2x1x6x16xf32>, tensor<2x1x6x16xf32>) outs(%e : tensor<2x4x6x16xf32>) {rope_mode = #norm.rope_mode<interleaved>} -> tensor<2x4x6x16xf32>
  return %y : tensor<2x4x6x16xf32>
}

// -----

// Angles per head and position ([H, T, D] over [H, T, D] heads): in the
// product's view they would be [T, H, D], a transpose of the table, not a
// reshape. The norm keeps them, standalone.
// CHECK-LABEL: func.func @transposed_per_head_angles
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm
func.func @transposed_per_head_angles(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<2x6x16xf32>, %s: tensor<2x6x16xf32>) -> tensor<2x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %te = tensor.empty() : tensor<2x6x16xf32>
  %t = linalg.transpose ins(%h : tensor<6x2x16xf32>) outs(%te : tensor<2x6x16xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<2x6x16xf32>
  // expected-remark @+1 {{with a producer: its rotary angles vary along dims that a transpose before the norm reorders, so in the product's [..., H, D] view they would need a transpose of their own}}
  %y = norm.rms_norm ins(%t : tensor<2x6x16xf32>) rope(%c, %s : tensor<2x6x16xf32>, tensor<2x6x16xf32>) outs(%e : tensor<2x6x16xf32>) -> tensor<2x6x16xf32>
  return %y : tensor<2x6x16xf32>
}

// -----

// Heads reached through other reshapes ([T, H·D] as [T·H, D], then
// [T, H, D] again): their composite is the product's heads view, so the
// angles [T, 1, D] are already in the fused op's frame.
// CHECK-LABEL: func.func @other_reshape
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} rope(%arg2, %arg3 : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs({{.*}}) {head_dim = 16 : i64} -> tensor<6x32xf32>
//  CHECK-NEXT: tensor.expand_shape %[[Y]]
//  CHECK-NEXT: tensor.collapse_shape
//  CHECK-NEXT: tensor.expand_shape
//   CHECK-NOT: norm.rms_norm
func.func @other_reshape(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<6x1x16xf32>, %s: tensor<6x1x16xf32>) -> tensor<6x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %r = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %f = tensor.collapse_shape %r [[0, 1], [2]] : tensor<6x2x16xf32> into tensor<12x16xf32>
  %h = tensor.expand_shape %f [[0, 1], [2]] output_shape [6, 2, 16] : tensor<12x16xf32> into tensor<6x2x16xf32>
  %e = tensor.empty() : tensor<6x2x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<6x2x16xf32>) rope(%c, %s : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%e : tensor<6x2x16xf32>) -> tensor<6x2x16xf32>
  return %y : tensor<6x2x16xf32>
}

// -----

// Angles that vary along a dim the reshapes merge: the norm reads
// [T·H, D] heads with one angle row per (position, head), which in the
// fused op's [T, H, D] frame is two whole dims of it in their order: the
// angles are the table reshaped to [T, H, D] (through one flat dim).
// CHECK-LABEL: func.func @angles_on_merged_dim
//  CHECK-SAME: %[[C:[^:]*]]: tensor<12x16xf32>, %[[S:[^:]*]]: tensor<12x16xf32>
//   CHECK-DAG: %[[CF:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1]] : tensor<12x16xf32> into tensor<192xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[CF]] {{\[}}[0, 1, 2]] output_shape [6, 2, 16] : tensor<192xf32> into tensor<6x2x16xf32>
//   CHECK-DAG: %[[SF:.*]] = tensor.collapse_shape %[[S]]
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[SF]]
//       CHECK: norm.matmul_rms_norm {{.*}} rope(%[[CV]], %[[SV]] : tensor<6x2x16xf32>, tensor<6x2x16xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 16 : i64} -> tensor<6x32xf32>
//   CHECK-NOT: norm.rms_norm
func.func @angles_on_merged_dim(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<12x16xf32>, %s: tensor<12x16xf32>) -> tensor<12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %r = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %f = tensor.collapse_shape %r [[0, 1], [2]] : tensor<6x2x16xf32> into tensor<12x16xf32>
  %e = tensor.empty() : tensor<12x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%f : tensor<12x16xf32>) rope(%c, %s : tensor<12x16xf32>, tensor<12x16xf32>) outs(%e : tensor<12x16xf32>) -> tensor<12x16xf32>
  return %y : tensor<12x16xf32>
}

// -----

// Angles that vary along dims a reshape split: the product's rows B·T
// viewed [B, T, H, D], angles [B, T, 1, D] (one row per position of each
// sequence) are the fused op's [B·T, 1, D].
// CHECK-LABEL: func.func @angles_on_split_rows
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [6, 1, 16] : tensor<96xf32> into tensor<6x1x16xf32>
//       CHECK: norm.matmul_rms_norm {{.*}} rope(%[[CV]], %{{.*}} : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 16 : i64} -> tensor<6x32xf32>
//  CHECK-NEXT: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [2, 3, 2, 16]
//   CHECK-NOT: norm.rms_norm
func.func @angles_on_split_rows(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<2x3x1x16xf32>, %s: tensor<2x3x1x16xf32>) -> tensor<2x3x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 3, 2, 16] : tensor<6x32xf32> into tensor<2x3x2x16xf32>
  %e = tensor.empty() : tensor<2x3x2x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<2x3x2x16xf32>) rope(%c, %s : tensor<2x3x1x16xf32>, tensor<2x3x1x16xf32>) outs(%e : tensor<2x3x2x16xf32>) -> tensor<2x3x2x16xf32>
  return %y : tensor<2x3x2x16xf32>
}

// -----

// Angles along a part of a split dim: [1, T, 1, D] over the rows B·T
// viewed [B, T, H, D] (the same positions in every sequence). In the
// product's [B·T, H, D] view they would be the table repeated B times (a
// copy); the fused op takes the view's split of the rows instead (A
// viewed as [B, T, K], its output [B, T, N]), where they are the table
// itself, and the split into heads stays a view of its output.
// CHECK-LABEL: func.func @angles_on_part_of_rows
//  CHECK-SAME: %[[A:[^:]*]]: tensor<6x16xf32>, %[[W:[^:]*]]: tensor<16x32xf32>, %[[C:[^:]*]]: tensor<1x3x1x16xf32>, %[[S:[^:]*]]: tensor<1x3x1x16xf32>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1], [2]] output_shape [2, 3, 16] : tensor<6x16xf32> into tensor<2x3x16xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<2x3x16xf32>) rhs(%[[W]] : tensor<16x32xf32>) rope(%[[C]], %[[S]] : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%{{.*}} : tensor<2x3x32xf32>) {head_dim = 16 : i64}
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, 3, 2, 16] : tensor<2x3x32xf32> into tensor<2x3x2x16xf32>
//  CHECK-NEXT: return %[[H]]
func.func @angles_on_part_of_rows(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<1x3x1x16xf32>, %s: tensor<1x3x1x16xf32>) -> tensor<2x3x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 3, 2, 16] : tensor<6x32xf32> into tensor<2x3x2x16xf32>
  %e = tensor.empty() : tensor<2x3x2x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<2x3x2x16xf32>) rope(%c, %s : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%e : tensor<2x3x2x16xf32>) -> tensor<2x3x2x16xf32>
  return %y : tensor<2x3x2x16xf32>
}

// -----

// Angles along a merge of dims a transpose swapped first ([H, T, D] heads
// merged to [H·T, D]): in the product's [T, H, D] view the table would be
// transposed. Not fused.
// CHECK-LABEL: func.func @angles_merged_after_transpose
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm
func.func @angles_merged_after_transpose(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<12x16xf32>, %s: tensor<12x16xf32>) -> tensor<12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %te = tensor.empty() : tensor<2x6x16xf32>
  %t = linalg.transpose ins(%h : tensor<6x2x16xf32>) outs(%te : tensor<2x6x16xf32>) permutation = [1, 0, 2]
  %f = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x6x16xf32> into tensor<12x16xf32>
  %e = tensor.empty() : tensor<12x16xf32>
  // expected-remark @+1 {{with a producer: its rotary angles vary along dims that a transpose before the norm reorders, so in the product's [..., H, D] view they would need a transpose of their own}}
  %y = norm.rms_norm ins(%f : tensor<12x16xf32>) rope(%c, %s : tensor<12x16xf32>, tensor<12x16xf32>) outs(%e : tensor<12x16xf32>) -> tensor<12x16xf32>
  return %y : tensor<12x16xf32>
}

// -----

// A whole-row norm with a rotation: the fused op rotates per head only.
// CHECK-LABEL: func.func @whole_rows
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm
func.func @whole_rows(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<6x32xf32>, %s: tensor<6x32xf32>) -> tensor<6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %e = tensor.empty() : tensor<6x32xf32>
  // expected-remark @+1 {{with a producer: its rotary embedding (rope) is per head, and the norm is not}}
  %y = norm.rms_norm ins(%p : tensor<6x32xf32>) rope(%c, %s : tensor<6x32xf32>, tensor<6x32xf32>) outs(%e : tensor<6x32xf32>) -> tensor<6x32xf32>
  return %y : tensor<6x32xf32>
}

// -----

// One head per row through a view (Gemma 3's k with one KV head: [T, N]
// viewed [1, T, N] after a transpose): the head is the whole row, and the
// fused op rotates it as one head of N columns (head_dim = N).
// CHECK-LABEL: func.func @one_head_view
//       CHECK: %[[CV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [6, 1, 32] : tensor<6x32xf32> into tensor<6x1x32xf32>
//       CHECK: norm.matmul_rms_norm ins(%{{.*}} : tensor<6x16xf32>) rhs(%{{.*}} : tensor<16x32xf32>) rope(%[[CV]], %{{.*}} : tensor<6x1x32xf32>, tensor<6x1x32xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 32 : i64}
//   CHECK-NOT: norm.rms_norm
func.func @one_head_view(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<1x6x32xf32>, %s: tensor<1x6x32xf32>) -> tensor<1x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 1, 32] : tensor<6x32xf32> into tensor<6x1x32xf32>
  %te = tensor.empty() : tensor<1x6x32xf32>
  %t = linalg.transpose ins(%h : tensor<6x1x32xf32>) outs(%te : tensor<1x6x32xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<1x6x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<1x6x32xf32>) rope(%c, %s : tensor<1x6x32xf32>, tensor<1x6x32xf32>) outs(%e : tensor<1x6x32xf32>) -> tensor<1x6x32xf32>
  return %y : tensor<1x6x32xf32>
}

// -----

// A LayerNorm with a rotation: matmul_layer_norm takes none.
// CHECK-LABEL: func.func @layer_norm
//       CHECK: linalg.matmul
//       CHECK: norm.layer_norm
func.func @layer_norm(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<6x1x16xf32>, %s: tensor<6x1x16xf32>) -> tensor<6x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %e = tensor.empty() : tensor<6x2x16xf32>
  // expected-remark @+1 {{with a producer: its rotary embedding (rope) has a fused form on matmul_rms_norm only}}
  %y = norm.layer_norm ins(%h : tensor<6x2x16xf32>) rope(%c, %s : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%e : tensor<6x2x16xf32>) -> tensor<6x2x16xf32>
  return %y : tensor<6x2x16xf32>
}
