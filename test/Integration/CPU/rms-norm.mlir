// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// and without row pipelining (each row's statistics from its own sweep):
// RUN: norm-opt %s --norm-lower-to-cpu="vector-options={pipeline-rows=false parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests for norm.rms_norm on f32: odd row lengths (not multiples of
// the vector width), n = 1, rows with |mean| >> std, pRMSNorm, the Gemma
// weight offset, both epsilon modes and a normalized axis spanning two dims.
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [4x17] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [5x33] axis=1 eps_out: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [3x100] axis=1 gamma offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [4x17] axis=1 gamma partial=0.25: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [6x40] axis=1 partial=0.5: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [6x1] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [3x4x5] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [2x3x16] axis=2 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [7x257] axis=1 gamma eps_out offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [37] axis=0 gamma: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_basic() : () -> ()
  func.call @rms_no_gamma_eps_out() : () -> ()
  func.call @rms_gemma() : () -> ()
  func.call @rms_partial() : () -> ()
  func.call @rms_partial_noweight() : () -> ()
  func.call @rms_n1() : () -> ()
  func.call @rms_two_dims() : () -> ()
  func.call @rms_3d_last() : () -> ()
  func.call @rms_wide() : () -> ()
  func.call @rms_1d() : () -> ()
  return
}

// Plain RMSNorm with gamma; row 1 has |mean| >> std.
func.func @rms_basic() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 4718102 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 4718103 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf32> to tensor<17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %y_res = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>)
         outs(%y_init : tensor<4x17xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f64}
         -> tensor<4x17xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// No gamma, epsilon outside the sqrt, default axis (-1).
func.func @rms_no_gamma_eps_out() {
  %x_m = memref.alloc() : memref<5x33xf32>
  %x_u = memref.cast %x_m : memref<5x33xf32> to memref<*xf32>
  %seed_x = arith.constant 1523702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x33xf32> to tensor<5x33xf32>
  %y_init = tensor.empty() : tensor<5x33xf32>
  %y_res = norm.rms_norm ins(%x : tensor<5x33xf32>)
         outs(%y_init : tensor<5x33xf32>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<5x33xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x33xf32> to memref<5x33xf32>
  %y_buf_u = memref.cast %y_buf : memref<5x33xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 8 : i64
  %axis = arith.constant -1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Gemma: y = x * rstd * (1 + gamma), gamma around 0.
func.func @rms_gemma() {
  %x_m = memref.alloc() : memref<3x100xf32>
  %x_u = memref.cast %x_m : memref<3x100xf32> to memref<*xf32>
  %seed_x = arith.constant 3538402 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<100xf32>
  %g_u = memref.cast %g_m : memref<100xf32> to memref<*xf32>
  %seed_g = arith.constant 3538403 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x100xf32> to tensor<3x100xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<100xf32> to tensor<100xf32>
  %y_init = tensor.empty() : tensor<3x100xf32>
  %y_res = norm.rms_norm ins(%x : tensor<3x100xf32>) weight(%g : tensor<100xf32>)
         outs(%y_init : tensor<3x100xf32>) {axis = 1 : i64, weight_offset = 1.0 : f64}
         -> tensor<3x100xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x100xf32> to memref<3x100xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x100xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// pRMSNorm: mean of squares over the first ceil(0.25 * 17) = 5 elements.
func.func @rms_partial() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 5041402 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 5041403 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf32> to tensor<17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %y_res = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>)
         outs(%y_init : tensor<4x17xf32>) {axis = 1 : i64, partial = 0.25 : f64}
         -> tensor<4x17xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 0.25 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// pRMSNorm with p = 0.5 (k = 20), no gamma, default epsilon.
func.func @rms_partial_noweight() {
  %x_m = memref.alloc() : memref<6x40xf32>
  %x_u = memref.cast %x_m : memref<6x40xf32> to memref<*xf32>
  %seed_x = arith.constant 3122703 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x40xf32> to tensor<6x40xf32>
  %y_init = tensor.empty() : tensor<6x40xf32>
  %y_res = norm.rms_norm ins(%x : tensor<6x40xf32>)
         outs(%y_init : tensor<6x40xf32>) {axis = -1 : i64, partial = 0.5 : f64}
         -> tensor<6x40xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x40xf32> to memref<6x40xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x40xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  %axis = arith.constant -1 : i64
  %partial = arith.constant 0.5 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// n = 1: every row is a single element.
func.func @rms_n1() {
  %x_m = memref.alloc() : memref<6x1xf32>
  %x_u = memref.cast %x_m : memref<6x1xf32> to memref<*xf32>
  %seed_x = arith.constant 4056902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<1xf32>
  %g_u = memref.cast %g_m : memref<1xf32> to memref<*xf32>
  %seed_g = arith.constant 4056903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x1xf32> to tensor<6x1xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<1xf32> to tensor<1xf32>
  %y_init = tensor.empty() : tensor<6x1xf32>
  %y_res = norm.rms_norm ins(%x : tensor<6x1xf32>) weight(%g : tensor<1xf32>)
         outs(%y_init : tensor<6x1xf32>) {axis = 1 : i64}
         -> tensor<6x1xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x1xf32> to memref<6x1xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x1xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// axis = 1 on a 3x4x5 input: rows of 4x5 = 20 elements, gamma 4x5.
func.func @rms_two_dims() {
  %x_m = memref.alloc() : memref<3x4x5xf32>
  %x_u = memref.cast %x_m : memref<3x4x5xf32> to memref<*xf32>
  %seed_x = arith.constant 3373802 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4x5xf32>
  %g_u = memref.cast %g_m : memref<4x5xf32> to memref<*xf32>
  %seed_g = arith.constant 3373803 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x4x5xf32> to tensor<3x4x5xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4x5xf32> to tensor<4x5xf32>
  %y_init = tensor.empty() : tensor<3x4x5xf32>
  %y_res = norm.rms_norm ins(%x : tensor<3x4x5xf32>) weight(%g : tensor<4x5xf32>)
         outs(%y_init : tensor<3x4x5xf32>) {axis = 1 : i64}
         -> tensor<3x4x5xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x4x5xf32> to memref<3x4x5xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x4x5xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Rank 3, default axis (last dim), n = 16.
func.func @rms_3d_last() {
  %x_m = memref.alloc() : memref<2x3x16xf32>
  %x_u = memref.cast %x_m : memref<2x3x16xf32> to memref<*xf32>
  %seed_x = arith.constant 595304 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<16xf32>
  %g_u = memref.cast %g_m : memref<16xf32> to memref<*xf32>
  %seed_g = arith.constant 595305 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x3x16xf32> to tensor<2x3x16xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<16xf32> to tensor<16xf32>
  %y_init = tensor.empty() : tensor<2x3x16xf32>
  %y_res = norm.rms_norm ins(%x : tensor<2x3x16xf32>) weight(%g : tensor<16xf32>)
         outs(%y_init : tensor<2x3x16xf32>)
         -> tensor<2x3x16xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<2x3x16xf32> to memref<2x3x16xf32>
  %y_buf_u = memref.cast %y_buf : memref<2x3x16xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant -1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// n = 257 with gamma and offset, eps outside the sqrt.
func.func @rms_wide() {
  %x_m = memref.alloc() : memref<7x257xf32>
  %x_u = memref.cast %x_m : memref<7x257xf32> to memref<*xf32>
  %seed_x = arith.constant 413805 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<257xf32>
  %g_u = memref.cast %g_m : memref<257xf32> to memref<*xf32>
  %seed_g = arith.constant 413806 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<7x257xf32> to tensor<7x257xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<257xf32> to tensor<257xf32>
  %y_init = tensor.empty() : tensor<7x257xf32>
  %y_res = norm.rms_norm ins(%x : tensor<7x257xf32>) weight(%g : tensor<257xf32>)
         outs(%y_init : tensor<7x257xf32>) {axis = 1 : i64, epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<7x257xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<7x257xf32> to memref<7x257xf32>
  %y_buf_u = memref.cast %y_buf : memref<7x257xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 10 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Rank 1: a single row of 37.
func.func @rms_1d() {
  %x_m = memref.alloc() : memref<37xf32>
  %x_u = memref.cast %x_m : memref<37xf32> to memref<*xf32>
  %seed_x = arith.constant 3138502 : i64
  %mean_x = arith.constant -0.3 : f64
  %scale_x = arith.constant 2.0 : f64
  func.call @norm_test_fill_f32(%x_u, %seed_x, %mean_x, %scale_x) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<37xf32>
  %g_u = memref.cast %g_m : memref<37xf32> to memref<*xf32>
  %seed_g = arith.constant 3138503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<37xf32> to tensor<37xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<37xf32> to tensor<37xf32>
  %y_init = tensor.empty() : tensor<37xf32>
  %y_res = norm.rms_norm ins(%x : tensor<37xf32>) weight(%g : tensor<37xf32>)
         outs(%y_init : tensor<37xf32>) {axis = 0 : i64}
         -> tensor<37xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<37xf32> to memref<37xf32>
  %y_buf_u = memref.cast %y_buf : memref<37xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 0 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}
