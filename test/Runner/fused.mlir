// REQUIRES: norm-jit
// The fused norm <-> matmul ops at small shapes, memref form with dynamic
// shapes and tensor form, checked against the float64 reference (f32
// tolerance 1e-5 for the fused ops).
//
// @rms_mm(x: RxK, g: K, w: KxN, mb: N, c: RxN):        R,K, K, K,N, N, R,N
// RUN: norm-run %s --entry=rms_mm --dims=5,33,33,33,20,20,5,20 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=16,64,64,64,48,48,16,48 --seed=2 --mean=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=1,7,7,7,3,3,1,3 --seed=3 --dist=normal --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s
// Shapes that cross the GEMM's blocks (K blocks of 256, column chunks of
// 256, row blocks of 192, 12-row tiles then 4- and 1-row tiles, masked
// column tails), threads, and M = 1:
// RUN: norm-run %s --entry=rms_mm --dims=203,700,700,700,530,530,203,530 --seed=4 --mean=0.3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=1,1100,1100,1100,600,600,1,600 --seed=5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// A weight_offset without γ scales by 1 + offset (a missing γ is 1):
// RUN: norm-run %s --entry=rms_mm_offset --dims=13,300,300,40,13,40 --seed=8 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_offset_t --dims=13,300,40,300,13,40 --seed=9 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_mm (f32): x: RxK, g, b: K, w: KxN, mb: N -> RxN; rows with
// |mean| = 10^4·std (uniform in [10^4 − 1, 10^4 + 1)) must stay within 1e-5.
// RUN: norm-run %s --entry=ln_mm --dims=29,520,520,520,520,300,300,29,300 --seed=6 --mean=10000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=197,300,300,300,300,270,270,197,270 --seed=7 --mean=-3 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
//
// @ln_mm_t (bf16, W given as NxK): x: RxK, g, b: K, w: NxK -> RxN
//                                                     R,K, K, K, N,K
// RUN: norm-run %s --entry=ln_mm_t --dims=6,40,40,40,24,40 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_t --dims=3,128,128,128,17,128 --seed=12 --mean=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_t --dims=40,530,530,530,270,530 --seed=13 --mean=100 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_rms (f16, residual, sum output):
//   a: RxK, w: KxN, mb: N, r: RxN, g: N, y, s: RxN     R,K, K,N, N, R,N, N, R,N, R,N
// RUN: norm-run %s --entry=mm_rms --dims=4,24,24,20,20,4,20,20,4,20,4,20 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms --dims=9,16,16,64,64,9,64,64,9,64,9,64 --seed=22 --scale=0.5 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_ln_t (f32, W given as NxK, residual, sum result):
//   a: RxK, w: NxK, mb: N, r: RxN, g, b: N -> (RxN, RxN)  R,K, N,K, N, R,N, N, N
// RUN: norm-run %s --entry=mm_ln_t --dims=6,20,24,20,24,6,24,24,24 --seed=31 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln_t --dims=2,96,80,96,80,2,80,80,80 --seed=32 --mean=-1 --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm_ln_t --dims=50,520,300,520,300,50,300,300,300 --seed=33 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms --dims=200,513,513,270,270,200,270,270,200,270,200,270 --seed=23 --warmup=0 --repeat=1 --check | FileCheck %s
// One row with W as K×N: the GEMV's row sweeps gather the statistics.
// RUN: norm-run %s --entry=mm_rms --dims=1,100,100,70,70,1,70,70,1,70,1,70 --seed=24 --warmup=0 --repeat=1 --check | FileCheck %s
//
// The statistics of matmul → LayerNorm come from the GEMM's epilogue, per
// 16 columns, merged per row (SegmentStatistics.cpp). With inputs of mean
// 1000, S has |mean| ≈ 10⁴–10⁵·std: y is only within 1e-5 if the mean is
// kept as pivot + correction (one f32 mean gives ~3e-4). N = 300 leaves a
// 12-column last segment. The GEMM (W N×K and K×N), the GEMV's dot products
// (5 rows, W N×K, statistics swept from C) and its row sweeps (1 row, K×N):
// RUN: norm-run %s --entry=mm_ln_t --dims=50,200,300,200,300,50,300,300,300 --seed=34 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln_t --dims=5,200,300,200,300,5,300,300,300 --seed=35 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @mm_ln (f32, W as KxN, residual, sum output):
//   a: RxK, w: KxN, mb: N, r: RxN, g, b: N, y, s: RxN    R,K, K,N, N, R,N, N, N, R,N, R,N
// RUN: norm-run %s --entry=mm_ln --dims=37,200,200,300,300,37,300,300,300,37,300,37,300 --seed=36 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln --dims=1,200,200,300,300,1,300,300,300,1,300,1,300 --seed=37 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_ln --dims=23,1000,1000,4000,4000,23,4000,4000,4000,23,4000,23,4000 --seed=38 --mean=-3 --dist=normal --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// N ≤ 256 (one column chunk holds whole rows): each row block is normalized
// in the GEMM's epilogue, after its last K block (several row blocks, K
// blocks and f16 partial sums below):
// RUN: norm-run %s --entry=mm_ln --dims=400,200,200,250,250,400,250,250,250,400,250,400,250 --seed=39 --mean=1000 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=mm_rms --dims=300,513,513,200,200,300,200,200,300,200,300,200 --seed=25 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline={{project|upstream}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|2e-03|1e-02}} PASS{{$}}

func.func @rms_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                  %mb: memref<?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) matmul_bias(%mb : memref<?xf32>)
      outs(%c : memref<?x?xf32>)
  return
}

func.func @rms_mm_offset(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) {weight_offset = 1.0 : f32}
  return
}

func.func @ln_mm_offset_t(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) {weight_offset = 0.5 : f32, transpose_rhs}
  return
}

func.func @ln_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                 %w: memref<?x?xf32>, %mb: memref<?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      matmul_bias(%mb : memref<?xf32>) outs(%c : memref<?x?xf32>)
  return
}

func.func @ln_mm_t(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>,
                   %w: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %w, %c0 : tensor<?x?xbf16>
  %e = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %c = norm.layer_norm_matmul ins(%x : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>)
      bias(%b : tensor<?xbf16>) rhs(%w : tensor<?x?xbf16>)
      outs(%e : tensor<?x?xbf16>) {transpose_rhs} -> tensor<?x?xbf16>
  return %c : tensor<?x?xbf16>
}

func.func @mm_rms(%a: memref<?x?xf16>, %w: memref<?x?xf16>, %mb: memref<?xf16>,
                  %res: memref<?x?xf16>, %g: memref<?xf16>, %y: memref<?x?xf16>,
                  %s: memref<?x?xf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf16>) rhs(%w : memref<?x?xf16>)
      matmul_bias(%mb : memref<?xf16>) residual(%res : memref<?x?xf16>)
      weight(%g : memref<?xf16>) outs(%y : memref<?x?xf16>)
      sum_outs(%s : memref<?x?xf16>) {weight_offset = 1.0 : f32}
  return
}

func.func @mm_ln(%a: memref<?x?xf32>, %w: memref<?x?xf32>, %mb: memref<?xf32>,
                 %res: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                 %y: memref<?x?xf32>, %s: memref<?x?xf32>) {
  norm.matmul_layer_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      matmul_bias(%mb : memref<?xf32>) residual(%res : memref<?x?xf32>)
      weight(%g : memref<?xf32>) bias(%b : memref<?xf32>)
      outs(%y : memref<?x?xf32>) sum_outs(%s : memref<?x?xf32>)
  return
}

func.func @mm_ln_t(%a: tensor<?x?xf32>, %w: tensor<?x?xf32>, %mb: tensor<?xf32>,
                   %res: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %r = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c0 : tensor<?x?xf32>
  %e0 = tensor.empty(%r, %n) : tensor<?x?xf32>
  %e1 = tensor.empty(%r, %n) : tensor<?x?xf32>
  %y, %s = norm.matmul_layer_norm ins(%a : tensor<?x?xf32>) rhs(%w : tensor<?x?xf32>)
      matmul_bias(%mb : tensor<?xf32>) residual(%res : tensor<?x?xf32>)
      weight(%g : tensor<?xf32>) bias(%b : tensor<?xf32>)
      outs(%e0 : tensor<?x?xf32>) sum_outs(%e1 : tensor<?x?xf32>) {transpose_rhs}
      -> tensor<?x?xf32>, tensor<?x?xf32>
  return %y, %s : tensor<?x?xf32>, tensor<?x?xf32>
}
