// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --norm-raise folds the quantization that follows a norm (DESIGN.md §8)
// into the op's quantized result: static (y / s or y · (1/s), clamp,
// round, cast), per token (amax = max |y| over the row, s = max(amax /
// qmax, floor)) and per group (the same over groups of a reshaped row), as
// hand-written linalg, torch-mlir's linalg (one generic per torch op,
// compare-and-select clamps) and TOSA spell it; after a norm it raised or
// after a norm op already there. test/Integration/CPU/raise-quant.test runs
// the functions before and after raising and compares the bits.

// REMARK-COUNT-8: remark: norm-raise: raised the quantization into norm.
// REMARK-NOT: remark: norm-raise: quantization

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#scalar = affine_map<(d0, d1) -> ()>

// y / s with an f32 scale, maximumf / minimumf to ±448, truncf: the raised
// RMSNorm takes the scale and writes f8E4M3FN.
// CHECK-LABEL: func.func @rms_e4m3_static
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[S:.*]]: f32
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<16x64xf8E4M3FN>
//       CHECK: %[[Q:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) scale(%[[S]] : f32) outs(%[[E]] : tensor<16x64xf8E4M3FN>) {epsilon = 9.99999997E-7 : f32} -> tensor<16x64xf8E4M3FN>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Q]]
func.func @rms_e4m3_static(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: f32) -> tensor<16x64xf8E4M3FN> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
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
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %d = arith.divf %in, %scale : f32
    %c0 = arith.maximumf %d, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.truncf %c1 : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x64xf8E4M3FN>
  return %q : tensor<16x64xf8E4M3FN>
}

// torch-mlir: `(y * (1 / scale)).round().clamp(-128, 127).to(torch.int8)`,
// one generic per op, the scale a 0-d tensor, the clamp as cmpf ult /
// ugt + select (a NaN goes to a bound: i8 leaves NaN unspecified).
// CHECK-LABEL: func.func @rms_i8_static_torch
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[S:.*]]: tensor<f32>
//       CHECK: %[[Q:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) scale(%[[S]] : tensor<f32>) outs(%{{.*}} : tensor<16x64xi8>) {epsilon = 9.99999997E-7 : f32} -> tensor<16x64xi8>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Q]]
func.func @rms_i8_static_torch(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %scale: tensor<f32>) -> tensor<16x64xi8> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
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
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %e0 = tensor.empty() : tensor<f32>
  %inv = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%scale : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %i = arith.divf %one, %in : f32
    linalg.yield %i : f32
  } -> tensor<f32>
  %d = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %inv : tensor<16x64xf32>, tensor<f32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %v = arith.mulf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %rd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.roundeven %in : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rd : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %below = arith.cmpf ult, %in, %lo : f32
    %v0 = arith.select %below, %lo, %in : f32
    %above = arith.cmpf ugt, %v0, %hi : f32
    %v1 = arith.select %above, %hi, %v0 : f32
    linalg.yield %v1 : f32
  } -> tensor<16x64xf32>
  %ei = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<16x64xf32>) outs(%ei : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %v = arith.fptosi %in : f32 to i8
    linalg.yield %v : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// Per token, with the residual: amax = max |y| over the row (absf and
// maximumf into a zero-filled [16, 1]), s = max(amax · (1/57344), floor),
// y / s clamped to ±57344, truncf to f8E5M2; the scales and the residual
// sum are returned.
// CHECK-LABEL: func.func @rms_e5m2_token_residual
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[R:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[N:.*]]:3 = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) residual(%[[R]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf8E5M2>) sum_outs(%{{.*}} : tensor<16x64xf32>) scale_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999997E-7 : f32, scale_min = 9.99999974E-6 : f32} -> tensor<16x64xf8E5M2>, tensor<16x64xf32>, tensor<16xf32>
//       CHECK: %[[SC:.*]] = tensor.expand_shape %[[N]]#2 {{\[}}[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[N]]#0, %[[SC]], %[[N]]#1
func.func @rms_e5m2_token_residual(%x: tensor<16x64xf32>, %res: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xf8E5M2>, tensor<16x1xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %invq = arith.constant 1.7438616e-05 : f32
  %floor = arith.constant 1.0e-5 : f32
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
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
    %d = arith.mulf %in, %invq : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x1xf32>
  %eq = tensor.empty() : tensor<16x64xf8E5M2>
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eq : tensor<16x64xf8E5M2>) {
  ^bb0(%in: f32, %s: f32, %out: f8E5M2):
    %d = arith.divf %in, %s : f32
    %c0 = arith.minimumf %d, %hi : f32
    %c1 = arith.maximumf %c0, %lo : f32
    %t = arith.truncf %c1 : f32 to f8E5M2
    linalg.yield %t : f8E5M2
  } -> tensor<16x64xf8E5M2>
  return %q, %sc, %h : tensor<16x64xf8E5M2>, tensor<16x1xf32>, tensor<16x64xf32>
}

// A norm op already there, quantized per group of 128: y reshaped to
// [16, 2, 128], amax by linalg.reduce over the group (maxnumf: i8 leaves
// NaN unspecified), s = max(amax / 127, floor), the quantized groups
// collapsed back. The scales [16, 2] are the op's scale_outs.
// CHECK-LABEL: func.func @ln_op_i8_group
//  CHECK-SAME: %[[X:.*]]: tensor<16x256xf32>, %[[G:.*]]: tensor<256xf32>, %[[B:.*]]: tensor<256xf32>
//       CHECK: %[[N:.*]]:2 = norm.layer_norm ins(%[[X]] : tensor<16x256xf32>) weight(%[[G]] : tensor<256xf32>) bias(%[[B]] : tensor<256xf32>) outs(%{{.*}} : tensor<16x256xi8>) scale_outs(%{{.*}} : tensor<16x2xf32>) {epsilon = 9.99999974E-6 : f32, group_size = 128 : i64, scale_min = 9.99999997E-7 : f32} -> tensor<16x256xi8>, tensor<16x2xf32>
//       CHECK: %[[Q:.*]] = tensor.expand_shape %[[N]]#0 {{\[}}[0], [1, 2]] output_shape [16, 2, 128] : tensor<16x256xi8> into tensor<16x2x128xi8>
//       CHECK: %[[QC:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0], [1, 2]] : tensor<16x2x128xi8> into tensor<16x256xi8>
//   CHECK-NOT: linalg.
//       CHECK: return %[[QC]], %[[N]]#1
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#grp3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @ln_op_i8_group(%x: tensor<16x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> (tensor<16x256xi8>, tensor<16x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %qmax = arith.constant 127.0 : f32
  %floor = arith.constant 1.0e-6 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %y = norm.layer_norm ins(%x : tensor<16x256xf32>) weight(%g : tensor<256xf32>) bias(%b : tensor<256xf32>) outs(%e : tensor<16x256xf32>) {epsilon = 1.0e-5 : f32} -> tensor<16x256xf32>
  %y3 = tensor.expand_shape %y [[0], [1, 2]] output_shape [16, 2, 128] : tensor<16x256xf32> into tensor<16x2x128xf32>
  %abs = math.absf %y3 : tensor<16x2x128xf32>
  %e2 = tensor.empty() : tensor<16x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x2xf32>) -> tensor<16x2xf32>
  %amax = linalg.reduce ins(%abs : tensor<16x2x128xf32>) outs(%z : tensor<16x2xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x2xf32>) outs(%e2 : tensor<16x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %m = arith.maximumf %d, %floor : f32
    linalg.yield %m : f32
  } -> tensor<16x2xf32>
  %e3 = tensor.empty() : tensor<16x2x128xi8>
  %q3 = linalg.generic {indexing_maps = [#id3, #grp3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y3, %sc : tensor<16x2x128xf32>, tensor<16x2xf32>) outs(%e3 : tensor<16x2x128xi8>) {
  ^bb0(%in: f32, %s: f32, %out: i8):
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %t = arith.fptosi %c1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x2x128xi8>
  %q = tensor.collapse_shape %q3 [[0], [1, 2]] : tensor<16x2x128xi8> into tensor<16x256xi8>
  return %q, %sc : tensor<16x256xi8>, tensor<16x2xf32>
}

// TOSA, static: y · reciprocal(s), tosa.cast to i8 (which rounds to nearest
// even and saturates, as tosa-to-linalg lowers it).
// CHECK-LABEL: func.func @tosa_rms_i8_static
//  CHECK-SAME: %[[X:.*]]: tensor<2x8x64xf32>, %[[G:.*]]: tensor<1x1x64xf32>, %[[S:.*]]: tensor<1x1x1xf32>
//       CHECK: %[[SC:.*]] = tensor.collapse_shape %[[S]] [] : tensor<1x1x1xf32> into tensor<f32>
//       CHECK: %[[Q:.*]] = norm.rms_norm ins(%[[X]] : tensor<2x8x64xf32>) weight(%{{.*}} : tensor<64xf32>) scale(%[[SC]] : tensor<f32>) outs(%{{.*}} : tensor<2x8x64xi8>) {epsilon = 9.99999997E-7 : f32} -> tensor<2x8x64xi8>
//   CHECK-NOT: tosa.
//       CHECK: return %[[Q]]
func.func @tosa_rms_i8_static(%x: tensor<2x8x64xf32>, %g: tensor<1x1x64xf32>, %scale: tensor<1x1x1xf32>) -> tensor<2x8x64xi8> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.000000e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %x, %x, %shift : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %s = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<2x8x64xf32>) -> tensor<2x8x1xf32>
  %m = tosa.mul %s, %inv, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
  %a = tosa.add %m, %eps : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
  %r = tosa.rsqrt %a : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %xn = tosa.mul %x, %r, %shift : (tensor<2x8x64xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %y = tosa.mul %xn, %g, %shift : (tensor<2x8x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %k = tosa.reciprocal %scale : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %v = tosa.mul %y, %k, %shift : (tensor<2x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %q = tosa.cast %v : (tensor<2x8x64xf32>) -> tensor<2x8x64xi8>
  return %q : tensor<2x8x64xi8>
}

// TOSA, per token, fp8: tosa.abs, tosa.reduce_max, · (1/448), tosa.maximum
// with the floor, y · reciprocal(s), tosa.clamp to ±448, tosa.cast.
// CHECK-LABEL: func.func @tosa_rms_e4m3_token
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%{{.*}} : tensor<2x8x64xf32>) weight(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<2x8x64xf8E4M3FN>) scale_outs(%{{.*}} : tensor<2x8xf32>) {epsilon = 9.99999997E-7 : f32, scale_min = 8.71930842E-6 : f32} -> tensor<2x8x64xf8E4M3FN>, tensor<2x8xf32>
//       CHECK: %[[SC:.*]] = tensor.expand_shape %[[N]]#1 {{\[}}[0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
//   CHECK-NOT: tosa.
//       CHECK: return %[[N]]#0, %[[SC]]
func.func @tosa_rms_e4m3_token(%x: tensor<2x8x64xf32>, %g: tensor<1x1x64xf32>) -> (tensor<2x8x64xf8E4M3FN>, tensor<2x8x1xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.000000e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %invq = "tosa.const"() <{values = dense<0.002232142857> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %floor = "tosa.const"() <{values = dense<8.719308e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %x, %x, %shift : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %s = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<2x8x64xf32>) -> tensor<2x8x1xf32>
  %m = tosa.mul %s, %inv, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
  %a = tosa.add %m, %eps : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
  %r = tosa.rsqrt %a : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %xn = tosa.mul %x, %r, %shift : (tensor<2x8x64xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %y = tosa.mul %xn, %g, %shift : (tensor<2x8x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %abs = tosa.abs %y : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %amax = tosa.reduce_max %abs {axis = 2 : i32} : (tensor<2x8x64xf32>) -> tensor<2x8x1xf32>
  %sd = tosa.mul %amax, %invq, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
  %sc = tosa.maximum %sd, %floor : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
  %k = tosa.reciprocal %sc : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %v = tosa.mul %y, %k, %shift : (tensor<2x8x64xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
  %c = tosa.clamp %v {min_val = -448.0 : f32, max_val = 448.0 : f32} : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %q = tosa.cast %c : (tensor<2x8x64xf32>) -> tensor<2x8x64xf8E4M3FN>
  return %q, %sc : tensor<2x8x64xf8E4M3FN>, tensor<2x8x1xf32>
}

// A constant scale: y · 50 (q = y / s with s = 1/50), written by a frontend
// that folded 1/s; the op takes s = 0.02 as an f32 constant.
// CHECK-LABEL: func.func @rms_i8_static_const
//       CHECK: %[[S:.*]] = arith.constant 2.000000e-02 : f32
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) scale(%[[S]] : f32) outs(%{{.*}} : tensor<16x64xi8>)
//   CHECK-NOT: linalg.generic
func.func @rms_i8_static_const(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xi8> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %k = arith.constant 50.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
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
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %eq = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%eq : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %d = arith.mulf %in, %k : f32
    %c0 = arith.minimumf %d, %hi : f32
    %c1 = arith.maximumf %c0, %lo : f32
    %r = math.roundeven %c1 : f32
    %t = arith.fptosi %r : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// Per token, int8, torch-mlir's spelling of vLLM's recipe: amax by
// linalg.reduce of absf, `(amax / 127).clamp(min=floor)` as cmpf ult +
// select, `(y / s).round().clamp(-128, 127).to(int8)`.
// CHECK-LABEL: func.func @rms_i8_token_torch
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xi8>) scale_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999997E-7 : f32, scale_min = 3.07578739E-5 : f32} -> tensor<16x64xi8>, tensor<16xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[N]]#0, %[[N]]#1
func.func @rms_i8_token_torch(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> (tensor<16x64xi8>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %qmax = arith.constant 127.0 : f32
  %floor = arith.constant 3.0757874e-05 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
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
    %o = arith.mulf %xr, %w : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  %abs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %e16 = tensor.empty() : tensor<16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %amax = linalg.reduce ins(%abs : tensor<16x64xf32>) outs(%z16 : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %sc = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%amax : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %qmax : f32
    %below = arith.cmpf ult, %d, %floor : f32
    %s = arith.select %below, %floor, %d : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ei = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sc : tensor<16x64xf32>, tensor<16xf32>) outs(%ei : tensor<16x64xi8>) {
  ^bb0(%in: f32, %s: f32, %out: i8):
    %d = arith.divf %in, %s : f32
    %r = math.roundeven %d : f32
    %below = arith.cmpf ult, %r, %lo : f32
    %v0 = arith.select %below, %lo, %r : f32
    %above = arith.cmpf ugt, %v0, %hi : f32
    %v1 = arith.select %above, %hi, %v0 : f32
    %t = arith.fptosi %v1 : f32 to i8
    linalg.yield %t : i8
  } -> tensor<16x64xi8>
  return %q, %sc : tensor<16x64xi8>, tensor<16xf32>
}
