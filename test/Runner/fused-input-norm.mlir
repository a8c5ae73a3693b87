// REQUIRES: norm-jit
// norm → matmul → norm (QK-norm after the layer's input norm: Qwen3's and
// Gemma 3's q_proj/k_proj): norm.matmul_rms_norm with `input_epsilon`
// against the float64 reference, S = round(rms_norm(A)·W) as the
// norm.rms_norm_matmul would store it, then each head of S normalized
// (tolerance 1e-5 f32, 1e-2 bf16). The GEMM takes the input norm as its
// prologue (statistics while A is packed, the row scale as S is stored) and
// gathers S's per-head statistics in the same epilogue.
//
// @q_f32 (W N×K, N = 4·64: each row block normalized in the GEMM's
// epilogue; M ≤ 16 takes the GEMV's dot products):
//   a: MxK, w: 256xK, g: 64, gi: K, y: Mx256                  M,K, K, K, M
// RUN: norm-run %s --entry=q_f32 --dims=37,300,300,300,37 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_f32 --dims=1,96,96,96,1 --seed=2 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_f32 --dims=203,520,520,520,203 --seed=3 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
//
// @k_wide (W K×N, N = 8·128 > 256: normalized after the GEMM; matmul
// bias; no γ on the input norm, an offset instead):
//   a: MxK, w: Kx1024, mb: 1024, g: 128, y: Mx1024               M,K, K, M
// RUN: norm-run %s --entry=k_wide --dims=29,200,200,29 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=k_wide --dims=5,64,64,5 --seed=5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @q_gemma (Gemma 3: bf16, f32 γs with 1 + γ, the input norm rounding its
// normalized activations to bf16 (input_cast_mode), tensor form, D = 128):
//   a: MxK, w: 512xK, g: 128, gi: K                                M,K, K, K
// RUN: norm-run %s --entry=q_gemma --dims=17,256,256,256 --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_gemma --dims=1,256,256,256 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_gemma --dims=130,520,520,520 --seed=8 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @q_odd (D = 24, not a multiple of the 16-column segments: the row kernel
// normalizes S after the GEMM) and @whole_rows (OLMo2's order: the norm over
// all of N):                                                   M,K, K, K, M
// RUN: norm-run %s --entry=q_odd --dims=21,100,100,100,21 --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_odd --dims=21,100,100,100,21 --seed=9 --target=avx2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=whole_rows --dims=40,100,100,100,40 --seed=10 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @eps_matters: without its ε the per-head norm is blind to the scale of S
// (rms(c·s) = c·rms(s)), so a missing or misplaced input-norm scale r_in
// would pass the checks above; a q-norm ε of the size of S's mean square and
// an input ε of the size of A's make both visible:          M,K, K, K, M
// RUN: norm-run %s --entry=eps_matters --dims=33,128,128,128,33 --seed=12 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=eps_matters --dims=4,128,128,128,4 --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}

func.func @q_f32(%a: memref<?x?xf32>, %w: memref<256x?xf32>, %g: memref<64xf32>,
                 %gi: memref<?xf32>, %y: memref<?x256xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<256x?xf32>)
      weight(%g : memref<64xf32>) input_weight(%gi : memref<?xf32>)
      outs(%y : memref<?x256xf32>)
      {head_dim = 64 : i64, transpose_rhs, epsilon = 1.0e-6 : f32, input_epsilon = 1.0e-5 : f32}
  return
}

func.func @k_wide(%a: memref<?x?xf32>, %w: memref<?x1024xf32>, %mb: memref<1024xf32>,
                  %g: memref<128xf32>, %y: memref<?x1024xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x1024xf32>)
      matmul_bias(%mb : memref<1024xf32>) weight(%g : memref<128xf32>)
      outs(%y : memref<?x1024xf32>)
      {head_dim = 128 : i64, input_epsilon = 1.0e-6 : f32, input_weight_offset = 0.5 : f32}
  return
}

func.func @q_gemma(%a: tensor<?x?xbf16>, %w: tensor<512x?xbf16>, %g: tensor<128xf32>,
                   %gi: tensor<?xf32>) -> tensor<?x512xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xbf16>
  %e = tensor.empty(%m) : tensor<?x512xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<?x?xbf16>) rhs(%w : tensor<512x?xbf16>)
      weight(%g : tensor<128xf32>) input_weight(%gi : tensor<?xf32>)
      outs(%e : tensor<?x512xbf16>)
      {head_dim = 128 : i64, transpose_rhs, weight_offset = 1.0 : f32,
       input_epsilon = 1.0e-6 : f32, input_weight_offset = 1.0 : f32,
       input_cast_mode = #norm.cast_mode<after_weight>} -> tensor<?x512xbf16>
  return %y : tensor<?x512xbf16>
}

func.func @q_odd(%a: memref<?x?xf32>, %w: memref<?x72xf32>, %g: memref<24xf32>,
                 %gi: memref<?xf32>, %y: memref<?x72xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x72xf32>)
      weight(%g : memref<24xf32>) input_weight(%gi : memref<?xf32>)
      outs(%y : memref<?x72xf32>) {head_dim = 24 : i64, input_epsilon = 1.0e-6 : f32}
  return
}

func.func @whole_rows(%a: memref<?x?xf32>, %w: memref<?x96xf32>, %g: memref<96xf32>,
                      %gi: memref<?xf32>, %y: memref<?x96xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x96xf32>)
      weight(%g : memref<96xf32>) input_weight(%gi : memref<?xf32>)
      outs(%y : memref<?x96xf32>) {input_epsilon = 1.0e-6 : f32}
  return
}

func.func @eps_matters(%a: memref<?x?xf32>, %w: memref<?x128xf32>, %g: memref<32xf32>,
                       %gi: memref<?xf32>, %y: memref<?x128xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x128xf32>)
      weight(%g : memref<32xf32>) input_weight(%gi : memref<?xf32>)
      outs(%y : memref<?x128xf32>)
      {head_dim = 32 : i64, epsilon = 20.0 : f32, input_epsilon = 0.5 : f32}
  return
}
