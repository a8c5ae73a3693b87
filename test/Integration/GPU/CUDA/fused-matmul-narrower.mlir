// GPU execution of the matmul → norm ops whose f32 product rounds to a
// 16-bit S and Y (docs/design.md, "Mixed element types in the fused ops";
// issue 26 item 2) through --norm-lower-to-nvvm, checked against the
// float64 reference of test/lib/Runtime (its _obf16 / _of16 and _pf32_o...
// checkers) on seeded random inputs: f32 A and W on the SIMT kernels
// (cp.async, guarded loads, split-K and its reduction), the epilogue
// rounding S to bf16/f16 before the row kernel's statistics. The same file
// runs on host threads in test/Integration/GPU/Emulated/fused-matmul-narrower.test.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}matmul_rms_norm f32 [16x64] w=[64x64] residual gamma sum params=bf16 out=bf16: {{.*}} tol=1e-02 {{.*}}PASS
// CHECK: {{^}}matmul_layer_norm f32 [7x50] w=[37x50] gamma beta trans_rhs out=f16: {{.*}} tol=2e-03 PASS
// CHECK: {{^}}matmul_rms_norm f32 [8x1024] w=[1024x64] gamma mbias out=bf16 offset=1: {{.*}} tol=1e-02 PASS
// CHECK: {{^}}matmul_layer_norm f32 [4x768] w=[768x40] residual gamma beta sum params=bf16 out=bf16: {{.*}} tol=1e-02 {{.*}}PASS
// CHECK: {{^}}matmul_rms_norm f32 [45x96] w=[128x96] gamma trans_rhs params=f16 out=f16: {{.*}} tol=2e-03 PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_layer_norm_f32_obf16(memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f32_pf32_of16(memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32_obf16(memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32_of16(memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32_pf32_obf16(memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @mrn_obf16_res() : () -> ()
  func.call @mln_pf32_of16_guarded() : () -> ()
  func.call @mrn_pf32_obf16_split() : () -> ()
  func.call @mln_obf16_res_split() : () -> ()
  func.call @mrn_of16_nk() : () -> ()
  return
}

// bf16 S and Y with a bf16 residual (returned) and γ; cp.async kernel.
func.func @mrn_obf16_res() {
  %a = gpu.alloc host_shared () : memref<16x64xf32>
  %a_u = memref.cast %a : memref<16x64xf32> to memref<*xf32>
  %a_seed = arith.constant 6008 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x64xf32>
  %w_u = memref.cast %w : memref<64x64xf32> to memref<*xf32>
  %w_seed = arith.constant 6015 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xbf16>
  %dp_u = memref.cast %dp : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 6022 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<16x64xbf16>
  %r_u = memref.cast %r : memref<16x64xbf16> to memref<*xbf16>
  %r_seed = arith.constant 6029 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x64xbf16>
  %y_u = memref.cast %y : memref<16x64xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<16x64xbf16>
  %s_u = memref.cast %s : memref<16x64xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%a : memref<16x64xf32>) rhs(%w : memref<64x64xf32>) residual(%r : memref<16x64xbf16>) weight(%g : memref<64xbf16>) outs(%y : memref<16x64xbf16>) sum_outs(%s : memref<16x64xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_matmul_rms_norm_f32_obf16(%a_u, %w_u, %do_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<16x64xf32>
  gpu.dealloc %w : memref<64x64xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %r : memref<16x64xbf16>
  gpu.dealloc %y : memref<16x64xbf16>
  gpu.dealloc %s : memref<16x64xbf16>
  return
}

// f16 S and Y, f32 γ/β, W as N×K; N = 37: the guarded-load kernel.
func.func @mln_pf32_of16_guarded() {
  %a = gpu.alloc host_shared () : memref<7x50xf32>
  %a_u = memref.cast %a : memref<7x50xf32> to memref<*xf32>
  %a_seed = arith.constant 6036 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<37x50xf32>
  %w_u = memref.cast %w : memref<37x50xf32> to memref<*xf32>
  %w_seed = arith.constant 6043 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xf16>
  %do_u = memref.cast %do : memref<1xf16> to memref<*xf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<37xf32>
  %g_u = memref.cast %g : memref<37xf32> to memref<*xf32>
  %g_seed = arith.constant 6050 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<37xf32>
  %b_u = memref.cast %b : memref<37xf32> to memref<*xf32>
  %b_seed = arith.constant 6057 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<7x37xf16>
  %y_u = memref.cast %y : memref<7x37xf16> to memref<*xf16>
  norm.matmul_layer_norm ins(%a : memref<7x50xf32>) rhs(%w : memref<37x50xf32>) weight(%g : memref<37xf32>) bias(%b : memref<37xf32>) outs(%y : memref<7x37xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 518 : i64
  func.call @norm_test_check_matmul_layer_norm_f32_pf32_of16(%a_u, %w_u, %do_u, %do_u, %g_u, %b_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<7x50xf32>
  gpu.dealloc %w : memref<37x50xf32>
  gpu.dealloc %do : memref<1xf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %g : memref<37xf32>
  gpu.dealloc %b : memref<37xf32>
  gpu.dealloc %y : memref<7x37xf16>
  return
}

// bf16 S and Y with a bf16 matmul bias, f32 γ + 1; K = 1024 over few blocks: split-K and its reduction writing bf16.
func.func @mrn_pf32_obf16_split() {
  %a = gpu.alloc host_shared () : memref<8x1024xf32>
  %a_u = memref.cast %a : memref<8x1024xf32> to memref<*xf32>
  %a_seed = arith.constant 6064 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1024x64xf32>
  %w_u = memref.cast %w : memref<1024x64xf32> to memref<*xf32>
  %w_seed = arith.constant 6071 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xf32>
  %dp_u = memref.cast %dp : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 6078 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<64xbf16>
  %mb_u = memref.cast %mb : memref<64xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 6085 : i64
  %mb_mean = arith.constant 0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<8x64xbf16>
  %y_u = memref.cast %y : memref<8x64xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%a : memref<8x1024xf32>) rhs(%w : memref<1024x64xf32>) matmul_bias(%mb : memref<64xbf16>) weight(%g : memref<64xf32>) outs(%y : memref<8x64xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_matmul_rms_norm_f32_pf32_obf16(%a_u, %w_u, %mb_u, %do_u, %g_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<8x1024xf32>
  gpu.dealloc %w : memref<1024x64xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %mb : memref<64xbf16>
  gpu.dealloc %y : memref<8x64xbf16>
  return
}

// A bf16 LayerNorm with a residual (returned), bf16 γ/β; K = 768, split-K.
func.func @mln_obf16_res_split() {
  %a = gpu.alloc host_shared () : memref<4x768xf32>
  %a_u = memref.cast %a : memref<4x768xf32> to memref<*xf32>
  %a_seed = arith.constant 6092 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<768x40xf32>
  %w_u = memref.cast %w : memref<768x40xf32> to memref<*xf32>
  %w_seed = arith.constant 6099 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xbf16>
  %do_u = memref.cast %do : memref<1xbf16> to memref<*xbf16>
  %dp = gpu.alloc host_shared () : memref<1xbf16>
  %dp_u = memref.cast %dp : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<40xbf16>
  %g_u = memref.cast %g : memref<40xbf16> to memref<*xbf16>
  %g_seed = arith.constant 6106 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<40xbf16>
  %b_u = memref.cast %b : memref<40xbf16> to memref<*xbf16>
  %b_seed = arith.constant 6113 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<4x40xbf16>
  %r_u = memref.cast %r : memref<4x40xbf16> to memref<*xbf16>
  %r_seed = arith.constant 6120 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<4x40xbf16>
  %y_u = memref.cast %y : memref<4x40xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<4x40xbf16>
  %s_u = memref.cast %s : memref<4x40xbf16> to memref<*xbf16>
  norm.matmul_layer_norm ins(%a : memref<4x768xf32>) rhs(%w : memref<768x40xf32>) residual(%r : memref<4x40xbf16>) weight(%g : memref<40xbf16>) bias(%b : memref<40xbf16>) outs(%y : memref<4x40xbf16>) sum_outs(%s : memref<4x40xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 39 : i64
  func.call @norm_test_check_matmul_layer_norm_f32_obf16(%a_u, %w_u, %do_u, %r_u, %g_u, %b_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<4x768xf32>
  gpu.dealloc %w : memref<768x40xf32>
  gpu.dealloc %do : memref<1xbf16>
  gpu.dealloc %dp : memref<1xbf16>
  gpu.dealloc %g : memref<40xbf16>
  gpu.dealloc %b : memref<40xbf16>
  gpu.dealloc %r : memref<4x40xbf16>
  gpu.dealloc %y : memref<4x40xbf16>
  gpu.dealloc %s : memref<4x40xbf16>
  return
}

// f16 S and Y, f16 γ, W as N×K, rows not a multiple of the block.
func.func @mrn_of16_nk() {
  %a = gpu.alloc host_shared () : memref<45x96xf32>
  %a_u = memref.cast %a : memref<45x96xf32> to memref<*xf32>
  %a_seed = arith.constant 6127 : i64
  %a_mean = arith.constant 0.5 : f64
  %a_scale = arith.constant 1.0 : f64
  %a_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %a_seed, %a_mean, %a_scale, %a_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<128x96xf32>
  %w_u = memref.cast %w : memref<128x96xf32> to memref<*xf32>
  %w_seed = arith.constant 6134 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %do = gpu.alloc host_shared () : memref<1xf16>
  %do_u = memref.cast %do : memref<1xf16> to memref<*xf16>
  %dp = gpu.alloc host_shared () : memref<1xf16>
  %dp_u = memref.cast %dp : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<128xf16>
  %g_u = memref.cast %g : memref<128xf16> to memref<*xf16>
  %g_seed = arith.constant 6141 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<45x128xf16>
  %y_u = memref.cast %y : memref<45x128xf16> to memref<*xf16>
  norm.matmul_rms_norm ins(%a : memref<45x96xf32>) rhs(%w : memref<128x96xf32>) weight(%g : memref<128xf16>) outs(%y : memref<45x128xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_matmul_rms_norm_f32_of16(%a_u, %w_u, %do_u, %do_u, %g_u, %y_u, %do_u, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %a : memref<45x96xf32>
  gpu.dealloc %w : memref<128x96xf32>
  gpu.dealloc %do : memref<1xf16>
  gpu.dealloc %dp : memref<1xf16>
  gpu.dealloc %g : memref<128xf16>
  gpu.dealloc %y : memref<45x128xf16>
  return
}
