// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// A norm with mixed element types (f32 γ with bf16 x, or an f32 result) has
// no fused form yet: the fused ops take one element type. It is left alone,
// and the remark says why.

// CHECK-LABEL: func.func @mixed_weight
//       CHECK: norm.rms_norm ins
//       CHECK: linalg.matmul
func.func @mixed_weight(%x: tensor<16x64xbf16>, %g: tensor<64xf32>, %w: tensor<64x32xbf16>) -> tensor<16x32xbf16> {
  %e = tensor.empty() : tensor<16x64xbf16>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: its weight, bias or result is wider than its input (the fused ops take one element type); with a producer: its weight, bias or result is wider than its input (the fused ops take one element type)}}
  %y = norm.rms_norm ins(%x : tensor<16x64xbf16>) weight(%g : tensor<64xf32>) outs(%e : tensor<16x64xbf16>) -> tensor<16x64xbf16>
  %c0 = arith.constant 0.0 : bf16
  %e2 = tensor.empty() : tensor<16x32xbf16>
  %z = linalg.fill ins(%c0 : bf16) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  %m = linalg.matmul ins(%y, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %m : tensor<16x32xbf16>
}

// -----

// CHECK-LABEL: func.func @wider_result
//       CHECK: norm.layer_norm ins
//       CHECK: linalg.matmul
func.func @wider_result(%x: tensor<16x64xf16>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  // expected-remark @+1 {{norm.layer_norm not fused: into consumers: its weight, bias or result is wider than its input}}
  %y = norm.layer_norm ins(%x : tensor<16x64xf16>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%y, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}
