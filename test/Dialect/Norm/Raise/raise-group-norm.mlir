// RUN: norm-opt %s --norm-raise="remarks" --verify-diagnostics | FileCheck %s

// GroupNorm and InstanceNorm as frontends decompose them, raised to
// norm.group_norm with the per-channel γ/β inside the op. Each chain is
// written the way its frontend spells it; each function's inputs are
// random in test/Integration/CPU/raise-group-norm.test, which compares the
// raised code with the IR as written.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan4 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>

// torch-mlir, aten.group_norm (DecomposeAtenNativeGroupNormOp): x viewed as
// [N, G, C/G·H·W] (collapse then expand), mean and the correction-0
// variance with keepdim, rsqrt(var + eps), the normalized value viewed
// back as [N, C, H, W], then · weight[C, 1, 1] + bias[C, 1, 1].
// CHECK-LABEL: func.func @gn_torch
//  CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x8x4x4xf32>, %[[W:[a-z0-9]+]]: tensor<8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>
//       CHECK: %[[Y:.*]] = norm.group_norm ins(%[[X]] : tensor<2x8x4x4xf32>) weight(%[[W]] : tensor<8xf32>) bias(%[[B]] : tensor<8xf32>) outs(%{{.*}} : tensor<2x8x4x4xf32>) {epsilon = 9.99999974E-6 : f32, num_groups = 4 : i64} -> tensor<2x8x4x4xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @gn_torch(%x: tensor<2x8x4x4xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %flat = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<2x8x4x4xf32> into tensor<2x128xf32>
  %v = tensor.expand_shape %flat [[0], [1, 2]] output_shape [2, 4, 32] : tensor<2x128xf32> into tensor<2x4x32xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sumk = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %e3 = tensor.empty() : tensor<2x4x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sumk : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x4x1xf32>
  %e4 = tensor.empty() : tensor<2x4x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean : tensor<2x4x32xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %s = arith.mulf %c, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %sum2 = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sum2k = tensor.expand_shape %sum2 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum2k : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  %norm = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean, %rstd : tensor<2x4x32xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x4x32xf32>
  %nflat = tensor.collapse_shape %norm [[0], [1, 2]] : tensor<2x4x32xf32> into tensor<2x128xf32>
  %n4 = tensor.expand_shape %nflat [[0], [1, 2, 3]] output_shape [2, 8, 4, 4] : tensor<2x128xf32> into tensor<2x8x4x4xf32>
  %w3 = tensor.expand_shape %w [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %b3 = tensor.expand_shape %b [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %e5 = tensor.empty() : tensor<2x8x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n4, %w3 : tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %o = arith.mulf %in, %g : f32
    linalg.yield %o : f32
  } -> tensor<2x8x4x4xf32>
  // expected-remark @+1 {{norm-raise: raised norm.group_norm (num_groups 4, epsilon 1e-05, weight, bias, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %b3 : tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %o = arith.addf %in, %bb : f32
    linalg.yield %o : f32
  } -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// The same torch-mlir form with a dynamic batch (the views' output_shape
// and the tensor.empty sizes from tensor.dim).
// CHECK-LABEL: func.func @gn_torch_dynamic
//       CHECK: norm.group_norm ins(%{{.*}} : tensor<?x8x4x4xf32>) weight(%{{.*}} : tensor<8xf32>) bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<?x8x4x4xf32>) {epsilon = 9.99999974E-6 : f32, num_groups = 4 : i64} -> tensor<?x8x4x4xf32>
//   CHECK-NOT: linalg.generic
func.func @gn_torch_dynamic(%x: tensor<?x8x4x4xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x8x4x4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x8x4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %flat = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<?x8x4x4xf32> into tensor<?x128xf32>
  %v = tensor.expand_shape %flat [[0], [1, 2]] output_shape [%d, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %e2 = tensor.empty(%d) : tensor<?x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<?x4x32xf32>) outs(%f2 : tensor<?x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x4xf32>
  %sumk = tensor.expand_shape %sum [[0], [1, 2]] output_shape [%d, 4, 1] : tensor<?x4xf32> into tensor<?x4x1xf32>
  %e3 = tensor.empty(%d) : tensor<?x4x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sumk : tensor<?x4x1xf32>) outs(%e3 : tensor<?x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %dd = arith.divf %in, %n : f32
    linalg.yield %dd : f32
  } -> tensor<?x4x1xf32>
  %e4 = tensor.empty(%d) : tensor<?x4x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean : tensor<?x4x32xf32>, tensor<?x4x1xf32>) outs(%e4 : tensor<?x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %s = arith.mulf %c, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x4x32xf32>
  %sum2 = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<?x4x32xf32>) outs(%f2 : tensor<?x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x4xf32>
  %sum2k = tensor.expand_shape %sum2 [[0], [1, 2]] output_shape [%d, 4, 1] : tensor<?x4xf32> into tensor<?x4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum2k : tensor<?x4x1xf32>) outs(%e3 : tensor<?x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<?x4x1xf32>
  %norm = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean, %rstd : tensor<?x4x32xf32>, tensor<?x4x1xf32>, tensor<?x4x1xf32>) outs(%e4 : tensor<?x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<?x4x32xf32>
  %nflat = tensor.collapse_shape %norm [[0], [1, 2]] : tensor<?x4x32xf32> into tensor<?x128xf32>
  %n4 = tensor.expand_shape %nflat [[0], [1, 2, 3]] output_shape [%d, 8, 4, 4] : tensor<?x128xf32> into tensor<?x8x4x4xf32>
  %w3 = tensor.expand_shape %w [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %b3 = tensor.expand_shape %b [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %e5 = tensor.empty(%d) : tensor<?x8x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n4, %w3 : tensor<?x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<?x8x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %o = arith.mulf %in, %g : f32
    linalg.yield %o : f32
  } -> tensor<?x8x4x4xf32>
    // expected-remark @+1 {{norm-raise: raised norm.group_norm (num_groups 4, epsilon 1e-05, weight, bias, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %b3 : tensor<?x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<?x8x4x4xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %o = arith.addf %in, %bb : f32
    linalg.yield %o : f32
  } -> tensor<?x8x4x4xf32>
  return %y : tensor<?x8x4x4xf32>
}

// Not GroupNorm: without γ and β the norm is the LayerNorm of the grouped
// view [N, G, C/G·H·W], which the LayerNorm recognizer raises as such (the
// views around it stay).
// CHECK-LABEL: func.func @gn_no_affine
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<2x4x32xf32>) outs(%{{.*}} : tensor<2x4x32xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: norm.group_norm
func.func @gn_no_affine(%x: tensor<2x8x4x4xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %flat = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<2x8x4x4xf32> into tensor<2x128xf32>
  %v = tensor.expand_shape %flat [[0], [1, 2]] output_shape [2, 4, 32] : tensor<2x128xf32> into tensor<2x4x32xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sumk = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %e3 = tensor.empty() : tensor<2x4x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sumk : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x4x1xf32>
  %e4 = tensor.empty() : tensor<2x4x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean : tensor<2x4x32xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %s = arith.mulf %c, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %sum2 = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sum2k = tensor.expand_shape %sum2 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum2k : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 2, epsilon 1e-05, acc f32)}}
  %norm = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean, %rstd : tensor<2x4x32xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x4x32xf32>
  %nflat = tensor.collapse_shape %norm [[0], [1, 2]] : tensor<2x4x32xf32> into tensor<2x128xf32>
  %n4 = tensor.expand_shape %nflat [[0], [1, 2, 3]] output_shape [2, 8, 4, 4] : tensor<2x128xf32> into tensor<2x8x4x4xf32>
  return %n4 : tensor<2x8x4x4xf32>
}

// Not raised as GroupNorm: the mean is also returned (native_group_norm's
// statistics results are not raised yet); the remark says so, and the
// LayerNorm of the grouped view is raised with its mean result instead.
// CHECK-LABEL: func.func @gn_mean_used
//   CHECK-NOT: norm.group_norm
//       CHECK: norm.layer_norm
//   CHECK-NOT: norm.group_norm
func.func @gn_mean_used(%x: tensor<2x8x4x4xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x4x1xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 3.200000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %flat = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<2x8x4x4xf32> into tensor<2x128xf32>
  %v = tensor.expand_shape %flat [[0], [1, 2]] output_shape [2, 4, 32] : tensor<2x128xf32> into tensor<2x4x32xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sumk = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %e3 = tensor.empty() : tensor<2x4x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sumk : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x4x1xf32>
  %e4 = tensor.empty() : tensor<2x4x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean : tensor<2x4x32xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %s = arith.mulf %c, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %sum2 = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<2x4x32xf32>) outs(%f2 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  %sum2k = tensor.expand_shape %sum2 [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum2k : tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 2, epsilon 1e-05, mean, acc f32)}}
  %norm = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %mean, %rstd : tensor<2x4x32xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>) outs(%e4 : tensor<2x4x32xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x4x32xf32>
  %nflat = tensor.collapse_shape %norm [[0], [1, 2]] : tensor<2x4x32xf32> into tensor<2x128xf32>
  %n4 = tensor.expand_shape %nflat [[0], [1, 2, 3]] output_shape [2, 8, 4, 4] : tensor<2x128xf32> into tensor<2x8x4x4xf32>
  %w3 = tensor.expand_shape %w [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %b3 = tensor.expand_shape %b [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
  %e5 = tensor.empty() : tensor<2x8x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n4, %w3 : tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %o = arith.mulf %in, %g : f32
    linalg.yield %o : f32
  } -> tensor<2x8x4x4xf32>
  // expected-remark @+1 {{norm-raise: not raised: GroupNorm with 4 groups: the intermediate 'linalg.generic' is also used outside the norm (statistics results are not raised)}}
  %y = linalg.generic {indexing_maps = [#id4, #chan4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %b3 : tensor<2x8x4x4xf32>, tensor<8x1x1xf32>) outs(%e5 : tensor<2x8x4x4xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %o = arith.addf %in, %bb : f32
    linalg.yield %o : f32
  } -> tensor<2x8x4x4xf32>
  return %y, %mean : tensor<2x8x4x4xf32>, tensor<2x4x1xf32>
}


#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#red5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#row5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#ch5 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>

// IREE-style dispatch IR, the held-out miss: an f16 image expanded to
// [N, G, C/G, H, W], widened to f32 inside the reductions, the statistics
// and the result in f32 (the result stays f32), γ/β f32 per (g, c). Raised
// as arith.extf of the input and the f32 op: f16 → f32 is exact, so this is
// the value the IR computes. The result keeps the grouped shape.
// CHECK-LABEL: func.func @gn_f16_in_f32_out
//  CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<1x32x8x8xf16>
//       CHECK: %[[XF:.*]] = arith.extf %[[X]] : tensor<1x32x8x8xf16> to tensor<1x32x8x8xf32>
//       CHECK: %[[W:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<8x4xf32> into tensor<32xf32>
//       CHECK: %[[B:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<8x4xf32> into tensor<32xf32>
//       CHECK: %[[Y:.*]] = norm.group_norm ins(%[[XF]] : tensor<1x32x8x8xf32>) weight(%[[W]] : tensor<32xf32>) bias(%[[B]] : tensor<32xf32>) outs(%{{.*}} : tensor<1x32x8x8xf32>) {epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64}
//       CHECK: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 8, 4, 8, 8] : tensor<1x32x8x8xf32> into tensor<1x8x4x8x8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[R]]
func.func @gn_f16_in_f32_out(%x: tensor<1x32x8x8xf16>, %w: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<1x8x4x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 2.560000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 8, 4, 8, 8] : tensor<1x32x8x8xf16> into tensor<1x8x4x8x8xf16>
  %e2 = tensor.empty() : tensor<1x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %sum = linalg.generic {indexing_maps = [#id5, #red5], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xg : tensor<1x8x4x8x8xf16>) outs(%f2 : tensor<1x8xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x8xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<1x8xf32>) outs(%e2 : tensor<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x8xf32>
  %sum2 = linalg.generic {indexing_maps = [#id5, #row5, #red5], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xg, %mean : tensor<1x8x4x8x8xf16>, tensor<1x8xf32>) outs(%f2 : tensor<1x8xf32>) {
  ^bb0(%in: f16, %m: f32, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %c = arith.subf %v, %m : f32
    %s = arith.mulf %c, %c : f32
    %a = arith.addf %s, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x8xf32>
  %e5 = tensor.empty() : tensor<1x8x4x8x8xf32>
  // expected-remark @+1 {{norm-raise: raised norm.group_norm (num_groups 8, epsilon 1e-05, weight, bias, acc f32, input widened from f16)}}
  %y = linalg.generic {indexing_maps = [#id5, #row5, #row5, #ch5, #ch5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%xg, %mean, %sum2, %w, %b : tensor<1x8x4x8x8xf16>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>) outs(%e5 : tensor<1x8x4x8x8xf32>) {
  ^bb0(%in: f16, %m: f32, %m2: f32, %g: f32, %bb: f32, %out: f32):
    %v = arith.extf %in : f16 to f32
    %c = arith.subf %v, %m : f32
    %var = arith.divf %m2, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %o = arith.mulf %c, %r : f32
    %og = arith.mulf %o, %g : f32
    %ob = arith.addf %og, %bb : f32
    linalg.yield %ob : f32
  } -> tensor<1x8x4x8x8xf32>
  return %y : tensor<1x8x4x8x8xf32>
}

#iid4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ired4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#ichan4 = affine_map<(d0, d1, d2, d3) -> (d1)>

// ONNX InstanceNormalization (G = C) as lowered to linalg: reductions over
// H and W into keepdim [N, C, 1, 1] statistics, the one-pass variance
// E[x²] − μ², scale and B read per channel. f16 throughout, statistics in
// f32, rounded once at the end.
// CHECK-LABEL: func.func @instance_norm_onnx
//       CHECK: norm.group_norm ins(%{{.*}} : tensor<3x6x5x7xf16>) weight(%{{.*}} : tensor<6xf16>) bias(%{{.*}} : tensor<6xf16>) outs(%{{.*}} : tensor<3x6x5x7xf16>) {epsilon = 9.99999974E-6 : f32, num_groups = 6 : i64}
//   CHECK-NOT: linalg.generic
func.func @instance_norm_onnx(%x: tensor<3x6x5x7xf16>, %s: tensor<6xf16>, %b: tensor<6xf16>) -> tensor<3x6x5x7xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 0.0285714287 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e2 = tensor.empty() : tensor<3x6x1x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x6x1x1xf32>) -> tensor<3x6x1x1xf32>
  %sums:2 = linalg.generic {indexing_maps = [#iid4, #ired4, #ired4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<3x6x5x7xf16>) outs(%f2, %f2 : tensor<3x6x1x1xf32>, tensor<3x6x1x1xf32>) {
  ^bb0(%in: f16, %a1: f32, %a2: f32):
    %v = arith.extf %in : f16 to f32
    %s1 = arith.addf %a1, %v : f32
    %sq = arith.mulf %v, %v : f32
    %s2 = arith.addf %a2, %sq : f32
    linalg.yield %s1, %s2 : f32, f32
  } -> (tensor<3x6x1x1xf32>, tensor<3x6x1x1xf32>)
  %e4 = tensor.empty() : tensor<3x6x5x7xf16>
  // expected-remark @+1 {{norm-raise: raised norm.group_norm (num_groups 6, epsilon 1e-05, weight, bias, acc f32)}}
  %y = linalg.generic {indexing_maps = [#iid4, #ired4, #ired4, #ichan4, #ichan4, #iid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %sums#0, %sums#1, %s, %b : tensor<3x6x5x7xf16>, tensor<3x6x1x1xf32>, tensor<3x6x1x1xf32>, tensor<6xf16>, tensor<6xf16>) outs(%e4 : tensor<3x6x5x7xf16>) {
  ^bb0(%in: f16, %s1: f32, %s2: f32, %g: f16, %bb: f16, %out: f16):
    %v = arith.extf %in : f16 to f32
    %m = arith.mulf %s1, %inv : f32
    %ex2 = arith.mulf %s2, %inv : f32
    %m2 = arith.mulf %m, %m : f32
    %var = arith.subf %ex2, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %sd = math.sqrt %ve : f32
    %c = arith.subf %v, %m : f32
    %o = arith.divf %c, %sd : f32
    %gf = arith.extf %g : f16 to f32
    %bf = arith.extf %bb : f16 to f32
    %og = arith.mulf %o, %gf : f32
    %ob = arith.addf %og, %bf : f32
    %t = arith.truncf %ob : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x6x5x7xf16>
  return %y : tensor<3x6x5x7xf16>
}
