// RUN: norm-opt %s --norm-raise=remarks=true -verify-diagnostics | FileCheck %s

// Norms whose statistics (mean, rstd) are also returned, as
// aten.native_layer_norm returns them for the backward, and reshaped for
// those users (collapse_shape, expand_shape, tensor.reshape, a
// linalg.generic copy) BEFORE the normalized result is computed. The norm
// op is created where the first such user is, with mean_outs / rstd_outs
// wired to the users through a reshape. What must not be raised is in
// raise-not-raised.mlir.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>

// torch-mlir's decomposition of aten.native_layer_norm (mean.dim keepdim,
// x − μ, Σ(x − μ)²/n, rsqrt(var + ε), · γ + β), with the [16, 1] mean and
// rstd collapsed to [16] for the other results first.
// CHECK-LABEL: func.func @native_ln_torch
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>
//       CHECK: %[[LN:.*]]:3 = norm.layer_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) mean_outs(%{{.*}} : tensor<16xf32>) rstd_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-DAG: %[[M1:.*]] = tensor.expand_shape %[[LN]]#1
//   CHECK-DAG: %[[R1:.*]] = tensor.expand_shape %[[LN]]#2
//   CHECK-DAG: %[[M:.*]] = tensor.collapse_shape %[[M1]]
//   CHECK-DAG: %[[R:.*]] = tensor.collapse_shape %[[R1]]
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[LN]]#0, %[[M]], %[[R]]
func.func @native_ln_torch(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) {
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
  %mean_saved = tensor.collapse_shape %mean [[0, 1]] : tensor<16x1xf32> into tensor<16xf32>
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
  %rstd_saved = tensor.collapse_shape %rstd [[0, 1]] : tensor<16x1xf32> into tensor<16xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 1, epsilon 1e-05, weight, bias, mean, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %g, %b : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %bb: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    %m2 = arith.mulf %m, %w : f32
    %o = arith.addf %m2, %bb : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %mean_saved, %rstd_saved : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>
}

// PyTorch's reference decomposition (what Inductor lowers) for bf16 on the
// CPU: x.float(), var_mean (centred), rstd = rsqrt(var + ε) computed once
// and used by both the result and the saved statistic, the statistics
// rounded to bf16 and expanded to [?, 1] first; dynamic batch.
// CHECK-LABEL: func.func @native_ln_inductor_bf16
//  CHECK-SAME: %[[X:.*]]: tensor<?x64xbf16>, %[[G:.*]]: tensor<64xbf16>, %[[B:.*]]: tensor<64xbf16>
//       CHECK: %[[LN:.*]]:3 = norm.layer_norm ins(%[[X]] : tensor<?x64xbf16>) weight(%[[G]] : tensor<64xbf16>) bias(%[[B]] : tensor<64xbf16>) outs(%{{.*}} : tensor<?x64xbf16>) mean_outs(%{{.*}} : tensor<?xf32>) rstd_outs(%{{.*}} : tensor<?xf32>) {epsilon = 9.99999974E-6 : f32}
//       CHECK: linalg.generic {{.*}} ins(%[[LN]]#1 : tensor<?xf32>)
//       CHECK: arith.truncf
//       CHECK: linalg.generic {{.*}} ins(%[[LN]]#2 : tensor<?xf32>)
//       CHECK: arith.truncf
//   CHECK-NOT: math.rsqrt
//       CHECK: return %[[LN]]#0
func.func @native_ln_inductor_bf16(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xbf16>, tensor<?x1xbf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x64xbf16>
  %ef = tensor.empty(%rows) : tensor<?x64xf32>
  %eb = tensor.empty(%rows) : tensor<?x64xbf16>
  %ev = tensor.empty(%rows) : tensor<?xf32>
  %evb = tensor.empty(%rows) : tensor<?xbf16>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x64xbf16>) outs(%ef : tensor<?x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %c = arith.extf %in : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<?x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ev : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%xf : tensor<?x64xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xf32>) outs(%ev : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %inv : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %vsum = linalg.generic {indexing_maps = [#id, #vec, #vec], iterator_types = ["parallel", "reduction"]}
      ins(%xf, %mean : tensor<?x64xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %rstd = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%vsum : tensor<?xf32>) outs(%ev : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %inv : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %mean_b = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%mean : tensor<?xf32>) outs(%evb : tensor<?xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?xbf16>
  %mean_saved = tensor.expand_shape %mean_b [[0, 1]] output_shape [%rows, 1] : tensor<?xbf16> into tensor<?x1xbf16>
  %rstd_b = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%rstd : tensor<?xf32>) outs(%evb : tensor<?xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?xbf16>
  %rstd_saved = tensor.expand_shape %rstd_b [[0, 1]] output_shape [%rows, 1] : tensor<?xbf16> into tensor<?x1xbf16>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 1, epsilon 1e-05, weight, bias, mean, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #vec, #vec, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %g, %b : tensor<?x64xbf16>, tensor<?xf32>, tensor<?xf32>, tensor<64xbf16>, tensor<64xbf16>) outs(%eb : tensor<?x64xbf16>) {
  ^bb0(%in: bf16, %m: f32, %r: f32, %w: bf16, %bb: bf16, %out: bf16):
    %xi = arith.extf %in : bf16 to f32
    %d = arith.subf %xi, %m : f32
    %n = arith.mulf %d, %r : f32
    %wf = arith.extf %w : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %s = arith.mulf %n, %wf : f32
    %o = arith.addf %s, %bf : f32
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x64xbf16>
  return %y, %mean_saved, %rstd_saved : tensor<?x64xbf16>, tensor<?x1xbf16>, tensor<?x1xbf16>
}

// The one-pass variance E[x²] − μ² from one generic computing Σx and Σx²,
// the statistics copied out by a linalg.generic (mean) and a tensor.reshape
// (rstd) before the normalized value; no γ, β.
// CHECK-LABEL: func.func @ln_one_pass_copies
//       CHECK: %[[LN:.*]]:3 = norm.layer_norm ins(%{{.*}} : tensor<8x128xf32>) outs(%{{.*}} : tensor<8x128xf32>) mean_outs(%{{.*}} : tensor<8xf32>) rstd_outs(%{{.*}} : tensor<8xf32>) {epsilon = 9.99999974E-6 : f32}
//       CHECK: linalg.generic {{.*}} ins(%[[LN]]#1 : tensor<8xf32>)
//       CHECK: %[[R:.*]] = tensor.reshape %[[LN]]#2
//       CHECK: return %[[LN]]#0, %{{.*}}, %[[R]]
func.func @ln_one_pass_copies(%x: tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8xf32>, tensor<8x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.0078125 : f32
  %eps = arith.constant 1.0e-5 : f32
  %shape = arith.constant dense<[8, 1]> : tensor<2xi64>
  %e = tensor.empty() : tensor<8x128xf32>
  %ev = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ev : tensor<8xf32>) -> tensor<8xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id, #vec, #vec], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%z, %z : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32, %acc2: f32):
    %a = arith.addf %in, %acc : f32
    %sq = arith.mulf %in, %in : f32
    %a2 = arith.addf %sq, %acc2 : f32
    linalg.yield %a, %a2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %stats:2 = linalg.generic {indexing_maps = [#r1, #r1, #r1, #r1], iterator_types = ["parallel"]}
      ins(%sums#0, %sums#1 : tensor<8xf32>, tensor<8xf32>) outs(%ev, %ev : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%s: f32, %s2: f32, %o1: f32, %o2: f32):
    %mu = arith.mulf %s, %inv : f32
    %ex2 = arith.mulf %s2, %inv : f32
    %mu2 = arith.mulf %mu, %mu : f32
    %var = arith.subf %ex2, %mu2 : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %mu, %r : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %mean_saved = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%stats#0 : tensor<8xf32>) outs(%ev : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8xf32>
  %rstd_saved = tensor.reshape %stats#1(%shape) : (tensor<8xf32>, tensor<2xi64>) -> tensor<8x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 1, epsilon 1e-05, mean, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #vec, #vec, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %stats#0, %stats#1 : tensor<8x128xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8x128xf32>) {
  ^bb0(%in: f32, %m: f32, %r: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x128xf32>
  return %y, %mean_saved, %rstd_saved : tensor<8x128xf32>, tensor<8xf32>, tensor<8x1xf32>
}

// RMSNorm returning its rstd, which is collapsed first; dynamic batch.
// CHECK-LABEL: func.func @rms_rstd_first
//  CHECK-SAME: %[[X:.*]]: tensor<?x96xf32>, %[[G:.*]]: tensor<96xf32>
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%[[X]] : tensor<?x96xf32>) weight(%[[G]] : tensor<96xf32>) outs(%{{.*}} : tensor<?x96xf32>) rstd_outs(%{{.*}} : tensor<?xf32>) {epsilon = 9.99999997E-7 : f32}
//       CHECK: %[[R1:.*]] = tensor.expand_shape %[[N]]#1
//       CHECK: %[[R:.*]] = tensor.collapse_shape %[[R1]]
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[N]]#0, %[[R]]
func.func @rms_rstd_first(%x: tensor<?x96xf32>, %g: tensor<96xf32>) -> (tensor<?x96xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 96.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x96xf32>
  %e = tensor.empty(%rows) : tensor<?x96xf32>
  %e1 = tensor.empty(%rows) : tensor<?x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x96xf32>) outs(%z : tensor<?x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<?x1xf32>) outs(%e1 : tensor<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %rstd_saved = tensor.collapse_shape %rstd [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, weight, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<?x96xf32>, tensor<?x1xf32>, tensor<96xf32>) outs(%e : tensor<?x96xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %out: f32):
    %o = arith.mulf %in, %r : f32
    %o2 = arith.mulf %o, %w : f32
    linalg.yield %o2 : f32
  } -> tensor<?x96xf32>
  return %y, %rstd_saved : tensor<?x96xf32>, tensor<?xf32>
}

// The saved rstd recomputed from the variance in its own generic, while
// the normalized value takes rsqrt(var + ε) inline: the saved copy is the
// op's rstd too.
// CHECK-LABEL: func.func @ln_rstd_recomputed
//       CHECK: %[[LN:.*]]:3 = norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) mean_outs(%{{.*}} : tensor<16xf32>) rstd_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[LN]]#0, %[[LN]]#1, %[[LN]]#2
func.func @ln_rstd_recomputed(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #vec], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%ev : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  %vsum = linalg.generic {indexing_maps = [#id, #vec, #vec], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %var = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%vsum : tensor<16xf32>) outs(%ev : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %rstd_saved = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%var : tensor<16xf32>) outs(%ev : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm (axis 1, epsilon 1e-05, weight, mean, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #vec, #vec, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %var, %g : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %m: f32, %v: f32, %w: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %a = arith.addf %v, %eps : f32
    %s = math.sqrt %a : f32
    %q = arith.divf %d, %s : f32
    %o = arith.mulf %q, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %mean, %rstd_saved : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>
}
