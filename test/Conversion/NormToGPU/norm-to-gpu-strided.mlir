// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s

// Norms on strided views (a column slice of wider rows: DeepSeek MLA's first
// 512 of 576 columns, a q/k/v slice of a fused projection) get the row
// kernel: each buffer is viewed as rows with its own offset and row stride,
// and the kernel indexes that view, so rows are read where they are, with
// no copy. The 16-byte kernel needs every row start aligned: for a strided
// view the host also tests the offset and the row stride.

// Static stride and offset: the view keeps strided<[576, 1]>.
// CHECK-LABEL: func.func @mla_kv_a
//  CHECK-SAME: (%[[X:.*]]: memref<?x512xf32, strided<[576, 1]>>,
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.*}}, 512], strides: [576, 1] : memref<?x512xf32, strided<[576, 1]>> to memref<?x512xf32, strided<[576, 1]>>
//       CHECK:   gpu.launch
//       CHECK:     vector.load %[[XV]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x512xf32, strided<[576, 1]>>, vector<4xf32>
//       CHECK:   } else {
//       CHECK:     gpu.launch
//       CHECK:       memref.load %[[XV]][%{{.*}}, %{{.*}}] : memref<?x512xf32, strided<[576, 1]>>
//   CHECK-NOT: norm.rms_norm
func.func @mla_kv_a(%x: memref<?x512xf32, strided<[576, 1]>>, %g: memref<512xf32>,
                    %y: memref<?x512xf32>) {
  norm.rms_norm ins(%x : memref<?x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<?x512xf32>)
  return
}

// -----

// Dynamic offset and row stride, from the buffers' metadata; the output is
// a strided view too, and so is the rstd (a column of a wider buffer).
// CHECK-LABEL: func.func @qkv_dynamic
//  CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[G:[^:]*]]: memref<?xbf16>, %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[RS:[^:]*]]: memref<?xf32, strided<[?], offset: ?>>)
//       CHECK:   %{{.*}}, %[[XOFF:.*]], %{{.*}}:2, %[[XSTR:.*]]:2 = memref.extract_strided_metadata %[[X]]
//       CHECK:   %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [%[[XOFF]]], sizes: [%{{.*}}, %{{.*}}], strides: [%[[XSTR]]#0, 1]
//       CHECK:   %{{.*}}, %[[YOFF:.*]], %{{.*}}:2, %[[YSTR:.*]]:2 = memref.extract_strided_metadata %[[Y]]
//       CHECK:   %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [%[[YOFF]]], sizes: [%{{.*}}, %{{.*}}], strides: [%[[YSTR]]#0, 1]
//       CHECK:   %{{.*}}, %[[ROFF:.*]], %{{.*}}, %[[RSTR:.*]] = memref.extract_strided_metadata %[[RS]]
//       CHECK:   %[[RV:.*]] = memref.reinterpret_cast %[[RS]] to offset: [%[[ROFF]]], sizes: [%{{.*}}], strides: [%[[RSTR]]]
// The host's test for the 16-byte kernel: pointer, offset and row stride.
//       CHECK:   memref.extract_aligned_pointer_as_index %[[XV]]
//       CHECK:   arith.remui %{{.*}}, %c16
//       CHECK:   %{{.*}}, %[[XVOFF:.*]], %{{.*}}:2, %[[XVSTR:.*]]:2 = memref.extract_strided_metadata %[[XV]]
//       CHECK:   arith.remui %[[XVOFF]], %c8
//       CHECK:   arith.remui %[[XVSTR]]#0, %c8
//       CHECK:   gpu.launch
//       CHECK:     vector.load %[[XV]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<8xbf16>
//       CHECK:     memref.store %{{.*}}, %[[RV]][%{{.*}}] : memref<?xf32, strided<[?], offset: ?>>
//       CHECK:     vector.store %{{.*}}, %[[YV]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<8xbf16>
//   CHECK-NOT: norm.rms_norm
func.func @qkv_dynamic(%x: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %g: memref<?xbf16>,
                       %y: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                       %rs: memref<?xf32, strided<[?], offset: ?>>) {
  norm.rms_norm ins(%x : memref<?x?xbf16, strided<[?, 1], offset: ?>>) weight(%g : memref<?xbf16>)
    outs(%y : memref<?x?xbf16, strided<[?, 1], offset: ?>>)
    rstd_outs(%rs : memref<?xf32, strided<[?], offset: ?>>)
  return
}

// -----

// Row dims that merge into one row stride: [2, 3] rows of 64, 192 apart
// (dim 0's stride 576 = 3 · 192), LayerNorm with a β at an offset.
// CHECK-LABEL: func.func @ln_merged_rows
//       CHECK:   memref.reinterpret_cast %{{.*}} to offset: [64], sizes: [6, 64], strides: [192, 1]
//       CHECK:   memref.reinterpret_cast %{{.*}} to offset: [64], sizes: [64], strides: [1]
//       CHECK:   gpu.launch
//   CHECK-NOT: norm.layer_norm
func.func @ln_merged_rows(%x: memref<2x3x64xf32, strided<[576, 192, 1], offset: 64>>,
                          %b: memref<64xf32, strided<[1], offset: 64>>,
                          %y: memref<2x3x64xf32>) {
  norm.layer_norm ins(%x : memref<2x3x64xf32, strided<[576, 192, 1], offset: 64>>)
    bias(%b : memref<64xf32, strided<[1], offset: 64>>)
    outs(%y : memref<2x3x64xf32>) {axis = 2 : i64}
  return
}
