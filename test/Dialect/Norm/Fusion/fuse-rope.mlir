// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s
// RUN: norm-opt %s --norm-fuse-matmul="rope=false" --split-input-file | FileCheck %s --check-prefix=OFF

// norm → RoPE: the rotary embedding after a norm that fuses with no matmul
// (QK-norm: the per-head norm of q or k) becomes the norm's rope(cos, sin),
// the angles viewed in the norm's dims; a transpose that keeps the head dim
// last moves after the norm. Refusals say why in a remark.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d1, d2)>

// Qwen3's q, as the example writes it: [T, H, D] normed, transposed to
// [H, T, D], rotate_half from slices, a negf generic and inserts, cos/sin
// [T, D] read by (h, t, d) -> (t, d).
// CHECK-LABEL: func.func @qwen3_rotate_half
//  CHECK-SAME: %[[X:[^:]*]]: tensor<8x4x32xf32>, %[[G:[^:]*]]: tensor<32xf32>, %[[C:[^:]*]]: tensor<8x32xf32>, %[[S:[^:]*]]: tensor<8x32xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%[[X]] : tensor<8x4x32xf32>) weight(%[[G]] : tensor<32xf32>) rope(%[[CV]], %[[SV]] : tensor<8x1x32xf32>, tensor<8x1x32xf32>)
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[N]] : tensor<8x4x32xf32>) outs(%{{.*}} : tensor<4x8x32xf32>) permutation = [1, 0, 2]
//       CHECK: return %[[T]]
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.extract_slice
// OFF-LABEL: func.func @qwen3_rotate_half
//       OFF: norm.rms_norm ins(%{{.*}} : tensor<8x4x32xf32>) weight(%{{.*}} : tensor<32xf32>) outs
//       OFF: tensor.extract_slice
func.func @qwen3_rotate_half(%x: tensor<8x4x32xf32>, %g: tensor<32xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<4x8x32xf32> {
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm took the rotary embedding after it}}
  %n = norm.rms_norm ins(%x : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<4x8x32xf32>
  %q = linalg.transpose ins(%n : tensor<8x4x32xf32>) outs(%e1 : tensor<4x8x32xf32>) permutation = [1, 0, 2]
  %q1 = tensor.extract_slice %q[0, 0, 0] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %q2 = tensor.extract_slice %q[0, 0, 16] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q2 : tensor<4x8x16xf32>) outs(%e2 : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8x16xf32>
  %e3 = tensor.empty() : tensor<4x8x32xf32>
  %c0 = tensor.insert_slice %neg into %e3[0, 0, 0] [4, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> into tensor<4x8x32xf32>
  %rot = tensor.insert_slice %q1 into %c0[0, 0, 16] [4, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> into tensor<4x8x32xf32>
  %e4 = tensor.empty() : tensor<4x8x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<4x8x32xf32>, tensor<8x32xf32>) outs(%e4 : tensor<4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x8x32xf32>, tensor<8x32xf32>) outs(%e4 : tensor<4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qs, %qc : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e4 : tensor<4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// GPT-J's rotate_every_two as torch-mlir emits it, without a transpose:
// x[..., ::2] and x[..., 1::2] (stride-2 slices), stack((−x2, x1), −1)
// (expand to [..., D/2, 1], concat on the new dim), flatten(−2); cos/sin
// [T, D] over [T, H, D].
// CHECK-LABEL: func.func @gptj_interleaved_f32
//       CHECK: %[[CV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [6, 1, 16] : tensor<6x16xf32> into tensor<6x1x16xf32>
//       CHECK: %[[SV:.*]] = tensor.expand_shape
//       CHECK: %[[N:.*]] = norm.layer_norm ins(%{{.*}} : tensor<6x2x16xf32>) rope(%[[CV]], %[[SV]] : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%{{.*}} : tensor<6x2x16xf32>) {rope_mode = #norm.rope_mode<interleaved>}
//       CHECK: return %[[N]]
func.func @gptj_interleaved_f32(%x: tensor<6x2x16xf32>, %cos: tensor<6x16xf32>, %sin: tensor<6x16xf32>) -> tensor<6x2x16xf32> {
  %e0 = tensor.empty() : tensor<6x2x16xf32>
  // expected-remark @+2 {{norm.layer_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.layer_norm took the rotary embedding after it}}
  %n = norm.layer_norm ins(%x : tensor<6x2x16xf32>) outs(%e0 : tensor<6x2x16xf32>) -> tensor<6x2x16xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xf32> to tensor<6x2x8xf32>
  %x2 = tensor.extract_slice %n[0, 0, 1] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xf32> to tensor<6x2x8xf32>
  %neg = arith.negf %x2 : tensor<6x2x8xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xf32> into tensor<6x2x8x1xf32>
  %b = tensor.expand_shape %x1 [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xf32> into tensor<6x2x8x1xf32>
  %st = tensor.concat dim(3) %a, %b : (tensor<6x2x8x1xf32>, tensor<6x2x8x1xf32>) -> tensor<6x2x8x2xf32>
  %rot = tensor.collapse_shape %st [[0], [1], [2, 3]] : tensor<6x2x8x2xf32> into tensor<6x2x16xf32>
  %e1 = tensor.empty() : tensor<6x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#td, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos, %n : tensor<6x16xf32>, tensor<6x2x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%c: f32, %v: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<6x2x16xf32>, tensor<6x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<6x2x16xf32>, tensor<6x2x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  return %y : tensor<6x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// The same in bf16 (extf/truncf in two bodies, a bare bf16 mulf in the
// third): each step of the rotation rounds to bf16, which is the op's
// rope_rounding = each_step, taken exactly.
// CHECK-LABEL: func.func @gptj_interleaved
//       CHECK: %[[CV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [6, 1, 16] : tensor<6x16xbf16> into tensor<6x1x16xbf16>
//       CHECK: %[[SV:.*]] = tensor.expand_shape
//       CHECK: %[[N:.*]] = norm.layer_norm ins(%{{.*}} : tensor<6x2x16xbf16>) rope(%[[CV]], %[[SV]] : tensor<6x1x16xbf16>, tensor<6x1x16xbf16>) outs(%{{.*}} : tensor<6x2x16xbf16>) {rope_mode = #norm.rope_mode<interleaved>, rope_rounding = #norm.rope_rounding<each_step>}
//       CHECK: return %[[N]]
//   CHECK-NOT: tensor.concat
func.func @gptj_interleaved(%x: tensor<6x2x16xbf16>, %cos: tensor<6x16xbf16>, %sin: tensor<6x16xbf16>) -> tensor<6x2x16xbf16> {
  %e0 = tensor.empty() : tensor<6x2x16xbf16>
  // expected-remark @+2 {{norm.layer_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.layer_norm took the rotary embedding after it}}
  %n = norm.layer_norm ins(%x : tensor<6x2x16xbf16>) outs(%e0 : tensor<6x2x16xbf16>) -> tensor<6x2x16xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xbf16> to tensor<6x2x8xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 1] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xbf16> to tensor<6x2x8xbf16>
  %neg = arith.negf %x2 : tensor<6x2x8xbf16>
  %a = tensor.expand_shape %neg [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xbf16> into tensor<6x2x8x1xbf16>
  %b = tensor.expand_shape %x1 [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xbf16> into tensor<6x2x8x1xbf16>
  %st = tensor.concat dim(3) %a, %b : (tensor<6x2x8x1xbf16>, tensor<6x2x8x1xbf16>) -> tensor<6x2x8x2xbf16>
  %rot = tensor.collapse_shape %st [[0], [1], [2, 3]] : tensor<6x2x8x2xbf16> into tensor<6x2x16xbf16>
  %e1 = tensor.empty() : tensor<6x2x16xbf16>
  %qc = linalg.generic {indexing_maps = [#td, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos, %n : tensor<6x16xbf16>, tensor<6x2x16xbf16>) outs(%e1 : tensor<6x2x16xbf16>) {
  ^bb0(%c: bf16, %v: bf16, %o: bf16):
    %w0 = arith.extf %v : bf16 to f32
    %w1 = arith.extf %c : bf16 to f32
    %t = arith.mulf %w0, %w1 : f32
    %r = arith.truncf %t : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<6x2x16xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<6x2x16xbf16>, tensor<6x16xbf16>) outs(%e1 : tensor<6x2x16xbf16>) {
  ^bb0(%v: bf16, %s: bf16, %o: bf16):
    %t = arith.mulf %v, %s : bf16
    linalg.yield %t : bf16
  } -> tensor<6x2x16xbf16>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<6x2x16xbf16>, tensor<6x2x16xbf16>) outs(%e1 : tensor<6x2x16xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %o: bf16):
    %w0 = arith.extf %p : bf16 to f32
    %w1 = arith.extf %q : bf16 to f32
    %t = arith.addf %w0, %w1 : f32
    %r = arith.truncf %t : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<6x2x16xbf16>
  return %y : tensor<6x2x16xbf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// Partial rotary (rotary_dim 8 of D = 16): rot(v) takes the first 8 only,
// the rest passes through; not this op's rotation.
// CHECK-LABEL: func.func @partial_rotary
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x2x16xf32>) outs
//       CHECK: tensor.concat
func.func @partial_rotary(%x: tensor<4x2x16xf32>, %cos: tensor<4x16xf32>, %sin: tensor<4x16xf32>) -> tensor<4x2x16xf32> {
  %e0 = tensor.empty() : tensor<4x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: rot(v) is neither rotate_half nor the interleaved pairs}}
  %n = norm.rms_norm ins(%x : tensor<4x2x16xf32>) outs(%e0 : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %a = tensor.extract_slice %n[0, 0, 0] [4, 2, 4] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x2x4xf32>
  %b = tensor.extract_slice %n[0, 0, 4] [4, 2, 4] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x2x4xf32>
  %pass = tensor.extract_slice %n[0, 0, 8] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x2x8xf32>
  %nb = arith.negf %b : tensor<4x2x4xf32>
  %rot = tensor.concat dim(2) %nb, %a, %pass : (tensor<4x2x4xf32>, tensor<4x2x4xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
  %e1 = tensor.empty() : tensor<4x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x2x16xf32>, tensor<4x2x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// A rotation over the heads (dim 1), not the normalized dim.
// CHECK-LABEL: func.func @other_dim
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x2x16xf32>) outs
func.func @other_dim(%x: tensor<4x2x16xf32>, %cos: tensor<4x16xf32>, %sin: tensor<4x16xf32>) -> tensor<4x2x16xf32> {
  %e0 = tensor.empty() : tensor<4x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: rot(v) is not made of v's elements of the same head (a rotation over a dim that is not the normalized one, or partial rotary)}}
  %n = norm.rms_norm ins(%x : tensor<4x2x16xf32>) outs(%e0 : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %a = tensor.extract_slice %n[0, 0, 0] [4, 1, 16] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x1x16xf32>
  %b = tensor.extract_slice %n[0, 1, 0] [4, 1, 16] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x1x16xf32>
  %nb = arith.negf %b : tensor<4x1x16xf32>
  %rot = tensor.concat dim(1) %nb, %a : (tensor<4x1x16xf32>, tensor<4x1x16xf32>) -> tensor<4x2x16xf32>
  %e1 = tensor.empty() : tensor<4x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x2x16xf32>, tensor<4x2x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// A step of the rotation is also returned: the normalized heads must be
// written anyway.
// CHECK-LABEL: func.func @other_user
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x2x16xf32>) outs
func.func @other_user(%x: tensor<4x2x16xf32>, %cos: tensor<4x16xf32>, %sin: tensor<4x16xf32>) -> (tensor<4x2x16xf32>, tensor<4x2x8xf32>) {
  %e0 = tensor.empty() : tensor<4x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: the norm's value (or a step of the rotation) has other users}}
  %n = norm.rms_norm ins(%x : tensor<4x2x16xf32>) outs(%e0 : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %a = tensor.extract_slice %n[0, 0, 0] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x2x8xf32>
  %b = tensor.extract_slice %n[0, 0, 8] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xf32> to tensor<4x2x8xf32>
  %nb = arith.negf %b : tensor<4x2x8xf32>
  %rot = tensor.concat dim(2) %nb, %a : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
  %e1 = tensor.empty() : tensor<4x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x2x16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x2x16xf32>, tensor<4x2x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  return %y, %a : tensor<4x2x16xf32>, tensor<4x2x8xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t0d = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// torch-mlir's broadcast of a size-1 dim: cos/sin [T, 1, D] read by
// (t, h, d) -> (t, 0, d) over [T, H, D]: a broadcast, taken as it is.
// CHECK-LABEL: func.func @const_zero_broadcast
//  CHECK-SAME: %[[C:[^:]*]]: tensor<8x1x32xf32>, %[[S:[^:]*]]: tensor<8x1x32xf32>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%{{.*}} : tensor<8x4x32xf32>) rope(%[[C]], %[[S]] : tensor<8x1x32xf32>, tensor<8x1x32xf32>)
//       CHECK: return %[[N]]
func.func @const_zero_broadcast(%x: tensor<8x4x32xf32>, %cos: tensor<8x1x32xf32>, %sin: tensor<8x1x32xf32>) -> tensor<8x4x32xf32> {
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm took the rotary embedding after it}}
  %n = norm.rms_norm ins(%x : tensor<8x4x32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %a = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %b = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %nb = arith.negf %b : tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %nb, %a : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #t0d, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x1x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #t0d, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x1x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<8x4x32xf32>, tensor<8x4x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t0d = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// A constant 0 on a dim of size 2: the first head's angles for every head
// (a slice of the table), not a broadcast.
// CHECK-LABEL: func.func @const_zero_slice
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<8x4x32xf32>) outs
//       CHECK: tensor.concat
func.func @const_zero_slice(%x: tensor<8x4x32xf32>, %cos: tensor<8x2x32xf32>, %sin: tensor<8x2x32xf32>) -> tensor<8x4x32xf32> {
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: cos/sin are not read through a broadcast of their dims}}
  %n = norm.rms_norm ins(%x : tensor<8x4x32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %a = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %b = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %nb = arith.negf %b : tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %nb, %a : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #t0d, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x2x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #t0d, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x2x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<8x4x32xf32>, tensor<8x4x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d1, d2)>

// Qwen3's q in bf16 as torch-mlir lowers HF's apply_rotary_pos_emb: the
// norm rounds before its weight (cast_mode before_weight), the rotation runs
// in bf16 (bare bf16 mulf/negf/addf, cos/sin bf16): each step rounds to
// bf16, rope_rounding = each_step.
// CHECK-LABEL: func.func @qwen3_bf16_each_step
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%{{.*}} : tensor<8x4x32xbf16>) weight(%{{.*}} : tensor<32xbf16>) rope(%{{.*}}, %{{.*}} : tensor<8x1x32xbf16>, tensor<8x1x32xbf16>) outs(%{{.*}} : tensor<8x4x32xbf16>) {cast_mode = #norm.cast_mode<before_weight>, rope_rounding = #norm.rope_rounding<each_step>}
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[N]] : tensor<8x4x32xbf16>)
//       CHECK: return %[[T]]
//   CHECK-NOT: linalg.generic
func.func @qwen3_bf16_each_step(%x: tensor<8x4x32xbf16>, %g: tensor<32xbf16>, %cos: tensor<8x32xbf16>, %sin: tensor<8x32xbf16>) -> tensor<4x8x32xbf16> {
  %e0 = tensor.empty() : tensor<8x4x32xbf16>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm took the rotary embedding after it}}
  %n = norm.rms_norm ins(%x : tensor<8x4x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e0 : tensor<8x4x32xbf16>) {cast_mode = #norm.cast_mode<before_weight>} -> tensor<8x4x32xbf16>
  %e1 = tensor.empty() : tensor<4x8x32xbf16>
  %q = linalg.transpose ins(%n : tensor<8x4x32xbf16>) outs(%e1 : tensor<4x8x32xbf16>) permutation = [1, 0, 2]
  %q1 = tensor.extract_slice %q[0, 0, 0] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xbf16> to tensor<4x8x16xbf16>
  %q2 = tensor.extract_slice %q[0, 0, 16] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xbf16> to tensor<4x8x16xbf16>
  %e2 = tensor.empty() : tensor<4x8x16xbf16>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q2 : tensor<4x8x16xbf16>) outs(%e2 : tensor<4x8x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %t = arith.negf %a : bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x16xbf16>
  %rot = tensor.concat dim(2) %neg, %q1 : (tensor<4x8x16xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x32xbf16>
  %e4 = tensor.empty() : tensor<4x8x32xbf16>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<4x8x32xbf16>, tensor<8x32xbf16>) outs(%e4 : tensor<4x8x32xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %t = arith.mulf %a, %b : bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x32xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x8x32xbf16>, tensor<8x32xbf16>) outs(%e4 : tensor<4x8x32xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %t = arith.mulf %a, %b : bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x32xbf16>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x8x32xbf16>, tensor<4x8x32xbf16>) outs(%e4 : tensor<4x8x32xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %t = arith.addf %a, %b : bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x32xbf16>
  return %r : tensor<4x8x32xbf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// f16 with f32 angles (PyTorch promotes q·cos to f32): the products and the
// sum are f32, rounded at none of the op's points (neither once in f32 from
// the unrounded norm nor each step to f16); it stays.
// CHECK-LABEL: func.func @f16_f32_angles
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x2x16xf16>) outs
//       CHECK: tensor.concat
func.func @f16_f32_angles(%x: tensor<4x2x16xf16>, %cos: tensor<4x16xf32>, %sin: tensor<4x16xf32>) -> tensor<4x2x16xf32> {
  %e0 = tensor.empty() : tensor<4x2x16xf16>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: its steps round neither once in f32 nor each to f16 (the products and the sum yield f32, f32 and f32, the angles f32)}}
  %n = norm.rms_norm ins(%x : tensor<4x2x16xf16>) outs(%e0 : tensor<4x2x16xf16>) -> tensor<4x2x16xf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xf16> to tensor<4x2x8xf16>
  %x2 = tensor.extract_slice %n[0, 0, 8] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xf16> to tensor<4x2x8xf16>
  %neg = arith.negf %x2 : tensor<4x2x8xf16>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<4x2x8xf16>, tensor<4x2x8xf16>) -> tensor<4x2x16xf16>
  %e1 = tensor.empty() : tensor<4x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<4x2x16xf16>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f16, %c: f32, %o: f32):
    %w = arith.extf %v : f16 to f32
    %t = arith.mulf %w, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x2x16xf16>, tensor<4x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%v: f16, %s: f32, %o: f32):
    %w = arith.extf %v : f16 to f32
    %t = arith.mulf %w, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x2x16xf32>, tensor<4x2x16xf32>) outs(%e1 : tensor<4x2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// bf16 products, but their sum kept in f32 (not rounded to bf16): another
// rounding point; it stays.
// CHECK-LABEL: func.func @bf16_f32_sum
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x2x16xbf16>) outs
//       CHECK: tensor.concat
func.func @bf16_f32_sum(%x: tensor<4x2x16xbf16>, %cos: tensor<4x16xbf16>, %sin: tensor<4x16xbf16>) -> tensor<4x2x16xf32> {
  %e0 = tensor.empty() : tensor<4x2x16xbf16>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: its steps round neither once in f32 nor each to bf16 (the products and the sum yield bf16, bf16 and f32, the angles bf16)}}
  %n = norm.rms_norm ins(%x : tensor<4x2x16xbf16>) outs(%e0 : tensor<4x2x16xbf16>) -> tensor<4x2x16xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xbf16> to tensor<4x2x8xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 8] [4, 2, 8] [1, 1, 1] : tensor<4x2x16xbf16> to tensor<4x2x8xbf16>
  %neg = arith.negf %x2 : tensor<4x2x8xbf16>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<4x2x8xbf16>, tensor<4x2x8xbf16>) -> tensor<4x2x16xbf16>
  %e1 = tensor.empty() : tensor<4x2x16xbf16>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<4x2x16xbf16>, tensor<4x16xbf16>) outs(%e1 : tensor<4x2x16xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %t = arith.mulf %v, %c : bf16
    linalg.yield %t : bf16
  } -> tensor<4x2x16xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x2x16xbf16>, tensor<4x16xbf16>) outs(%e1 : tensor<4x2x16xbf16>) {
  ^bb0(%v: bf16, %s: bf16, %o: bf16):
    %t = arith.mulf %v, %s : bf16
    linalg.yield %t : bf16
  } -> tensor<4x2x16xbf16>
  %e2 = tensor.empty() : tensor<4x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x2x16xbf16>, tensor<4x2x16xbf16>) outs(%e2 : tensor<4x2x16xf32>) {
  ^bb0(%p: bf16, %q: bf16, %o: f32):
    %a = arith.extf %p : bf16 to f32
    %b = arith.extf %q : bf16 to f32
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x2x16xf32>
  return %y : tensor<4x2x16xf32>
}
