// GPU execution of the sm_90a warpgroup-MMA GEMM (wgmma.mma_async with TMA
// loads, lib/Conversion/NormToGPU/Gemm/WarpgroupGemm.cpp) through
// --norm-lower-to-nvvm=chip=sm_90a, each result compared with the float64
// reference of test/lib/Runtime on seeded random inputs with the tolerances
// of DESIGN.md §4 (bf16 1e-2, f16 2e-3). Split-K is off so that every case
// takes the wgmma kernel. Cases: RMSNorm → matmul without γ (the form
// --norm-fuse-matmul leaves once γ is folded into W) with W as K×N (two
// 64-column slabs a stage) and tails in M, N and K and 16 K tiles (each of
// the 4 stages refilled 3 times, both barrier parities), W as N×K (K-major
// B), M = 1 with fewer K tiles than stages; matmul → RMSNorm with a
// residual and sum_outs (the GEMM with no prologue, its epilogue adding
// bias and residual). Each case runs in the serial schedule (the default)
// and in the warp-specialized one (wgmma-pipeline=1, WarpgroupPipeline.cpp)
// with each block: 64 × 128, 64 × 256, 128 × 128, 128 × 256. Needs an
// sm_90 GPU (H100/H200).
// REQUIRES: cuda-gpu, cuda-sm90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-m=128}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-m=128 wgmma-block-n=256}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// The variants the benchmark compares (gpu-options): wgmma-scale-d0 (K
// tile 0 peeled, its first MMA with scale-d 0, so nothing but wgmma writes
// the accumulators) and wgmma-vector-store (C's column pairs as one vector),
// and the linalg.matmul test (f32 C += A·W) at sm_90a under both.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-scale-d0=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-vector-store=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-scale-d0=1 wgmma-vector-store=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=1 wgmma-scale-d0=1 wgmma-vector-store=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a gpu-options={max-split-k=1 wgmma-pipeline=0 wgmma-vector-store=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %S/gemm-matmul.mlir --norm-lower-to-nvvm="chip=sm_90a lower-matmuls gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-scale-d0=1 wgmma-vector-store=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %S/gemm-matmul.mlir

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [200x1000] w=[1000x264] mbias: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [70x512] w=[136x512] trans_rhs: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [1x136] w=[136x72]: {{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [100x256] w=[200x256] residual gamma mbias trans_rhs sum: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rmm_kn_bf16_tails() : () -> ()
  func.call @rmm_nk_f16() : () -> ()
  func.call @rmm_m1_bf16_short_k() : () -> ()
  func.call @mrn_nk_bf16() : () -> ()
  return
}

func.func @rmm_kn_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 2001 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x264xbf16>
  %w_u = memref.cast %w : memref<1000x264xbf16> to memref<*xbf16>
  %w_seed = arith.constant 2008 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %mb = gpu.alloc host_shared () : memref<264xbf16>
  %mb_u = memref.cast %mb : memref<264xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 2015 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x264xbf16>
  %y_u = memref.cast %y : memref<200x264xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<200x1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 256 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %d_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %w : memref<1000x264xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %mb : memref<264xbf16>
  gpu.dealloc %y : memref<200x264xbf16>
  return
}

func.func @rmm_nk_f16() {
  %x = gpu.alloc host_shared () : memref<70x512xf16>
  %x_u = memref.cast %x : memref<70x512xf16> to memref<*xf16>
  %x_seed = arith.constant 2101 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x512xf16>
  %w_u = memref.cast %w : memref<136x512xf16> to memref<*xf16>
  %w_seed = arith.constant 2108 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<70x136xf16>
  %y_u = memref.cast %y : memref<70x136xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<70x512xf16>) rhs(%w : memref<136x512xf16>) outs(%y : memref<70x136xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_rms_norm_matmul_f16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x512xf16>
  gpu.dealloc %w : memref<136x512xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<70x136xf16>
  return
}

func.func @rmm_m1_bf16_short_k() {
  %x = gpu.alloc host_shared () : memref<1x136xbf16>
  %x_u = memref.cast %x : memref<1x136xbf16> to memref<*xbf16>
  %x_seed = arith.constant 2201 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<136x72xbf16>
  %w_u = memref.cast %w : memref<136x72xbf16> to memref<*xbf16>
  %w_seed = arith.constant 2208 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<1x72xbf16>
  %y_u = memref.cast %y : memref<1x72xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<1x136xbf16>) rhs(%w : memref<136x72xbf16>) outs(%y : memref<1x72xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x136xbf16>
  gpu.dealloc %w : memref<136x72xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<1x72xbf16>
  return
}

func.func @mrn_nk_bf16() {
  %x = gpu.alloc host_shared () : memref<100x256xbf16>
  %x_u = memref.cast %x : memref<100x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 2301 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<200x256xbf16>
  %w_u = memref.cast %w : memref<200x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 2308 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<200xbf16>
  %g_u = memref.cast %g : memref<200xbf16> to memref<*xbf16>
  %g_seed = arith.constant 2315 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<200xbf16>
  %mb_u = memref.cast %mb : memref<200xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 2322 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<100x200xbf16>
  %r_u = memref.cast %r : memref<100x200xbf16> to memref<*xbf16>
  %r_seed = arith.constant 2329 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<100x200xbf16>
  %y_u = memref.cast %y : memref<100x200xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<100x200xbf16>
  %s_u = memref.cast %s : memref<100x200xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%x : memref<100x256xbf16>) rhs(%w : memref<200x256xbf16>) matmul_bias(%mb : memref<200xbf16>) residual(%r : memref<100x200xbf16>) weight(%g : memref<200xbf16>) outs(%y : memref<100x200xbf16>) sum_outs(%s : memref<100x200xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 803 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%x_u, %w_u, %mb_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<100x256xbf16>
  gpu.dealloc %w : memref<200x256xbf16>
  gpu.dealloc %g : memref<200xbf16>
  gpu.dealloc %mb : memref<200xbf16>
  gpu.dealloc %r : memref<100x200xbf16>
  gpu.dealloc %y : memref<100x200xbf16>
  gpu.dealloc %s : memref<100x200xbf16>
  return
}
