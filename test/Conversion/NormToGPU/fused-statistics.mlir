// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// The fused ops' saved statistics on the GPU. matmul → norm: the GEMM writes
// S, and the row kernel that normalizes it writes the statistics, as the
// standalone norm's do. norm → matmul: the GEMM kernels (statistics from the
// shared A tiles, per block) do not write them yet; that is an error at the
// op, not a silent omission.

// CHECK-LABEL: func.func @mm_ln_stats
//       CHECK: gpu.launch
//       CHECK: gpu.launch
//       CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
//       CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
//   CHECK-NOT: norm.matmul_layer_norm
func.func @mm_ln_stats(%a: memref<16x64xbf16>, %w: memref<64x32xbf16>, %y: memref<16x32xbf16>, %m: memref<16xf32>, %r: memref<16xf32>) {
  norm.matmul_layer_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%y : memref<16x32xbf16>) mean_outs(%m : memref<16xf32>) rstd_outs(%r : memref<16xf32>)
  return
}

// -----

func.func @rms_mm_stats(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>, %r: memref<16xf32>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op cannot be lowered to a GPU kernel: the norm → matmul GEMM kernels do not write 'mean_outs' / 'rstd_outs' (decompose the op, or leave the norm unfused)}}
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>) rstd_outs(%r : memref<16xf32>)
  return
}
