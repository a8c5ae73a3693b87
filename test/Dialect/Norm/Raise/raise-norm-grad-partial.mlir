// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANT

// --norm-raise on pRMSNorm's backward (DESIGN.md §9: rstd from the first
// k = ⌈p·n⌉ elements of the row; the statistic's gradient reaches those k
// inputs only). Autograd differentiates x[:, :k] with slice_backward, the
// prefix gradient put into zeros of the row; frontends spell it as a
// tensor.insert_slice into a zero linalg.fill, a tensor.pad with zeros at
// the row's end, or a select on linalg.index < k. The tracer reads each as
// [j < k] times the prefix gradient, so dx is compared, as a polynomial,
// with the op's formula for k (the slice's, the mean's 1/k and, when the
// statistic is recomputed, the forward's prefix sum must all agree).
// test/Integration/CPU/raise-norm-grad-partial.test runs every function
// before and after raising on random inputs, and the raised ops against
// the float64 reference.

// REMARK-COUNT-8: remark: norm-raise: raised norm.rms_norm_grad
// REMARK-NOT: remark

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// insert_slice into zeros, rstd saved: p = 0.5 of 8 (k = 4).
// CHECK-LABEL: func.func @prms_insert
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), saved rstd)
func.func @prms_insert(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward on the slice: 2·x[:, 0:4]
  %xs = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %gs = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %xs : tensor<4x1xf32>, tensor<4x4xf32>) outs(%e_part : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %x2 = arith.mulf %a1, %two : f32
    %r = arith.mulf %a0, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %z_full = linalg.fill ins(%c0 : f32) outs(%e_full : tensor<4x8xf32>) -> tensor<4x8xf32>
  // slice_backward: into zeros of the row's width
  %pad = tensor.insert_slice %gs into %z_full[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}

// tensor.pad with zeros high = n − k: k = 3 of 8 (p = 0.375).
// CHECK-LABEL: func.func @prms_pad
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 3.750000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.375 (k = 3), saved rstd)
func.func @prms_pad(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.3333333333333333 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x3xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward on the slice: 2·x[:, 0:3]
  %xs = tensor.extract_slice %x[0, 0] [4, 3] [1, 1] : tensor<4x8xf32> to tensor<4x3xf32>
  %gs = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %xs : tensor<4x1xf32>, tensor<4x3xf32>) outs(%e_part : tensor<4x3xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %x2 = arith.mulf %a1, %two : f32
    %r = arith.mulf %a0, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  %pv = arith.constant 0.0 : f32
  // slice_backward: zero-padded to the row's width
  %pad = tensor.pad %gs low[0, 0] high[0, 5] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<4x3xf32> to tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}

// A select on linalg.index < k over the whole row (no slice at all).
// CHECK-LABEL: func.func @prms_select
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), saved rstd)
func.func @prms_select(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %ck = arith.constant 4 : index
  // pow backward, the first k columns selected by index
  %pad = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %j = linalg.index 1 : index
    %in = arith.cmpi ult, %j, %ck : index
    %x2 = arith.mulf %a1, %two : f32
    %g = arith.mulf %a0, %x2 : f32
    %r = arith.select %in, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}

// The statistic recomputed from the first k elements (extract_slice):
// the forward's k, the slice_backward's and the mean's 1/k agree.
// CHECK-LABEL: func.func @prms_insert_recomputed
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {epsilon = 9.99999997E-7 : f32, partial = 5.000000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), recomputed statistics, epsilon 1e-06)
func.func @prms_insert_recomputed(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  %eps = arith.constant 1.0e-06 : f32
  %inv_sk = arith.constant 0.25 : f32
  // the forward's statistic, recomputed: mean of x² over the first 4
  %xk = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xk : tensor<4x4xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %m = arith.mulf %a0, %inv_sk : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward on the slice: 2·x[:, 0:4]
  %xs = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %gs = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %xs : tensor<4x1xf32>, tensor<4x4xf32>) outs(%e_part : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %x2 = arith.mulf %a1, %two : f32
    %r = arith.mulf %a0, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %z_full = linalg.fill ins(%c0 : f32) outs(%e_full : tensor<4x8xf32>) -> tensor<4x8xf32>
  // slice_backward: into zeros of the row's width
  %pad = tensor.insert_slice %gs into %z_full[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}

// bf16 dy and x, computed in f32, dx rounded to bf16 once; dγ in f32.
// CHECK-LABEL: func.func @prms_pad_bf16
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xbf16>) ins(%[[X]] : tensor<4x8xbf16>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xbf16>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x8xbf16>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), saved rstd)
func.func @prms_pad_bf16(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xbf16>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  %dyf = arith.extf %dy : tensor<4x8xbf16> to tensor<4x8xf32>
  %xf = arith.extf %x : tensor<4x8xbf16> to tensor<4x8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyf, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %xf : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward on the slice: 2·x[:, 0:4]
  %xs = tensor.extract_slice %xf[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %gs = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %xs : tensor<4x1xf32>, tensor<4x4xf32>) outs(%e_part : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %x2 = arith.mulf %a1, %two : f32
    %r = arith.mulf %a0, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %pv = arith.constant 0.0 : f32
  // slice_backward: zero-padded to the row's width
  %pad = tensor.pad %gs low[0, 0] high[0, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<4x4xf32> to tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %e_out = tensor.empty() : tensor<4x8xbf16>
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_out : tensor<4x8xbf16>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: bf16):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x8xbf16>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyf, %xf, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xbf16>, tensor<8xf32>
}

// dx alone, k = 3 of 8 by select (the p whose ⌈p·n⌉ is 3).
// CHECK-LABEL: func.func @prms_select_dx_only
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) {partial = 3.750000e-01 : f32} -> tensor<4x8xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: tensor.insert_slice
//   CHECK-NOT: tensor.pad
//       CHECK: return %[[G]]
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight, partial 0.375 (k = 3), saved rstd)
func.func @prms_select_dx_only(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.3333333333333333 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x3xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %ck = arith.constant 3 : index
  // pow backward, the first k columns selected by index
  %pad = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %j = linalg.index 1 : index
    %in = arith.cmpi ult, %j, %ck : index
    %x2 = arith.mulf %a1, %two : f32
    %g = arith.mulf %a0, %x2 : f32
    %r = arith.select %in, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// The select negated and its compare swapped: k ≤ j ? 0 : g.
// CHECK-LABEL: func.func @prms_select_negated
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), saved rstd)
func.func @prms_select_negated(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %ck = arith.constant 4 : index
  // pow backward, the first k columns selected by index
  %pad = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %j = linalg.index 1 : index
    %out = arith.cmpi sle, %ck, %j : index
    %x2 = arith.mulf %a1, %two : f32
    %g = arith.mulf %a0, %x2 : f32
    %r = arith.select %out, %c0, %g : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}

// rstd the result of the forward's norm.rms_norm (p = 0.5, k = 4): the
// forward's k is dx's, and the op takes the forward's rstd.
// CHECK-LABEL: func.func @prms_forward_op
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[Y:.*]]:2 = norm.rms_norm ins(%[[X]]
//       CHECK: %[[G:[0-9]+]]:2 = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%[[Y]]#1 : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, partial 0.5 (k = 4), saved rstd)
func.func @prms_forward_op(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm = arith.constant -0.5 : f32
  %inv_k = arith.constant 0.25 : f32
  %two = arith.constant 2.0 : f32
  %e_full = tensor.empty() : tensor<4x8xf32>
  %e_part = tensor.empty() : tensor<4x4xf32>
  %e_row = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // the forward as a norm op: pRMSNorm with p = 0.5, its rstd saved
  %ey = tensor.empty() : tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %y:2 = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%w : tensor<8xf32>) outs(%ey : tensor<4x8xf32>) rstd_outs(%e4 : tensor<4xf32>) {partial = 0.5 : f32} -> tensor<4x8xf32>, tensor<4xf32>
  %rstd = tensor.expand_shape %y#1 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to rstd, summed over the whole row
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward (−0.5·r³), mean backward over the k elements (/k)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r3 = math.powf %a1, %c3 : f32
    %q = arith.mulf %r3, %cm : f32
    %g = arith.mulf %a0, %q : f32
    %r = arith.mulf %g, %inv_k : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward on the slice: 2·x[:, 0:4]
  %xs = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %gs = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gm, %xs : tensor<4x1xf32>, tensor<4x4xf32>) outs(%e_part : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %x2 = arith.mulf %a1, %two : f32
    %r = arith.mulf %a0, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %z_full = linalg.fill ins(%c0 : f32) outs(%e_full : tensor<4x8xf32>) -> tensor<4x8xf32>
  // slice_backward: into zeros of the row's width
  %pad = tensor.insert_slice %gs into %z_full[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  // the direct path dŷ·r plus the statistic's
  %dx = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %pad : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %d = arith.mulf %a0, %a1 : f32
    %s = arith.addf %d, %a2 : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // weight grad: Σ_rows dy·x·r over all n columns
  %xh = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %h = arith.mulf %a1, %a2 : f32
    %r = arith.mulf %a0, %h : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dg = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%xh : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dg : tensor<4x8xf32>, tensor<8xf32>
}
