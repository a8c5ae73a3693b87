// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests for the residual-add forms (sum_outs) and the statistics
// results (mean_outs, rstd_outs) of norm.rms_norm and norm.layer_norm, f32.
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [4x17] axis=1 residual gamma sum rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [5x33] axis=1 residual gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [3x4x5] axis=1 gamma rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [6x40] axis=1 residual gamma sum rstd offset=1 partial=0.25: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [4x17] axis=1 residual gamma beta sum mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [3x4x5] axis=1 mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [5x100] axis=1 gamma eps_out rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [6x33] axis=1 residual sum mean: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_add_sum_rstd() : () -> ()
  func.call @rms_add_nosum() : () -> ()
  func.call @rms_rstd_two_dims() : () -> ()
  func.call @rms_add_partial_gemma() : () -> ()
  func.call @ln_add_all() : () -> ()
  func.call @ln_stats_two_dims() : () -> ()
  func.call @ln_rstd_eps_out() : () -> ()
  func.call @ln_add_mean_cancel() : () -> ()
  return
}

// y, s, rstd = rms_norm(x + r): all three results.
func.func @rms_add_sum_rstd() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 6442202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<4x17xf32>
  %r_u = memref.cast %r_m : memref<4x17xf32> to memref<*xf32>
  %seed_r = arith.constant 6442203 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 6442204 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf32> to tensor<17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %s_init = tensor.empty() : tensor<4x17xf32>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %s_res, %rstd_res = norm.rms_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xf32>) weight(%g : tensor<17xf32>)
         outs(%y_init : tensor<4x17xf32>) sum_outs(%s_init : tensor<4x17xf32>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x17xf32>, tensor<4x17xf32>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x17xf32> to memref<4x17xf32>
  %s_buf_u = memref.cast %s_buf : memref<4x17xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 163 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Residual without a sum result.
func.func @rms_add_nosum() {
  %x_m = memref.alloc() : memref<5x33xf32>
  %x_u = memref.cast %x_m : memref<5x33xf32> to memref<*xf32>
  %seed_x = arith.constant 3552802 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<5x33xf32>
  %r_u = memref.cast %r_m : memref<5x33xf32> to memref<*xf32>
  %seed_r = arith.constant 3552803 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 3552804 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x33xf32> to tensor<5x33xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<5x33xf32> to tensor<5x33xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf32> to tensor<33xf32>
  %y_init = tensor.empty() : tensor<5x33xf32>
  %y_res = norm.rms_norm ins(%x : tensor<5x33xf32>) residual(%r : tensor<5x33xf32>) weight(%g : tensor<33xf32>)
         outs(%y_init : tensor<5x33xf32>) {axis = 1 : i64}
         -> tensor<5x33xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x33xf32> to memref<5x33xf32>
  %y_buf_u = memref.cast %y_buf : memref<5x33xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 3 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %r_u, %g_u, %y_buf_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// rstd of rows over two dims: rstd is 3 elements.
func.func @rms_rstd_two_dims() {
  %x_m = memref.alloc() : memref<3x4x5xf32>
  %x_u = memref.cast %x_m : memref<3x4x5xf32> to memref<*xf32>
  %seed_x = arith.constant 401902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4x5xf32>
  %g_u = memref.cast %g_m : memref<4x5xf32> to memref<*xf32>
  %seed_g = arith.constant 401903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x4x5xf32> to tensor<3x4x5xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4x5xf32> to tensor<4x5xf32>
  %y_init = tensor.empty() : tensor<3x4x5xf32>
  %rstd_init = tensor.empty() : tensor<3xf32>
  %y_res, %rstd_res = norm.rms_norm ins(%x : tensor<3x4x5xf32>) weight(%g : tensor<4x5xf32>)
         outs(%y_init : tensor<3x4x5xf32>) rstd_outs(%rstd_init : tensor<3xf32>) {axis = 1 : i64}
         -> tensor<3x4x5xf32>, tensor<3xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x4x5xf32> to memref<3x4x5xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x4x5xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<3xf32> to memref<3xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<3xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Residual + pRMSNorm (p = 0.25, k = 10) + Gemma offset + sum + rstd.
func.func @rms_add_partial_gemma() {
  %x_m = memref.alloc() : memref<6x40xf32>
  %x_u = memref.cast %x_m : memref<6x40xf32> to memref<*xf32>
  %seed_x = arith.constant 5242702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<6x40xf32>
  %r_u = memref.cast %r_m : memref<6x40xf32> to memref<*xf32>
  %seed_r = arith.constant 5242703 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<40xf32>
  %g_u = memref.cast %g_m : memref<40xf32> to memref<*xf32>
  %seed_g = arith.constant 5242704 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x40xf32> to tensor<6x40xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<6x40xf32> to tensor<6x40xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<40xf32> to tensor<40xf32>
  %y_init = tensor.empty() : tensor<6x40xf32>
  %s_init = tensor.empty() : tensor<6x40xf32>
  %rstd_init = tensor.empty() : tensor<6xf32>
  %y_res, %s_res, %rstd_res = norm.rms_norm ins(%x : tensor<6x40xf32>) residual(%r : tensor<6x40xf32>) weight(%g : tensor<40xf32>)
         outs(%y_init : tensor<6x40xf32>) sum_outs(%s_init : tensor<6x40xf32>) rstd_outs(%rstd_init : tensor<6xf32>) {axis = 1 : i64, weight_offset = 1.0 : f64, partial = 0.25 : f64}
         -> tensor<6x40xf32>, tensor<6x40xf32>, tensor<6xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x40xf32> to memref<6x40xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x40xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<6x40xf32> to memref<6x40xf32>
  %s_buf_u = memref.cast %s_buf : memref<6x40xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<6xf32> to memref<6xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<6xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 163 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 0.25 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// y, s, mean, rstd = layer_norm(x + r) with gamma and beta.
func.func @ln_add_all() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 2342302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<4x17xf32>
  %r_u = memref.cast %r_m : memref<4x17xf32> to memref<*xf32>
  %seed_r = arith.constant 2342303 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 2342304 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<17xf32>
  %b_u = memref.cast %b_m : memref<17xf32> to memref<*xf32>
  %seed_b = arith.constant 2342305 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf32> to tensor<17xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<17xf32> to tensor<17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %s_init = tensor.empty() : tensor<4x17xf32>
  %mean_init = tensor.empty() : tensor<4xf32>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %s_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<4x17xf32>) residual(%r : tensor<4x17xf32>) weight(%g : tensor<17xf32>) bias(%b : tensor<17xf32>)
         outs(%y_init : tensor<4x17xf32>) sum_outs(%s_init : tensor<4x17xf32>) mean_outs(%mean_init : tensor<4xf32>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x17xf32>, tensor<4x17xf32>, tensor<4xf32>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x17xf32> to memref<4x17xf32>
  %s_buf_u = memref.cast %s_buf : memref<4x17xf32> to memref<*xf32>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<4xf32> to memref<4xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<4xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 231 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// mean and rstd of rows over two dims (3 each).
func.func @ln_stats_two_dims() {
  %x_m = memref.alloc() : memref<3x4x5xf32>
  %x_u = memref.cast %x_m : memref<3x4x5xf32> to memref<*xf32>
  %seed_x = arith.constant 3738602 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x4x5xf32> to tensor<3x4x5xf32>
  %y_init = tensor.empty() : tensor<3x4x5xf32>
  %mean_init = tensor.empty() : tensor<3xf32>
  %rstd_init = tensor.empty() : tensor<3xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<3x4x5xf32>)
         outs(%y_init : tensor<3x4x5xf32>) mean_outs(%mean_init : tensor<3xf32>) rstd_outs(%rstd_init : tensor<3xf32>) {axis = 1 : i64}
         -> tensor<3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x4x5xf32> to memref<3x4x5xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x4x5xf32> to memref<*xf32>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<3xf32> to memref<3xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<3xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<3xf32> to memref<3xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<3xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 192 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// rstd only, epsilon outside the sqrt.
func.func @ln_rstd_eps_out() {
  %x_m = memref.alloc() : memref<5x100xf32>
  %x_u = memref.cast %x_m : memref<5x100xf32> to memref<*xf32>
  %seed_x = arith.constant 4693502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<100xf32>
  %g_u = memref.cast %g_m : memref<100xf32> to memref<*xf32>
  %seed_g = arith.constant 4693503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x100xf32> to tensor<5x100xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<100xf32> to tensor<100xf32>
  %y_init = tensor.empty() : tensor<5x100xf32>
  %rstd_init = tensor.empty() : tensor<5xf32>
  %y_res, %rstd_res = norm.layer_norm ins(%x : tensor<5x100xf32>) weight(%g : tensor<100xf32>)
         outs(%y_init : tensor<5x100xf32>) rstd_outs(%rstd_init : tensor<5xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<5x100xf32>, tensor<5xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x100xf32> to memref<5x100xf32>
  %y_buf_u = memref.cast %y_buf : memref<5x100xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<5xf32> to memref<5xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<5xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 138 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Residual with |mean| >> std in every row, mean and sum results.
func.func @ln_add_mean_cancel() {
  %x_m = memref.alloc() : memref<6x33xf32>
  %x_u = memref.cast %x_m : memref<6x33xf32> to memref<*xf32>
  %seed_x = arith.constant 2347902 : i64
  %mean_x = arith.constant 200.0 : f64
  %scale_x = arith.constant 0.05 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<6x33xf32>
  %r_u = memref.cast %r_m : memref<6x33xf32> to memref<*xf32>
  %seed_r = arith.constant 2347903 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x33xf32> to tensor<6x33xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<6x33xf32> to tensor<6x33xf32>
  %y_init = tensor.empty() : tensor<6x33xf32>
  %s_init = tensor.empty() : tensor<6x33xf32>
  %mean_init = tensor.empty() : tensor<6xf32>
  %y_res, %s_res, %mean_res = norm.layer_norm ins(%x : tensor<6x33xf32>) residual(%r : tensor<6x33xf32>)
         outs(%y_init : tensor<6x33xf32>) sum_outs(%s_init : tensor<6x33xf32>) mean_outs(%mean_init : tensor<6xf32>) {axis = 1 : i64}
         -> tensor<6x33xf32>, tensor<6x33xf32>, tensor<6xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x33xf32> to memref<6x33xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x33xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<6x33xf32> to memref<6x33xf32>
  %s_buf_u = memref.cast %s_buf : memref<6x33xf32> to memref<*xf32>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<6xf32> to memref<6xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<6xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 97 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %r_u, %dummy_u, %dummy_u, %y_buf_u, %s_buf_u, %mean_buf_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}
