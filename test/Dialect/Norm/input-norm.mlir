// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: norm-opt %s --norm-decompose -split-input-file | FileCheck %s --check-prefix=ALL
// RUN: norm-opt %s --norm-decompose -split-input-file > %t.fused
// RUN: norm-opt %S/Inputs/input-norm-pair.mlir --norm-decompose -split-input-file > %t.pair
// RUN: diff %t.fused %t.pair

// norm → matmul → norm (QK-norm after the layer's input norm): the input
// norm on norm.matmul_rms_norm (`input_epsilon`, `input_weight`,
// `input_weight_offset`, `input_cast_mode`). Its decomposition is exactly
// the unfused pair: the norm.rms_norm_matmul writing S, then the per-head
// norm of S; decomposed, the op and that pair (Inputs/input-norm-pair.mlir)
// give the same IR.

// ROUND-LABEL: func.func @qk_input_norm
//       ROUND: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x64xf32>) rhs(%{{.*}} : tensor<32x64xf32>) weight(%{{.*}} : tensor<8xf32>) input_weight(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<4x32xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 8 : i64, input_epsilon = 9.99999974E-6 : f32, transpose_rhs} -> tensor<4x32xf32>
// ALL-LABEL: func.func @qk_input_norm
//   ALL-NOT: norm.
//       ALL: return
// ALL-LABEL: func.func @gemma_memref
//   ALL-NOT: norm.
//       ALL: return
func.func @qk_input_norm(%a: tensor<4x64xf32>, %w: tensor<32x64xf32>, %g: tensor<8xf32>, %gi: tensor<64xf32>, %i: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xf32>) rhs(%w : tensor<32x64xf32>) weight(%g : tensor<8xf32>) input_weight(%gi : tensor<64xf32>) outs(%i : tensor<4x32xf32>) {head_dim = 8 : i64, transpose_rhs, epsilon = 1.0e-6 : f32, input_epsilon = 1.0e-5 : f32} -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Gemma 3's bf16 form on memrefs: f32 γs, offsets and the input norm's
// cast mode carried to the norm → matmul; the matmul bias goes with it.
// ROUND-LABEL: func.func @gemma_memref
//       ROUND: norm.matmul_rms_norm ins(%{{.*}} : memref<4x32xbf16>) rhs(%{{.*}} : memref<32x16xbf16>) matmul_bias(%{{.*}} : memref<16xbf16>) weight(%{{.*}} : memref<16xf32>) input_weight(%{{.*}} : memref<32xf32>) outs(%{{.*}} : memref<4x16xbf16>) {input_cast_mode = #norm.cast_mode<after_weight>, input_epsilon = 9.99999997E-7 : f32, input_weight_offset = 1.000000e+00 : f32, weight_offset = 1.000000e+00 : f32}
func.func @gemma_memref(%a: memref<4x32xbf16>, %w: memref<32x16xbf16>, %mb: memref<16xbf16>, %g: memref<16xf32>, %gi: memref<32xf32>, %y: memref<4x16xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<4x32xbf16>) rhs(%w : memref<32x16xbf16>) matmul_bias(%mb : memref<16xbf16>) weight(%g : memref<16xf32>) input_weight(%gi : memref<32xf32>) outs(%y : memref<4x16xbf16>) {weight_offset = 1.0 : f32, input_epsilon = 1.0e-6 : f32, input_weight_offset = 1.0 : f32, input_cast_mode = #norm.cast_mode<after_weight>}
  return
}
