// REQUIRES: norm-jit
// QK-norm → RoPE as the frontends write it, fused by --norm-fuse-matmul
// into one norm.matmul_rms_norm (the rotation taken into the norm first,
// the angles reshaped to the product's [..., H, D] view, transposes after
// the fused op), run against the float64 reference and the same IR
// unfused.
//
// The fusion happens (the FUSED lines; no elementwise rotation is left):
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// The fused ops' new angle form, [B, T, 1, D] over the product's
// [B, T, H, D] (Hugging Face's [B, 1, T, D] of [B, H, T, D] heads, in the
// product's view), against the float64 reference (f32 tol 1e-5, bf16 1e-2):
// RUN: norm-run %s --entry=hf_batch_pairs --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=hf_batch_pairs --seed=2 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=hf_batch_half_bf16 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=hf_batch_half_bf16 --seed=4 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// The model forms, fused and lowered, against the same IR through upstream
// (no fusion, the rotation as written):
// RUN: norm-run %s --entry=half_concat --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=heads_transposed_first --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=6 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=transposed_bf16 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=7 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP

// The fused model forms (the angles reshaped from arguments, the result
// returned through the views after the fused op) against the float64
// reference: --check follows the views to the op.
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=half_concat --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=heads_transposed_first --seed=6 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=transposed_bf16 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
//
// Angles that vary along dims the views merge ([T·H, D]) or split (rows
// B·T viewed [B, T], angles [B, T, 1, D]), reshaped to the fused op's
// [..., H, D] view, against the float64 reference:
// RUN: norm-run %t.mlir --entry=merged_angles --seed=8 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=merged_angles --seed=9 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=split_rows_angles_bf16 --seed=10 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=split_rows_angles_bf16 --seed=11 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#td = affine_map<(d0, d1, d2) -> (d0, d2)>
#htd = affine_map<(d0, d1, d2) -> (d1, d2)>

func.func @hf_batch_pairs(%a: memref<2x9x64xf32>, %w: memref<64x128xf32>,
                          %c: memref<2x9x1x32xf32>, %s: memref<2x9x1x32xf32>,
                          %y: memref<2x9x128xf32>) {
  norm.matmul_rms_norm ins(%a : memref<2x9x64xf32>) rhs(%w : memref<64x128xf32>)
      rope(%c, %s : memref<2x9x1x32xf32>, memref<2x9x1x32xf32>)
      outs(%y : memref<2x9x128xf32>)
      {head_dim = 32 : i64, rope_mode = #norm.rope_mode<interleaved>}
  return
}

func.func @hf_batch_half_bf16(%a: tensor<2x7x128xbf16>, %w: tensor<256x128xbf16>,
                              %g: tensor<64xf32>, %c: tensor<2x7x1x64xf32>,
                              %s: tensor<2x7x1x64xf32>) -> tensor<2x7x256xbf16> {
  %e = tensor.empty() : tensor<2x7x256xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<2x7x128xbf16>) rhs(%w : tensor<256x128xbf16>)
      weight(%g : tensor<64xf32>)
      rope(%c, %s : tensor<2x7x1x64xf32>, tensor<2x7x1x64xf32>)
      outs(%e : tensor<2x7x256xbf16>)
      {head_dim = 64 : i64, transpose_rhs, epsilon = 1.0e-6 : f32} -> tensor<2x7x256xbf16>
  return %y : tensor<2x7x256xbf16>
}

// FUSED-LABEL: func.func @half_concat
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<8x1x32xf32>, tensor<8x1x32xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @half_concat(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<8x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<8x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [8, 4, 16] [1, 1, 1] : tensor<8x4x32xf32> to tensor<8x4x16xf32>
  %e2 = tensor.empty() : tensor<8x4x16xf32>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<8x4x16xf32>) outs(%e2 : tensor<8x4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.negf %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.mulf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #td, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<8x4x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<8x4x32xf32>, tensor<8x4x32xf32>) outs(%e1 : tensor<8x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// FUSED-LABEL: func.func @heads_transposed_first
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<8x1x32xf32>, tensor<8x1x32xf32>) {{.*}}{head_dim = 32 : i64, rope_mode = #norm.rope_mode<interleaved>}
//   FUSED-NOT: linalg.generic
//       FUSED: linalg.transpose
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @heads_transposed_first(%a: tensor<8x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<8x32xf32>, %sin: tensor<8x32xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x128xf32>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
  %te = tensor.empty() : tensor<4x8x32xf32>
  %ht = linalg.transpose ins(%h : tensor<8x4x32xf32>) outs(%te : tensor<4x8x32xf32>) permutation = [1, 0, 2]
  %e0 = tensor.empty() : tensor<4x8x32xf32>
  %n = norm.rms_norm ins(%ht : tensor<4x8x32xf32>) outs(%e0 : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [4, 8, 16] [1, 1, 2] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 1] [4, 8, 16] [1, 1, 2] : tensor<4x8x32xf32> to tensor<4x8x16xf32>
  %nx2 = arith.negf %x2 : tensor<4x8x16xf32>
  %sa = tensor.expand_shape %nx2 [[0], [1], [2, 3]] output_shape [4, 8, 16, 1] : tensor<4x8x16xf32> into tensor<4x8x16x1xf32>
  %sb = tensor.expand_shape %x1 [[0], [1], [2, 3]] output_shape [4, 8, 16, 1] : tensor<4x8x16xf32> into tensor<4x8x16x1xf32>
  %st = tensor.concat dim(3) %sa, %sb : (tensor<4x8x16x1xf32>, tensor<4x8x16x1xf32>) -> tensor<4x8x16x2xf32>
  %rot = tensor.collapse_shape %st [[0], [1], [2, 3]] : tensor<4x8x16x2xf32> into tensor<4x8x32xf32>
  %e1 = tensor.empty() : tensor<4x8x32xf32>
  %qc = linalg.generic {indexing_maps = [#htd, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos, %n : tensor<8x32xf32>, tensor<4x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%c: f32, %v: f32, %o: f32):
    %t = arith.mulf %c, %v : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #htd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x8x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %t = arith.mulf %v, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qs, %qc : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e1 : tensor<4x8x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}

// bf16 heads transposed before a norm that has its rotation (f32 angles
// [1, T, D] over [H, T, D]); upstream runs the same norm, decomposed.
// FUSED-LABEL: func.func @transposed_bf16
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<8x1x32xf32>, tensor<8x1x32xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: norm.rms_norm
//       FUSED: return
func.func @transposed_bf16(%a: tensor<8x64xbf16>, %w: tensor<64x128xbf16>, %g: tensor<32xf32>, %cos: tensor<1x8x32xf32>, %sin: tensor<1x8x32xf32>) -> tensor<4x8x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x128xf32>) -> tensor<8x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x128xbf16>) outs(%z : tensor<8x128xf32>) -> tensor<8x128xf32>
  %be = tensor.empty() : tensor<8x128xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<8x128xf32>) outs(%be : tensor<8x128xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x128xbf16>
  %h = tensor.expand_shape %pb [[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xbf16> into tensor<8x4x32xbf16>
  %te = tensor.empty() : tensor<4x8x32xbf16>
  %ht = linalg.transpose ins(%h : tensor<8x4x32xbf16>) outs(%te : tensor<4x8x32xbf16>) permutation = [1, 0, 2]
  %y = norm.rms_norm ins(%ht : tensor<4x8x32xbf16>) weight(%g : tensor<32xf32>) rope(%cos, %sin : tensor<1x8x32xf32>, tensor<1x8x32xf32>) outs(%te : tensor<4x8x32xbf16>) {epsilon = 1.0e-6 : f32} -> tensor<4x8x32xbf16>
  return %y : tensor<4x8x32xbf16>
}

// One angle row per (position, head): [T·H, D] heads and angles, the
// fused op's angles [T, H, D].
// FUSED-LABEL: func.func @merged_angles
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<6x4x32xf32>, tensor<6x4x32xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: norm.rms_norm
//       FUSED: return
func.func @merged_angles(%a: tensor<6x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %c: tensor<24x32xf32>, %s: tensor<24x32xf32>) -> tensor<24x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<6x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<6x128xf32>) -> tensor<6x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x64xf32>, tensor<64x128xf32>) outs(%z : tensor<6x128xf32>) -> tensor<6x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [6, 4, 32] : tensor<6x128xf32> into tensor<6x4x32xf32>
  %f = tensor.collapse_shape %h [[0, 1], [2]] : tensor<6x4x32xf32> into tensor<24x32xf32>
  %e = tensor.empty() : tensor<24x32xf32>
  %y = norm.rms_norm ins(%f : tensor<24x32xf32>) weight(%g : tensor<32xf32>) rope(%c, %s : tensor<24x32xf32>, tensor<24x32xf32>) outs(%e : tensor<24x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<24x32xf32>
  return %y : tensor<24x32xf32>
}

// bf16 heads, f32 angles [B, T, 1, D] over the rows B·T split [B, T]: the
// fused op's [B·T, 1, D]; W N×K, interleaved pairs.
// FUSED-LABEL: func.func @split_rows_angles_bf16
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<14x1x64xf32>, tensor<14x1x64xf32>) {{.*}}head_dim = 64
//   FUSED-NOT: norm.rms_norm
//       FUSED: return
func.func @split_rows_angles_bf16(%a: tensor<14x128xbf16>, %w: tensor<256x128xbf16>, %g: tensor<64xf32>, %c: tensor<2x7x1x64xf32>, %s: tensor<2x7x1x64xf32>) -> tensor<2x7x4x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %pe = tensor.empty() : tensor<14x256xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%pe : tensor<14x256xbf16>) -> tensor<14x256xbf16>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<14x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<14x256xbf16>) -> tensor<14x256xbf16>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 7, 4, 64] : tensor<14x256xbf16> into tensor<2x7x4x64xbf16>
  %e = tensor.empty() : tensor<2x7x4x64xbf16>
  %y = norm.rms_norm ins(%h : tensor<2x7x4x64xbf16>) weight(%g : tensor<64xf32>) rope(%c, %s : tensor<2x7x1x64xf32>, tensor<2x7x1x64xf32>) outs(%e : tensor<2x7x4x64xbf16>) {epsilon = 1.0e-6 : f32, rope_mode = #norm.rope_mode<interleaved>} -> tensor<2x7x4x64xbf16>
  return %y : tensor<2x7x4x64xbf16>
}
