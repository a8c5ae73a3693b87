// REQUIRES: norm-jit, avx512bf16
// The fused GEMM on AVX512-BF16 dot products (vdpbf16ps, gemm-bf16-dot):
// bf16 A and W packed as k-pairs, Ã holding round(x·γ') (LayerNorm
// round((x − p)·γ')), W as it is, f32 accumulation; checked against the
// float64 reference and against the same op with the dot products off (f32
// FMA micro-kernel). Shapes cover odd K
// (the last pair has a zero partner), several K blocks, column chunks and
// row tiles with tails, and rows below the GEMV limit with the GEMV off.
//
// @rms_mm (γ, W as KxN, bias): x: RxK, g: K, w: KxN, mb: N, c: RxN
//                                                    R,K, K, K,N, N, R,N
// RUN: norm-run %s --entry=rms_mm --dims=40,300,300,300,50,50,40,50 --seed=1 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=203,701,701,701,530,530,203,530 --seed=2 --mean=0.3 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=1,33,33,33,20,20,1,20 --seed=3 --dist=normal --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={gemm-gemv-rows=-1}})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm --dims=37,515,515,515,97,97,37,97 --seed=4 --mean=2 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={gemm-bf16-dot=false}})' | FileCheck %s --check-prefix=CMP
//
// @rms_mm_gemma_t (Gemma's 1 + γ, W as NxK): x: RxK, g: K, w: NxK, c: RxN
//                                                       R,K, K, N,K, R,N
// RUN: norm-run %s --entry=rms_mm_gemma_t --dims=40,301,301,50,301,40,50 --seed=5 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_gemma_t --dims=130,700,700,530,700,130,530 --seed=6 --scale=0.5 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2})' | FileCheck %s
// The GEMV on vdpbf16ps (W read as it is, Ã = round(x·(1 + γ))): a few
// rows with a K tail of 13 (W's masked loads), one row over several K
// blocks, two threads:
// RUN: norm-run %s --entry=rms_mm_gemma_t --dims=6,301,301,50,301,6,50 --seed=10 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_gemma_t --dims=1,1037,1037,70,1037,1,70 --seed=11 --mean=1 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2})' | FileCheck %s
// RUN: norm-run %s --entry=rms_mm_gemma_t --dims=5,47,47,33,47,5,33 --seed=7 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={gemm-gemv-rows=-1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={gemm-bf16-dot=false gemm-gemv-rows=-1}})' | FileCheck %s --check-prefix=CMP
//
// @res_rms_mm_t (no γ, residual, S returned, W as NxK): x, r: RxK, w: NxK, c: RxN, s: RxK
//                                                     R,K, R,K, N,K, R,N, R,K
// RUN: norm-run %s --entry=res_rms_mm_t --dims=64,513,64,513,96,513,64,96,64,513 --seed=8 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
//
// @ln_mm (LayerNorm, γ, β, W as KxN; c = Σγ'W and Σβ·W summed in f32 from
// W beside the pair packing; rows with |mean| ≈ 10²–10³·std):
//   x: RxK, g, b: K, w: KxN, c: RxN                     R,K, K, K, K,N, R,N
// RUN: norm-run %s --entry=ln_mm --dims=40,530,530,530,530,270,40,270 --seed=12 --mean=100 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
// RUN: norm-run %s --entry=ln_mm --dims=150,701,701,701,701,530,150,530 --seed=13 --mean=1000 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={gemm-bf16-dot=false}})' --compare-tol=2e-2 | FileCheck %s --check-prefix=CMP
// @ln_mm_t (the same, W as NxK: c and Σβ·W as dot products along W's rows):
//   x: RxK, g, b: K, w: NxK, c: RxN                     R,K, K, K, N,K, R,N
// RUN: norm-run %s --entry=ln_mm_t --dims=33,301,301,301,70,301,33,70 --seed=14 --mean=-50 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s
// RUN: norm-run %s --entry=ln_mm_t --dims=130,1030,1030,1030,300,1030,130,300 --seed=15 --mean=1000 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2})' | FileCheck %s
//
// @mm_rms (matmul → norm: the plain GEMM of A and W on dot products, then
// the norm of A·W + bias + residual):
//   a: RxK, w: KxN, mb: N, r: RxN, g: N, y, s: RxN     R,K, K,N, N, R,N, N, R,N, R,N
// RUN: norm-run %s --entry=mm_rms --dims=29,301,301,270,270,29,270,270,29,270,29,270 --seed=9 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16})' | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline=custom threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-02|1e-06|2e-03}} PASS{{$}}
// CMP: rel_err={{[0-9.e+-]+}} tol=1e-02 PASS cmp_pipeline=custom {{.*}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=2e-02 PASS{{$}}

func.func @rms_mm(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>,
                  %mb: memref<?xbf16>, %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) matmul_bias(%mb : memref<?xbf16>)
      outs(%c : memref<?x?xbf16>)
  return
}

func.func @rms_mm_gemma_t(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>,
                          %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
      {weight_offset = 1.0 : f32, transpose_rhs}
  return
}

func.func @res_rms_mm_t(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                        %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>) {transpose_rhs}
  return
}

func.func @mm_rms(%a: memref<?x?xbf16>, %w: memref<?x?xbf16>, %mb: memref<?xbf16>,
                  %res: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>,
                  %s: memref<?x?xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xbf16>) rhs(%w : memref<?x?xbf16>)
      matmul_bias(%mb : memref<?xbf16>) residual(%res : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>)
  return
}

func.func @ln_mm(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>,
                 %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) rhs(%w : memref<?x?xbf16>)
      outs(%c : memref<?x?xbf16>)
  return
}

func.func @ln_mm_t(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>,
                   %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) rhs(%w : memref<?x?xbf16>)
      outs(%c : memref<?x?xbf16>) {transpose_rhs}
  return
}

