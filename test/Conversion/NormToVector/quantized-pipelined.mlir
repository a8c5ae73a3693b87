// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=NOPIPE

// A static fp8 scale on 16-bit rows on AVX2 (vectors of two registers, one
// accumulator chain): the normalize sweep is software-pipelined
// (QuantizedRow.h, pipelinesSweep). Each loop of whole vectors starts with
// t = y · 1/s of its first vector; a step computes the next vector's t
// (loads at j + 16, the multiplies) and encodes and stores the t carried
// from the step before at j; the last t is stored after the loop.
// CHECK-LABEL: func.func @static_bf16
//       CHECK: %[[INV:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// The block loop's inner loop, after its prologue.
//       CHECK: %[[T0:.*]] = arith.mulf %{{.*}}, %[[INV]] : vector<16xf32>
//       CHECK: %[[LOOP:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[T:.*]] = %[[T0]]) -> (vector<16xf32>, vector<16xf32>)
//       CHECK:   %[[JN:.*]] = arith.addi %[[J]], %[[STEP]] : index
//       CHECK:   vector.load %{{.*}}[%{{.*}}, %[[JN]]] : memref<?x?xbf16>, vector<16xbf16>
//       CHECK:   %[[NEXT:.*]] = arith.mulf %{{.*}}, %[[INV]] : vector<16xf32>
//       CHECK:   math.absf %[[T]] : vector<16xf32>
//   CHECK-NOT:   math.absf
//       CHECK:   vector.store %{{.*}}[%{{.*}}, %[[J]]] : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   vector.fma
//       CHECK:   scf.yield %{{.*}}, %[[NEXT]] : vector<16xf32>, vector<16xf32>
// The epilogue: the last t.
//       CHECK: math.absf %[[LOOP]]#1 : vector<16xf32>
//       CHECK: vector.store {{.*}} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
// The rest loop (fewer than a block's vectors, maybe none) the same, behind
// a check that it has a vector.
//       CHECK: scf.if
//       CHECK:   arith.mulf %{{.*}}, %[[INV]] : vector<16xf32>
//       CHECK:   scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>)
// The masked tail is not pipelined.
//       CHECK: vector.maskedstore {{.*}} vector<16xf8E4M3FN>
// NOPIPE-LABEL: func.func @static_bf16
//   NOPIPE-NOT: step %c{{(8|16|32|64)(_[0-9]+)?}} iter_args({{.*}}) -> (vector<{{8|16}}xf32>, vector<{{8|16}}xf32>)
//       NOPIPE: return
func.func @static_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xf8E4M3FN>)
  return
}

// -----

// Not pipelined: i8 (its encoding is short: the plain norm's op count is
// not reached), f32 rows on AVX2 (register-wide vectors, several chains),
// and per-token scales (q comes from the row buffer after the sweep).
// CHECK-LABEL: func.func @not_pipelined
// (The Kahan loops over blocks carry two vectors too, in steps of 512 or
// 1024.)
//   CHECK-NOT: step %c{{(8|16|32|64)(_[0-9]+)?}} iter_args({{.*}}) -> (vector<{{8|16}}xf32>, vector<{{8|16}}xf32>)
//       CHECK: return
func.func @not_pipelined(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xi8>,
                         %xf: memref<?x?xf32>, %qf: memref<?x?xf8E4M3FN>,
                         %qt: memref<?x?xf8E5M2>, %sc: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xi8>)
  norm.rms_norm ins(%xf : memref<?x?xf32>) scale(%s : f32) outs(%qf : memref<?x?xf8E4M3FN>)
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%qt : memref<?x?xf8E5M2>) scale_outs(%sc : memref<?xf32>)
  return
}
