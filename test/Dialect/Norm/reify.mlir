// RUN: norm-opt %s --resolve-ranked-shaped-type-result-dims -split-input-file | FileCheck %s

// ReifyRankedShapedTypeOpInterface: the dims of every result are those of
// its outs operand, so tensor.dim of a result folds to tensor.dim of the init.
// CHECK-LABEL: func.func @reify_result_dims
// CHECK-SAME: %{{[^:]*}}: tensor<?x?xf32>, %[[E:[^:]*]]: tensor<?x?xf32>, %[[R:[^:]*]]: tensor<?xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[E]], %[[C0]]
// CHECK-DAG: %[[D1:.*]] = tensor.dim %[[E]], %[[C1]]
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[R]], %[[C0]]
// CHECK: return %[[D0]], %[[D1]], %[[D2]]
func.func @reify_result_dims(%x: tensor<?x?xf32>, %e: tensor<?x?xf32>, %r: tensor<?xf32>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y, %rs = norm.rms_norm ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) rstd_outs(%r : tensor<?xf32>)
      -> tensor<?x?xf32>, tensor<?xf32>
  %d0 = tensor.dim %y, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %y, %c1 : tensor<?x?xf32>
  %d2 = tensor.dim %rs, %c0 : tensor<?xf32>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// CHECK-LABEL: func.func @reify_fused
// CHECK-SAME: %[[E:[^:]*]]: tensor<?x16xf32>) -> index
// CHECK: %[[D:.*]] = tensor.dim %[[E]], %{{.*}}
// CHECK: return %[[D]]
func.func @reify_fused(%a: tensor<?x8xf32>, %w: tensor<8x16xf32>, %e: tensor<?x16xf32>) -> index {
  %c0 = arith.constant 0 : index
  %y = norm.matmul_layer_norm ins(%a : tensor<?x8xf32>) rhs(%w : tensor<8x16xf32>) outs(%e : tensor<?x16xf32>)
      -> tensor<?x16xf32>
  %d = tensor.dim %y, %c0 : tensor<?x16xf32>
  return %d : index
}
