// RUN: norm-opt %s --norm-raise=remarks=true -verify-diagnostics | FileCheck %s

// Partial RMSNorm (pRMSNorm, Zhang & Sennrich 2019) from its decomposed
// form: the sum of squares over the first k elements of the row (a
// reduction over tensor.extract_slice at offset 0), divided by k, and the
// whole row scaled. The op's `partial` p is the f32 (else f64) value for
// which k = ⌈p·n⌉ in double is exactly the slice's size.
// The refusals (k over a dynamic row, no p, wrong divisor, offset slice)
// are in raise-not-raised.mlir.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>

// k = 32 of n = 64, γ: p = 0.5.
// CHECK-LABEL: func.func @prms_half
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32, partial = 5.000000e-01 : f32}
//   CHECK-NOT: tensor.extract_slice
//   CHECK-NOT: linalg.generic
func.func @prms_half(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %xs = tensor.extract_slice %x[0, 0] [16, 32] [1, 1] : tensor<16x64xf32> to tensor<16x32xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<16x32xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, weight, partial 0.5, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<16x64xf32>, tensor<16x1xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    %o2 = arith.mulf %o, %w : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// k = 7 of n = 100 (p = 0.0625 in the paper's tables is a power of two;
// this one is not): the f32 nearest 0.07 gives ⌈p·100⌉ = 8, so p is the f32
// just below it. linalg.reduce over the slice, x² as powf, Σ·(1/k).
// CHECK-LABEL: func.func @prms_seven_of_hundred
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x100xf32>) outs(%{{.*}} : tensor<4x100xf32>) {epsilon = 9.99999974E-6 : f32, partial = 0.0699999928 : f32}
func.func @prms_seven_of_hundred(%x: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %invk = arith.constant 0.142857149 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<4x100xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %xs = tensor.extract_slice %x[0, 0] [4, 7] [1, 1] : tensor<4x100xf32> to tensor<4x7xf32>
  %ss = linalg.reduce ins(%xs : tensor<4x7xf32>) outs(%z : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %p = math.powf %in, %two : f32
      %a = arith.addf %p, %acc : f32
      linalg.yield %a : f32
    }
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-05, partial 0.07, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<4x100xf32>, tensor<4xf32>) outs(%e : tensor<4x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.mulf %s, %invk : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<4x100xf32>
  return %y : tensor<4x100xf32>
}

// bf16 activations, f32 statistics: the slice is of the bf16 row, widened
// in the reduction; Llama's cast placement (x·rstd rounded, then · γ);
// dynamic batch.
// CHECK-LABEL: func.func @prms_llama_bf16
//  CHECK-SAME: %[[X:.*]]: tensor<?x128xbf16>, %[[G:.*]]: tensor<128xbf16>
//       CHECK: norm.rms_norm ins(%[[X]] : tensor<?x128xbf16>) weight(%[[G]] : tensor<128xbf16>) outs(%{{.*}} : tensor<?x128xbf16>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 9.99999997E-7 : f32, partial = 2.500000e-01 : f32}
func.func @prms_llama_bf16(%x: tensor<?x128xbf16>, %g: tensor<128xbf16>) -> tensor<?x128xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x128xbf16>
  %e = tensor.empty(%rows) : tensor<?x128xbf16>
  %e1 = tensor.empty(%rows) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %xs = tensor.extract_slice %x[0, 0] [%rows, 32] [1, 1] : tensor<?x128xbf16> to tensor<?x32xbf16>
  %ss = linalg.generic {indexing_maps = [#id, #vec], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<?x32xbf16>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %f = arith.extf %in : bf16 to f32
    %p = arith.mulf %f, %f : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, weight, partial 0.25, acc f32, cast before weight)}}
  %y = linalg.generic {indexing_maps = [#id, #vec, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<?x128xbf16>, tensor<?xf32>, tensor<128xbf16>) outs(%e : tensor<?x128xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: bf16, %out: bf16):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %f = arith.extf %in : bf16 to f32
    %n = arith.mulf %f, %r : f32
    %t = arith.truncf %n : f32 to bf16
    %o = arith.mulf %t, %w : bf16
    linalg.yield %o : bf16
  } -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}

// Two normalized dims (axis 1, n = 4·64 = 256): the prefix is of the
// flattened row, sliced from the collapsed tensor; k = 80, p = 0.3125.
// CHECK-LABEL: func.func @prms_two_dims
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<8x4x64xf32>) outs(%{{.*}} : tensor<8x4x64xf32>) {axis = 1 : i64, epsilon = 9.99999997E-7 : f32, partial = 3.125000e-01 : f32}
func.func @prms_two_dims(%x: tensor<8x4x64xf32>) -> tensor<8x4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 80.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<8x4x64xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %flat = tensor.collapse_shape %x [[0], [1, 2]] : tensor<8x4x64xf32> into tensor<8x256xf32>
  %xs = tensor.extract_slice %flat[0, 0] [8, 80] [1, 1] : tensor<8x256xf32> to tensor<8x80xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<8x80xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, partial 0.3125, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss : tensor<8x4x64xf32>, tensor<8xf32>) outs(%e : tensor<8x4x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<8x4x64xf32>
  return %y : tensor<8x4x64xf32>
}

// The squares computed over the slice by their own generic, then summed
// (torch-mlir: x[..., :k].pow(2).mean(-1)), with rstd returned.
// CHECK-LABEL: func.func @prms_torch_rstd
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<16x64xf32>) rstd_outs(%{{.*}} : tensor<16xf32>) {epsilon = 9.99999997E-7 : f32, partial = 1.875000e-01 : f32}
//       CHECK: %[[R:.*]] = tensor.expand_shape %[[N]]#1
//       CHECK: return %[[N]]#0, %[[R]]
func.func @prms_torch_rstd(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 12.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %es = tensor.empty() : tensor<16x12xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %xs = tensor.extract_slice %x[0, 0] [16, 12] [1, 1] : tensor<16x64xf32> to tensor<16x12xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<16x12xf32>) outs(%es : tensor<16x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<16x12xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x12xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %k : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm (axis 1, epsilon 1e-06, partial 0.1875, rstd, acc f32)}}
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<16x64xf32>
  return %y, %rstd : tensor<16x64xf32>, tensor<16x1xf32>
}
