// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests for f16 and bf16 data: statistics are accumulated in f32
// from upcast inputs (f16 x^2 would overflow), results rounded once
// (after_weight) or before the weight multiply (before_weight).
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f16 [4x17] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f16 [5x64] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f16 [3x100] axis=1 gamma cast_bw offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f16 [4x33] axis=1 residual gamma sum rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f16 [5x33] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f16 [3x4x5] axis=1 gamma beta eps_out: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [4x17] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [6x40] axis=1 gamma cast_bw: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [4x17] axis=1 gamma rstd partial=0.25: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [5x1] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [4x100] axis=1 residual gamma eps_out sum offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 [4x17] axis=1 residual gamma beta sum mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 [3x64] axis=1 gamma beta cast_bw: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm bf16 [8x48] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @f16_rms() : () -> ()
  func.call @f16_rms_large() : () -> ()
  func.call @f16_rms_cast_bw() : () -> ()
  func.call @f16_rms_add() : () -> ()
  func.call @f16_ln() : () -> ()
  func.call @f16_ln_two_dims() : () -> ()
  func.call @bf16_rms() : () -> ()
  func.call @bf16_rms_cast_bw() : () -> ()
  func.call @bf16_rms_partial() : () -> ()
  func.call @bf16_rms_n1() : () -> ()
  func.call @bf16_rms_add_gemma() : () -> ()
  func.call @bf16_ln() : () -> ()
  func.call @bf16_ln_cast_bw() : () -> ()
  func.call @bf16_ln_big_mean() : () -> ()
  return
}

// f16 RMSNorm; row 1 has |mean| 1e4, so x^2 overflows f16.
func.func @f16_rms() {
  %x_m = memref.alloc() : memref<4x17xf16>
  %x_u = memref.cast %x_m : memref<4x17xf16> to memref<*xf16>
  %seed_x = arith.constant 4330502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xf16>
  %g_u = memref.cast %g_m : memref<17xf16> to memref<*xf16>
  %seed_g = arith.constant 4330503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xf16> to tensor<4x17xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<17xf16> to tensor<17xf16>
  %y_init = tensor.empty() : tensor<4x17xf16>
  %y_res = norm.rms_norm ins(%x : tensor<4x17xf16>) weight(%g : tensor<17xf16>)
         outs(%y_init : tensor<4x17xf16>) {axis = 1 : i64}
         -> tensor<4x17xf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf16> to memref<4x17xf16>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// All rows with values around 500: x^2 > 65504.
func.func @f16_rms_large() {
  %x_m = memref.alloc() : memref<5x64xf16>
  %x_u = memref.cast %x_m : memref<5x64xf16> to memref<*xf16>
  %seed_x = arith.constant 3839802 : i64
  %mean_x = arith.constant 500.0 : f64
  %scale_x = arith.constant 100.0 : f64
  func.call @norm_test_fill_f16(%x_u, %seed_x, %mean_x, %scale_x) : (memref<*xf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<64xf16>
  %g_u = memref.cast %g_m : memref<64xf16> to memref<*xf16>
  %seed_g = arith.constant 3839803 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x64xf16> to tensor<5x64xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<64xf16> to tensor<64xf16>
  %y_init = tensor.empty() : tensor<5x64xf16>
  %y_res = norm.rms_norm ins(%x : tensor<5x64xf16>) weight(%g : tensor<64xf16>)
         outs(%y_init : tensor<5x64xf16>) {axis = 1 : i64}
         -> tensor<5x64xf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x64xf16> to memref<5x64xf16>
  %y_buf_u = memref.cast %y_buf : memref<5x64xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Llama-style cast before the weight, Gemma offset.
func.func @f16_rms_cast_bw() {
  %x_m = memref.alloc() : memref<3x100xf16>
  %x_u = memref.cast %x_m : memref<3x100xf16> to memref<*xf16>
  %seed_x = arith.constant 648702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<100xf16>
  %g_u = memref.cast %g_m : memref<100xf16> to memref<*xf16>
  %seed_g = arith.constant 648703 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x100xf16> to tensor<3x100xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<100xf16> to tensor<100xf16>
  %y_init = tensor.empty() : tensor<3x100xf16>
  %y_res = norm.rms_norm ins(%x : tensor<3x100xf16>) weight(%g : tensor<100xf16>)
         outs(%y_init : tensor<3x100xf16>) {axis = 1 : i64, weight_offset = 1.0 : f64, cast_mode = #norm.cast_mode<before_weight>}
         -> tensor<3x100xf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x100xf16> to memref<3x100xf16>
  %y_buf_u = memref.cast %y_buf : memref<3x100xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 18 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Residual add with sum and rstd results.
func.func @f16_rms_add() {
  %x_m = memref.alloc() : memref<4x33xf16>
  %x_u = memref.cast %x_m : memref<4x33xf16> to memref<*xf16>
  %seed_x = arith.constant 4460302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<4x33xf16>
  %r_u = memref.cast %r_m : memref<4x33xf16> to memref<*xf16>
  %seed_r = arith.constant 4460303 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<33xf16>
  %g_u = memref.cast %g_m : memref<33xf16> to memref<*xf16>
  %seed_g = arith.constant 4460304 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x33xf16> to tensor<4x33xf16>
  %r = bufferization.to_tensor %r_m restrict : memref<4x33xf16> to tensor<4x33xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf16> to tensor<33xf16>
  %y_init = tensor.empty() : tensor<4x33xf16>
  %s_init = tensor.empty() : tensor<4x33xf16>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %s_res, %rstd_res = norm.rms_norm ins(%x : tensor<4x33xf16>) residual(%r : tensor<4x33xf16>) weight(%g : tensor<33xf16>)
         outs(%y_init : tensor<4x33xf16>) sum_outs(%s_init : tensor<4x33xf16>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x33xf16>, tensor<4x33xf16>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x33xf16> to memref<4x33xf16>
  %y_buf_u = memref.cast %y_buf : memref<4x33xf16> to memref<*xf16>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x33xf16> to memref<4x33xf16>
  %s_buf_u = memref.cast %s_buf : memref<4x33xf16> to memref<*xf16>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 163 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f16(%x_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// f16 LayerNorm with gamma, beta, mean and rstd.
func.func @f16_ln() {
  %x_m = memref.alloc() : memref<5x33xf16>
  %x_u = memref.cast %x_m : memref<5x33xf16> to memref<*xf16>
  %seed_x = arith.constant 3144602 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xf16>
  %g_u = memref.cast %g_m : memref<33xf16> to memref<*xf16>
  %seed_g = arith.constant 3144603 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<33xf16>
  %b_u = memref.cast %b_m : memref<33xf16> to memref<*xf16>
  %seed_b = arith.constant 3144604 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x33xf16> to tensor<5x33xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf16> to tensor<33xf16>
  %b = bufferization.to_tensor %b_m restrict : memref<33xf16> to tensor<33xf16>
  %y_init = tensor.empty() : tensor<5x33xf16>
  %mean_init = tensor.empty() : tensor<5xf32>
  %rstd_init = tensor.empty() : tensor<5xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<5x33xf16>) weight(%g : tensor<33xf16>) bias(%b : tensor<33xf16>)
         outs(%y_init : tensor<5x33xf16>) mean_outs(%mean_init : tensor<5xf32>) rstd_outs(%rstd_init : tensor<5xf32>) {axis = 1 : i64}
         -> tensor<5x33xf16>, tensor<5xf32>, tensor<5xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x33xf16> to memref<5x33xf16>
  %y_buf_u = memref.cast %y_buf : memref<5x33xf16> to memref<*xf16>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<5xf32> to memref<5xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<5xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<5xf32> to memref<5xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<5xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f16(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// axis = 1 on 3x4x5, f16.
func.func @f16_ln_two_dims() {
  %x_m = memref.alloc() : memref<3x4x5xf16>
  %x_u = memref.cast %x_m : memref<3x4x5xf16> to memref<*xf16>
  %seed_x = arith.constant 2046102 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4x5xf16>
  %g_u = memref.cast %g_m : memref<4x5xf16> to memref<*xf16>
  %seed_g = arith.constant 2046103 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<4x5xf16>
  %b_u = memref.cast %b_m : memref<4x5xf16> to memref<*xf16>
  %seed_b = arith.constant 2046104 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x4x5xf16> to tensor<3x4x5xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<4x5xf16> to tensor<4x5xf16>
  %b = bufferization.to_tensor %b_m restrict : memref<4x5xf16> to tensor<4x5xf16>
  %y_init = tensor.empty() : tensor<3x4x5xf16>
  %y_res = norm.layer_norm ins(%x : tensor<3x4x5xf16>) weight(%g : tensor<4x5xf16>) bias(%b : tensor<4x5xf16>)
         outs(%y_init : tensor<3x4x5xf16>) {axis = 1 : i64, epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<3x4x5xf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x4x5xf16> to memref<3x4x5xf16>
  %y_buf_u = memref.cast %y_buf : memref<3x4x5xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 14 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f16(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_f32_u, %dummy_f32_u, %axis, %eps, %offset, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// bf16 RMSNorm with gamma.
func.func @bf16_rms() {
  %x_m = memref.alloc() : memref<4x17xbf16>
  %x_u = memref.cast %x_m : memref<4x17xbf16> to memref<*xbf16>
  %seed_x = arith.constant 383202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xbf16>
  %g_u = memref.cast %g_m : memref<17xbf16> to memref<*xbf16>
  %seed_g = arith.constant 383203 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xbf16> to tensor<4x17xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<17xbf16> to tensor<17xbf16>
  %y_init = tensor.empty() : tensor<4x17xbf16>
  %y_res = norm.rms_norm ins(%x : tensor<4x17xbf16>) weight(%g : tensor<17xbf16>)
         outs(%y_init : tensor<4x17xbf16>) {axis = 1 : i64}
         -> tensor<4x17xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xbf16> to memref<4x17xbf16>
  %y_buf_u = memref.cast %y_buf : memref<4x17xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Llama-style cast before the weight.
func.func @bf16_rms_cast_bw() {
  %x_m = memref.alloc() : memref<6x40xbf16>
  %x_u = memref.cast %x_m : memref<6x40xbf16> to memref<*xbf16>
  %seed_x = arith.constant 6374502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<40xbf16>
  %g_u = memref.cast %g_m : memref<40xbf16> to memref<*xbf16>
  %seed_g = arith.constant 6374503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x40xbf16> to tensor<6x40xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<40xbf16> to tensor<40xbf16>
  %y_init = tensor.empty() : tensor<6x40xbf16>
  %y_res = norm.rms_norm ins(%x : tensor<6x40xbf16>) weight(%g : tensor<40xbf16>)
         outs(%y_init : tensor<6x40xbf16>) {axis = 1 : i64, cast_mode = #norm.cast_mode<before_weight>}
         -> tensor<6x40xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x40xbf16> to memref<6x40xbf16>
  %y_buf_u = memref.cast %y_buf : memref<6x40xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 18 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// pRMSNorm p = 0.25 (k = 5), bf16.
func.func @bf16_rms_partial() {
  %x_m = memref.alloc() : memref<4x17xbf16>
  %x_u = memref.cast %x_m : memref<4x17xbf16> to memref<*xbf16>
  %seed_x = arith.constant 2199902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xbf16>
  %g_u = memref.cast %g_m : memref<17xbf16> to memref<*xbf16>
  %seed_g = arith.constant 2199903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xbf16> to tensor<4x17xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<17xbf16> to tensor<17xbf16>
  %y_init = tensor.empty() : tensor<4x17xbf16>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %rstd_res = norm.rms_norm ins(%x : tensor<4x17xbf16>) weight(%g : tensor<17xbf16>)
         outs(%y_init : tensor<4x17xbf16>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64, partial = 0.25 : f64}
         -> tensor<4x17xbf16>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xbf16> to memref<4x17xbf16>
  %y_buf_u = memref.cast %y_buf : memref<4x17xbf16> to memref<*xbf16>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 0.25 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// n = 1, bf16.
func.func @bf16_rms_n1() {
  %x_m = memref.alloc() : memref<5x1xbf16>
  %x_u = memref.cast %x_m : memref<5x1xbf16> to memref<*xbf16>
  %seed_x = arith.constant 4986902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<1xbf16>
  %g_u = memref.cast %g_m : memref<1xbf16> to memref<*xbf16>
  %seed_g = arith.constant 4986903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x1xbf16> to tensor<5x1xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<1xbf16> to tensor<1xbf16>
  %y_init = tensor.empty() : tensor<5x1xbf16>
  %y_res = norm.rms_norm ins(%x : tensor<5x1xbf16>) weight(%g : tensor<1xbf16>)
         outs(%y_init : tensor<5x1xbf16>) {axis = 1 : i64}
         -> tensor<5x1xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x1xbf16> to memref<5x1xbf16>
  %y_buf_u = memref.cast %y_buf : memref<5x1xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Residual, sum, Gemma offset, eps outside the sqrt.
func.func @bf16_rms_add_gemma() {
  %x_m = memref.alloc() : memref<4x100xbf16>
  %x_u = memref.cast %x_m : memref<4x100xbf16> to memref<*xbf16>
  %seed_x = arith.constant 1816502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<4x100xbf16>
  %r_u = memref.cast %r_m : memref<4x100xbf16> to memref<*xbf16>
  %seed_r = arith.constant 1816503 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<100xbf16>
  %g_u = memref.cast %g_m : memref<100xbf16> to memref<*xbf16>
  %seed_g = arith.constant 1816504 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x100xbf16> to tensor<4x100xbf16>
  %r = bufferization.to_tensor %r_m restrict : memref<4x100xbf16> to tensor<4x100xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<100xbf16> to tensor<100xbf16>
  %y_init = tensor.empty() : tensor<4x100xbf16>
  %s_init = tensor.empty() : tensor<4x100xbf16>
  %y_res, %s_res = norm.rms_norm ins(%x : tensor<4x100xbf16>) residual(%r : tensor<4x100xbf16>) weight(%g : tensor<100xbf16>)
         outs(%y_init : tensor<4x100xbf16>) sum_outs(%s_init : tensor<4x100xbf16>) {axis = 1 : i64, epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<4x100xbf16>, tensor<4x100xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x100xbf16> to memref<4x100xbf16>
  %y_buf_u = memref.cast %y_buf : memref<4x100xbf16> to memref<*xbf16>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x100xbf16> to memref<4x100xbf16>
  %s_buf_u = memref.cast %s_buf : memref<4x100xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 43 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// bf16 LayerNorm, all results.
func.func @bf16_ln() {
  %x_m = memref.alloc() : memref<4x17xbf16>
  %x_u = memref.cast %x_m : memref<4x17xbf16> to memref<*xbf16>
  %seed_x = arith.constant 2298302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<4x17xbf16>
  %r_u = memref.cast %r_m : memref<4x17xbf16> to memref<*xbf16>
  %seed_r = arith.constant 2298303 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<17xbf16>
  %g_u = memref.cast %g_m : memref<17xbf16> to memref<*xbf16>
  %seed_g = arith.constant 2298304 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<17xbf16>
  %b_u = memref.cast %b_m : memref<17xbf16> to memref<*xbf16>
  %seed_b = arith.constant 2298305 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x17xbf16> to tensor<4x17xbf16>
  %r = bufferization.to_tensor %r_m restrict : memref<4x17xbf16> to tensor<4x17xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<17xbf16> to tensor<17xbf16>
  %b = bufferization.to_tensor %b_m restrict : memref<17xbf16> to tensor<17xbf16>
  %y_init = tensor.empty() : tensor<4x17xbf16>
  %s_init = tensor.empty() : tensor<4x17xbf16>
  %mean_init = tensor.empty() : tensor<4xf32>
  %rstd_init = tensor.empty() : tensor<4xf32>
  %y_res, %s_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<4x17xbf16>) residual(%r : tensor<4x17xbf16>) weight(%g : tensor<17xbf16>) bias(%b : tensor<17xbf16>)
         outs(%y_init : tensor<4x17xbf16>) sum_outs(%s_init : tensor<4x17xbf16>) mean_outs(%mean_init : tensor<4xf32>) rstd_outs(%rstd_init : tensor<4xf32>) {axis = 1 : i64}
         -> tensor<4x17xbf16>, tensor<4x17xbf16>, tensor<4xf32>, tensor<4xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xbf16> to memref<4x17xbf16>
  %y_buf_u = memref.cast %y_buf : memref<4x17xbf16> to memref<*xbf16>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x17xbf16> to memref<4x17xbf16>
  %s_buf_u = memref.cast %s_buf : memref<4x17xbf16> to memref<*xbf16>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<4xf32> to memref<4xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<4xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<4xf32> to memref<4xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<4xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 231 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_bf16(%x_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// bf16 LayerNorm, cast before weight and bias.
func.func @bf16_ln_cast_bw() {
  %x_m = memref.alloc() : memref<3x64xbf16>
  %x_u = memref.cast %x_m : memref<3x64xbf16> to memref<*xbf16>
  %seed_x = arith.constant 1673602 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<64xbf16>
  %g_u = memref.cast %g_m : memref<64xbf16> to memref<*xbf16>
  %seed_g = arith.constant 1673603 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<64xbf16>
  %b_u = memref.cast %b_m : memref<64xbf16> to memref<*xbf16>
  %seed_b = arith.constant 1673604 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x64xbf16> to tensor<3x64xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<64xbf16> to tensor<64xbf16>
  %b = bufferization.to_tensor %b_m restrict : memref<64xbf16> to tensor<64xbf16>
  %y_init = tensor.empty() : tensor<3x64xbf16>
  %y_res = norm.layer_norm ins(%x : tensor<3x64xbf16>) weight(%g : tensor<64xbf16>) bias(%b : tensor<64xbf16>)
         outs(%y_init : tensor<3x64xbf16>) {axis = 1 : i64, cast_mode = #norm.cast_mode<before_weight>}
         -> tensor<3x64xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x64xbf16> to memref<3x64xbf16>
  %y_buf_u = memref.cast %y_buf : memref<3x64xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 22 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_bf16(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_f32_u, %dummy_f32_u, %axis, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Every row with |mean| >> std (mean 50, scale 1).
func.func @bf16_ln_big_mean() {
  %x_m = memref.alloc() : memref<8x48xbf16>
  %x_u = memref.cast %x_m : memref<8x48xbf16> to memref<*xbf16>
  %seed_x = arith.constant 2657802 : i64
  %mean_x = arith.constant 50.0 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<48xbf16>
  %g_u = memref.cast %g_m : memref<48xbf16> to memref<*xbf16>
  %seed_g = arith.constant 2657803 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<48xbf16>
  %b_u = memref.cast %b_m : memref<48xbf16> to memref<*xbf16>
  %seed_b = arith.constant 2657804 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<8x48xbf16> to tensor<8x48xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<48xbf16> to tensor<48xbf16>
  %b = bufferization.to_tensor %b_m restrict : memref<48xbf16> to tensor<48xbf16>
  %y_init = tensor.empty() : tensor<8x48xbf16>
  %mean_init = tensor.empty() : tensor<8xf32>
  %rstd_init = tensor.empty() : tensor<8xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<8x48xbf16>) weight(%g : tensor<48xbf16>) bias(%b : tensor<48xbf16>)
         outs(%y_init : tensor<8x48xbf16>) mean_outs(%mean_init : tensor<8xf32>) rstd_outs(%rstd_init : tensor<8xf32>) {axis = 1 : i64}
         -> tensor<8x48xbf16>, tensor<8xf32>, tensor<8xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<8x48xbf16> to memref<8x48xbf16>
  %y_buf_u = memref.cast %y_buf : memref<8x48xbf16> to memref<*xbf16>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<8xf32> to memref<8xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<8xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<8xf32> to memref<8xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<8xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_bf16(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %mean_buf_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}
