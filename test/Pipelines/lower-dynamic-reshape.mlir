// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu | FileCheck %s --implicit-check-not=memref.
// RUN: norm-opt %s --split-input-file --norm-lower-to-nvvm="format=isa" | FileCheck %s --check-prefix=GPU --implicit-check-not=memref.

// A tensor.reshape to sizes known only at run time (how frontends write a
// view whose sizes they compute: torch-mlir's aten.view, ONNX's Reshape)
// bufferizes to a memref.reshape, which convert-to-llvm does not lower:
// both pipelines rewrite it into the reinterpret_cast it is (memref-expand)
// before expand-strided-metadata. The sizes are read from the shape buffer
// and the strides are their suffix products.
// CHECK-LABEL: llvm.func @reshape_to_rows(
//       CHECK:   llvm.load
//       CHECK:   llvm.mul
//       CHECK:   llvm.return
// GPU-LABEL: llvm.func @reshape_to_rows(
//       GPU:   gpu.launch_func
//       GPU: gpu.binary
func.func @reshape_to_rows(%x: tensor<?xf32>, %rows: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %cols = arith.divui %n, %rows : index
  %s = tensor.from_elements %rows, %cols : tensor<2xindex>
  %h = tensor.reshape %x(%s) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// The shape given as an argument, the reshape of the norm's result.
// CHECK-LABEL: llvm.func @reshape_result(
//       CHECK:   llvm.return
// GPU-LABEL: llvm.func @reshape_result(
//       GPU:   gpu.launch_func
func.func @reshape_result(%x: tensor<?x8xf32>, %s: tensor<3xindex>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %y = norm.rms_norm ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = tensor.reshape %y(%s) : (tensor<?x8xf32>, tensor<3xindex>) -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}
