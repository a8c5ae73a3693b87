// RUN: norm-opt %s --norm-raise=remarks=true -split-input-file -verify-diagnostics | FileCheck %s

// Third-party spellings --norm-raise must leave alone (companions of
// raise-frontend-spellings.mlir), each with the remark that says why.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// torch.var_mean(x, -1, correction=0, keepdim=True) as torch-mlir decomposes
// it: the variance of x widened to f64 (its own f64 mean), rounded to f32,
// beside an f32 mean. The ops compute both statistics in one type; raising
// with either would move where the IR rounds.
// CHECK-LABEL: func.func @torch_var_mean_f64_variance
//   CHECK-NOT: norm.layer_norm
func.func @torch_var_mean_f64_variance(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %zerod = arith.constant 0.000000e+00 : f64
  %n = arith.constant 6.400000e+01 : f32
  %nd = arith.constant 6.400000e+01 : f64
  %eps = arith.constant 9.99999974E-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %ed = tensor.empty() : tensor<16x64xf64>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %e1d = tensor.empty() : tensor<16x1xf64>
  %xd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%ed : tensor<16x64xf64>) {
  ^bb0(%in: f32, %out: f64):
    %a = arith.extf %in : f32 to f64
    linalg.yield %a : f64
  } -> tensor<16x64xf64>
  %zd = linalg.fill ins(%zerod : f64) outs(%e1d : tensor<16x1xf64>) -> tensor<16x1xf64>
  %sd = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xd : tensor<16x64xf64>) outs(%zd : tensor<16x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %a = arith.addf %in, %acc : f64
    linalg.yield %a : f64
  } -> tensor<16x1xf64>
  %cd = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xd, %sd : tensor<16x64xf64>, tensor<16x1xf64>) outs(%ed : tensor<16x64xf64>) {
  ^bb0(%in: f64, %s: f64, %out: f64):
    %m = arith.divf %s, %nd : f64
    %a = arith.subf %in, %m : f64
    %b = arith.mulf %a, %a : f64
    linalg.yield %b : f64
  } -> tensor<16x64xf64>
  %vd = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cd : tensor<16x64xf64>) outs(%zd : tensor<16x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %a = arith.addf %in, %acc : f64
    linalg.yield %a : f64
  } -> tensor<16x1xf64>
  %var = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%vd : tensor<16x1xf64>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f64, %out: f32):
    %a = arith.divf %in, %nd : f64
    %b = arith.truncf %a : f64 to f32
    linalg.yield %b : f32
  } -> tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark-re @+1 {{norm-raise: not raised: reductions in different types (f{{32|64}} and f{{32|64}}); the norm ops compute every statistic in one accumulation type}}
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %var : tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %v: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %c = arith.subf %in, %m : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// A clamp at 0 of a statistic that is not the variance: max(0, μ² − E[x²])
// is 0 in exact arithmetic (the difference the wrong way round).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @clamp_not_variance
//   CHECK-NOT: norm.layer_norm
func.func @clamp_not_variance(%x: tensor<8x96xf32>) -> tensor<8x96xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 0.010416667 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x96xf32>) outs(%z, %z : tensor<8x1xf32>, tensor<8x1xf32>) {
  ^bb0(%in: f32, %a1: f32, %a2: f32):
    %p = arith.addf %a1, %in : f32
    %q = arith.mulf %in, %in : f32
    %r = arith.addf %a2, %q : f32
    linalg.yield %p, %r : f32, f32
  } -> (tensor<8x1xf32>, tensor<8x1xf32>)
  %e = tensor.empty() : tensor<8x96xf32>
  // expected-remark @+1 {{norm-raise: not raised: a max(·, 0) of a statistic that is not the one-pass variance E[x²] − E[x]² of the normalized input}}
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s#0, %s#1 : tensor<8x96xf32>, tensor<8x1xf32>, tensor<8x1xf32>) outs(%e : tensor<8x96xf32>) {
  ^bb0(%in: f32, %sx: f32, %sxx: f32, %out: f32):
    %m = arith.mulf %sx, %inv : f32
    %m2 = arith.mulf %sxx, %inv : f32
    %mm = arith.mulf %m, %m : f32
    %d = arith.subf %mm, %m2 : f32
    %v = arith.maximumf %zero, %d : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}

// -----

// A ReLU of the input before the norm stays the op's input (a max(·, 0) of
// data is not traced): the norm is raised on the ReLU's result.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @relu_then_rms
//       CHECK: %[[R:.*]] = linalg.generic
//       CHECK: arith.maximumf
//       CHECK: norm.rms_norm ins(%[[R]] : tensor<8x96xf32>)
func.func @relu_then_rms(%x: tensor<8x96xf32>) -> tensor<8x96xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 0.010416667 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e = tensor.empty() : tensor<8x96xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x96xf32>) outs(%e : tensor<8x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x96xf32>
  %e1 = tensor.empty() : tensor<8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%relu : tensor<8x96xf32>) outs(%z : tensor<8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<8x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-05, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%relu, %s : tensor<8x96xf32>, tensor<8x1xf32>) outs(%e : tensor<8x96xf32>) {
  ^bb0(%in: f32, %sxx: f32, %out: f32):
    %m2 = arith.mulf %sxx, %inv : f32
    %a = arith.addf %m2, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}

// -----

// An f32 input whose normalized value is rounded to f16 before the f16
// scale is applied: the ops round x̂ to their input's type only (cast_mode
// before_weight), never to a narrower one.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @f32_input_rounded_before_f16_scale
//   CHECK-NOT: norm.rms_norm
func.func @f32_input_rounded_before_f16_scale(%x: tensor<4x128xf32>, %g: tensor<128xf16>) -> tensor<4x128xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %eo = tensor.empty() : tensor<4x128xf16>
  // expected-remark @+1 {{norm-raise: not raised: the casts do not round where a norm op would (f16 result, statistics in f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<4x128xf32>, tensor<4x1xf32>, tensor<128xf16>) outs(%eo : tensor<4x128xf16>) {
  ^bb0(%in: f32, %q: f32, %w: f16, %out: f16):
    %m = arith.mulf %q, %inv : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %t = arith.truncf %xr : f32 to f16
    %o = arith.mulf %t, %w : f16
    linalg.yield %o : f16
  } -> tensor<4x128xf16>
  return %y : tensor<4x128xf16>
}

// -----

// The element count from a 0-d tensor, but of a tensor that is not the one
// normalized (get_dimension_size of another operand).
#vec = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @symbolic_n_of_other_tensor
//   CHECK-NOT: norm.rms_norm
func.func @symbolic_n_of_other_tensor(%x: tensor<?x?xf32>, %other: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %o1 = tensor.dim %other, %c1 : tensor<?x?xf32>
  %i = arith.index_cast %o1 : index to i32
  %t = tensor.from_elements %i : tensor<i32>
  %ef = tensor.empty() : tensor<f32>
  %nf = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%t : tensor<i32>) outs(%ef : tensor<f32>) {
  ^bb0(%in: i32, %out: f32):
    %f = arith.sitofp %in : i32 to f32
    linalg.yield %f : f32
  } -> tensor<f32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %sq = linalg.map { arith.mulf } ins(%x, %x : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  %er = tensor.empty(%d0) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%sq : tensor<?x?xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %r = linalg.generic {indexing_maps = [#vec, affine_map<(d0) -> ()>, #vec], iterator_types = ["parallel"]}
      ins(%s, %nf : tensor<?xf32>, tensor<f32>) outs(%er : tensor<?xf32>) {
  ^bb0(%in: f32, %n: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %q = math.rsqrt %a : f32
    linalg.yield %q : f32
  } -> tensor<?xf32>
  %rb = linalg.broadcast ins(%r : tensor<?xf32>) outs(%e : tensor<?x?xf32>) dimensions = [1]
  // expected-remark @+1 {{norm-raise: not raised: n is the size of a tensor that is not normalized}}
  %y = linalg.map { arith.mulf } ins(%x, %rb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  return %y : tensor<?x?xf32>
}

// -----

// aten.quantize_per_tensor with zero point 3 (asymmetric): the ops quantize
// symmetrically.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @torch_quantize_zero_point
//   CHECK-NOT: tensor<16x64xi8>) {epsilon
func.func @torch_quantize_zero_point(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xi8> {
  %s = arith.constant 5.000000e-02 : f32
  %c3_i64 = arith.constant 3 : i64
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) {epsilon = 1.0e-6 : f32} -> tensor<16x64xf32>
  %ei = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: the quantization adds the zero point 3 (asymmetric); the op quantizes symmetrically (zero point 0)}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%ei : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %zp = arith.sitofp %c3_i64 : i64 to f32
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %a = arith.addf %r, %zp : f32
    %c0 = arith.maximumf %a, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

// The Annotated Transformer's LayerNorm, a_2 * (x - mean) / (std + eps) +
// b_2, with torch.std's default Bessel correction (÷ (n − 1)): not the
// LayerNorm the ops compute (÷ n).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @annotated_transformer_ln
//   CHECK-NOT: norm.layer_norm
func.func @annotated_transformer_ln(%x: tensor<16x64xf32>, %a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %n1 = arith.constant 6.300000e+01 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16x1xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %ss: f32, %out: f32):
    %m = arith.divf %ss, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %v = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xc : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %t = arith.addf %p, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: the variance divides by n − 1 (Bessel's correction, torch.std / torch.var's default); the norm ops normalize by the biased variance (÷ n)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%xc, %v, %a, %b : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %vs: f32, %aa: f32, %bb: f32, %out: f32):
    %var = arith.divf %vs, %n1 : f32
    %sd = math.sqrt %var : f32
    %d = arith.addf %sd, %eps : f32
    %w = arith.mulf %aa, %in : f32
    %o = arith.divf %w, %d : f32
    %o2 = arith.addf %o, %bb : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
