// REQUIRES: norm-jit
// Per-head matmul → norm (QK-norm, `head_dim`) against the float64
// reference: each row of S = A·W is N / D heads of D columns, each
// normalized on its own with γ (β) of shape [D] (tolerance 1e-5 f32, 1e-2
// bf16).
//
// @q_rms (f32, W K×N, N = 4·64): a: MxK, w: Kx256, g: 64, y: Mx256    M,K, K, M
// N ≤ 256: each row block is normalized in the GEMM's epilogue; M = 1 and
// 5 take the GEMV (row sweeps; dot products sweep C for the statistics).
// RUN: norm-run %s --entry=q_rms --dims=37,300,300,37 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_rms --dims=1,96,96,1 --seed=2 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_rms --dims=203,520,520,203 --seed=3 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
//
// @k_rms_wide (f32, W N×K, N = 8·128 > 256: normalized after the GEMM):
//   a: MxK, w: 1024xK, g: 128, y: Mx1024                           M,K, K, M
// RUN: norm-run %s --entry=k_rms_wide --dims=29,200,200,29 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=k_rms_wide --dims=5,64,64,5 --seed=5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @q_rms_bf16 (bf16, W N×K as PyTorch's Linear, tensor form, D = 128,
// N = 4·128, Gemma's weight_offset):                                  M,K, K
// RUN: norm-run %s --entry=q_rms_bf16 --dims=17,256,256 --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_rms_bf16 --dims=1,256,256 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_rms_bf16 --dims=130,520,520 --seed=8 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @q_ln (f32 per-head LayerNorm, matmul bias, residual and sum output;
// inputs of mean 1000 give heads with |mean| ≫ std: the per-head Chan
// merge must keep the pivot. The reference normalizes the S the op returns,
// as in fused.mlir: without sum_outs it would normalize the unrounded S,
// and rounding S to f32 alone moves y by ~3e-3 at this mean, fused or not):
//   a: MxK, w: Kx96, mb: 96, r: Mx96, g, b: 32, y, s: Mx96     M,K, K, M, M, M
// RUN: norm-run %s --entry=q_ln --dims=50,200,200,50,50,50 --seed=9 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_ln --dims=3,200,200,3,3,3 --seed=10 --mean=1000 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_ln --dims=300,100,100,300,300,300 --seed=12 --mean=-3 --dist=normal --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @q_rms_odd (f32, D = 24, not a multiple of the 16-column segments: the
// row kernel gathers each head's statistics from S after the GEMM):
// RUN: norm-run %s --entry=q_rms_odd --dims=21,100,100,21 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_rms_odd --dims=21,100,100,21 --seed=11 --target=avx2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @qk_unfused: the model's form (f32 linalg.matmul → tensor.expand_shape to
// [M, 4, 16] → linalg.transpose to [4, M, 16] → norm.rms_norm over 16), fused
// by --norm-fuse-matmul and lowered, against the same IR through upstream:
// RUN: norm-run %s --entry=qk_unfused --dims=9,48,48 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --warmup=0 --repeat=1 | FileCheck %s --check-prefix=FUSE
// FUSE: {{^}}norm-run: entry=qk_unfused pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} cmp_tol=1e-04 PASS{{$}}

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}

func.func @q_rms(%a: memref<?x?xf32>, %w: memref<?x256xf32>, %g: memref<64xf32>,
                 %y: memref<?x256xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x256xf32>)
      weight(%g : memref<64xf32>) outs(%y : memref<?x256xf32>) {head_dim = 64 : i64}
  return
}

func.func @k_rms_wide(%a: memref<?x?xf32>, %w: memref<1024x?xf32>, %g: memref<128xf32>,
                      %y: memref<?x1024xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<1024x?xf32>)
      weight(%g : memref<128xf32>) outs(%y : memref<?x1024xf32>)
      {head_dim = 128 : i64, transpose_rhs, epsilon = 1.0e-6 : f32}
  return
}

func.func @q_rms_bf16(%a: tensor<?x?xbf16>, %w: tensor<512x?xbf16>, %g: tensor<128xbf16>)
    -> tensor<?x512xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xbf16>
  %e = tensor.empty(%m) : tensor<?x512xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<?x?xbf16>) rhs(%w : tensor<512x?xbf16>)
      weight(%g : tensor<128xbf16>) outs(%e : tensor<?x512xbf16>)
      {head_dim = 128 : i64, transpose_rhs, weight_offset = 1.0 : f32} -> tensor<?x512xbf16>
  return %y : tensor<?x512xbf16>
}

func.func @q_ln(%a: memref<?x?xf32>, %w: memref<?x96xf32>, %mb: memref<96xf32>,
                %r: memref<?x96xf32>, %g: memref<32xf32>, %b: memref<32xf32>,
                %y: memref<?x96xf32>, %s: memref<?x96xf32>) {
  norm.matmul_layer_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x96xf32>)
      matmul_bias(%mb : memref<96xf32>) residual(%r : memref<?x96xf32>)
      weight(%g : memref<32xf32>) bias(%b : memref<32xf32>)
      outs(%y : memref<?x96xf32>) sum_outs(%s : memref<?x96xf32>) {head_dim = 32 : i64}
  return
}

func.func @q_rms_odd(%a: memref<?x?xf32>, %w: memref<?x72xf32>, %g: memref<24xf32>,
                     %y: memref<?x72xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x72xf32>)
      weight(%g : memref<24xf32>) outs(%y : memref<?x72xf32>) {head_dim = 24 : i64}
  return
}

func.func @qk_unfused(%a: tensor<?x?xf32>, %w: tensor<?x64xf32>, %g: tensor<16xf32>)
    -> tensor<4x?x16xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x64xf32>) -> tensor<?x64xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x?xf32>, tensor<?x64xf32>)
      outs(%z : tensor<?x64xf32>) -> tensor<?x64xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [%m, 4, 16]
      : tensor<?x64xf32> into tensor<?x4x16xf32>
  %te = tensor.empty(%m) : tensor<4x?x16xf32>
  %t = linalg.transpose ins(%h : tensor<?x4x16xf32>) outs(%te : tensor<4x?x16xf32>)
      permutation = [1, 0, 2]
  %y = norm.rms_norm ins(%t : tensor<4x?x16xf32>) weight(%g : tensor<16xf32>)
      outs(%te : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  return %y : tensor<4x?x16xf32>
}
