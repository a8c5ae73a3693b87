// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" | FileCheck %s --implicit-check-not=memref.
// RUN: norm-opt %s --norm-fuse-matmul --norm-lower-to-nvvm="format=isa" | FileCheck %s --implicit-check-not=memref.

// A reshape that splits one dim into two dynamic sizes ([B·T, N] into
// [B, T, H, D]) bufferizes to a memref.expand_shape that MLIR 22's
// expand-strided-metadata crashed on (SIGSEGV); the GPU pipeline, like the
// CPU one, makes it a view first (norm-reinterpret-dynamic-expand-shape).
// Unfused and with the per-head norm fused into the matmul, the module
// lowers completely: a gpu.binary and host code with no view op left.
// CHECK-LABEL: llvm.func @qk_heads(
//       CHECK: gpu.launch_func
//       CHECK: gpu.binary
func.func @qk_heads(%a: tensor<?x32xf32>, %w: tensor<32x32xf32>, %tokens: tensor<?xf32>) -> tensor<?x?x4x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xf32>
  %t = tensor.dim %tokens, %c0 : tensor<?xf32>
  %b = arith.divui %m, %t : index
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [%b, %t, 4, 8] : tensor<?x32xf32> into tensor<?x?x4x8xf32>
  %e = tensor.empty(%b, %t) : tensor<?x?x4x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?x4x8xf32>) outs(%e : tensor<?x?x4x8xf32>) -> tensor<?x?x4x8xf32>
  return %y : tensor<?x?x4x8xf32>
}
