// GPU execution of linalg.matmul through --norm-lower-to-nvvm=lower-matmuls:
// the fused ops' GEMM kernel with no prologue (the project's own GEMM alone,
// the baseline of the fused kernels), C += A·W into an f32 C with f32, bf16
// or f16 inputs, W as K×N or (by the indexing maps) N×K, compared with the
// float64 reference of test/lib/Runtime at the fused ops' f32 tolerance
// (1e-5: split over K, the 16x2048 case is 2e-6 off on an H100). Cases: the
// guarded-load kernel (N = 130), the cp.async kernel split over K (few
// output blocks) and not, the SIMT kernel for f32. C starts random, so the
// accumulation into it is checked.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm=lower-matmuls | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="lower-matmuls gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}matmul f32 [70x300] w=[300x130]: {{.*}} PASS
// CHECK: {{^}}matmul bf16 [64x1024] w=[1024x256]: {{.*}} PASS
// CHECK: {{^}}matmul f16 [33x512] w=[200x512] trans_rhs: {{.*}} PASS
// CHECK: {{^}}matmul bf16 [16x2048] w=[384x2048] trans_rhs: {{.*}} PASS
// CHECK: {{^}}matmul f32 [128x256] w=[256x128]: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @mm_f32_guarded() : () -> ()
  func.call @mm_bf16_kn_split() : () -> ()
  func.call @mm_f16_nk() : () -> ()
  func.call @mm_bf16_nk_decode() : () -> ()
  func.call @mm_f32_kn() : () -> ()
  return
}

func.func @mm_f32_guarded() {
  %a = gpu.alloc host_shared () : memref<70x300xf32>
  %a_u = memref.cast %a : memref<70x300xf32> to memref<*xf32>
  %a_seed = arith.constant 3001 : i64
  %a_mean = arith.constant 0.25 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<300x130xf32>
  %w_u = memref.cast %w : memref<300x130xf32> to memref<*xf32>
  %w_seed = arith.constant 3008 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<70x130xf32>
  %c_u = memref.cast %c : memref<70x130xf32> to memref<*xf32>
  %c_seed = arith.constant 3015 : i64
  %c_mean = arith.constant 0.5 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c0 = memref.alloc() : memref<70x130xf32>
  memref.copy %c, %c0 : memref<70x130xf32> to memref<70x130xf32>
  %c0_u = memref.cast %c0 : memref<70x130xf32> to memref<*xf32>
  linalg.matmul ins(%a, %w : memref<70x300xf32>, memref<300x130xf32>) outs(%c : memref<70x130xf32>)
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_matmul_f32(%a_u, %w_u, %c0_u, %c_u, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
  memref.dealloc %c0 : memref<70x130xf32>
  gpu.dealloc %a : memref<70x300xf32>
  gpu.dealloc %w : memref<300x130xf32>
  gpu.dealloc %c : memref<70x130xf32>
  return
}

func.func @mm_bf16_kn_split() {
  %a = gpu.alloc host_shared () : memref<64x1024xbf16>
  %a_u = memref.cast %a : memref<64x1024xbf16> to memref<*xbf16>
  %a_seed = arith.constant 3101 : i64
  %a_mean = arith.constant 0.25 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x256xbf16>
  %w_u = memref.cast %w : memref<1024x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 3108 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<64x256xf32>
  %c_u = memref.cast %c : memref<64x256xf32> to memref<*xf32>
  %c_seed = arith.constant 3115 : i64
  %c_mean = arith.constant 0.5 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c0 = memref.alloc() : memref<64x256xf32>
  memref.copy %c, %c0 : memref<64x256xf32> to memref<64x256xf32>
  %c0_u = memref.cast %c0 : memref<64x256xf32> to memref<*xf32>
  linalg.matmul ins(%a, %w : memref<64x1024xbf16>, memref<1024x256xbf16>) outs(%c : memref<64x256xf32>)
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_matmul_bf16(%a_u, %w_u, %c0_u, %c_u, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64) -> ()
  memref.dealloc %c0 : memref<64x256xf32>
  gpu.dealloc %a : memref<64x1024xbf16>
  gpu.dealloc %w : memref<1024x256xbf16>
  gpu.dealloc %c : memref<64x256xf32>
  return
}

func.func @mm_f16_nk() {
  %a = gpu.alloc host_shared () : memref<33x512xf16>
  %a_u = memref.cast %a : memref<33x512xf16> to memref<*xf16>
  %a_seed = arith.constant 3201 : i64
  %a_mean = arith.constant 0.25 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<200x512xf16>
  %w_u = memref.cast %w : memref<200x512xf16> to memref<*xf16>
  %w_seed = arith.constant 3208 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<33x200xf32>
  %c_u = memref.cast %c : memref<33x200xf32> to memref<*xf32>
  %c_seed = arith.constant 3215 : i64
  %c_mean = arith.constant 0.5 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c0 = memref.alloc() : memref<33x200xf32>
  memref.copy %c, %c0 : memref<33x200xf32> to memref<33x200xf32>
  %c0_u = memref.cast %c0 : memref<33x200xf32> to memref<*xf32>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : memref<33x512xf16>, memref<200x512xf16>) outs(%c : memref<33x200xf32>)
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_matmul_f16(%a_u, %w_u, %c0_u, %c_u, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64) -> ()
  memref.dealloc %c0 : memref<33x200xf32>
  gpu.dealloc %a : memref<33x512xf16>
  gpu.dealloc %w : memref<200x512xf16>
  gpu.dealloc %c : memref<33x200xf32>
  return
}

func.func @mm_bf16_nk_decode() {
  %a = gpu.alloc host_shared () : memref<16x2048xbf16>
  %a_u = memref.cast %a : memref<16x2048xbf16> to memref<*xbf16>
  %a_seed = arith.constant 3301 : i64
  %a_mean = arith.constant 0.25 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<384x2048xbf16>
  %w_u = memref.cast %w : memref<384x2048xbf16> to memref<*xbf16>
  %w_seed = arith.constant 3308 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<16x384xf32>
  %c_u = memref.cast %c : memref<16x384xf32> to memref<*xf32>
  %c_seed = arith.constant 3315 : i64
  %c_mean = arith.constant 0.5 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c0 = memref.alloc() : memref<16x384xf32>
  memref.copy %c, %c0 : memref<16x384xf32> to memref<16x384xf32>
  %c0_u = memref.cast %c0 : memref<16x384xf32> to memref<*xf32>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : memref<16x2048xbf16>, memref<384x2048xbf16>) outs(%c : memref<16x384xf32>)
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_matmul_bf16(%a_u, %w_u, %c0_u, %c_u, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64) -> ()
  memref.dealloc %c0 : memref<16x384xf32>
  gpu.dealloc %a : memref<16x2048xbf16>
  gpu.dealloc %w : memref<384x2048xbf16>
  gpu.dealloc %c : memref<16x384xf32>
  return
}

func.func @mm_f32_kn() {
  %a = gpu.alloc host_shared () : memref<128x256xf32>
  %a_u = memref.cast %a : memref<128x256xf32> to memref<*xf32>
  %a_seed = arith.constant 3401 : i64
  %a_mean = arith.constant 0.25 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<256x128xf32>
  %w_u = memref.cast %w : memref<256x128xf32> to memref<*xf32>
  %w_seed = arith.constant 3408 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<128x128xf32>
  %c_u = memref.cast %c : memref<128x128xf32> to memref<*xf32>
  %c_seed = arith.constant 3415 : i64
  %c_mean = arith.constant 0.5 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c0 = memref.alloc() : memref<128x128xf32>
  memref.copy %c, %c0 : memref<128x128xf32> to memref<128x128xf32>
  %c0_u = memref.cast %c0 : memref<128x128xf32> to memref<*xf32>
  linalg.matmul ins(%a, %w : memref<128x256xf32>, memref<256x128xf32>) outs(%c : memref<128x128xf32>)
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_matmul_f32(%a_u, %w_u, %c0_u, %c_u, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
  memref.dealloc %c0 : memref<128x128xf32>
  gpu.dealloc %a : memref<128x256xf32>
  gpu.dealloc %w : memref<256x128xf32>
  gpu.dealloc %c : memref<128x128xf32>
  return
}
