// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s

// Memref-form fused ops are split: the norm part becomes the vector row
// kernel (in acc_type, into a temporary), the matmul a linalg.generic.

// CHECK-LABEL: func.func @rms_matmul
//       CHECK: %[[T:.*]] = memref.alloc() : memref<4x64xf32>
//       CHECK: scf.for
//       CHECK:   vector.fma
//       CHECK: linalg.generic
//  CHECK-SAME: ins(%[[T]], %{{.*}} : memref<4x64xf32>, memref<64x32xf32>)
//       CHECK: memref.dealloc %[[T]]
//   CHECK-NOT: norm.
func.func @rms_matmul(%x: memref<4x64xf32>, %g: memref<64xf32>, %w: memref<64x32xf32>, %c: memref<4x32xf32>) {
  norm.rms_norm_matmul ins(%x : memref<4x64xf32>) weight(%g : memref<64xf32>) rhs(%w : memref<64x32xf32>)
      outs(%c : memref<4x32xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul_ln
//       CHECK: linalg.generic
//       CHECK: scf.for
//       CHECK:   vector.reduction
//   CHECK-NOT: norm.
func.func @matmul_ln(%a: memref<4x16xf32>, %w: memref<16x32xf32>, %y: memref<4x32xf32>) {
  norm.matmul_layer_norm ins(%a : memref<4x16xf32>) rhs(%w : memref<16x32xf32>) outs(%y : memref<4x32xf32>)
  return
}
