// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// norm → RoPE at a dynamic sequence length (torch-mlir with dynamic shapes,
// ONNX's symbolic `seq`): cos/sin [?, D] read by a dim of v take the
// generic's loop range there, so the fused op's dynamic angle dim is the
// input's size (the op's rule for a dynamic angle dim) and the rotation
// fuses as at static sizes. What stays refused says why.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#htd = affine_map<(d0, d1, d2) -> (d1, d2)>

// Qwen3's q at a dynamic T: [T, H, D] normed, transposed to [H, T, D],
// rotate_half from slices, a negf generic and tensor.concat, cos/sin
// [T, D] read by (h, t, d) -> (t, d): the angles expanded to [T, 1, D].
// CHECK-LABEL: func.func @qwen3_dynamic_seq
//  CHECK-SAME: %[[X:[^:]*]]: tensor<?x4x32xf32>, %[[G:[^:]*]]: tensor<32xf32>, %[[C:[^:]*]]: tensor<?x32xf32>, %[[S:[^:]*]]: tensor<?x32xf32>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 1, 32] : tensor<?x32xf32> into tensor<?x1x32xf32>
//   CHECK-DAG: %[[SV:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 1, 32] : tensor<?x32xf32> into tensor<?x1x32xf32>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%[[X]] : tensor<?x4x32xf32>) weight(%[[G]] : tensor<32xf32>) rope(%[[CV]], %[[SV]] : tensor<?x1x32xf32>, tensor<?x1x32xf32>)
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[N]] : tensor<?x4x32xf32>) outs(%{{.*}} : tensor<4x?x32xf32>) permutation = [1, 0, 2]
//       CHECK: return %[[T]]
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.concat
func.func @qwen3_dynamic_seq(%x: tensor<?x4x32xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x4x32xf32>
  %e0 = tensor.empty(%t) : tensor<?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm took the rotary embedding after it}}
  %n = norm.rms_norm ins(%x : tensor<?x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<?x4x32xf32>) -> tensor<?x4x32xf32>
  %e1 = tensor.empty(%t) : tensor<4x?x32xf32>
  %q = linalg.transpose ins(%n : tensor<?x4x32xf32>) outs(%e1 : tensor<4x?x32xf32>) permutation = [1, 0, 2]
  %q1 = tensor.extract_slice %q[0, 0, 0] [4, %t, 16] [1, 1, 1] : tensor<4x?x32xf32> to tensor<4x?x16xf32>
  %q2 = tensor.extract_slice %q[0, 0, 16] [4, %t, 16] [1, 1, 1] : tensor<4x?x32xf32> to tensor<4x?x16xf32>
  %e2 = tensor.empty(%t) : tensor<4x?x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q2 : tensor<4x?x16xf32>) outs(%e2 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<4x?x16xf32>
  %rot = tensor.concat dim(2) %neg, %q1 : (tensor<4x?x16xf32>, tensor<4x?x16xf32>) -> tensor<4x?x32xf32>
  %e4 = tensor.empty(%t) : tensor<4x?x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #htd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<4x?x32xf32>, tensor<?x32xf32>) outs(%e4 : tensor<4x?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #htd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x?x32xf32>, tensor<?x32xf32>) outs(%e4 : tensor<4x?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x32xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x?x32xf32>, tensor<4x?x32xf32>) outs(%e4 : tensor<4x?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x32xf32>
  return %r : tensor<4x?x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// The older torch-mlir spelling of cat: inserts into an empty tensor, their
// sizes the dims of the slices (tensor.dim); the value bounds of those
// sizes prove each insert covers its destination's T rows. bf16 in bf16
// steps with bf16 angles: rope_rounding = each_step.
// CHECK-LABEL: func.func @insert_dynamic_bf16
//  CHECK-SAME: %[[X:[^:]*]]: tensor<?x2x16xbf16>, %[[C:[^:]*]]: tensor<?x16xbf16>, %[[S:[^:]*]]: tensor<?x16xbf16>
//   CHECK-DAG: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 1, 16] : tensor<?x16xbf16> into tensor<?x1x16xbf16>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%[[X]] : tensor<?x2x16xbf16>) rope(%[[CV]], %{{.*}} : tensor<?x1x16xbf16>, tensor<?x1x16xbf16>) outs(%{{.*}} : tensor<?x2x16xbf16>) {rope_rounding = #norm.rope_rounding<each_step>}
//       CHECK: return %[[N]]
//   CHECK-NOT: tensor.insert_slice
func.func @insert_dynamic_bf16(%x: tensor<?x2x16xbf16>, %cos: tensor<?x16xbf16>, %sin: tensor<?x16xbf16>) -> tensor<?x2x16xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tensor.dim %x, %c0 : tensor<?x2x16xbf16>
  %e0 = tensor.empty(%t) : tensor<?x2x16xbf16>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm took the rotary embedding after it}}
  %n = norm.rms_norm ins(%x : tensor<?x2x16xbf16>) outs(%e0 : tensor<?x2x16xbf16>) -> tensor<?x2x16xbf16>
  %d0 = tensor.dim %n, %c0 : tensor<?x2x16xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%d0, 2, 8] [1, 1, 1] : tensor<?x2x16xbf16> to tensor<?x2x8xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 8] [%d0, 2, 8] [1, 1, 1] : tensor<?x2x16xbf16> to tensor<?x2x8xbf16>
  %d2 = tensor.dim %x2, %c0 : tensor<?x2x8xbf16>
  %e2 = tensor.empty(%d2) : tensor<?x2x8xbf16>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<?x2x8xbf16>) outs(%e2 : tensor<?x2x8xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %v = arith.negf %a : bf16
    linalg.yield %v : bf16
  } -> tensor<?x2x8xbf16>
  %e3 = tensor.empty(%t) : tensor<?x2x16xbf16>
  %dn = tensor.dim %neg, %c0 : tensor<?x2x8xbf16>
  %i0 = tensor.insert_slice %neg into %e3[0, 0, 0] [%dn, 2, 8] [1, 1, 1] : tensor<?x2x8xbf16> into tensor<?x2x16xbf16>
  %d1 = tensor.dim %x1, %c0 : tensor<?x2x8xbf16>
  %rot = tensor.insert_slice %x1 into %i0[0, 0, 8] [%d1, 2, 8] [1, 1, 1] : tensor<?x2x8xbf16> into tensor<?x2x16xbf16>
  %e4 = tensor.empty(%t) : tensor<?x2x16xbf16>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x2x16xbf16>, tensor<?x16xbf16>) outs(%e4 : tensor<?x2x16xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.mulf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<?x2x16xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x2x16xbf16>, tensor<?x16xbf16>) outs(%e4 : tensor<?x2x16xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.mulf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<?x2x16xbf16>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x2x16xbf16>, tensor<?x2x16xbf16>) outs(%e4 : tensor<?x2x16xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.addf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<?x2x16xbf16>
  return %r : tensor<?x2x16xbf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// An insert whose dynamic size is a function argument: nothing says it
// covers the T rows (the rows past it would be the destination's), so the
// rotation stays, and the remark says why.
// CHECK-LABEL: func.func @insert_unproved_size
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x2x16xf32>) outs
//       CHECK: tensor.insert_slice
func.func @insert_unproved_size(%x: tensor<?x2x16xf32>, %cos: tensor<?x16xf32>, %sin: tensor<?x16xf32>, %k: index) -> tensor<?x2x16xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x2x16xf32>
  %e0 = tensor.empty(%t) : tensor<?x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: rot(v) is built with an insert_slice of dynamic size that the rotation's sizes do not prove to cover its destination's dim 0}}
  %n = norm.rms_norm ins(%x : tensor<?x2x16xf32>) outs(%e0 : tensor<?x2x16xf32>) -> tensor<?x2x16xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %x2 = tensor.extract_slice %n[0, 0, 8] [%k, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %e2 = tensor.empty(%k) : tensor<?x2x8xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<?x2x8xf32>) outs(%e2 : tensor<?x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<?x2x8xf32>
  %e3 = tensor.empty(%t) : tensor<?x2x16xf32>
  %i0 = tensor.insert_slice %neg into %e3[0, 0, 0] [%k, 2, 8] [1, 1, 1] : tensor<?x2x8xf32> into tensor<?x2x16xf32>
  %rot = tensor.insert_slice %x1 into %i0[0, 0, 8] [%t, 2, 8] [1, 1, 1] : tensor<?x2x8xf32> into tensor<?x2x16xf32>
  %e4 = tensor.empty(%t) : tensor<?x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x2x16xf32>, tensor<?x2x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  return %r : tensor<?x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#zd = affine_map<(d0, d1, d2) -> (0, d2)>

// A dynamic angle dim read at 0: the first position's angles for every
// position, a slice of the table, not a broadcast the op can take (only a
// static 1 broadcasts). It stays.
// CHECK-LABEL: func.func @dynamic_read_at_zero
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x2x16xf32>) outs
//       CHECK: tensor.concat
func.func @dynamic_read_at_zero(%x: tensor<?x2x16xf32>, %cos: tensor<?x16xf32>, %sin: tensor<?x16xf32>) -> tensor<?x2x16xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x2x16xf32>
  %e0 = tensor.empty(%t) : tensor<?x2x16xf32>
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: cos/sin's dim 0 has a dynamic size and is read at 0 (a slice of it; only a static 1 broadcasts)}}
  %n = norm.rms_norm ins(%x : tensor<?x2x16xf32>) outs(%e0 : tensor<?x2x16xf32>) -> tensor<?x2x16xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %x2 = tensor.extract_slice %n[0, 0, 8] [%t, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %e2 = tensor.empty(%t) : tensor<?x2x8xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<?x2x8xf32>) outs(%e2 : tensor<?x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<?x2x8xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<?x2x8xf32>, tensor<?x2x8xf32>) -> tensor<?x2x16xf32>
  %e4 = tensor.empty(%t) : tensor<?x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #zd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #zd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x2x16xf32>, tensor<?x2x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  return %r : tensor<?x2x16xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// QK-norm on a projection at a dynamic T: linalg.matmul [T, 64] x
// [64, 128] → expand_shape to [T, 4, 32] → per-head norm → RoPE with
// cos/sin [T, 32]. The norm takes the rotation, then fuses with the
// matmul: one norm.matmul_rms_norm, its angles [T, 1, 32] in the
// product's [T, H, D] view.
// CHECK-LABEL: func.func @matmul_dynamic_seq
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>, %[[G:[^:]*]]: tensor<32xf32>, %[[C:[^:]*]]: tensor<?x32xf32>
//       CHECK: %[[CV:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 1, 32] : tensor<?x32xf32> into tensor<?x1x32xf32>
//       CHECK: %[[F:.*]] = norm.matmul_rms_norm ins(%[[A]] : tensor<?x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) weight(%[[G]] : tensor<32xf32>) rope(%[[CV]], %{{.*}} : tensor<?x1x32xf32>, tensor<?x1x32xf32>) outs(%{{.*}} : tensor<?x128xf32>) {{.*}}head_dim = 32
//       CHECK: %[[Y:.*]] = tensor.expand_shape %[[F]] {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
//       CHECK: return %[[Y]]
//   CHECK-NOT: linalg.generic
func.func @matmul_dynamic_seq(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%t) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [%t, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %e0 = tensor.empty(%t) : tensor<?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<?x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xf32> to tensor<?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xf32> to tensor<?x4x16xf32>
  %e2 = tensor.empty(%t) : tensor<?x4x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<?x4x16xf32>) outs(%e2 : tensor<?x4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<?x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<?x4x16xf32>, tensor<?x4x16xf32>) -> tensor<?x4x32xf32>
  %e1 = tensor.empty(%t) : tensor<?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x4x32xf32>, tensor<?x4x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x4x32xf32>
  return %y : tensor<?x4x32xf32>
}

// -----

// Rows B·T with a static B = 2 and a dynamic T, the product [2·T, 128]
// expanded to [2, T, 4, 32] in one view, the angles [1, T, D] broadcast
// over the batch: in the product's [2·T, H, D] view they would be the
// table twice over (a copy), not a reshape. The fused op takes the rows'
// half of the view (A as [2, T, K], its output [2, T, N], angles
// [1, T, 1, D]); the columns' half stays a view of its output. (The
// views' analysis once placed the whole 2·T rows in the T dim here, which
// gave the fused op a [T, 1, D] table for 2·T rows: the angles' T is
// the output's dim 1 now.)
// CHECK-LABEL: func.func @batch_rows_dynamic_seq
//  CHECK-SAME: %[[A:[^:]*]]: tensor<2x?x64xf32>
//       CHECK: %[[T:.*]] = tensor.dim %[[A]], %c1
//       CHECK: %[[AS:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, %[[T]], 64] : tensor<?x64xf32> into tensor<2x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<2x?x64xf32>) {{.*}} rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<2x?x128xf32>) {head_dim = 32 : i64}
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, %[[T]], 4, 32] : tensor<2x?x128xf32> into tensor<2x?x4x32xf32>
//  CHECK-NEXT: return %[[H]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
func.func @batch_rows_dynamic_seq(%a: tensor<2x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x?x32xf32>, %sin: tensor<1x?x32xf32>) -> tensor<2x?x4x32xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %a, %c1 : tensor<2x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x?x64xf32> into tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, %t, 4, 32] : tensor<?x128xf32> into tensor<2x?x4x32xf32>
  %e0 = tensor.empty(%t) : tensor<2x?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<2x?x4x32xf32>) outs(%e0 : tensor<2x?x4x32xf32>) -> tensor<2x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [2, %t, 4, 16] [1, 1, 1, 1] : tensor<2x?x4x32xf32> to tensor<2x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [2, %t, 4, 16] [1, 1, 1, 1] : tensor<2x?x4x32xf32> to tensor<2x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<2x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<2x?x4x16xf32>, tensor<2x?x4x16xf32>) -> tensor<2x?x4x32xf32>
  %e1 = tensor.empty(%t) : tensor<2x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<2x?x4x32xf32>, tensor<1x?x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<2x?x4x32xf32>, tensor<1x?x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<2x?x4x32xf32>, tensor<2x?x4x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<2x?x4x32xf32>
  return %y : tensor<2x?x4x32xf32>
}

// -----

// Rows B·T with B and T both dynamic: Hugging Face's [B·T, N] product
// viewed as [B, T, N] (output_shape [%b, %t, N]), then as heads, the
// angles [T, D] broadcast over the batch. In the product's [B·T, H, D]
// view they would be the table B times over; the fused op takes the rows'
// split itself instead (A viewed as [B, T, K] by the same sizes, its
// output [B, T, N]), and in its [B, T, H, D] view the angles are
// [1, T, 1, D], read at (row / H) mod T.
// CHECK-LABEL: func.func @batch_and_seq_dynamic
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x?x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>
//   CHECK-DAG: %[[B:.*]] = tensor.dim %[[A]], %c0
//   CHECK-DAG: %[[T:.*]] = tensor.dim %[[A]], %c1
//   CHECK-DAG: %[[A2:.*]] = tensor.collapse_shape %[[A]]
//   CHECK-DAG: %[[AS:.*]] = tensor.expand_shape %[[A2]] {{\[}}[0, 1], [2]] output_shape [%[[B]], %[[T]], 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64} -> tensor<?x?x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [%[[B]], %[[T]], 4, 32]
//  CHECK-NEXT: return %[[H]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
func.func @batch_and_seq_dynamic(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %x = tensor.expand_shape %p [[0, 1], [2]] output_shape [%b, %t, 128] : tensor<?x128xf32> into tensor<?x?x128xf32>
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xf32>, tensor<?x?x4x16xf32>) -> tensor<?x?x4x32xf32>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xf32>, tensor<?x?x4x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4x32xf32>
  return %y : tensor<?x?x4x32xf32>
}

// -----

// The same rows split and heads split in one view, as --canonicalize
// writes the two expand_shapes above (and torch-mlir and IREE after
// canonicalization): [B·T, N] to [B, T, H, D] by output_shape
// [%b, %t, 4, 32]. The fused op takes the rows' half (A viewed as
// [B, T, K], its output [B, T, N]); the columns' half, [B, T, N] into
// heads at the same sizes, is a view of its output.
// CHECK-LABEL: func.func @batch_and_seq_one_expand
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x?x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>
//   CHECK-DAG: %[[B:.*]] = tensor.dim %[[A]], %c0
//   CHECK-DAG: %[[T:.*]] = tensor.dim %[[A]], %c1
//   CHECK-DAG: %[[A2:.*]] = tensor.collapse_shape %[[A]]
//   CHECK-DAG: %[[AS:.*]] = tensor.expand_shape %[[A2]] {{\[}}[0, 1], [2]] output_shape [%[[B]], %[[T]], 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64} -> tensor<?x?x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [%[[B]], %[[T]], 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
//  CHECK-NEXT: return %[[H]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
func.func @batch_and_seq_one_expand(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xf32>, tensor<?x?x4x16xf32>) -> tensor<?x?x4x32xf32>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xf32>, tensor<?x?x4x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4x32xf32>
  return %y : tensor<?x?x4x32xf32>
}

// -----

// One view with three dynamic sizes in the rows' group ([P, B, T, H, D],
// angles [T, D]): the same rule, nothing of it specific to two. A is
// viewed as [P, B, T, K], the angles are [1, 1, T, 1, D], read at
// (row / H) mod T.
// CHECK-LABEL: func.func @three_dynamic_rows
//       CHECK: %[[AS:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [%{{.*}}, %{{.*}}, %{{.*}}, 64] : tensor<?x64xf32> into tensor<?x?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x?x64xf32>) {{.*}} rope(%{{.*}}, %{{.*}} : tensor<1x1x?x1x32xf32>, tensor<1x1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x?x128xf32>)
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2], [3, 4]]
//  CHECK-NEXT: return %[[H]]
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @three_dynamic_rows(%a: tensor<?x?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x1x?x1x32xf32>, %sin: tensor<1x1x?x1x32xf32>) -> tensor<?x?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.dim %a, %c0 : tensor<?x?x?x64xf32>
  %b = tensor.dim %a, %c1 : tensor<?x?x?x64xf32>
  %t = tensor.dim %a, %c2 : tensor<?x?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1, 2], [3]] : tensor<?x?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1, 2], [3, 4]] output_shape [%p0, %b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x?x4x32xf32>
  %e0 = tensor.empty(%p0, %b, %t) : tensor<?x?x?x4x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x?x4x32xf32>) rope(%cos, %sin : tensor<1x1x?x1x32xf32>, tensor<1x1x?x1x32xf32>) outs(%e0 : tensor<?x?x?x4x32xf32>) -> tensor<?x?x?x4x32xf32>
  return %n : tensor<?x?x?x4x32xf32>
}

// -----

// One view to [B, T, H, D], transposed to [B, H, T, D], angles per head
// and position [1, H, T, D]: in the rows split's [B, T, H, D] they would
// be the table transposed (a copy), so the matmul stays, the norm keeps
// its rotation, and the remark says why.
// CHECK-LABEL: func.func @one_expand_angles_transposed
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x4x?x32xf32>) rope(
//   CHECK-NOT: norm.matmul_rms_norm
func.func @one_expand_angles_transposed(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x4x?x32xf32>, %sin: tensor<1x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x4x32xf32>
  %te = tensor.empty(%b, %t) : tensor<?x4x?x32xf32>
  %ht = linalg.transpose ins(%h : tensor<?x?x4x32xf32>) outs(%te : tensor<?x4x?x32xf32>) permutation = [0, 2, 1, 3]
  %e0 = tensor.empty(%b, %t) : tensor<?x4x?x32xf32>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: its rotary embedding (rope) has no norm → matmul form; with a producer: its rotary angles vary along dim 2 of the norm's input, whose rows the reshapes after the matmul regroup at dynamic sizes (the fused op's angles follow the product's [..., H, D] view, which cannot index them); nor in the view of its rows split as the first reshape splits them (which the fused op could take): its rotary angles vary along dims that a transpose before the norm reorders, so in the product's [..., H, D] view they would need a transpose of their own}}
  %n = norm.rms_norm ins(%ht : tensor<?x4x?x32xf32>) rope(%cos, %sin : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>) outs(%e0 : tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32>
  return %n : tensor<?x4x?x32xf32>
}

// -----

// The same rows split by a tensor.reshape of a shape tensor: no
// output_shape gives the fused op B and T, so the matmul stays, the norm
// keeps the rotation, and the remark says why.
// CHECK-LABEL: func.func @batch_and_seq_reshape
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x?x4x32xf32>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>)
//   CHECK-NOT: norm.matmul_rms_norm
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
func.func @batch_and_seq_reshape(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %shape = tensor.from_elements %b, %t, %c128 : tensor<3xindex>
  %x = tensor.reshape %p(%shape) : (tensor<?x128xf32>, tensor<3xindex>) -> tensor<?x?x128xf32>
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the rotary embedding after it}}
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: a user needs the normalized value: 'linalg.generic' is not a matmul; with a producer: its rotary angles vary along dim 1 of the norm's input, whose rows the reshapes after the matmul regroup at dynamic sizes (the fused op's angles follow the product's [..., H, D] view, which cannot index them)}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xf32>, tensor<?x?x4x16xf32>) -> tensor<?x?x4x32xf32>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xf32>, tensor<?x?x4x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4x32xf32>
  return %y : tensor<?x?x4x32xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>

// The slices' sizes read the norm's value, whose rows are those of an
// `outs` argument that nothing ties to the input's: the shape read cannot
// be moved to the input, so the rotation stays.
// CHECK-LABEL: func.func @shape_read_unproved
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x2x16xf32>) outs
//       CHECK: tensor.concat
func.func @shape_read_unproved(%x: tensor<?x2x16xf32>, %init: tensor<?x2x16xf32>, %cos: tensor<?x16xf32>, %sin: tensor<?x16xf32>) -> tensor<?x2x16xf32> {
  %c0 = arith.constant 0 : index
  // expected-remark @+2 {{norm.rms_norm not fused: into consumers:}}
  // expected-remark @+1 {{norm.rms_norm kept the rotary embedding after it: a tensor.dim of the norm's value or of a step of the rotation reads a dynamic size not proved to be one of the input's}}
  %n = norm.rms_norm ins(%x : tensor<?x2x16xf32>) outs(%init : tensor<?x2x16xf32>) -> tensor<?x2x16xf32>
  %t = tensor.dim %n, %c0 : tensor<?x2x16xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %x2 = tensor.extract_slice %n[0, 0, 8] [%t, 2, 8] [1, 1, 1] : tensor<?x2x16xf32> to tensor<?x2x8xf32>
  %neg = arith.negf %x2 : tensor<?x2x8xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<?x2x8xf32>, tensor<?x2x8xf32>) -> tensor<?x2x16xf32>
  %e4 = tensor.empty(%t) : tensor<?x2x16xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x2x16xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x2x16xf32>, tensor<?x2x16xf32>) outs(%e4 : tensor<?x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x16xf32>
  return %r : tensor<?x2x16xf32>
}
