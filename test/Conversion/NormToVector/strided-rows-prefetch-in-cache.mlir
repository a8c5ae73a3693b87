// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=1024" | FileCheck %s

// The prefetch ahead of strided rows follows the streaming decision: a
// problem whose output reaches the streaming threshold (by default the
// last-level cache) runs from DRAM, its strided rows take two sweeps each
// (not pipelined: RowKernel.cpp, the row choice) and the next row is
// prefetched as the stores stream; below it the rows are in cache and
// pipelined, the prefetches would find their lines there and only take
// issue slots, so the cached sweep has none (AVX2 VM, split QKV 16x4096 in
// cache: 79-83% of the contiguous rows' speed with them, 97-103% without).

// CHECK-LABEL: func.func @mla_strided
//       CHECK:   %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c1024{{.*}} : index
//       CHECK:   %[[INCACHE:.*]] = arith.xori %[[STREAM]], %true : i1
//       CHECK:   scf.if %[[INCACHE]] {
// In cache: the pipelined chunk. Its streamed branch (the same
// scf.if on the streaming decision as contiguous rows have) does not run
// here; its cached branch, from the first plain store on, does not
// prefetch.
//       CHECK:     scf.for %[[ROW:.*]] = {{.*}} iter_args
//       CHECK:       scf.if %[[STREAM]] -> (f32) {
//       CHECK:         vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 64 : i64, nontemporal = true}
//       CHECK:         vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<16x512xf32>, vector<16xf32>
//   CHECK-NOT:         memref.prefetch
// From DRAM: two sweeps a row; the normalize sweep prefetches the next row
// and streams y.
//       CHECK:     scf.for %[[ROW2:.*]] = %c0{{.*}} to %c16{{.*}} step %c1{{(_[0-9]+)?}} {
//       CHECK:       scf.if %[[STREAM]] {
//       CHECK:         memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<16x512xf32, strided<[576, 1]>>
//       CHECK:         vector.store %{{.*}}, %{{.*}}[%[[ROW2]], %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<16x512xf32>, vector<16xf32>
//       CHECK:   return
func.func @mla_strided(%x: memref<16x512xf32, strided<[576, 1]>>, %g: memref<512xf32>, %y: memref<16x512xf32>) {
  norm.rms_norm ins(%x : memref<16x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>)
  return
}
