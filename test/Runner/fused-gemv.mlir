// REQUIRES: norm-jit
// The GEMV path of the fused GEMM (NormToVector/Gemm/Gemv*.cpp), up to 16 rows by default
// with either W layout, any count with gemm-gemv-rows; checked against the
// float64 reference.
//
// One row (decode) streams W: dot products over whole W rows (N×K) and
// 16-vector row sweeps (K×N). Two or more rows take the K-blocked kernels:
// 4-row tiles (then 3, 2, 1) × groups of 6 W rows (dot products, K blocks
// of 256) or 6 column vectors (row sweeps, K blocks of 32 through a copied
// W block), with the accumulators kept in a per-task scratch between K
// blocks. The shapes below cover every row-tile tail (M = 2, 5, 8, 13, 16),
// several K blocks with a K tail that is not a multiple of 16 (the last K
// block's masked W loads against a zero-padded Ã), the W-row group tails
// (6, 2, 1) and task tails (96 W rows; 96 columns, masked), and threads.
// LayerNorm runs the same kernels with the rows γ' (and β) in front of A's
// in Ã: c = γ'ᵀW and Σβ·W come out of the first row tile of each group.
//
// @rms_mm_t (f32, W as NxK, bias): x: RxK, g: K, w: NxK, mb: N, c: RxN
//                                                  R,K, K, N,K, N, R,N
// RUN: norm-run %s --entry=rms_mm_t --dims=1,1100,1100,70,1100,70,1,70 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=16,33,33,65,33,65,16,65 --seed=2 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=7,512,512,131,512,131,7,131 --seed=3 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=2,600,600,103,600,103,2,103 --seed=12 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=5,300,300,70,300,70,5,70 --seed=13 --mean=2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=8,257,257,200,257,200,8,200 --seed=14 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=13,1030,1030,45,1030,45,13,45 --seed=15 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=16,513,513,197,513,197,16,197 --seed=16 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_t --dims=13,300,300,50,300,50,13,50 --seed=17 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' | FileCheck %s
// 17 rows take the packed GEMM:
// RUN: norm-run %s --entry=rms_mm_t --dims=17,100,100,40,100,40,17,40 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @res_rms_mm_t_bf16 (bf16, residual and sum, Gemma offset, W as NxK):
//   x, r: RxK, g: K, w: NxK, c: RxN, s: RxK          R,K, R,K, K, N,K, R,N, R,K
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=3,300,3,300,300,130,300,3,130,3,300 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=1,4100,1,4100,4100,9,4100,1,9,1,4100 --seed=6 --mean=1 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=5,600,5,600,600,50,600,5,50,5,600 --seed=18 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=13,290,13,290,290,110,290,13,110,13,290 --seed=19 --mean=-1 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=16,1100,16,1100,1100,20,1100,16,20,16,1100 --seed=20 --warmup=0 --repeat=1 --check | FileCheck %s
// N = 0: no columns, but S is still written (and checked).
// RUN: norm-run %s --entry=res_rms_mm_t_bf16 --dims=4,300,4,300,300,0,300,4,0,4,300 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @rms_mm (f32, W as KxN, bias):          R,K, K, K,N, N, R,N
// RUN: norm-run %s --entry=rms_mm --dims=1,700,700,700,530,530,1,530 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// One row over two decode tasks and a tail task (1024 + 1024 + 57 columns),
// K = 8·129 + 5 (whole groups of 8 rows, then 5 single rows), 2 threads:
// RUN: norm-run %s --entry=rms_mm --dims=1,1037,1037,1037,2105,2105,1,2105 --seed=34 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=6,70,70,70,300,300,6,300 --seed=8 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=6,70,70,70,300,300,6,300 --seed=8 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=2,150,150,150,200,200,2,200 --seed=22 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=5,700,700,700,530,530,5,530 --seed=23 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=8,64,64,64,100,100,8,100 --seed=24 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=13,333,333,333,250,250,13,250 --seed=25 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=16,129,129,129,390,390,16,390 --seed=26 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// Whole 96-column chunks only (N = 4·96), K = 6·32 + 8: the row tiles'
// prefetches of the next K block cross into the next chunk, and after the
// last chunk stay clamped inside W:
// RUN: norm-run %s --entry=rms_mm --dims=11,200,200,200,384,384,11,384 --seed=36 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// gemm-gemv-rows raises the limit (24 rows: 6 four-row tiles):
// RUN: norm-run %s --entry=rms_mm --dims=24,100,100,100,40,40,24,40 --seed=27 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=24}})' | FileCheck %s
//
// @res_rms_mm_bf16 (bf16, residual and sum, Gemma offset, W as KxN; with
// AVX512-BF16 the row sweeps run vdpbf16ps on k-pairs: odd K (the last
// row's zero partner), a K block that ends on an odd row, 3 to 16 rows,
// and the same with gemm-bf16-dot=false (f32 FMAs on the widened W)):
//   x, r: RxK, g: K, w: KxN, c: RxN, s: RxK          R,K, R,K, K, K,N, R,N, R,K
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=3,200,3,200,200,200,70,3,70,3,200 --seed=28 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=16}})' | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=13,150,13,150,150,150,300,13,300,13,150 --seed=29 --mean=1 --threads=2 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=16}})' | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=16,600,16,600,600,600,33,16,33,16,600 --seed=30 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=16}})' | FileCheck %s
// One row (the default GEMV, prefetching sweeps), several tasks, K tail:
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=1,1037,1,1037,1037,1037,2105,1,2105,1,1037 --seed=35 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=8,100,8,100,100,100,0,8,0,8,100 --seed=31 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=16}})' | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=5,77,5,77,77,77,70,5,70,5,77 --seed=37 --mean=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=4,33,4,33,33,33,200,4,200,4,33 --seed=38 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=2,31,2,31,31,31,97,2,97,2,31 --seed=39 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm_bf16 --dims=9,77,9,77,77,77,70,9,70,9,77 --seed=40 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-bf16-dot=false}})' | FileCheck %s
//
// @ln_mm (f32 LayerNorm, γ, β, bias, W as KxN):
//   x: RxK, g, b: K, w: KxN, mb: N, c: RxN               R,K, K, K, K,N, N, R,N
// One row (3 rows of Ã: γ', β, x), rows with |mean| = 10³ (every input has
// that mean; β and the bias keep the output well conditioned), 2 and 18 rows
// of Ã, several tasks and K blocks, 2 threads:
// RUN: norm-run %s --entry=ln_mm --dims=1,300,300,300,300,200,200,1,200 --seed=40 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=2,70,70,70,70,130,130,2,130 --seed=41 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=16,333,333,333,333,250,250,16,250 --seed=42 --mean=1000 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// The same against the packed GEMM (gemm-gemv-rows=-1), output for output:
// RUN: norm-run %s --entry=ln_mm --dims=5,129,129,129,129,100,100,5,100 --seed=43 --mean=2 --warmup=0 --repeat=1 --check --compare-pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=-1}})' --compare-tol=1e-5 | FileCheck %s --check-prefix=CMP
// @ln_plain (no γ, β or bias: one column-sum row, c = Σ W), W as KxN and
// NxK:
//   x: RxK, w: KxN (NxK), c: RxN                         R,K, K,N, R,N
// RUN: norm-run %s --entry=ln_plain --dims=1,100,100,70,1,70 --seed=44 --mean=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_plain --dims=7,100,100,70,7,70 --seed=45 --mean=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_plain_t --dims=1,300,130,300,1,130 --seed=46 --mean=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_plain_t --dims=13,300,101,300,13,101 --seed=47 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// @ln_mm_t_bf16 (bf16, γ, β, W as NxK: vdpbf16ps on AVX512-BF16, the rows
// γ' and β in Ã as bf16):
//   x: RxK, g, b: K, w: NxK, c: RxN                      R,K, K, K, N,K, R,N
// RUN: norm-run %s --entry=ln_mm_t_bf16 --dims=1,1100,1100,1100,100,1100,1,100 --seed=48 --mean=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_t_bf16 --dims=14,600,600,600,99,600,14,99 --seed=49 --mean=100 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_rms_t (f32 matmul → RMSNorm, W as NxK: bias and residual in the GEMV's
// epilogue, then the norm):
//   a: RxK, w: NxK, mb: N, r: RxN, g: N, y, s: RxN    R,K, N,K, N, R,N, N, R,N, R,N
// RUN: norm-run %s --entry=mm_rms_t --dims=7,700,45,700,45,7,45,45,7,45,7,45 --seed=32 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms_t --dims=16,300,130,300,130,16,130,130,16,130,16,130 --seed=33 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s

// CMP: {{^}}norm-run: entry=ln_mm {{.*}} tol=1e-05 PASS cmp_pipeline=custom {{.*}} cmp_tol=1e-05 PASS{{$}}
// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline={{project|custom}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-06|1e-02}} PASS{{$}}

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

func.func @res_rms_mm_bf16(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>,
                           %w: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) rhs(%w : memref<?x?xbf16>)
      outs(%c : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
      {weight_offset = 1.0 : f32}
  return
}

func.func @mm_rms_t(%a: memref<?x?xf32>, %w: memref<?x?xf32>, %mb: memref<?xf32>,
                    %res: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>,
                    %s: memref<?x?xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      matmul_bias(%mb : memref<?xf32>) residual(%res : memref<?x?xf32>)
      weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
      sum_outs(%s : memref<?x?xf32>) {transpose_rhs}
  return
}

func.func @ln_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                 %w: memref<?x?xf32>, %mb: memref<?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      matmul_bias(%mb : memref<?xf32>) outs(%c : memref<?x?xf32>)
  return
}

func.func @ln_plain(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>)
  return
}

func.func @ln_plain_t(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) {transpose_rhs}
  return
}

func.func @ln_mm_t_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>,
                        %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) rhs(%w : memref<?x?xbf16>)
      outs(%c : memref<?x?xbf16>) {transpose_rhs}
  return
}

