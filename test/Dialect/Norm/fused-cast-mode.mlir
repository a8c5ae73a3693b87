// RUN: norm-opt %s -split-input-file | norm-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s --check-prefix=DECOMP

// `cast_mode` and `partial` on the fused norm → matmul ops (issue 26 item
// 7): the normalized activations round to the input's type where the
// standalone norm with that cast_mode rounds its result, and pRMSNorm's
// statistics cover the first ⌈p·K⌉ columns. The decomposition (the
// reference path) is the standalone norm at the input's type, with those
// attributes, then the product of its rounded result.

// ROUNDTRIP-LABEL: func.func @llama_order
//       ROUNDTRIP: norm.rms_norm_matmul {{.*}} {cast_mode = #norm.cast_mode<before_weight>, partial = 5.000000e-01 : f32}
// DECOMP-LABEL: func.func @llama_order
// The sum of squares masked past ⌈0.5·8⌉ = 4 columns:
//       DECOMP: arith.cmpi ult
//       DECOMP: arith.select
// x̂ rounded to bf16, then · γ in f32 (γ's type), then rounded to bf16:
//       DECOMP: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<4xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
//       DECOMP:   arith.mulf
//  DECOMP-NEXT:   arith.truncf %{{.*}} : f32 to bf16
//  DECOMP-NEXT:   arith.extf
//  DECOMP-NEXT:   arith.mulf
//  DECOMP-NEXT:   arith.truncf %{{.*}} : f32 to bf16
// The product reads the bf16 result, accumulates in f32, rounds once:
//       DECOMP: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x2xbf16>) outs(%{{.*}} : tensor<4x2xf32>)
//   DECOMP-NOT: norm.
func.func @llama_order(%x: tensor<4x8xbf16>, %g: tensor<8xf32>, %w: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %e = tensor.empty() : tensor<4x2xbf16>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xf32>) rhs(%w : tensor<8x2xbf16>) outs(%e : tensor<4x2xbf16>) {cast_mode = #norm.cast_mode<before_weight>, partial = 0.5 : f32} -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}

// -----

// Gemma's order (after_weight) on LayerNorm with a residual: S rounds to
// bf16, its norm rounds once after γ and β, the product reads that.
// ROUNDTRIP-LABEL: func.func @gemma_order_layer_norm
//       ROUNDTRIP: norm.layer_norm_matmul {{.*}} {cast_mode = #norm.cast_mode<after_weight>}
// DECOMP-LABEL: func.func @gemma_order_layer_norm
//       DECOMP: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16xf32>, tensor<2x16xbf16>) outs(%{{.*}} : tensor<2x16xbf16>)
//       DECOMP: linalg.generic {{.*}} ins({{.*}}, %arg2, %arg3 : tensor<2x16xbf16>, {{.*}}, tensor<16xbf16>, tensor<16xbf16>) outs(%{{.*}} : tensor<2x16xbf16>)
//       DECOMP: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16xbf16>, tensor<16x4xbf16>) outs(%{{.*}} : tensor<2x4xf32>)
func.func @gemma_order_layer_norm(%x: tensor<2x16xbf16>, %r: tensor<2x16xbf16>, %g: tensor<16xbf16>, %b: tensor<16xbf16>, %w: tensor<16x4xbf16>) -> (tensor<2x4xbf16>, tensor<2x16xbf16>) {
  %e = tensor.empty() : tensor<2x4xbf16>
  %es = tensor.empty() : tensor<2x16xbf16>
  %c, %s = norm.layer_norm_matmul ins(%x : tensor<2x16xbf16>) residual(%r : tensor<2x16xbf16>) weight(%g : tensor<16xbf16>) bias(%b : tensor<16xbf16>) rhs(%w : tensor<16x4xbf16>) outs(%e : tensor<2x4xbf16>) sum_outs(%es : tensor<2x16xbf16>) {cast_mode = #norm.cast_mode<after_weight>} -> tensor<2x4xbf16>, tensor<2x16xbf16>
  return %c, %s : tensor<2x4xbf16>, tensor<2x16xbf16>
}

// -----

// Without cast_mode nothing changes: the norm is computed in f32 and never
// rounded.
// DECOMP-LABEL: func.func @no_cast_mode
//       DECOMP: outs(%{{.*}} : tensor<4x8xf32>)
//       DECOMP: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xbf16>) outs(%{{.*}} : tensor<4x2xf32>)
func.func @no_cast_mode(%x: tensor<4x8xbf16>, %w: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %e = tensor.empty() : tensor<4x2xbf16>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x8xbf16>) rhs(%w : tensor<8x2xbf16>) outs(%e : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}
