// RUN: norm-opt %s --split-input-file --convert-norm-to-vector | FileCheck %s

// What the vector patterns leave alone (for --norm-decompose, which the
// pipeline runs afterwards): ops on tensors and ops on strided memrefs whose
// rows are not unit-stride and evenly spaced (strided-rows.mlir has those
// that are lowered). The pass also touches nothing that is not a norm op.

// CHECK-LABEL: func.func @on_tensors
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x16xf32>)
//   CHECK-NOT: vector.
func.func @on_tensors(%x: tensor<4x16xf32>, %e: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Every other column (an inner stride of 2) is not a row of contiguous
// elements.
// CHECK-LABEL: func.func @inner_stride
//       CHECK: norm.layer_norm ins(%{{.*}} : memref<4x8xf32, strided<[16, 2]>>)
//   CHECK-NOT: vector.
func.func @inner_stride(%x: memref<4x8xf32, strided<[16, 2]>>, %y: memref<4x8xf32>) {
  norm.layer_norm ins(%x : memref<4x8xf32, strided<[16, 2]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// Per-head rows of a split-QKV slice (heads 8 apart, tokens 64 apart) are
// not one row stride apart.
// CHECK-LABEL: func.func @rows_not_evenly_spaced
//       CHECK: norm.rms_norm ins(%{{.*}} : memref<2x4x8xf32, strided<[64, 8, 1], offset: 32>>)
//   CHECK-NOT: vector.
func.func @rows_not_evenly_spaced(%x: memref<2x4x8xf32, strided<[64, 8, 1], offset: 32>>, %y: memref<2x4x8xf32>) {
  norm.rms_norm ins(%x : memref<2x4x8xf32, strided<[64, 8, 1], offset: 32>>) outs(%y : memref<2x4x8xf32>) {axis = 2 : i64}
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

// -----

// A quantized output (DESIGN.md §8) is the row kernel's (quantized.mlir)
// on the buffers the row views take; per-group scales with an inner stride
// of 2 are not a row of contiguous elements, so the op is left for the
// decomposition.
// CHECK-LABEL: func.func @quantized_strided_scales
//       CHECK: norm.rms_norm ins(%{{.*}} : memref<4x64xf32>) outs(%{{.*}} : memref<4x64xi8>) scale_outs(%{{.*}} : memref<4x2xf32, strided<[4, 2]>>)
//   CHECK-NOT: vector.
func.func @quantized_strided_scales(%x: memref<4x64xf32>, %q: memref<4x64xi8>, %s: memref<4x2xf32, strided<[4, 2]>>) {
  norm.rms_norm ins(%x : memref<4x64xf32>) outs(%q : memref<4x64xi8>) scale_outs(%s : memref<4x2xf32, strided<[4, 2]>>) {group_size = 32 : i64}
  return
}
