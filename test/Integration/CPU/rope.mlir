// Randomized execution of the rotary-embedding epilogue (QK-norm → RoPE)
// of norm.rms_norm and norm.layer_norm, each checked by norm-run --check
// against the float64 reference (NormReference's applyRotaryEmbedding on
// the unrounded normalized value): f32 and bf16, rotate_half and
// interleaved, with and without γ, angles broadcast over heads ([T, 1, D])
// or over a leading dim ([1, T, D]); through the project pipeline's row
// kernel and with AVX2, generic (128-bit) vectors and threads.
//
// RUN: norm-run %s --entry=half_f32 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=half_f32 --seed=2 --target=avx2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=half_f32 --seed=3 --target=generic --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=pairs_f32 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=pairs_f32 --seed=5 --target=generic --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// @half_dyn: x, y: ?x2x24; cos, sin: ?x1x24               T, T, T, T
// RUN: norm-run %s --entry=half_dyn --dims=7,7,7,7 --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=half_bf16 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=half_bf16 --seed=8 --target=avx2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=pairs_bf16 --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=ln_half --seed=10 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=ln_pairs_bf16 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=residual_gemma --seed=12 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=split_positions --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32

// F32: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-06 PASS{{$}}
// BF16: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}
// CHECK-NOT: FAIL

// Qwen3's q: [T, H, D] with the angles per position, γ, rotate_half.
func.func @half_f32(%x: memref<16x4x64xf32>, %g: memref<64xf32>, %c: memref<16x1x64xf32>,
                    %s: memref<16x1x64xf32>, %y: memref<16x4x64xf32>) {
  norm.rms_norm ins(%x : memref<16x4x64xf32>) weight(%g : memref<64xf32>)
      rope(%c, %s : memref<16x1x64xf32>, memref<16x1x64xf32>)
      outs(%y : memref<16x4x64xf32>)
  return
}

// Interleaved pairs, no γ, angles over a leading broadcast dim, D = 36 (not
// a multiple of the vector width: a masked tail).
func.func @pairs_f32(%x: memref<3x10x36xf32>, %c: memref<1x10x36xf32>,
                     %s: memref<1x10x36xf32>, %y: memref<3x10x36xf32>) {
  norm.rms_norm ins(%x : memref<3x10x36xf32>)
      rope(%c, %s : memref<1x10x36xf32>, memref<1x10x36xf32>)
      outs(%y : memref<3x10x36xf32>) {rope_mode = #norm.rope_mode<interleaved>}
  return
}

// Dynamic positions, D/2 = 12 (half a vector or a vector and a half).
func.func @half_dyn(%x: memref<?x2x24xf32>, %c: memref<?x1x24xf32>,
                   %s: memref<?x1x24xf32>, %y: memref<?x2x24xf32>) {
  norm.rms_norm ins(%x : memref<?x2x24xf32>)
      rope(%c, %s : memref<?x1x24xf32>, memref<?x1x24xf32>)
      outs(%y : memref<?x2x24xf32>) {epsilon = 1.0e-05 : f32}
  return
}

// Gemma 3's k: bf16 x, f32 γ with 1 + γ, f32 angles, one rounding.
func.func @half_bf16(%x: memref<8x2x128xbf16>, %g: memref<128xf32>, %c: memref<8x1x128xf32>,
                     %s: memref<8x1x128xf32>, %y: memref<8x2x128xbf16>) {
  norm.rms_norm ins(%x : memref<8x2x128xbf16>) weight(%g : memref<128xf32>)
      rope(%c, %s : memref<8x1x128xf32>, memref<8x1x128xf32>)
      outs(%y : memref<8x2x128xbf16>) {weight_offset = 1.0 : f32}
  return
}

func.func @pairs_bf16(%x: memref<6x4x64xbf16>, %g: memref<64xbf16>, %c: memref<6x1x64xbf16>,
                      %s: memref<6x1x64xbf16>, %y: memref<6x4x64xbf16>) {
  norm.rms_norm ins(%x : memref<6x4x64xbf16>) weight(%g : memref<64xbf16>)
      rope(%c, %s : memref<6x1x64xbf16>, memref<6x1x64xbf16>)
      outs(%y : memref<6x4x64xbf16>) {rope_mode = #norm.rope_mode<interleaved>}
  return
}

func.func @ln_half(%x: memref<5x3x32xf32>, %g: memref<32xf32>, %b: memref<32xf32>,
                   %c: memref<5x1x32xf32>, %s: memref<5x1x32xf32>, %y: memref<5x3x32xf32>) {
  norm.layer_norm ins(%x : memref<5x3x32xf32>) weight(%g : memref<32xf32>) bias(%b : memref<32xf32>)
      rope(%c, %s : memref<5x1x32xf32>, memref<5x1x32xf32>)
      outs(%y : memref<5x3x32xf32>)
  return
}

func.func @ln_pairs_bf16(%x: memref<4x2x64xbf16>, %c: memref<4x1x64xf32>,
                         %s: memref<4x1x64xf32>, %y: memref<4x2x64xbf16>) {
  norm.layer_norm ins(%x : memref<4x2x64xbf16>)
      rope(%c, %s : memref<4x1x64xf32>, memref<4x1x64xf32>)
      outs(%y : memref<4x2x64xbf16>) {rope_mode = #norm.rope_mode<interleaved>}
  return
}

// A residual (its sum returned) and a γ before the rotation.
func.func @residual_gemma(%x: memref<4x8x64xbf16>, %r: memref<4x8x64xbf16>, %g: memref<64xbf16>,
                          %c: memref<4x1x64xbf16>, %s: memref<4x1x64xbf16>,
                          %y: memref<4x8x64xbf16>, %sum: memref<4x8x64xbf16>) {
  norm.rms_norm ins(%x : memref<4x8x64xbf16>) residual(%r : memref<4x8x64xbf16>)
      weight(%g : memref<64xbf16>) rope(%c, %s : memref<4x1x64xbf16>, memref<4x1x64xbf16>)
      outs(%y : memref<4x8x64xbf16>) sum_outs(%sum : memref<4x8x64xbf16>)
  return
}

// Angles indexed by dims 0 and 2 with dim 1 broadcast between them: not one
// run of position dims, so the row kernel leaves it to the decomposition.
func.func @split_positions(%x: memref<2x3x4x16xf32>, %c: memref<2x1x4x16xf32>,
                           %s: memref<2x1x4x16xf32>, %y: memref<2x3x4x16xf32>) {
  norm.rms_norm ins(%x : memref<2x3x4x16xf32>)
      rope(%c, %s : memref<2x1x4x16xf32>, memref<2x1x4x16xf32>)
      outs(%y : memref<2x3x4x16xf32>)
  return
}
