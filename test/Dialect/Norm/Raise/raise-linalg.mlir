// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: norm-opt %s --norm-raise=raise-layer-norm=false | FileCheck %s --check-prefix=NO-LN
// RUN: norm-opt %s --norm-raise=raise-rms-norm=false | FileCheck %s --check-prefix=NO-RMS

// --norm-raise on linalg as torch-mlir emits it: one generic per torch op,
// reductions keeping the reduced dim as a unit dim (`(d0, d1) -> (d0, 0)`),
// broadcasts by indexing maps, scalars captured from outside the bodies.
// Each function is one spelling; test/Integration/CPU/raise-linalg.test runs
// every function before and after raising on random inputs and compares.

// REMARK-COUNT-16: remark: norm-raise: raised norm.
// REMARK-NOT: remark

// Without LayerNorm raising the RMSNorms are raised and the LayerNorms left.
// NO-LN-LABEL: func.func @rms_powf_div
// NO-LN: norm.rms_norm
// NO-LN-LABEL: func.func @ln_torch
// NO-LN-NOT: norm.
// NO-LN: return
// NO-RMS-LABEL: func.func @rms_powf_div
// NO-RMS-NOT: norm.
// NO-RMS: return
// NO-RMS-LABEL: func.func @ln_torch
// NO-RMS: norm.layer_norm

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// x², Σ as a generic keeping the dim, mean by divf, + ε, rsqrt, · x, · γ.
// CHECK-LABEL: func.func @rms_powf_div
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<16x64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%[[E]] : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32} -> tensor<16x64xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @rms_powf_div(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %pow = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%pow : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mean : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %xn = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rstd, %x : tensor<16x1xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%r: f32, %in: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %xn : tensor<64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%w: f32, %in: f32, %out: f32):
    %m = arith.mulf %w, %in : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// x·x, Σ·(1/n), 1/sqrt(ms + ε) in one generic.
// CHECK-LABEL: func.func @rms_mul_recip
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @rms_mul_recip(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %inv : f32
    %a = arith.addf %m, %eps : f32
    %s = math.sqrt %a : f32
    %r = arith.divf %one, %s : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    %m2 = arith.mulf %m, %w : f32
    linalg.yield %m2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// fpowi(x, 2); x / sqrt(ms + ε); no γ.
// CHECK-LABEL: func.func @rms_fpowi_div_sqrt
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
func.func @rms_fpowi_div_sqrt(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = math.fpowi %in, %c2 : f32, i32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %eps, %m : f32
    %q = math.sqrt %a : f32
    %d = arith.divf %in, %q : f32
    linalg.yield %d : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// powf(ms + ε, -0.5), and γ · (x · r) with the operands the other way.
// CHECK-LABEL: func.func @rms_pow_neg_half
//       CHECK: norm.rms_norm ins(%{{.*}}) weight(%{{.*}}) outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
func.func @rms_pow_neg_half(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %mhalf = arith.constant -0.5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %sum, %x : tensor<64xf32>, tensor<16x1xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%w: f32, %s: f32, %in: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.powf %a, %mhalf : f32
    %xr = arith.mulf %r, %in : f32
    %o = arith.mulf %w, %xr : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// ε outside the root: x / (sqrt(ms) + ε).
// CHECK-LABEL: func.func @rms_eps_outside
//       CHECK: norm.rms_norm {{.*}} {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 9.99999974E-6 : f32}
func.func @rms_eps_outside(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %q = math.sqrt %m : f32
    %a = arith.addf %q, %eps : f32
    %d = arith.divf %in, %a : f32
    %o = arith.mulf %d, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// Gemma: x · r · (1 + γ).
// CHECK-LABEL: func.func @rms_gemma
//       CHECK: norm.rms_norm {{.*}} weight(%{{.*}}) {{.*}} {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
func.func @rms_gemma(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %w1 = arith.addf %one, %w : f32
    %o = arith.mulf %xr, %w1 : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// LayerNorm as torch-mlir decomposes aten.native_layer_norm: mean, x − μ,
// Σ(x − μ)²/n, rsqrt(var + ε), · γ + β, each its own generic.
// CHECK-LABEL: func.func @ln_torch
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>
//       CHECK: norm.layer_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @ln_torch(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<16x1xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<16x64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %vsum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%vsum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %g, %b : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %bb: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    %m2 = arith.mulf %m, %w : f32
    %o = arith.addf %m2, %bb : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// The reassociated LayerNorm: x·(rstd·γ) + (β − μ·rstd·γ), with the
// variance as E[x²] − μ² (raised to the op's stable two-pass statistics).
// CHECK-LABEL: func.func @ln_reassociated
//       CHECK: norm.layer_norm ins(%{{.*}}) weight(%{{.*}}) bias(%{{.*}}) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @ln_reassociated(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z, %z : tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32, %acc2: f32):
    %a = arith.addf %in, %acc : f32
    %sq = arith.mulf %in, %in : f32
    %a2 = arith.addf %sq, %acc2 : f32
    linalg.yield %a, %a2 : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sums#0, %sums#1, %g, %b : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %s2: f32, %w: f32, %bb: f32, %out: f32):
    %mu = arith.mulf %s, %inv : f32
    %ex2 = arith.mulf %s2, %inv : f32
    %mu2 = arith.mulf %mu, %mu : f32
    %var = arith.subf %ex2, %mu2 : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %rg = arith.mulf %r, %w : f32
    %xs = arith.mulf %in, %rg : f32
    %murg = arith.mulf %mu, %rg : f32
    %shift = arith.subf %bb, %murg : f32
    %o = arith.addf %xs, %shift : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// LayerNorm without γ and β; mean and rstd returned as well (the
// statistics results, reshaped to the [16, 1] tensors the IR returns).
// CHECK-LABEL: func.func @ln_stats
//       CHECK: %[[LN:.*]]:3 = norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<16x64xf32>) mean_outs(%{{.*}} : tensor<16xf32>) rstd_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-DAG: %[[M1:.*]] = tensor.expand_shape %[[LN]]#1 {{\[}}[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
//   CHECK-DAG: %[[R1:.*]] = tensor.expand_shape %[[LN]]#2 {{\[}}[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[LN]]#0, %[[M1]], %[[R1]]
func.func @ln_stats(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<16x1xf32>
  %vsum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16x1xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%vsum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %mean, %rstd : tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>
}

// The residual-add form: h = x + r feeds the norm and is also returned.
// CHECK-LABEL: func.func @rms_residual
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[R:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) residual(%[[R]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}}) sum_outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[N]]#0, %[[N]]#1
func.func @rms_residual(%x: tensor<16x64xf32>, %res: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %res : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %sum, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %h : tensor<16x64xf32>, tensor<16x64xf32>
}

// Normalized over the two trailing dims: one reduction generic with two
// reduction loops; γ of shape [8, 16].
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
#col3 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @rms_two_dims
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8x16xf32>) weight(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}}) {axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
func.func @rms_two_dims(%x: tensor<4x8x16xf32>, %g: tensor<8x16xf32>) -> tensor<4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<4x8x16xf32>
  %e1 = tensor.empty() : tensor<4x1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x8x16xf32>) outs(%z : tensor<4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<4x8x16xf32>, tensor<4x1x1xf32>, tensor<8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
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

// Dynamic shapes: n is the size read with tensor.dim and converted.
// CHECK-LABEL: func.func @rms_dynamic
//  CHECK-SAME: %[[X:.*]]: tensor<?x?xf32>, %[[G:.*]]: tensor<?xf32>
//       CHECK: norm.rms_norm ins(%[[X]] : tensor<?x?xf32>) weight(%[[G]] : tensor<?xf32>) outs(%{{.*}} : tensor<?x?xf32>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
func.func @rms_dynamic(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %ci = arith.index_cast %cols : index to i64
  %n = arith.sitofp %ci : i64 to f32
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %e1 = tensor.empty(%rows) : tensor<?x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%z : tensor<?x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<?x?xf32>, tensor<?x1xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// RMSNorm whose rstd other ops read: rstd_outs.
// CHECK-LABEL: func.func @rms_rstd_used
//       CHECK: %[[N:.*]]:2 = norm.rms_norm {{.*}} rstd_outs(%{{.*}} : tensor<16xf32>)
//       CHECK: return %[[N]]#0, %[[N]]#1
func.func @rms_rstd_used(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<16x64xf32>, tensor<16xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %out: f32):
    %xr = arith.mulf %in, %r : f32
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %rstd : tensor<16x64xf32>, tensor<16xf32>
}

// Two norms in a row: both raised, the second reading the first's result.
// CHECK-LABEL: func.func @two_norms
//       CHECK: %[[A:.*]] = norm.rms_norm ins(%{{.*}}) outs
//       CHECK: %[[B:.*]] = norm.rms_norm ins(%[[A]] : tensor<16x64xf32>) outs
//       CHECK: return %[[B]]
func.func @two_norms(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  %y1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s1 : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %q = arith.addf %m, %eps : f32
    %r = math.rsqrt %q : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %s2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y1 : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y1, %s2 : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %q = arith.addf %m, %eps : f32
    %r = math.rsqrt %q : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y2 : tensor<16x64xf32>
}

// The mean accumulated directly: Σ (x²/n), ε added in the same generic.
// CHECK-LABEL: func.func @rms_mean_in_body
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
func.func @rms_mean_in_body(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %eps = arith.constant 1.0e-6 : f32
  %n = arith.constant 64.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%eps : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %ms = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %d = arith.divf %p, %n : f32
    %a = arith.addf %acc, %d : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ms : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = math.rsqrt %m : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
