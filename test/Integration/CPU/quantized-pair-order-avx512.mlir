// REQUIRES: avx512bf16
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 num-threads=2 vector-options={accumulators=3 parallel-threshold=-1 streaming-threshold=1 pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %S/quantized-kernel.mlir --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %S/quantized-kernel.mlir
// RUN: norm-opt %S/quantized-kernel.mlir --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %S/quantized-kernel.mlir
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" --mlir-print-ir-after=convert-norm-to-vector -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL

// The quantized row kernel with a static scale on bf16 rows in pair order on
// AVX-512 (32 lanes: the even elements, then the odd ones; docs/design.md,
// "bf16 rows in pair order") against the float64 reference: a LayerNorm
// with residual, β and the bf16 residual sum (rounded in pair order) to i8,
// an RMSNorm with residual and sum to E5M2 over rows longer than the
// blocked sums; odd lengths (masked tails, and streaming heads with
// streaming-threshold=1), pipelined rows over 2 threads and plain rows on
// one. Every quantized element is compared with the quantization of the
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

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm bf16 {{\[}}17x515] axis=1 residual gamma beta sum -> i8 scale=0.02: mismatches=0 {{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}5x4099] axis=1 residual gamma sum -> f8E5M2 scale=0.003: mismatches=0 {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_quant_norm_bf16_i8(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_f8E5M2(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @ln_i8_static_bf16() : () -> ()
  func.call @rms_e5m2_static_bf16_long() : () -> ()
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
