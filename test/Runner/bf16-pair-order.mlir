// REQUIRES: norm-jit
// bf16 rows in pair order on AVX2 (docs/design.md, "bf16 rows in pair
// order"): against the float64 reference (--check), and against the same
// kernels with natural-order vectors (bf16-pair-order=false), which must
// give the same bits: the tolerance 1e-12 is below one bf16 ulp of a
// single element of these rows, and the statistics (rstd, mean) are
// compared too. Rows not a multiple of 16 (masked tails), mid-size rows
// threaded, and streaming stores (masked alignment heads).
//
// @rms (residual, sum and rstd outputs):  R,N  R,N  N  R,N  R,N  R
// @ln (γ, β, mean and rstd outputs):      R,N  N  N  R,N  R  R
// @ln_early (cast before the weight, weight offset): R,N  N  N  R,N
//
// RUN: norm-run %s --entry=rms --dims=37,4103,37,4103,4103,37,4103,37,4103,37 --seed=1 --target=avx2 --warmup=0 --repeat=1 --check --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={bf16-pair-order=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=rms --dims=70,1000,70,1000,1000,70,1000,70,1000,70 --seed=2 --mean=3 --target=avx2 --threads=2 --warmup=0 --repeat=1 --check --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 num-threads=2 vector-options={bf16-pair-order=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=37,4103,4103,4103,37,4103,37,37 --seed=3 --mean=100 --target=avx2 --warmup=0 --repeat=1 --check --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={bf16-pair-order=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=19,333,333,333,19,333,19,19 --seed=4 --dist=normal --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1 bf16-pair-order=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln_early --dims=13,2050,2050,2050,13,2050 --seed=5 --mean=-2 --scale=3 --target=avx2 --warmup=0 --repeat=1 --check --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={bf16-pair-order=false}})' --compare-tol=1e-12 | FileCheck %s
// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline={{project|custom}} {{.*}} PASS cmp_pipeline=custom {{.*}} cmp_tol=1e-12 PASS{{$}}

func.func @rms(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>,
               %y: memref<?x?xbf16>, %s: memref<?x?xbf16>,
               %rstd: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      sum_outs(%s : memref<?x?xbf16>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>,
              %y: memref<?x?xbf16>, %mean: memref<?xf32>,
              %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_early(%x: memref<?x?xbf16>, %g: memref<?xbf16>,
                    %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
      {cast_mode = #norm.cast_mode<before_weight>, weight_offset = 1.0 : f32}
  return
}
