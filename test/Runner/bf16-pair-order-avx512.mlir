// REQUIRES: norm-jit, avx512bf16
// Plain bf16 rows on AVX-512 in pair order, 32 lanes (docs/design.md, "bf16
// rows in pair order"): against the float64 reference (--check), and
// against the same kernels in natural order (bf16-pair-order=false, 16
// lanes), every result and argument buffer (y, the residual sum, the
// statistics outputs). y is rounded as natural order rounds it
// (vcvtne2ps2bf16 on avx512-bf16, the integer rounding on avx512), but the
// statistics sum 32-lane vectors where natural order sums 16-lane ones: they
// may differ in the last bit, and so may a y at a rounding boundary (seen:
// relative error up to 4e-5 of the whole buffer; the tolerance 2e-4 is far
// below the reference's 1e-2). Bit equality of the rounding itself is
// test/Integration/CPU/bf16-pair-order-avx512.mlir's. Rows not a multiple
// of 32 (masked tails), 1 and 2 threads, streaming stores (masked
// alignment heads, the two-sweep rows of 16 KiB).
//
// @rms (residual, sum and rstd outputs):  R,N  R,N  N  R,N  R,N  R
// @ln (γ, β, mean and rstd outputs):      R,N  N  N  R,N  R  R
// @ln_early (cast before the weight, weight offset): R,N  N  N  R,N
//
// RUN: norm-run %s --entry=rms --dims=37,4103,37,4103,4103,37,4103,37,4103,37 --seed=1 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=rms --dims=37,4103,37,4103,4103,37,4103,37,4103,37 --seed=1 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512 vector-options={}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512 vector-options={bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=rms --dims=70,1000,70,1000,1000,70,1000,70,1000,70 --seed=2 --mean=3 --threads=2 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=37,4103,4103,4103,37,4103,37,37 --seed=3 --mean=100 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=19,333,333,333,19,333,19,19 --seed=4 --dist=normal --threads=2 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1 bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=64,8192,8192,8192,64,8192,64,64 --seed=6 --threads=2 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1 bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// RUN: norm-run %s --entry=ln_early --dims=13,2050,2050,2050,13,2050 --seed=5 --mean=-2 --scale=3 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={bf16-pair-order=false}})' --compare-tol=2e-4 | FileCheck %s
// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline=custom {{.*}} PASS cmp_pipeline=custom {{.*}} cmp_tol=2e-04 PASS{{$}}

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
