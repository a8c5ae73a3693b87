// RUN: norm-opt %s --norm-raise=remarks=true -split-input-file -verify-diagnostics | FileCheck %s

// Quantizations after a norm that --norm-raise must leave alone, each with
// the remark that says why: what they compute differs from the op's
// quantized result (DESIGN.md §8) somewhere, at least for some inputs. The
// norm op stays unquantized.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// No clamp: truncf turns a value beyond 448 into NaN; the op saturates.
// CHECK-LABEL: func.func @e4m3_no_clamp
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @e4m3_no_clamp(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xf8E4M3FN> {
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: no clamp to [-448, 448] before the cast to f8E4M3FN: arith.truncf does not saturate (a value beyond the largest finite one becomes NaN or Inf), the op saturates}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %scale : f32
    %t = arith.truncf %d : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q : tensor<16x64xf8E4M3FN>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// A symmetric clamp to [-127, 127]: the op reaches -128.
// CHECK-LABEL: func.func @i8_symmetric_clamp
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @i8_symmetric_clamp(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xi8> {
  %lo = arith.constant -127.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: the clamp is to [-127, 127]; i8 saturates to [-128, 127]}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %d = arith.divf %in, %scale : f32
    %r = math.roundeven %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// fptosi alone truncates toward zero.
// CHECK-LABEL: func.func @i8_no_round
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @i8_no_round(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xi8> {
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: arith.fptosi truncates toward zero and nothing rounds before it; the op rounds to nearest even}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %d = arith.divf %in, %scale : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// math.round: halfway cases away from zero.
// CHECK-LABEL: func.func @i8_round_away
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @i8_round_away(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xi8> {
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: math.round rounds halfway cases away from zero; the op rounds to nearest even}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %d = arith.divf %in, %scale : f32
    %r = math.round %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// torch-mlir's clamp (cmpf ult + select) sends a NaN to -448; fp8 keeps NaN.
// CHECK-LABEL: func.func @e4m3_nan_to_bound
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @e4m3_nan_to_bound(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xf8E4M3FN> {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the clamp sends a NaN to a bound (maxnumf / minnumf, or a compare-and-select taking the bound); the op keeps NaN in fp8}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %scale : f32
    %below = arith.cmpf ult, %d, %lo : f32
    %v0 = arith.select %below, %lo, %d : f32
    %above = arith.cmpf ugt, %v0, %hi : f32
    %v1 = arith.select %above, %hi, %v0 : f32
    %t = arith.truncf %v1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q : tensor<16x64xf8E4M3FN>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// No floor: an all-zero row gives 0 / 0.
// CHECK-LABEL: func.func @token_no_floor
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @token_no_floor(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf8E4M3FN>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 448.0 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %amax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    linalg.yield %d : f32
  } -> tensor<16x1xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the scale amax / qmax has no floor (max(amax / qmax, s_min)): an all-zero row divides by zero, and the op's scale_min must be > 0}}
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %s: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %s : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q, %sc : tensor<16x64xf8E4M3FN>, tensor<16x1xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// amax / 127 for f8E4M3FN (an int8 recipe): q would never exceed 127.
// CHECK-LABEL: func.func @token_wrong_qmax
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @token_wrong_qmax(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf8E4M3FN>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 127.0 : f32
  %floor = arith.constant 1.0e-5 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %amax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the scale is amax / 127; f8E4M3FN's qmax is 448}}
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %s: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %s : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q, %sc : tensor<16x64xf8E4M3FN>, tensor<16x1xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// A floor of 0: the op's scale_min must be > 0.
// CHECK-LABEL: func.func @token_zero_floor
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @token_zero_floor(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf8E4M3FN>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 448.0 : f32
  %floor = arith.constant 0.0 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %amax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the scale's floor is 0; the op's scale_min must be finite and > 0}}
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %s: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %s : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q, %sc : tensor<16x64xf8E4M3FN>, tensor<16x1xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// The amax of the input, not of y.
// CHECK-LABEL: func.func @token_amax_of_x
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @token_amax_of_x(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf8E4M3FN>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 448.0 : f32
  %floor = arith.constant 1.0e-5 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %amax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the amax is not the max of |y| over the normalized values}}
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %s: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %s : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q, %sc : tensor<16x64xf8E4M3FN>, tensor<16x1xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// y rounded to bf16 (the norm's result type) before it is quantized: the
// quantized op quantizes the unrounded f32 value.
// CHECK-LABEL: func.func @y_rounded_bf16
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xbf16>
func.func @y_rounded_bf16(%x: tensor<16x64xbf16>, %g: tensor<64xbf16>, %scale: f32) -> tensor<16x64xf8E4M3FN> {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xbf16>
  %y = norm.rms_norm ins(%x : tensor<16x64xbf16>) weight(%g : tensor<64xbf16>) outs(%e : tensor<16x64xbf16>) -> tensor<16x64xbf16>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the norm's result is rounded to bf16 before it is quantized; the quantized op quantizes y unrounded (in f32)}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xbf16>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: bf16, %out: f8E4M3FN):
    %w = arith.extf %in : bf16 to f32
    %d = arith.divf %w, %scale : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q : tensor<16x64xf8E4M3FN>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// y is returned too: the quantized op would not provide it.
// CHECK-LABEL: func.func @y_also_used
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @y_also_used(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> (tensor<16x64xf8E4M3FN>, tensor<16x64xf32>) {
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  // expected-remark @+1 {{norm-raise: quantization not raised: the norm's result is also used by 'func.return'; the quantized op returns only the quantized value}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %scale : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q, %y : tensor<16x64xf8E4M3FN>, tensor<16x64xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#grp3 = affine_map<(d0, d1, d2) -> (d0, d1)>
// Groups of 16: the op's group_size is 32, 64 or 128.
// CHECK-LABEL: func.func @group_of_16
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x64xf32>
func.func @group_of_16(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x4x16xi8>, tensor<16x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 127.0 : f32
  %floor = arith.constant 1.0e-6 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y3 = tensor.expand_shape %y [[0], [1, 2]] output_shape [16, 4, 16] : tensor<16x64xf32> into tensor<16x4x16xf32>
  %abs = math.absf %y3 : tensor<16x4x16xf32>
  %e2 = tensor.empty() : tensor<16x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %amax = linalg.reduce ins(%abs : tensor<16x4x16xf32>) outs(%z : tensor<16x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x4xf32>) outs(%e2 : tensor<16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x4xf32>
  %e3 = tensor.empty() : tensor<16x4x16xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: the amax is over groups of 16 elements; the op's group_size is 32, 64 or 128}}
  %q = linalg.generic {indexing_maps = [#id3, #grp3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y3, %sc : tensor<16x4x16xf32>, tensor<16x4xf32>) outs(%e3 : tensor<16x4x16xi8>) {
  ^bb0(%in: f32, %s: f32, %out: i8):
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x4x16xi8>
  return %q, %sc : tensor<16x4x16xi8>, tensor<16x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#grp3 = affine_map<(d0, d1, d2) -> (d0, d1)>
// Groups of 128 of a row of dynamic size: the op's group_size needs static
// normalized dims.
// CHECK-LABEL: func.func @group_dynamic_row
//       CHECK: norm.rms_norm {{.*}} -> tensor<16x?xf32>
func.func @group_dynamic_row(%x: tensor<16x?xf32>, %g: tensor<?xf32>, %groups: index) -> (tensor<16x?x128xi8>, tensor<16x?xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 127.0 : f32
  %floor = arith.constant 1.0e-6 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<16x?xf32>
  %e = tensor.empty(%n) : tensor<16x?xf32>
  %y = norm.rms_norm ins(%x : tensor<16x?xf32>) weight(%g : tensor<?xf32>) outs(%e : tensor<16x?xf32>) -> tensor<16x?xf32>
  %y3 = tensor.expand_shape %y [[0], [1, 2]] output_shape [16, %groups, 128] : tensor<16x?xf32> into tensor<16x?x128xf32>
  %abs = math.absf %y3 : tensor<16x?x128xf32>
  %e2 = tensor.empty(%groups) : tensor<16x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x?xf32>) -> tensor<16x?xf32>
  %amax = linalg.reduce ins(%abs : tensor<16x?x128xf32>) outs(%z : tensor<16x?xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x?xf32>) outs(%e2 : tensor<16x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x?xf32>
  %e3 = tensor.empty(%groups) : tensor<16x?x128xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: groups of 128 need static normalized dims that they divide}}
  %q = linalg.generic {indexing_maps = [#id3, #grp3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y3, %sc : tensor<16x?x128xf32>, tensor<16x?xf32>) outs(%e3 : tensor<16x?x128xi8>) {
  ^bb0(%in: f32, %s: f32, %out: i8):
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1f = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1f : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x?x128xi8>
  return %q, %sc : tensor<16x?x128xi8>, tensor<16x?xf32>
}

// -----

// A norm op on memrefs has no result to follow: nothing is traced.
// CHECK-LABEL: func.func @memref_norm
//       CHECK: norm.rms_norm
func.func @memref_norm(%x: memref<16x64xf32>, %g: memref<64xf32>, %y: memref<16x64xf32>) {
  norm.rms_norm ins(%x : memref<16x64xf32>) weight(%g : memref<64xf32>) outs(%y : memref<16x64xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A rotary embedding and a quantized result exclude each other (rule R4):
// refused before the quantization is traced, with a remark about the rope.
// CHECK-LABEL: func.func @rope_norm
//       CHECK: norm.rms_norm {{.*}} rope({{.*}} -> tensor<16x64xf32>
//       CHECK: linalg.generic
func.func @rope_norm(%x: tensor<16x64xf32>, %c: tensor<16x64xf32>, %s: tensor<16x64xf32>, %scale: f32) -> tensor<16x64xi8> {
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) rope(%c, %s : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{norm-raise: quantization not raised: the norm applies a rotary embedding (rope), which a quantized result cannot have}}
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %d = arith.divf %in, %scale : f32
    %r = math.roundeven %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}
