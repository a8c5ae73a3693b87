// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=1024" | FileCheck %s

// The prefetch ahead of strided rows (strided-rows-prefetch.mlir) follows
// the streaming decision: a problem whose output reaches the streaming
// threshold (by default the last-level cache) runs from DRAM, and its rows
// are prefetched as its stores stream; below it the rows are in cache, the
// prefetches find their lines there and only take issue slots, so the sweep
// of the cached branch has none (AVX2 VM, split QKV 16x4096 in cache: 79-83%
// of the contiguous rows' speed with them, 97-103% without).

// CHECK-LABEL: func.func @mla_strided
//       CHECK:   %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c1024{{.*}} : index
//       CHECK:   scf.for %[[ROW:.*]] = {{.*}} iter_args
//       CHECK:     scf.if %[[STREAM]] -> (f32) {
//       CHECK:       memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<16x512xf32, strided<[576, 1]>>
//       CHECK:       vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<16x512xf32>, vector<16xf32>
//       CHECK:     } else {
//   CHECK-NOT:       memref.prefetch
//       CHECK:       vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<16x512xf32>, vector<16xf32>
//   CHECK-NOT:   memref.prefetch
//       CHECK:   return
func.func @mla_strided(%x: memref<16x512xf32, strided<[576, 1]>>, %g: memref<512xf32>, %y: memref<16x512xf32>) {
  norm.rms_norm ins(%x : memref<16x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>)
  return
}
