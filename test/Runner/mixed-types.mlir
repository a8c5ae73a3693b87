// REQUIRES: norm-jit
// Randomized execution of the norms with mixed element types (f32 γ/β with
// f16/bf16 x, f32 results from 16-bit inputs), each checked by
// norm-run --check against the float64 reference, which rounds where
// docs/design.md "Mixed element types" says: after_weight rounds once, to
// the result type; before_weight rounds the normalized value to x's type and
// applies the f32 γ without rounding it.
//
// @rms_gemma (bf16 x, f32 γ, 1 + γ, bf16 y; Gemma):     R,N, N, R,N
// RUN: norm-run %s --entry=rms_gemma --dims=4,64,64,4,64 --seed=101 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=rms_gemma --dims=7,1031,1031,7,1031 --seed=102 --mean=0.5 --scale=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
//
// @rms_llama (bf16 x, f32 γ, f32 y, before_weight; HF Llama):  R,N, N, R,N
// RUN: norm-run %s --entry=rms_llama --dims=5,128,128,5,128 --seed=111 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=rms_llama --dims=3,4099,4099,3,4099 --seed=112 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
//
// @rms_f16_f32 (f16 x, residual, f32 γ, f32 y, sum, rstd):
//   x, r: ?x?, g: ?, y, s: ?x?, rstd: ?                 R,N, R,N, N, R,N, R,N, R
// RUN: norm-run %s --entry=rms_f16_f32 --dims=6,33,6,33,33,6,33,6,33,6 --seed=121 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=rms_f16_f32 --dims=4,2048,4,2048,2048,4,2048,4,2048,4 --seed=122 --mean=-1 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
//
// @ln_f16 (f16 x, f32 γ and β, f32 y, mean and rstd):  R,N, N, N, R,N, R, R
// RUN: norm-run %s --entry=ln_f16 --dims=5,77,77,77,5,77,5,5 --seed=131 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=ln_f16 --dims=3,1000,1000,1000,3,1000,3,3 --seed=132 --mean=100 --scale=0.5 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
//
// @ln_bf16 (bf16 x, f32 γ and β, bf16 y, before_weight):  R,N, N, N, R,N
// RUN: norm-run %s --entry=ln_bf16 --dims=4,96,96,96,4,96 --seed=141 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=ln_bf16 --dims=2,513,513,513,2,513 --seed=142 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16

// F32: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol=1e-06 PASS{{$}}
// F16: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-06|2e-03}} PASS{{$}}
// BF16: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}
// CHECK-NOT: FAIL

func.func @rms_gemma(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xbf16>) {weight_offset = 1.0 : f32}
  return
}

func.func @rms_llama(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xf32>)
      {cast_mode = #norm.cast_mode<before_weight>}
  return
}

func.func @rms_f16_f32(%x: memref<?x?xf16>, %r: memref<?x?xf16>, %g: memref<?xf32>,
                       %y: memref<?x?xf32>, %s: memref<?x?xf16>, %rstd: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf16>) residual(%r : memref<?x?xf16>)
      weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
      sum_outs(%s : memref<?x?xf16>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_f16(%x: memref<?x?xf16>, %g: memref<?xf32>, %b: memref<?xf32>,
                  %y: memref<?x?xf32>, %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

func.func @ln_bf16(%x: memref<?x?xbf16>, %g: memref<?xf32>, %b: memref<?xf32>,
                   %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) outs(%y : memref<?x?xbf16>)
      {cast_mode = #norm.cast_mode<before_weight>}
  return
}
