// Randomized execution of `rope_rounding = each_step` (the rotation of a
// bf16/f16 frontend: the normalized value, each product and the sum round to
// y's type) through the row kernel, checked by norm-run --check against the
// float64 reference, which rounds at the same points: bf16 and f16,
// rotate_half and interleaved, before_weight and after_weight, a residual,
// AVX2, generic (128-bit) vectors, 1 and 2 threads.
//
// RUN: norm-run %s --entry=half_bf16 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=half_bf16 --seed=2 --target=avx2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=half_bf16 --seed=3 --target=generic --threads=1 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=pairs_f16 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=pairs_f16 --seed=5 --target=generic --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=ln_half_f16 --seed=6 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=ln_half_f16 --seed=7 --target=avx2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=residual_pairs_bf16 --seed=8 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=residual_pairs_bf16 --seed=9 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// @half_dyn_bf16: x, y: ?x2x24; cos, sin: ?x1x24            T, T, T, T
// RUN: norm-run %s --entry=half_dyn_bf16 --dims=13,13,13,13 --seed=10 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=half_dyn_bf16 --dims=40,40,40,40 --seed=11 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16

// The reference rounds where the kernel does, so the error is far below
// the tolerance: 0 on this machine's runs, at most a few last-bit flips of
// y where the f32 and f64 normalized values round differently (< 1e-4).
// Rounding once instead gives 2.4e-3 (bf16) and 2.1e-4 (f16) on the first
// two entries, so these lines tell the two apart.
// BF16: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} rel_err={{0\.000e\+00|[0-9]\.[0-9]+e-(0[5-9]|[1-9][0-9])}} tol=1e-02 PASS{{$}}
// F16: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} rel_err={{0\.000e\+00|[0-9]\.[0-9]+e-(0[5-9]|[1-9][0-9])}} tol=2e-03 PASS{{$}}
// CHECK-NOT: FAIL

// Qwen3's q in bf16 (HF: weight * hidden.to(bf16), then the rotation in
// bf16): before_weight, bf16 γ and angles, rotate_half.
func.func @half_bf16(%x: memref<16x4x64xbf16>, %g: memref<64xbf16>, %c: memref<16x1x64xbf16>,
                     %s: memref<16x1x64xbf16>, %y: memref<16x4x64xbf16>) {
  norm.rms_norm ins(%x : memref<16x4x64xbf16>) weight(%g : memref<64xbf16>)
      rope(%c, %s : memref<16x1x64xbf16>, memref<16x1x64xbf16>)
      outs(%y : memref<16x4x64xbf16>)
      {cast_mode = #norm.cast_mode<before_weight>, rope_rounding = #norm.rope_rounding<each_step>}
  return
}

// Interleaved pairs in f16, no γ, angles over a leading broadcast dim,
// D = 36 (a masked tail).
func.func @pairs_f16(%x: memref<3x10x36xf16>, %c: memref<1x10x36xf16>,
                     %s: memref<1x10x36xf16>, %y: memref<3x10x36xf16>) {
  norm.rms_norm ins(%x : memref<3x10x36xf16>)
      rope(%c, %s : memref<1x10x36xf16>, memref<1x10x36xf16>)
      outs(%y : memref<3x10x36xf16>)
      {rope_mode = #norm.rope_mode<interleaved>, rope_rounding = #norm.rope_rounding<each_step>}
  return
}

// LayerNorm (after_weight, f16 γ and β), rotate_half.
func.func @ln_half_f16(%x: memref<5x3x32xf16>, %g: memref<32xf16>, %b: memref<32xf16>,
                       %c: memref<5x1x32xf16>, %s: memref<5x1x32xf16>, %y: memref<5x3x32xf16>) {
  norm.layer_norm ins(%x : memref<5x3x32xf16>) weight(%g : memref<32xf16>) bias(%b : memref<32xf16>)
      rope(%c, %s : memref<5x1x32xf16>, memref<5x1x32xf16>)
      outs(%y : memref<5x3x32xf16>) {rope_rounding = #norm.rope_rounding<each_step>}
  return
}

// A residual (its sum returned), Gemma's 1 + γ, interleaved.
func.func @residual_pairs_bf16(%x: memref<4x8x64xbf16>, %r: memref<4x8x64xbf16>, %g: memref<64xbf16>,
                               %c: memref<4x1x64xbf16>, %s: memref<4x1x64xbf16>,
                               %y: memref<4x8x64xbf16>, %sum: memref<4x8x64xbf16>) {
  norm.rms_norm ins(%x : memref<4x8x64xbf16>) residual(%r : memref<4x8x64xbf16>)
      weight(%g : memref<64xbf16>) rope(%c, %s : memref<4x1x64xbf16>, memref<4x1x64xbf16>)
      outs(%y : memref<4x8x64xbf16>) sum_outs(%sum : memref<4x8x64xbf16>)
      {weight_offset = 1.0 : f32, rope_mode = #norm.rope_mode<interleaved>,
       rope_rounding = #norm.rope_rounding<each_step>}
  return
}

// Dynamic positions, D/2 = 12.
func.func @half_dyn_bf16(%x: memref<?x2x24xbf16>, %c: memref<?x1x24xbf16>,
                         %s: memref<?x1x24xbf16>, %y: memref<?x2x24xbf16>) {
  norm.rms_norm ins(%x : memref<?x2x24xbf16>)
      rope(%c, %s : memref<?x1x24xbf16>, memref<?x1x24xbf16>)
      outs(%y : memref<?x2x24xbf16>)
      {epsilon = 1.0e-05 : f32, rope_rounding = #norm.rope_rounding<each_step>}
  return
}
