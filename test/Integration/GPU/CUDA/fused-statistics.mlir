// GPU execution of the norm → matmul ops' saved statistics (mean_outs,
// rstd_outs: what a training graph keeps for the backward) through
// --norm-lower-to-nvvm: C and the statistics of every case compared with the
// float64 reference of test/lib/Runtime on seeded random inputs (row 1 of X
// has mean 1e4), C at the fused tolerance, mean and rstd at the statistics
// tolerance (DESIGN.md §4). Each kernel the op can take writes them, once
// per row: the mma.sync kernel's epilogue (from the blocks of the first
// column tile), the split-K reduction (statistics over all of K, after the
// slices), the sm_90a wgmma kernel's epilogue (RMSNorm, serial and
// pipelined, 64- and 128-row blocks), the guarded-load kernel, the
// normalize-first forms (cast_mode, pRMSNorm: their own statistics pass),
// and N = 0 (no column of C, the statistics still written). The f32 twin
// (%bf16_to_f32) runs the SIMT kernels. Needs an sm_90 GPU (H100/H200); run
// on host threads by test/Integration/GPU/Emulated/fused-statistics.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: %bf16_to_f32 %s > %t.f32.mlir
// RUN: norm-opt %t.f32.mlir --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %t.f32.mlir

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [70x1024] w=[1024x256] gamma{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [70x1024] axis=1 rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [200x256] w=[136x256] mbias trans_rhs{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics f16 [200x256] axis=1 rstd{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [70x1024] w=[1024x256] gamma beta{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [70x1024] axis=1 mean rstd{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [65x256] w=[384x256] residual gamma beta trans_rhs eps_out sum{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics f16 [65x256] axis=1 residual eps_out mean rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [33x512] w=[512x72] residual gamma sum{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [33x512] axis=1 residual rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [1x100] w=[100x36] gamma{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics f16 [1x100] axis=1 rstd{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [3x64] w=[64x0] gamma beta{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [3x64] axis=1 mean rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [40x256] w=[256x64] gamma{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [40x256] axis=1 rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [17x520] w=[520x24] gamma{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [17x520] axis=1 rstd{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [9x128] w=[128x40] gamma beta{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics f16 [9x128] axis=1 mean rstd{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [2x3x64] w=[64x16] gamma{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [2x3x64] axis=2 rstd{{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rmm_split_bf16() : () -> ()
  func.call @rmm_wgmma_nk_f16() : () -> ()
  func.call @lnm_split_bf16() : () -> ()
  func.call @rlnm_nk_f16() : () -> ()
  func.call @rrmm_split_bf16() : () -> ()
  func.call @rmm_guarded_m1_f16() : () -> ()
  func.call @lnm_n0_bf16() : () -> ()
  func.call @rmm_cast_bf16() : () -> ()
  func.call @prmm_bf16() : () -> ()
  func.call @lnm_cast_f16() : () -> ()
  func.call @rmm_rank3_bf16() : () -> ()
  return
}

// RMSNorm, K×N W, a tail in M: 4 K slices (the reduction writes rstd); the
// wgmma kernel (γ: serial) at sm_90a with split-K off.
func.func @rmm_split_bf16() {
  %x = gpu.alloc host_shared () : memref<70x1024xbf16>
  %x_u = memref.cast %x : memref<70x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7008 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x256xbf16>
  %w_u = memref.cast %w : memref<1024x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7015 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1024xbf16>
  %g_u = memref.cast %g : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7022 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x256xbf16>
  %y_u = memref.cast %y : memref<70x256xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  %rs_u = memref.cast %rs : memref<70xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<70x1024xbf16>) weight(%g : memref<1024xbf16>) rhs(%w : memref<1024x256xbf16>) outs(%y : memref<70x256xbf16>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1024xbf16>
  gpu.dealloc %w : memref<1024x256xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1024xbf16>
  gpu.dealloc %y : memref<70x256xbf16>
  gpu.dealloc %rs : memref<70xf32>
  return
}

// RMSNorm without γ, N×K W, tails in M and N, K = 256 (never split): the
// pipelined wgmma kernel at sm_90a.
func.func @rmm_wgmma_nk_f16() {
  %x = gpu.alloc host_shared () : memref<200x256xf16>
  %x_u = memref.cast %x : memref<200x256xf16> to memref<*xf16>
  %x_seed = arith.constant 7029 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x256xf16>
  %w_u = memref.cast %w : memref<136x256xf16> to memref<*xf16>
  %w_seed = arith.constant 7036 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %mb = gpu.alloc host_shared () : memref<136xf16>
  %mb_u = memref.cast %mb : memref<136xf16> to memref<*xf16>
  %mb_seed = arith.constant 7043 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x136xf16>
  %y_u = memref.cast %y : memref<200x136xf16> to memref<*xf16>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  %rs_u = memref.cast %rs : memref<200xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<200x256xf16>) rhs(%w : memref<136x256xf16>) matmul_bias(%mb : memref<136xf16>) outs(%y : memref<200x136xf16>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 896 : i64
  func.call @norm_test_check_rms_norm_matmul_f16(%x_u, %d_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x256xf16>
  gpu.dealloc %w : memref<136x256xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %mb : memref<136xf16>
  gpu.dealloc %y : memref<200x136xf16>
  gpu.dealloc %rs : memref<200xf32>
  return
}

// LayerNorm, row 1 of mean 1e4: 4 K slices, the pivot saved beside the row sums
// for the mean.
func.func @lnm_split_bf16() {
  %x = gpu.alloc host_shared () : memref<70x1024xbf16>
  %x_u = memref.cast %x : memref<70x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7050 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x256xbf16>
  %w_u = memref.cast %w : memref<1024x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7057 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1024xbf16>
  %g_u = memref.cast %g : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7064 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1024xbf16>
  %b_u = memref.cast %b : memref<1024xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7071 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x256xbf16>
  %y_u = memref.cast %y : memref<70x256xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<70xf32>
  %m_u = memref.cast %m : memref<70xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  %rs_u = memref.cast %rs : memref<70xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<70x1024xbf16>) weight(%g : memref<1024xbf16>) bias(%b : memref<1024xbf16>) rhs(%w : memref<1024x256xbf16>) outs(%y : memref<70x256xbf16>) mean_outs(%m : memref<70xf32>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1024xbf16>
  gpu.dealloc %w : memref<1024x256xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<1024xbf16>
  gpu.dealloc %b : memref<1024xbf16>
  gpu.dealloc %y : memref<70x256xbf16>
  gpu.dealloc %m : memref<70xf32>
  gpu.dealloc %rs : memref<70xf32>
  return
}

// LayerNorm with a residual (the statistics of S), ε outside the root, N×K W,
// unsplit.
func.func @rlnm_nk_f16() {
  %x = gpu.alloc host_shared () : memref<65x256xf16>
  %x_u = memref.cast %x : memref<65x256xf16> to memref<*xf16>
  %x_seed = arith.constant 7078 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<65x256xf16>
  %r_u = memref.cast %r : memref<65x256xf16> to memref<*xf16>
  %r_seed = arith.constant 7085 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<384x256xf16>
  %w_u = memref.cast %w : memref<384x256xf16> to memref<*xf16>
  %w_seed = arith.constant 7092 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<256xf16>
  %g_u = memref.cast %g : memref<256xf16> to memref<*xf16>
  %g_seed = arith.constant 7099 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<256xf16>
  %b_u = memref.cast %b : memref<256xf16> to memref<*xf16>
  %b_seed = arith.constant 7106 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<65x384xf16>
  %y_u = memref.cast %y : memref<65x384xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<65x256xf16>
  %s_u = memref.cast %s : memref<65x256xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<65xf32>
  %m_u = memref.cast %m : memref<65xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<65xf32>
  %rs_u = memref.cast %rs : memref<65xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<65x256xf16>) residual(%r : memref<65x256xf16>) weight(%g : memref<256xf16>) bias(%b : memref<256xf16>) rhs(%w : memref<384x256xf16>) outs(%y : memref<65x384xf16>) sum_outs(%s : memref<65x256xf16>) mean_outs(%m : memref<65xf32>) rstd_outs(%rs : memref<65xf32>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 751 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_f16(%x_u, %r_u, %g_u, %b_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %r_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<65x256xf16>
  gpu.dealloc %r : memref<65x256xf16>
  gpu.dealloc %w : memref<384x256xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<256xf16>
  gpu.dealloc %b : memref<256xf16>
  gpu.dealloc %y : memref<65x384xf16>
  gpu.dealloc %s : memref<65x256xf16>
  gpu.dealloc %m : memref<65xf32>
  gpu.dealloc %rs : memref<65xf32>
  return
}

// RMSNorm with a residual and Gemma's offset: 2 K slices.
func.func @rrmm_split_bf16() {
  %x = gpu.alloc host_shared () : memref<33x512xbf16>
  %x_u = memref.cast %x : memref<33x512xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7113 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<33x512xbf16>
  %r_u = memref.cast %r : memref<33x512xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7120 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<512x72xbf16>
  %w_u = memref.cast %w : memref<512x72xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7127 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<512xbf16>
  %g_u = memref.cast %g : memref<512xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7134 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x72xbf16>
  %y_u = memref.cast %y : memref<33x72xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<33x512xbf16>
  %s_u = memref.cast %s : memref<33x512xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<33xf32>
  %rs_u = memref.cast %rs : memref<33xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<33x512xbf16>) residual(%r : memref<33x512xbf16>) weight(%g : memref<512xbf16>) rhs(%w : memref<512x72xbf16>) outs(%y : memref<33x72xbf16>) sum_outs(%s : memref<33x512xbf16>) rstd_outs(%rs : memref<33xf32>) {epsilon = 1.0e-05 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 163 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %g_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x512xbf16>
  gpu.dealloc %r : memref<33x512xbf16>
  gpu.dealloc %w : memref<512x72xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<512xbf16>
  gpu.dealloc %y : memref<33x72xbf16>
  gpu.dealloc %s : memref<33x512xbf16>
  gpu.dealloc %rs : memref<33xf32>
  return
}

// M = 1, K not a multiple of 8: the guarded-load kernel.
func.func @rmm_guarded_m1_f16() {
  %x = gpu.alloc host_shared () : memref<1x100xf16>
  %x_u = memref.cast %x : memref<1x100xf16> to memref<*xf16>
  %x_seed = arith.constant 7141 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<100x36xf16>
  %w_u = memref.cast %w : memref<100x36xf16> to memref<*xf16>
  %w_seed = arith.constant 7148 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<100xf16>
  %g_u = memref.cast %g : memref<100xf16> to memref<*xf16>
  %g_seed = arith.constant 7155 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<1x36xf16>
  %y_u = memref.cast %y : memref<1x36xf16> to memref<*xf16>
  %rs = gpu.alloc host_shared () : memref<1xf32>
  %rs_u = memref.cast %rs : memref<1xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<1x100xf16>) weight(%g : memref<100xf16>) rhs(%w : memref<100x36xf16>) outs(%y : memref<1x36xf16>) rstd_outs(%rs : memref<1xf32>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  func.call @norm_test_check_rms_norm_matmul_f16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x100xf16>
  gpu.dealloc %w : memref<100x36xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<100xf16>
  gpu.dealloc %y : memref<1x36xf16>
  gpu.dealloc %rs : memref<1xf32>
  return
}

// N = 0: one column of blocks still runs and writes the statistics.
func.func @lnm_n0_bf16() {
  %x = gpu.alloc host_shared () : memref<3x64xbf16>
  %x_u = memref.cast %x : memref<3x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7162 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x0xbf16>
  %w_u = memref.cast %w : memref<64x0xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7169 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7176 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<64xbf16>
  %b_u = memref.cast %b : memref<64xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7183 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x0xbf16>
  %y_u = memref.cast %y : memref<3x0xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<3xf32>
  %m_u = memref.cast %m : memref<3xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<3xf32>
  %rs_u = memref.cast %rs : memref<3xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<3x64xbf16>) weight(%g : memref<64xbf16>) bias(%b : memref<64xbf16>) rhs(%w : memref<64x0xbf16>) outs(%y : memref<3x0xbf16>) mean_outs(%m : memref<3xf32>) rstd_outs(%rs : memref<3xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x64xbf16>
  gpu.dealloc %w : memref<64x0xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %b : memref<64xbf16>
  gpu.dealloc %y : memref<3x0xbf16>
  gpu.dealloc %m : memref<3xf32>
  gpu.dealloc %rs : memref<3xf32>
  return
}

// cast_mode: each row normalized before the product (its own statistics pass).
func.func @rmm_cast_bf16() {
  %x = gpu.alloc host_shared () : memref<40x256xbf16>
  %x_u = memref.cast %x : memref<40x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7190 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<256x64xbf16>
  %w_u = memref.cast %w : memref<256x64xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7197 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<256xbf16>
  %g_u = memref.cast %g : memref<256xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7204 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<40x64xbf16>
  %y_u = memref.cast %y : memref<40x64xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<40xf32>
  %rs_u = memref.cast %rs : memref<40xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<40x256xbf16>) weight(%g : memref<256xbf16>) rhs(%w : memref<256x64xbf16>) outs(%y : memref<40x64xbf16>) rstd_outs(%rs : memref<40xf32>) {epsilon = 1.0e-05 : f64, cast_mode = #norm.cast_mode<after_weight>}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 32898 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<40x256xbf16>
  gpu.dealloc %w : memref<256x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<256xbf16>
  gpu.dealloc %y : memref<40x64xbf16>
  gpu.dealloc %rs : memref<40xf32>
  return
}

// pRMSNorm (p = 0.25): rstd over the first ⌈p·K⌉ columns.
func.func @prmm_bf16() {
  %x = gpu.alloc host_shared () : memref<17x520xbf16>
  %x_u = memref.cast %x : memref<17x520xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7211 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<520x24xbf16>
  %w_u = memref.cast %w : memref<520x24xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7218 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<520xbf16>
  %g_u = memref.cast %g : memref<520xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7225 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<17x24xbf16>
  %y_u = memref.cast %y : memref<17x24xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<17xf32>
  %rs_u = memref.cast %rs : memref<17xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<17x520xbf16>) weight(%g : memref<520xbf16>) rhs(%w : memref<520x24xbf16>) outs(%y : memref<17x24xbf16>) rstd_outs(%rs : memref<17xf32>) {epsilon = 1.0e-05 : f64, partial = 0.25 : f32}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 1073741954 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 0.25 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x520xbf16>
  gpu.dealloc %w : memref<520x24xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<520xbf16>
  gpu.dealloc %y : memref<17x24xbf16>
  gpu.dealloc %rs : memref<17xf32>
  return
}

// LayerNorm with cast_mode before_weight: normalized before the product, row 1
// of mean 1e4 (the normalize-first pass centres x on its f32 mean and keeps
// the correction Σd/n beside it; without it the f32 twin's C missed f32's
// tolerance, 3e-5).
func.func @lnm_cast_f16() {
  %x = gpu.alloc host_shared () : memref<9x128xf16>
  %x_u = memref.cast %x : memref<9x128xf16> to memref<*xf16>
  %x_seed = arith.constant 7232 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<128x40xf16>
  %w_u = memref.cast %w : memref<128x40xf16> to memref<*xf16>
  %w_seed = arith.constant 7239 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<128xf16>
  %g_u = memref.cast %g : memref<128xf16> to memref<*xf16>
  %g_seed = arith.constant 7246 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<128xf16>
  %b_u = memref.cast %b : memref<128xf16> to memref<*xf16>
  %b_seed = arith.constant 7253 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<9x40xf16>
  %y_u = memref.cast %y : memref<9x40xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<9xf32>
  %m_u = memref.cast %m : memref<9xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<9xf32>
  %rs_u = memref.cast %rs : memref<9xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<9x128xf16>) weight(%g : memref<128xf16>) bias(%b : memref<128xf16>) rhs(%w : memref<128x40xf16>) outs(%y : memref<9x40xf16>) mean_outs(%m : memref<9xf32>) rstd_outs(%rs : memref<9xf32>) {epsilon = 1.0e-05 : f64, cast_mode = #norm.cast_mode<before_weight>}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 32982 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<9x128xf16>
  gpu.dealloc %w : memref<128x40xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<128xf16>
  gpu.dealloc %b : memref<128xf16>
  gpu.dealloc %y : memref<9x40xf16>
  gpu.dealloc %m : memref<9xf32>
  gpu.dealloc %rs : memref<9xf32>
  return
}

// A rank-3 input: rstd of shape 2×3.
func.func @rmm_rank3_bf16() {
  %x = gpu.alloc host_shared () : memref<2x3x64xbf16>
  %x_u = memref.cast %x : memref<2x3x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7260 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x16xbf16>
  %w_u = memref.cast %w : memref<64x16xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7267 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7274 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<2x3x16xbf16>
  %y_u = memref.cast %y : memref<2x3x16xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<2x3xf32>
  %rs_u = memref.cast %rs : memref<2x3xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<2x3x64xbf16>) weight(%g : memref<64xbf16>) rhs(%w : memref<64x16xbf16>) outs(%y : memref<2x3x16xbf16>) rstd_outs(%rs : memref<2x3xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %df_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<2x3x64xbf16>
  gpu.dealloc %w : memref<64x16xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %y : memref<2x3x16xbf16>
  gpu.dealloc %rs : memref<2x3xf32>
  return
}
