// RUN: norm-opt %s --norm-order-constant-globals | FileCheck %s
// RUN: norm-opt %s --norm-order-constant-globals="alignment=16" | FileCheck %s --check-prefix=ALIGN
// Each tensor constant gets its global in the order of a walk of the
// module (each new global goes to the top, so the order is reversed); a
// second constant of the same value reuses the first one's global. Then
// one-shot bufferization finds them all and names nothing itself, so the
// output is the same on every run (MLIR 22 bufferizes the functions in an
// order that depends on pointers).
// RUN: norm-opt %s --norm-order-constant-globals --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// CHECK:      memref.global "private" constant @__constant_8xf32_0 : memref<8xf32> = dense<5.000000e-01> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_8xf32 : memref<8xf32> = dense<1.000000e+00> {alignment = 64 : i64}
// CHECK-NOT:  memref.global
// CHECK-LABEL: func.func @first
// CHECK:       arith.constant dense<1.000000e+00> : tensor<8xf32>
// ALIGN: memref.global "private" constant @__constant_8xf32 : memref<8xf32> = dense<1.000000e+00> {alignment = 16 : i64}

// BUF-COUNT-3: memref.global
// BUF-NOT:     memref.global
// BUF-LABEL: func.func @first
// BUF:         memref.get_global @__constant_8xf32 : memref<8xf32>
// BUF-LABEL: func.func @second
// BUF:         memref.get_global @__constant_2xf32 : memref<2xf32>
// BUF:         memref.get_global @__constant_8xf32_0 : memref<8xf32>
// BUF-LABEL: func.func @third
// BUF:         memref.get_global @__constant_8xf32 : memref<8xf32>

func.func @first() -> tensor<8xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

func.func @second() -> (tensor<2xf32>, tensor<8xf32>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<0.5> : tensor<8xf32>
  %s = arith.constant 1.0 : f32
  return %a, %b : tensor<2xf32>, tensor<8xf32>
}

func.func @third() -> tensor<8xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}
