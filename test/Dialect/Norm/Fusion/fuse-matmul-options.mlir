// RUN: norm-opt %s --norm-fuse-matmul="norm-matmul=false" | FileCheck %s --check-prefix=NO-NM
// RUN: norm-opt %s --norm-fuse-matmul="matmul-norm=false norm-matmul=false" | FileCheck %s --check-prefix=NONE
// RUN: norm-opt %s --norm-fuse-matmul="fold-weights=false" | FileCheck %s --check-prefix=NO-FOLD
// RUN: norm-opt %s --norm-fuse-matmul="residual-add=false" | FileCheck %s --check-prefix=NO-RES
// RUN: not norm-opt %s --norm-fuse-matmul="fold-weights=maybe" 2>&1 | FileCheck %s --check-prefix=BAD

// A chain matmul → norm → matmul with constant γ and second W. By default
// norm → matmul is taken (and γ folded); with it off, matmul → norm is.

// NO-NM: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<4x16xf32>) rhs(%arg1 : tensor<16x8xf32>) weight(%{{.*}} : tensor<8xf32>)
// NO-NM: linalg.matmul ins(%[[Y]]
// NONE: linalg.matmul
// NONE: norm.rms_norm ins
// NONE: linalg.matmul
// NO-FOLD: linalg.matmul
// NO-FOLD: norm.rms_norm_matmul ins(%{{.*}} : tensor<4x8xf32>) weight(%{{.*}} : tensor<8xf32>) rhs(%{{.*}} : tensor<8x2xf32>)
// BAD: fold-weights
func.func @chain(%a: tensor<4x16xf32>, %w1: tensor<16x8xf32>) -> tensor<4x2xf32> {
  %g = arith.constant dense<2.0> : tensor<8xf32>
  %w2 = arith.constant dense<1.0> : tensor<8x2xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = linalg.matmul ins(%a, %w1 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = norm.rms_norm ins(%p : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%ce : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ce2 = tensor.empty() : tensor<4x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%ce2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = linalg.matmul ins(%n, %w2 : tensor<4x8xf32>, tensor<8x2xf32>) outs(%z2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// With residual-add off, an add feeding a norm stays an add (the norm still
// fuses into its matmul); by default it becomes the fused op's residual.
// NO-RES-LABEL: func.func @residual_add
//       NO-RES: %[[S:.*]] = linalg.add
//       NO-RES: norm.rms_norm_matmul ins(%[[S]] : tensor<4x8xf32>) rhs
// NO-NM-LABEL: func.func @residual_add
//   NO-NM-NOT: linalg.add
//       NO-NM: norm.rms_norm ins(%arg0 : tensor<4x8xf32>) residual(%arg1 : tensor<4x8xf32>)
func.func @residual_add(%x: tensor<4x8xf32>, %h: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%x, %h : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = norm.rms_norm ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%n, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

