// GPU execution of the sm_90a warpgroup-MMA GEMM on normalizesA problems
// (norm → matmul with cast_mode, or pRMSNorm's statistics over a prefix):
// the rows' statistics from a pass of their own before the K loop
// (RowNormalizer::rowStatistics, the mma.sync kernel's), each 128-byte
// swizzled A tile rewritten as the normalized activations a = round(x̂·γ'
// (+ β)), rounded where cast_mode says (RowNormalizer::normalize,
// WarpgroupPrologue::normalizeTile), then a plain GEMM; split over K each
// slice makes the pass and the first saves the statistics. Through
// --norm-lower-to-nvvm at sm_90a, each result (C, S, mean, rstd) compared
// with the float64 reference of test/lib/Runtime with the tolerances of
// DESIGN.md §4. Cases: cast_mode after_weight in bf16 with Gemma's f32 γ +
// 1, W as N×K, tails in M, N and K (K = 1000: the last K tile has 5 of
// its 8 chunks past K); cast_mode before_weight in f16 with γ, a residual,
// S, matmul bias and rstd, W as K×N; pRMSNorm p = 0.25 in bf16 over
// ⌈0.25·1000⌉ = 250 columns (not a multiple of the K tile of 64) with γ, a
// residual, S, matmul bias and rstd; pRMSNorm p = 0.25 without γ at decode
// shape (16 × 1536, 384 columns), rstd; LayerNorm with cast_mode after_weight
// in bf16 on rows of mean 10⁴ with a residual of spread 100, γ, β, matmul
// bias, S, mean and rstd, tails (3 × 2120 → 264); LayerNorm before_weight
// in f16 with f32 γ and β, W as N×K, mean and rstd. By default every case
// splits (slices of K tiles by splitKFor: 2, 2, 2, 3, 4 and 3); with
// max-split-k=1 none. Schedules: pipelined 64 × 128 (the default for these
// outputs), 128 × 256 (two consumer warpgroups), serial; and sm_90's
// mma.sync kernel (unsplit) on the same file. Needs an sm_90 GPU
// (H100/H200). Run on host threads by
// test/Integration/GPU/Emulated/wgmma-normalize.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-pipeline=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [70x1000] w=[136x1000] gamma trans_rhs params=f32 cast=after offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [33x1032] w=[1032x72] residual gamma mbias sum cast=before: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics f16 [33x1032] axis=1 residual rstd: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [20x1000] w=[1000x136] residual gamma mbias sum partial=0.25: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [20x1000] axis=1 residual rstd partial=0.25: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [16x1536] w=[128x1536] trans_rhs partial=0.25: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [16x1536] axis=1 rstd partial=0.25: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [3x2120] w=[2120x264] residual gamma beta mbias sum cast=after: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [3x2120] axis=1 residual mean rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [17x1536] w=[72x1536] gamma beta trans_rhs params=f32 cast=before: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics f16 [17x1536] axis=1 mean rstd: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_matmul_f16_pf32(memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16_pf32(memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @cast_after_nk_bf16_gf32() : () -> ()
  func.call @cast_before_kn_f16_residual() : () -> ()
  func.call @partial_kn_bf16_residual() : () -> ()
  func.call @partial_nk_bf16() : () -> ()
  func.call @ln_cast_kn_bf16_residual() : () -> ()
  func.call @ln_cast_nk_f16() : () -> ()
  return
}

func.func @cast_after_nk_bf16_gf32() {
  %x = gpu.alloc host_shared () : memref<70x1000xbf16>
  %x_u = memref.cast %x : memref<70x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 12007 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x1000xbf16>
  %w_u = memref.cast %w : memref<136x1000xbf16> to memref<*xbf16>
  %w_seed = arith.constant 12014 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1000xf32>
  %g_u = memref.cast %g : memref<1000xf32> to memref<*xf32>
  %g_seed = arith.constant 12021 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x136xbf16>
  %y_u = memref.cast %y : memref<70x136xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<70x1000xbf16>) weight(%g : memref<1000xf32>) rhs(%w : memref<136x1000xbf16>) outs(%y : memref<70x136xbf16>) {cast_mode = #norm.cast_mode<after_weight>, epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 33282 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1000xbf16>
  gpu.dealloc %w : memref<136x1000xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1000xf32>
  gpu.dealloc %y : memref<70x136xbf16>
  return
}

func.func @cast_before_kn_f16_residual() {
  %x = gpu.alloc host_shared () : memref<33x1032xf16>
  %x_u = memref.cast %x : memref<33x1032xf16> to memref<*xf16>
  %x_seed = arith.constant 12028 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<33x1032xf16>
  %r_u = memref.cast %r : memref<33x1032xf16> to memref<*xf16>
  %r_seed = arith.constant 12035 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1032x72xf16>
  %w_u = memref.cast %w : memref<1032x72xf16> to memref<*xf16>
  %w_seed = arith.constant 12042 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1032xf16>
  %g_u = memref.cast %g : memref<1032xf16> to memref<*xf16>
  %g_seed = arith.constant 12049 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<72xf16>
  %mb_u = memref.cast %mb : memref<72xf16> to memref<*xf16>
  %mb_seed = arith.constant 12056 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x72xf16>
  %y_u = memref.cast %y : memref<33x72xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<33x1032xf16>
  %s_u = memref.cast %s : memref<33x1032xf16> to memref<*xf16>
  %rs = gpu.alloc host_shared () : memref<33xf32>
  %rs_u = memref.cast %rs : memref<33xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<33x1032xf16>) residual(%r : memref<33x1032xf16>) weight(%g : memref<1032xf16>) rhs(%w : memref<1032x72xf16>) matmul_bias(%mb : memref<72xf16>) outs(%y : memref<33x72xf16>) sum_outs(%s : memref<33x1032xf16>) rstd_outs(%rs : memref<33xf32>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 33075 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_f16(%x_u, %r_u, %g_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 129 : i64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %r_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x1032xf16>
  gpu.dealloc %r : memref<33x1032xf16>
  gpu.dealloc %w : memref<1032x72xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1032xf16>
  gpu.dealloc %mb : memref<72xf16>
  gpu.dealloc %y : memref<33x72xf16>
  gpu.dealloc %s : memref<33x1032xf16>
  gpu.dealloc %rs : memref<33xf32>
  return
}

func.func @partial_kn_bf16_residual() {
  %x = gpu.alloc host_shared () : memref<20x1000xbf16>
  %x_u = memref.cast %x : memref<20x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 12063 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<20x1000xbf16>
  %r_u = memref.cast %r : memref<20x1000xbf16> to memref<*xbf16>
  %r_seed = arith.constant 12070 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x136xbf16>
  %w_u = memref.cast %w : memref<1000x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 12077 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 12084 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<136xbf16>
  %mb_u = memref.cast %mb : memref<136xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 12091 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<20x136xbf16>
  %y_u = memref.cast %y : memref<20x136xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<20x1000xbf16>
  %s_u = memref.cast %s : memref<20x1000xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<20xf32>
  %rs_u = memref.cast %rs : memref<20xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<20x1000xbf16>) residual(%r : memref<20x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x136xbf16>) matmul_bias(%mb : memref<136xbf16>) outs(%y : memref<20x136xbf16>) sum_outs(%s : memref<20x1000xbf16>) rstd_outs(%rs : memref<20xf32>) {epsilon = 1.0e-06 : f64, partial = 0.25 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 1073742115 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %g_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 0.25 : f64
  %sflags = arith.constant 129 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<20x1000xbf16>
  gpu.dealloc %r : memref<20x1000xbf16>
  gpu.dealloc %w : memref<1000x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %mb : memref<136xbf16>
  gpu.dealloc %y : memref<20x136xbf16>
  gpu.dealloc %s : memref<20x1000xbf16>
  gpu.dealloc %rs : memref<20xf32>
  return
}

func.func @partial_nk_bf16() {
  %x = gpu.alloc host_shared () : memref<16x1536xbf16>
  %x_u = memref.cast %x : memref<16x1536xbf16> to memref<*xbf16>
  %x_seed = arith.constant 12098 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<128x1536xbf16>
  %w_u = memref.cast %w : memref<128x1536xbf16> to memref<*xbf16>
  %w_seed = arith.constant 12105 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %y = gpu.alloc host_shared () : memref<16x128xbf16>
  %y_u = memref.cast %y : memref<16x128xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<16xf32>
  %rs_u = memref.cast %rs : memref<16xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<16x1536xbf16>) rhs(%w : memref<128x1536xbf16>) outs(%y : memref<16x128xbf16>) rstd_outs(%rs : memref<16xf32>) {epsilon = 1.0e-06 : f64, partial = 0.25 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 1073742336 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 0.25 : f64
  %sflags = arith.constant 128 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %x_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x1536xbf16>
  gpu.dealloc %w : memref<128x1536xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %y : memref<16x128xbf16>
  gpu.dealloc %rs : memref<16xf32>
  return
}

func.func @ln_cast_kn_bf16_residual() {
  %x = gpu.alloc host_shared () : memref<3x2120xbf16>
  %x_u = memref.cast %x : memref<3x2120xbf16> to memref<*xbf16>
  %x_seed = arith.constant 12112 : i64
  %x_mean = arith.constant 10000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<3x2120xbf16>
  %r_u = memref.cast %r : memref<3x2120xbf16> to memref<*xbf16>
  %r_seed = arith.constant 12119 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 100.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<2120x264xbf16>
  %w_u = memref.cast %w : memref<2120x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 12126 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<2120xbf16>
  %g_u = memref.cast %g : memref<2120xbf16> to memref<*xbf16>
  %g_seed = arith.constant 12133 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<2120xbf16>
  %b_u = memref.cast %b : memref<2120xbf16> to memref<*xbf16>
  %b_seed = arith.constant 12140 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 12147 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x264xbf16>
  %y_u = memref.cast %y : memref<3x264xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<3x2120xbf16>
  %s_u = memref.cast %s : memref<3x2120xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<3xf32>
  %m_u = memref.cast %m : memref<3xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<3xf32>
  %rs_u = memref.cast %rs : memref<3xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<3x2120xbf16>) residual(%r : memref<3x2120xbf16>) weight(%g : memref<2120xbf16>) bias(%b : memref<2120xbf16>) rhs(%w : memref<2120x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<3x264xbf16>) sum_outs(%s : memref<3x2120xbf16>) mean_outs(%m : memref<3xf32>) rstd_outs(%rs : memref<3xf32>) {cast_mode = #norm.cast_mode<after_weight>, epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 33063 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_bf16(%x_u, %r_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 193 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %m_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x2120xbf16>
  gpu.dealloc %r : memref<3x2120xbf16>
  gpu.dealloc %w : memref<2120x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<2120xbf16>
  gpu.dealloc %b : memref<2120xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<3x264xbf16>
  gpu.dealloc %s : memref<3x2120xbf16>
  gpu.dealloc %m : memref<3xf32>
  gpu.dealloc %rs : memref<3xf32>
  return
}

func.func @ln_cast_nk_f16() {
  %x = gpu.alloc host_shared () : memref<17x1536xf16>
  %x_u = memref.cast %x : memref<17x1536xf16> to memref<*xf16>
  %x_seed = arith.constant 12154 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x1536xf16>
  %w_u = memref.cast %w : memref<72x1536xf16> to memref<*xf16>
  %w_seed = arith.constant 12161 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1536xf32>
  %g_u = memref.cast %g : memref<1536xf32> to memref<*xf32>
  %g_seed = arith.constant 12168 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1536xf32>
  %b_u = memref.cast %b : memref<1536xf32> to memref<*xf32>
  %b_seed = arith.constant 12175 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<17x72xf16>
  %y_u = memref.cast %y : memref<17x72xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<17xf32>
  %m_u = memref.cast %m : memref<17xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<17xf32>
  %rs_u = memref.cast %rs : memref<17xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<17x1536xf16>) weight(%g : memref<1536xf32>) bias(%b : memref<1536xf32>) rhs(%w : memref<72x1536xf16>) outs(%y : memref<17x72xf16>) mean_outs(%m : memref<17xf32>) rstd_outs(%rs : memref<17xf32>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 33302 : i64
  func.call @norm_test_check_layer_norm_matmul_f16_pf32(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 192 : i64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %x_u, %m_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x1536xf16>
  gpu.dealloc %w : memref<72x1536xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1536xf32>
  gpu.dealloc %b : memref<1536xf32>
  gpu.dealloc %y : memref<17x72xf16>
  gpu.dealloc %m : memref<17xf32>
  gpu.dealloc %rs : memref<17xf32>
  return
}
