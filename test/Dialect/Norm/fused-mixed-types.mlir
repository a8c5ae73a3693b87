// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s

// The fused norm ↔ matmul ops with mixed element types (docs/design.md,
// "Mixed element types"). The decomposition is the reference semantics of
// the rounding points: everything in acc_type, S rounded to the output's
// type (matmul → norm), C rounded once to the output's type, γ/β widened
// and never rounded to x's type.

// (a) bf16 A and W, an f32 output: the f32 product plus the f32 bias and
// residual is S, not rounded further (no truncf), normalized at f32.
// ROUNDTRIP-LABEL: func.func @matmul_f32_rms_norm
// ROUNDTRIP: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x16xbf16>) rhs(%{{.*}} : tensor<16x8xbf16>) matmul_bias(%{{.*}} : tensor<8xf32>) residual(%{{.*}} : tensor<4x8xf32>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) sum_outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-LABEL: func.func @matmul_f32_rms_norm
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xbf16>, tensor<16x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<4x8xf32>)
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @matmul_f32_rms_norm(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %mb: tensor<8xf32>, %h: tensor<4x8xf32>, %g: tensor<8xf32>, %e: tensor<4x8xf32>, %e1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %y, %s = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) matmul_bias(%mb : tensor<8xf32>) residual(%h : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>) sum_outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32>
  return %y, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// (a) + (c) the Gemma 3 post-matmul norm: bf16 output, so S rounds to bf16
// (where the unfused IR's truncf of the f32 product is), then the norm with
// the f32 γ + 1 in f32 and one rounding to bf16.
// ROUNDTRIP-LABEL: func.func @matmul_gemma_norm
// ROUNDTRIP: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x16xbf16>) rhs(%{{.*}} : tensor<16x8xbf16>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xbf16>) {weight_offset = 1.000000e+00 : f32} -> tensor<4x8xbf16>
// CHECK-LABEL: func.func @matmul_gemma_norm
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<4xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: bf16, %[[R:.*]]: f32, %[[G:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[XA:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[XA]], %[[R]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[F:.*]] = arith.addf %[[G]], %[[ONE]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[N]], %[[F]] : f32
// CHECK-NEXT: arith.truncf %[[Y]] : f32 to bf16
func.func @matmul_gemma_norm(%a: tensor<4x16xbf16>, %w: tensor<16x8xbf16>, %g: tensor<8xf32>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xbf16>) rhs(%w : tensor<16x8xbf16>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xbf16>) {weight_offset = 1.0 : f32} -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// Per head with f16 A and W, an f32 output and f32 γ/β.
// ROUNDTRIP-LABEL: func.func @matmul_f32_layer_norm_heads
// ROUNDTRIP: norm.matmul_layer_norm ins(%{{.*}} : tensor<4x16xf16>) rhs(%{{.*}} : tensor<32x16xf16>) weight(%{{.*}} : tensor<8xf32>) bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x32xf32>) {head_dim = 8 : i64, transpose_rhs} -> tensor<4x32xf32>
// CHECK-LABEL: func.func @matmul_f32_layer_norm_heads
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 4, 8] : tensor<4x32xf32> into tensor<4x4x8xf32>
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @matmul_f32_layer_norm_heads(%a: tensor<4x16xf16>, %w: tensor<32x16xf16>, %g: tensor<8xf32>, %b: tensor<8xf32>, %e: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = norm.matmul_layer_norm ins(%a : tensor<4x16xf16>) rhs(%w : tensor<32x16xf16>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<4x32xf32>) {transpose_rhs, head_dim = 8 : i64} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// (b) + (c) norm → matmul: bf16 x with an f32 γ and a bf16 residual stream,
// an f32 C and bias. S = round_bf16(x + r) as before; γ is widened, the
// normalized activations stay f32, C is stored at f32 (no truncf).
// ROUNDTRIP-LABEL: func.func @rms_norm_matmul_f32
// ROUNDTRIP: norm.rms_norm_matmul ins(%{{.*}} : tensor<4x16xbf16>) residual(%{{.*}} : tensor<4x16xbf16>) weight(%{{.*}} : tensor<16xf32>) rhs(%{{.*}} : tensor<16x8xbf16>) matmul_bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) sum_outs(%{{.*}} : tensor<4x16xbf16>) -> tensor<4x8xf32>, tensor<4x16xbf16>
// CHECK-LABEL: func.func @rms_norm_matmul_f32
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x16xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<16x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
func.func @rms_norm_matmul_f32(%x: tensor<4x16xbf16>, %r: tensor<4x16xbf16>, %g: tensor<16xf32>, %w: tensor<16x8xbf16>, %mb: tensor<8xf32>, %e: tensor<4x8xf32>, %e1: tensor<4x16xbf16>) -> (tensor<4x8xf32>, tensor<4x16xbf16>) {
  %c, %s = norm.rms_norm_matmul ins(%x : tensor<4x16xbf16>) residual(%r : tensor<4x16xbf16>) weight(%g : tensor<16xf32>) rhs(%w : tensor<16x8xbf16>) matmul_bias(%mb : tensor<8xf32>) outs(%e : tensor<4x8xf32>) sum_outs(%e1 : tensor<4x16xbf16>) -> tensor<4x8xf32>, tensor<4x16xbf16>
  return %c, %s : tensor<4x8xf32>, tensor<4x16xbf16>
}

// -----

// (c) f16 LayerNorm with f32 γ/β into an f16 C: one rounding, at C.
// ROUNDTRIP-LABEL: func.func @layer_norm_matmul_wide_params
// ROUNDTRIP: norm.layer_norm_matmul ins(%{{.*}} : tensor<4x16xf16>) weight(%{{.*}} : tensor<16xf32>) bias(%{{.*}} : tensor<16xf32>) rhs(%{{.*}} : tensor<16x8xf16>) outs(%{{.*}} : tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-LABEL: func.func @layer_norm_matmul_wide_params
// CHECK-NOT: arith.truncf
// CHECK: linalg.generic {{.*}} ins({{.*}}, %{{.*}}, %{{.*}} : {{.*}}, tensor<16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK-NOT: arith.truncf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @layer_norm_matmul_wide_params(%x: tensor<4x16xf16>, %g: tensor<16xf32>, %b: tensor<16xf32>, %w: tensor<16x8xf16>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c = norm.layer_norm_matmul ins(%x : tensor<4x16xf16>) weight(%g : tensor<16xf32>) bias(%b : tensor<16xf32>) rhs(%w : tensor<16x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %c : tensor<4x8xf16>
}

// -----

// f32 A and W, a bf16 output (the f32 product rounded to a bf16 norm's
// type, issue 26 item 2): the product is f32 × f32 in f32 (no extf), S =
// round_bf16(product + residual) with the bf16 residual widened, the sum
// returned, then the norm of the rounded S: statistics in f32 over the bf16
// values, γ (bf16) widened, one rounding of y to bf16.
// ROUNDTRIP-LABEL: func.func @f32_matmul_bf16_norm
// ROUNDTRIP: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x16xf32>) rhs(%{{.*}} : tensor<16x8xf32>) residual(%{{.*}} : tensor<4x8xbf16>) weight(%{{.*}} : tensor<8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>) sum_outs(%{{.*}} : tensor<4x8xbf16>) -> tensor<4x8xbf16>, tensor<4x8xbf16>
// CHECK-LABEL: func.func @f32_matmul_bf16_norm
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<4xf32>, tensor<8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: bf16, %[[R:.*]]: f32, %[[G:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT: %[[XA:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[XA]], %[[R]] : f32
// CHECK-NEXT: %[[GA:.*]] = arith.extf %[[G]] : bf16 to f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[N]], %[[GA]] : f32
// CHECK-NEXT: arith.truncf %[[Y]] : f32 to bf16
// CHECK: return %{{.*}}, %[[S]]
func.func @f32_matmul_bf16_norm(%a: tensor<4x16xf32>, %w: tensor<16x8xf32>, %h: tensor<4x8xbf16>, %g: tensor<8xbf16>, %e: tensor<4x8xbf16>, %e1: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %y, %s = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x8xf32>) residual(%h : tensor<4x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xbf16>) sum_outs(%e1 : tensor<4x8xbf16>) -> tensor<4x8xbf16>, tensor<4x8xbf16>
  return %y, %s : tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// The same into an f16 LayerNorm per head, W as N×K, f32 γ and β.
// ROUNDTRIP-LABEL: func.func @f32_matmul_f16_layer_norm_heads
// ROUNDTRIP: norm.matmul_layer_norm ins(%{{.*}} : tensor<4x16xf32>) rhs(%{{.*}} : tensor<32x16xf32>) weight(%{{.*}} : tensor<8xf32>) bias(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x32xf16>) {head_dim = 8 : i64, transpose_rhs} -> tensor<4x32xf16>
// CHECK-LABEL: func.func @f32_matmul_f16_layer_norm_heads
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<32x16xf32>) outs(%{{.*}} : tensor<4x32xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<4x32xf32>) outs(%{{.*}} : tensor<4x32xf16>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.expand_shape %[[S]] {{\[}}[0], [1, 2]] output_shape [4, 4, 8] : tensor<4x32xf16> into tensor<4x4x8xf16>
// CHECK: return
func.func @f32_matmul_f16_layer_norm_heads(%a: tensor<4x16xf32>, %w: tensor<32x16xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %e: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %y = norm.matmul_layer_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<32x16xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<4x32xf16>) {transpose_rhs, head_dim = 8 : i64} -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
