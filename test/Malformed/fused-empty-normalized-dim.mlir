// RUN: not norm-opt %s -split-input-file 2>&1 | FileCheck %s

// The fused ops normalize over the last dimension of X (K, norm -> matmul)
// or of the product (N, matmul -> norm). Like norm.rms_norm/norm.layer_norm
// (C1: the normalized dimensions must not be empty), a static size 0 there
// is rejected by the verifier (it used to verify, and its decomposition then
// built an invalid norm op).

func.func @rms_norm_matmul_k0(%x: tensor<8x0xf32>, %w: tensor<0x20xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: fused-empty-normalized-dim.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %c = norm.rms_norm_matmul ins(%x : tensor<8x0xf32>) rhs(%w : tensor<0x20xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @layer_norm_matmul_k0(%x: memref<8x0xf16>, %w: memref<20x0xf16>, %e: memref<8x20xf16>) {
  // CHECK: fused-empty-normalized-dim.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  norm.layer_norm_matmul ins(%x : memref<8x0xf16>) rhs(%w : memref<20x0xf16>) outs(%e : memref<8x20xf16>) {transpose_rhs}
  return
}

// -----

func.func @matmul_rms_norm_n0(%a: tensor<8x24xf32>, %w: tensor<24x0xf32>, %e: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // CHECK: fused-empty-normalized-dim.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x0xf32>) outs(%e : tensor<8x0xf32>) -> tensor<8x0xf32>
  return %y : tensor<8x0xf32>
}

// -----

func.func @matmul_layer_norm_n0(%a: tensor<8x24xf32>, %w: tensor<0x24xf32>, %e: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // CHECK: fused-empty-normalized-dim.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %y = norm.matmul_layer_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<0x24xf32>) outs(%e : tensor<8x0xf32>) {transpose_rhs} -> tensor<8x0xf32>
  return %y : tensor<8x0xf32>
}
