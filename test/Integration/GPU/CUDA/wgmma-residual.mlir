// GPU execution of the sm_90a warpgroup-MMA GEMM with a residual-add
// prologue (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp): R's tile
// loaded by TMA beside A's with the same swizzle, s = round(x + r) formed
// once a chunk (emitResidualSum, as the mma.sync kernel), written to S by
// the first column of blocks, the statistics of s in the mma.sync kernel's
// order (RMSNorm: two fma chains; LayerNorm: the pivot of s, Σ(s − p),
// Σ(s − p)²), the A tile rewritten as s, round(s·γ') or round((s − p)·γ'),
// through --norm-lower-to-nvvm at sm_90a, each result (C, S and the saved
// statistics) compared with the float64 reference of test/lib/Runtime on
// seeded random inputs with the tolerances of DESIGN.md §4. Cases: RMSNorm
// bf16 γ, matmul bias, S, rstd, W as K×N, tails in M, N and K (K = 1000);
// RMSNorm f16 without γ or S (the tile rewritten as s itself), W as N×K;
// RMSNorm bf16 weight_offset 1 without γ, S and rstd over 17 K tiles (each
// stage refilled, both barrier parities); RMSNorm f16 γ, S at M = 1, N = 8,
// a single K tile; LayerNorm bf16 γ, β, matmul bias, S, mean and rstd, rows
// of mean 10⁴ (a wrong pivot or an uncorrected variance fails) and R of
// spread 100 (s ≠ x), tails; LayerNorm f16 without γ or β, S, N×K, K = 520.
// The same CHECK lines hold for sm_90 (the mma.sync kernel, whose S and
// statistics the wgmma kernel reproduces bit for bit:
// Emulated/wgmma-residual-bits.mlir). Schedules: pipelined 64 × 128 (the
// default), 128 × 256 (two consumer warpgroups), 128 × 128 (more consumer
// threads than columns), 64 × 256 (two columns a thread), 128 × 256 with
// each row's chunks in the order c (wgmma-conflict-free-prologue=0), and
// serial. Needs an sm_90 GPU (H100/H200). Run on host threads by
// test/Integration/GPU/Emulated/wgmma-residual.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=128}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=64 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-conflict-free-prologue=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [200x1000] w=[1000x264] residual gamma mbias sum: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [200x1000] axis=1 residual rstd: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [70x520] w=[136x520] residual trans_rhs: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [65x1032] w=[1032x136] residual sum offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul statistics bf16 [65x1032] axis=1 residual rstd: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [1x64] w=[64x8] residual gamma sum: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [200x1000] w=[1000x264] residual gamma beta mbias sum: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [200x1000] axis=1 residual mean rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [70x520] w=[136x520] residual trans_rhs sum: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics f16 [70x520] axis=1 residual mean rstd: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_residual_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rr_kn_bf16_tails() : () -> ()
  func.call @rr_nk_f16_plain() : () -> ()
  func.call @rr_kn_bf16_offset() : () -> ()
  func.call @rr_kn_f16_m1() : () -> ()
  func.call @lr_kn_bf16_tails() : () -> ()
  func.call @lr_nk_f16() : () -> ()
  return
}

func.func @rr_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9401 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<200x1000xbf16>
  %r_u = memref.cast %r : memref<200x1000xbf16> to memref<*xbf16>
  %r_seed = arith.constant 9408 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x264xbf16>
  %w_u = memref.cast %w : memref<1000x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9415 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9422 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 9436 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x264xbf16>
  %y_u = memref.cast %y : memref<200x264xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<200x1000xbf16>
  %s_u = memref.cast %s : memref<200x1000xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  %rs_u = memref.cast %rs : memref<200xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<200x1000xbf16>) residual(%r : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) sum_outs(%s : memref<200x1000xbf16>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %g_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 129 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %rs_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %r : memref<200x1000xbf16>
  gpu.dealloc %w : memref<1000x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<200x264xbf16>
  gpu.dealloc %s : memref<200x1000xbf16>
  gpu.dealloc %rs : memref<200xf32>
  return
}

func.func @rr_nk_f16_plain() {
  %x = gpu.alloc host_shared () : memref<70x520xf16>
  %x_u = memref.cast %x : memref<70x520xf16> to memref<*xf16>
  %x_seed = arith.constant 9451 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<70x520xf16>
  %r_u = memref.cast %r : memref<70x520xf16> to memref<*xf16>
  %r_seed = arith.constant 9458 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<136x520xf16>
  %w_u = memref.cast %w : memref<136x520xf16> to memref<*xf16>
  %w_seed = arith.constant 9465 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<70x520xf16>) residual(%r : memref<70x520xf16>) rhs(%w : memref<136x520xf16>) outs(%y : memref<70x136xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 513 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_f16(%x_u, %r_u, %d_u, %w_u, %d_u, %y_u, %d_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x520xf16>
  gpu.dealloc %r : memref<70x520xf16>
  gpu.dealloc %w : memref<136x520xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<70x136xf16>
  return
}

func.func @rr_kn_bf16_offset() {
  %x = gpu.alloc host_shared () : memref<65x1032xbf16>
  %x_u = memref.cast %x : memref<65x1032xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9501 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<65x1032xbf16>
  %r_u = memref.cast %r : memref<65x1032xbf16> to memref<*xbf16>
  %r_seed = arith.constant 9508 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1032x136xbf16>
  %w_u = memref.cast %w : memref<1032x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9515 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<65x136xbf16>
  %y_u = memref.cast %y : memref<65x136xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<65x1032xbf16>
  %s_u = memref.cast %s : memref<65x1032xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<65xf32>
  %rs_u = memref.cast %rs : memref<65xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<65x1032xbf16>) residual(%r : memref<65x1032xbf16>) rhs(%w : memref<1032x136xbf16>) outs(%y : memref<65x136xbf16>) sum_outs(%s : memref<65x1032xbf16>) rstd_outs(%rs : memref<65xf32>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 33 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %d_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 129 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %rs_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<65x1032xbf16>
  gpu.dealloc %r : memref<65x1032xbf16>
  gpu.dealloc %w : memref<1032x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<65x136xbf16>
  gpu.dealloc %s : memref<65x1032xbf16>
  gpu.dealloc %rs : memref<65xf32>
  return
}

func.func @rr_kn_f16_m1() {
  %x = gpu.alloc host_shared () : memref<1x64xf16>
  %x_u = memref.cast %x : memref<1x64xf16> to memref<*xf16>
  %x_seed = arith.constant 9551 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<1x64xf16>
  %r_u = memref.cast %r : memref<1x64xf16> to memref<*xf16>
  %r_seed = arith.constant 9558 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<64x8xf16>
  %w_u = memref.cast %w : memref<64x8xf16> to memref<*xf16>
  %w_seed = arith.constant 9565 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<64xf16>
  %g_u = memref.cast %g : memref<64xf16> to memref<*xf16>
  %g_seed = arith.constant 9572 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<1x8xf16>
  %y_u = memref.cast %y : memref<1x8xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<1x64xf16>
  %s_u = memref.cast %s : memref<1x64xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<1x64xf16>) residual(%r : memref<1x64xf16>) weight(%g : memref<64xf16>) rhs(%w : memref<64x8xf16>) outs(%y : memref<1x8xf16>) sum_outs(%s : memref<1x64xf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_f16(%x_u, %r_u, %g_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x64xf16>
  gpu.dealloc %r : memref<1x64xf16>
  gpu.dealloc %w : memref<64x8xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<64xf16>
  gpu.dealloc %y : memref<1x8xf16>
  gpu.dealloc %s : memref<1x64xf16>
  return
}

func.func @lr_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9601 : i64
  %x_mean = arith.constant 10000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<200x1000xbf16>
  %r_u = memref.cast %r : memref<200x1000xbf16> to memref<*xbf16>
  %r_seed = arith.constant 9608 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 100.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x264xbf16>
  %w_u = memref.cast %w : memref<1000x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9615 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9622 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1000xbf16>
  %b_u = memref.cast %b : memref<1000xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9629 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 9636 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x264xbf16>
  %y_u = memref.cast %y : memref<200x264xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<200x1000xbf16>
  %s_u = memref.cast %s : memref<200x1000xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<200xf32>
  %m_u = memref.cast %m : memref<200xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  %rs_u = memref.cast %rs : memref<200xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<200x1000xbf16>) residual(%r : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) sum_outs(%s : memref<200x1000xbf16>) mean_outs(%m : memref<200xf32>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 295 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_bf16(%x_u, %r_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 193 : i64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %r_u, %m_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %r : memref<200x1000xbf16>
  gpu.dealloc %w : memref<1000x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %b : memref<1000xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<200x264xbf16>
  gpu.dealloc %s : memref<200x1000xbf16>
  gpu.dealloc %m : memref<200xf32>
  gpu.dealloc %rs : memref<200xf32>
  return
}

func.func @lr_nk_f16() {
  %x = gpu.alloc host_shared () : memref<70x520xf16>
  %x_u = memref.cast %x : memref<70x520xf16> to memref<*xf16>
  %x_seed = arith.constant 9651 : i64
  %x_mean = arith.constant 1000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<70x520xf16>
  %r_u = memref.cast %r : memref<70x520xf16> to memref<*xf16>
  %r_seed = arith.constant 9658 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 10.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<136x520xf16>
  %w_u = memref.cast %w : memref<136x520xf16> to memref<*xf16>
  %w_seed = arith.constant 9665 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<70x520xf16>
  %s_u = memref.cast %s : memref<70x520xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<70xf32>
  %m_u = memref.cast %m : memref<70xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  %rs_u = memref.cast %rs : memref<70xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<70x520xf16>) residual(%r : memref<70x520xf16>) rhs(%w : memref<136x520xf16>) outs(%y : memref<70x136xf16>) sum_outs(%s : memref<70x520xf16>) mean_outs(%m : memref<70xf32>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 545 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_f16(%x_u, %r_u, %d_u, %d_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  %sflags = arith.constant 193 : i64
  func.call @norm_test_check_norm_matmul_statistics_f16(%x_u, %r_u, %m_u, %rs_u, %is_ln, %eps, %partial, %sflags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x520xf16>
  gpu.dealloc %r : memref<70x520xf16>
  gpu.dealloc %w : memref<136x520xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<70x136xf16>
  gpu.dealloc %s : memref<70x520xf16>
  gpu.dealloc %m : memref<70xf32>
  gpu.dealloc %rs : memref<70xf32>
  return
}

