// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// Mixed element types (docs/design.md, "Mixed element types"): γ/β wider
// than x (f32 with bf16/f16: Gemma 3's f32 norm weights), and matmuls with
// 16-bit A and W accumulated into f32. The fused op rounds where the unfused
// IR does: S to the product's type (f32, or bf16 when the product is
// truncated before the norm), C once to the matmul's result type.

// (c) Gemma 3: bf16 activations, f32 γ, weight_offset 1, into a bf16 matmul.
// CHECK-LABEL: func.func @gemma_weight
//  CHECK-SAME: (%[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xf32>, %[[W:.*]]: tensor<64x32xbf16>)
//       CHECK: norm.rms_norm_matmul ins(%[[X]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xf32>) rhs(%[[W]] : tensor<64x32xbf16>) outs(%{{.*}} : tensor<16x32xbf16>) {cast_mode = #norm.cast_mode<after_weight>, weight_offset = 1.000000e+00 : f32} -> tensor<16x32xbf16>
//   CHECK-NOT: linalg.
func.func @gemma_weight(%x: tensor<16x64xbf16>, %g: tensor<64xf32>, %w: tensor<64x32xbf16>) -> tensor<16x32xbf16> {
  %e = tensor.empty() : tensor<16x64xbf16>
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %y = norm.rms_norm ins(%x : tensor<16x64xbf16>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xbf16>) {weight_offset = 1.0 : f32} -> tensor<16x64xbf16>
  %c0 = arith.constant 0.0 : bf16
  %e2 = tensor.empty() : tensor<16x32xbf16>
  %z = linalg.fill ins(%c0 : bf16) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  %m = linalg.matmul ins(%y, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %m : tensor<16x32xbf16>
}

// -----

// (b) + (c): f16 LayerNorm with f32 γ/β into a matmul accumulated into f32
// with an f32 bias after it: C and the bias are f32.
// CHECK-LABEL: func.func @ln_into_f32_matmul
//  CHECK-SAME: (%[[X:.*]]: tensor<?x64xf16>, %[[G:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>, %[[W:.*]]: tensor<32x64xf16>, %[[MB:.*]]: tensor<32xf32>)
//       CHECK: norm.layer_norm_matmul ins(%[[X]] : tensor<?x64xf16>) weight(%[[G]] : tensor<64xf32>) bias(%[[B]] : tensor<64xf32>) rhs(%[[W]] : tensor<32x64xf16>) matmul_bias(%[[MB]] : tensor<32xf32>) outs(%{{.*}} : tensor<?x32xf32>) {cast_mode = #norm.cast_mode<after_weight>, transpose_rhs} -> tensor<?x32xf32>
//   CHECK-NOT: linalg.
func.func @ln_into_f32_matmul(%x: tensor<?x64xf16>, %g: tensor<64xf32>, %b: tensor<64xf32>, %w: tensor<32x64xf16>, %mb: tensor<32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x64xf16>
  %e = tensor.empty(%m) : tensor<?x64xf16>
  // expected-remark @+1 {{norm.layer_norm fused into 1 consuming matmul(s)}}
  %n = norm.layer_norm ins(%x : tensor<?x64xf16>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) outs(%e : tensor<?x64xf16>) -> tensor<?x64xf16>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%n, %w : tensor<?x64xf16>, tensor<32x64xf16>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %be = tensor.empty(%m) : tensor<?x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%be : tensor<?x32xf32>) dimensions = [0]
  %s = linalg.add ins(%c, %bb : tensor<?x32xf32>, tensor<?x32xf32>) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %s : tensor<?x32xf32>
}

// -----

// (b) with constant weights: bf16 data, so the fused op takes the norm's
// cast_mode (its result rounds to bf16 after γ and β) and γ, β stay
// operands: folding them into W and the bias would round elsewhere.
// CHECK-LABEL: func.func @folded_into_f32_matmul
//       CHECK: norm.layer_norm_matmul ins(%{{.*}} : tensor<3x4xbf16>) weight(%{{.*}} : tensor<4xf32>) bias(%{{.*}} : tensor<4xf32>) rhs(%{{.*}} : tensor<4x2xbf16>) outs(%{{.*}} : tensor<3x2xf32>) {cast_mode = #norm.cast_mode<after_weight>} -> tensor<3x2xf32>
func.func @folded_into_f32_matmul(%x: tensor<3x4xbf16>) -> tensor<3x2xf32> {
  %g = arith.constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>
  %b = arith.constant dense<[0.25, 0.0, -1.0, 2.0]> : tensor<4xf32>
  %w = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]]> : tensor<4x2xbf16>
  %e = tensor.empty() : tensor<3x4xbf16>
  // expected-remark @+1 {{norm.layer_norm fused into 1 consuming matmul(s)}}
  %n = norm.layer_norm ins(%x : tensor<3x4xbf16>) weight(%g : tensor<4xf32>) bias(%b : tensor<4xf32>) outs(%e : tensor<3x4xbf16>) -> tensor<3x4xbf16>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<3x4xbf16>, tensor<4x2xbf16>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// (b) A bf16 linear layer as frontends spell it: the product accumulated
// into f32, then rounded to bf16 (arith.truncf). The fused op's C is bf16,
// rounded once where the truncf was; the truncf is gone.
// CHECK-LABEL: func.func @norm_into_truncated_product
//  CHECK-SAME: (%[[X:.*]]: tensor<8x64xbf16>, %[[G:.*]]: tensor<64xf32>, %[[W:.*]]: tensor<32x64xbf16>)
//       CHECK: %[[C:.*]] = norm.rms_norm_matmul ins(%[[X]] : tensor<8x64xbf16>) weight(%[[G]] : tensor<64xf32>) rhs(%[[W]] : tensor<32x64xbf16>) outs(%{{.*}} : tensor<8x32xbf16>) {cast_mode = #norm.cast_mode<after_weight>, transpose_rhs, weight_offset = 1.000000e+00 : f32} -> tensor<8x32xbf16>
//  CHECK-NEXT: return %[[C]]
func.func @norm_into_truncated_product(%x: tensor<8x64xbf16>, %g: tensor<64xf32>, %w: tensor<32x64xbf16>) -> tensor<8x32xbf16> {
  %e = tensor.empty() : tensor<8x64xbf16>
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %y = norm.rms_norm ins(%x : tensor<8x64xbf16>) weight(%g : tensor<64xf32>) outs(%e : tensor<8x64xbf16>) {weight_offset = 1.0 : f32} -> tensor<8x64xbf16>
  %c0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%y, %w : tensor<8x64xbf16>, tensor<32x64xbf16>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  return %t : tensor<8x32xbf16>
}

// -----

// With an f32 bias in the f32 product, the truncation stays after the fused
// op (whose C is f32): a bf16 C would add the bias at bf16.
// CHECK-LABEL: func.func @norm_into_biased_truncated_product
//       CHECK: %[[C:.*]] = norm.rms_norm_matmul {{.*}} matmul_bias(%{{.*}} : tensor<32xf32>) outs(%{{.*}} : tensor<8x32xf32>)
//       CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<8x32xf32>) outs(%{{.*}} : tensor<8x32xbf16>)
//       CHECK: arith.truncf
func.func @norm_into_biased_truncated_product(%x: tensor<8x64xbf16>, %w: tensor<64x32xbf16>, %mb: tensor<32xf32>) -> tensor<8x32xbf16> {
  %e = tensor.empty() : tensor<8x64xbf16>
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %y = norm.rms_norm ins(%x : tensor<8x64xbf16>) outs(%e : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%e2 : tensor<8x32xf32>) dimensions = [0]
  %m = linalg.matmul ins(%y, %w : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%bb : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  return %t : tensor<8x32xbf16>
}

// -----

// (a) bf16 × bf16 accumulated into f32 (with a broadcast f32 bias as the
// init), then an f32 residual add and an f32 RMSNorm: S, Y and the residual
// stream are f32; the sum is returned for the residual stream.
// CHECK-LABEL: func.func @f32_product_into_norm
//  CHECK-SAME: (%[[A:.*]]: tensor<16x64xbf16>, %[[W:.*]]: tensor<64x32xbf16>, %[[MB:.*]]: tensor<32xf32>, %[[H:.*]]: tensor<16x32xf32>, %[[G:.*]]: tensor<32xf32>)
//       CHECK: %[[Y:.*]]:2 = norm.matmul_rms_norm ins(%[[A]] : tensor<16x64xbf16>) rhs(%[[W]] : tensor<64x32xbf16>) matmul_bias(%[[MB]] : tensor<32xf32>) residual(%[[H]] : tensor<16x32xf32>) weight(%[[G]] : tensor<32xf32>) outs(%{{.*}} : tensor<16x32xf32>) sum_outs(%{{.*}} : tensor<16x32xf32>) -> tensor<16x32xf32>, tensor<16x32xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]#0, %[[Y]]#1
func.func @f32_product_into_norm(%a: tensor<16x64xbf16>, %w: tensor<64x32xbf16>, %mb: tensor<32xf32>, %h: tensor<16x32xf32>, %g: tensor<32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %e = tensor.empty() : tensor<16x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%e : tensor<16x32xf32>) dimensions = [0]
  %m = linalg.matmul ins(%a, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%bb : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.add ins(%m, %h : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  // expected-remark @+2 {{norm.rms_norm took the add of its input as its residual}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%s : tensor<16x32xf32>) weight(%g : tensor<32xf32>) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y, %s : tensor<16x32xf32>, tensor<16x32xf32>
}

// -----

// (a) + (c) the f32 product rounded to bf16 (`arith.truncf`) before a
// Gemma norm with f32 γ: the fused op's S is bf16 (rounded where the truncf
// was) and its output bf16; the truncation is gone.
// CHECK-LABEL: func.func @truncated_product_into_gemma_norm
//  CHECK-SAME: (%[[A:.*]]: tensor<16x64xbf16>, %[[W:.*]]: tensor<32x64xbf16>, %[[G:.*]]: tensor<32xf32>)
//       CHECK: norm.matmul_rms_norm ins(%[[A]] : tensor<16x64xbf16>) rhs(%[[W]] : tensor<32x64xbf16>) weight(%[[G]] : tensor<32xf32>) outs(%{{.*}} : tensor<16x32xbf16>) {transpose_rhs, weight_offset = 1.000000e+00 : f32} -> tensor<16x32xbf16>
//   CHECK-NOT: linalg.
//   CHECK-NOT: arith.truncf
func.func @truncated_product_into_gemma_norm(%a: tensor<16x64xbf16>, %w: tensor<32x64xbf16>, %g: tensor<32xf32>) -> tensor<16x32xbf16> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<16x64xbf16>, tensor<32x64xbf16>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %eb = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%eb : tensor<16x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<16x32xbf16>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<16x32xbf16>) weight(%g : tensor<32xf32>) outs(%e2 : tensor<16x32xbf16>) {weight_offset = 1.0 : f32} -> tensor<16x32xbf16>
  return %y : tensor<16x32xbf16>
}

// -----

// The truncated product through a residual add of the bf16 stream.
// CHECK-LABEL: func.func @truncated_product_residual
//       CHECK: norm.matmul_layer_norm ins(%{{.*}} : tensor<8x64xbf16>) rhs(%{{.*}} : tensor<64x32xbf16>) residual(%{{.*}} : tensor<8x32xbf16>) weight(%{{.*}} : tensor<32xf32>) bias(%{{.*}} : tensor<32xf32>) outs(%{{.*}} : tensor<8x32xbf16>) -> tensor<8x32xbf16>
//   CHECK-NOT: linalg.
func.func @truncated_product_residual(%a: tensor<8x64xbf16>, %w: tensor<64x32xbf16>, %h: tensor<8x32xbf16>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<8x32xbf16> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  %s = linalg.add ins(%t, %h : tensor<8x32xbf16>, tensor<8x32xbf16>) outs(%eb : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+2 {{norm.layer_norm took the add of its input as its residual}}
  // expected-remark @+1 {{norm.layer_norm fused with its producing matmul}}
  %y = norm.layer_norm ins(%s : tensor<8x32xbf16>) weight(%g : tensor<32xf32>) bias(%b : tensor<32xf32>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}

// -----

// Per head (QK-norm with an f32 γ) on an f32 product.
// CHECK-LABEL: func.func @f32_product_qk_norm
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%{{.*}} : tensor<8x64xbf16>) rhs(%{{.*}} : tensor<64x64xbf16>) weight(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<8x64xf32>) {head_dim = 16 : i64} -> tensor<8x64xf32>
//       CHECK: tensor.expand_shape %[[Y]]
func.func @f32_product_qk_norm(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>, %g: tensor<16xf32>) -> tensor<8x4x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %m [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %e2 = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<8x4x16xf32>) weight(%g : tensor<16xf32>) outs(%e2 : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  return %y : tensor<8x4x16xf32>
}

// -----

// Still not fused: a norm whose result is wider than its input. The remark
// says why.
// CHECK-LABEL: func.func @wider_result
//       CHECK: norm.layer_norm ins
//       CHECK: linalg.matmul
func.func @wider_result(%x: tensor<16x64xf16>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  // expected-remark @+1 {{norm.layer_norm not fused: into consumers: its result is wider than its input (a fused op's norm result has the type the norm reads); with a producer: its result is wider than its input}}
  %y = norm.layer_norm ins(%x : tensor<16x64xf16>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%y, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// -----

// before_weight with a wider γ (Hugging Face Llama's order with f32 norm
// weights): fused, the fused op takes the norm's cast_mode and rounds where
// the norm did (x̂ to bf16, then · γ in f32, then to bf16); γ is not folded.
// CHECK-LABEL: func.func @before_weight_wider_gamma
//   CHECK-NOT: norm.rms_norm ins
//       CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<16x64xbf16>) weight(%{{.*}} : tensor<64xf32>) rhs(%{{.*}} : tensor<64x32xbf16>) outs(%{{.*}} : tensor<16x32xbf16>) {cast_mode = #norm.cast_mode<before_weight>} -> tensor<16x32xbf16>
//   CHECK-NOT: linalg.matmul
func.func @before_weight_wider_gamma(%x: tensor<16x64xbf16>, %g: tensor<64xf32>, %w: tensor<64x32xbf16>) -> tensor<16x32xbf16> {
  %e = tensor.empty() : tensor<16x64xbf16>
  // expected-remark @+1 {{norm.rms_norm fused into 1 consuming matmul(s)}}
  %y = norm.rms_norm ins(%x : tensor<16x64xbf16>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xbf16>) {cast_mode = #norm.cast_mode<before_weight>} -> tensor<16x64xbf16>
  %c0 = arith.constant 0.0 : bf16
  %e2 = tensor.empty() : tensor<16x32xbf16>
  %z = linalg.fill ins(%c0 : bf16) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  %m = linalg.matmul ins(%y, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %m : tensor<16x32xbf16>
}

// -----

// Not fused: the f32 bias is added before the rounding to bf16; the fused op
// would add it at bf16.
// CHECK-LABEL: func.func @truncated_after_f32_bias
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @truncated_after_f32_bias(%a: tensor<16x64xbf16>, %w: tensor<64x32xbf16>, %mb: tensor<32xf32>) -> tensor<16x32xbf16> {
  %e = tensor.empty() : tensor<16x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%e : tensor<16x32xf32>) dimensions = [0]
  %m = linalg.matmul ins(%a, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%bb : tensor<16x32xf32>) -> tensor<16x32xf32>
  %eb = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%eb : tensor<16x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<16x32xbf16>
  // expected-remark @+1 {{with a producer: the matmul bias is added at f32 before the rounding to bf16 (the fused op adds it at its output type)}}
  %y = norm.rms_norm ins(%t : tensor<16x32xbf16>) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %y : tensor<16x32xbf16>
}

// -----

// Not fused: f16 operands whose f32 product is rounded to bf16.
// CHECK-LABEL: func.func @truncated_to_other_type
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @truncated_to_other_type(%a: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xbf16> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x64xf16>, tensor<64x32xf16>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %eb = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%eb : tensor<16x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<16x32xbf16>
  // expected-remark @+1 {{with a producer: the product is rounded to bf16, not to its operands' type f16}}
  %y = norm.rms_norm ins(%t : tensor<16x32xbf16>) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %y : tensor<16x32xbf16>
}

// -----

// Not fused: the f32 product is read besides its rounding.
// CHECK-LABEL: func.func @truncated_product_other_user
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @truncated_product_other_user(%a: tensor<16x64xbf16>, %w: tensor<64x32xbf16>) -> (tensor<16x32xbf16>, tensor<16x32xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %eb = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%eb : tensor<16x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<16x32xbf16>
  // expected-remark @+1 {{with a producer: the product has other users besides its rounding}}
  %y = norm.rms_norm ins(%t : tensor<16x32xbf16>) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %y, %m : tensor<16x32xbf16>, tensor<16x32xf32>
}

// -----

// Not fused: W's type differs from the activation's.
// CHECK-LABEL: func.func @w_type_differs
//       CHECK: norm.rms_norm ins
//       CHECK: linalg.matmul
func.func @w_type_differs(%x: tensor<4x8xbf16>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xbf16>
  // expected-remark @+1 {{into consumers: a user needs the normalized value: the matmul mixes element types: W is f32, the activation bf16 (the fused ops take one type for both)}}
  %n = norm.rms_norm ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xbf16>, tensor<8x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// Not fused: a product narrower than its operands.
// CHECK-LABEL: func.func @narrower_product
//       CHECK: norm.rms_norm ins
//       CHECK: linalg.matmul
func.func @narrower_product(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xbf16> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{into consumers: a user needs the normalized value: the matmul mixes element types: its result bf16 is neither its operands' type f32 nor a wider float type}}
  %n = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<4x2xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}

// -----

// Not fused: an f64 product of f32 operands is wider than the accumulation
// type (f32) the fused op would have.
// CHECK-LABEL: func.func @f64_product
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @f64_product(%a: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf64> {
  %zero = arith.constant 0.0 : f64
  %ce = tensor.empty() : tensor<4x2xf64>
  %z = linalg.fill ins(%zero : f64) outs(%ce : tensor<4x2xf64>) -> tensor<4x2xf64>
  %c = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z : tensor<4x2xf64>) -> tensor<4x2xf64>
  %e = tensor.empty() : tensor<4x2xf64>
  // expected-remark @+1 {{with a producer: the product's type f64 is wider than the accumulation type f32}}
  %n = norm.rms_norm ins(%c : tensor<4x2xf64>) outs(%e : tensor<4x2xf64>) -> tensor<4x2xf64>
  return %n : tensor<4x2xf64>
}
