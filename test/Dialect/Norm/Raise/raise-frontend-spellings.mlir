// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --norm-raise on norms as third-party frontends spell them, written from
// their lowering code (not from this repo's tests): torch-mlir's
// TorchToLinalg and its ONNX import (com.microsoft SkipSimplified-
// LayerNormalization), stablehlo-legalize-to-linalg of JAX / Flax, IREE after
// elementwise fusion, TorchToTosa. Each function is a form that was missed
// before (test/Dialect/Norm/Raise/raise-frontend-spellings-not-raised.mlir
// has the ones that must stay refused); test/Integration/CPU/
// raise-frontend-spellings.test runs every function before and after
// raising on random inputs and compares.

// REMARK-COUNT-8: remark: norm-raise: raised
// REMARK-NOT: remark

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0, 0)>
#col2 = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, 0, 0)>

// torch-mlir's aten.layer_norm over the last two dims, both dynamic (no
// affine): aten.mean.dim divides by size(1) * size(2), an arith.muli of the
// two index_cast extents, converted by sitofp in the bodies.
// CHECK-LABEL: func.func @torch_ln_two_dynamic_dims
//  CHECK-SAME: %[[X:.*]]: tensor<?x?x?xf32>
//       CHECK: %[[Y:.*]] = norm.layer_norm ins(%[[X]] : tensor<?x?x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>) {axis = 1 : i64, epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @torch_ln_two_dynamic_dims(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?xf32>
  %i1 = arith.index_cast %d1 : index to i64
  %i2 = arith.index_cast %d2 : index to i64
  %n = arith.muli %i1, %i2 : i64
  %e1 = tensor.empty(%d0) : tensor<?x1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1x1xf32>) -> tensor<?x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<?x?x?xf32>) outs(%z : tensor<?x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x1x1xf32>) outs(%e1 : tensor<?x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nf = arith.sitofp %n : i64 to f32
    %m = arith.divf %in, %nf : f32
    linalg.yield %m : f32
  } -> tensor<?x1x1xf32>
  %e = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %xc = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<?x?x?xf32>, tensor<?x1x1xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<?x?x?xf32>
  %v = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%xc : tensor<?x?x?xf32>) outs(%z : tensor<?x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%xc, %v : tensor<?x?x?xf32>, tensor<?x1x1xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %vs: f32, %out: f32):
    %nf = arith.sitofp %n : i64 to f32
    %var = arith.divf %vs, %nf : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// Flax's LayerNorm (use_fast_variance, the default): var = max(0, E[x²] −
// E[x]²), through stablehlo-legalize-to-linalg (linalg.reduce, linalg.map,
// linalg.broadcast, constant divisor tensors). The clamp only removes a
// negative rounding error, so this is the op's variance in exact arithmetic.
// CHECK-LABEL: func.func @flax_ln_fast_variance
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[S:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.layer_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[S]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]
func.func @flax_ln_fast_variance(%x: tensor<16x64xf32>, %scale: tensor<64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant dense<6.400000e+01> : tensor<16xf32>
  %eps = arith.constant dense<9.99999997E-7> : tensor<16xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %e16 = tensor.empty() : tensor<16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %s1 = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%f : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %x2 = linalg.map { arith.mulf } ins(%x, %x : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
  %s2 = linalg.reduce ins(%x2 : tensor<16x64xf32>) outs(%f : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %mean = linalg.map { arith.divf } ins(%s1, %n : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %mean2 = linalg.map { arith.divf } ins(%s2, %n : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %msq = linalg.map { arith.mulf } ins(%mean, %mean : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %d = linalg.map { arith.subf } ins(%mean2, %msq : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %var = linalg.map { arith.maximumf } ins(%zeros, %d : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %ve = linalg.map { arith.addf } ins(%var, %eps : tensor<16xf32>, tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %r = linalg.map { math.rsqrt } ins(%ve : tensor<16xf32>) outs(%e16 : tensor<16xf32>)
  %mb = linalg.broadcast ins(%mean : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %xc = linalg.map { arith.subf } ins(%x, %mb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
  %rb = linalg.broadcast ins(%r : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %sb = linalg.broadcast ins(%scale : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %bb = linalg.broadcast ins(%bias : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %k = linalg.map { arith.mulf } ins(%rb, %sb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
  %y0 = linalg.map { arith.mulf } ins(%xc, %k : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
  %y = linalg.map { arith.addf } ins(%y0, %bb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>)
  return %y : tensor<16x64xf32>
}

// The same clamp fused into one generic, as maxnumf (NaN → 0: the variance
// is NaN only when x has a NaN, and x − μ makes y NaN either way), statistics
// without a materialized mean.
// CHECK-LABEL: func.func @flax_ln_fused_maxnum
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<8x96xf32>) outs(%{{.*}} : tensor<8x96xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @flax_ln_fused_maxnum(%x: tensor<8x96xf32>) -> tensor<8x96xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 0.010416667 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e1 = tensor.empty() : tensor<8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s:2 = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x96xf32>) outs(%z, %z : tensor<8x1xf32>, tensor<8x1xf32>) {
  ^bb0(%in: f32, %a1: f32, %a2: f32):
    %p = arith.addf %a1, %in : f32
    %q = arith.mulf %in, %in : f32
    %r = arith.addf %a2, %q : f32
    linalg.yield %p, %r : f32, f32
  } -> (tensor<8x1xf32>, tensor<8x1xf32>)
  %e = tensor.empty() : tensor<8x96xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s#0, %s#1 : tensor<8x96xf32>, tensor<8x1xf32>, tensor<8x1xf32>) outs(%e : tensor<8x96xf32>) {
  ^bb0(%in: f32, %sx: f32, %sxx: f32, %out: f32):
    %m = arith.mulf %sx, %inv : f32
    %m2 = arith.mulf %sxx, %inv : f32
    %mm = arith.mulf %m, %m : f32
    %d = arith.subf %m2, %mm : f32
    %v = arith.maxnumf %d, %zero : f32
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    %c = arith.subf %in, %m : f32
    %o = arith.mulf %c, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}

// JAX with symbolic shapes (jax.export) through stablehlo-legalize-to-linalg:
// jnp.mean divides by convert(get_dimension_size(x, 1)), which is
// tensor.dim → index_cast to i32 → tensor.from_elements → a 0-d generic
// converting it by sitofp → broadcast to the rows.
// CHECK-LABEL: func.func @jax_rms_symbolic_n
//  CHECK-SAME: %[[X:.*]]: tensor<?x?xf32>, %[[G:.*]]: tensor<?xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<?x?xf32>) weight(%[[G]] : tensor<?xf32>) outs(%{{.*}} : tensor<?x?xf32>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]
func.func @jax_rms_symbolic_n(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %i = arith.index_cast %d1 : index to i32
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
  %nb = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, #vec], iterator_types = ["parallel"]}
      ins(%nf : tensor<f32>) outs(%er : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?xf32>
  %ms = linalg.map { arith.divf } ins(%s, %nb : tensor<?xf32>, tensor<?xf32>) outs(%er : tensor<?xf32>)
  %r = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%ms : tensor<?xf32>) outs(%er : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    %q = math.rsqrt %a : f32
    linalg.yield %q : f32
  } -> tensor<?xf32>
  %rb = linalg.broadcast ins(%r : tensor<?xf32>) outs(%e : tensor<?x?xf32>) dimensions = [1]
  %gb = linalg.broadcast ins(%g : tensor<?xf32>) outs(%e : tensor<?x?xf32>) dimensions = [0]
  %xr = linalg.map { arith.mulf } ins(%x, %rb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  %y = linalg.map { arith.mulf } ins(%xr, %gb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  return %y : tensor<?x?xf32>
}

// onnx com.microsoft SkipSimplifiedLayerNormalization (f16, stash_type f32,
// with bias and the sum output) as torch-mlir imports it: x, skip and bias
// widened, s = x + skip + bias in f32, aten.rms_norm of s with the f16
// scale (widened in the multiply), then both results rounded to f16; one
// generic per aten op. The op takes the f32 sum (the bias generic's
// result) and the scale widened to f32 (exact), its f32 result is rounded
// to f16 by the same truncf, and the sum's own truncf stays.
// CHECK-LABEL: func.func @onnx_skip_simplified_ln
//  CHECK-SAME: %{{.*}}: tensor<16x64xf16>, %{{.*}}: tensor<16x64xf16>, %[[G:.*]]: tensor<64xf16>, %{{.*}}: tensor<64xf16>
//       CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x64xf32>, tensor<64xf32>)
//       CHECK: arith.addf
//       CHECK: %[[GW:.*]] = arith.extf %[[G]] : tensor<64xf16> to tensor<64xf32>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%[[S]] : tensor<16x64xf32>) weight(%[[GW]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999974E-6 : f32}
//       CHECK: %[[Y:.*]] = arith.truncf %[[N]] : tensor<16x64xf32> to tensor<16x64xf16>
//       CHECK: %[[S16:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<16x64xf32>)
//       CHECK: arith.truncf
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]], %[[S16]]
func.func @onnx_skip_simplified_ln(%x: tensor<16x64xf16>, %skip: tensor<16x64xf16>, %g: tensor<64xf16>, %bias: tensor<64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %x32 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf16>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %k32 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%skip : tensor<16x64xf16>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %b32 = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%bias : tensor<64xf16>) outs(%eb : tensor<64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %s0 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x32, %k32 : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %s = linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s0, %b32 : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.mulf %in, %in : f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %q = math.rsqrt %a : f32
    linalg.yield %q : f32
  } -> tensor<16x1xf32>
  %xr = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %r : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %q: f32, %out: f32):
    %a = arith.mulf %in, %q : f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %yw = linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%xr, %g : tensor<16x64xf32>, tensor<64xf16>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %w: f16, %out: f32):
    %w32 = arith.extf %w : f16 to f32
    %a = arith.mulf %in, %w32 : f32
    linalg.yield %a : f32
  } -> tensor<16x64xf32>
  %e16 = tensor.empty() : tensor<16x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%yw : tensor<16x64xf32>) outs(%e16 : tensor<16x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %a = arith.truncf %in : f32 to f16
    linalg.yield %a : f16
  } -> tensor<16x64xf16>
  %s16 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x64xf32>) outs(%e16 : tensor<16x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %a = arith.truncf %in : f32 to f16
    linalg.yield %a : f16
  } -> tensor<16x64xf16>
  return %y, %s16 : tensor<16x64xf16>, tensor<16x64xf16>
}

// The same after IREE's elementwise fusion: the f32 sum (two users) stays a
// tensor, Σs² is fused into the reduction, and the last generic applies
// rsqrt, the widened bf16 scale and the rounding to bf16. Raised as the f32
// op on the sum and the truncf after it.
// CHECK-LABEL: func.func @iree_skip_rms_fused_truncf
//  CHECK-SAME: %{{.*}}: tensor<4x128xbf16>, %{{.*}}: tensor<4x128xbf16>, %[[G:.*]]: tensor<128xbf16>
//       CHECK: %[[S:.*]] = linalg.generic
//       CHECK: %[[GW:.*]] = arith.extf %[[G]] : tensor<128xbf16> to tensor<128xf32>
//       CHECK: %[[N:.*]] = norm.rms_norm ins(%[[S]] : tensor<4x128xf32>) weight(%[[GW]] : tensor<128xf32>) outs(%{{.*}} : tensor<4x128xf32>) {epsilon = 9.99999997E-7 : f32}
//       CHECK: %[[Y:.*]] = arith.truncf %[[N]] : tensor<4x128xf32> to tensor<4x128xbf16>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @iree_skip_rms_fused_truncf(%x: tensor<4x128xbf16>, %skip: tensor<4x128xbf16>, %g: tensor<128xbf16>) -> tensor<4x128xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e = tensor.empty() : tensor<4x128xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %skip : tensor<4x128xbf16>, tensor<4x128xbf16>) outs(%e : tensor<4x128xf32>) {
  ^bb0(%a: bf16, %b: bf16, %out: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %c = arith.addf %a32, %b32 : f32
    linalg.yield %c : f32
  } -> tensor<4x128xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<4x128xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %eo = tensor.empty() : tensor<4x128xbf16>
  %y = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %ss, %g : tensor<4x128xf32>, tensor<4xf32>, tensor<128xbf16>) outs(%eo : tensor<4x128xbf16>) {
  ^bb0(%in: f32, %q: f32, %w: bf16, %out: bf16):
    %m = arith.mulf %q, %inv : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %in, %r : f32
    %w32 = arith.extf %w : bf16 to f32
    %o = arith.mulf %xr, %w32 : f32
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x128xbf16>
  return %y : tensor<4x128xbf16>
}

// TOSA LayerNorm with the one-pass variance clamped by tosa.maximum (what
// JAX's fast variance becomes through a TOSA path).
// CHECK-LABEL: func.func @tosa_ln_clamped_variance
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: tosa.
func.func @tosa_ln_clamped_variance(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %mu = tosa.mul %s, %inv, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %x2 = tosa.mul %x, %x, %shift : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  %s2 = tosa.reduce_sum %x2 {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %m2 = tosa.mul %s2, %inv, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %mm = tosa.mul %mu, %mu, %shift : (tensor<16x1xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %d = tosa.sub %m2, %mm : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
  %var = tosa.maximum %d, %zero : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %a = tosa.add %var, %eps : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %r = tosa.rsqrt %a : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %c = tosa.sub %x, %mu : (tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<16x64xf32>
  %y = tosa.mul %c, %r, %shift : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// torch-mlir's aten.quantize_per_tensor(y, 0.05, 0, torch.qint8) after a
// norm: roundeven(y / s) + zero_point (0, converted by sitofp in the body),
// then maximumf / minimumf to [−128, 127] and fptosi.
// CHECK-LABEL: func.func @torch_quantize_per_tensor
//       CHECK: %[[Q:.*]] = norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}} : tensor<64xf32>) scale(%{{.*}} : f32) outs(%{{.*}} : tensor<16x64xi8>) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Q]]
func.func @torch_quantize_per_tensor(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xi8> {
  %s = arith.constant 5.000000e-02 : f32
  %c0_i64 = arith.constant 0 : i64
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) {epsilon = 1.0e-6 : f32} -> tensor<16x64xf32>
  %ei = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x64xf32>) outs(%ei : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %zp = arith.sitofp %c0_i64 : i64 to f32
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
