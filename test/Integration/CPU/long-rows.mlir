// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// big
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm f32 [4x4096] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK: {{^}}rms_norm f32 [4x4096] axis=1 gamma rstd: rel_err={{.*}} PASS
// CHECK: {{^}}layer_norm f32 [2x16384] axis=1 rstd: rel_err={{.*}} PASS
// CHECK: {{^}}rms_norm f32 [2x16384] axis=1 rstd: rel_err={{.*}} PASS
// CHECK: {{^}}layer_norm bf16 [2x16384] axis=1 mean rstd: rel_err={{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f32 [4x4096] w=[4096x8] gamma beta: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @a() : () -> ()
  func.call @b() : () -> ()
  func.call @c() : () -> ()
  func.call @d() : () -> ()
  func.call @e() : () -> ()
  func.call @f() : () -> ()
  return
}

// 
func.func @a() {
  %x_m = memref.alloc() : memref<4x4096xf32>
  %x_u = memref.cast %x_m : memref<4x4096xf32> to memref<*xf32>
  %seed_x = arith.constant 4870702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4096xf32>
  %g_u = memref.cast %g_m : memref<4096xf32> to memref<*xf32>
  %seed_g = arith.constant 4870703 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<4096xf32>
  %b_u = memref.cast %b_m : memref<4096xf32> to memref<*xf32>
  %seed_b = arith.constant 4870704 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x4096xf32> to tensor<4x4096xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4096xf32> to tensor<4096xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<4096xf32> to tensor<4096xf32>
  %y_init = tensor.empty() : tensor<4x4096xf32>
  %mean_init = tensor.empty() : tensor<4xf32>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<4x4096xf32>) weight(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>)
         outs(%y_init : tensor<4x4096xf32>) mean_outs(%mean_init : tensor<4xf32>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x4096xf32>, tensor<4xf32>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x4096xf32> to memref<4x4096xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x4096xf32> to memref<*xf32>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<4xf32> to memref<4xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<4xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// 
func.func @b() {
  %x_m = memref.alloc() : memref<4x4096xf32>
  %x_u = memref.cast %x_m : memref<4x4096xf32> to memref<*xf32>
  %seed_x = arith.constant 6143302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4096xf32>
  %g_u = memref.cast %g_m : memref<4096xf32> to memref<*xf32>
  %seed_g = arith.constant 6143303 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x4096xf32> to tensor<4x4096xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4096xf32> to tensor<4096xf32>
  %y_init = tensor.empty() : tensor<4x4096xf32>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %rstd_res = norm.rms_norm ins(%x : tensor<4x4096xf32>) weight(%g : tensor<4096xf32>)
         outs(%y_init : tensor<4x4096xf32>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x4096xf32>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x4096xf32> to memref<4x4096xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x4096xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
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

// 
func.func @c() {
  %x_m = memref.alloc() : memref<2x16384xf32>
  %x_u = memref.cast %x_m : memref<2x16384xf32> to memref<*xf32>
  %seed_x = arith.constant 5719902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x16384xf32> to tensor<2x16384xf32>
  %y_init = tensor.empty() : tensor<2x16384xf32>
  %rstd_init = tensor.empty() : tensor<2xf32>
  %y_res, %rstd_res = norm.layer_norm ins(%x : tensor<2x16384xf32>)
         outs(%y_init : tensor<2x16384xf32>) rstd_outs(%rstd_init : tensor<2xf32>) {axis = 1 : i64}
         -> tensor<2x16384xf32>, tensor<2xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<2x16384xf32> to memref<2x16384xf32>
  %y_buf_u = memref.cast %y_buf : memref<2x16384xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<2xf32> to memref<2xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<2xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 128 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// 
func.func @d() {
  %x_m = memref.alloc() : memref<2x16384xf32>
  %x_u = memref.cast %x_m : memref<2x16384xf32> to memref<*xf32>
  %seed_x = arith.constant 1914802 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x16384xf32> to tensor<2x16384xf32>
  %y_init = tensor.empty() : tensor<2x16384xf32>
  %rstd_init = tensor.empty() : tensor<2xf32>
  %y_res, %rstd_res = norm.rms_norm ins(%x : tensor<2x16384xf32>)
         outs(%y_init : tensor<2x16384xf32>) rstd_outs(%rstd_init : tensor<2xf32>) {axis = 1 : i64}
         -> tensor<2x16384xf32>, tensor<2xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<2x16384xf32> to memref<2x16384xf32>
  %y_buf_u = memref.cast %y_buf : memref<2x16384xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<2xf32> to memref<2xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<2xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 128 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// 
func.func @e() {
  %x_m = memref.alloc() : memref<2x16384xbf16>
  %x_u = memref.cast %x_m : memref<2x16384xbf16> to memref<*xbf16>
  %seed_x = arith.constant 3132202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x16384xbf16> to tensor<2x16384xbf16>
  %y_init = tensor.empty() : tensor<2x16384xbf16>
  %mean_init = tensor.empty() : tensor<2xf32>
  %rstd_init = tensor.empty() : tensor<2xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<2x16384xbf16>)
         outs(%y_init : tensor<2x16384xbf16>) mean_outs(%mean_init : tensor<2xf32>) rstd_outs(%rstd_init : tensor<2xf32>) {axis = 1 : i64}
         -> tensor<2x16384xbf16>, tensor<2xf32>, tensor<2xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<2x16384xbf16> to memref<2x16384xbf16>
  %y_buf_u = memref.cast %y_buf : memref<2x16384xbf16> to memref<*xbf16>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<2xf32> to memref<2xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<2xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<2xf32> to memref<2xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<2xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 192 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_bf16(%x_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// 
func.func @f() {
  %x_m = memref.alloc() : memref<4x4096xf32>
  %x_u = memref.cast %x_m : memref<4x4096xf32> to memref<*xf32>
  %seed_x = arith.constant 1123202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4096xf32>
  %g_u = memref.cast %g_m : memref<4096xf32> to memref<*xf32>
  %seed_g = arith.constant 1123203 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<4096xf32>
  %b_u = memref.cast %b_m : memref<4096xf32> to memref<*xf32>
  %seed_b = arith.constant 1123204 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<4096x8xf32>
  %w_u = memref.cast %w_m : memref<4096x8xf32> to memref<*xf32>
  %seed_w = arith.constant 1123205 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x4096xf32> to tensor<4x4096xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4096xf32> to tensor<4096xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<4096xf32> to tensor<4096xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<4096x8xf32> to tensor<4096x8xf32>
  %c_init = tensor.empty() : tensor<4x8xf32>
  %c_res = norm.layer_norm_matmul ins(%x : tensor<4x4096xf32>) weight(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>) rhs(%w : tensor<4096x8xf32>)
         outs(%c_init : tensor<4x8xf32>)
         -> tensor<4x8xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<4x8xf32> to memref<4x8xf32>
  %c_buf_u = memref.cast %c_buf : memref<4x8xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %g_u, %b_u, %w_u, %dummy_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}
