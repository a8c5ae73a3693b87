// RUN: norm-opt %s --norm-raise=remarks=true -split-input-file -verify-diagnostics | FileCheck %s

// What --norm-raise must leave alone, each with the near-miss remark that
// says why (and a raised case for the remark's other form). The IR is not
// changed at all in these cases.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// A raised norm says what it became.
// CHECK-LABEL: func.func @raised
//       CHECK: norm.rms_norm
func.func @raised(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// The mean divides by 63 where the reduction covers 64 elements.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @wrong_n
//   CHECK-NOT: norm.rms_norm
func.func @wrong_n(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.0158730168 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the mean scales the sum by 0.015873 (1/63) but the reduction covers 64 elements}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.mulf %ss, %inv : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// ε is a function argument, not a constant: the op's ε is an attribute.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @dynamic_eps
//   CHECK-NOT: norm.rms_norm
func.func @dynamic_eps(%x: tensor<16x64xf32>, %eps: f32) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: ε is not a constant}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// Normalized over the leading dim (per column): the norm ops normalize
// trailing dims only.
#id = affine_map<(d0, d1) -> (d0, d1)>
#colsum = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @leading_dim
//   CHECK-NOT: norm.rms_norm
func.func @leading_dim(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<1x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64xf32>) -> tensor<1x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #colsum], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x64xf32>
  // expected-remark @+1 {{norm-raise: not raised: reduction over dims [0] of a rank-2 tensor: the norm ops normalize trailing dims only}}
  %y = linalg.generic {indexing_maps = [#id, #colsum, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<1x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// x² is also returned: the op cannot provide it.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @intermediate_used
//   CHECK-NOT: norm.rms_norm
func.func @intermediate_used(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the intermediate 'linalg.generic' is also used by 'func.return', and the norm op cannot provide its value}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %sq : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// Statistics in bf16: the norm ops accumulate in f32 or f64, so raising
// would change the numbers.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @bf16_statistics
//   CHECK-NOT: norm.rms_norm
func.func @bf16_statistics(%x: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %n = arith.constant 64.0 : bf16
  %eps = arith.constant 1.0e-6 : bf16
  %e = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e1 : tensor<16x1xbf16>) -> tensor<16x1xbf16>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xbf16>) outs(%z : tensor<16x1xbf16>) {
  ^bb0(%in: bf16, %acc: bf16):
    %p = arith.mulf %in, %in : bf16
    %a = arith.addf %p, %acc : bf16
    linalg.yield %a : bf16
  } -> tensor<16x1xbf16>
  // expected-remark @+1 {{norm-raise: not raised: statistics accumulated in bf16; the norm ops accumulate in f32 or f64}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xbf16>, tensor<16x1xbf16>) outs(%e : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %ss: bf16, %out: bf16):
    %m = arith.divf %ss, %n : bf16
    %a = arith.addf %m, %eps : bf16
    %r = math.rsqrt %a : bf16
    %o = arith.mulf %in, %r : bf16
    linalg.yield %o : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// -----

// rstd rounded to bf16 and applied in bf16: no cast_mode rounds there.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @rstd_rounded
//   CHECK-NOT: norm.rms_norm
func.func @rstd_rounded(%x: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: not a RMSNorm or LayerNorm form}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xbf16>, tensor<16x1xf32>) outs(%e : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %ss: f32, %out: bf16):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %rb = arith.truncf %r : f32 to bf16
    %o = arith.mulf %in, %rb : bf16
    linalg.yield %o : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// -----

// γ in f16 with bf16 data: γ may be wider than x, not another 16-bit type.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @mixed_gamma
//   CHECK-NOT: norm.rms_norm
func.func @mixed_gamma(%x: tensor<16x64xbf16>, %g: tensor<64xf16>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the casts do not round where a norm op would (bf16 result, statistics in f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %g : tensor<16x64xbf16>, tensor<16x1xf32>, tensor<64xf16>) outs(%e : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %ss: f32, %w: f16, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %c, %r : f32
    %wf = arith.extf %w : f16 to f32
    %o = arith.mulf %xr, %wf : f32
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// -----

// A softmax has a reduction but no root of a statistic: not a near miss,
// no remark.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax
//   CHECK-NOT: norm.
func.func @softmax(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.exp %in : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %o = arith.divf %in, %ss : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// x · rsqrt(mean(x²) + ε) + x: a root of a statistic, but not a norm.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @not_a_norm
//   CHECK-NOT: norm.rms_norm
func.func @not_a_norm(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: not a RMSNorm or LayerNorm form}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    %o2 = arith.addf %o, %in : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// The sum of squares accumulates into a bare tensor.empty (no linalg.fill):
// it starts from undefined values. The remark is on the reduction.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @uninitialized_accumulator
//   CHECK-NOT: norm.rms_norm
func.func @uninitialized_accumulator(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the reduction's accumulator is a bare tensor.empty that nothing initializes (no linalg.fill): the sum starts from undefined values}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// The mean of a LayerNorm reduced with linalg.reduce into a bare
// tensor.empty; the variance's accumulator is filled.
// CHECK-LABEL: func.func @uninitialized_mean
//   CHECK-NOT: norm.layer_norm
func.func @uninitialized_mean(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{norm-raise: not raised: the reduction's accumulator is a bare tensor.empty}}
  %sum = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%ev : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %vsum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<16x64xf32>, tensor<16xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %m = arith.mulf %s, %inv : f32
    %d = arith.subf %in, %m : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %vsum : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %v: f32, %out: f32):
    %m = arith.mulf %s, %inv : f32
    %d = arith.subf %in, %m : f32
    %var = arith.mulf %v, %inv : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %d, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// Not raised: γ is computed (here sliced from a wider tensor) after a
// statistic's first use, so there is no point where the op could take both.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @weight_after_statistic
//   CHECK-NOT: norm.rms_norm
func.func @weight_after_statistic(%x: tensor<16x64xf32>, %gw: tensor<128xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %rstd_saved = tensor.collapse_shape %rstd [[0, 1]] : tensor<16x1xf32> into tensor<16xf32>
  %g = tensor.extract_slice %gw[0] [64] [1] : tensor<128xf32> to tensor<64xf32>
  // expected-remark @+1 {{norm-raise: not raised: a statistic or the residual sum is used before an operand of the norm (x, the residual, γ or β) is computed}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %w: f32, %out: f32):
    %o = arith.mulf %in, %r : f32
    %o2 = arith.mulf %o, %w : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y, %rstd_saved : tensor<16x64xf32>, tensor<16xf32>
}

// -----

// Not raised: the mean of the first 16 squares divides by n = 64, not by
// the 16 elements summed.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @prms_divides_by_n
//   CHECK-NOT: norm.rms_norm
func.func @prms_divides_by_n(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %xs = tensor.extract_slice %x[0, 0] [16, 16] [1, 1] : tensor<16x64xf32> to tensor<16x16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<16x16xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the mean scales the sum by 0.015625 (1/64) but the reduction covers 16 elements}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// Not raised: a fixed prefix of 16 elements of rows of dynamic size n: k
// = ⌈p·n⌉ cannot be 16 for every n.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @prms_dynamic_row
//   CHECK-NOT: norm.rms_norm
func.func @prms_dynamic_row(%x: tensor<16x?xf32>) -> tensor<16x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %cols = tensor.dim %x, %c1 : tensor<16x?xf32>
  %e = tensor.empty(%cols) : tensor<16x?xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %xs = tensor.extract_slice %x[0, 0] [16, 16] [1, 1] : tensor<16x?xf32> to tensor<16x16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<16x16xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the sum of squares covers the first 16 elements of a row of dynamic size; no pRMSNorm fraction p gives k = ⌈p·n⌉ = 16 for every n}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<16x?xf32>, tensor<16x1xf32>) outs(%e : tensor<16x?xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x?xf32>
  return %y : tensor<16x?xf32>
}

// -----

// Not raised: no f32 or f64 p gives k = n − 1 for n = 2^53 + 1 (n itself
// rounds to 2^53 in double, and p = 1 means the whole row).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @prms_no_fraction
//   CHECK-NOT: norm.rms_norm
func.func @prms_no_fraction(%x: tensor<1x9007199254740993xf32>) -> tensor<1x9007199254740993xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 9007199254740992.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<1x9007199254740993xf32>
  %e1 = tensor.empty() : tensor<1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %xs = tensor.extract_slice %x[0, 0] [1, 9007199254740992] [1, 1] : tensor<1x9007199254740993xf32> to tensor<1x9007199254740992xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<1x9007199254740992xf32>) outs(%z : tensor<1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the sum of squares covers the first 9007199254740992 of 9007199254740993 elements; no f32 or f64 pRMSNorm fraction p gives ⌈p·n⌉ = 9007199254740992}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<1x9007199254740993xf32>, tensor<1x1xf32>) outs(%e : tensor<1x9007199254740993xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<1x9007199254740993xf32>
  return %y : tensor<1x9007199254740993xf32>
}

// -----

// Not raised: the slice starts at column 8, so the sum is over no prefix
// of the row (a suffix or window is not pRMSNorm).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @prms_offset_slice
//   CHECK-NOT: norm.rms_norm
func.func @prms_offset_slice(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %xs = tensor.extract_slice %x[0, 8] [16, 32] [1, 1] : tensor<16x64xf32> to tensor<16x32xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<16x32xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: not a RMSNorm or LayerNorm form}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
