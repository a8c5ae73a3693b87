// REQUIRES: norm-jit
// cast_mode and pRMSNorm on the fused norm → matmul ops (issue 26 item 7),
// run through the project pipeline: against the float64 reference (which
// rounds the normalized activations where cast_mode says and takes the
// statistics over the first ⌈p·K⌉ columns) and against the op's own
// decomposition (--compare-pipeline=upstream) at 1e-3, far below one bf16
// ulp (3.9e-3): the CPU kernel rounds exactly where the decomposition does
// (measured: 0). The packed GEMM (many rows) and the GEMV (few), with and
// without the AVX512-BF16 dot products (--target=avx2).
//
// @gemma(x: RxK bf16, g: K f32, w: NxK bf16, c: RxN bf16): Gemma's order
// RUN: norm-run %s --entry=gemma --dims=7,96,96,40,96,7,40 --seed=301 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=gemma --dims=70,300,300,130,300,70,130 --seed=302 --threads=2 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=gemma --dims=70,300,300,130,300,70,130 --seed=303 --target=avx2 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// @llama(x: RxK bf16, r: RxK bf16, g: K bf16, w: KxN bf16, c: RxN bf16, s: RxK bf16): Llama's order with a residual
// RUN: norm-run %s --entry=llama --dims=3,64,3,64,64,64,24,3,24,3,64 --seed=304 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=llama --dims=90,520,90,520,520,520,200,90,200,90,520 --seed=305 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// @ln(x: RxK f16, g: K f16, b: K f16, w: KxN f16, c: RxN f16): LayerNorm, before_weight
// RUN: norm-run %s --entry=ln --dims=5,48,48,48,48,16,5,16 --seed=306 --mean=2 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=ln --dims=70,300,300,300,300,130,70,130 --seed=307 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,F16
// @prms(x: RxK f32, g: K f32, w: KxN f32, c: RxN f32): pRMSNorm, p = 0.25 (k = ⌈0.25·K⌉)
// RUN: norm-run %s --entry=prms --dims=9,100,100,100,24,9,24 --seed=308 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=prms --dims=80,301,301,301,130,80,130 --seed=309 --mean=0.5 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefixes=CHECK,F32
// @prms_bf16(x: RxK bf16, g: K bf16, w: NxK bf16, c: RxN bf16): pRMSNorm in Llama's order
// RUN: norm-run %s --entry=prms_bf16 --dims=2,128,128,64,128,2,64 --seed=310 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=prms_bf16 --dims=40,200,200,72,200,40,72 --seed=311 --warmup=0 --repeat=1 --check --compare-pipeline=upstream --compare-tol=1e-3 | FileCheck %s --check-prefixes=CHECK,BF16

// BF16: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS cmp_pipeline=upstream {{.*}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=1e-03 PASS{{$}}
// F16: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=2e-03 PASS cmp_pipeline=upstream {{.*}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=1e-03 PASS{{$}}
// F32: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-05 PASS cmp_pipeline=upstream {{.*}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=1e-05 PASS{{$}}
// CHECK-NOT: FAIL

func.func @gemma(%x: memref<?x?xbf16>, %g: memref<?xf32>, %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>) rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) {cast_mode = #norm.cast_mode<after_weight>, weight_offset = 1.0 : f32, transpose_rhs}
  return
}
func.func @llama(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>) weight(%g : memref<?xbf16>) rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}
func.func @ln(%x: memref<?x?xf16>, %g: memref<?xf16>, %b: memref<?xf16>, %w: memref<?x?xf16>, %c: memref<?x?xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf16>) weight(%g : memref<?xf16>) bias(%b : memref<?xf16>) rhs(%w : memref<?x?xf16>) outs(%c : memref<?x?xf16>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}
func.func @prms(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) rhs(%w : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {partial = 0.25 : f32}
  return
}
func.func @prms_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) {cast_mode = #norm.cast_mode<before_weight>, partial = 0.3 : f32, transpose_rhs}
  return
}
