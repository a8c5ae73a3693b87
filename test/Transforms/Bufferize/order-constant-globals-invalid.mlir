// An alignment that memref.global cannot take is refused with its value,
// before any global is made.
// RUN: not norm-opt %s --norm-order-constant-globals="alignment=3" 2>&1 | FileCheck %s --check-prefix=ALIGN3
// RUN: not norm-opt %s --norm-order-constant-globals="alignment=0" 2>&1 | FileCheck %s --check-prefix=ALIGN0
// ALIGN3: error: norm-order-constant-globals: alignment 3 is not a positive power of two
// ALIGN0: error: norm-order-constant-globals: alignment 0 is not a positive power of two
//
// What bufferization does not turn into a dense global is left alone: a
// sparse-encoded constant (the sparsifier's) and scalar constants.
// RUN: norm-opt %s --norm-order-constant-globals | FileCheck %s
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @sparse_and_scalar
// CHECK:         arith.constant dense<1.000000e+00> : tensor<8xf32, #sparse>
// CHECK-NOT:   memref.global

#sparse = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @sparse_and_scalar() -> (tensor<8xf32, #sparse>, f32) {
  %c = arith.constant dense<1.0> : tensor<8xf32, #sparse>
  %s = arith.constant 2.0 : f32
  return %c, %s : tensor<8xf32, #sparse>, f32
}
