// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s
// RUN: norm-opt %s --norm-fuse-matmul="rope=false" --split-input-file | FileCheck %s --check-prefix=OFF

// QK-norm → RoPE on a plain projection, the rotation written as elementwise
// ops (torch-mlir's spelling): linalg.matmul → expand_shape to [T, H, D]
// (maybe transposed to [H, T, D]) → per-head norm → v·cos + rot(v)·sin.
// The norm takes the rotation first (its rope epilogue), then fuses with
// the matmul, so one norm.matmul_rms_norm does all of it, its angles
// reshaped to the product's [T, H, D] view. Forms whose rotation the fused
// op cannot take fuse without it, with a remark.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// Hugging Face's rotate_half, as torch-mlir emits it: two slices, a negf
// generic, tensor.concat; cos/sin [T, D] broadcast over the heads.
// CHECK-LABEL: func.func @half_concat
//  CHECK-SAME: %[[A:[^:]*]]: tensor<8x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>, %[[G:[^:]*]]: tensor<32xf32>, %[[C:[^:]*]]: tensor<8x32xf32>, %[[S:[^:]*]]: tensor<8x32xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[A]] : tensor<8x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) weight(%[[G]] : tensor<32xf32>) rope(%[[CV]], %[[SV]] : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%{{.*}} : tensor<8x128xf32>) {head_dim = 32 : i64} -> tensor<8x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [8, 4, 32]
//  CHECK-NEXT: return %[[H]]
// The rotation stays when the pass may not take it.
// OFF-LABEL: func.func @half_concat
//       OFF: norm.matmul_rms_norm ins(%{{.*}} : tensor<8x64xf32>) rhs(%{{.*}} : tensor<64x128xf32>) weight(%{{.*}} : tensor<32xf32>) outs
//       OFF: tensor.concat
func.func @half_concat(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %e2 = tensor.empty() : tensor<8x4x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<8x4x16xf32>) outs(%e2 : tensor<8x4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.negf %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
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
#b0 = affine_map<(d0, d1, d2) -> (0, d1, d2)>

// The example's order (the norm on [T, H, D], transposed to [H, T, D],
// rotated there), with torch-mlir's broadcast of cos/sin [1, T, D] over the
// heads (a constant 0 in the map): the transpose follows the fused op.
// CHECK-LABEL: func.func @half_after_transpose
//  CHECK-SAME: %[[C:[^:]*]]: tensor<1x8x32xf32>, %[[S:[^:]*]]: tensor<1x8x32xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} rope(%[[CV]], %[[SV]] : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%{{.*}} : tensor<8x128xf32>) {head_dim = 32 : i64} -> tensor<8x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [8, 4, 32]
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<8x4x32xf32>) outs(%{{.*}} : tensor<4x8x32xf32>) permutation = [1, 0, 2]
//  CHECK-NEXT: return %[[T]]
func.func @half_after_transpose(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x8x32xf32>, %sin: tensor<1x8x32xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<8x4x32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %te = tensor.empty() : tensor<4x8x32xf32>
  %q = linalg.transpose ins(%n : tensor<8x4x32xf32>) outs(%te : tensor<4x8x32xf32>) permutation = [1, 0, 2]
  %x1 = tensor.extract_slice %q[0, 0, 0] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %x2 = tensor.extract_slice %q[0, 0, 16] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<4x8x16xf32>) outs(%e2 : tensor<4x8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.negf %v : f32
    linalg.yield %t : f32
  } -> tensor<4x8x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x32xf32>
  %e1 = tensor.empty() : tensor<4x8x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #b0, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<4x8x32xf32>, tensor<1x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #b0, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x8x32xf32>, tensor<1x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d1, d2)>

// Heads transposed before the norm ([T, H, D] → [H, T, D] → norm → RoPE,
// angles [T, D] read by (h, t, d) → (t, d)): the norm over D commutes with
// the transpose, the angles vary along T and D only, in the same order in
// both views, so the fused op takes them as [T, 1, D].
// CHECK-LABEL: func.func @heads_transposed_first
//  CHECK-SAME: %[[C:[^:]*]]: tensor<8x32xf32>, %[[S:[^:]*]]: tensor<8x32xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32] : tensor<8x32xf32> into tensor<8x1x32xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} rope(%[[CV]], %[[SV]] : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%{{.*}} : tensor<8x128xf32>) {head_dim = 32 : i64} -> tensor<8x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [8, 4, 32]
//  CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<8x4x32xf32>) outs(%{{.*}} : tensor<4x8x32xf32>) permutation = [1, 0, 2]
//  CHECK-NEXT: return %[[T]]
func.func @heads_transposed_first(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %te = tensor.empty() : tensor<4x8x32xf32>
  %ht = linalg.transpose ins(%h : tensor<8x4x32xf32>) outs(%te : tensor<4x8x32xf32>) permutation = [1, 0, 2]
  %e0 = tensor.empty() : tensor<4x8x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%ht : tensor<4x8x32xf32>) outs(%e0 : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [4, 8, 16] [1, 1, 1] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %nx2 = arith.negf %x2 : tensor<4x8x16xf32>
  %rot = tensor.concat dim(2) %nx2, %x1 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x32xf32>
  %e1 = tensor.empty() : tensor<4x8x32xf32>
  %qc = linalg.generic {indexing_maps = [#td, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos, %n : tensor<8x32xf32>, tensor<4x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%c: f32, %v: f32, %o: f32):
    %t = arith.mulf %c, %v : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x8x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qs, %qc : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// GPT-J's interleaved pairs (stride-2 slices, stack as expand + concat +
// collapse) after a projection with W N×K (PyTorch's Linear).
// CHECK-LABEL: func.func @pairs_stack
//       CHECK: norm.matmul_rms_norm ins(%{{.*}} : tensor<6x16xf32>) rhs(%{{.*}} : tensor<32x16xf32>) rope(%{{.*}}, %{{.*}} : tensor<6x1x16xf32>, tensor<6x1x16xf32>) outs(%{{.*}} : tensor<6x32xf32>) {head_dim = 16 : i64, rope_mode = #norm.rope_mode<interleaved>, transpose_rhs} -> tensor<6x32xf32>
//   CHECK-NOT: tensor.concat
func.func @pairs_stack(%a: tensor<6x16xf32>, %w: tensor<32x16xf32>, %cos: tensor<6x16xf32>, %sin: tensor<6x16xf32>) -> tensor<6x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<6x16xf32>, tensor<32x16xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 2, 16] : tensor<6x32xf32> into tensor<6x2x16xf32>
  %e0 = tensor.empty() : tensor<6x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<6x2x16xf32>) outs(%e0 : tensor<6x2x16xf32>) -> tensor<6x2x16xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xf32> to tensor<6x2x8xf32>
  %x2 = tensor.extract_slice %n[0, 0, 1] [6, 2, 8] [1, 1, 2] : tensor<6x2x16xf32> to tensor<6x2x8xf32>
  %neg = arith.negf %x2 : tensor<6x2x8xf32>
  %sa = tensor.expand_shape %neg [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xf32> into tensor<6x2x8x1xf32>
  %sb = tensor.expand_shape %x1 [[0], [1], [2, 3]] output_shape [6, 2, 8, 1] : tensor<6x2x8xf32> into tensor<6x2x8x1xf32>
  %st = tensor.concat dim(3) %sa, %sb : (tensor<6x2x8x1xf32>, tensor<6x2x8x1xf32>) -> tensor<6x2x8x2xf32>
  %rot = tensor.collapse_shape %st [[0], [1], [2, 3]] : tensor<6x2x8x2xf32> into tensor<6x2x16xf32>
  %e1 = tensor.empty() : tensor<6x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<6x2x16xf32>, tensor<6x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<6x2x16xf32>, tensor<6x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<6x2x16xf32>, tensor<6x2x16xf32>) outs(%e1 : tensor<6x2x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<6x2x16xf32>
  return %y : tensor<6x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// Angles given as [T, D/2] and duplicated by a concat (Hugging Face's
// cat(freqs, freqs) before cos/sin): the concat is the angle table the
// fused op reads.
// CHECK-LABEL: func.func @half_angles_concat
//       CHECK: %[[CC:.*]] = tensor.concat dim(1) %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
//       CHECK: %[[CV:.*]] = tensor.expand_shape %[[CC]] {{\[}}[0, 1], [2]] output_shape [8, 1, 32]
//       CHECK: norm.matmul_rms_norm {{.*}} rope(%[[CV]], %{{.*}} : tensor<8x1x32xf32>, tensor<8x1x32xf32>) {{.*}}{head_dim = 32 : i64}
func.func @half_angles_concat(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %ch: tensor<8x16xf32>, %sh: tensor<8x16xf32>) -> tensor<8x4x32xf32> {
  %cos = tensor.concat dim(1) %ch, %ch : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %sin = tensor.concat dim(1) %sh, %sh : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<8x4x32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %neg = arith.negf %x2 : tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
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
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// bf16 (extf/truncf in the bodies): each step rounds to bf16, the norm's
// rope_rounding = each_step; the norm takes the rotation, then fuses with
// the matmul carrying it.
// CHECK-LABEL: func.func @half_bf16_steps
//       CHECK: norm.matmul_rms_norm ins(%{{.*}} : tensor<8x64xbf16>) rhs(%{{.*}} : tensor<64x128xbf16>) rope(%{{.*}}, %{{.*}} : tensor<8x1x32xbf16>, tensor<8x1x32xbf16>) outs(%{{.*}} : tensor<8x128xbf16>) {head_dim = 32 : i64, rope_rounding = #norm.rope_rounding<each_step>}
//   CHECK-NOT: tensor.concat
//       CHECK: return
func.func @half_bf16_steps(%a: tensor<8x64xbf16>, %w: tensor<64x128xbf16>, %cos: tensor<8x32xbf16>, %sin: tensor<8x32xbf16>) -> tensor<8x4x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %be = tensor.empty() : tensor<8x128xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<8x128xf32>) outs(%be : tensor<8x128xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x128xbf16>
  %h = tensor.expand_shape %pb [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xbf16> into tensor<8x4x32xbf16>
  %e0 = tensor.empty() : tensor<8x4x32xbf16>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<8x4x32xbf16>) outs(%e0 : tensor<8x4x32xbf16>) -> tensor<8x4x32xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xbf16> to tensor<8x4x16xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xbf16> to tensor<8x4x16xbf16>
  %neg = arith.negf %x2 : tensor<8x4x16xbf16>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<8x4x16xbf16>, tensor<8x4x16xbf16>) -> tensor<8x4x32xbf16>
  %e1 = tensor.empty() : tensor<8x4x32xbf16>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xbf16>, tensor<8x32xbf16>) outs(%e1 : tensor<8x4x32xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %v32 = arith.extf %v : bf16 to f32
    %c32 = arith.extf %c : bf16 to f32
    %t = arith.mulf %v32, %c32 : f32
    %rt = arith.truncf %t : f32 to bf16
    linalg.yield %rt : bf16
  } -> tensor<8x4x32xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xbf16>, tensor<8x32xbf16>) outs(%e1 : tensor<8x4x32xbf16>) {
  ^bb0(%v: bf16, %s: bf16, %o: bf16):
    %v32 = arith.extf %v : bf16 to f32
    %s32 = arith.extf %s : bf16 to f32
    %t = arith.mulf %v32, %s32 : f32
    %rt = arith.truncf %t : f32 to bf16
    linalg.yield %rt : bf16
  } -> tensor<8x4x32xbf16>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<8x4x32xbf16>, tensor<8x4x32xbf16>) outs(%e1 : tensor<8x4x32xbf16>) {
  ^bb0(%l: bf16, %r: bf16, %o: bf16):
    %p32 = arith.extf %l : bf16 to f32
    %q32 = arith.extf %r : bf16 to f32
    %t = arith.addf %p32, %q32 : f32
    %rt = arith.truncf %t : f32 to bf16
    linalg.yield %rt : bf16
  } -> tensor<8x4x32xbf16>
  return %y : tensor<8x4x32xbf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// A per-head LayerNorm: matmul_layer_norm takes no rotation, so the norm
// fuses with the matmul first and the rotation stays as written.
// CHECK-LABEL: func.func @layer_norm_heads
//       CHECK: norm.matmul_layer_norm
//       CHECK: tensor.concat
func.func @layer_norm_heads(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @+1 {{norm.layer_norm fused with its producing matmul}}
  %n = norm.layer_norm ins(%h : tensor<8x4x32xf32>) outs(%e0 : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %neg = arith.negf %x2 : tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
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
