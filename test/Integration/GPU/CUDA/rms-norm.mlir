// GPU execution of norm.rms_norm through --norm-lower-to-nvvm (fatbin for
// sm_90, PTX JIT-compiled for sm_80, and with the row always re-read and
// shorter rows on a whole block), each result compared with the float64
// reference of test/lib/Runtime on seeded random inputs (rows with
// |mean| >> std included). Buffers are managed memory (gpu.alloc
// host_shared), written and checked on the host, and freed (synchronous
// gpu.dealloc, which the pipeline's norm-gpu-async-allocs puts in the async
// form gpu-to-llvm lowers).
// Cases: a warp per row held in registers; a masked last chunk and a partial
// last block; an odd row length (scalar kernel); bf16 on four warps with
// Gemma's offset; residual + pRMSNorm + Llama's cast order; a dynamic f16
// shape; a block per row.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=0 block-row-threshold=2048}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [64x1024]{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [33x1000]{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [5x1001]{{.*}} PASS
// CHECK: {{^}}rms_norm bf16 [16x4096]{{.*}} PASS
// CHECK: {{^}}rms_norm bf16 [16x100]{{.*}} PASS
// CHECK: {{^}}rms_norm f16 [7x384]{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [3x65536]{{.*}} PASS
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
  func.call @rms_norm_f32_1() : () -> ()
  func.call @rms_norm_f32_2() : () -> ()
  func.call @rms_norm_f32_3() : () -> ()
  func.call @rms_norm_bf16_4() : () -> ()
  func.call @rms_norm_bf16_5() : () -> ()
  func.call @rms_norm_f16_6() : () -> ()
  func.call @rms_norm_f32_7() : () -> ()
  return
}

func.func @rms_norm_f32_1() {
  %x = gpu.alloc host_shared () : memref<64x1024xf32>
  %x_u = memref.cast %x : memref<64x1024xf32> to memref<*xf32>
  %x_seed = arith.constant 4246 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1024xf32>
  %g_u = memref.cast %g : memref<1024xf32> to memref<*xf32>
  %g_seed = arith.constant 4248 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<64x1024xf32>
  %y_u = memref.cast %y : memref<64x1024xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<64x1024xf32>) weight(%g : memref<1024xf32>) outs(%y : memref<64x1024xf32>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %d_u, %g_u, %y_u, %d_u, %df_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<64x1024xf32>
  gpu.dealloc %g : memref<1024xf32>
  gpu.dealloc %y : memref<64x1024xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_f32_2() {
  %x = gpu.alloc host_shared () : memref<33x1000xf32>
  %x_u = memref.cast %x : memref<33x1000xf32> to memref<*xf32>
  %x_seed = arith.constant 3261 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1000xf32>
  %g_u = memref.cast %g : memref<1000xf32> to memref<*xf32>
  %g_seed = arith.constant 3263 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x1000xf32>
  %y_u = memref.cast %y : memref<33x1000xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<33xf32>
  %rs_u = memref.cast %rs : memref<33xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<33x1000xf32>) weight(%g : memref<1000xf32>) outs(%y : memref<33x1000xf32>) rstd_outs(%rs : memref<33xf32>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %d_u, %g_u, %y_u, %d_u, %rs_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x1000xf32>
  gpu.dealloc %g : memref<1000xf32>
  gpu.dealloc %y : memref<33x1000xf32>
  gpu.dealloc %rs : memref<33xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_f32_3() {
  %x = gpu.alloc host_shared () : memref<5x1001xf32>
  %x_u = memref.cast %x : memref<5x1001xf32> to memref<*xf32>
  %x_seed = arith.constant 2394 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %y = gpu.alloc host_shared () : memref<5x1001xf32>
  %y_u = memref.cast %y : memref<5x1001xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<5x1001xf32>) outs(%y : memref<5x1001xf32>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 8 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %d_u, %d_u, %y_u, %d_u, %df_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x1001xf32>
  gpu.dealloc %y : memref<5x1001xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_bf16_4() {
  %x = gpu.alloc host_shared () : memref<16x4096xbf16>
  %x_u = memref.cast %x : memref<16x4096xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5847 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<4096xbf16>
  %g_u = memref.cast %g : memref<4096xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5849 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x4096xbf16>
  %y_u = memref.cast %y : memref<16x4096xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) outs(%y : memref<16x4096xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %d_u, %g_u, %y_u, %d_u, %df_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x4096xbf16>
  gpu.dealloc %g : memref<4096xbf16>
  gpu.dealloc %y : memref<16x4096xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_bf16_5() {
  %x = gpu.alloc host_shared () : memref<16x100xbf16>
  %x_u = memref.cast %x : memref<16x100xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1851 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<16x100xbf16>
  %r_u = memref.cast %r : memref<16x100xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1852 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x100xbf16>
  %y_u = memref.cast %y : memref<16x100xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<16x100xbf16>
  %s_u = memref.cast %s : memref<16x100xbf16> to memref<*xbf16>
  %rs = gpu.alloc host_shared () : memref<16xf32>
  %rs_u = memref.cast %rs : memref<16xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<16x100xbf16>) residual(%r : memref<16x100xbf16>) outs(%y : memref<16x100xbf16>) sum_outs(%s : memref<16x100xbf16>) rstd_outs(%rs : memref<16xf32>) {epsilon = 1.0e-06 : f64, partial = 0.5 : f32, cast_mode = #norm.cast_mode<before_weight>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 177 : i64
  %partial = arith.constant 0.5 : f64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %r_u, %d_u, %y_u, %s_u, %rs_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x100xbf16>
  gpu.dealloc %r : memref<16x100xbf16>
  gpu.dealloc %y : memref<16x100xbf16>
  gpu.dealloc %s : memref<16x100xbf16>
  gpu.dealloc %rs : memref<16xf32>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_f16_6() {
  %x = gpu.alloc host_shared () : memref<7x384xf16>
  %x_u = memref.cast %x : memref<7x384xf16> to memref<*xf16>
  %x_seed = arith.constant 1839 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<384xf16>
  %g_u = memref.cast %g : memref<384xf16> to memref<*xf16>
  %g_seed = arith.constant 1841 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<7x384xf16>
  %y_u = memref.cast %y : memref<7x384xf16> to memref<*xf16>
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %x_dyn = memref.cast %x : memref<7x384xf16> to memref<?x?xf16>
  %y_dyn = memref.cast %y : memref<7x384xf16> to memref<?x?xf16>
  norm.rms_norm ins(%x_dyn : memref<?x?xf16>) weight(%g : memref<384xf16>) outs(%y_dyn : memref<?x?xf16>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f16(%x_u, %d_u, %g_u, %y_u, %d_u, %df_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x384xf16>
  gpu.dealloc %g : memref<384xf16>
  gpu.dealloc %y : memref<7x384xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @rms_norm_f32_7() {
  %x = gpu.alloc host_shared () : memref<3x65536xf32>
  %x_u = memref.cast %x : memref<3x65536xf32> to memref<*xf32>
  %x_seed = arith.constant 66867 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<65536xf32>
  %g_u = memref.cast %g : memref<65536xf32> to memref<*xf32>
  %g_seed = arith.constant 66869 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x65536xf32>
  %y_u = memref.cast %y : memref<3x65536xf32> to memref<*xf32>
  %rs = gpu.alloc host_shared () : memref<3xf32>
  %rs_u = memref.cast %rs : memref<3xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<3x65536xf32>) weight(%g : memref<65536xf32>) outs(%y : memref<3x65536xf32>) rstd_outs(%rs : memref<3xf32>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 130 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %d_u, %g_u, %y_u, %d_u, %rs_u, %axis, %eps, %offset, %partial, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x65536xf32>
  gpu.dealloc %g : memref<65536xf32>
  gpu.dealloc %y : memref<3x65536xf32>
  gpu.dealloc %rs : memref<3xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %df : memref<1xf32>
  return
}
