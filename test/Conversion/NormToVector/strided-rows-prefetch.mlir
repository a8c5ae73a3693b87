// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s

// With row pipelining, row r's normalize sweep also reads row r+1 (its
// statistics). Strided rows (a column slice of wider rows) start a new DRAM
// stream at every row, which the hardware prefetchers pick up only after a
// few misses, so the sweep also prefetches a row at least 4 KiB ahead of
// row r+1 (here 512 f32: row r+3); contiguous rows continue the previous
// row's stream and get no prefetch.

// CHECK-LABEL: func.func @mla_strided
//       CHECK:   scf.for %[[ROW:.*]] = {{.*}} iter_args
//       CHECK:     %[[NEXT:.*]] = arith.minui %{{.*}}, %{{.*}} : index
//       CHECK:     %[[ROWBYTES:.*]] = arith.muli %c512{{.*}}, %c4{{.*}} : index
//       CHECK:     %[[DIST:.*]] = arith.ceildivui %c4096{{.*}}, %[[ROWBYTES]] : index
//       CHECK:     %[[AFTER:.*]] = arith.addi %[[NEXT]], %[[DIST]] : index
//       CHECK:     %[[PF:.*]] = arith.minui %[[AFTER]], %{{.*}} : index
//       CHECK:     memref.prefetch %{{.*}}[%[[PF]], %{{.*}}], read, locality<2>, data : memref<16x512xf32, strided<[576, 1]>>
//       CHECK:     vector.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<16x512xf32, strided<[576, 1]>>, vector<16xf32>
func.func @mla_strided(%x: memref<16x512xf32, strided<[576, 1]>>, %g: memref<512xf32>, %y: memref<16x512xf32>) {
  norm.rms_norm ins(%x : memref<16x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @contiguous
//   CHECK-NOT:   memref.prefetch
//       CHECK:   return
func.func @contiguous(%x: memref<16x512xf32>, %g: memref<512xf32>, %y: memref<16x512xf32>) {
  norm.rms_norm ins(%x : memref<16x512xf32>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>)
  return
}
