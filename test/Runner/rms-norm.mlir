// REQUIRES: norm-jit
// Randomized execution of norm.rms_norm in memref (destination-passing)
// form with dynamic shapes, f32/f16/bf16, over many shapes and seeds: every
// run is checked by norm-run --check against the float64 reference.
//
// --dims lists the dynamic dims of the arguments in order.
// @rms_f32(x: ?x?, g: ?, y: ?x?):                    R,N, N, R,N
// RUN: norm-run %s --entry=rms_f32 --dims=1,1,1,1,1 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=4,17,17,4,17 --seed=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=3,64,64,3,64 --seed=3 --mean=0.5 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=9,127,127,9,127 --seed=4 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=16,1000,1000,16,1000 --seed=5 --mean=-3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=2,4097,4097,2,4097 --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f32 --dims=33,8,8,33,8 --seed=7 --mean=100 --scale=0.01 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_full_f32(x, r: ?x?, g: ?, y, s: ?x?, rstd: ?): R,N, R,N, N, R,N, R,N, R
// RUN: norm-run %s --entry=rms_full_f32 --dims=5,33,5,33,33,5,33,5,33,5 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_full_f32 --dims=7,256,7,256,256,7,256,7,256,7 --seed=12 --mean=1 --scale=3 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_f16 (weight_offset = 1, eps outside the root):    R,N, N, R,N
// RUN: norm-run %s --entry=rms_f16 --dims=4,16,16,4,16 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f16 --dims=6,100,100,6,100 --seed=22 --mean=0.25 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_f16 --dims=3,1031,1031,3,1031 --seed=23 --dist=normal --scale=4 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_bf16 (residual, partial = 0.25, cast before the weight, sum and rstd):
//   x, r: ?x?, g: ?, y, s: ?x?, rstd: ?                 R,N, R,N, N, R,N, R,N, R
// RUN: norm-run %s --entry=rms_bf16 --dims=4,32,4,32,32,4,32,4,32,4 --seed=31 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_bf16 --dims=5,77,5,77,77,5,77,5,77,5 --seed=32 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_bf16 --dims=2,2048,2,2048,2048,2,2048,2,2048,2 --seed=33 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_3d (axis = 1 of a rank-3 input, gamma ?x?):     A,B,C, B,C, A,B,C
// RUN: norm-run %s --entry=rms_3d --dims=3,4,5,4,5,3,4,5 --seed=41 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_3d --dims=2,16,31,16,31,2,16,31 --seed=42 --mean=-1 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry=rms_{{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-06|2e-03|1e-02}} PASS{{$}}

func.func @rms_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xf32>) {epsilon = 1.0e-05 : f32}
  return
}

func.func @rms_full_f32(%x: memref<?x?xf32>, %r: memref<?x?xf32>, %g: memref<?xf32>,
                        %y: memref<?x?xf32>, %s: memref<?x?xf32>, %rstd: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) residual(%r : memref<?x?xf32>)
      weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
      sum_outs(%s : memref<?x?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @rms_f16(%x: memref<?x?xf16>, %g: memref<?xf16>, %y: memref<?x?xf16>) {
  norm.rms_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf16>)
      outs(%y : memref<?x?xf16>)
      {weight_offset = 1.0 : f32, eps_mode = #norm.eps_mode<outside_sqrt>}
  return
}

func.func @rms_bf16(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>,
                    %y: memref<?x?xbf16>, %s: memref<?x?xbf16>, %rstd: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>) rstd_outs(%rstd : memref<?xf32>)
      {partial = 0.25 : f32, cast_mode = #norm.cast_mode<before_weight>}
  return
}

func.func @rms_3d(%x: memref<?x?x?xf32>, %g: memref<?x?xf32>, %y: memref<?x?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?x?xf32>) weight(%g : memref<?x?xf32>)
      outs(%y : memref<?x?x?xf32>) {axis = 1 : i64}
  return
}
