// GPU execution of the fused norm/matmul ops with mixed element types
// (docs/design.md, "Mixed element types") through --norm-lower-to-nvvm,
// checked against the float64 reference of test/lib/Runtime (its _pf32 and
// _of32 checkers) on seeded random inputs: f32 γ/β with bf16/f16 data
// (Gemma 3, weight_offset 1), staged in shared memory at f32; bf16/f16 A and
// W with an f32 output (S, the residual and the bias f32 for matmul → norm);
// the cp.async, guarded-load and split-K kernels. The same file runs on host
// threads in test/Integration/GPU/Emulated/fused-matmul-mixed.test.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [33x128] w=[72x128] gamma trans_rhs params=f32 offset=1: {{.*}} tol=1e-02 PASS
// CHECK: {{^}}rms_norm_matmul bf16 [4x1024] w=[1024x64] gamma params=f32 offset=1: {{.*}} tol=1e-02 PASS
// CHECK: {{^}}layer_norm_matmul f16 [17x100] w=[100x40] gamma beta mbias params=f32 out=f32: {{.*}} tol=2e-03 PASS
// CHECK: {{^}}rms_norm_matmul bf16 [5x64] w=[24x64] residual gamma mbias trans_rhs sum params=f32 out=f32: {{.*}} tol=1e-02 {{.*}}PASS
// CHECK: {{^}}matmul_rms_norm bf16 [16x64] w=[64x64] residual gamma mbias sum params=f32 out=f32: {{.*}} tol=1e-05 {{.*}}PASS
// CHECK: {{^}}matmul_layer_norm f16 [7x40] w=[48x40] gamma beta trans_rhs params=f32: {{.*}} tol=2e-03 PASS
// CHECK: {{^}}matmul_rms_norm bf16 [3x36] w=[36x20] residual gamma sum params=f32 offset=1: {{.*}} tol=1e-02 {{.*}}PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_matmul_f16_of32(memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f16_pf32(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16_of32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16_pf32(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_bf16_of32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16_pf32(memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @gemma_rmm_nk_bf16() : () -> ()
  func.call @rmm_split_bf16() : () -> ()
  func.call @lnm_of32_guarded_f16() : () -> ()
  func.call @rrmm_of32_bf16() : () -> ()
  func.call @mrn_of32_bf16() : () -> ()
  func.call @mln_pf32_nk_f16() : () -> ()
  func.call @mrn_gemma_guarded_bf16() : () -> ()
  return
}

// Gemma 3: bf16 x, f32 γ + 1, W as N×K, bf16 C; cp.async kernel, tails in M.
func.func @gemma_rmm_nk_bf16() {
  %x = gpu.alloc host_shared () : memref<33x128xbf16>
  %x_u = memref.cast %x : memref<33x128xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5007 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x128xbf16>
  %w_u = memref.cast %w : memref<72x128xbf16> to memref<*xbf16>
  %w_seed = arith.constant 5014 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<128xf32>
  %g_u = memref.cast %g : memref<128xf32> to memref<*xf32>
  %g_seed = arith.constant 5021 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x72xbf16>
  %y_u = memref.cast %y : memref<33x72xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<33x128xbf16>) weight(%g : memref<128xf32>) rhs(%w : memref<72x128xbf16>) outs(%y : memref<33x72xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %do_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x128xbf16>
  gpu.dealloc %w : memref<72x128xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %g : memref<128xf32>
  gpu.dealloc %y : memref<33x72xbf16>
  return
}

// Few output blocks and a long K: split-K with the f32 γ staged per slice.
func.func @rmm_split_bf16() {
  %x = gpu.alloc host_shared () : memref<4x1024xbf16>
  %x_u = memref.cast %x : memref<4x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5028 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x64xbf16>
  %w_u = memref.cast %w : memref<1024x64xbf16> to memref<*xbf16>
  %w_seed = arith.constant 5035 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1024xf32>
  %g_u = memref.cast %g : memref<1024xf32> to memref<*xf32>
  %g_seed = arith.constant 5042 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<4x64xbf16>
  %y_u = memref.cast %y : memref<4x64xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<4x1024xbf16>) weight(%g : memref<1024xf32>) rhs(%w : memref<1024x64xbf16>) outs(%y : memref<4x64xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %do_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<4x1024xbf16>
  gpu.dealloc %w : memref<1024x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %g : memref<1024xf32>
  gpu.dealloc %y : memref<4x64xbf16>
  return
}

// f16 x, f32 γ/β, f32 C and bias; K not a multiple of 8 (guarded loads).
func.func @lnm_of32_guarded_f16() {
  %x = gpu.alloc host_shared () : memref<17x100xf16>
  %x_u = memref.cast %x : memref<17x100xf16> to memref<*xf16>
  %x_seed = arith.constant 5049 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<100x40xf16>
  %w_u = memref.cast %w : memref<100x40xf16> to memref<*xf16>
  %w_seed = arith.constant 5056 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xf32>
  %do_u = memref.cast %do : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<100xf32>
  %g_u = memref.cast %g : memref<100xf32> to memref<*xf32>
  %g_seed = arith.constant 5063 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<100xf32>
  %b_u = memref.cast %b : memref<100xf32> to memref<*xf32>
  %b_seed = arith.constant 5070 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<40xf32>
  %mb_u = memref.cast %mb : memref<40xf32> to memref<*xf32>
  %mb_seed = arith.constant 5077 : i64
  %mb_mean = arith.constant 0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<17x40xf32>
  %y_u = memref.cast %y : memref<17x40xf32> to memref<*xf32>
  norm.layer_norm_matmul ins(%x : memref<17x100xf16>) weight(%g : memref<100xf32>) bias(%b : memref<100xf32>) rhs(%w : memref<100x40xf16>) matmul_bias(%mb : memref<40xf32>) outs(%y : memref<17x40xf32>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 262 : i64
  func.call @norm_test_check_layer_norm_matmul_f16_of32(%x_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x100xf16>
  gpu.dealloc %w : memref<100x40xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xf32>
  gpu.dealloc %g : memref<100xf32>
  gpu.dealloc %b : memref<100xf32>
  gpu.dealloc %mb : memref<40xf32>
  gpu.dealloc %y : memref<17x40xf32>
  return
}

// Residual stream in bf16, f32 γ, f32 C.
func.func @rrmm_of32_bf16() {
  %x = gpu.alloc host_shared () : memref<5x64xbf16>
  %x_u = memref.cast %x : memref<5x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5084 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<5x64xbf16>
  %r_u = memref.cast %r : memref<5x64xbf16> to memref<*xbf16>
  %r_seed = arith.constant 5091 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<24x64xbf16>
  %w_u = memref.cast %w : memref<24x64xbf16> to memref<*xbf16>
  %w_seed = arith.constant 5098 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xf32>
  %do_u = memref.cast %do : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 5105 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<24xf32>
  %mb_u = memref.cast %mb : memref<24xf32> to memref<*xf32>
  %mb_seed = arith.constant 5112 : i64
  %mb_mean = arith.constant 0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<5x24xf32>
  %y_u = memref.cast %y : memref<5x24xf32> to memref<*xf32>
  %s = gpu.alloc host_shared () : memref<5x64xbf16>
  %s_u = memref.cast %s : memref<5x64xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<5x64xbf16>) residual(%r : memref<5x64xbf16>) weight(%g : memref<64xf32>) rhs(%w : memref<24x64xbf16>) matmul_bias(%mb : memref<24xf32>) outs(%y : memref<5x24xf32>) sum_outs(%s : memref<5x64xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 803 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16_of32(%x_u, %r_u, %g_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x64xbf16>
  gpu.dealloc %r : memref<5x64xbf16>
  gpu.dealloc %w : memref<24x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %mb : memref<24xf32>
  gpu.dealloc %y : memref<5x24xf32>
  gpu.dealloc %s : memref<5x64xbf16>
  return
}

// bf16 A and W accumulated into f32: S, the residual, the bias and Y f32.
func.func @mrn_of32_bf16() {
  %x = gpu.alloc host_shared () : memref<16x64xbf16>
  %x_u = memref.cast %x : memref<16x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5119 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x64xbf16>
  %w_u = memref.cast %w : memref<64x64xbf16> to memref<*xbf16>
  %w_seed = arith.constant 5126 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xf32>
  %do_u = memref.cast %do : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 5133 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<64xf32>
  %mb_u = memref.cast %mb : memref<64xf32> to memref<*xf32>
  %mb_seed = arith.constant 5140 : i64
  %mb_mean = arith.constant 0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<16x64xf32>
  %r_u = memref.cast %r : memref<16x64xf32> to memref<*xf32>
  %r_seed = arith.constant 5147 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x64xf32>
  %y_u = memref.cast %y : memref<16x64xf32> to memref<*xf32>
  %s = gpu.alloc host_shared () : memref<16x64xf32>
  %s_u = memref.cast %s : memref<16x64xf32> to memref<*xf32>
  norm.matmul_rms_norm ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x64xbf16>) matmul_bias(%mb : memref<64xf32>) residual(%r : memref<16x64xf32>) weight(%g : memref<64xf32>) outs(%y : memref<16x64xf32>) sum_outs(%s : memref<16x64xf32>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16_of32(%x_u, %w_u, %mb_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x64xbf16>
  gpu.dealloc %w : memref<64x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %mb : memref<64xf32>
  gpu.dealloc %r : memref<16x64xf32>
  gpu.dealloc %y : memref<16x64xf32>
  gpu.dealloc %s : memref<16x64xf32>
  return
}

// f16 S and Y with f32 γ/β.
func.func @mln_pf32_nk_f16() {
  %x = gpu.alloc host_shared () : memref<7x40xf16>
  %x_u = memref.cast %x : memref<7x40xf16> to memref<*xf16>
  %x_seed = arith.constant 5154 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<48x40xf16>
  %w_u = memref.cast %w : memref<48x40xf16> to memref<*xf16>
  %w_seed = arith.constant 5161 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xf16>
  %do_u = memref.cast %do : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<48xf32>
  %g_u = memref.cast %g : memref<48xf32> to memref<*xf32>
  %g_seed = arith.constant 5168 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<48xf32>
  %b_u = memref.cast %b : memref<48xf32> to memref<*xf32>
  %b_seed = arith.constant 5175 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<7x48xf16>
  %y_u = memref.cast %y : memref<7x48xf16> to memref<*xf16>
  norm.matmul_layer_norm ins(%x : memref<7x40xf16>) rhs(%w : memref<48x40xf16>) weight(%g : memref<48xf32>) bias(%b : memref<48xf32>) outs(%y : memref<7x48xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 518 : i64
  func.call @norm_test_check_matmul_layer_norm_f16_pf32(%x_u, %w_u, %do_u, %do_u, %g_u, %b_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x40xf16>
  gpu.dealloc %w : memref<48x40xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xf16>
  gpu.dealloc %g : memref<48xf32>
  gpu.dealloc %b : memref<48xf32>
  gpu.dealloc %y : memref<7x48xf16>
  return
}

// Gemma post-norm: bf16 S, f32 γ + 1; K and N not multiples of 8.
func.func @mrn_gemma_guarded_bf16() {
  %x = gpu.alloc host_shared () : memref<3x36xbf16>
  %x_u = memref.cast %x : memref<3x36xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5182 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<36x20xbf16>
  %w_u = memref.cast %w : memref<36x20xbf16> to memref<*xbf16>
  %w_seed = arith.constant 5189 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<20xf32>
  %g_u = memref.cast %g : memref<20xf32> to memref<*xf32>
  %g_seed = arith.constant 5196 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<3x20xbf16>
  %r_u = memref.cast %r : memref<3x20xbf16> to memref<*xbf16>
  %r_seed = arith.constant 5203 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x20xbf16>
  %y_u = memref.cast %y : memref<3x20xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<3x20xbf16>
  %s_u = memref.cast %s : memref<3x20xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%x : memref<3x36xbf16>) rhs(%w : memref<36x20xbf16>) residual(%r : memref<3x20xbf16>) weight(%g : memref<20xf32>) outs(%y : memref<3x20xbf16>) sum_outs(%s : memref<3x20xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16_pf32(%x_u, %w_u, %do_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x36xbf16>
  gpu.dealloc %w : memref<36x20xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %g : memref<20xf32>
  gpu.dealloc %r : memref<3x20xbf16>
  gpu.dealloc %y : memref<3x20xbf16>
  gpu.dealloc %s : memref<3x20xbf16>
  return
}
