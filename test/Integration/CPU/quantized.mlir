// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu --mlir-print-ir-after=norm-decompose -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL

// Execution tests of quantized outputs (DESIGN.md §8): norm.rms_norm and
// norm.layer_norm writing f8E4M3FN, f8E5M2 and i8 with a static scale (an
// f32 or a 0-d tensor), per-token and per-group dynamic scales, with and
// without a residual. With codegen=vector the CPU row kernel writes them
// (QuantizedRow.cpp; also on 2 threads with streaming stores), with
// codegen=upstream the decomposition. The checker
// (test/lib/Runtime/NormTestRuntime.cpp) compares every quantized element
// with the quantization of the float64 reference (equal, or one step off
// where y / s lies within 1e-6 relative of a rounding boundary), the
// scales within 1e-6 and the residual sum as the unquantized tests do.
// Small static scales make some values saturate (448, 57344, 127); large
// ones put y / s in the fp8 subnormal range.

// The row kernel, not the decomposition, wrote them: nothing is left for
// norm-decompose to expand.
// KERNEL: IR Dump After NormDecomposePass
// KERNEL-NOT: linalg.
// KERNEL-NOT: norm.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 {{\[}}4x64] axis=1 gamma -> f8E4M3FN scale=0.005: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 {{\[}}5x48] axis=1 residual gamma sum -> f8E5M2 per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}3x128] axis=1 gamma -> i8 group=64: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 {{\[}}6x33] axis=1 -> i8 per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}2x256] axis=1 residual gamma sum -> f8E4M3FN group=128: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 {{\[}}5x40] axis=1 residual gamma -> f8E5M2 scale=0.001: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 {{\[}}4x64] axis=1 residual gamma beta sum -> i8 scale=0.015: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 {{\[}}4x96] axis=1 residual gamma beta sum -> f8E4M3FN group=32: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 {{\[}}2x3x32] axis=1 gamma beta -> f8E5M2 per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 {{\[}}3x2x64] axis=1 gamma -> f8E5M2 group=64: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 {{\[}}7x100] axis=1 -> f8E4M3FN per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 {{\[}}4x64] axis=1 gamma -> f8E4M3FN scale=300: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 {{\[}}4x64] axis=1 gamma beta -> f8E5M2 scale=30000: mismatches=0 {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_quant_norm_bf16_f8E4M3FN(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_f8E5M2(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_i8(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_f8E4M3FN(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_f8E5M2(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_i8(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_e4m3_static() : () -> ()
  func.call @rms_e5m2_token_residual() : () -> ()
  func.call @rms_i8_group64() : () -> ()
  func.call @rms_i8_token() : () -> ()
  func.call @rms_e4m3_group128_residual() : () -> ()
  func.call @rms_e5m2_static_tensor() : () -> ()
  func.call @ln_i8_static_residual() : () -> ()
  func.call @ln_e4m3_group32_residual() : () -> ()
  func.call @ln_e5m2_token_two_dims() : () -> ()
  func.call @ln_e5m2_group64() : () -> ()
  func.call @ln_e4m3_token() : () -> ()
  func.call @rms_e4m3_subnormal() : () -> ()
  func.call @ln_e5m2_subnormal() : () -> ()
  return
}

func.func @rms_e4m3_static() {
  %x_m = memref.alloc() : memref<4x64xf32>
  %x_u = memref.cast %x_m : memref<4x64xf32> to memref<*xf32>
  %x_seed = arith.constant 7301001 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x64xf32> to tensor<4x64xf32>
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 7301002 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %q_init = tensor.empty() : tensor<4x64xf8E4M3FN>
  %scale = arith.constant 0.005 : f32
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) weight(%g : tensor<64xf32>) scale(%scale : f32)
         outs(%q_init : tensor<4x64xf8E4M3FN>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<4x64xf8E4M3FN>
  %q_buf = bufferization.to_buffer %q : tensor<4x64xf8E4M3FN> to memref<4x64xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<4x64xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.005 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16386 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e5m2_token_residual() {
  %x_m = memref.alloc() : memref<5x48xf32>
  %x_u = memref.cast %x_m : memref<5x48xf32> to memref<*xf32>
  %x_seed = arith.constant 7301003 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x48xf32> to tensor<5x48xf32>
  %r_m = memref.alloc() : memref<5x48xf32>
  %r_u = memref.cast %r_m : memref<5x48xf32> to memref<*xf32>
  %r_seed = arith.constant 7301004 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<5x48xf32> to tensor<5x48xf32>
  %g_m = memref.alloc() : memref<48xf32>
  %g_u = memref.cast %g_m : memref<48xf32> to memref<*xf32>
  %g_seed = arith.constant 7301005 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<48xf32> to tensor<48xf32>
  %q_init = tensor.empty() : tensor<5x48xf8E5M2>
  %s_init = tensor.empty() : tensor<5x48xf32>
  %sc_init = tensor.empty() : tensor<5xf32>
  %q, %sum, %sc = norm.rms_norm ins(%x : tensor<5x48xf32>) residual(%r : tensor<5x48xf32>) weight(%g : tensor<48xf32>)
         outs(%q_init : tensor<5x48xf8E5M2>) sum_outs(%s_init : tensor<5x48xf32>) scale_outs(%sc_init : tensor<5xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<5x48xf8E5M2>, tensor<5x48xf32>, tensor<5xf32>
  %q_buf = bufferization.to_buffer %q : tensor<5x48xf8E5M2> to memref<5x48xf8E5M2>
  %q_u = memref.cast %q_buf : memref<5x48xf8E5M2> to memref<*xf8E5M2>
  %sum_buf = bufferization.to_buffer %sum : tensor<5x48xf32> to memref<5x48xf32>
  %sum_u = memref.cast %sum_buf : memref<5x48xf32> to memref<*xf32>
  %sc_buf = bufferization.to_buffer %sc : tensor<5xf32> to memref<5xf32>
  %sc_u = memref.cast %sc_buf : memref<5xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %r_u, %g_u, %x_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_i8_group64() {
  %x_m = memref.alloc() : memref<3x128xbf16>
  %x_u = memref.cast %x_m : memref<3x128xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7301006 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x128xbf16> to tensor<3x128xbf16>
  %g_m = memref.alloc() : memref<128xbf16>
  %g_u = memref.cast %g_m : memref<128xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7301007 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<128xbf16> to tensor<128xbf16>
  %q_init = tensor.empty() : tensor<3x128xi8>
  %sc_init = tensor.empty() : tensor<3x2xf32>
  %q, %sc = norm.rms_norm ins(%x : tensor<3x128xbf16>) weight(%g : tensor<128xbf16>)
         outs(%q_init : tensor<3x128xi8>) scale_outs(%sc_init : tensor<3x2xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32, group_size = 64 : i64}
         -> tensor<3x128xi8>, tensor<3x2xf32>
  %q_buf = bufferization.to_buffer %q : tensor<3x128xi8> to memref<3x128xi8>
  %q_u = memref.cast %q_buf : memref<3x128xi8> to memref<*xi8>
  %sc_buf = bufferization.to_buffer %sc : tensor<3x2xf32> to memref<3x2xf32>
  %sc_u = memref.cast %sc_buf : memref<3x2xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 64 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_i8_token() {
  %x_m = memref.alloc() : memref<6x33xf32>
  %x_u = memref.cast %x_m : memref<6x33xf32> to memref<*xf32>
  %x_seed = arith.constant 7301008 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x33xf32> to tensor<6x33xf32>
  %q_init = tensor.empty() : tensor<6x33xi8>
  %sc_init = tensor.empty() : tensor<6xf32>
  %q, %sc = norm.rms_norm ins(%x : tensor<6x33xf32>)
         outs(%q_init : tensor<6x33xi8>) scale_outs(%sc_init : tensor<6xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<6x33xi8>, tensor<6xf32>
  %q_buf = bufferization.to_buffer %q : tensor<6x33xi8> to memref<6x33xi8>
  %q_u = memref.cast %q_buf : memref<6x33xi8> to memref<*xi8>
  %sc_buf = bufferization.to_buffer %sc : tensor<6xf32> to memref<6xf32>
  %sc_u = memref.cast %sc_buf : memref<6xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%x_u, %x_u, %x_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e4m3_group128_residual() {
  %x_m = memref.alloc() : memref<2x256xbf16>
  %x_u = memref.cast %x_m : memref<2x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7301009 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x256xbf16> to tensor<2x256xbf16>
  %r_m = memref.alloc() : memref<2x256xbf16>
  %r_u = memref.cast %r_m : memref<2x256xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7301010 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<2x256xbf16> to tensor<2x256xbf16>
  %g_m = memref.alloc() : memref<256xbf16>
  %g_u = memref.cast %g_m : memref<256xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7301011 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<256xbf16> to tensor<256xbf16>
  %q_init = tensor.empty() : tensor<2x256xf8E4M3FN>
  %s_init = tensor.empty() : tensor<2x256xbf16>
  %sc_init = tensor.empty() : tensor<2x2xf32>
  %q, %sum, %sc = norm.rms_norm ins(%x : tensor<2x256xbf16>) residual(%r : tensor<2x256xbf16>) weight(%g : tensor<256xbf16>)
         outs(%q_init : tensor<2x256xf8E4M3FN>) sum_outs(%s_init : tensor<2x256xbf16>) scale_outs(%sc_init : tensor<2x2xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32, group_size = 128 : i64}
         -> tensor<2x256xf8E4M3FN>, tensor<2x256xbf16>, tensor<2x2xf32>
  %q_buf = bufferization.to_buffer %q : tensor<2x256xf8E4M3FN> to memref<2x256xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<2x256xf8E4M3FN> to memref<*xf8E4M3FN>
  %sum_buf = bufferization.to_buffer %sum : tensor<2x256xbf16> to memref<2x256xbf16>
  %sum_u = memref.cast %sum_buf : memref<2x256xbf16> to memref<*xbf16>
  %sc_buf = bufferization.to_buffer %sc : tensor<2x2xf32> to memref<2x2xf32>
  %sc_u = memref.cast %sc_buf : memref<2x2xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 128 : i64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E4M3FN(%x_u, %r_u, %g_u, %x_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e5m2_static_tensor() {
  %x_m = memref.alloc() : memref<5x40xf32>
  %x_u = memref.cast %x_m : memref<5x40xf32> to memref<*xf32>
  %x_seed = arith.constant 7301012 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x40xf32> to tensor<5x40xf32>
  %r_m = memref.alloc() : memref<5x40xf32>
  %r_u = memref.cast %r_m : memref<5x40xf32> to memref<*xf32>
  %r_seed = arith.constant 7301013 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<5x40xf32> to tensor<5x40xf32>
  %g_m = memref.alloc() : memref<40xf32>
  %g_u = memref.cast %g_m : memref<40xf32> to memref<*xf32>
  %g_seed = arith.constant 7301014 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<40xf32> to tensor<40xf32>
  %q_init = tensor.empty() : tensor<5x40xf8E5M2>
  %scale_v = arith.constant 0.001 : f32
  %scale = tensor.from_elements %scale_v : tensor<f32>
  %q = norm.rms_norm ins(%x : tensor<5x40xf32>) residual(%r : tensor<5x40xf32>) weight(%g : tensor<40xf32>) scale(%scale : tensor<f32>)
         outs(%q_init : tensor<5x40xf8E5M2>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<5x40xf8E5M2>
  %q_buf = bufferization.to_buffer %q : tensor<5x40xf8E5M2> to memref<5x40xf8E5M2>
  %q_u = memref.cast %q_buf : memref<5x40xf8E5M2> to memref<*xf8E5M2>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.001 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16387 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %r_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_i8_static_residual() {
  %x_m = memref.alloc() : memref<4x64xf32>
  %x_u = memref.cast %x_m : memref<4x64xf32> to memref<*xf32>
  %x_seed = arith.constant 7301015 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x64xf32> to tensor<4x64xf32>
  %r_m = memref.alloc() : memref<4x64xf32>
  %r_u = memref.cast %r_m : memref<4x64xf32> to memref<*xf32>
  %r_seed = arith.constant 7301016 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<4x64xf32> to tensor<4x64xf32>
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 7301017 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %b_m = memref.alloc() : memref<64xf32>
  %b_u = memref.cast %b_m : memref<64xf32> to memref<*xf32>
  %b_seed = arith.constant 7301018 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<64xf32> to tensor<64xf32>
  %q_init = tensor.empty() : tensor<4x64xi8>
  %s_init = tensor.empty() : tensor<4x64xf32>
  %scale = arith.constant 0.015 : f32
  %q, %sum = norm.layer_norm ins(%x : tensor<4x64xf32>) residual(%r : tensor<4x64xf32>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) scale(%scale : f32)
         outs(%q_init : tensor<4x64xi8>) sum_outs(%s_init : tensor<4x64xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<4x64xi8>, tensor<4x64xf32>
  %q_buf = bufferization.to_buffer %q : tensor<4x64xi8> to memref<4x64xi8>
  %q_u = memref.cast %q_buf : memref<4x64xi8> to memref<*xi8>
  %sum_buf = bufferization.to_buffer %sum : tensor<4x64xf32> to memref<4x64xf32>
  %sum_u = memref.cast %sum_buf : memref<4x64xf32> to memref<*xf32>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.015 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 24615 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%x_u, %r_u, %g_u, %b_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e4m3_group32_residual() {
  %x_m = memref.alloc() : memref<4x96xf32>
  %x_u = memref.cast %x_m : memref<4x96xf32> to memref<*xf32>
  %x_seed = arith.constant 7301019 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x96xf32> to tensor<4x96xf32>
  %r_m = memref.alloc() : memref<4x96xf32>
  %r_u = memref.cast %r_m : memref<4x96xf32> to memref<*xf32>
  %r_seed = arith.constant 7301020 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<4x96xf32> to tensor<4x96xf32>
  %g_m = memref.alloc() : memref<96xf32>
  %g_u = memref.cast %g_m : memref<96xf32> to memref<*xf32>
  %g_seed = arith.constant 7301021 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<96xf32> to tensor<96xf32>
  %b_m = memref.alloc() : memref<96xf32>
  %b_u = memref.cast %b_m : memref<96xf32> to memref<*xf32>
  %b_seed = arith.constant 7301022 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<96xf32> to tensor<96xf32>
  %q_init = tensor.empty() : tensor<4x96xf8E4M3FN>
  %s_init = tensor.empty() : tensor<4x96xf32>
  %sc_init = tensor.empty() : tensor<4x3xf32>
  %q, %sum, %sc = norm.layer_norm ins(%x : tensor<4x96xf32>) residual(%r : tensor<4x96xf32>) weight(%g : tensor<96xf32>) bias(%b : tensor<96xf32>)
         outs(%q_init : tensor<4x96xf8E4M3FN>) sum_outs(%s_init : tensor<4x96xf32>) scale_outs(%sc_init : tensor<4x3xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32, group_size = 32 : i64}
         -> tensor<4x96xf8E4M3FN>, tensor<4x96xf32>, tensor<4x3xf32>
  %q_buf = bufferization.to_buffer %q : tensor<4x96xf8E4M3FN> to memref<4x96xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<4x96xf8E4M3FN> to memref<*xf8E4M3FN>
  %sum_buf = bufferization.to_buffer %sum : tensor<4x96xf32> to memref<4x96xf32>
  %sum_u = memref.cast %sum_buf : memref<4x96xf32> to memref<*xf32>
  %sc_buf = bufferization.to_buffer %sc : tensor<4x3xf32> to memref<4x3xf32>
  %sc_u = memref.cast %sc_buf : memref<4x3xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 32 : i64
  %flags = arith.constant 8231 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %r_u, %g_u, %b_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e5m2_token_two_dims() {
  %x_m = memref.alloc() : memref<2x3x32xbf16>
  %x_u = memref.cast %x_m : memref<2x3x32xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7301023 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x3x32xbf16> to tensor<2x3x32xbf16>
  %g_m = memref.alloc() : memref<3x32xbf16>
  %g_u = memref.cast %g_m : memref<3x32xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7301024 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<3x32xbf16> to tensor<3x32xbf16>
  %b_m = memref.alloc() : memref<3x32xbf16>
  %b_u = memref.cast %b_m : memref<3x32xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7301025 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<3x32xbf16> to tensor<3x32xbf16>
  %q_init = tensor.empty() : tensor<2x3x32xf8E5M2>
  %sc_init = tensor.empty() : tensor<2xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<2x3x32xbf16>) weight(%g : tensor<3x32xbf16>) bias(%b : tensor<3x32xbf16>)
         outs(%q_init : tensor<2x3x32xf8E5M2>) scale_outs(%sc_init : tensor<2xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<2x3x32xf8E5M2>, tensor<2xf32>
  %q_buf = bufferization.to_buffer %q : tensor<2x3x32xf8E5M2> to memref<2x3x32xf8E5M2>
  %q_u = memref.cast %q_buf : memref<2x3x32xf8E5M2> to memref<*xf8E5M2>
  %sc_buf = bufferization.to_buffer %sc : tensor<2xf32> to memref<2xf32>
  %sc_u = memref.cast %sc_buf : memref<2xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 8198 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E5M2(%x_u, %x_u, %g_u, %b_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e5m2_group64() {
  %x_m = memref.alloc() : memref<3x2x64xf32>
  %x_u = memref.cast %x_m : memref<3x2x64xf32> to memref<*xf32>
  %x_seed = arith.constant 7301026 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x2x64xf32> to tensor<3x2x64xf32>
  %g_m = memref.alloc() : memref<2x64xf32>
  %g_u = memref.cast %g_m : memref<2x64xf32> to memref<*xf32>
  %g_seed = arith.constant 7301027 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<2x64xf32> to tensor<2x64xf32>
  %q_init = tensor.empty() : tensor<3x2x64xf8E5M2>
  %sc_init = tensor.empty() : tensor<3x2xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<3x2x64xf32>) weight(%g : tensor<2x64xf32>)
         outs(%q_init : tensor<3x2x64xf8E5M2>) scale_outs(%sc_init : tensor<3x2xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32, group_size = 64 : i64}
         -> tensor<3x2x64xf8E5M2>, tensor<3x2xf32>
  %q_buf = bufferization.to_buffer %q : tensor<3x2x64xf8E5M2> to memref<3x2x64xf8E5M2>
  %q_u = memref.cast %q_buf : memref<3x2x64xf8E5M2> to memref<*xf8E5M2>
  %sc_buf = bufferization.to_buffer %sc : tensor<3x2xf32> to memref<3x2xf32>
  %sc_u = memref.cast %sc_buf : memref<3x2xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 64 : i64
  %flags = arith.constant 8194 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e4m3_token() {
  %x_m = memref.alloc() : memref<7x100xf32>
  %x_u = memref.cast %x_m : memref<7x100xf32> to memref<*xf32>
  %x_seed = arith.constant 7301028 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<7x100xf32> to tensor<7x100xf32>
  %q_init = tensor.empty() : tensor<7x100xf8E4M3FN>
  %sc_init = tensor.empty() : tensor<7xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<7x100xf32>)
         outs(%q_init : tensor<7x100xf8E4M3FN>) scale_outs(%sc_init : tensor<7xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<7x100xf8E4M3FN>, tensor<7xf32>
  %q_buf = bufferization.to_buffer %q : tensor<7x100xf8E4M3FN> to memref<7x100xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<7x100xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc_buf = bufferization.to_buffer %sc : tensor<7xf32> to memref<7xf32>
  %sc_u = memref.cast %sc_buf : memref<7xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 8192 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %x_u, %x_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e4m3_subnormal() {
  %x_m = memref.alloc() : memref<4x64xf32>
  %x_u = memref.cast %x_m : memref<4x64xf32> to memref<*xf32>
  %x_seed = arith.constant 7301029 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x64xf32> to tensor<4x64xf32>
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 7301030 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %q_init = tensor.empty() : tensor<4x64xf8E4M3FN>
  %scale = arith.constant 300.0 : f32
  %q = norm.rms_norm ins(%x : tensor<4x64xf32>) weight(%g : tensor<64xf32>) scale(%scale : f32)
         outs(%q_init : tensor<4x64xf8E4M3FN>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<4x64xf8E4M3FN>
  %q_buf = bufferization.to_buffer %q : tensor<4x64xf8E4M3FN> to memref<4x64xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<4x64xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 300.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16386 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e5m2_subnormal() {
  %x_m = memref.alloc() : memref<4x64xf32>
  %x_u = memref.cast %x_m : memref<4x64xf32> to memref<*xf32>
  %x_seed = arith.constant 7301031 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x64xf32> to tensor<4x64xf32>
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 7301032 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %b_m = memref.alloc() : memref<64xf32>
  %b_u = memref.cast %b_m : memref<64xf32> to memref<*xf32>
  %b_seed = arith.constant 7301033 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<64xf32> to tensor<64xf32>
  %q_init = tensor.empty() : tensor<4x64xf8E5M2>
  %scale = arith.constant 30000.0 : f32
  %q = norm.layer_norm ins(%x : tensor<4x64xf32>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>) scale(%scale : f32)
         outs(%q_init : tensor<4x64xf8E5M2>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<4x64xf8E5M2>
  %q_buf = bufferization.to_buffer %q : tensor<4x64xf8E5M2> to memref<4x64xf8E5M2>
  %q_u = memref.cast %q_buf : memref<4x64xf8E5M2> to memref<*xf8E5M2>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 30000.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 24582 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %x_u, %g_u, %b_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}
