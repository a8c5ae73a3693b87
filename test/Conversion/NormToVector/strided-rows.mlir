// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=0 pipeline-rows=false" | FileCheck %s

// Norms on strided views (a column slice of wider rows: DeepSeek MLA's first
// 512 of kv_a_proj's 576 columns, a q/k/v slice of a fused projection) get
// the row kernel of contiguous rows: each buffer is viewed as rows with its
// own offset and row stride (static when the type has them, else from
// memref.extract_strided_metadata), and the vector loads and stores index
// that view, with no copy. Streaming stores are forced on here: the
// aligned head of a strided output row starts at offset + row · stride.
// not-lowered.mlir has the views that are left to --norm-decompose.

// CHECK-LABEL: func.func @mla_static
//  CHECK-SAME: (%[[X:.*]]: memref<16x512xf32, strided<[576, 1]>>, %[[G:.*]]: memref<512xf32>, %[[Y:.*]]: memref<16x512xf32>)
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [16, 512], strides: [576, 1] : memref<16x512xf32, strided<[576, 1]>> to memref<16x512xf32, strided<[576, 1]>>
//       CHECK:   %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [16, 512], strides: [512, 1]
//       CHECK:   scf.for %[[ROW:.*]] =
//       CHECK:     vector.load %[[XV]][%[[ROW]], %{{.*}}] : memref<16x512xf32, strided<[576, 1]>>, vector<16xf32>
//       CHECK:     vector.fma
//       CHECK:     vector.store %{{.*}}, %[[YV]][%[[ROW]], %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<16x512xf32>, vector<16xf32>
//   CHECK-NOT: linalg.
//   CHECK-NOT: norm.rms_norm
func.func @mla_static(%x: memref<16x512xf32, strided<[576, 1]>>, %g: memref<512xf32>, %y: memref<16x512xf32>) {
  norm.rms_norm ins(%x : memref<16x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>)
  return
}

// -----

// Dynamic sizes, offsets and row strides, input and output.
// CHECK-LABEL: func.func @qkv_dynamic
//  CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[G:[^:]*]]: memref<?xbf16>, %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>)
//       CHECK:   %{{.*}}, %[[XOFF:.*]], %{{.*}}:2, %[[XSTR:.*]]:2 = memref.extract_strided_metadata %[[X]]
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [%[[XOFF]]], sizes: [%{{.*}}, %{{.*}}], strides: [%[[XSTR]]#0, 1]
//       CHECK:   %{{.*}}, %[[YOFF:.*]], %{{.*}}:2, %[[YSTR:.*]]:2 = memref.extract_strided_metadata %[[Y]]
//       CHECK:   %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [%[[YOFF]]], sizes: [%{{.*}}, %{{.*}}], strides: [%[[YSTR]]#0, 1]
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[YV]]
//       CHECK:   %{{.*}}, %[[YVOFF:.*]], %{{.*}}:2, %[[YVSTR:.*]]:2 = memref.extract_strided_metadata %[[YV]]
//       CHECK:   scf.for %[[ROW:.*]] =
//       CHECK:     vector.load %[[XV]][%[[ROW]], %{{.*}}] : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<32xbf16>
// The streamed sweep: the row's first element is offset + row · stride
// elements from the aligned pointer.
//       CHECK:     %[[STEP:.*]] = arith.muli %[[ROW]], %[[YVSTR]]#0 : index
//       CHECK:     %[[ELEMS:.*]] = arith.addi %[[YVOFF]], %[[STEP]] : index
//       CHECK:     %[[BYTES:.*]] = arith.muli %[[ELEMS]], %c2{{.*}} : index
//       CHECK:     arith.addi %[[BASE]], %[[BYTES]] : index
//       CHECK:     vector.store %{{.*}}, %[[YV]][%[[ROW]], %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<32xbf16>
//   CHECK-NOT: norm.rms_norm
func.func @qkv_dynamic(%x: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %g: memref<?xbf16>,
                       %y: memref<?x?xbf16, strided<[?, 1], offset: ?>>) {
  norm.rms_norm ins(%x : memref<?x?xbf16, strided<[?, 1], offset: ?>>) weight(%g : memref<?xbf16>)
    outs(%y : memref<?x?xbf16, strided<[?, 1], offset: ?>>)
  return
}

// -----

// Row dims that merge: [2, 3] rows of 64 elements, 192 apart (576 = 3 · 192);
// β at an offset; the rstd a strided column.
// CHECK-LABEL: func.func @ln_merged_rows
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [64], sizes: [6, 64], strides: [192, 1] : memref<2x3x64xf32, strided<[576, 192, 1], offset: 64>> to memref<6x64xf32, strided<[192, 1], offset: 64>>
//       CHECK:   %[[RV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [6], strides: [2] : memref<2x3xf32, strided<[6, 2]>> to memref<6xf32, strided<[2]>>
//       CHECK:   %[[BV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [64], sizes: [64], strides: [1] : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, strided<[1], offset: 64>>
//       CHECK:   vector.load %[[XV]]
//       CHECK:   memref.store %{{.*}}, %[[RV]][%{{.*}}] : memref<6xf32, strided<[2]>>
//       CHECK:   vector.load %[[BV]]
//   CHECK-NOT: norm.layer_norm
func.func @ln_merged_rows(%x: memref<2x3x64xf32, strided<[576, 192, 1], offset: 64>>,
                          %b: memref<64xf32, strided<[1], offset: 64>>,
                          %y: memref<2x3x64xf32>, %r: memref<2x3xf32, strided<[6, 2]>>) {
  norm.layer_norm ins(%x : memref<2x3x64xf32, strided<[576, 192, 1], offset: 64>>)
    bias(%b : memref<64xf32, strided<[1], offset: 64>>)
    outs(%y : memref<2x3x64xf32>) rstd_outs(%r : memref<2x3xf32, strided<[6, 2]>>) {axis = 2 : i64}
  return
}
