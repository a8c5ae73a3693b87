// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// What must not fuse is left alone, and the remark says why.

// The normalized value is also returned: it must be materialized.
// CHECK-LABEL: func.func @other_user
//       CHECK: norm.rms_norm ins
//       CHECK: linalg.matmul
func.func @other_user(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: a user needs the normalized value: 'func.return' is not a matmul; with a producer: the input is a block argument, not a matmul}}
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c, %n : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

// The norm is the matmul's right operand.
// CHECK-LABEL: func.func @norm_is_rhs
//       CHECK: norm.rms_norm ins
func.func @norm_is_rhs(%x: tensor<8x8xf32>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @+1 {{not fused: into consumers: a user needs the normalized value: the value is not (only) the matmul's left operand}}
  %n = norm.rms_norm ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%a, %n : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// pRMSNorm with a producing matmul: matmul → norm has no partial form (its
// norm → matmul fusion is in fuse-matmul.mlir).
// CHECK-LABEL: func.func @partial_after_matmul
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @partial_after_matmul(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{with a producer: pRMSNorm's prefix statistics have no matmul → norm form}}
  %n = norm.rms_norm ins(%c : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {partial = 0.5 : f32} -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// Normalized over the last two dims (mismatched axes).
// CHECK-LABEL: func.func @two_dims
//       CHECK: norm.layer_norm ins
func.func @two_dims(%x: tensor<2x4x8xf32>, %w: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  // expected-remark @+1 {{into consumers: it normalizes more than the last dim; with a producer: it normalizes more than the last dim}}
  %n = norm.layer_norm ins(%x : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {axis = 1} -> tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %c = linalg.batch_matmul ins(%n, %w : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  return %c : tensor<2x4x2xf32>
}

// -----

// The rstd result is read before the first matmul: the fused op that would
// return it is defined at the matmul, too late for that reader.
// CHECK-LABEL: func.func @stats_used
//       CHECK: norm.rms_norm ins
func.func @stats_used(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %re = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{into consumers: the rstd is read before the first matmul}}
  %n, %r0 = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) rstd_outs(%re : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>
  %r = linalg.add ins(%r0, %r0 : tensor<4xf32>, tensor<4xf32>) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c, %r : tensor<4x2xf32>, tensor<4xf32>
}

// -----

// A residual sum read before the first matmul: the fused op that would
// return it is defined at the matmul, too late for that reader.
// CHECK-LABEL: func.func @residual_sum_read_early
//       CHECK: norm.rms_norm ins
func.func @residual_sum_read_early(%x: tensor<4x8xf32>, %h: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{into consumers: the residual sum is read before the first matmul}}
  %n, %s = norm.rms_norm ins(%x : tensor<4x8xf32>) residual(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) sum_outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32>
  %twice = linalg.add ins(%s, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c, %twice : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

// bf16 × f16 → f32: A and W must have one element type (bf16 × bf16 → f32
// fuses: fuse-matmul-mixed.mlir).
// CHECK-LABEL: func.func @mixed_types
//       CHECK: norm.rms_norm ins
func.func @mixed_types(%x: tensor<4x8xbf16>, %w: tensor<8x2xf16>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xbf16>
  // expected-remark @+1 {{the matmul mixes element types: W is f16, the activation bf16 (the fused ops take one type for both)}}
  %n = norm.rms_norm ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xbf16>, tensor<8x2xf16>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// The matmul accumulates into a tensor that is an argument.
// CHECK-LABEL: func.func @accumulating_init
//       CHECK: norm.rms_norm ins
func.func @accumulating_init(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %acc: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{the matmul accumulates into an init that is neither zero nor a broadcast bias}}
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// A batch matmul with a different W per batch.
// CHECK-LABEL: func.func @per_batch_weight
//       CHECK: norm.rms_norm ins
func.func @per_batch_weight(%x: tensor<2x4x8xf32>, %w: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  // expected-remark @+1 {{the batch matmul's W differs per batch}}
  %n = norm.rms_norm ins(%x : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %c = linalg.batch_matmul ins(%n, %w : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  return %c : tensor<2x4x2xf32>
}

// -----

// matmul → norm where the product is also returned.
// CHECK-LABEL: func.func @product_other_user
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @product_other_user(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{with a producer: the matmul's result has other users}}
  %y = norm.rms_norm ins(%c : tensor<4x16xf32>) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %c : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Fused ones get a remark too.
// CHECK-LABEL: func.func @remark_on_fused
//       CHECK: norm.rms_norm_matmul
func.func @remark_on_fused(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// Memref-form norms are not candidates (no remark, nothing changes).
// CHECK-LABEL: func.func @memref_form
//       CHECK: norm.rms_norm ins
func.func @memref_form(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// The matmul is in a loop body and the norm outside: fusing would redo the
// statistics on every iteration.
// CHECK-LABEL: func.func @matmul_in_loop
//       CHECK: norm.rms_norm ins
//       CHECK: scf.for
//       CHECK:   linalg.matmul
func.func @matmul_in_loop(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %n_iter: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{into consumers: a matmul is in another block (e.g. a loop body)}}
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n_iter step %c1 iter_args(%acc = %e) -> tensor<4x8xf32> {
    %z = linalg.fill ins(%zero : f32) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %c : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// One consumer's W is the other consumer's product.
// CHECK-LABEL: func.func @weight_from_sibling
//       CHECK: norm.rms_norm ins
func.func @weight_from_sibling(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @+1 {{into consumers: a matmul's W or bias is another consumer's product}}
  %n = norm.rms_norm ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = linalg.matmul ins(%n, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.matmul ins(%n, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// A dynamic K lets the unfused ops verify with γ and W of different lengths;
// the fused op would not.
// CHECK-LABEL: func.func @mismatched_k
//       CHECK: norm.rms_norm ins
func.func @mismatched_k(%x: tensor<4x?xf32>, %e: tensor<4x?xf32>) -> tensor<4x8xf32> {
  %g = arith.constant dense<2.0> : tensor<16xf32>
  %w = arith.constant dense<1.0> : tensor<32x8xf32>
  // expected-remark @+1 {{into consumers: the normalized length and W's K differ}}
  %n = norm.rms_norm ins(%x : tensor<4x?xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x?xf32>, tensor<32x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// The residual sum is read before the norm: the norm's sum result would come
// too late, so the add stays (and the norm still fuses into the matmul).
// CHECK-LABEL: func.func @sum_read_before_norm
//       CHECK: %[[S:.*]] = linalg.add
//       CHECK: math.exp %[[S]]
//       CHECK: norm.rms_norm_matmul ins(%[[S]] : tensor<4x8xf32>) rhs
func.func @sum_read_before_norm(%x: tensor<4x8xf32>, %h: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%x, %h : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = math.exp %s : tensor<4x8xf32>
  // expected-remark @+2 {{norm.rms_norm kept the add of its input: the sum is read before the norm}}
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %n = norm.rms_norm ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The add is outside the loop whose body holds the norm.
// CHECK-LABEL: func.func @add_in_other_block
//       CHECK: linalg.add
//       CHECK: scf.for
//       CHECK: norm.rms_norm ins
func.func @add_in_other_block(%x: tensor<4x8xf32>, %h: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%x, %h : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e) -> tensor<4x8xf32> {
    // expected-remark @+2 {{norm.rms_norm kept the add of its input: the add is in another block}}
    // expected-remark @+1 {{norm.rms_norm not fused}}
    %y = norm.rms_norm ins(%s : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %y : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// A broadcast operand (a bias, not a residual) is not absorbed.
// CHECK-LABEL: func.func @broadcast_add_kept
//       CHECK: linalg.generic
//       CHECK: norm.rms_norm ins
func.func @broadcast_add_kept(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %v = arith.addf %a, %c : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  // expected-remark @+1 {{norm.rms_norm not fused}}
  %y = norm.rms_norm ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
