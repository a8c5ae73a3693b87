// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -verify-diagnostics -o /dev/null

// --norm-raise on Gemma 3's norms as a decoder layer writes them (Hugging
// Face Gemma3RMSNorm: `norm(x.float()) * (1.0 + weight.float())`,
// `.type_as(x)`, bf16 activations, f32 weights): x is whatever tensor the
// layer computed before the norm (a bf16 projection rounded from its f32
// accumulator, its transpose to heads, a residual sum), and the scalars are
// spelled as a frontend spells them. Each raised form is followed by the
// closest form that is refused, with the remark that says why.
// test/Integration/CPU/raise-gemma.test runs each raised function before
// and after raising and compares.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#col1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col3 = affine_map<(d0, d1, d2) -> (d2)>

// torch-mlir's scalars: the Python floats (2 of pow, ε, the 1 of 1 + w) are
// f64 constants truncated to f32 in the body, the integers (the mean's n,
// add's alpha) i64 constants converted there.
// CHECK-LABEL: func.func @gemma_torch_scalars
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @gemma_torch_scalars(%x: tensor<16x64xbf16>, %g: tensor<64xf32>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f64
  %eps = arith.constant 1.0e-6 : f64
  %one = arith.constant 1.0 : f64
  %n = arith.constant 64 : i64
  %alpha = arith.constant 1 : i64
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %ew = tensor.empty() : tensor<64xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xbf16>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %c = arith.extf %in : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %pow = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf : tensor<16x64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %two : f64 to f32
    %p = math.powf %in, %t : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%pow : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nf = arith.sitofp %n : i64 to f32
    %m = arith.divf %in, %nf : f32
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %m, %t : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %xn = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %rstd : tensor<16x64xf32>, tensor<16x1xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  %w1 = linalg.generic {indexing_maps = [#col1, #col1], iterator_types = ["parallel"]}
      ins(%g : tensor<64xf32>) outs(%ew : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %o = arith.truncf %one : f64 to f32
    %al = arith.sitofp %alpha : i64 to f32
    %oa = arith.mulf %o, %al : f32
    %a = arith.addf %in, %oa : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %yw = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xn, %w1 : tensor<16x64xf32>, tensor<64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.mulf %in, %w : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, weight, weight_offset 1, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%yw : tensor<16x64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// Only a constant folds: ε truncated from an f64 argument is no constant.
// CHECK-LABEL: func.func @gemma_eps_argument
//   CHECK-NOT: norm.rms_norm
func.func @gemma_eps_argument(%x: tensor<16x64xbf16>, %g: tensor<64xf32>, %eps: f64) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %one = arith.constant 1.0 : f32
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: ε is not a constant}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<16x64xbf16>, tensor<16x1xf32>, tensor<64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: f32, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %m, %t : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %c, %r : f32
    %w1 = arith.addf %w, %one : f32
    %o = arith.mulf %xr, %w1 : f32
    %b = arith.truncf %o : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// q_norm: the q projection accumulates in f32 and is rounded to bf16
// (torch-mlir's bf16 mm), viewed as [seq, heads, head_dim] and transposed to
// [heads, seq, head_dim]; the norm over head_dim reads that tensor. What
// computed x is no part of the norm: the op takes the transpose as it is.
// CHECK-LABEL: func.func @gemma_q_norm
//  CHECK-SAME: %[[A:.*]]: tensor<8x64xbf16>, %[[W:.*]]: tensor<64x128xbf16>, %[[G:.*]]: tensor<32xf32>
//       CHECK: %[[Q:.*]] = linalg.matmul
//       CHECK: %[[QB:.*]] = linalg.generic
//       CHECK: %[[QE:.*]] = tensor.expand_shape %[[QB]]
//       CHECK: %[[QH:.*]] = linalg.transpose ins(%[[QE]] : tensor<8x4x32xbf16>)
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[QH]] : tensor<4x8x32xbf16>) weight(%[[G]] : tensor<32xf32>) outs(%{{.*}} : tensor<4x8x32xbf16>) {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @gemma_q_norm(%a: tensor<8x64xbf16>, %wq: tensor<64x128xbf16>, %g: tensor<32xf32>) -> tensor<4x8x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %eq = tensor.empty() : tensor<8x128xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<8x128xf32>) -> tensor<8x128xf32>
  %q = linalg.matmul ins(%a, %wq : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%zq : tensor<8x128xf32>) -> tensor<8x128xf32>
  %eqb = tensor.empty() : tensor<8x128xbf16>
  %qb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<8x128xf32>) outs(%eqb : tensor<8x128xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x128xbf16>
  %qe = tensor.expand_shape %qb [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xbf16> into tensor<8x4x32xbf16>
  %eh = tensor.empty() : tensor<4x8x32xbf16>
  %qh = linalg.transpose ins(%qe : tensor<8x4x32xbf16>) outs(%eh : tensor<4x8x32xbf16>) permutation = [1, 0, 2]
  %e1 = tensor.empty() : tensor<4x8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%qh : tensor<4x8x32xbf16>) outs(%z : tensor<4x8x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x8x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 2, epsilon 1e-06, weight, weight_offset 1, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id3, #row3, #col3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qh, %sum, %g : tensor<4x8x32xbf16>, tensor<4x8x1xf32>, tensor<32xf32>) outs(%eh : tensor<4x8x32xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: f32, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %ae = arith.addf %m, %eps : f32
    %r = math.rsqrt %ae : f32
    %xr = arith.mulf %c, %r : f32
    %w1 = arith.addf %w, %one : f32
    %o = arith.mulf %xr, %w1 : f32
    %b = arith.truncf %o : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<4x8x32xbf16>
  return %y : tensor<4x8x32xbf16>
}

// The same norm with the projection's rounding to bf16 done in the norm's
// own body: x exists only there, and the op takes x as a tensor.
// CHECK-LABEL: func.func @gemma_rounding_in_body
//   CHECK-NOT: norm.rms_norm
func.func @gemma_rounding_in_body(%q: tensor<8x128xf32>, %g: tensor<128xf32>) -> tensor<8x128xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %ef = tensor.empty() : tensor<8x128xf32>
  %eb = tensor.empty() : tensor<8x128xbf16>
  %e1 = tensor.empty() : tensor<8x1xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<8x128xf32>) outs(%ef : tensor<8x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %b = arith.truncf %in : f32 to bf16
    %c = arith.extf %b : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xf : tensor<8x128xf32>) outs(%z : tensor<8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the normalized input is computed inside a fused body, not a tensor the op can take}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %sum, %g : tensor<8x128xf32>, tensor<8x1xf32>, tensor<128xf32>) outs(%eb : tensor<8x128xbf16>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: bf16):
    %m = arith.divf %s, %n : f32
    %ae = arith.addf %m, %eps : f32
    %r = math.rsqrt %ae : f32
    %xr = arith.mulf %in, %r : f32
    %w1 = arith.addf %w, %one : f32
    %o = arith.mulf %xr, %w1 : f32
    %b = arith.truncf %o : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<8x128xbf16>
  return %y : tensor<8x128xbf16>
}

// pre_feedforward_layernorm: the residual add h = x + post_attention_norm(o)
// in bf16, written as the f32 add of the widened operands rounded to bf16
// once (the same value: docs/design.md, "Element-type rounding"), and h is
// the residual stream the layer's last add reads: residual form, h from
// sum_outs.
// CHECK-LABEL: func.func @gemma_residual
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[R:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) residual(%[[R]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xbf16>) sum_outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[N]]#0, %[[N]]#1
func.func @gemma_residual(%x: tensor<16x64xbf16>, %r: tensor<16x64xbf16>, %g: tensor<64xf32>) -> (tensor<16x64xbf16>, tensor<16x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r : tensor<16x64xbf16>, tensor<16x64xbf16>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %af, %bf : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, weight, weight_offset 1, residual, sum, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %sum, %g : tensor<16x64xbf16>, tensor<16x1xf32>, tensor<64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: f32, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %ae = arith.addf %m, %eps : f32
    %rs = math.rsqrt %ae : f32
    %xr = arith.mulf %c, %rs : f32
    %w1 = arith.addf %w, %one : f32
    %o = arith.mulf %xr, %w1 : f32
    %b = arith.truncf %o : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<16x64xbf16>
  return %y, %h : tensor<16x64xbf16>, tensor<16x64xbf16>
}

// The residual add of a bf16 x and an f32 o (a matmul's accumulator not yet
// rounded), rounded to bf16 in the norm's own body: no residual add of the
// op (its residual has x's type), and x + o exists only there.
// CHECK-LABEL: func.func @gemma_residual_f32_addend
//   CHECK-NOT: norm.rms_norm
func.func @gemma_residual_f32_addend(%x: tensor<16x64xbf16>, %o: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %hf = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %o : tensor<16x64xbf16>, tensor<16x64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%a: bf16, %b: f32, %out: f32):
    %af = arith.extf %a : bf16 to f32
    %s = arith.addf %af, %b : f32
    %t = arith.truncf %s : f32 to bf16
    %c = arith.extf %t : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%hf : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the normalized input is computed inside a fused body, not a tensor the op can take}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hf, %sum, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: bf16):
    %m = arith.divf %s, %n : f32
    %ae = arith.addf %m, %eps : f32
    %rs = math.rsqrt %ae : f32
    %xr = arith.mulf %in, %rs : f32
    %w1 = arith.addf %w, %one : f32
    %ow = arith.mulf %xr, %w1 : f32
    %b = arith.truncf %ow : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}
