// REQUIRES: norm-jit
// matmul → norm ops with f32 A and W and a bf16 or f16 output
// (docs/design.md, "Mixed element types in the fused ops"; issue 26 item
// 2): S = A·W in f32, rounded once to the output's type, statistics in f32
// over the rounded S, Y rounded once. Checked against the float64
// reference at the output's tolerance (bf16 1e-2, f16 2e-3).
//
// The fused ops written as such (memrefs, dynamic sizes): small, several K
// blocks and N wider than one column chunk (normalized after the GEMM), the
// GEMV (a few rows), per head; without the AVX-512 BF16 instructions too.
// @mm_rms_bf16(a: RxK f32, w: KxN f32, res: RxN bf16, g: N bf16, y: RxN bf16, s: RxN bf16)
// RUN: norm-run %s --entry=mm_rms_bf16 --dims=8,40,40,24,8,24,24,8,24,8,24 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=mm_rms_bf16 --dims=70,600,600,1100,70,1100,1100,70,1100,70,1100 --seed=12 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=mm_rms_bf16 --dims=3,300,300,130,3,130,130,3,130,3,130 --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=mm_rms_bf16 --dims=33,200,200,70,33,70,70,33,70,33,70 --seed=14 --target=avx2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// @mm_ln_f16(a: RxK f32, w: NxK f32, g: N f32, b: N f32, y: RxN f16)
// RUN: norm-run %s --entry=mm_ln_f16 --dims=6,64,20,64,20,20,6,20 --seed=15 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=mm_ln_f16 --dims=90,520,700,520,700,700,90,700 --seed=16 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// @mm_qk_bf16(a: RxK f32, w: 128xK f32, g: 32 bf16, y: Rx128 bf16)
// RUN: norm-run %s --entry=mm_qk_bf16 --dims=10,64,64,10 --seed=17 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=mm_qk_bf16 --dims=2,256,256,2 --seed=18 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
//
// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project {{.*}} rel_err={{[0-9.e+-]+}}
// BF16-SAME: tol=1e-02 PASS{{$}}
// F16-SAME: tol=2e-03 PASS{{$}}

func.func @mm_rms_bf16(%a: memref<?x?xf32>, %w: memref<?x?xf32>,
                       %res: memref<?x?xbf16>, %g: memref<?xbf16>,
                       %y: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      residual(%res : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      outs(%y : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
  return
}

func.func @mm_ln_f16(%a: memref<?x?xf32>, %w: memref<?x?xf32>,
                     %g: memref<?xf32>, %b: memref<?xf32>,
                     %y: memref<?x?xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x?xf32>)
      weight(%g : memref<?xf32>) bias(%b : memref<?xf32>)
      outs(%y : memref<?x?xf16>) {transpose_rhs}
  return
}

func.func @mm_qk_bf16(%a: memref<?x?xf32>, %w: memref<128x?xf32>,
                      %g: memref<32xbf16>, %y: memref<?x128xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<128x?xf32>)
      weight(%g : memref<32xbf16>) outs(%y : memref<?x128xbf16>)
      {transpose_rhs, head_dim = 32 : i64}
  return
}
