// GPU execution of the sm_90a warpgroup-MMA GEMM with the RMSNorm prologue
// that rewrites the A tile (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp):
// a = round(x·γ') in the 128-byte-swizzled shared tile, γ' = γ +
// weight_offset, through --norm-lower-to-nvvm=chip=sm_90a, each result
// compared with the float64 reference of test/lib/Runtime on seeded random
// inputs (row 1 of X has mean 1e4) with the tolerances of DESIGN.md §4. γ has
// both signs (mean 0.5, scale 1), so a γ applied to another column than its
// own (a wrong swizzle phase) fails. Cases: bf16 γ with W as K×N and tails
// in M, N and K (K = 1000: the last K tile has 5 of its 8 chunks past K,
// where γ is not read); f16 γ with weight_offset and W as N×K, K = 520 (one
// chunk in the last tile); Gemma's f32 γ with bf16 X and weight_offset 1;
// f32 γ with bf16 X, W as K×N, a bias and tails in M and K (17 K tiles: each
// stage refilled, both barrier parities); weight_offset without γ at M = 1.
// The same CHECK lines hold for sm_90 (the mma.sync kernel's prologue, the
// same numerics), and the fused-matmul files run at sm_90a with split-K off,
// so that every γ and offset case in them takes the wgmma kernel. Schedules:
// pipelined 64 × 128 (the default for these small outputs) and 128 × 256
// (two consumer warpgroups, each behind its named barrier), 128 × 256 with
// each row's chunks read in the order c (wgmma-conflict-free-prologue=0;
// the default reads them in the order c ^ (row % 4)), and serial. Needs an
// sm_90 GPU (H100/H200). Run on host threads by
// test/Integration/GPU/Emulated/wgmma-prologue.test.
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-conflict-free-prologue=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %S/fused-matmul.mlir --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %S/fused-matmul.mlir
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %S/fused-matmul.mlir --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %S/fused-matmul.mlir
// RUN: norm-opt %S/fused-matmul-mixed.mlir --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %S/fused-matmul-mixed.mlir

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [200x1000] w=[1000x264] gamma mbias: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [70x520] w=[136x520] gamma trans_rhs offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [33x136] w=[72x136] gamma trans_rhs params=f32 offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [65x1032] w=[1032x136] gamma mbias params=f32: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [1x136] w=[136x72] offset=1: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16_pf32(memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @gamma_kn_bf16_tails() : () -> ()
  func.call @gamma_offset_nk_f16() : () -> ()
  func.call @gemma_nk_bf16_gf32() : () -> ()
  func.call @gamma_kn_bf16_gf32_tails() : () -> ()
  func.call @offset_kn_bf16_m1() : () -> ()
  return
}

func.func @gamma_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 6001 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x264xbf16>
  %w_u = memref.cast %w : memref<1000x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 6008 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 6015 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 6022 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x264xbf16>
  %y_u = memref.cast %y : memref<200x264xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %w : memref<1000x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<200x264xbf16>
  return
}

func.func @gamma_offset_nk_f16() {
  %x = gpu.alloc host_shared () : memref<70x520xf16>
  %x_u = memref.cast %x : memref<70x520xf16> to memref<*xf16>
  %x_seed = arith.constant 6101 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x520xf16>
  %w_u = memref.cast %w : memref<136x520xf16> to memref<*xf16>
  %w_seed = arith.constant 6108 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<520xf16>
  %g_u = memref.cast %g : memref<520xf16> to memref<*xf16>
  %g_seed = arith.constant 6115 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<70x520xf16>) weight(%g : memref<520xf16>) rhs(%w : memref<136x520xf16>) outs(%y : memref<70x136xf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_rms_norm_matmul_f16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x520xf16>
  gpu.dealloc %w : memref<136x520xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<520xf16>
  gpu.dealloc %y : memref<70x136xf16>
  return
}

func.func @gemma_nk_bf16_gf32() {
  %x = gpu.alloc host_shared () : memref<33x136xbf16>
  %x_u = memref.cast %x : memref<33x136xbf16> to memref<*xbf16>
  %x_seed = arith.constant 6201 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x136xbf16>
  %w_u = memref.cast %w : memref<72x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 6208 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<136xf32>
  %g_u = memref.cast %g : memref<136xf32> to memref<*xf32>
  %g_seed = arith.constant 6215 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x72xbf16>
  %y_u = memref.cast %y : memref<33x72xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<33x136xbf16>) weight(%g : memref<136xf32>) rhs(%w : memref<72x136xbf16>) outs(%y : memref<33x72xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x136xbf16>
  gpu.dealloc %w : memref<72x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<136xf32>
  gpu.dealloc %y : memref<33x72xbf16>
  return
}

func.func @gamma_kn_bf16_gf32_tails() {
  %x = gpu.alloc host_shared () : memref<65x1032xbf16>
  %x_u = memref.cast %x : memref<65x1032xbf16> to memref<*xbf16>
  %x_seed = arith.constant 6301 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1032x136xbf16>
  %w_u = memref.cast %w : memref<1032x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 6308 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1032xf32>
  %g_u = memref.cast %g : memref<1032xf32> to memref<*xf32>
  %g_seed = arith.constant 6315 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<136xbf16>
  %mb_u = memref.cast %mb : memref<136xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 6322 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<65x136xbf16>
  %y_u = memref.cast %y : memref<65x136xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<65x1032xbf16>) weight(%g : memref<1032xf32>) rhs(%w : memref<1032x136xbf16>) matmul_bias(%mb : memref<136xbf16>) outs(%y : memref<65x136xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<65x1032xbf16>
  gpu.dealloc %w : memref<1032x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1032xf32>
  gpu.dealloc %mb : memref<136xbf16>
  gpu.dealloc %y : memref<65x136xbf16>
  return
}

func.func @offset_kn_bf16_m1() {
  %x = gpu.alloc host_shared () : memref<1x136xbf16>
  %x_u = memref.cast %x : memref<1x136xbf16> to memref<*xbf16>
  %x_seed = arith.constant 6401 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x72xbf16>
  %w_u = memref.cast %w : memref<136x72xbf16> to memref<*xbf16>
  %w_seed = arith.constant 6408 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<1x72xbf16>
  %y_u = memref.cast %y : memref<1x72xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<1x136xbf16>) rhs(%w : memref<136x72xbf16>) outs(%y : memref<1x72xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x136xbf16>
  gpu.dealloc %w : memref<136x72xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<1x72xbf16>
  return
}
