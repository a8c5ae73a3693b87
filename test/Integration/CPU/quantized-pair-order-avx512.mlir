// REQUIRES: avx512bf16
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 num-threads=2 vector-options={accumulators=3 parallel-threshold=-1 streaming-threshold=1 pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %S/quantized-kernel.mlir --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %S/quantized-kernel.mlir
// RUN: norm-opt %S/quantized-kernel.mlir --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %S/quantized-kernel.mlir
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" --mlir-print-ir-after=convert-norm-to-vector -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL

// The quantized row kernel on bf16 rows in pair order on AVX-512 (32 lanes:
// the even elements, then the odd ones; docs/design.md, "bf16 rows in pair
// order") against the float64 reference. A static scale: a LayerNorm with
// residual, β and the bf16 residual sum (rounded in pair order) to i8, an
// RMSNorm with residual and sum to E5M2 over rows longer than the blocked
// sums. Dynamic scales, whose row buffer is in pair layout too
// (QuantizedRow.h): per token, an RMSNorm with residual and sum to E4M3
// over 4099 (a masked tail of 3) and a LayerNorm with β to i8 over 515; per
// group, a LayerNorm with residual, β and sum to E5M2 in groups of 128 and
// an RMSNorm to i8 in groups of 32 (96: three groups, one vector each).
// Odd lengths (masked tails, and streaming heads with
// streaming-threshold=1: a dynamic scale's store sweep then streams only
// the rows whose start is aligned), pipelined rows over 2 threads and
// plain rows on one. Every quantized element is compared with the quantization of the
// float64 reference (test/Integration/CPU/quantized.mlir has the checker's
// rules). The fourth run executes quantized-kernel.mlir's cases built the
// same way; the last checks that the kernels are the pair-order ones.
// (parallel-threshold=0 with pipeline-rows=false fails to lower here, in
// natural order too: 'memref.alloca_scope' with several blocks.)

// KERNEL-LABEL: func.func @ln_i8_static_bf16
//       KERNEL: vector<32xbf16>
//       KERNEL: llvm.x86.avx512.packssdw.512
// KERNEL-LABEL: func.func @rms_e5m2_static_bf16_long
//       KERNEL: vector<32xbf16>
//       KERNEL: vector<32xf8E5M2>
// KERNEL-LABEL: func.func @rms_e4m3_token_bf16
//       KERNEL: vector<32xbf16>
//       KERNEL: vector.store %{{.*}} : memref<?xf32>, vector<32xf32>
//       KERNEL: vector<32xf8E4M3FN>
// KERNEL-LABEL: func.func @ln_i8_token_bf16
//       KERNEL: vector<32xbf16>
//       KERNEL: llvm.x86.avx512.packssdw.512
// KERNEL-LABEL: func.func @ln_e5m2_group128_bf16
//       KERNEL: vector<32xbf16>
//       KERNEL: vector<32xf8E5M2>
// KERNEL-LABEL: func.func @rms_i8_group32_bf16
//       KERNEL: vector<32xbf16>
//       KERNEL: llvm.x86.avx512.packssdw.512

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm bf16 {{\[}}17x515] axis=1 residual gamma beta sum -> i8 scale=0.02: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}5x4099] axis=1 residual gamma sum -> f8E5M2 scale=0.003: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}19x4099] axis=1 residual gamma sum -> f8E4M3FN per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 {{\[}}17x515] axis=1 gamma beta -> i8 per_token: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 {{\[}}5x1024] axis=1 residual gamma beta sum -> f8E5M2 group=128: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}18x96] axis=1 gamma -> i8 group=32: mismatches=0 {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_quant_norm_bf16_i8(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_f8E5M2(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_f8E4M3FN(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @ln_i8_static_bf16() : () -> ()
  func.call @rms_e5m2_static_bf16_long() : () -> ()
  func.call @rms_e4m3_token_bf16() : () -> ()
  func.call @ln_i8_token_bf16() : () -> ()
  func.call @ln_e5m2_group128_bf16() : () -> ()
  func.call @rms_i8_group32_bf16() : () -> ()
  return
}

func.func @ln_i8_static_bf16() {
  %x_m = memref.alloc() : memref<17x515xbf16>
  %x_u = memref.cast %x_m : memref<17x515xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302901 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<17x515xbf16> to tensor<17x515xbf16>
  %r_m = memref.alloc() : memref<17x515xbf16>
  %r_u = memref.cast %r_m : memref<17x515xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7302902 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<17x515xbf16> to tensor<17x515xbf16>
  %g_m = memref.alloc() : memref<515xbf16>
  %g_u = memref.cast %g_m : memref<515xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302903 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<515xbf16> to tensor<515xbf16>
  %b_m = memref.alloc() : memref<515xbf16>
  %b_u = memref.cast %b_m : memref<515xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7302904 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<515xbf16> to tensor<515xbf16>
  %q_init = tensor.empty() : tensor<17x515xi8>
  %s_init = tensor.empty() : tensor<17x515xbf16>
  %scale = arith.constant 0.02 : f32
  %q, %sum = norm.layer_norm ins(%x : tensor<17x515xbf16>) residual(%r : tensor<17x515xbf16>) weight(%g : tensor<515xbf16>) bias(%b : tensor<515xbf16>) scale(%scale : f32)
         outs(%q_init : tensor<17x515xi8>) sum_outs(%s_init : tensor<17x515xbf16>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<17x515xi8>, tensor<17x515xbf16>
  %q_buf = bufferization.to_buffer %q : tensor<17x515xi8> to memref<17x515xi8>
  %q_u = memref.cast %q_buf : memref<17x515xi8> to memref<*xi8>
  %sum_buf = bufferization.to_buffer %sum : tensor<17x515xbf16> to memref<17x515xbf16>
  %sum_u = memref.cast %sum_buf : memref<17x515xbf16> to memref<*xbf16>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.02 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 24615 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %r_u, %g_u, %b_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e5m2_static_bf16_long() {
  %x_m = memref.alloc() : memref<5x4099xbf16>
  %x_u = memref.cast %x_m : memref<5x4099xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302905 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x4099xbf16> to tensor<5x4099xbf16>
  %r_m = memref.alloc() : memref<5x4099xbf16>
  %r_u = memref.cast %r_m : memref<5x4099xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7302906 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<5x4099xbf16> to tensor<5x4099xbf16>
  %g_m = memref.alloc() : memref<4099xbf16>
  %g_u = memref.cast %g_m : memref<4099xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302907 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<4099xbf16> to tensor<4099xbf16>
  %q_init = tensor.empty() : tensor<5x4099xf8E5M2>
  %s_init = tensor.empty() : tensor<5x4099xbf16>
  %scale = arith.constant 0.003 : f32
  %q, %sum = norm.rms_norm ins(%x : tensor<5x4099xbf16>) residual(%r : tensor<5x4099xbf16>) weight(%g : tensor<4099xbf16>) scale(%scale : f32)
         outs(%q_init : tensor<5x4099xf8E5M2>) sum_outs(%s_init : tensor<5x4099xbf16>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<5x4099xf8E5M2>, tensor<5x4099xbf16>
  %q_buf = bufferization.to_buffer %q : tensor<5x4099xf8E5M2> to memref<5x4099xf8E5M2>
  %q_u = memref.cast %q_buf : memref<5x4099xf8E5M2> to memref<*xf8E5M2>
  %sum_buf = bufferization.to_buffer %sum : tensor<5x4099xbf16> to memref<5x4099xbf16>
  %sum_u = memref.cast %sum_buf : memref<5x4099xbf16> to memref<*xbf16>
  %sc_m = memref.alloc() : memref<1xf32>
  %sc_u = memref.cast %sc_m : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.003 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16419 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E5M2(%x_u, %r_u, %g_u, %x_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_e4m3_token_bf16() {
  %x_m = memref.alloc() : memref<19x4099xbf16>
  %x_u = memref.cast %x_m : memref<19x4099xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302911 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<19x4099xbf16> to tensor<19x4099xbf16>
  %r_m = memref.alloc() : memref<19x4099xbf16>
  %r_u = memref.cast %r_m : memref<19x4099xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7302912 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<19x4099xbf16> to tensor<19x4099xbf16>
  %g_m = memref.alloc() : memref<4099xbf16>
  %g_u = memref.cast %g_m : memref<4099xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302913 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<4099xbf16> to tensor<4099xbf16>
  %q_init = tensor.empty() : tensor<19x4099xf8E4M3FN>
  %s_init = tensor.empty() : tensor<19x4099xbf16>
  %sc_init = tensor.empty() : tensor<19xf32>
  %q, %sum, %sc = norm.rms_norm ins(%x : tensor<19x4099xbf16>) residual(%r : tensor<19x4099xbf16>) weight(%g : tensor<4099xbf16>)
         outs(%q_init : tensor<19x4099xf8E4M3FN>) sum_outs(%s_init : tensor<19x4099xbf16>) scale_outs(%sc_init : tensor<19xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32}
         -> tensor<19x4099xf8E4M3FN>, tensor<19x4099xbf16>, tensor<19xf32>
  %q_buf = bufferization.to_buffer %q : tensor<19x4099xf8E4M3FN> to memref<19x4099xf8E4M3FN>
  %q_u = memref.cast %q_buf : memref<19x4099xf8E4M3FN> to memref<*xf8E4M3FN>
  %sum_buf = bufferization.to_buffer %sum : tensor<19x4099xbf16> to memref<19x4099xbf16>
  %sum_u = memref.cast %sum_buf : memref<19x4099xbf16> to memref<*xbf16>
  %sc_buf = bufferization.to_buffer %sc : tensor<19xf32> to memref<19xf32>
  %sc_u = memref.cast %sc_buf : memref<19xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E4M3FN(%x_u, %r_u, %g_u, %x_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_i8_token_bf16() {
  %x_m = memref.alloc() : memref<17x515xbf16>
  %x_u = memref.cast %x_m : memref<17x515xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302915 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<17x515xbf16> to tensor<17x515xbf16>
  %g_m = memref.alloc() : memref<515xbf16>
  %g_u = memref.cast %g_m : memref<515xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302916 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<515xbf16> to tensor<515xbf16>
  %b_m = memref.alloc() : memref<515xbf16>
  %b_u = memref.cast %b_m : memref<515xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7302917 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<515xbf16> to tensor<515xbf16>
  %q_init = tensor.empty() : tensor<17x515xi8>
  %sc_init = tensor.empty() : tensor<17xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<17x515xbf16>) weight(%g : tensor<515xbf16>) bias(%b : tensor<515xbf16>)
         outs(%q_init : tensor<17x515xi8>) scale_outs(%sc_init : tensor<17xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32}
         -> tensor<17x515xi8>, tensor<17xf32>
  %q_buf = bufferization.to_buffer %q : tensor<17x515xi8> to memref<17x515xi8>
  %q_u = memref.cast %q_buf : memref<17x515xi8> to memref<*xi8>
  %sc_buf = bufferization.to_buffer %sc : tensor<17xf32> to memref<17xf32>
  %sc_u = memref.cast %sc_buf : memref<17xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 8198 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %x_u, %g_u, %b_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @ln_e5m2_group128_bf16() {
  %x_m = memref.alloc() : memref<5x1024xbf16>
  %x_u = memref.cast %x_m : memref<5x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302919 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x1024xbf16> to tensor<5x1024xbf16>
  %r_m = memref.alloc() : memref<5x1024xbf16>
  %r_u = memref.cast %r_m : memref<5x1024xbf16> to memref<*xbf16>
  %r_seed = arith.constant 7302920 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = bufferization.to_tensor %r_m restrict : memref<5x1024xbf16> to tensor<5x1024xbf16>
  %g_m = memref.alloc() : memref<1024xbf16>
  %g_u = memref.cast %g_m : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302921 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<1024xbf16> to tensor<1024xbf16>
  %b_m = memref.alloc() : memref<1024xbf16>
  %b_u = memref.cast %b_m : memref<1024xbf16> to memref<*xbf16>
  %b_seed = arith.constant 7302922 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = bufferization.to_tensor %b_m restrict : memref<1024xbf16> to tensor<1024xbf16>
  %q_init = tensor.empty() : tensor<5x1024xf8E5M2>
  %s_init = tensor.empty() : tensor<5x1024xbf16>
  %sc_init = tensor.empty() : tensor<5x8xf32>
  %q, %sum, %sc = norm.layer_norm ins(%x : tensor<5x1024xbf16>) residual(%r : tensor<5x1024xbf16>) weight(%g : tensor<1024xbf16>) bias(%b : tensor<1024xbf16>)
         outs(%q_init : tensor<5x1024xf8E5M2>) sum_outs(%s_init : tensor<5x1024xbf16>) scale_outs(%sc_init : tensor<5x8xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f32, group_size = 128 : i64}
         -> tensor<5x1024xf8E5M2>, tensor<5x1024xbf16>, tensor<5x8xf32>
  %q_buf = bufferization.to_buffer %q : tensor<5x1024xf8E5M2> to memref<5x1024xf8E5M2>
  %q_u = memref.cast %q_buf : memref<5x1024xf8E5M2> to memref<*xf8E5M2>
  %sum_buf = bufferization.to_buffer %sum : tensor<5x1024xbf16> to memref<5x1024xbf16>
  %sum_u = memref.cast %sum_buf : memref<5x1024xbf16> to memref<*xbf16>
  %sc_buf = bufferization.to_buffer %sc : tensor<5x8xf32> to memref<5x8xf32>
  %sc_u = memref.cast %sc_buf : memref<5x8xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 128 : i64
  %flags = arith.constant 8231 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E5M2(%x_u, %r_u, %g_u, %b_u, %q_u, %sum_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

func.func @rms_i8_group32_bf16() {
  %x_m = memref.alloc() : memref<18x96xbf16>
  %x_u = memref.cast %x_m : memref<18x96xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7302923 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_seed, %x_mean, %x_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<18x96xbf16> to tensor<18x96xbf16>
  %g_m = memref.alloc() : memref<96xbf16>
  %g_u = memref.cast %g_m : memref<96xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7302924 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = bufferization.to_tensor %g_m restrict : memref<96xbf16> to tensor<96xbf16>
  %q_init = tensor.empty() : tensor<18x96xi8>
  %sc_init = tensor.empty() : tensor<18x3xf32>
  %q, %sc = norm.rms_norm ins(%x : tensor<18x96xbf16>) weight(%g : tensor<96xbf16>)
         outs(%q_init : tensor<18x96xi8>) scale_outs(%sc_init : tensor<18x3xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f32, group_size = 32 : i64}
         -> tensor<18x96xi8>, tensor<18x3xf32>
  %q_buf = bufferization.to_buffer %q : tensor<18x96xi8> to memref<18x96xi8>
  %q_u = memref.cast %q_buf : memref<18x96xi8> to memref<*xi8>
  %sc_buf = bufferization.to_buffer %sc : tensor<18x3xf32> to memref<18x3xf32>
  %sc_u = memref.cast %sc_buf : memref<18x3xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 32 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  return
}

