// GPU execution of the sm_90a warpgroup-MMA GEMM with the LayerNorm prologue
// (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp): the pivot p from K
// tile 0, Σ(x − p) and Σ(x − p)² from the 128-byte-swizzled A tiles in
// shared memory, each tile rewritten as round((x − p)·γ'), the column sums
// c = Σγ'W and Σβ·W from the W tiles while the tile's MMAs run, and
// C = r·acc − r·(μ − p)·c + Σβ·W + bias, through --norm-lower-to-nvvm at
// sm_90a, each result compared with the float64 reference of
// test/lib/Runtime on seeded random inputs with the tolerances of DESIGN.md
// §4. Rows of X have means of ±10⁴·(1 + r % 3) with unit spread in the
// bf16 cases (±10³ in f16), so a wrong pivot or an uncorrected variance
// fails. Cases: bf16 γ, β, matmul bias, W as K×N, tails in M, N and K
// (K = 1000: 5 of the last K tile's 8 chunks past K), with the saved mean
// and rstd; f16 γ, β, W as N×K, K = 520 (one chunk in the last tile); no γ
// or β, N×K; γ, β and the statistics over 17 K tiles (each stage refilled,
// both barrier parities); f16 γ at M = 1, N = 8, a single K tile. The same
// CHECK lines hold for sm_90 (the mma.sync kernel, whose statistics the
// wgmma kernel reproduces bit for bit: wgmma-layer-norm-bits.mlir).
// Schedules: pipelined 64 × 128 (the default for these small outputs),
// 128 × 256 (two consumer warpgroups), 128 × 128 (more consumer threads
// than columns), 64 × 256 (two columns a thread), 128 × 256 with each row's
// chunks in the order c (wgmma-conflict-free-prologue=0), and serial. Needs
// an sm_90 GPU (H100/H200). Run on host threads by
// test/Integration/GPU/Emulated/wgmma-layer-norm.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=128}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=64 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-conflict-free-prologue=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm_matmul bf16 [200x1000] w=[1000x264] gamma beta mbias: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [200x1000] axis=1 mean rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [70x520] w=[136x520] gamma beta trans_rhs: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [33x136] w=[72x136] trans_rhs: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [65x1032] w=[1032x136] gamma beta: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul statistics bf16 [65x1032] axis=1 mean rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [1x64] w=[64x8] gamma: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_matmul_statistics_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @ln_kn_bf16_tails() : () -> ()
  func.call @ln_nk_f16_tail() : () -> ()
  func.call @ln_nk_bf16_plain() : () -> ()
  func.call @ln_kn_bf16_stats() : () -> ()
  func.call @ln_kn_f16_m1() : () -> ()
  return
}

func.func @ln_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9107 : i64
  %x_mean = arith.constant 10000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x264xbf16>
  %w_u = memref.cast %w : memref<1000x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9114 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9121 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1000xbf16>
  %b_u = memref.cast %b : memref<1000xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9128 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 9135 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x264xbf16>
  %y_u = memref.cast %y : memref<200x264xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<200xf32>
  %m_u = memref.cast %m : memref<200xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  %rs_u = memref.cast %rs : memref<200xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) mean_outs(%m : memref<200xf32>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 454 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %w : memref<1000x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %b : memref<1000xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<200x264xbf16>
  gpu.dealloc %m : memref<200xf32>
  gpu.dealloc %rs : memref<200xf32>
  return
}

func.func @ln_nk_f16_tail() {
  %x = gpu.alloc host_shared () : memref<70x520xf16>
  %x_u = memref.cast %x : memref<70x520xf16> to memref<*xf16>
  %x_seed = arith.constant 9142 : i64
  %x_mean = arith.constant 1000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x520xf16>
  %w_u = memref.cast %w : memref<136x520xf16> to memref<*xf16>
  %w_seed = arith.constant 9149 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<520xf16>
  %g_u = memref.cast %g : memref<520xf16> to memref<*xf16>
  %g_seed = arith.constant 9156 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<520xf16>
  %b_u = memref.cast %b : memref<520xf16> to memref<*xf16>
  %b_seed = arith.constant 9163 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  norm.layer_norm_matmul ins(%x : memref<70x520xf16>) weight(%g : memref<520xf16>) bias(%b : memref<520xf16>) rhs(%w : memref<136x520xf16>) outs(%y : memref<70x136xf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 518 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x520xf16>
  gpu.dealloc %w : memref<136x520xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<520xf16>
  gpu.dealloc %b : memref<520xf16>
  gpu.dealloc %y : memref<70x136xf16>
  return
}

func.func @ln_nk_bf16_plain() {
  %x = gpu.alloc host_shared () : memref<33x136xbf16>
  %x_u = memref.cast %x : memref<33x136xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9170 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x136xbf16>
  %w_u = memref.cast %w : memref<72x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9177 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<33x72xbf16>
  %y_u = memref.cast %y : memref<33x72xbf16> to memref<*xbf16>
  norm.layer_norm_matmul ins(%x : memref<33x136xbf16>) rhs(%w : memref<72x136xbf16>) outs(%y : memref<33x72xbf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %d_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x136xbf16>
  gpu.dealloc %w : memref<72x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<33x72xbf16>
  return
}

func.func @ln_kn_bf16_stats() {
  %x = gpu.alloc host_shared () : memref<65x1032xbf16>
  %x_u = memref.cast %x : memref<65x1032xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9184 : i64
  %x_mean = arith.constant 10000.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1032x136xbf16>
  %w_u = memref.cast %w : memref<1032x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9191 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1032xbf16>
  %g_u = memref.cast %g : memref<1032xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9198 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1032xbf16>
  %b_u = memref.cast %b : memref<1032xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9205 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<65x136xbf16>
  %y_u = memref.cast %y : memref<65x136xbf16> to memref<*xbf16>
  %m = gpu.alloc host_shared () : memref<65xf32>
  %m_u = memref.cast %m : memref<65xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<65xf32>
  %rs_u = memref.cast %rs : memref<65xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<65x1032xbf16>) weight(%g : memref<1032xbf16>) bias(%b : memref<1032xbf16>) rhs(%w : memref<1032x136xbf16>) outs(%y : memref<65x136xbf16>) mean_outs(%m : memref<65xf32>) rstd_outs(%rs : memref<65xf32>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  %is_ln = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_norm_matmul_statistics_bf16(%x_u, %d_u, %m_u, %rs_u, %is_ln, %eps, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<65x1032xbf16>
  gpu.dealloc %w : memref<1032x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1032xbf16>
  gpu.dealloc %b : memref<1032xbf16>
  gpu.dealloc %y : memref<65x136xbf16>
  gpu.dealloc %m : memref<65xf32>
  gpu.dealloc %rs : memref<65xf32>
  return
}

func.func @ln_kn_f16_m1() {
  %x = gpu.alloc host_shared () : memref<1x64xf16>
  %x_u = memref.cast %x : memref<1x64xf16> to memref<*xf16>
  %x_seed = arith.constant 9212 : i64
  %x_mean = arith.constant 3.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x8xf16>
  %w_u = memref.cast %w : memref<64x8xf16> to memref<*xf16>
  %w_seed = arith.constant 9219 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<64xf16>
  %g_u = memref.cast %g : memref<64xf16> to memref<*xf16>
  %g_seed = arith.constant 9226 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<1x8xf16>
  %y_u = memref.cast %y : memref<1x8xf16> to memref<*xf16>
  norm.layer_norm_matmul ins(%x : memref<1x64xf16>) weight(%g : memref<64xf16>) rhs(%w : memref<64x8xf16>) outs(%y : memref<1x8xf16>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x64xf16>
  gpu.dealloc %w : memref<64x8xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<64xf16>
  gpu.dealloc %y : memref<1x8xf16>
  return
}

