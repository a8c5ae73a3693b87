// GPU execution of the split-K sm_90a warpgroup-MMA GEMM
// (lib/Conversion/NormToGPU/Gemm/WarpgroupGemm.cpp with a GPUSplitK): few
// output blocks and a long K run as gridDim.z slices of the wgmma kernel,
// each over its run of the K tiles of 64 (TMA ring restarted at the
// slice's first tile), writing f32 partials (accumulators, the rows' sums,
// LayerNorm's column sums, in GPUSplitK's layout, through SplitK.cpp's
// stores) that the reduction kernel turns into C and the saved statistics;
// through --norm-lower-to-nvvm at sm_90a, each result (C, S, mean, rstd)
// compared with the float64 reference of test/lib/Runtime with the
// tolerances of DESIGN.md §4. Cases (slices of K tiles by splitKFor):
// RMSNorm bf16, W as K×N, rstd, tails in M, N and K (5 × 1064 → 136: 17
// tiles as 9 + 8); RMSNorm f16 with a residual, γ, weight offset 1, matmul
// bias, S and rstd, W as N×K, a K tail (70 × 1000 → 136: 8 + 8); LayerNorm
// bf16 with a residual of spread 100 on rows of mean 10⁴, γ, β, matmul
// bias, S, mean and rstd, W as K×N, tails (3 × 2120 → 264: 34 tiles as
// 9 + 9 + 9 + 7; every slice takes its pivot from K tile 0, loaded on a
// barrier of its own); LayerNorm f16 without γ or β, W as N×K, mean and
// rstd (17 × 1536 → 72: 8 + 8 + 8); RMSNorm bf16 with γ and a dynamic K
// (the slice count computed at run time: 3); matmul → RMSNorm, whose GEMM
// has no prologue (bias and residual added by the reduction; 8 + 8).
// Schedules: pipelined 64 × 128
// (the default), 128 × 256 (two consumer warpgroups), 128 × 128 (half the
// consumer threads sum no column), pipelined without scale-d 0 (the
// accumulators zeroed), serial; and the mma.sync split kernel (chip=sm_90)
// on the same file. Needs an sm_90 GPU (H100/H200). Run on host threads by
// test/Integration/GPU/Emulated/wgmma-split-k.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-block-m=128 wgmma-block-n=128}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-scale-d0=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={wgmma-pipeline=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [5x1064] w=[1064x136]: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [5x1064] axis=1 rstd: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [70x1000] w=[136x1000] residual gamma mbias trans_rhs sum offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics f16 [70x1000] axis=1 residual rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [3x2120] w=[2120x264] residual gamma beta mbias sum: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [3x2120] axis=1 residual mean rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [17x1536] w=[72x1536] trans_rhs: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics f16 [17x1536] axis=1 mean rstd: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [16x1536] w=[1536x128] gamma: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [16x1536] axis=1 rstd: {{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [16x1024] w=[1024x264]{{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rmm_kn_bf16_tails() : () -> ()
  func.call @rrmm_nk_f16_offset() : () -> ()
  func.call @rlnm_kn_bf16_tails() : () -> ()
  func.call @lnm_nk_f16() : () -> ()
  func.call @rmm_dyn_k_bf16() : () -> ()
  func.call @mrn_kn_bf16_none() : () -> ()
  return
}

func.func @rmm_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<5x1064xbf16>
  %x_u = memref.cast %x : memref<5x1064xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9807 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1064x136xbf16>
  %w_u = memref.cast %w : memref<1064x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9814 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %y = gpu.alloc host_shared () : memref<5x136xbf16>
  %y_u = memref.cast %y : memref<5x136xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<5xf32>
  %rs_u = memref.cast %rs : memref<5xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<5x1064xbf16>) rhs(%w : memref<1064x136xbf16>) outs(%y : memref<5x136xbf16>) rstd_outs(%rs : memref<5xf32>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 128 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x1064xbf16>
  gpu.dealloc %w : memref<1064x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %y : memref<5x136xbf16>
  gpu.dealloc %rs : memref<5xf32>
  return
}

func.func @rrmm_nk_f16_offset() {
  %x = gpu.alloc host_shared () : memref<70x1000xf16>
  %x_u = memref.cast %x : memref<70x1000xf16> to memref<*xf16>
  %x_seed = arith.constant 9821 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<70x1000xf16>
  %r_u = memref.cast %r : memref<70x1000xf16> to memref<*xf16>
  %r_seed = arith.constant 9828 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<136x1000xf16>
  %w_u = memref.cast %w : memref<136x1000xf16> to memref<*xf16>
  %w_seed = arith.constant 9835 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1000xf16>
  %g_u = memref.cast %g : memref<1000xf16> to memref<*xf16>
  %g_seed = arith.constant 9842 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<136xf16>
  %mb_u = memref.cast %mb : memref<136xf16> to memref<*xf16>
  %mb_seed = arith.constant 9849 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<70x1000xf16>
  %s_u = memref.cast %s : memref<70x1000xf16> to memref<*xf16>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  %rs_u = memref.cast %rs : memref<70xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<70x1000xf16>) residual(%r : memref<70x1000xf16>) weight(%g : memref<1000xf16>) rhs(%w : memref<136x1000xf16>) matmul_bias(%mb : memref<136xf16>) outs(%y : memref<70x136xf16>) sum_outs(%s : memref<70x1000xf16>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 803 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_f16(%x_u, %r_u, %g_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 129 : i64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %r_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1000xf16>
  gpu.dealloc %r : memref<70x1000xf16>
  gpu.dealloc %w : memref<136x1000xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1000xf16>
  gpu.dealloc %mb : memref<136xf16>
  gpu.dealloc %y : memref<70x136xf16>
  gpu.dealloc %s : memref<70x1000xf16>
  gpu.dealloc %rs : memref<70xf32>
  return
}

func.func @rlnm_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<3x2120xbf16>
  %x_u = memref.cast %x : memref<3x2120xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9856 : i64
  %x_mean = arith.constant 10000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<3x2120xbf16>
  %r_u = memref.cast %r : memref<3x2120xbf16> to memref<*xbf16>
  %r_seed = arith.constant 9863 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 100.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<2120x264xbf16>
  %w_u = memref.cast %w : memref<2120x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9870 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<2120xbf16>
  %g_u = memref.cast %g : memref<2120xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9877 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<2120xbf16>
  %b_u = memref.cast %b : memref<2120xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9884 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 9891 : i64
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
  norm.layer_norm_matmul ins(%x : memref<3x2120xbf16>) residual(%r : memref<3x2120xbf16>) weight(%g : memref<2120xbf16>) bias(%b : memref<2120xbf16>) rhs(%w : memref<2120x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<3x264xbf16>) sum_outs(%s : memref<3x2120xbf16>) mean_outs(%m : memref<3xf32>) rstd_outs(%rs : memref<3xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 295 : i64
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

func.func @lnm_nk_f16() {
  %x = gpu.alloc host_shared () : memref<17x1536xf16>
  %x_u = memref.cast %x : memref<17x1536xf16> to memref<*xf16>
  %x_seed = arith.constant 9898 : i64
  %x_mean = arith.constant 1000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x1536xf16>
  %w_u = memref.cast %w : memref<72x1536xf16> to memref<*xf16>
  %w_seed = arith.constant 9905 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %y = gpu.alloc host_shared () : memref<17x72xf16>
  %y_u = memref.cast %y : memref<17x72xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<17xf32>
  %m_u = memref.cast %m : memref<17xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<17xf32>
  %rs_u = memref.cast %rs : memref<17xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<17x1536xf16>) rhs(%w : memref<72x1536xf16>) outs(%y : memref<17x72xf16>) mean_outs(%m : memref<17xf32>) rstd_outs(%rs : memref<17xf32>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %d_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 192 : i64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x1536xf16>
  gpu.dealloc %w : memref<72x1536xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %y : memref<17x72xf16>
  gpu.dealloc %m : memref<17xf32>
  gpu.dealloc %rs : memref<17xf32>
  return
}

// M and K unknown to the kernel: the slice count is computed at run time.
func.func @rmm_dyn_k_bf16_op(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x128xbf16>, %y: memref<?x128xbf16>, %rs: memref<?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) rhs(%w : memref<?x128xbf16>) outs(%y : memref<?x128xbf16>) rstd_outs(%rs : memref<?xf32>) {epsilon = 1.0e-06 : f64}
  return
}

func.func @rmm_dyn_k_bf16() {
  %x = gpu.alloc host_shared () : memref<16x1536xbf16>
  %x_u = memref.cast %x : memref<16x1536xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9912 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1536x128xbf16>
  %w_u = memref.cast %w : memref<1536x128xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9919 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1536xbf16>
  %g_u = memref.cast %g : memref<1536xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9926 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x128xbf16>
  %y_u = memref.cast %y : memref<16x128xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<16xf32>
  %rs_u = memref.cast %rs : memref<16xf32> to memref<*xf32>
  %x_d = memref.cast %x : memref<16x1536xbf16> to memref<?x?xbf16>
  %g_d = memref.cast %g : memref<1536xbf16> to memref<?xbf16>
  %w_d = memref.cast %w : memref<1536x128xbf16> to memref<?x128xbf16>
  %y_d = memref.cast %y : memref<16x128xbf16> to memref<?x128xbf16>
  %rs_d = memref.cast %rs : memref<16xf32> to memref<?xf32>
  func.call @rmm_dyn_k_bf16_op(%x_d, %g_d, %w_d, %y_d, %rs_d) : (memref<?x?xbf16>, memref<?xbf16>, memref<?x128xbf16>, memref<?x128xbf16>, memref<?xf32>) -> ()
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 128 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x1536xbf16>
  gpu.dealloc %w : memref<1536x128xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1536xbf16>
  gpu.dealloc %y : memref<16x128xbf16>
  gpu.dealloc %rs : memref<16xf32>
  return
}

// matmul → RMSNorm: the GEMM has no prologue (C = X·W + bias + residual,
// the pre-norm sum); 16 × 1024 → 264: 8 + 8 tiles.
func.func @mrn_kn_bf16_none() {
  %x = gpu.alloc host_shared () : memref<16x1024xbf16>
  %x_u = memref.cast %x : memref<16x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1210 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x264xbf16>
  %w_u = memref.cast %w : memref<1024x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1217 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<264xbf16>
  %g_u = memref.cast %g : memref<264xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1224 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1231 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<16x264xbf16>
  %r_u = memref.cast %r : memref<16x264xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1238 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x264xbf16>
  %y_u = memref.cast %y : memref<16x264xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<16x264xbf16>
  %s_u = memref.cast %s : memref<16x264xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%x : memref<16x1024xbf16>) rhs(%w : memref<1024x264xbf16>) matmul_bias(%mb : memref<264xbf16>) residual(%r : memref<16x264xbf16>) weight(%g : memref<264xbf16>) outs(%y : memref<16x264xbf16>) sum_outs(%s : memref<16x264xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%x_u, %w_u, %mb_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x1024xbf16>
  gpu.dealloc %w : memref<1024x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<264xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %r : memref<16x264xbf16>
  gpu.dealloc %y : memref<16x264xbf16>
  gpu.dealloc %s : memref<16x264xbf16>
  return
}
