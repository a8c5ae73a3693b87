// RUN: norm-opt %s --convert-norm-to-vector="target=avx512-bf16" --canonicalize --split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="target=avx2" --canonicalize --split-input-file | FileCheck %s --check-prefix=AVX2

// Contiguous f32 rows on a 512-bit target (RowKernel.cpp,
// maxPipelinedRowBytes): pipelined when the problem is not streamed or a
// row's x is at most 4096 bytes (1024 floats); longer streamed rows take two
// sweeps each (measured: docs/performance.md, issue 32, "AVX-512 VM, stop
// 54"). With static shapes the run-time choice folds: pipelined, threads
// take chunks of rows (an scf.parallel over fewer tasks than rows) and the
// chunk's loop carries the next row's sum; two sweeps, one task a row and
// no sum carried.

// A long row (32 KiB) of a streamed problem (2 GiB of y): two sweeps.
// CHECK-LABEL: func.func @rms_f32_long_streamed
//   CHECK-NOT: -> (f32)
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c65536) step (%c1)
//   CHECK-NOT: -> (f32)
//       CHECK: return
// AVX2-LABEL: func.func @rms_f32_long_streamed
//       AVX2: scf.parallel (%{{.*}}) = (%c0) to (%c1024) step (%c1)
//       AVX2: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
func.func @rms_f32_long_streamed(%x: memref<65536x8192xf32>, %g: memref<8192xf32>, %y: memref<65536x8192xf32>) {
  norm.rms_norm ins(%x : memref<65536x8192xf32>) weight(%g : memref<8192xf32>) outs(%y : memref<65536x8192xf32>)
  return
}

// -----

// LayerNorm: the same.
// CHECK-LABEL: func.func @ln_f32_long_streamed
//   CHECK-NOT: -> (f32)
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c65536) step (%c1)
//   CHECK-NOT: -> (f32)
//       CHECK: return
func.func @ln_f32_long_streamed(%x: memref<65536x8192xf32>, %g: memref<8192xf32>, %b: memref<8192xf32>, %y: memref<65536x8192xf32>) {
  norm.layer_norm ins(%x : memref<65536x8192xf32>) weight(%g : memref<8192xf32>) bias(%b : memref<8192xf32>) outs(%y : memref<65536x8192xf32>)
  return
}

// -----

// Negative: a short row (1024 floats) of a streamed problem stays pipelined.
// CHECK-LABEL: func.func @rms_f32_short_streamed
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1024) step (%c1)
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
func.func @rms_f32_short_streamed(%x: memref<65536x1024xf32>, %g: memref<1024xf32>, %y: memref<65536x1024xf32>) {
  norm.rms_norm ins(%x : memref<65536x1024xf32>) weight(%g : memref<1024xf32>) outs(%y : memref<65536x1024xf32>)
  return
}

// -----

// Negative: long rows in cache (2 MiB of y) stay pipelined.
// CHECK-LABEL: func.func @rms_f32_long_in_cache
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c8) step (%c1)
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
func.func @rms_f32_long_in_cache(%x: memref<64x8192xf32>, %g: memref<8192xf32>, %y: memref<64x8192xf32>) {
  norm.rms_norm ins(%x : memref<64x8192xf32>) weight(%g : memref<8192xf32>) outs(%y : memref<64x8192xf32>)
  return
}
