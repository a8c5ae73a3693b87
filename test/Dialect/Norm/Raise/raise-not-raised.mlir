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
