// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// and without row pipelining (each row's statistics from its own sweep):
// RUN: norm-opt %s --norm-lower-to-cpu="vector-options={pipeline-rows=false parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests for norm.layer_norm on f32: odd row lengths, n = 1, rows with
// |mean| >> std (the statistics must be computed stably), both epsilon modes,
// the weight offset and a normalized axis spanning two dims.
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm f32 [4x17] axis=1 gamma beta: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [5x33] axis=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [3x100] axis=1 gamma beta eps_out: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [6x1] axis=1 gamma beta: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [3x4x5] axis=1 gamma beta: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [4x48] axis=1 gamma offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [8x64] axis=1 gamma beta: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [3x1000] axis=1 beta: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @ln_basic() : () -> ()
  func.call @ln_plain() : () -> ()
  func.call @ln_eps_out() : () -> ()
  func.call @ln_n1() : () -> ()
  func.call @ln_two_dims() : () -> ()
  func.call @ln_offset() : () -> ()
  func.call @ln_big_mean() : () -> ()
  func.call @ln_wide() : () -> ()
  return
}

// gamma and beta; row 1 has |mean| = 1e4 * scale.
func.func @ln_basic() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 2592902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 2592903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<17xf32>
  %b_u = memref.cast %b_m : memref<17xf32> to memref<*xf32>
  %seed_b = arith.constant 2592904 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf32> to tensor<4x17xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf32> to tensor<17xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<17xf32> to tensor<17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %y_res = norm.layer_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>) bias(%b : tensor<17xf32>)
         outs(%y_init : tensor<4x17xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f64}
         -> tensor<4x17xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// No gamma, no beta, default epsilon and axis.
func.func @ln_plain() {
  %x_m = memref.alloc() : memref<5x33xf32>
  %x_u = memref.cast %x_m : memref<5x33xf32> to memref<*xf32>
  %seed_x = arith.constant 2939702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x33xf32> to tensor<5x33xf32>
  %y_init = tensor.empty() : tensor<5x33xf32>
  %y_res = norm.layer_norm ins(%x : tensor<5x33xf32>)
         outs(%y_init : tensor<5x33xf32>)
         -> tensor<5x33xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x33xf32> to memref<5x33xf32>
  %y_buf_u = memref.cast %y_buf : memref<5x33xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  %axis = arith.constant -1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Epsilon outside the sqrt.
func.func @ln_eps_out() {
  %x_m = memref.alloc() : memref<3x100xf32>
  %x_u = memref.cast %x_m : memref<3x100xf32> to memref<*xf32>
  %seed_x = arith.constant 2667902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<100xf32>
  %g_u = memref.cast %g_m : memref<100xf32> to memref<*xf32>
  %seed_g = arith.constant 2667903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<100xf32>
  %b_u = memref.cast %b_m : memref<100xf32> to memref<*xf32>
  %seed_b = arith.constant 2667904 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x100xf32> to tensor<3x100xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<100xf32> to tensor<100xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<100xf32> to tensor<100xf32>
  %y_init = tensor.empty() : tensor<3x100xf32>
  %y_res = norm.layer_norm ins(%x : tensor<3x100xf32>) weight(%g : tensor<100xf32>) bias(%b : tensor<100xf32>)
         outs(%y_init : tensor<3x100xf32>) {axis = 1 : i64, epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<3x100xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x100xf32> to memref<3x100xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x100xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 14 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// n = 1: x - mean = 0, so y = beta.
func.func @ln_n1() {
  %x_m = memref.alloc() : memref<6x1xf32>
  %x_u = memref.cast %x_m : memref<6x1xf32> to memref<*xf32>
  %seed_x = arith.constant 4991902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<1xf32>
  %g_u = memref.cast %g_m : memref<1xf32> to memref<*xf32>
  %seed_g = arith.constant 4991903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<1xf32>
  %b_u = memref.cast %b_m : memref<1xf32> to memref<*xf32>
  %seed_b = arith.constant 4991904 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x1xf32> to tensor<6x1xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<1xf32> to tensor<1xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<1xf32> to tensor<1xf32>
  %y_init = tensor.empty() : tensor<6x1xf32>
  %y_res = norm.layer_norm ins(%x : tensor<6x1xf32>) weight(%g : tensor<1xf32>) bias(%b : tensor<1xf32>)
         outs(%y_init : tensor<6x1xf32>) {axis = 1 : i64}
         -> tensor<6x1xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x1xf32> to memref<6x1xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x1xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// axis = 1 on 3x4x5: rows of 20 elements, gamma and beta 4x5.
func.func @ln_two_dims() {
  %x_m = memref.alloc() : memref<3x4x5xf32>
  %x_u = memref.cast %x_m : memref<3x4x5xf32> to memref<*xf32>
  %seed_x = arith.constant 1605802 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4x5xf32>
  %g_u = memref.cast %g_m : memref<4x5xf32> to memref<*xf32>
  %seed_g = arith.constant 1605803 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<4x5xf32>
  %b_u = memref.cast %b_m : memref<4x5xf32> to memref<*xf32>
  %seed_b = arith.constant 1605804 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x4x5xf32> to tensor<3x4x5xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4x5xf32> to tensor<4x5xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<4x5xf32> to tensor<4x5xf32>
  %y_init = tensor.empty() : tensor<3x4x5xf32>
  %y_res = norm.layer_norm ins(%x : tensor<3x4x5xf32>) weight(%g : tensor<4x5xf32>) bias(%b : tensor<4x5xf32>)
         outs(%y_init : tensor<3x4x5xf32>) {axis = 1 : i64}
         -> tensor<3x4x5xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x4x5xf32> to memref<3x4x5xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x4x5xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// weight_offset = 1 with gamma around 0, gamma only.
func.func @ln_offset() {
  %x_m = memref.alloc() : memref<4x48xf32>
  %x_u = memref.cast %x_m : memref<4x48xf32> to memref<*xf32>
  %seed_x = arith.constant 991402 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<48xf32>
  %g_u = memref.cast %g_m : memref<48xf32> to memref<*xf32>
  %seed_g = arith.constant 991403 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x48xf32> to tensor<4x48xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<48xf32> to tensor<48xf32>
  %y_init = tensor.empty() : tensor<4x48xf32>
  %y_res = norm.layer_norm ins(%x : tensor<4x48xf32>) weight(%g : tensor<48xf32>)
         outs(%y_init : tensor<4x48xf32>) {axis = 1 : i64, weight_offset = 1.0 : f64}
         -> tensor<4x48xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x48xf32> to memref<4x48xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x48xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Every row has |mean| >> std (mean 300, scale 0.01).
func.func @ln_big_mean() {
  %x_m = memref.alloc() : memref<8x64xf32>
  %x_u = memref.cast %x_m : memref<8x64xf32> to memref<*xf32>
  %seed_x = arith.constant 6318706 : i64
  %mean_x = arith.constant 300.0 : f64
  %scale_x = arith.constant 0.01 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %seed_g = arith.constant 6318707 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<64xf32>
  %b_u = memref.cast %b_m : memref<64xf32> to memref<*xf32>
  %seed_b = arith.constant 6318708 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<8x64xf32> to tensor<8x64xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<64xf32> to tensor<64xf32>
  %y_init = tensor.empty() : tensor<8x64xf32>
  %y_res = norm.layer_norm ins(%x : tensor<8x64xf32>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>)
         outs(%y_init : tensor<8x64xf32>) {axis = 1 : i64}
         -> tensor<8x64xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<8x64xf32> to memref<8x64xf32>
  %y_buf_u = memref.cast %y_buf : memref<8x64xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// n = 1000, beta only.
func.func @ln_wide() {
  %x_m = memref.alloc() : memref<3x1000xf32>
  %x_u = memref.cast %x_m : memref<3x1000xf32> to memref<*xf32>
  %seed_x = arith.constant 3996907 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %b_m = memref.alloc() : memref<1000xf32>
  %b_u = memref.cast %b_m : memref<1000xf32> to memref<*xf32>
  %seed_b = arith.constant 3996908 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x1000xf32> to tensor<3x1000xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<1000xf32> to tensor<1000xf32>
  %y_init = tensor.empty() : tensor<3x1000xf32>
  %y_res = norm.layer_norm ins(%x : tensor<3x1000xf32>) bias(%b : tensor<1000xf32>)
         outs(%y_init : tensor<3x1000xf32>) {axis = -1 : i64}
         -> tensor<3x1000xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x1000xf32> to memref<3x1000xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x1000xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 4 : i64
  %axis = arith.constant -1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %dummy_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}
