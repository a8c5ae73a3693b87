// REQUIRES: norm-jit
// The GEMV path of the fused GEMM (FusedGemv.cpp): up to 16 rows with W as
// N×K (dot products) and 1 row with W as K×N (row sweeps) by default, any
// count with gemm-gemv-rows. Shapes cover the row tiles (4, then 1), the W
// row groups (4, then 1) and thread chunks (64 W rows), the K tail (masked W
// loads against a zero-padded Ã) and the column masks of the row sweeps.
//
// @rms_mm_t (f32, W as NxK, bias): x: RxK, g: K, w: NxK, mb: N, c: RxN
//                                                  R,K, K, N,K, N, R,N
// RUN: norm-run %s --entry=rms_mm_t --dims=1,1100,1100,70,1100,70,1,70 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=16,33,33,65,33,65,16,65 --seed=2 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=7,512,512,131,512,131,7,131 --seed=3 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// 17 rows take the packed GEMM:
// RUN: norm-run %s --entry=rms_mm_t --dims=17,100,100,40,100,40,17,40 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @res_rms_mm_t_bf16 (bf16, residual and sum, Gemma offset, W as NxK):
//   x, r: RxK, g: K, w: NxK, c: RxN, s: RxK          R,K, R,K, K, N,K, R,N, R,K
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=3,300,3,300,300,130,300,3,130,3,300 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=1,4100,1,4100,4100,9,4100,1,9,1,4100 --seed=6 --mean=1 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_mm (f32, W as KxN): one row by default; 6 rows with gemm-gemv-rows=8
// (4-row sweep tiles, then 1-row ones).   R,K, K, K,N, N, R,N
// RUN: norm-run %s --entry=rms_mm --dims=1,700,700,700,530,530,1,530 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=6,70,70,70,300,300,6,300 --seed=8 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{gemm-gemv-rows=8})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=6,70,70,70,300,300,6,300 --seed=8 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{gemm-gemv-rows=8 target=avx2})' | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline={{project|custom}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}

func.func @rms_mm_t(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                    %mb: memref<?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) matmul_bias(%mb : memref<?xf32>)
      outs(%c : memref<?x?xf32>) {transpose_rhs}
  return
}

func.func @res_rms_mm_t_bf16(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>,
                             %w: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) rhs(%w : memref<?x?xbf16>)
      outs(%c : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
      {weight_offset = 1.0 : f32, transpose_rhs}
  return
}

func.func @rms_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                  %mb: memref<?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) matmul_bias(%mb : memref<?xf32>)
      outs(%c : memref<?x?xf32>)
  return
}
