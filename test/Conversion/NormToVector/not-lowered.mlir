// RUN: norm-opt %s --split-input-file --convert-norm-to-vector | FileCheck %s

// What the vector patterns leave alone (for --norm-decompose, which the
// pipeline runs afterwards): ops on tensors and ops on strided memrefs. The
// pass also touches nothing that is not a norm op.

// CHECK-LABEL: func.func @on_tensors
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x16xf32>)
//   CHECK-NOT: vector.
func.func @on_tensors(%x: tensor<4x16xf32>, %e: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A strided view (a column slice) is not contiguous by rows.
// CHECK-LABEL: func.func @strided
//       CHECK: norm.layer_norm ins(%{{.*}} : memref<4x8xf32, strided<[16, 1]>>)
//   CHECK-NOT: vector.
func.func @strided(%x: memref<4x8xf32, strided<[16, 1]>>, %y: memref<4x8xf32>) {
  norm.layer_norm ins(%x : memref<4x8xf32, strided<[16, 1]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @other_ops
//  CHECK-NEXT: %[[C:.*]] = arith.constant 0 : index
//  CHECK-NEXT: %[[C2:.*]] = arith.constant 0 : index
//  CHECK-NEXT: %[[S:.*]] = arith.addi %[[C]], %[[C2]] : index
//  CHECK-NEXT: return %[[S]]
func.func @other_ops() -> index {
  %c = arith.constant 0 : index
  %c2 = arith.constant 0 : index
  %s = arith.addi %c, %c2 : index
  return %s : index
}
