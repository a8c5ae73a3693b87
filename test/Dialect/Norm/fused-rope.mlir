// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: norm-opt %s --norm-decompose -split-input-file | FileCheck %s --check-prefix=ALL

// QK-norm → RoPE on norm.matmul_rms_norm: `rope(cos, sin)` and `rope_mode`
// with `head_dim`, the angles shaped against the output viewed as
// [..., H, D]. The decomposition is the unfused sequence: the matmul into S,
// then the standalone per-head norm with the rotation on S viewed as heads
// (taken down in turn).

// ROUND-LABEL: func.func @qk_rope
//       ROUND: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x64xf32>) rhs(%{{.*}} : tensor<32x64xf32>) weight(%{{.*}} : tensor<8xf32>) input_weight(%{{.*}} : tensor<64xf32>) rope(%{{.*}}, %{{.*}} : tensor<4x1x8xf32>, tensor<4x1x8xf32>) outs(%{{.*}} : tensor<4x32xf32>) {head_dim = 8 : i64, input_epsilon = 9.99999974E-6 : f32, transpose_rhs} -> tensor<4x32xf32>
// ALL-LABEL: func.func @qk_rope
//   ALL-NOT: norm.
//       ALL: return
func.func @qk_rope(%a: tensor<4x64xf32>, %w: tensor<32x64xf32>, %g: tensor<8xf32>, %gi: tensor<64xf32>, %c: tensor<4x1x8xf32>, %s: tensor<4x1x8xf32>, %i: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<32x64xf32>) weight(%g : tensor<8xf32>) input_weight(%gi : tensor<64xf32>) rope(%c, %s : tensor<4x1x8xf32>, tensor<4x1x8xf32>) outs(%i : tensor<4x32xf32>) {head_dim = 8 : i64, transpose_rhs, input_epsilon = 1.0e-5 : f32} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Interleaved, on memrefs, bf16 with f32 angles.
// ROUND-LABEL: func.func @pairs_memref
//       ROUND: norm.matmul_rms_norm ins(%{{.*}} : memref<4x32xbf16>) rhs(%{{.*}} : memref<32x16xbf16>) rope(%{{.*}}, %{{.*}} : memref<1x1x8xf32>, memref<1x1x8xf32>) outs(%{{.*}} : memref<4x16xbf16>) {head_dim = 8 : i64, rope_mode = #norm.rope_mode<interleaved>}
// ALL-LABEL: func.func @pairs_memref
//   ALL-NOT: norm.
//       ALL: return
func.func @pairs_memref(%a: memref<4x32xbf16>, %w: memref<32x16xbf16>, %c: memref<1x1x8xf32>, %s: memref<1x1x8xf32>, %y: memref<4x16xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<4x32xbf16>) rhs(%w : memref<32x16xbf16>) rope(%c, %s : memref<1x1x8xf32>, memref<1x1x8xf32>) outs(%y : memref<4x16xbf16>) {head_dim = 8 : i64, rope_mode = #norm.rope_mode<interleaved>}
  return
}
