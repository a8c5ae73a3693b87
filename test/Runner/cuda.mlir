// REQUIRES: cuda-gpu, norm-jit
// norm-run --target=cuda: norm ops compiled by norm-lower-to-nvvm (after
// bufferization), run on the GPU on managed-memory buffers and checked by
// --check against the float64 reference: RMSNorm and LayerNorm in f32 and
// bf16 (memref and tensor form, with residual, sum and statistics outputs),
// and the tensor-core fused RMSNorm/LayerNorm → matmul in bf16 (W as K×N
// and as N×K). Fatbin for sm_90 by default; one run each through PTX
// JIT-compiled for sm_80, and against the CPU baseline.
//
// @rms_f32(x: ?x?, g: ?, y: ?x?):                      R,N, N, R,N
// RUN: norm-run %s --entry=rms_f32 --dims=64,1024,1024,64,1024 --target=cuda --seed=1 --mean=0.5 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_f32 --dims=5,1001,1001,5,1001 --target=cuda --seed=2 --dist=normal --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_f32 --dims=3,65536,65536,3,65536 --target=cuda --seed=3 --mean=-2 --warmup=0 --repeat=2 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_f32 --dims=33,1000,1000,33,1000 --target=cuda --chip=sm_80 --gpu-format=isa --seed=4 --check | FileCheck %s --check-prefix=SM80
// RUN: norm-run %s --entry=rms_f32 --dims=16,4096,4096,16,4096 --target=cuda --seed=5 --check --compare-pipeline=upstream | FileCheck %s --check-prefix=CMP
//
// @rms_bf16(x, r: ?x?, g: ?, y, s: ?x?, rstd: ?):      R,N, R,N, N, R,N, R,N, R
// RUN: norm-run %s --entry=rms_bf16 --dims=16,4096,16,4096,4096,16,4096,16,4096,16 --target=cuda --seed=11 --mean=1 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_bf16 --dims=7,100,7,100,100,7,100,7,100,7 --target=cuda --seed=12 --check | FileCheck %s --check-prefix=SM90
//
// @rms_t(x: ?x?xf32, g: ?xf32) -> ?x?xf32 (tensor form: the result is
// allocated by the function, as managed memory):        R,N, N
// RUN: norm-run %s --entry=rms_t --dims=9,300,300 --target=cuda --seed=21 --check | FileCheck %s --check-prefix=SM90
//
// @ln_f32(x: ?x?, g, b: ?, y: ?x?, mean, rstd: ?):     R,N, N, N, R,N, R, R
// RUN: norm-run %s --entry=ln_f32 --dims=64,768,768,768,64,768,64,64 --target=cuda --seed=31 --mean=100 --scale=0.5 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=ln_f32 --dims=4,70000,70000,70000,4,70000,4,4 --target=cuda --seed=32 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=SM90
//
// @ln_stats_t(x, r: ?x?xbf16, g, b: ?xbf16) -> (y, sum, mean, rstd):
//                                                       R,N, R,N, N, N
// RUN: norm-run %s --entry=ln_stats_t --dims=32,2048,32,2048,2048,2048 --target=cuda --seed=41 --mean=1 --scale=2 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=ln_stats_t --dims=5,77,5,77,77,77 --target=cuda --chip=sm_80 --gpu-format=isa --seed=42 --check | FileCheck %s --check-prefix=SM80
//
// @rms_mm_bf16(x: RxK, g: K, w: KxN, c: RxN):          R,K, K, K,N, R,N
// RUN: norm-run %s --entry=rms_mm_bf16 --dims=64,256,256,256,128,64,128 --target=cuda --seed=51 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_mm_bf16 --dims=70,1000,1000,1000,300,70,300 --target=cuda --seed=52 --mean=0.5 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=rms_mm_bf16 --dims=1,520,520,520,200,1,200 --target=cuda --chip=sm_80 --gpu-format=isa --seed=53 --check | FileCheck %s --check-prefix=SM80
//
// @ln_mm_t_bf16(x: RxK, g, b: K, w: NxK) -> RxN (tensor form, W as N×K):
//                                                       R,K, K, K, N,K
// RUN: norm-run %s --entry=ln_mm_t_bf16 --dims=64,768,768,768,256,768 --target=cuda --seed=61 --check | FileCheck %s --check-prefix=SM90
// RUN: norm-run %s --entry=ln_mm_t_bf16 --dims=5,1000,1000,1000,300,1000 --target=cuda --seed=62 --mean=3 --check | FileCheck %s --check-prefix=SM90

// SM90: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project target=cuda chip=sm_90 threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{.*}} PASS{{$}}
// SM80: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project target=cuda chip=sm_80 threads=0 bytes={{[0-9]+}} {{.*}} PASS{{$}}
// CMP: {{^}}norm-run: entry=rms_f32 pipeline=project target=cuda chip=sm_90 threads=0 {{.*}} PASS cmp_pipeline=upstream {{.*}} PASS{{$}}

func.func @rms_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xf32>) {epsilon = 1.0e-05 : f32}
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

func.func @rms_t(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%r, %n) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @ln_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                  %y: memref<?x?xf32>, %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_stats_t(%x: tensor<?x?xbf16>, %res: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>)
    -> (tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %e0 = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %e1 = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %e2 = tensor.empty(%r) : tensor<?xf32>
  %e3 = tensor.empty(%r) : tensor<?xf32>
  %y, %s, %mean, %rstd = norm.layer_norm ins(%x : tensor<?x?xbf16>)
      residual(%res : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>)
      outs(%e0 : tensor<?x?xbf16>) sum_outs(%e1 : tensor<?x?xbf16>)
      mean_outs(%e2 : tensor<?xf32>) rstd_outs(%e3 : tensor<?xf32>)
      -> tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y, %s, %mean, %rstd : tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
}

func.func @rms_mm_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>,
                       %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
  return
}

func.func @ln_mm_t_bf16(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>,
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
