// REQUIRES: norm-jit, avx512bf16
// Streamed bf16 rows on AVX-512: y written with vmovntdq
// (norm-x86-nontemporal-stores), and rows longer than 2 KiB of x not
// pipelined when streamed (RowKernel.cpp, limitsPipelinedRows). Against
// the float64 reference (--check), and against the same row scheme
// without streaming stores (streaming-threshold=-1; pipeline-rows=false
// for the long rows, which then take two sweeps too), which must give the
// same bits (tolerance 1e-12, below one bf16 ulp; the statistics outputs
// are compared too). RMSNorm with a residual (and its sum output),
// LayerNorm, before_weight rounding; rows not a multiple of 16 (masked
// alignment heads and tails), rows of 4096·k bytes, and 1000-wide rows
// (2000 bytes: still pipelined); native rounding (avx512-bf16) and
// integer rounding (avx512, whose y is a truncating store); 1 and 2
// threads.
//
// @rms (residual, sum and rstd outputs):  R,N  R,N  N  R,N  R,N  R
// @ln (γ, β, mean and rstd outputs):      R,N  N  N  R,N  R  R
// @ln_early (cast before the weight, weight offset): R,N  N  N  R,N
//
// RUN: norm-run %s --entry=rms --dims=37,4103,37,4103,4103,37,4103,37,4103,37 --seed=1 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=-1 pipeline-rows=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=rms --dims=64,8192,64,8192,8192,64,8192,64,8192,64 --seed=2 --mean=3 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=-1 pipeline-rows=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=37,4103,4103,4103,37,4103,37,37 --seed=3 --mean=100 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=-1 pipeline-rows=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln --dims=70,8192,8192,8192,70,8192,70,70 --seed=4 --dist=normal --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=-1 pipeline-rows=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=ln_early --dims=13,2050,2050,2050,13,2050 --seed=5 --mean=-2 --scale=3 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512-bf16 vector-options={streaming-threshold=-1 pipeline-rows=false}})' --compare-tol=1e-12 | FileCheck %s
// RUN: norm-run %s --entry=rms --dims=19,1000,19,1000,1000,19,1000,19,1000,19 --seed=6 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=-1}})' --compare-tol=1e-6 | FileCheck %s --check-prefix=SHORT
// RUN: norm-run %s --entry=ln --dims=19,1000,1000,1000,19,1000,19,19 --seed=7 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=avx512 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx512 vector-options={streaming-threshold=-1}})' --compare-tol=1e-6 | FileCheck %s --check-prefix=SHORT
// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline=custom {{.*}} PASS cmp_pipeline=custom {{.*}} cmp_tol=1e-12 PASS{{$}}
// The 1000-wide rows stay pipelined, and a streamed pipelined sweep begins
// the next row's sum with the alignment head's masked vector: the f32 sums
// group differently, so rstd may differ in its last bit (2.2e-8 here) while
// y is the same; hence 1e-6.
// SHORT: {{^}}norm-run: entry={{[a-z_]+}} pipeline=custom {{.*}} PASS cmp_pipeline=custom {{.*}} cmp_tol=1e-06 PASS{{$}}

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
