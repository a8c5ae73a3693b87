// RUN: norm-opt %s --norm-fuse-matmul --split-input-file | FileCheck %s

// norm → matmul: the norm and the matmul become one op; the zero fill of the
// matmul's init dies with it.
// CHECK-LABEL: func.func @rms_matmul
//  CHECK-SAME: (%[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[W:.*]]: tensor<64x32xf32>)
//   CHECK-NOT: linalg.fill
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<16x32xf32>
//       CHECK: %[[C:.*]] = norm.rms_norm_matmul ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) rhs(%[[W]] : tensor<64x32xf32>) outs(%[[E]] : tensor<16x32xf32>) {epsilon = {{.*}} : f32} -> tensor<16x32xf32>
//  CHECK-NEXT: return %[[C]]
func.func @rms_matmul(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %n = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) {epsilon = 1.0e-6 : f32} -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%n, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// -----

// A PyTorch Linear weight (N×K) through linalg.transpose, and the bias added
// after the product through a broadcast: transpose_rhs and matmul_bias; the
// transpose, broadcast and add are gone. Dynamic rows.
// CHECK-LABEL: func.func @ln_linear_transpose_bias
//  CHECK-SAME: (%[[X:.*]]: tensor<?x64xbf16>, %[[G:.*]]: tensor<64xbf16>, %[[B:.*]]: tensor<64xbf16>, %[[W:.*]]: tensor<32x64xbf16>, %[[MB:.*]]: tensor<32xbf16>)
//   CHECK-NOT: linalg.
//       CHECK: %[[C0:.*]] = arith.constant 0 : index
//       CHECK: %[[M:.*]] = tensor.dim %[[X]], %[[C0]]
//   CHECK-NOT: linalg.
//       CHECK: %[[E:.*]] = tensor.empty(%[[M]]) : tensor<?x32xbf16>
//       CHECK: norm.layer_norm_matmul ins(%[[X]] : tensor<?x64xbf16>) weight(%[[G]] : tensor<64xbf16>) bias(%[[B]] : tensor<64xbf16>) rhs(%[[W]] : tensor<32x64xbf16>) matmul_bias(%[[MB]] : tensor<32xbf16>) outs(%[[E]] : tensor<?x32xbf16>) {cast_mode = #norm.cast_mode<after_weight>, transpose_rhs} -> tensor<?x32xbf16>
//   CHECK-NOT: linalg.
func.func @ln_linear_transpose_bias(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>, %w: tensor<32x64xbf16>, %mb: tensor<32xbf16>) -> tensor<?x32xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x64xbf16>
  %e = tensor.empty(%m) : tensor<?x64xbf16>
  %n = norm.layer_norm ins(%x : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>) bias(%b : tensor<64xbf16>) outs(%e : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %te = tensor.empty() : tensor<64x32xbf16>
  %wt = linalg.transpose ins(%w : tensor<32x64xbf16>) outs(%te : tensor<64x32xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty(%m) : tensor<?x32xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %c = linalg.matmul ins(%n, %wt : tensor<?x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %be = tensor.empty(%m) : tensor<?x32xbf16>
  %bb = linalg.broadcast ins(%mb : tensor<32xbf16>) outs(%be : tensor<?x32xbf16>) dimensions = [0]
  %s = linalg.add ins(%c, %bb : tensor<?x32xbf16>, tensor<?x32xbf16>) outs(%ce : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %s : tensor<?x32xbf16>
}

// -----

// W as N×K through the matmul's own indexing maps; the bias as a broadcast
// init; Gemma offset and eps_mode carried over.
// CHECK-LABEL: func.func @rms_maps_transposed_bias_init
//       CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<8x64xf32>) weight(%{{.*}} : tensor<64xf32>) rhs(%{{.*}} : tensor<32x64xf32>) matmul_bias(%{{.*}} : tensor<32xf32>) outs(%{{.*}} : tensor<8x32xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>, transpose_rhs, weight_offset = 1.000000e+00 : f32} -> tensor<8x32xf32>
//   CHECK-NOT: linalg.
func.func @rms_maps_transposed_bias_init(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %w: tensor<32x64xf32>, %mb: tensor<32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %n = norm.rms_norm ins(%x : tensor<8x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<8x64xf32>) {weight_offset = 1.0 : f32, eps_mode = #norm.eps_mode<outside_sqrt>} -> tensor<8x64xf32>
  %ce = tensor.empty() : tensor<8x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%ce : tensor<8x32xf32>) dimensions = [0]
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%n, %w : tensor<8x64xf32>, tensor<32x64xf32>) outs(%bb : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// -----

// q/k/v: one norm, three matmuls: three fused ops, no norm left. A bias add
// written as a linalg.generic is recognized too.
// CHECK-LABEL: func.func @qkv
//   CHECK-NOT: norm.rms_norm ins
//       CHECK: %[[Q:.*]] = norm.rms_norm_matmul {{.*}} rhs(%arg2 : tensor<64x64xf32>)
//       CHECK: %[[K:.*]] = norm.rms_norm_matmul {{.*}} rhs(%arg3 : tensor<64x16xf32>)
//       CHECK: %[[V:.*]] = norm.rms_norm_matmul {{.*}} rhs(%arg4 : tensor<64x16xf32>) matmul_bias(%arg5 : tensor<16xf32>)
//   CHECK-NOT: linalg.
//       CHECK: return %[[Q]], %[[K]], %[[V]]
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @qkv(%x: tensor<4x64xf32>, %g: tensor<64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x16xf32>, %wv: tensor<64x16xf32>, %bv: tensor<16xf32>)
    -> (tensor<4x64xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x64xf32>
  %n = norm.rms_norm ins(%x : tensor<4x64xf32>) weight(%g : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %z64 = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %e16 = tensor.empty() : tensor<4x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %q = linalg.matmul ins(%n, %wq : tensor<4x64xf32>, tensor<64x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %k = linalg.matmul ins(%n, %wk : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %v0 = linalg.matmul ins(%n, %wv : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %v = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
         ins(%v0, %bv : tensor<4x16xf32>, tensor<16xf32>) outs(%e16 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %q, %k, %v : tensor<4x64xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A 3-D activation through linalg.batch_matmul whose W is one 2-D W
// broadcast over the batch (the form torch-mlir gives a Linear on [B, S, K]).
// CHECK-LABEL: func.func @batch_broadcast_weight
//       CHECK: norm.layer_norm_matmul ins(%arg0 : tensor<2x8x64xf32>) rhs(%arg1 : tensor<64x32xf32>) outs(%{{.*}} : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
//   CHECK-NOT: linalg.
func.func @batch_broadcast_weight(%x: tensor<2x8x64xf32>, %w: tensor<64x32xf32>) -> tensor<2x8x32xf32> {
  %e = tensor.empty() : tensor<2x8x64xf32>
  %n = norm.layer_norm ins(%x : tensor<2x8x64xf32>) outs(%e : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %we = tensor.empty() : tensor<2x64x32xf32>
  %wb = linalg.broadcast ins(%w : tensor<64x32xf32>) outs(%we : tensor<2x64x32xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<2x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %c = linalg.batch_matmul ins(%n, %wb : tensor<2x8x64xf32>, tensor<2x64x32xf32>) outs(%z : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %c : tensor<2x8x32xf32>
}

// -----

// Constant γ and W: γ is folded into W' = diag(γ)·W (here each row k of a
// ones W becomes γ_k); the fused op has no weight.
// CHECK-LABEL: func.func @fold_gamma
//       CHECK: %[[WP:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00], [3.000000e+00, 3.000000e+00], [4.000000e+00, 4.000000e+00]]> : tensor<4x2xf32>
//       CHECK: norm.rms_norm_matmul ins(%arg0 : tensor<3x4xf32>) rhs(%[[WP]] : tensor<4x2xf32>) outs
func.func @fold_gamma(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %g = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w = arith.constant dense<1.0> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %n = norm.rms_norm ins(%x : tensor<3x4xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// LayerNorm with constant γ, β, N×K W (through linalg.transpose) and bias,
// Gemma offset 1: W'[n, k] = W[n, k]·(γ_k + 1), b' = β·W + bias. With
// W = [[1, 0, 0, 0], [1, 1, 1, 1]], γ = [0, 1, 2, 3], β = [1, 2, 3, 4],
// bias = [10, 20]: W' = [[1, 0, 0, 0], [1, 2, 3, 4]], b' = [11, 30].
// CHECK-LABEL: func.func @fold_layer_norm_transposed
//   CHECK-DAG: %[[WP:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<2x4xf32>
//   CHECK-DAG: %[[BP:.*]] = arith.constant dense<[1.100000e+01, 3.000000e+01]> : tensor<2xf32>
//       CHECK: norm.layer_norm_matmul ins(%arg0 : tensor<3x4xf32>) rhs(%[[WP]] : tensor<2x4xf32>) matmul_bias(%[[BP]] : tensor<2xf32>) outs(%{{.*}} : tensor<3x2xf32>) {transpose_rhs} -> tensor<3x2xf32>
func.func @fold_layer_norm_transposed(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %g = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w = arith.constant dense<[[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<2x4xf32>
  %mb = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %n = norm.layer_norm ins(%x : tensor<3x4xf32>) weight(%g : tensor<4xf32>) bias(%b : tensor<4xf32>) outs(%e : tensor<3x4xf32>) {weight_offset = 1.0 : f32} -> tensor<3x4xf32>
  %te = tensor.empty() : tensor<4x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x4xf32>) outs(%te : tensor<4x2xf32>) permutation = [1, 0]
  %ce = tensor.empty() : tensor<3x2xf32>
  %bb = linalg.broadcast ins(%mb : tensor<2xf32>) outs(%ce : tensor<3x2xf32>) dimensions = [0]
  %c = linalg.matmul ins(%n, %wt : tensor<3x4xf32>, tensor<4x2xf32>) outs(%bb : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// Constant W but a γ that is an argument: fused, nothing folded.
// CHECK-LABEL: func.func @no_fold_runtime_gamma
//       CHECK: norm.rms_norm_matmul ins(%arg0 : tensor<3x4xf32>) weight(%arg1 : tensor<4xf32>) rhs(%{{.*}} : tensor<4x2xf32>) outs
func.func @no_fold_runtime_gamma(%x: tensor<3x4xf32>, %g: tensor<4xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1.0> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %n = norm.rms_norm ins(%x : tensor<3x4xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// matmul → norm: the product feeds the norm only.
// CHECK-LABEL: func.func @matmul_rms
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<8x32xf32>) rhs(%arg1 : tensor<32x64xf32>) weight(%arg2 : tensor<64xf32>) outs(%{{.*}} : tensor<8x64xf32>) -> tensor<8x64xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]
func.func @matmul_rms(%a: tensor<8x32xf32>, %w: tensor<32x64xf32>, %g: tensor<64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  %c = linalg.matmul ins(%a, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = norm.rms_norm ins(%c : tensor<8x64xf32>) weight(%g : tensor<64xf32>) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// matmul + bias + residual add → LayerNorm, the sum also returned (the
// residual stream): the fused op returns it.
// CHECK-LABEL: func.func @matmul_bias_residual_ln
//       CHECK: %[[R:.*]]:2 = norm.matmul_layer_norm ins(%arg0 : tensor<8x32xf32>) rhs(%arg1 : tensor<64x32xf32>) matmul_bias(%arg2 : tensor<64xf32>) residual(%arg3 : tensor<8x64xf32>) weight(%arg4 : tensor<64xf32>) bias(%arg5 : tensor<64xf32>) outs(%{{.*}} : tensor<8x64xf32>) sum_outs(%{{.*}} : tensor<8x64xf32>) {transpose_rhs} -> tensor<8x64xf32>, tensor<8x64xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[R]]#0, %[[R]]#1
func.func @matmul_bias_residual_ln(%a: tensor<8x32xf32>, %w: tensor<64x32xf32>, %mb: tensor<64xf32>, %h: tensor<8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  %te = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%te : tensor<32x64xf32>) permutation = [1, 0]
  %c = linalg.matmul ins(%a, %wt : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %bb = linalg.broadcast ins(%mb : tensor<64xf32>) outs(%ce : tensor<8x64xf32>) dimensions = [0]
  %cb = linalg.add ins(%c, %bb : tensor<8x64xf32>, tensor<8x64xf32>) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = linalg.add ins(%h, %cb : tensor<8x64xf32>, tensor<8x64xf32>) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = norm.layer_norm ins(%s : tensor<8x64xf32>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) outs(%ce : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y, %s : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// The norm's own residual operand and sum_outs carry over.
// CHECK-LABEL: func.func @matmul_into_residual_norm
//       CHECK: %[[R:.*]]:2 = norm.matmul_rms_norm ins(%arg0 : tensor<4x16xbf16>) rhs(%arg1 : tensor<16x32xbf16>) residual(%arg2 : tensor<4x32xbf16>) outs(%{{.*}} : tensor<4x32xbf16>) sum_outs(%{{.*}} : tensor<4x32xbf16>) {acc_type = f64, epsilon = 1.000000e-05 : f64}
//       CHECK: return %[[R]]#0, %[[R]]#1
func.func @matmul_into_residual_norm(%a: tensor<4x16xbf16>, %w: tensor<16x32xbf16>, %h: tensor<4x32xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>) {
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<4x32xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %c = linalg.matmul ins(%a, %w : tensor<4x16xbf16>, tensor<16x32xbf16>) outs(%z : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %y, %s = norm.rms_norm ins(%c : tensor<4x32xbf16>) residual(%h : tensor<4x32xbf16>) outs(%ce : tensor<4x32xbf16>) sum_outs(%ce : tensor<4x32xbf16>) {acc_type = f64, epsilon = 1.0e-5 : f64} -> tensor<4x32xbf16>, tensor<4x32xbf16>
  return %y, %s : tensor<4x32xbf16>, tensor<4x32xbf16>
}

// -----

// A chain matmul → residual add → norm → matmul: the add becomes the norm's
// residual, then norm → matmul wins (the scaling is deferred into the second
// matmul's epilogue and no standalone norm or add is left); the first matmul
// stays, and the fused op returns the sum the function returns.
// CHECK-LABEL: func.func @chain
//       CHECK: %[[P:.*]] = linalg.matmul
//   CHECK-NOT: linalg.add
//       CHECK: %[[F:.*]]:2 = norm.rms_norm_matmul ins(%[[P]] : tensor<4x32xf32>) residual(%arg2 : tensor<4x32xf32>) rhs(%arg3 : tensor<32x8xf32>) outs(%{{.*}}) sum_outs(%{{.*}} : tensor<4x32xf32>)
//   CHECK-NOT: norm.rms_norm ins
//       CHECK: return %[[F]]#0, %[[F]]#1
func.func @chain(%a: tensor<4x16xf32>, %w1: tensor<16x32xf32>, %h: tensor<4x32xf32>, %w2: tensor<32x8xf32>) -> (tensor<4x8xf32>, tensor<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x32xf32>) -> tensor<4x32xf32>
  %p = linalg.matmul ins(%a, %w1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  %s = linalg.add ins(%p, %h : tensor<4x32xf32>, tensor<4x32xf32>) outs(%ce : tensor<4x32xf32>) -> tensor<4x32xf32>
  %n = norm.rms_norm ins(%s : tensor<4x32xf32>) outs(%ce : tensor<4x32xf32>) -> tensor<4x32xf32>
  %ce8 = tensor.empty() : tensor<4x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%ce8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%n, %w2 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%z8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c, %s : tensor<4x8xf32>, tensor<4x32xf32>
}

// -----

// A dense_resource W (how torch-mlir and IREE carry weights) folds too.
// CHECK-LABEL: func.func @fold_resource_weight
//       CHECK: %[[WP:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
//       CHECK: norm.rms_norm_matmul ins(%arg0 : tensor<3x2xf32>) rhs(%[[WP]] : tensor<2x2xf32>)
func.func @fold_resource_weight(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %g = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w = arith.constant dense_resource<ones_2x2> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %n = norm.rms_norm ins(%x : tensor<3x2xf32>) weight(%g : tensor<2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<3x2xf32>, tensor<2x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      ones_2x2: "0x040000000000803F0000803F0000803F0000803F"
    }
  }
#-}

// -----

// Result types less static than what the operands give (tensor<?x?>): the
// fused ops' outs have exactly the replaced values' types.
// CHECK-LABEL: func.func @dynamic_result_types
//       CHECK: %[[E1:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
//       CHECK: norm.rms_norm_matmul {{.*}} outs(%[[E1]] : tensor<?x?xf32>) -> tensor<?x?xf32>
//       CHECK: %[[E2:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
//       CHECK: norm.matmul_rms_norm {{.*}} outs(%[[E2]] : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @dynamic_result_types(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %z: tensor<?x?xf32>,
                                %a: tensor<?x16xf32>, %w2: tensor<16x32xf32>, %z2: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x64xf32>
  %n = norm.rms_norm ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %zf = linalg.fill ins(%zero : f32) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul ins(%n, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%zf : tensor<?x?xf32>) -> tensor<?x?xf32>
  %zf2 = linalg.fill ins(%zero : f32) outs(%z2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %p = linalg.matmul ins(%a, %w2 : tensor<?x16xf32>, tensor<16x32xf32>) outs(%zf2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = norm.rms_norm ins(%p : tensor<?x?xf32>) outs(%z2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c, %y : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// The residual-add → norm → matmul chain of a pre-norm block (gate/up after
// the attention residual): each fused op adds the residual itself, the first
// one also returns the sum for the residual stream, and no standalone norm
// is left.
// CHECK-LABEL: func.func @residual_norm_gate_up
//  CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>, %[[H:.*]]: tensor<4x32xf32>, %[[G:.*]]: tensor<32xf32>, %[[WG:.*]]: tensor<32x16xf32>, %[[WU:.*]]: tensor<32x16xf32>)
//       CHECK: %[[SE:.*]] = tensor.empty() : tensor<4x32xf32>
//       CHECK: %[[GATE:.*]]:2 = norm.rms_norm_matmul ins(%[[X]] : tensor<4x32xf32>) residual(%[[H]] : tensor<4x32xf32>) weight(%[[G]] : tensor<32xf32>) rhs(%[[WG]] : tensor<32x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) sum_outs(%[[SE]] : tensor<4x32xf32>) {epsilon = 9.99999974E-6 : f32} -> tensor<4x16xf32>, tensor<4x32xf32>
//       CHECK: %[[UP:.*]] = norm.rms_norm_matmul ins(%[[X]] : tensor<4x32xf32>) residual(%[[H]] : tensor<4x32xf32>) weight(%[[G]] : tensor<32xf32>) rhs(%[[WU]] : tensor<32x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) {epsilon = 9.99999974E-6 : f32} -> tensor<4x16xf32>
//   CHECK-NOT: norm.rms_norm ins
//       CHECK: return %[[GATE]]#0, %[[UP]], %[[GATE]]#1
func.func @residual_norm_gate_up(%x: tensor<4x32xf32>, %h: tensor<4x32xf32>, %g: tensor<32xf32>, %wg: tensor<32x16xf32>, %wu: tensor<32x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x32xf32>) {
  %e = tensor.empty() : tensor<4x32xf32>
  %n, %s = norm.rms_norm ins(%x : tensor<4x32xf32>) residual(%h : tensor<4x32xf32>) weight(%g : tensor<32xf32>) outs(%e : tensor<4x32xf32>) sum_outs(%e : tensor<4x32xf32>) {epsilon = 1.0e-5 : f32} -> tensor<4x32xf32>, tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %gate = linalg.matmul ins(%n, %wg : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %up = linalg.matmul ins(%n, %wu : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %gate, %up, %s : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x32xf32>
}

// -----

// A residual LayerNorm whose sum nobody reads, with constant γ, β and W
// folded: the residual stays, the sum is not produced.
// CHECK-LABEL: func.func @residual_ln_folded
//       CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
//       CHECK: %[[B:.*]] = arith.constant dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>
//       CHECK: norm.layer_norm_matmul ins(%arg0 : tensor<3x2xf32>) residual(%arg1 : tensor<3x2xf32>) rhs(%[[W]] : tensor<2x2xf32>) matmul_bias(%[[B]] : tensor<2xf32>) outs(%{{.*}} : tensor<3x2xf32>) -> tensor<3x2xf32>
//   CHECK-NOT: norm.layer_norm ins
func.func @residual_ln_folded(%x: tensor<3x2xf32>, %h: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %g = arith.constant dense<2.0> : tensor<2xf32>
  %b = arith.constant dense<1.0> : tensor<2xf32>
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %n = norm.layer_norm ins(%x : tensor<3x2xf32>) residual(%h : tensor<3x2xf32>) weight(%g : tensor<2xf32>) bias(%b : tensor<2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<3x2xf32>, tensor<2x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// norm(x + matmul) whose result is not a matmul's input: the product comes
// in through the norm's residual operand, and x becomes the fused op's
// residual (the sum commutes).
// CHECK-LABEL: func.func @matmul_in_residual_operand
//       CHECK: %[[R:.*]]:2 = norm.matmul_rms_norm ins(%arg1 : tensor<4x16xf32>) rhs(%arg2 : tensor<16x32xf32>) residual(%arg0 : tensor<4x32xf32>) outs(%{{.*}} : tensor<4x32xf32>) sum_outs(%{{.*}} : tensor<4x32xf32>) -> tensor<4x32xf32>, tensor<4x32xf32>
//   CHECK-NOT: linalg.matmul
//       CHECK: return %[[R]]#0, %[[R]]#1
func.func @matmul_in_residual_operand(%x: tensor<4x32xf32>, %a: tensor<4x16xf32>, %w: tensor<16x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x32xf32>) -> tensor<4x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<4x16xf32>, tensor<16x32xf32>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y, %s = norm.rms_norm ins(%x : tensor<4x32xf32>) residual(%p : tensor<4x32xf32>) outs(%ce : tensor<4x32xf32>) sum_outs(%ce : tensor<4x32xf32>) -> tensor<4x32xf32>, tensor<4x32xf32>
  return %y, %s : tensor<4x32xf32>, tensor<4x32xf32>
}

// -----

// A hand-written residual add in front of a norm (no matmul next to it, so
// only the add is absorbed): the LayerNorm writes the sum itself; its
// statistics results keep their uses and come after the new sum result.
// CHECK-LABEL: func.func @absorb_add_standalone
//   CHECK-NOT: linalg.add
//       CHECK: %[[N:.*]]:3 = norm.layer_norm ins(%arg1 : tensor<?x64xbf16>) residual(%arg0 : tensor<?x64xbf16>) weight(%arg2 : tensor<64xbf16>) outs(%{{.*}} : tensor<?x64xbf16>) sum_outs(%{{.*}} : tensor<?x64xbf16>) rstd_outs(%{{.*}} : tensor<?xf32>) {epsilon = 1.000000e-05 : f64} -> tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>
//       CHECK: %[[T:.*]] = math.tanh %[[N]]#0
//       CHECK: return %[[T]], %[[N]]#1, %[[N]]#2
func.func @absorb_add_standalone(%h: tensor<?x64xbf16>, %x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %r: tensor<?xf32>)
    -> (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x64xbf16>
  %e = tensor.empty(%d) : tensor<?x64xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %h : tensor<?x64xbf16>, tensor<?x64xbf16>) outs(%e : tensor<?x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.addf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<?x64xbf16>
  %y, %rstd = norm.layer_norm ins(%s : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>) outs(%e : tensor<?x64xbf16>) rstd_outs(%r : tensor<?xf32>) {epsilon = 1.0e-5 : f64} -> tensor<?x64xbf16>, tensor<?xf32>
  %t = math.tanh %y : tensor<?x64xbf16>
  return %t, %s, %rstd : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>
}


// -----

// pRMSNorm (issue 26 item 7): the fused op takes `partial` (statistics over
// the first ⌈p·K⌉ columns of K); f32 data, so no cast_mode (rounding to f32
// is the identity).
// CHECK-LABEL: func.func @partial_into_matmul
//       CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<4x8xf32>) weight(%{{.*}} : tensor<8xf32>) rhs(%{{.*}} : tensor<8x2xf32>) outs(%{{.*}} : tensor<4x2xf32>) {partial = 5.000000e-01 : f32} -> tensor<4x2xf32>
//   CHECK-NOT: norm.rms_norm ins
func.func @partial_into_matmul(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {partial = 0.5 : f32} -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// Llama's order in bf16 with a residual: cast_mode before_weight and the
// residual go with the norm into the fused op.
// CHECK-LABEL: func.func @llama_order_bf16
//       CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<4x8xbf16>) residual(%{{.*}} : tensor<4x8xbf16>) weight(%{{.*}} : tensor<8xbf16>) rhs(%{{.*}} : tensor<8x2xbf16>) outs(%{{.*}} : tensor<4x2xbf16>) sum_outs(%{{.*}} : tensor<4x8xbf16>) {cast_mode = #norm.cast_mode<before_weight>, partial = 2.500000e-01 : f32} -> tensor<4x2xbf16>, tensor<4x8xbf16>
func.func @llama_order_bf16(%x: tensor<4x8xbf16>, %r: tensor<4x8xbf16>, %g: tensor<8xbf16>, %w: tensor<8x2xbf16>) -> (tensor<4x2xbf16>, tensor<4x8xbf16>) {
  %e = tensor.empty() : tensor<4x8xbf16>
  %n, %s = norm.rms_norm ins(%x : tensor<4x8xbf16>) residual(%r : tensor<4x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xbf16>) sum_outs(%e : tensor<4x8xbf16>) {cast_mode = #norm.cast_mode<before_weight>, partial = 0.25 : f32} -> tensor<4x8xbf16>, tensor<4x8xbf16>
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<4x2xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xbf16>, tensor<8x2xbf16>) outs(%z : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  return %c, %s : tensor<4x2xbf16>, tensor<4x8xbf16>
}
