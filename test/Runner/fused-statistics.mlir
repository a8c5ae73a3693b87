// REQUIRES: norm-jit
// The fused ops' saved statistics (mean_outs, rstd_outs: what a training
// graph keeps for norm.rms_norm_grad / norm.layer_norm_grad), checked with
// C (Y) against the float64 reference: the packed GEMM and the GEMV (one
// row) of norm → matmul, its normalize-first form (cast_mode, pRMSNorm), and
// matmul → norm (statistics in the GEMM's epilogue, per row block or after
// the GEMM), f32 and bf16, one and two threads.
//
// @rms_mm (f32): x: RxK, g: K, w: KxN, c: RxN, rstd: R     R,K, K, K,N, R,N, R
// RUN: norm-run %s --entry=rms_mm --dims=5,33,33,33,20,5,20,5 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=203,700,700,700,530,203,530,203 --seed=2 --mean=0.3 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=1,1100,1100,1100,600,1,600,1 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=7,40,40,40,9,7,9,7 --seed=4 --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s
//
// @ln_mm (f32): x: RxK, g, b: K, w: KxN, c: RxN, mean, rstd: R
//                                             R,K, K, K, K,N, R,N, R, R
// Rows with |mean| = 10^4·std: the mean is the pivot plus the correction.
// RUN: norm-run %s --entry=ln_mm --dims=29,520,520,520,520,300,29,300,29,29 --seed=5 --mean=10000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=197,300,300,300,300,270,197,270,197,197 --seed=6 --mean=-3 --dist=normal --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=1,300,300,300,300,270,1,270,1,1 --seed=7 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_mm_bf16 (bf16 x, w, c; f32 statistics), W as NxK:
//                                                  R,K, K, K, N,K, R,N, R, R
// RUN: norm-run %s --entry=ln_mm_bf16 --dims=40,530,530,530,270,530,40,270,40,40 --seed=8 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_bf16 --dims=3,128,128,128,17,128,3,17,3,3 --seed=9 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_mm_cast_bf16 (cast_mode: each row normalized before the product),
// @prms_mm (pRMSNorm, f32): x: RxK, g: K, w: KxN, c: RxN, rstd: R
// RUN: norm-run %s --entry=rms_mm_cast_bf16 --dims=64,300,300,300,100,64,100,64 --seed=10 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=prms_mm --dims=13,300,300,300,40,13,40,13 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_rms (f32): a: RxK, w: KxN, y: RxN, rstd: R          R,K, K,N, R,N, R
// N ≤ 256 normalizes per row block in the epilogue; N = 300 after the GEMM.
// RUN: norm-run %s --entry=mm_rms --dims=300,513,513,200,300,200,300 --seed=12 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms --dims=50,200,200,300,50,300,50 --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms --dims=1,100,100,70,1,70,1 --seed=14 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_ln_bf16 (bf16, residual, S returned; f32 statistics):
//   a: RxK, w: KxN, r: RxN, g, b: N, y, s: RxN, mean, rstd: R
//                                                R,K, K,N, R,N, N, N, R,N, R,N, R, R
// RUN: norm-run %s --entry=mm_ln_bf16 --dims=37,200,200,300,37,300,300,300,37,300,37,300,37,37 --seed=15 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln_bf16 --dims=400,200,200,250,400,250,250,250,400,250,400,250,400,400 --seed=16 --mean=-3 --dist=normal --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln_bf16 --dims=1,200,200,300,1,300,300,300,1,300,1,300,1,1 --seed=17 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline={{project|upstream}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{[0-9.e+-]+}} PASS{{$}}

func.func @rms_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                  %c: memref<?x?xf32>, %rstd: memref<?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) outs(%c : memref<?x?xf32>)
      rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                 %w: memref<?x?xf32>, %c: memref<?x?xf32>,
                 %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) mean_outs(%mean : memref<?xf32>)
      rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_mm_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>,
                      %b: memref<?xbf16>, %w: memref<?x?xbf16>,
                      %c: memref<?x?xbf16>, %mean: memref<?xf32>,
                      %rstd: memref<?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) bias(%b : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
      {transpose_rhs}
  return
}

func.func @rms_mm_cast_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>,
                            %w: memref<?x?xbf16>, %c: memref<?x?xbf16>,
                            %rstd: memref<?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
      rstd_outs(%rstd : memref<?xf32>) {cast_mode = #norm.cast_mode<after_weight>}
  return
}

func.func @prms_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                   %c: memref<?x?xf32>, %rstd: memref<?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) outs(%c : memref<?x?xf32>)
      rstd_outs(%rstd : memref<?xf32>) {partial = 0.25 : f32}
  return
}

func.func @mm_rms(%a: memref<?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?xf32>,
                  %rstd: memref<?xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%y : memref<?x?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @mm_ln_bf16(%a: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                      %r: memref<?x?xbf16>, %g: memref<?xbf16>,
                      %b: memref<?xbf16>, %y: memref<?x?xbf16>,
                      %s: memref<?x?xbf16>, %mean: memref<?xf32>,
                      %rstd: memref<?xf32>) {
  norm.matmul_layer_norm ins(%a : memref<?x?xbf16>) rhs(%w : memref<?x?xbf16>)
      residual(%r : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>) mean_outs(%mean : memref<?xf32>)
      rstd_outs(%rstd : memref<?xf32>)
  return
}
