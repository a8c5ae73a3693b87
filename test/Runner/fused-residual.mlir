// REQUIRES: norm-jit
// norm → matmul with a residual add (the residual-add → norm → matmul chain
// of a pre-norm block): C = norm(round(X + R)) · W, with S = round(X + R)
// returned, checked against the float64 reference (C within the fused
// tolerance, S within the norm tolerance).
//
// @res_rms_mm (f32): x, r: RxK, g: K, w: KxN, c: RxN, s: RxK
//                                                   R,K, R,K, K, K,N, R,N, R,K
// RUN: norm-run %s --entry=res_rms_mm --dims=5,33,5,33,33,33,20,5,20,5,33 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// Several K blocks and column chunks (every chunk packs A, only the first
// writes S), two threads, M = 1, and the upstream lowering of the op:
// RUN: norm-run %s --entry=res_rms_mm --dims=203,700,203,700,700,700,530,203,530,203,700 --seed=2 --mean=0.3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm --dims=1,1100,1,1100,1100,1100,600,1,600,1,1100 --seed=3 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// N = 0: no columns, but S is still written (and checked: tol 1e-06).
// RUN: norm-run %s --entry=res_rms_mm --dims=5,33,5,33,33,33,0,5,0,5,33 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm --dims=7,40,7,40,40,40,9,7,9,7,40 --seed=4 --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=res_rms_mm --dims=20,300,20,300,300,300,530,20,530,20,300 --seed=10 --warmup=0 --repeat=1 --check --compare-pipeline=upstream | FileCheck %s --check-prefix=CMP
// CMP: rel_err={{[0-9.e+-]+}} tol=1e-05 PASS cmp_pipeline=upstream {{.*}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=1e-04 PASS{{$}}
//
// @res_ln_mm (f32, no S output): x, r: RxK, g, b: K, w: KxN -> c: RxN;
// rows with |mean| = 10^4·std after the add.
//                                                  R,K, R,K, K, K, K,N, R,N
// RUN: norm-run %s --entry=res_ln_mm --dims=29,520,29,520,520,520,520,300,29,300 --seed=5 --mean=5000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_ln_mm --dims=64,300,64,300,300,300,300,270,64,270 --seed=6 --mean=-3 --dist=normal --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @res_ln_mm_t (bf16, tensor form, W as NxK, returns (C, S)): the sum is
// rounded to bf16 before it is normalized.
//                                                    R,K, R,K, K, K, N,K
// RUN: norm-run %s --entry=res_ln_mm_t --dims=6,40,6,40,40,40,24,40 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=res_ln_mm_t --dims=40,530,40,530,530,530,270,530 --seed=8 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @res_rms_mm_f16 (f16, Gemma offset, returns S): x, r: RxK, g: K, w: KxN, c: RxN, s: RxK
// RUN: norm-run %s --entry=res_rms_mm_f16 --dims=13,300,13,300,300,300,40,13,40,13,300 --seed=9 --scale=0.5 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline={{project|upstream}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-06|2e-03|1e-02}} PASS{{$}}

func.func @res_rms_mm(%x: memref<?x?xf32>, %r: memref<?x?xf32>, %g: memref<?xf32>,
                      %w: memref<?x?xf32>, %c: memref<?x?xf32>, %s: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) residual(%r : memref<?x?xf32>)
      weight(%g : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) sum_outs(%s : memref<?x?xf32>)
  return
}

func.func @res_ln_mm(%x: memref<?x?xf32>, %r: memref<?x?xf32>, %g: memref<?xf32>,
                     %b: memref<?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) residual(%r : memref<?x?xf32>)
      weight(%g : memref<?xf32>) bias(%b : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      outs(%c : memref<?x?xf32>)
  return
}

func.func @res_ln_mm_t(%x: tensor<?x?xbf16>, %r: tensor<?x?xbf16>, %g: tensor<?xbf16>,
                       %b: tensor<?xbf16>, %w: tensor<?x?xbf16>)
    -> (tensor<?x?xbf16>, tensor<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %k = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %n = tensor.dim %w, %c0 : tensor<?x?xbf16>
  %e = tensor.empty(%rows, %n) : tensor<?x?xbf16>
  %es = tensor.empty(%rows, %k) : tensor<?x?xbf16>
  %c, %s = norm.layer_norm_matmul ins(%x : tensor<?x?xbf16>) residual(%r : tensor<?x?xbf16>)
      weight(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>) rhs(%w : tensor<?x?xbf16>)
      outs(%e : tensor<?x?xbf16>) sum_outs(%es : tensor<?x?xbf16>) {transpose_rhs}
      -> tensor<?x?xbf16>, tensor<?x?xbf16>
  return %c, %s : tensor<?x?xbf16>, tensor<?x?xbf16>
}

func.func @res_rms_mm_f16(%x: memref<?x?xf16>, %r: memref<?x?xf16>, %g: memref<?xf16>,
                          %w: memref<?x?xf16>, %c: memref<?x?xf16>, %s: memref<?x?xf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf16>) residual(%r : memref<?x?xf16>)
      weight(%g : memref<?xf16>) rhs(%w : memref<?x?xf16>)
      outs(%c : memref<?x?xf16>) sum_outs(%s : memref<?x?xf16>) {weight_offset = 1.0 : f32}
  return
}
