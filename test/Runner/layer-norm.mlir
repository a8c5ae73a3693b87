// REQUIRES: norm-jit
// Randomized execution of norm.layer_norm in memref (destination-passing)
// form with dynamic shapes, f32/f16/bf16, over many shapes and seeds, each
// run checked by norm-run --check against the float64 reference (every
// output: y, sum, mean, rstd).
//
// @ln_f32(x: ?x?, g, b: ?, y: ?x?):                   R,N, N, N, R,N
// RUN: norm-run %s --entry=ln_f32 --dims=1,2,2,2,1,2 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f32 --dims=4,17,17,17,4,17 --seed=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f32 --dims=8,768,768,768,8,768 --seed=3 --mean=0.5 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f32 --dims=3,1025,1025,1025,3,1025 --seed=4 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f32 --dims=13,40,40,40,13,40 --seed=5 --mean=1000 --scale=0.1 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_full_f32 (residual; sum, mean and rstd outputs):
//   x, r: ?x?, g, b: ?, y, s: ?x?, mean, rstd: ?      R,N, R,N, N, N, R,N, R,N, R, R
// RUN: norm-run %s --entry=ln_full_f32 --dims=6,100,6,100,100,100,6,100,6,100,6,6 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_full_f32 --dims=2,333,2,333,333,333,2,333,2,333,2,2 --seed=12 --mean=-2 --scale=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_f16 (mean and rstd outputs):                    R,N, N, N, R,N, R, R
// RUN: norm-run %s --entry=ln_f16 --dims=5,33,33,33,5,33,5,5 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f16 --dims=4,512,512,512,4,512,4,4 --seed=22 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_f16 --dims=7,9,9,9,7,9,7,7 --seed=23 --dist=normal --scale=8 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_bf16 (cast before the weight, eps outside the root, Gemma offset):
//                                                     R,N, N, N, R,N
// RUN: norm-run %s --entry=ln_bf16 --dims=4,64,64,64,4,64 --seed=31 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_bf16 --dims=3,1500,1500,1500,3,1500 --seed=32 --mean=-0.5 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_3d (axis = 1 of a rank-3 input, no gamma/beta):  A,B,C, A,B,C
// RUN: norm-run %s --entry=ln_3d --dims=3,4,5,3,4,5 --seed=41 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_3d --dims=2,8,63,2,8,63 --seed=42 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry=ln_{{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-06|1e-05|2e-03|1e-02}} PASS{{$}}

func.func @ln_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>)
  return
}

func.func @ln_full_f32(%x: memref<?x?xf32>, %r: memref<?x?xf32>, %g: memref<?xf32>,
                       %b: memref<?xf32>, %y: memref<?x?xf32>, %s: memref<?x?xf32>,
                       %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) residual(%r : memref<?x?xf32>)
      weight(%g : memref<?xf32>) bias(%b : memref<?xf32>)
      outs(%y : memref<?x?xf32>) sum_outs(%s : memref<?x?xf32>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
      {epsilon = 1.0e-06 : f64}
  return
}

func.func @ln_f16(%x: memref<?x?xf16>, %g: memref<?xf16>, %b: memref<?xf16>,
                  %y: memref<?x?xf16>, %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf16>)
      bias(%b : memref<?xf16>) outs(%y : memref<?x?xf16>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      {cast_mode = #norm.cast_mode<before_weight>,
       eps_mode = #norm.eps_mode<outside_sqrt>, weight_offset = 1.0 : f32}
  return
}

func.func @ln_3d(%x: memref<?x?x?xf32>, %y: memref<?x?x?xf32>) {
  norm.layer_norm ins(%x : memref<?x?x?xf32>) outs(%y : memref<?x?x?xf32>) {axis = -2 : i64}
  return
}
