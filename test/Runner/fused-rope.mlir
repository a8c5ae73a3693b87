// REQUIRES: norm-jit
// QK-norm → RoPE fused into the matmul (Qwen3's q/k norms):
// norm.matmul_rms_norm with `head_dim` and `rope(cos, sin)` against the
// float64 reference: S = round(A·W) (or the input norm's S), each head of S
// normalized, then rotated within the head before its one rounding
// (tolerance 1e-5 f32, 1e-2 bf16). The GEMM's epilogue gathers each head's
// statistics and the row kernel rotates the head as it normalizes it (per
// block of rows when N fits one column chunk, after the GEMM otherwise).
//
// @q_half (rotate_half, angles per row [M, 1, D], W N×K, N = 4·64):
//   a: MxK, w: 256xK, g: 64, cos/sin: Mx1x64, y: Mx256        M,K, K, M, M, M
// RUN: norm-run %s --entry=q_half --dims=37,96,96,37,37,37 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_half --dims=1,64,64,1,1,1 --seed=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_half --dims=203,160,160,203,203,203 --seed=3 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=q_half --dims=50,64,64,50,50,50 --seed=4 --target=avx2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @k_pairs (interleaved, no γ, one angle row for all rows [1, 1, D], W K×N,
// N = 8·128 > 256: normalized after the GEMM):
//   a: MxK, w: Kx1024, y: Mx1024                                    M,K, K, M
// RUN: norm-run %s --entry=k_pairs --dims=29,80,80,29 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=k_pairs --dims=70,80,80,70 --seed=6 --target=generic --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @per_head_angles (angles per row and head [M, H, D]) and @odd_d (D = 24,
// not a multiple of the 16-column segments: after the GEMM):
// RUN: norm-run %s --entry=per_head_angles --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=odd_d --seed=8 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @qwen3_q (the input norm as the prologue too: Qwen3's q_proj, the whole
// chain norm → matmul → norm → RoPE in one op) and @gemma_bf16 (bf16, f32
// γs and angles, 1 + γ, D = 128):
// RUN: norm-run %s --entry=qwen3_q --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=qwen3_q --seed=10 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=gemma_bf16 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @batch_positions: [B, T, N] with angles [1, T, 1, D], broadcast over the
// batch and the heads (one run of position dims: the GEMM's epilogue);
// @batch_heads: angles [B, 1, H, D], broadcast over the positions between
// two dims they index: the GEMM leaves the op to its decomposition (the
// standalone norm with the rotation, decomposed in turn):
// RUN: norm-run %s --entry=batch_positions --seed=12 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=batch_heads --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}

func.func @q_half(%a: memref<?x?xf32>, %w: memref<256x?xf32>, %g: memref<64xf32>,
                  %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>,
                  %y: memref<?x256xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<256x?xf32>)
      weight(%g : memref<64xf32>)
      rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>)
      outs(%y : memref<?x256xf32>)
      {head_dim = 64 : i64, transpose_rhs, epsilon = 1.0e-6 : f32}
  return
}

func.func @k_pairs(%a: memref<?x?xf32>, %w: memref<?x1024xf32>,
                   %c: memref<1x1x128xf32>, %s: memref<1x1x128xf32>,
                   %y: memref<?x1024xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x1024xf32>)
      rope(%c, %s : memref<1x1x128xf32>, memref<1x1x128xf32>)
      outs(%y : memref<?x1024xf32>)
      {head_dim = 128 : i64, rope_mode = #norm.rope_mode<interleaved>}
  return
}

func.func @per_head_angles(%a: memref<19x48xf32>, %w: memref<48x128xf32>,
                           %g: memref<32xf32>, %c: memref<19x4x32xf32>,
                           %s: memref<19x4x32xf32>, %y: memref<19x128xf32>) {
  norm.matmul_rms_norm ins(%a : memref<19x48xf32>) rhs(%w : memref<48x128xf32>)
      weight(%g : memref<32xf32>)
      rope(%c, %s : memref<19x4x32xf32>, memref<19x4x32xf32>)
      outs(%y : memref<19x128xf32>) {head_dim = 32 : i64}
  return
}

func.func @odd_d(%a: memref<21x40xf32>, %w: memref<72x40xf32>,
                 %g: memref<24xf32>, %c: memref<21x1x24xf32>,
                 %s: memref<21x1x24xf32>, %y: memref<21x72xf32>) {
  norm.matmul_rms_norm ins(%a : memref<21x40xf32>) rhs(%w : memref<72x40xf32>)
      weight(%g : memref<24xf32>)
      rope(%c, %s : memref<21x1x24xf32>, memref<21x1x24xf32>)
      outs(%y : memref<21x72xf32>) {head_dim = 24 : i64, transpose_rhs}
  return
}

func.func @qwen3_q(%a: memref<33x128xf32>, %w: memref<256x128xf32>,
                   %g: memref<64xf32>, %gi: memref<128xf32>,
                   %c: memref<33x1x64xf32>, %s: memref<33x1x64xf32>,
                   %y: memref<33x256xf32>) {
  norm.matmul_rms_norm ins(%a : memref<33x128xf32>) rhs(%w : memref<256x128xf32>)
      weight(%g : memref<64xf32>) input_weight(%gi : memref<128xf32>)
      rope(%c, %s : memref<33x1x64xf32>, memref<33x1x64xf32>)
      outs(%y : memref<33x256xf32>)
      {head_dim = 64 : i64, transpose_rhs, epsilon = 1.0e-6 : f32, input_epsilon = 1.0e-6 : f32}
  return
}

func.func @gemma_bf16(%a: tensor<17x256xbf16>, %w: tensor<512x256xbf16>,
                      %g: tensor<128xf32>, %c: tensor<17x1x128xf32>,
                      %s: tensor<17x1x128xf32>) -> tensor<17x512xbf16> {
  %e = tensor.empty() : tensor<17x512xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<17x256xbf16>) rhs(%w : tensor<512x256xbf16>)
      weight(%g : tensor<128xf32>)
      rope(%c, %s : tensor<17x1x128xf32>, tensor<17x1x128xf32>)
      outs(%e : tensor<17x512xbf16>)
      {head_dim = 128 : i64, transpose_rhs, weight_offset = 1.0 : f32} -> tensor<17x512xbf16>
  return %y : tensor<17x512xbf16>
}

func.func @batch_positions(%a: memref<2x9x64xf32>, %w: memref<64x96xf32>,
                           %c: memref<1x9x1x32xf32>, %s: memref<1x9x1x32xf32>,
                           %y: memref<2x9x96xf32>) {
  norm.matmul_rms_norm ins(%a : memref<2x9x64xf32>) rhs(%w : memref<64x96xf32>)
      rope(%c, %s : memref<1x9x1x32xf32>, memref<1x9x1x32xf32>)
      outs(%y : memref<2x9x96xf32>) {head_dim = 32 : i64}
  return
}

func.func @batch_heads(%a: memref<2x9x64xf32>, %w: memref<64x96xf32>,
                       %c: memref<2x1x3x32xf32>, %s: memref<2x1x3x32xf32>,
                       %y: memref<2x9x96xf32>) {
  norm.matmul_rms_norm ins(%a : memref<2x9x64xf32>) rhs(%w : memref<64x96xf32>)
      rope(%c, %s : memref<2x1x3x32xf32>, memref<2x1x3x32xf32>)
      outs(%y : memref<2x9x96xf32>) {head_dim = 32 : i64}
  return
}
