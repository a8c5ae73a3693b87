// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: norm-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,norm-raise)' | FileCheck %s --check-prefix=LOWERED

// --norm-raise on TOSA: tosa.reduce_sum per axis (keeping it as a unit
// dim), broadcasting of unit dims, a multiply by 1/n or a reciprocal,
// tosa.rsqrt or tosa.pow, tosa.reshape, tosa.cast around the computation.
// test/Integration/CPU/raise-tosa.test runs each function before and after
// raising (TOSA lowered by tosa-to-linalg) and compares.

// REMARK-COUNT-5: remark: norm-raise: raised norm.
// REMARK-NOT: remark

// The same functions lowered by tosa-to-linalg first (linalg.reduce,
// expand_shape, broadcasting generics) are raised as well.
// LOWERED-LABEL: func.func @tosa_rms
// LOWERED: norm.rms_norm
// LOWERED-LABEL: func.func @tosa_rms_pow
// LOWERED: norm.rms_norm
// LOWERED-LABEL: func.func @tosa_ln
// LOWERED: norm.layer_norm
// LOWERED-LABEL: func.func @tosa_two_axes
// LOWERED: norm.rms_norm
// LOWERED-LABEL: func.func @tosa_bf16
// LOWERED: norm.rms_norm
// LOWERED-NOT: linalg.reduce

// x·x, reduce_sum, · (1/64), + ε, rsqrt, · x, · γ (given as [1, 1, 64]).
// CHECK-LABEL: func.func @tosa_rms
//  CHECK-SAME: %[[X:.*]]: tensor<2x8x64xf32>, %[[G:.*]]: tensor<1x1x64xf32>
//       CHECK: %[[GC:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2]] : tensor<1x1x64xf32> into tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<2x8x64xf32>) weight(%[[GC]] : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: tosa.
//       CHECK: return %[[Y]]
func.func @tosa_rms(%x: tensor<2x8x64xf32>, %g: tensor<1x1x64xf32>) -> tensor<2x8x64xf32> {
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
  return %y : tensor<2x8x64xf32>
}

// tosa.pow(x, 2), the mean as Σ · reciprocal(n), pow(· + ε, −0.5), γ of
// shape [64] reshaped to [1, 64].
// CHECK-LABEL: func.func @tosa_rms_pow
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: tosa.
func.func @tosa_rms_pow(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %n = "tosa.const"() <{values = dense<64.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mhalf = "tosa.const"() <{values = dense<-0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shape = tosa.const_shape {values = dense<[1, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sq = tosa.pow %x, %two : (tensor<16x64xf32>, tensor<1x1xf32>) -> tensor<16x64xf32>
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %rn = tosa.reciprocal %n : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %m = tosa.mul %s, %rn, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %a = tosa.add %eps, %m : (tensor<1x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
  %r = tosa.pow %a, %mhalf : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %g2 = tosa.reshape %g, %shape : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
  %gr = tosa.mul %g2, %r, %shift : (tensor<1x64xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %y = tosa.mul %x, %gr, %shift : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// LayerNorm: mean, x − μ, Σ(x − μ)², rsqrt, γ, β.
// CHECK-LABEL: func.func @tosa_ln
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) bias(%{{.*}} : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: tosa.
func.func @tosa_ln(%x: tensor<16x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<16x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %mu = tosa.mul %s, %inv, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %d = tosa.sub %x, %mu : (tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<16x64xf32>
  %d2 = tosa.mul %d, %d, %shift : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %vs = tosa.reduce_sum %d2 {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %var = tosa.mul %vs, %inv, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %a = tosa.add %var, %eps : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %r = tosa.rsqrt %a : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %n = tosa.mul %d, %r, %shift : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %ng = tosa.mul %n, %g, %shift : (tensor<16x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %y = tosa.add %ng, %b : (tensor<16x64xf32>, tensor<1x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// Two trailing dims reduced one axis at a time.
// CHECK-LABEL: func.func @tosa_two_axes
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x8x16xf32>) outs(%{{.*}}) {axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: tosa.
func.func @tosa_two_axes(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<7.812500e-03> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.000000e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %x, %x, %shift : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %s2 = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
  %s1 = tosa.reduce_sum %s2 {axis = 1 : i32} : (tensor<4x8x1xf32>) -> tensor<4x1x1xf32>
  %m = tosa.mul %s1, %inv, %shift : (tensor<4x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x1x1xf32>
  %a = tosa.add %m, %eps : (tensor<4x1x1xf32>, tensor<1x1x1xf32>) -> tensor<4x1x1xf32>
  %r = tosa.rsqrt %a : (tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %y = tosa.mul %x, %r, %shift : (tensor<4x8x16xf32>, tensor<4x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// bf16 in and out, the computation in f32 between tosa.casts, γ cast to f32
// too: the cast at the end is after the weight (Gemma-style placement).
// CHECK-LABEL: func.func @tosa_bf16
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<1x64xbf16>
//       CHECK: norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) weight(%{{.*}} : tensor<64xbf16>) outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: tosa.
func.func @tosa_bf16(%x: tensor<16x64xbf16>, %g: tensor<1x64xbf16>) -> tensor<16x64xbf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.000000e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %xf = tosa.cast %x : (tensor<16x64xbf16>) -> tensor<16x64xf32>
  %sq = tosa.mul %xf, %xf, %shift : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %m = tosa.mul %s, %inv, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %a = tosa.add %m, %eps : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %r = tosa.rsqrt %a : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %xn = tosa.mul %xf, %r, %shift : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %gf = tosa.cast %g : (tensor<1x64xbf16>) -> tensor<1x64xf32>
  %yf = tosa.mul %xn, %gf, %shift : (tensor<16x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %y = tosa.cast %yf : (tensor<16x64xf32>) -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}
