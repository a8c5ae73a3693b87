// RUN: norm-opt %s --norm-reinterpret-dynamic-expand-shape --split-input-file | FileCheck %s

// One dim split into two dynamic sizes and a static one: the view with the
// source's offset, output_shape's sizes and row-major strides in the group,
// read from the source's metadata (the pass folds nothing; canonicalization
// does later).
// CHECK-LABEL: func.func @two_dynamic
//  CHECK-SAME: (%[[M:.*]]: memref<?x8xf32>, %[[A:.*]]: index, %[[B:.*]]: index)
//       CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[M]]
//       CHECK: %[[S0:.*]] = arith.muli %[[ST]]#0, %[[B]] : index
//       CHECK: %[[V:.*]] = memref.reinterpret_cast %[[M]] to offset: [%[[OFF]]], sizes: [%[[A]], %[[B]], 8], strides: [%[[S0]], %[[ST]]#0, %[[ST]]#1]
//  CHECK-SAME: : memref<?x8xf32> to memref<?x?x8xf32, strided<[?, ?, ?], offset: ?>>
//       CHECK: %[[E:.*]] = memref.cast %[[V]] : memref<?x?x8xf32, strided<[?, ?, ?], offset: ?>> to memref<?x?x8xf32>
//       CHECK: return %[[E]]
//   CHECK-NOT: memref.expand_shape
func.func @two_dynamic(%m: memref<?x8xf32>, %a: index, %b: index) -> memref<?x?x8xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 8]
      : memref<?x8xf32> into memref<?x?x8xf32>
  return %e : memref<?x?x8xf32>
}

// -----

// A strided source (a column slice) and a static size between the dynamic
// ones of a group: strides multiply through the static size too.
// CHECK-LABEL: func.func @strided_source
//  CHECK-SAME: (%[[M:.*]]: memref<?x16xf32, strided<[48, 1], offset: ?>>, %[[A:.*]]: index, %[[B:.*]]: index)
//       CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[M]]
//       CHECK: %[[S1:.*]] = arith.muli %[[ST]]#0, %[[B]] : index
//       CHECK: %[[C4:.*]] = arith.constant 4 : index
//       CHECK: %[[S0:.*]] = arith.muli %[[S1]], %[[C4]] : index
//       CHECK: memref.reinterpret_cast %[[M]] to offset: [%[[OFF]]], sizes: [%[[A]], 4, %[[B]], 16], strides: [%[[S0]], %[[S1]], %[[ST]]#0, %[[ST]]#1]
//       CHECK: memref.cast
//   CHECK-NOT: memref.expand_shape
func.func @strided_source(%m: memref<?x16xf32, strided<[48, 1], offset: ?>>, %a: index, %b: index)
    -> memref<?x4x?x16xf32, strided<[?, ?, 48, 1], offset: ?>> {
  %e = memref.expand_shape %m [[0, 1, 2], [3]] output_shape [%a, 4, %b, 16]
      : memref<?x16xf32, strided<[48, 1], offset: ?>> into memref<?x4x?x16xf32, strided<[?, ?, 48, 1], offset: ?>>
  return %e : memref<?x4x?x16xf32, strided<[?, ?, 48, 1], offset: ?>>
}

// -----

// Left to expand-strided-metadata: at most one dynamic size per group.
// CHECK-LABEL: func.func @one_dynamic
//       CHECK: memref.expand_shape
//   CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic(%m: memref<?x8xf32>, %a: index) -> memref<?x4x8xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, 4, 8]
      : memref<?x8xf32> into memref<?x4x8xf32>
  return %e : memref<?x4x8xf32>
}
