// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --mlir-print-op-generic | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s

// `rope_rounding = each_step`: the rotation of a 16-bit norm as a bf16/f16
// frontend writes it (HF's apply_rotary_pos_emb in bf16): the normalized
// value rounds to y's type as the op without rope stores it, then each
// product and the sum round to it. The decomposition writes y's type to the
// temporary and truncates (and widens back) after every step.

// ROUNDTRIP-LABEL: func.func @each_step_bf16
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<8x4x32xbf16>) weight(%{{.*}} : tensor<32xbf16>) rope(%{{.*}}, %{{.*}} : tensor<8x1x32xbf16>, tensor<8x1x32xbf16>) outs(%{{.*}} : tensor<8x4x32xbf16>) {cast_mode = #norm.cast_mode<before_weight>, rope_rounding = #norm.rope_rounding<each_step>} -> tensor<8x4x32xbf16>
// CHECK-LABEL: func.func @each_step_bf16
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4x32xbf16>)
// CHECK: linalg.generic {{.*}} ins(%[[N]], %[[N]], %{{.*}}, %{{.*}} : tensor<8x4x32xbf16>, tensor<8x4x32xbf16>, tensor<8x1x32xbf16>, tensor<8x1x32xbf16>) outs(%{{.*}} : tensor<8x4x32xbf16>)
// CHECK:   %[[V:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[P:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[C:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[S:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[PS:.*]] = arith.mulf %[[P]], %[[S]] : f32
// CHECK:   %[[PSR:.*]] = arith.truncf %[[PS]] : f32 to bf16
// CHECK:   %[[PSW:.*]] = arith.extf %[[PSR]] : bf16 to f32
// CHECK:   %[[NEG:.*]] = arith.negf %[[PSW]]
// CHECK:   %[[T:.*]] = arith.select %{{.*}}, %[[NEG]], %[[PSW]]
// CHECK:   %[[VC:.*]] = arith.mulf %[[V]], %[[C]] : f32
// CHECK:   %[[VCR:.*]] = arith.truncf %[[VC]] : f32 to bf16
// CHECK:   %[[VCW:.*]] = arith.extf %[[VCR]] : bf16 to f32
// CHECK:   %[[R:.*]] = arith.addf %[[VCW]], %[[T]] : f32
// CHECK:   %[[Y:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK:   linalg.yield %[[Y]]
func.func @each_step_bf16(%x: tensor<8x4x32xbf16>, %g: tensor<32xbf16>, %c: tensor<8x1x32xbf16>, %s: tensor<8x1x32xbf16>) -> tensor<8x4x32xbf16> {
  %e = tensor.empty() : tensor<8x4x32xbf16>
  %y = norm.rms_norm ins(%x : tensor<8x4x32xbf16>) weight(%g : tensor<32xbf16>)
         rope(%c, %s : tensor<8x1x32xbf16>, tensor<8x1x32xbf16>)
         outs(%e : tensor<8x4x32xbf16>)
         {cast_mode = #norm.cast_mode<before_weight>, rope_rounding = #norm.rope_rounding<each_step>} -> tensor<8x4x32xbf16>
  return %y : tensor<8x4x32xbf16>
}

// -----

// `once` spelled out is the default: the temporary stays f32 and only the
// result rounds.
// ROUNDTRIP-LABEL: func.func @once_f16
// ROUNDTRIP: {rope_mode = #norm.rope_mode<interleaved>, rope_rounding = #norm.rope_rounding<once>}
// CHECK-LABEL: func.func @once_f16
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[N]], %[[N]], %{{.*}}, %{{.*}} : tensor<4x2x16xf32>, tensor<4x2x16xf32>, tensor<4x1x16xf16>, tensor<4x1x16xf16>) outs(%{{.*}} : tensor<4x2x16xf16>)
// CHECK-NOT: arith.truncf
// CHECK:   %[[R:.*]] = arith.addf
// CHECK:   %[[Y:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK:   linalg.yield %[[Y]]
func.func @once_f16(%x: tensor<4x2x16xf16>, %c: tensor<4x1x16xf16>, %s: tensor<4x1x16xf16>) -> tensor<4x2x16xf16> {
  %e = tensor.empty() : tensor<4x2x16xf16>
  %y = norm.layer_norm ins(%x : tensor<4x2x16xf16>)
         rope(%c, %s : tensor<4x1x16xf16>, tensor<4x1x16xf16>)
         outs(%e : tensor<4x2x16xf16>)
         {rope_mode = #norm.rope_mode<interleaved>, rope_rounding = #norm.rope_rounding<once>} -> tensor<4x2x16xf16>
  return %y : tensor<4x2x16xf16>
}

// -----

// The per-head norm of a matmul → norm passes the attribute to the
// standalone norm it decomposes into.
// ROUNDTRIP-LABEL: func.func @fused_each_step
// ROUNDTRIP: norm.matmul_rms_norm ins(%{{.*}} : tensor<4x64xbf16>) rhs(%{{.*}} : tensor<64x32xbf16>) rope(%{{.*}}, %{{.*}} : tensor<4x1x8xbf16>, tensor<4x1x8xbf16>) outs(%{{.*}} : tensor<4x32xbf16>) {head_dim = 8 : i64, rope_rounding = #norm.rope_rounding<each_step>} -> tensor<4x32xbf16>
// CHECK-LABEL: func.func @fused_each_step
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[N:.*]], %[[N]], %{{.*}}, %{{.*}} : tensor<4x4x8xbf16>, tensor<4x4x8xbf16>, tensor<4x1x8xbf16>, tensor<4x1x8xbf16>) outs(%{{.*}} : tensor<4x4x8xbf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
func.func @fused_each_step(%a: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %c: tensor<4x1x8xbf16>, %e: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %y = norm.matmul_rms_norm ins(%a : tensor<4x64xbf16>) rhs(%w : tensor<64x32xbf16>) rope(%c, %c : tensor<4x1x8xbf16>, tensor<4x1x8xbf16>) outs(%e : tensor<4x32xbf16>) {head_dim = 8 : i64, rope_rounding = #norm.rope_rounding<each_step>} -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
