// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// The same cases with AVX2 vectors, two threads and streaming stores forced
// on (odd row lengths exercise the aligned-store head and the masked tail),
// and with 128-bit vectors, one accumulator, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={accumulators=1 parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests with dynamic shapes: the op sees tensor<?x?x...> operands
// (passed through a function boundary so nothing can fold them static).
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [4x17] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [5x33] axis=1 residual gamma sum rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [4x17] axis=1 gamma cast_bw partial=0.25: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f16 [5x33] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [3x4x5] axis=1 gamma beta rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [7x1] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [6x100] axis=1 residual gamma beta sum mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul f32 [5x33] w=[33x20] gamma mbias: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_layer_norm f32 [6x24] w=[20x24] residual gamma beta mbias trans_rhs sum: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @dyn_rms() : () -> ()
  func.call @dyn_rms_add_stats() : () -> ()
  func.call @dyn_rms_partial_bf16() : () -> ()
  func.call @dyn_ln_f16() : () -> ()
  func.call @dyn_ln_mixed() : () -> ()
  func.call @dyn_rms_n1() : () -> ()
  func.call @dyn_tensor_func() : () -> ()
  func.call @dyn_rms_matmul() : () -> ()
  func.call @dyn_matmul_ln() : () -> ()
  return
}

// rms_norm on tensor<?x?xf32> with gamma tensor<?xf32>.
func.func @dyn_rms() {
  %x_m = memref.alloc() : memref<4x17xf32>
  %x_u = memref.cast %x_m : memref<4x17xf32> to memref<*xf32>
  %seed_x = arith.constant 4609102 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xf32>
  %g_u = memref.cast %g_m : memref<17xf32> to memref<*xf32>
  %seed_g = arith.constant 4609103 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<4x17xf32> to memref<?x?xf32>
  %g_dm = memref.cast %g_m : memref<17xf32> to memref<?xf32>
  func.call @dyn_rms_dyn(%x_dm, %g_dm) : (memref<?x?xf32>, memref<?xf32>) -> ()
  return
}

// The shapes of dyn_rms are only known at run time.
func.func @dyn_rms_dyn(%x_m: memref<?x?xf32>, %g_m: memref<?xf32>) {
  %x_u = memref.cast %x_m : memref<?x?xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<?xf32> to memref<*xf32>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<?xf32> to tensor<?xf32>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf32>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xf32>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %y_res = norm.rms_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
         outs(%y_init : tensor<?x?xf32>) {axis = 1 : i64}
         -> tensor<?x?xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xf32> to memref<?x?xf32>
  %y_buf_u = memref.cast %y_buf : memref<?x?xf32> to memref<*xf32>
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

// Dynamic residual, sum and rstd.
func.func @dyn_rms_add_stats() {
  %x_m = memref.alloc() : memref<5x33xf32>
  %x_u = memref.cast %x_m : memref<5x33xf32> to memref<*xf32>
  %seed_x = arith.constant 1090902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<5x33xf32>
  %r_u = memref.cast %r_m : memref<5x33xf32> to memref<*xf32>
  %seed_r = arith.constant 1090903 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 1090904 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<5x33xf32> to memref<?x?xf32>
  %r_dm = memref.cast %r_m : memref<5x33xf32> to memref<?x?xf32>
  %g_dm = memref.cast %g_m : memref<33xf32> to memref<?xf32>
  func.call @dyn_rms_add_stats_dyn(%x_dm, %r_dm, %g_dm) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  return
}

// The shapes of dyn_rms_add_stats are only known at run time.
func.func @dyn_rms_add_stats_dyn(%x_m: memref<?x?xf32>, %r_m: memref<?x?xf32>, %g_m: memref<?xf32>) {
  %x_u = memref.cast %x_m : memref<?x?xf32> to memref<*xf32>
  %r_u = memref.cast %r_m : memref<?x?xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<?xf32> to memref<*xf32>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<?xf32> to tensor<?xf32>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf32>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xf32>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %s_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %rstd_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %y_res, %s_res, %rstd_res = norm.rms_norm ins(%x : tensor<?x?xf32>) residual(%r : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
         outs(%y_init : tensor<?x?xf32>) sum_outs(%s_init : tensor<?x?xf32>) rstd_outs(%rstd_init : tensor<?xf32>) {axis = 1 : i64}
         -> tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xf32> to memref<?x?xf32>
  %y_buf_u = memref.cast %y_buf : memref<?x?xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<?x?xf32> to memref<?x?xf32>
  %s_buf_u = memref.cast %s_buf : memref<?x?xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<?xf32> to memref<?xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<?xf32> to memref<*xf32>
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

// Dynamic bf16 pRMSNorm (k = 5), cast before weight.
func.func @dyn_rms_partial_bf16() {
  %x_m = memref.alloc() : memref<4x17xbf16>
  %x_u = memref.cast %x_m : memref<4x17xbf16> to memref<*xbf16>
  %seed_x = arith.constant 59502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<17xbf16>
  %g_u = memref.cast %g_m : memref<17xbf16> to memref<*xbf16>
  %seed_g = arith.constant 59503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<4x17xbf16> to memref<?x?xbf16>
  %g_dm = memref.cast %g_m : memref<17xbf16> to memref<?xbf16>
  func.call @dyn_rms_partial_bf16_dyn(%x_dm, %g_dm) : (memref<?x?xbf16>, memref<?xbf16>) -> ()
  return
}

// The shapes of dyn_rms_partial_bf16 are only known at run time.
func.func @dyn_rms_partial_bf16_dyn(%x_m: memref<?x?xbf16>, %g_m: memref<?xbf16>) {
  %x_u = memref.cast %x_m : memref<?x?xbf16> to memref<*xbf16>
  %g_u = memref.cast %g_m : memref<?xbf16> to memref<*xbf16>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xbf16> to tensor<?x?xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<?xbf16> to tensor<?xbf16>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xbf16>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xbf16>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xbf16>
  %y_res = norm.rms_norm ins(%x : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>)
         outs(%y_init : tensor<?x?xbf16>) {axis = 1 : i64, partial = 0.25 : f64, cast_mode = #norm.cast_mode<before_weight>}
         -> tensor<?x?xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xbf16> to memref<?x?xbf16>
  %y_buf_u = memref.cast %y_buf : memref<?x?xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 18 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 0.25 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_buf_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// Dynamic f16 LayerNorm with mean and rstd (tensor<?xf32>).
func.func @dyn_ln_f16() {
  %x_m = memref.alloc() : memref<5x33xf16>
  %x_u = memref.cast %x_m : memref<5x33xf16> to memref<*xf16>
  %seed_x = arith.constant 4464502 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xf16>
  %g_u = memref.cast %g_m : memref<33xf16> to memref<*xf16>
  %seed_g = arith.constant 4464503 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<33xf16>
  %b_u = memref.cast %b_m : memref<33xf16> to memref<*xf16>
  %seed_b = arith.constant 4464504 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf16>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<5x33xf16> to memref<?x?xf16>
  %g_dm = memref.cast %g_m : memref<33xf16> to memref<?xf16>
  %b_dm = memref.cast %b_m : memref<33xf16> to memref<?xf16>
  func.call @dyn_ln_f16_dyn(%x_dm, %g_dm, %b_dm) : (memref<?x?xf16>, memref<?xf16>, memref<?xf16>) -> ()
  return
}

// The shapes of dyn_ln_f16 are only known at run time.
func.func @dyn_ln_f16_dyn(%x_m: memref<?x?xf16>, %g_m: memref<?xf16>, %b_m: memref<?xf16>) {
  %x_u = memref.cast %x_m : memref<?x?xf16> to memref<*xf16>
  %g_u = memref.cast %g_m : memref<?xf16> to memref<*xf16>
  %b_u = memref.cast %b_m : memref<?xf16> to memref<*xf16>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xf16> to tensor<?x?xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<?xf16> to tensor<?xf16>
  %b = bufferization.to_tensor %b_m restrict : memref<?xf16> to tensor<?xf16>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf16>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xf16>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf16>
  %mean_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %rstd_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %y_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<?x?xf16>) weight(%g : tensor<?xf16>) bias(%b : tensor<?xf16>)
         outs(%y_init : tensor<?x?xf16>) mean_outs(%mean_init : tensor<?xf32>) rstd_outs(%rstd_init : tensor<?xf32>) {axis = 1 : i64}
         -> tensor<?x?xf16>, tensor<?xf32>, tensor<?xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xf16> to memref<?x?xf16>
  %y_buf_u = memref.cast %y_buf : memref<?x?xf16> to memref<*xf16>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<?xf32> to memref<?xf32>
  %mean_buf_u = memref.cast %mean_buf : memref<?xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<?xf32> to memref<?xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<?xf32> to memref<*xf32>
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

// tensor<?x4x?xf32>, axis = 1: gamma tensor<4x?xf32>.
func.func @dyn_ln_mixed() {
  %x_m = memref.alloc() : memref<3x4x5xf32>
  %x_u = memref.cast %x_m : memref<3x4x5xf32> to memref<*xf32>
  %seed_x = arith.constant 3055402 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<4x5xf32>
  %g_u = memref.cast %g_m : memref<4x5xf32> to memref<*xf32>
  %seed_g = arith.constant 3055403 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<4x5xf32>
  %b_u = memref.cast %b_m : memref<4x5xf32> to memref<*xf32>
  %seed_b = arith.constant 3055404 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<3x4x5xf32> to memref<?x4x?xf32>
  %g_dm = memref.cast %g_m : memref<4x5xf32> to memref<4x?xf32>
  %b_dm = memref.cast %b_m : memref<4x5xf32> to memref<4x?xf32>
  func.call @dyn_ln_mixed_dyn(%x_dm, %g_dm, %b_dm) : (memref<?x4x?xf32>, memref<4x?xf32>, memref<4x?xf32>) -> ()
  return
}

// The shapes of dyn_ln_mixed are only known at run time.
func.func @dyn_ln_mixed_dyn(%x_m: memref<?x4x?xf32>, %g_m: memref<4x?xf32>, %b_m: memref<4x?xf32>) {
  %x_u = memref.cast %x_m : memref<?x4x?xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<4x?xf32> to memref<*xf32>
  %b_u = memref.cast %b_m : memref<4x?xf32> to memref<*xf32>
  %x = bufferization.to_tensor %x_m restrict : memref<?x4x?xf32> to tensor<?x4x?xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<4x?xf32> to tensor<4x?xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<4x?xf32> to tensor<4x?xf32>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x4x?xf32>
  %i2_x = arith.constant 2 : index
  %dim2_x = tensor.dim %x, %i2_x : tensor<?x4x?xf32>
  %y_init = tensor.empty(%dim0_x, %dim2_x) : tensor<?x4x?xf32>
  %rstd_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %y_res, %rstd_res = norm.layer_norm ins(%x : tensor<?x4x?xf32>) weight(%g : tensor<4x?xf32>) bias(%b : tensor<4x?xf32>)
         outs(%y_init : tensor<?x4x?xf32>) rstd_outs(%rstd_init : tensor<?xf32>) {axis = 1 : i64}
         -> tensor<?x4x?xf32>, tensor<?xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x4x?xf32> to memref<?x4x?xf32>
  %y_buf_u = memref.cast %y_buf : memref<?x4x?xf32> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<?xf32> to memref<?xf32>
  %rstd_buf_u = memref.cast %rstd_buf : memref<?xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 134 : i64
  %axis = arith.constant 1 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %dummy_u, %g_u, %b_u, %y_buf_u, %dummy_u, %dummy_u, %rstd_buf_u, %axis, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Dynamic n = 1.
func.func @dyn_rms_n1() {
  %x_m = memref.alloc() : memref<7x1xf32>
  %x_u = memref.cast %x_m : memref<7x1xf32> to memref<*xf32>
  %seed_x = arith.constant 4454302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<1xf32>
  %g_u = memref.cast %g_m : memref<1xf32> to memref<*xf32>
  %seed_g = arith.constant 4454303 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<7x1xf32> to memref<?x?xf32>
  %g_dm = memref.cast %g_m : memref<1xf32> to memref<?xf32>
  func.call @dyn_rms_n1_dyn(%x_dm, %g_dm) : (memref<?x?xf32>, memref<?xf32>) -> ()
  return
}

// The shapes of dyn_rms_n1 are only known at run time.
func.func @dyn_rms_n1_dyn(%x_m: memref<?x?xf32>, %g_m: memref<?xf32>) {
  %x_u = memref.cast %x_m : memref<?x?xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<?xf32> to memref<*xf32>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<?xf32> to tensor<?xf32>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf32>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xf32>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %y_res = norm.rms_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
         outs(%y_init : tensor<?x?xf32>) {axis = 1 : i64}
         -> tensor<?x?xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xf32> to memref<?x?xf32>
  %y_buf_u = memref.cast %y_buf : memref<?x?xf32> to memref<*xf32>
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

// Tensors cross the function boundary (tensor.cast + call).
func.func @dyn_tensor_func() {
  %x_m = memref.alloc() : memref<6x100xf32>
  %x_u = memref.cast %x_m : memref<6x100xf32> to memref<*xf32>
  %seed_x = arith.constant 5798602 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r_m = memref.alloc() : memref<6x100xf32>
  %r_u = memref.cast %r_m : memref<6x100xf32> to memref<*xf32>
  %seed_r = arith.constant 5798603 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<100xf32>
  %g_u = memref.cast %g_m : memref<100xf32> to memref<*xf32>
  %seed_g = arith.constant 5798604 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<100xf32>
  %b_u = memref.cast %b_m : memref<100xf32> to memref<*xf32>
  %seed_b = arith.constant 5798605 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x100xf32> to tensor<6x100xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<6x100xf32> to tensor<6x100xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<100xf32> to tensor<100xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<100xf32> to tensor<100xf32>
  %x_dt = tensor.cast %x : tensor<6x100xf32> to tensor<?x?xf32>
  %r_dt = tensor.cast %r : tensor<6x100xf32> to tensor<?x?xf32>
  %g_dt = tensor.cast %g : tensor<100xf32> to tensor<?xf32>
  %b_dt = tensor.cast %b : tensor<100xf32> to tensor<?xf32>
  %y_res, %s_res, %mean_res, %rstd_res = func.call @dyn_tensor_func_dyn(%x_dt, %r_dt, %g_dt, %b_dt) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>)
  %y_buf = bufferization.to_buffer %y_res : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %y_buf_u = memref.cast %y_buf : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %s_buf_u = memref.cast %s_buf : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
  %mean_buf = bufferization.to_buffer %mean_res : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %mean_buf_u = memref.cast %mean_buf : memref<?xf32, strided<[?], offset: ?>> to memref<*xf32>
  %rstd_buf = bufferization.to_buffer %rstd_res : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %rstd_buf_u = memref.cast %rstd_buf : memref<?xf32, strided<[?], offset: ?>> to memref<*xf32>
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

// Takes and returns tensors whose shapes are only known at run time.
func.func @dyn_tensor_func_dyn(%x: tensor<?x?xf32>, %r: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf32>
  %i1_x = arith.constant 1 : index
  %dim1_x = tensor.dim %x, %i1_x : tensor<?x?xf32>
  %y_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %s_init = tensor.empty(%dim0_x, %dim1_x) : tensor<?x?xf32>
  %mean_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %rstd_init = tensor.empty(%dim0_x) : tensor<?xf32>
  %y_res, %s_res, %mean_res, %rstd_res = norm.layer_norm ins(%x : tensor<?x?xf32>) residual(%r : tensor<?x?xf32>) weight(%g : tensor<?xf32>) bias(%b : tensor<?xf32>)
         outs(%y_init : tensor<?x?xf32>) sum_outs(%s_init : tensor<?x?xf32>) mean_outs(%mean_init : tensor<?xf32>) rstd_outs(%rstd_init : tensor<?xf32>) {axis = 1 : i64}
         -> tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y_res, %s_res, %mean_res, %rstd_res : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Fused norm -> matmul with dynamic M, K and N.
func.func @dyn_rms_matmul() {
  %x_m = memref.alloc() : memref<5x33xf32>
  %x_u = memref.cast %x_m : memref<5x33xf32> to memref<*xf32>
  %seed_x = arith.constant 1026302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 1026303 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<33x20xf32>
  %w_u = memref.cast %w_m : memref<33x20xf32> to memref<*xf32>
  %seed_w = arith.constant 1026304 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 1026305 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %x_dm = memref.cast %x_m : memref<5x33xf32> to memref<?x?xf32>
  %g_dm = memref.cast %g_m : memref<33xf32> to memref<?xf32>
  %w_dm = memref.cast %w_m : memref<33x20xf32> to memref<?x?xf32>
  %mb_dm = memref.cast %mb_m : memref<20xf32> to memref<?xf32>
  func.call @dyn_rms_matmul_dyn(%x_dm, %g_dm, %w_dm, %mb_dm) : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  return
}

// The shapes of dyn_rms_matmul are only known at run time.
func.func @dyn_rms_matmul_dyn(%x_m: memref<?x?xf32>, %g_m: memref<?xf32>, %w_m: memref<?x?xf32>, %mb_m: memref<?xf32>) {
  %x_u = memref.cast %x_m : memref<?x?xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<?xf32> to memref<*xf32>
  %w_u = memref.cast %w_m : memref<?x?xf32> to memref<*xf32>
  %mb_u = memref.cast %mb_m : memref<?xf32> to memref<*xf32>
  %x = bufferization.to_tensor %x_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<?xf32> to tensor<?xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<?xf32> to tensor<?xf32>
  %i0_x = arith.constant 0 : index
  %dim0_x = tensor.dim %x, %i0_x : tensor<?x?xf32>
  %i1_w = arith.constant 1 : index
  %dim1_w = tensor.dim %w, %i1_w : tensor<?x?xf32>
  %c_init = tensor.empty(%dim0_x, %dim1_w) : tensor<?x?xf32>
  %c_res = norm.rms_norm_matmul ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>) rhs(%w : tensor<?x?xf32>) matmul_bias(%mb : tensor<?xf32>)
         outs(%c_init : tensor<?x?xf32>)
         -> tensor<?x?xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<?x?xf32> to memref<?x?xf32>
  %c_buf_u = memref.cast %c_buf : memref<?x?xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %mb_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Fused matmul -> LayerNorm, dynamic M and K, static N.
func.func @dyn_matmul_ln() {
  %a_m = memref.alloc() : memref<6x24xf32>
  %a_u = memref.cast %a_m : memref<6x24xf32> to memref<*xf32>
  %seed_a = arith.constant 966702 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<20x24xf32>
  %w_u = memref.cast %w_m : memref<20x24xf32> to memref<*xf32>
  %seed_w = arith.constant 966703 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 966704 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<6x20xf32>
  %r_u = memref.cast %r_m : memref<6x20xf32> to memref<*xf32>
  %seed_r = arith.constant 966705 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<20xf32>
  %g_u = memref.cast %g_m : memref<20xf32> to memref<*xf32>
  %seed_g = arith.constant 966706 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<20xf32>
  %b_u = memref.cast %b_m : memref<20xf32> to memref<*xf32>
  %seed_b = arith.constant 966707 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %a_dm = memref.cast %a_m : memref<6x24xf32> to memref<?x?xf32>
  %w_dm = memref.cast %w_m : memref<20x24xf32> to memref<20x?xf32>
  %mb_dm = memref.cast %mb_m : memref<20xf32> to memref<20xf32>
  %r_dm = memref.cast %r_m : memref<6x20xf32> to memref<?x20xf32>
  %g_dm = memref.cast %g_m : memref<20xf32> to memref<20xf32>
  %b_dm = memref.cast %b_m : memref<20xf32> to memref<20xf32>
  func.call @dyn_matmul_ln_dyn(%a_dm, %w_dm, %mb_dm, %r_dm, %g_dm, %b_dm) : (memref<?x?xf32>, memref<20x?xf32>, memref<20xf32>, memref<?x20xf32>, memref<20xf32>, memref<20xf32>) -> ()
  return
}

// The shapes of dyn_matmul_ln are only known at run time.
func.func @dyn_matmul_ln_dyn(%a_m: memref<?x?xf32>, %w_m: memref<20x?xf32>, %mb_m: memref<20xf32>, %r_m: memref<?x20xf32>, %g_m: memref<20xf32>, %b_m: memref<20xf32>) {
  %a_u = memref.cast %a_m : memref<?x?xf32> to memref<*xf32>
  %w_u = memref.cast %w_m : memref<20x?xf32> to memref<*xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %r_u = memref.cast %r_m : memref<?x20xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<20xf32> to memref<*xf32>
  %b_u = memref.cast %b_m : memref<20xf32> to memref<*xf32>
  %a = bufferization.to_tensor %a_m restrict : memref<?x?xf32> to tensor<?x?xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<20x?xf32> to tensor<20x?xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xf32> to tensor<20xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<?x20xf32> to tensor<?x20xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<20xf32> to tensor<20xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<20xf32> to tensor<20xf32>
  %i0_a = arith.constant 0 : index
  %dim0_a = tensor.dim %a, %i0_a : tensor<?x?xf32>
  %y_init = tensor.empty(%dim0_a) : tensor<?x20xf32>
  %s_init = tensor.empty(%dim0_a) : tensor<?x20xf32>
  %y_res, %s_res = norm.matmul_layer_norm ins(%a : tensor<?x?xf32>) rhs(%w : tensor<20x?xf32>) matmul_bias(%mb : tensor<20xf32>) residual(%r : tensor<?x20xf32>) weight(%g : tensor<20xf32>) bias(%b : tensor<20xf32>)
         outs(%y_init : tensor<?x20xf32>) sum_outs(%s_init : tensor<?x20xf32>) {transpose_rhs}
         -> tensor<?x20xf32>, tensor<?x20xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<?x20xf32> to memref<?x20xf32>
  %y_buf_u = memref.cast %y_buf : memref<?x20xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<?x20xf32> to memref<?x20xf32>
  %s_buf_u = memref.cast %s_buf : memref<?x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 807 : i64
  func.call @norm_test_check_matmul_layer_norm_f32(%a_u, %w_u, %mb_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}
