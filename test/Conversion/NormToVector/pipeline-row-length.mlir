// RUN: norm-opt %s --convert-norm-to-vector="target=avx512-bf16" --split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="target=avx2" --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s --convert-norm-to-vector="target=avx512-bf16 streaming-threshold=-1" --split-input-file | FileCheck %s --check-prefix=NOSTREAM

// Rows of 16-bit x and y on a 512-bit target (RowKernel.cpp,
// limitsPipelinedRows): pipelined (a chunk of rows, row r+1's statistic
// gathered in row r's normalize sweep) when the problem is not streamed or
// a row's x is at most 2048 bytes; longer streamed rows take two sweeps
// each (measured: docs/performance.md, issue 32, bf16 rows). The choice is
// made at run time on the row length; threads take chunks of rows only
// when pipelined.

// CHECK-LABEL: func.func @rms_bf16
//       CHECK: %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c33554432 : index
//       CHECK: %[[ROWBYTES:.*]] = arith.muli %[[N:.*]], %c2{{.*}} : index
//       CHECK: %[[SHORT:.*]] = arith.cmpi ule, %[[ROWBYTES]], %c2048 : index
//       CHECK: %[[INCACHE:.*]] = arith.xori %[[STREAM]], %true : i1
//       CHECK: %[[PIPE:.*]] = arith.ori %[[INCACHE]], %[[SHORT]] : i1
//       CHECK: %[[TASKROWS:.*]] = arith.select %[[PIPE]], %{{.*}}, %c1{{.*}} : index
//       CHECK: scf.parallel
//  CHECK-NEXT: scf.if %[[PIPE]] {
// The pipelined chunk: a loop over its rows carrying the next row's sum.
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
//       CHECK: } else {
// Two sweeps: no statistic carried from row to row.
//   CHECK-NOT: iter_args(%{{.*}}) -> (f32) {
//       CHECK: scf.reduce
// The serial rows choose the same way.
//       CHECK: scf.if %[[PIPE]] {
//       CHECK: } else {
//       CHECK: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c1

// Without streaming (no streaming decision at all) nothing is chosen: all
// rows are pipelined, as before.
// NOSTREAM-LABEL: func.func @rms_bf16
//   NOSTREAM-NOT: arith.cmpi ule, %{{.*}}, %c2048
//   NOSTREAM-NOT: arith.ori

// On a 256-bit target every row is pipelined.
// AVX2-LABEL: func.func @rms_bf16
//   AVX2-NOT: %c2048
//   AVX2-NOT: arith.ori
//   AVX2-NOT: arith.select
//       AVX2: scf.parallel
//  AVX2-NEXT: arith.muli
func.func @rms_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}

// -----

// LayerNorm with a residual: the same choice.
// CHECK-LABEL: func.func @ln_bf16_residual
//       CHECK: arith.cmpi ule, %{{.*}}, %c2048 : index
//       CHECK: %[[PIPE:.*]] = arith.ori
//       CHECK: scf.if %[[PIPE]] {
func.func @ln_bf16_residual(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>) weight(%g : memref<?xbf16>) bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
  return
}

// -----

// f32 rows: the same choice at 4096 bytes of x (1024 floats;
// pipeline-row-length-f32.mlir has the static-shape cases).
// CHECK-LABEL: func.func @rms_f32
//       CHECK: %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c33554432 : index
//       CHECK: %[[ROWBYTES:.*]] = arith.muli %[[N:.*]], %c4{{.*}} : index
//       CHECK: %[[SHORT:.*]] = arith.cmpi ule, %[[ROWBYTES]], %c4096 : index
//       CHECK: %[[INCACHE:.*]] = arith.xori %[[STREAM]], %true : i1
//       CHECK: %[[PIPE:.*]] = arith.ori %[[INCACHE]], %[[SHORT]] : i1
//       CHECK: scf.parallel
//  CHECK-NEXT: scf.if %[[PIPE]] {
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
//       CHECK: } else {
//   CHECK-NOT: iter_args(%{{.*}}) -> (f32) {
//       CHECK: scf.reduce
// NOSTREAM-LABEL: func.func @rms_f32
//   NOSTREAM-NOT: arith.ori
//       NOSTREAM: scf.parallel
//  NOSTREAM-NEXT: arith.muli
// Negative: on a 256-bit target f32 rows keep pipelining at every length.
// AVX2-LABEL: func.func @rms_f32
//   AVX2-NOT: %c4096
//   AVX2-NOT: arith.ori
//       AVX2: scf.parallel
//  AVX2-NEXT: arith.muli
func.func @rms_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
  return
}

// -----

// Negative: bf16 x with an f32 y keeps pipelining.
// CHECK-LABEL: func.func @rms_bf16_f32_out
//   CHECK-NOT: %c2048
//   CHECK-NOT: %c4096
//   CHECK-NOT: arith.ori
//       CHECK: scf.parallel
//  CHECK-NEXT: arith.muli
func.func @rms_bf16_f32_out(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xf32>)
  return
}

// -----

// Strided rows (a column slice of wider rows: DeepSeek MLA's 512 of 576
// columns) of a streamed problem take two sweeps each whatever their
// length or type: pipelined only in cache (RowKernel.cpp, the row choice
// in emit; measured: bench/cpu/results/2026-11-28-str26.md). Contiguous
// f32 rows (@rms_f32 above) choose on their length.
// CHECK-LABEL: func.func @rms_f32_strided
//       CHECK: %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c33554432 : index
//   CHECK-NOT: %c4096
//       CHECK: %[[INCACHE:.*]] = arith.xori %[[STREAM]], %true : i1
//   CHECK-NOT: arith.ori
//       CHECK: %[[TASKROWS:.*]] = arith.select %[[INCACHE]], %{{.*}}, %c1{{.*}} : index
//       CHECK: scf.parallel
//  CHECK-NEXT: scf.if %[[INCACHE]] {
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
//       CHECK: } else {
// Two sweeps, the next row prefetched into L2.
//   CHECK-NOT: iter_args(%{{.*}}) -> (f32) {
//       CHECK: memref.prefetch %{{.*}} read, locality<2>, data
//       CHECK: scf.reduce
//       CHECK: scf.if %[[INCACHE]] {
//       CHECK: } else {
//       CHECK: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c1
// NOSTREAM-LABEL: func.func @rms_f32_strided
//   NOSTREAM-NOT: arith.xori
//   NOSTREAM-NOT: arith.select
//       NOSTREAM: scf.parallel
//  NOSTREAM-NEXT: arith.muli
// AVX2-LABEL: func.func @rms_f32_strided
//       AVX2: %[[INCACHE:.*]] = arith.xori %{{.*}}, %true : i1
//       AVX2: scf.parallel
//  AVX2-NEXT: scf.if %[[INCACHE]] {
func.func @rms_f32_strided(%x: memref<?x512xf32, strided<[576, 1]>>, %g: memref<512xf32>, %y: memref<?x512xf32>) {
  norm.rms_norm ins(%x : memref<?x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>) outs(%y : memref<?x512xf32>)
  return
}

// -----

// Strided bf16 rows: the same choice, without the 2048-byte length test.
// CHECK-LABEL: func.func @rms_bf16_strided
//   CHECK-NOT: %c2048
//       CHECK: %[[INCACHE:.*]] = arith.xori %{{.*}}, %true : i1
//   CHECK-NOT: arith.ori
//       CHECK: scf.if %[[INCACHE]] {
func.func @rms_bf16_strided(%x: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16, strided<[?, 1], offset: ?>>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}
