// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --norm-raise on linalg as IREE-style pipelines hold it: batch dims
// collapsed around the reductions (tensor.collapse_shape / expand_shape),
// and the elementwise work already fused into the reduction generic and
// into one final generic. test/Integration/CPU/raise-iree.test runs every
// function before and after raising and compares.

// REMARK-COUNT-5: remark: norm-raise: raised norm.
// REMARK-NOT: remark

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red2 = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#col3 = affine_map<(d0, d1, d2) -> (d2)>

// [2, 8, 64] collapsed to [16, 64], Σx² fused into the reduction, expanded
// back to [2, 8], and one generic for x · rsqrt(Σ·(1/64) + ε) · γ.
// CHECK-LABEL: func.func @iree_rms
//  CHECK-SAME: %[[X:.*]]: tensor<2x8x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<2x8x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<2x8x64xf32>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.collapse_shape
//       CHECK: return %[[Y]]
func.func @iree_rms(%x: tensor<2x8x64xf32>, %g: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-6 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x64xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %sse = tensor.expand_shape %ss [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
  %e = tensor.empty() : tensor<2x8x64xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sse, %g : tensor<2x8x64xf32>, tensor<2x8xf32>, tensor<64xf32>) outs(%e : tensor<2x8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.mulf %s, %inv : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// LayerNorm with both statistics reductions on the collapsed tensor (the
// variance reduction reads the mean, expanded to [16, 1] by the maps), the
// final generic on the collapsed tensor too, then expanded: the root is the
// expand_shape.
// CHECK-LABEL: func.func @iree_ln
//  CHECK-SAME: %[[X:.*]]: tensor<2x8x64xf32>
//       CHECK: %[[Y:.*]] = norm.layer_norm ins(%[[X]] : tensor<2x8x64xf32>) weight(%{{.*}}) bias(%{{.*}}) outs(%{{.*}} : tensor<2x8x64xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @iree_ln(%x: tensor<2x8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x64xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %v = linalg.generic {indexing_maps = [#id2, #red2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%xc, %s : tensor<16x64xf32>, tensor<16xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %sum: f32, %acc: f32):
    %mu = arith.divf %sum, %n : f32
    %d = arith.subf %in, %mu : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %yc = linalg.generic {indexing_maps = [#id2, #red2, #red2, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %s, %v, %g, %b : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %vs: f32, %w: f32, %bb: f32, %out: f32):
    %mu = arith.divf %sum, %n : f32
    %var = arith.divf %vs, %n : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %d = arith.subf %in, %mu : f32
    %m = arith.mulf %d, %r : f32
    %m2 = arith.mulf %m, %w : f32
    %o = arith.addf %m2, %bb : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %y = tensor.expand_shape %yc [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// The two trailing dims of [4, 8, 16] collapsed into one row of 128 for the
// reduction; γ is [8, 16].
// CHECK-LABEL: func.func @iree_two_dims
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8x16xf32>) weight(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}}) {axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
func.func @iree_two_dims(%x: tensor<4x8x16xf32>, %g: tensor<8x16xf32>) -> tensor<4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %xc = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x8x16xf32> into tensor<4x128xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<4x128xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<4x8x16xf32>, tensor<4xf32>, tensor<8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// The residual add fused into both generics (the sum is never a tensor):
// raised with the residual operand, no sum_outs.
// CHECK-LABEL: func.func @iree_fused_residual
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[R:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) residual(%[[R]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32} -> tensor<16x64xf32>
//       CHECK: return %[[Y]]
func.func @iree_fused_residual(%x: tensor<16x64xf32>, %res: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #id2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %res : tensor<16x64xf32>, tensor<16x64xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %h = arith.addf %a, %b : f32
    %p = arith.mulf %h, %h : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #red2, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %res, %ss, %g : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %w: f32, %out: f32):
    %h = arith.addf %a, %b : f32
    %m = arith.divf %s, %n : f32
    %q = arith.addf %m, %eps : f32
    %r = math.rsqrt %q : f32
    %xr = arith.mulf %h, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// One generic producing both Σx and Σx² (Welford-free one-pass statistics
// as a fused reduction), then the normalization.
// CHECK-LABEL: func.func @iree_ln_one_generic
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}}) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @iree_ln_one_generic(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s:2 = linalg.generic {indexing_maps = [#id2, #red2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z, %z : tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32, %acc2: f32):
    %a = arith.addf %in, %acc : f32
    %p = arith.mulf %in, %in : f32
    %a2 = arith.addf %p, %acc2 : f32
    linalg.yield %a, %a2 : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  %e = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#id2, #red2, #red2, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s#0, %s#1, %g : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %sum2: f32, %w: f32, %out: f32):
    %mu = arith.divf %sum, %n : f32
    %ex2 = arith.divf %sum2, %n : f32
    %mu2 = arith.mulf %mu, %mu : f32
    %var = arith.subf %ex2, %mu2 : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %d = arith.subf %in, %mu : f32
    %m = arith.mulf %d, %r : f32
    %o = arith.mulf %m, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
