// The CPU pipeline prints the same module on every run: the globals of
// tensor constants are named and placed in module order
// (norm-order-constant-globals), not in the pointer-keyed order in which
// MLIR 22 bufferizes the functions.
// RUN: norm-opt %s --norm-lower-to-cpu > %t.1
// RUN: norm-opt %s --norm-lower-to-cpu > %t.2
// RUN: norm-opt %s --norm-lower-to-cpu > %t.3
// RUN: diff %t.1 %t.2
// RUN: diff %t.1 %t.3
// RUN: FileCheck %s < %t.1

// CHECK-COUNT-8: llvm.mlir.global private constant @__constant_
// CHECK-NOT: llvm.mlir.global

func.func @f0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[2.0, 3.0, 4.0, 5.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[3.0, 4.0, 5.0, 6.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f3(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f4(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f5(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[6.0, 7.0, 8.0, 9.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f6(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @f7(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[8.0, 9.0, 10.0, 11.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
