// GPU execution of norm.layer_norm through --norm-lower-to-nvvm, checked
// against the float64 reference as in rms-norm.mlir (buffers freed the same
// way). Cases: every output
// with a residual and a masked last chunk; a block per row; a dynamic f16
// shape with ε outside the root; bf16 on eight warps; an odd row length
// with Llama's cast order.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=0 block-row-threshold=2048}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}layer_norm f32 [33x1000]{{.*}} PASS
// CHECK: {{^}}layer_norm f32 [4x65536]{{.*}} PASS
// CHECK: {{^}}layer_norm f16 [7x384]{{.*}} PASS
// CHECK: {{^}}layer_norm bf16 [8x8192]{{.*}} PASS
// CHECK: {{^}}layer_norm f32 [9x77]{{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @layer_norm_f32_8() : () -> ()
  func.call @layer_norm_f32_9() : () -> ()
  func.call @layer_norm_f16_10() : () -> ()
  func.call @layer_norm_bf16_11() : () -> ()
  func.call @layer_norm_f32_12() : () -> ()
  return
}

func.func @layer_norm_f32_8() {
  %x = gpu.alloc host_shared () : memref<33x1000xf32>
  %x_u = memref.cast %x : memref<33x1000xf32> to memref<*xf32>
  %x_seed = arith.constant 3295 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<33x1000xf32>
  %r_u = memref.cast %r : memref<33x1000xf32> to memref<*xf32>
  %r_seed = arith.constant 3296 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<1000xf32>
  %g_u = memref.cast %g : memref<1000xf32> to memref<*xf32>
  %g_seed = arith.constant 3297 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1000xf32>
  %b_u = memref.cast %b : memref<1000xf32> to memref<*xf32>
  %b_seed = arith.constant 3298 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x1000xf32>
  %y_u = memref.cast %y : memref<33x1000xf32> to memref<*xf32>
  %s = gpu.alloc host_shared () : memref<33x1000xf32>
  %s_u = memref.cast %s : memref<33x1000xf32> to memref<*xf32>
  %m = gpu.alloc host_shared () : memref<33xf32>
  %m_u = memref.cast %m : memref<33xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<33xf32>
  %rs_u = memref.cast %rs : memref<33xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<33x1000xf32>) residual(%r : memref<33x1000xf32>) weight(%g : memref<1000xf32>) bias(%b : memref<1000xf32>) outs(%y : memref<33x1000xf32>) sum_outs(%s : memref<33x1000xf32>) mean_outs(%m : memref<33xf32>) rstd_outs(%rs : memref<33xf32>) {epsilon = 1.0e-05 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 231 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %r_u, %g_u, %b_u, %y_u, %s_u, %m_u, %rs_u, %axis, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x1000xf32>
  gpu.dealloc %r : memref<33x1000xf32>
  gpu.dealloc %g : memref<1000xf32>
  gpu.dealloc %b : memref<1000xf32>
  gpu.dealloc %y : memref<33x1000xf32>
  gpu.dealloc %s : memref<33x1000xf32>
  gpu.dealloc %m : memref<33xf32>
  gpu.dealloc %rs : memref<33xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @layer_norm_f32_9() {
  %x = gpu.alloc host_shared () : memref<4x65536xf32>
  %x_u = memref.cast %x : memref<4x65536xf32> to memref<*xf32>
  %x_seed = arith.constant 66932 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<65536xf32>
  %g_u = memref.cast %g : memref<65536xf32> to memref<*xf32>
  %g_seed = arith.constant 66934 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<65536xf32>
  %b_u = memref.cast %b : memref<65536xf32> to memref<*xf32>
  %b_seed = arith.constant 66935 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<4x65536xf32>
  %y_u = memref.cast %y : memref<4x65536xf32> to memref<*xf32>
  %m = gpu.alloc host_shared () : memref<4xf32>
  %m_u = memref.cast %m : memref<4xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<4xf32>
  %rs_u = memref.cast %rs : memref<4xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<4x65536xf32>) weight(%g : memref<65536xf32>) bias(%b : memref<65536xf32>) outs(%y : memref<4x65536xf32>) mean_outs(%m : memref<4xf32>) rstd_outs(%rs : memref<4xf32>) {epsilon = 1.0e-05 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %d_u, %g_u, %b_u, %y_u, %d_u, %m_u, %rs_u, %axis, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<4x65536xf32>
  gpu.dealloc %g : memref<65536xf32>
  gpu.dealloc %b : memref<65536xf32>
  gpu.dealloc %y : memref<4x65536xf32>
  gpu.dealloc %m : memref<4xf32>
  gpu.dealloc %rs : memref<4xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @layer_norm_f16_10() {
  %x = gpu.alloc host_shared () : memref<7x384xf16>
  %x_u = memref.cast %x : memref<7x384xf16> to memref<*xf16>
  %x_seed = arith.constant 1890 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %y = gpu.alloc host_shared () : memref<7x384xf16>
  %y_u = memref.cast %y : memref<7x384xf16> to memref<*xf16>
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %x_dyn = memref.cast %x : memref<7x384xf16> to memref<?x?xf16>
  %y_dyn = memref.cast %y : memref<7x384xf16> to memref<?x?xf16>
  norm.layer_norm ins(%x_dyn : memref<?x?xf16>) outs(%y_dyn : memref<?x?xf16>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 8 : i64
  func.call @norm_test_check_layer_norm_f16(%x_u, %d_u, %d_u, %d_u, %y_u, %d_u, %df_u, %df_u, %axis, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x384xf16>
  gpu.dealloc %y : memref<7x384xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @layer_norm_bf16_11() {
  %x = gpu.alloc host_shared () : memref<8x8192xbf16>
  %x_u = memref.cast %x : memref<8x8192xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9746 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<8192xbf16>
  %g_u = memref.cast %g : memref<8192xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9748 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<8192xbf16>
  %b_u = memref.cast %b : memref<8192xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9749 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<8x8192xbf16>
  %y_u = memref.cast %y : memref<8x8192xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<8x8192xbf16>) weight(%g : memref<8192xbf16>) bias(%b : memref<8192xbf16>) outs(%y : memref<8x8192xbf16>) {epsilon = 1.0e-05 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  func.call @norm_test_check_layer_norm_bf16(%x_u, %d_u, %g_u, %b_u, %y_u, %d_u, %df_u, %df_u, %axis, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<8x8192xbf16>
  gpu.dealloc %g : memref<8192xbf16>
  gpu.dealloc %b : memref<8192xbf16>
  gpu.dealloc %y : memref<8x8192xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @layer_norm_f32_12() {
  %x = gpu.alloc host_shared () : memref<9x77xf32>
  %x_u = memref.cast %x : memref<9x77xf32> to memref<*xf32>
  %x_seed = arith.constant 1645 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<77xf32>
  %g_u = memref.cast %g : memref<77xf32> to memref<*xf32>
  %g_seed = arith.constant 1647 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<9x77xf32>
  %y_u = memref.cast %y : memref<9x77xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<9x77xf32>) weight(%g : memref<77xf32>) outs(%y : memref<9x77xf32>) {epsilon = 1.0e-05 : f64, cast_mode = #norm.cast_mode<before_weight>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 18 : i64
  func.call @norm_test_check_layer_norm_f32(%x_u, %d_u, %g_u, %d_u, %y_u, %d_u, %df_u, %df_u, %axis, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<9x77xf32>
  gpu.dealloc %g : memref<77xf32>
  gpu.dealloc %y : memref<9x77xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}
