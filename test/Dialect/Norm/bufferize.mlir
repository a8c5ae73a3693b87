// RUN: norm-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file | FileCheck %s

// One-shot bufferization turns the tensor form into the memref form, writing
// into the buffers of the outs operands. The outs are never read, so a
// tensor.empty destination becomes a plain allocation, with no copy.
// CHECK-LABEL: func.func @bufferize_rms_norm
// CHECK-SAME: %[[X:[^:]*]]: memref<4x8xf32{{.*}}>, %[[G:[^:]*]]: memref<8xf32{{.*}}>
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}}: memref<4x8xf32>
// CHECK: %[[R:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// CHECK-NOT: memref.copy
// CHECK: norm.rms_norm ins(%[[X]] : memref<4x8xf32{{.*}}>) weight(%[[G]] : memref<8xf32{{.*}}>) outs(%[[Y]] : memref<4x8xf32>) rstd_outs(%[[R]] : memref<4xf32>)
// CHECK: return %[[Y]], %[[R]]
func.func @bufferize_rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = tensor.empty() : tensor<4xf32>
  %y, %rs = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>)
      rstd_outs(%r : tensor<4xf32>) -> tensor<4x8xf32>, tensor<4xf32>
  return %y, %rs : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Writing in place into a function argument that is also read later forces
// a copy: bufferization sees outs as written.
// CHECK-LABEL: func.func @bufferize_in_place_conflict
// CHECK-SAME: %[[X:[^:]*]]: memref<4x8xf32{{.*}}>
// CHECK: %[[BUF:.*]] = memref.alloc
// CHECK: norm.layer_norm ins(%[[X]] : {{.*}}) outs(%[[BUF]] : memref<4x8xf32>)
// CHECK: linalg.add ins(%[[BUF]], %[[X]] :
func.func @bufferize_in_place_conflict(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.layer_norm ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%y, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Fused ops bufferize the same way.
// CHECK-LABEL: func.func @bufferize_matmul_rms_norm
// CHECK: norm.matmul_rms_norm ins(%{{.*}} : memref<2x3xf32{{.*}}>) rhs(%{{.*}} : memref<3x5xf32{{.*}}>) outs(%{{.*}} : memref<2x5xf32>) sum_outs(%{{.*}} : memref<2x5xf32>)
func.func @bufferize_matmul_rms_norm(%a: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  %e = tensor.empty() : tensor<2x5xf32>
  %s = tensor.empty() : tensor<2x5xf32>
  %y, %sum = norm.matmul_rms_norm ins(%a : tensor<2x3xf32>) rhs(%w : tensor<3x5xf32>) outs(%e : tensor<2x5xf32>)
      sum_outs(%s : tensor<2x5xf32>) -> tensor<2x5xf32>, tensor<2x5xf32>
  return %y, %sum : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

// norm → matmul with a residual: both outs become buffers, the residual is
// read in place.
// CHECK-LABEL: func.func @bufferize_residual_rms_norm_matmul
//       CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<2x5xf32>
//       CHECK: %[[S:.*]] = memref.alloc() {{.*}} : memref<2x3xf32>
//       CHECK: norm.rms_norm_matmul ins(%{{.*}} : memref<2x3xf32{{.*}}>) residual(%{{.*}} : memref<2x3xf32{{.*}}>) rhs(%{{.*}} : memref<3x5xf32{{.*}}>) outs(%[[C]] : memref<2x5xf32>) sum_outs(%[[S]] : memref<2x3xf32>)
//       CHECK: return %[[C]], %[[S]]
func.func @bufferize_residual_rms_norm_matmul(%x: tensor<2x3xf32>, %r: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<2x5xf32>
  %es = tensor.empty() : tensor<2x3xf32>
  %c, %sum = norm.rms_norm_matmul ins(%x : tensor<2x3xf32>) residual(%r : tensor<2x3xf32>) rhs(%w : tensor<3x5xf32>)
      outs(%e : tensor<2x5xf32>) sum_outs(%es : tensor<2x3xf32>) -> tensor<2x5xf32>, tensor<2x3xf32>
  return %c, %sum : tensor<2x5xf32>, tensor<2x3xf32>
}
