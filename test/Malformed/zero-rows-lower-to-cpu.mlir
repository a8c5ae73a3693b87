// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s

// Dynamic shapes with zero rows, results used after the norm ops, through
// the whole CPU pipeline: valid IR, must lower without a crash.
// CHECK-LABEL: llvm.func @zero_rows
// CHECK-NOT: norm.
func.func @zero_rows(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %m = tensor.empty(%rows) : tensor<?xf32>
  %y, %mean = norm.layer_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>) bias(%g : tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) mean_outs(%m : tensor<?xf32>) -> tensor<?x?xf32>, tensor<?xf32>
  %e2 = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %z = norm.rms_norm ins(%y : tensor<?x?xf32>) residual(%x : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>)
      {partial = 0.5 : f32} -> tensor<?x?xf32>
  %d = tensor.dim %z, %c0 : tensor<?x?xf32>
  return %z, %mean, %d : tensor<?x?xf32>, tensor<?xf32>, index
}

// CHECK-LABEL: llvm.func @zero_rows_static
func.func @zero_rows_static(%a: tensor<0x24xf16>, %w: tensor<24x20xf16>, %r: tensor<0x20xf16>) -> tensor<0x20xf16> {
  %e = tensor.empty() : tensor<0x20xf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<0x24xf16>) rhs(%w : tensor<24x20xf16>) residual(%r : tensor<0x20xf16>)
      outs(%e : tensor<0x20xf16>) -> tensor<0x20xf16>
  return %y : tensor<0x20xf16>
}
