// GPU execution of the per-head matmul → norm ops (QK-norm: `head_dim`,
// Qwen3 / Gemma 3 q_norm and k_norm; issue 26 item 3) through
// --norm-lower-to-nvvm: the GEMM kernels write S, the row kernel normalizes
// S viewed as one head a row. Checked against the float64 reference of
// test/lib/Runtime (its matmul → norm checkers take head_dim in flags bits
// 32..47) on seeded random inputs; bf16, f16, f32, an f32 product rounded
// to bf16 (narrower S), bf16 A with an f32 S, LayerNorm, residual, bias,
// offset, split-K, dynamic rows. The same file runs on host threads in
// test/Integration/GPU/Emulated/fused-qk-norm.test.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}matmul_rms_norm bf16 [16x64] w=[128x64] gamma trans_rhs head_dim=32: {{.*}} PASS
// CHECK: {{^}}matmul_rms_norm f32 [8x96] w=[96x64] residual gamma sum params=bf16 out=bf16 head_dim=16: {{.*}} PASS
// CHECK: {{^}}matmul_layer_norm f16 [5x40] w=[40x72] gamma beta params=f32 head_dim=24: {{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [3x1024] w=[1024x256] gamma mbias offset=1 head_dim=64: {{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [12x48] w=[48x40] gamma params=f32 out=f32 head_dim=8: {{.*}} PASS
// CHECK: {{^}}matmul_layer_norm f32 [9x32] w=[64x32] gamma beta trans_rhs head_dim=32: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_layer_norm_f16_pf32(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16_of32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32_obf16(memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @qk_bf16() : () -> ()
  func.call @qk_f32_obf16_res() : () -> ()
  func.call @qk_ln_f16_pf32() : () -> ()
  func.call @qk_bf16_dyn_split() : () -> ()
  func.call @qk_bf16_of32() : () -> ()
  func.call @qk_ln_f32_mean() : () -> ()
  return
}

// bf16 Qwen3-style q_norm: W as N×K, four heads of 32, γ [32].
func.func @qk_bf16() {
  %a = gpu.alloc host_shared () : memref<16x64xbf16>
  %a_u = memref.cast %a : memref<16x64xbf16> to memref<*xbf16>
  %a_seed = arith.constant 7001 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<128x64xbf16>
  %w_u = memref.cast %w : memref<128x64xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7008 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xbf16>
  %dp_u = memref.cast %dp : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<32xbf16>
  %g_u = memref.cast %g : memref<32xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7015 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x128xbf16>
  %y_u = memref.cast %y : memref<16x128xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<128x64xbf16>) weight(%g : memref<32xbf16>) outs(%y : memref<16x128xbf16>) {epsilon = 1.0e-06 : f64, head_dim = 32 : i64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 137438953986 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%a_u, %w_u, %do_u, %do_u, %g_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<16x64xbf16>
  gpu.dealloc %w : memref<128x64xbf16>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xbf16>
  gpu.dealloc %g : memref<32xbf16>
  gpu.dealloc %y : memref<16x128xbf16>
  return
}

// An f32 product rounded to bf16 S (narrower than A) with a bf16
// residual returned, per head of 16 (nar26's narrowed output, per head).
func.func @qk_f32_obf16_res() {
  %a = gpu.alloc host_shared () : memref<8x96xf32>
  %a_u = memref.cast %a : memref<8x96xf32> to memref<*xf32>
  %a_seed = arith.constant 7022 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<96x64xf32>
  %w_u = memref.cast %w : memref<96x64xf32> to memref<*xf32>
  %w_seed = arith.constant 7029 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xbf16>
  %dp_u = memref.cast %dp : memref<1xbf16> to memref<*xbf16>
  %r = gpu.alloc host_shared () : memref<8x64xbf16>
  %r_u = memref.cast %r : memref<8x64xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7036 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<16xbf16>
  %g_u = memref.cast %g : memref<16xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7043 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<8x64xbf16>
  %y_u = memref.cast %y : memref<8x64xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<8x64xbf16>
  %s_u = memref.cast %s : memref<8x64xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%a : memref<8x96xf32>) rhs(%w : memref<96x64xf32>) residual(%r : memref<8x64xbf16>) weight(%g : memref<16xbf16>) outs(%y : memref<8x64xbf16>) sum_outs(%s : memref<8x64xbf16>) {epsilon = 1.0e-06 : f64, head_dim = 16 : i64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 68719476771 : i64
  func.call @norm_test_check_matmul_rms_norm_f32_obf16(%a_u, %w_u, %do_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<8x96xf32>
  gpu.dealloc %w : memref<96x64xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xbf16>
  gpu.dealloc %r : memref<8x64xbf16>
  gpu.dealloc %g : memref<16xbf16>
  gpu.dealloc %y : memref<8x64xbf16>
  gpu.dealloc %s : memref<8x64xbf16>
  return
}

// Per-head LayerNorm, f16 with f32 γ/β, M, K and N off the tiles
// (5 rows, K = 40, three heads of 24): the guarded-load kernel.
func.func @qk_ln_f16_pf32() {
  %a = gpu.alloc host_shared () : memref<5x40xf16>
  %a_u = memref.cast %a : memref<5x40xf16> to memref<*xf16>
  %a_seed = arith.constant 7050 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<40x72xf16>
  %w_u = memref.cast %w : memref<40x72xf16> to memref<*xf16>
  %w_seed = arith.constant 7057 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xf16>
  %do_u = memref.cast %do : memref<1xf16> to memref<*xf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<24xf32>
  %g_u = memref.cast %g : memref<24xf32> to memref<*xf32>
  %g_seed = arith.constant 7064 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<24xf32>
  %b_u = memref.cast %b : memref<24xf32> to memref<*xf32>
  %b_seed = arith.constant 7071 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<5x72xf16>
  %y_u = memref.cast %y : memref<5x72xf16> to memref<*xf16>
  norm.matmul_layer_norm ins(%a : memref<5x40xf16>) rhs(%w : memref<40x72xf16>) weight(%g : memref<24xf32>) bias(%b : memref<24xf32>) outs(%y : memref<5x72xf16>) {epsilon = 1.0e-06 : f64, head_dim = 24 : i64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 103079215110 : i64
  func.call @norm_test_check_matmul_layer_norm_f16_pf32(%a_u, %w_u, %do_u, %do_u, %g_u, %b_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<5x40xf16>
  gpu.dealloc %w : memref<40x72xf16>
  gpu.dealloc %do : memref<1xf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %g : memref<24xf32>
  gpu.dealloc %b : memref<24xf32>
  gpu.dealloc %y : memref<5x72xf16>
  return
}

// Gemma's 1 + γ per head of 64, a dynamic M of 3 and K = 1024 (split-K
// slices by default), a matmul bias.
func.func @qk_bf16_dyn_split() {
  %a_n = arith.constant 3 : index
  %a = gpu.alloc host_shared (%a_n) : memref<?x1024xbf16>
  %a_u = memref.cast %a : memref<?x1024xbf16> to memref<*xbf16>
  %a_seed = arith.constant 7078 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x256xbf16>
  %w_u = memref.cast %w : memref<1024x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7085 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xbf16>
  %dp_u = memref.cast %dp : memref<1xbf16> to memref<*xbf16>
  %mb = gpu.alloc host_shared () : memref<256xbf16>
  %mb_u = memref.cast %mb : memref<256xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 7092 : i64
  %mb_mean = arith.constant 0.05 : f64
  %mb_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7099 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y_n = arith.constant 3 : index
  %y = gpu.alloc host_shared (%y_n) : memref<?x256xbf16>
  %y_u = memref.cast %y : memref<?x256xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%a : memref<?x1024xbf16>) rhs(%w : memref<1024x256xbf16>) matmul_bias(%mb : memref<256xbf16>) weight(%g : memref<64xbf16>) outs(%y : memref<?x256xbf16>) {epsilon = 1.0e-06 : f64, head_dim = 64 : i64, weight_offset = 1.0 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 274877907202 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%a_u, %w_u, %mb_u, %do_u, %g_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<?x1024xbf16>
  gpu.dealloc %w : memref<1024x256xbf16>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xbf16>
  gpu.dealloc %mb : memref<256xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %y : memref<?x256xbf16>
  return
}

// bf16 A and W with an f32 S and Y (linalg.matmul ins(bf16) outs(f32)),
// heads of 8, N = 40 (five heads).
func.func @qk_bf16_of32() {
  %a = gpu.alloc host_shared () : memref<12x48xbf16>
  %a_u = memref.cast %a : memref<12x48xbf16> to memref<*xbf16>
  %a_seed = arith.constant 7106 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %a_seed, %a_mean, %a_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<48x40xbf16>
  %w_u = memref.cast %w : memref<48x40xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7113 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xf32>
  %do_u = memref.cast %do : memref<1xf32> to memref<*xf32>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<8xf32>
  %g_u = memref.cast %g : memref<8xf32> to memref<*xf32>
  %g_seed = arith.constant 7120 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<12x40xf32>
  %y_u = memref.cast %y : memref<12x40xf32> to memref<*xf32>
  norm.matmul_rms_norm ins(%a : memref<12x48xbf16>) rhs(%w : memref<48x40xbf16>) weight(%g : memref<8xf32>) outs(%y : memref<12x40xf32>) {epsilon = 1.0e-06 : f64, head_dim = 8 : i64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 34359738370 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16_of32(%a_u, %w_u, %do_u, %do_u, %g_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<12x48xbf16>
  gpu.dealloc %w : memref<48x40xbf16>
  gpu.dealloc %do : memref<1xf32>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %g : memref<8xf32>
  gpu.dealloc %y : memref<12x40xf32>
  return
}

// Per-head LayerNorm in f32 on rows of mean 10⁴ (A's rows shifted, so
// every head's S has |mean| ≫ std), heads of 32.
func.func @qk_ln_f32_mean() {
  %a = gpu.alloc host_shared () : memref<9x32xf32>
  %a_u = memref.cast %a : memref<9x32xf32> to memref<*xf32>
  %a_seed = arith.constant 7127 : i64
  %a_mean = arith.constant 1.0e+04 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x32xf32>
  %w_u = memref.cast %w : memref<64x32xf32> to memref<*xf32>
  %w_seed = arith.constant 7134 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xf32>
  %do_u = memref.cast %do : memref<1xf32> to memref<*xf32>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<32xf32>
  %g_u = memref.cast %g : memref<32xf32> to memref<*xf32>
  %g_seed = arith.constant 7141 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<32xf32>
  %b_u = memref.cast %b : memref<32xf32> to memref<*xf32>
  %b_seed = arith.constant 7148 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<9x64xf32>
  %y_u = memref.cast %y : memref<9x64xf32> to memref<*xf32>
  norm.matmul_layer_norm ins(%a : memref<9x32xf32>) rhs(%w : memref<64x32xf32>) weight(%g : memref<32xf32>) bias(%b : memref<32xf32>) outs(%y : memref<9x64xf32>) {epsilon = 1.0e-06 : f64, head_dim = 32 : i64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 137438953990 : i64
  func.call @norm_test_check_matmul_layer_norm_f32(%a_u, %w_u, %do_u, %do_u, %g_u, %b_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<9x32xf32>
  gpu.dealloc %w : memref<64x32xf32>
  gpu.dealloc %do : memref<1xf32>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %g : memref<32xf32>
  gpu.dealloc %b : memref<32xf32>
  gpu.dealloc %y : memref<9x64xf32>
  return
}
