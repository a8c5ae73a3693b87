// GPU execution of norm.rms_norm_grad / norm.layer_norm_grad through
// --norm-lower-to-nvvm (the rows launch and the column-sums launch of
// GPUGradKernel.cpp), each result compared with the float64 reference
// (referenceNormGrad, through test/lib/Runtime's norm_test_check_norm_grad)
// on seeded random inputs. Buffers are managed memory (gpu.alloc
// host_shared), written and checked on the host. The statistics are
// recomputed, or given as the forward op on the GPU saved them.
// Cases: RMSNorm f32 recomputed with γ; RMSNorm f32 after its forward op
// (saved rstd); LayerNorm f32 with ds, more rows than chunks (several rows a
// block); LayerNorm bf16 after its forward op (saved mean and rstd) with
// Gemma's offset; RMSNorm f16 dx only with ε outside the sqrt.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_grad f32 [64x1000] axis=1 gamma: {{.*}} PASS
// CHECK: {{^}}rms_norm_grad f32 [33x4096] axis=1 gamma rstd: {{.*}} PASS
// CHECK: {{^}}layer_norm_grad f32 [100x48] axis=1 residual gamma: {{.*}} PASS
// CHECK: {{^}}layer_norm_grad bf16 [16x512] axis=1 gamma mean rstd offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_grad f16 [7x384] axis=1 eps_out: {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_grad_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_grad_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, i64, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_norm_grad_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_f32_recomputed() : () -> ()
  func.call @rms_f32_saved() : () -> ()
  func.call @ln_f32_residual() : () -> ()
  func.call @ln_bf16_saved_offset() : () -> ()
  func.call @rms_f16_dx_eps_out() : () -> ()
  return
}

func.func @rms_f32_recomputed() {
  %dy = gpu.alloc host_shared () : memref<64x1000xf32>
  %dy_u = memref.cast %dy : memref<64x1000xf32> to memref<*xf32>
  %dy_s = arith.constant 7001 : i64
  %dy_m = arith.constant 0.0 : f64
  %dy_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%dy_u, %dy_s, %dy_m, %dy_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = gpu.alloc host_shared () : memref<64x1000xf32>
  %x_u = memref.cast %x : memref<64x1000xf32> to memref<*xf32>
  %x_s = arith.constant 7002 : i64
  %x_m = arith.constant 0.5 : f64
  %x_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_s, %x_m, %x_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %ds = gpu.alloc host_shared () : memref<1xf32>
  %ds_u = memref.cast %ds : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<1000xf32>
  %g_u = memref.cast %g : memref<1000xf32> to memref<*xf32>
  %g_s = arith.constant 7003 : i64
  %g_m = arith.constant 1.0 : f64
  %g_c = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_s, %g_m, %g_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %m = gpu.alloc host_shared () : memref<1xf32>
  %m_u = memref.cast %m : memref<1xf32> to memref<*xf32>
  %r = gpu.alloc host_shared () : memref<1xf32>
  %r_u = memref.cast %r : memref<1xf32> to memref<*xf32>
  %dx = gpu.alloc host_shared () : memref<64x1000xf32>
  %dx_u = memref.cast %dx : memref<64x1000xf32> to memref<*xf32>
  %dg = gpu.alloc host_shared () : memref<1000xf32>
  %dg_u = memref.cast %dg : memref<1000xf32> to memref<*xf32>
  %db = gpu.alloc host_shared () : memref<1xf32>
  %db_u = memref.cast %db : memref<1xf32> to memref<*xf32>
  norm.rms_norm_grad grad(%dy : memref<64x1000xf32>) ins(%x : memref<64x1000xf32>) weight(%g : memref<1000xf32>) outs(%dx : memref<64x1000xf32>) weight_grad_outs(%dg : memref<1000xf32>) {epsilon = 1.0e-06 : f64}
  %isln = arith.constant 0 : i64
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %off = arith.constant 0.0 : f64
  %flags = arith.constant 3074 : i64
  func.call @norm_test_check_norm_grad_f32(%dy_u, %x_u, %ds_u, %g_u, %m_u, %r_u, %dx_u, %dg_u, %db_u, %isln, %axis, %eps, %off, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %dy : memref<64x1000xf32>
  gpu.dealloc %x : memref<64x1000xf32>
  gpu.dealloc %ds : memref<1xf32>
  gpu.dealloc %g : memref<1000xf32>
  gpu.dealloc %m : memref<1xf32>
  gpu.dealloc %r : memref<1xf32>
  gpu.dealloc %dx : memref<64x1000xf32>
  gpu.dealloc %dg : memref<1000xf32>
  gpu.dealloc %db : memref<1xf32>
  return
}

func.func @rms_f32_saved() {
  %dy = gpu.alloc host_shared () : memref<33x4096xf32>
  %dy_u = memref.cast %dy : memref<33x4096xf32> to memref<*xf32>
  %dy_s = arith.constant 7004 : i64
  %dy_m = arith.constant 0.0 : f64
  %dy_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%dy_u, %dy_s, %dy_m, %dy_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = gpu.alloc host_shared () : memref<33x4096xf32>
  %x_u = memref.cast %x : memref<33x4096xf32> to memref<*xf32>
  %x_s = arith.constant 7005 : i64
  %x_m = arith.constant 0.5 : f64
  %x_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_s, %x_m, %x_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %ds = gpu.alloc host_shared () : memref<1xf32>
  %ds_u = memref.cast %ds : memref<1xf32> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<4096xf32>
  %g_u = memref.cast %g : memref<4096xf32> to memref<*xf32>
  %g_s = arith.constant 7006 : i64
  %g_m = arith.constant 1.0 : f64
  %g_c = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_s, %g_m, %g_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %m = gpu.alloc host_shared () : memref<1xf32>
  %m_u = memref.cast %m : memref<1xf32> to memref<*xf32>
  %r = gpu.alloc host_shared () : memref<33xf32>
  %r_u = memref.cast %r : memref<33xf32> to memref<*xf32>
  %dx = gpu.alloc host_shared () : memref<33x4096xf32>
  %dx_u = memref.cast %dx : memref<33x4096xf32> to memref<*xf32>
  %dg = gpu.alloc host_shared () : memref<4096xf32>
  %dg_u = memref.cast %dg : memref<4096xf32> to memref<*xf32>
  %db = gpu.alloc host_shared () : memref<1xf32>
  %db_u = memref.cast %db : memref<1xf32> to memref<*xf32>
  %y = gpu.alloc host_shared () : memref<33x4096xf32>
  norm.rms_norm ins(%x : memref<33x4096xf32>) weight(%g : memref<4096xf32>) outs(%y : memref<33x4096xf32>) rstd_outs(%r : memref<33xf32>) {epsilon = 1.0e-06 : f64}
  norm.rms_norm_grad grad(%dy : memref<33x4096xf32>) ins(%x : memref<33x4096xf32>) weight(%g : memref<4096xf32>) rstd(%r : memref<33xf32>) outs(%dx : memref<33x4096xf32>) weight_grad_outs(%dg : memref<4096xf32>) {epsilon = 1.0e-06 : f64}
  %isln = arith.constant 0 : i64
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %off = arith.constant 0.0 : f64
  %flags = arith.constant 3202 : i64
  func.call @norm_test_check_norm_grad_f32(%dy_u, %x_u, %ds_u, %g_u, %m_u, %r_u, %dx_u, %dg_u, %db_u, %isln, %axis, %eps, %off, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %dy : memref<33x4096xf32>
  gpu.dealloc %x : memref<33x4096xf32>
  gpu.dealloc %ds : memref<1xf32>
  gpu.dealloc %g : memref<4096xf32>
  gpu.dealloc %m : memref<1xf32>
  gpu.dealloc %r : memref<33xf32>
  gpu.dealloc %dx : memref<33x4096xf32>
  gpu.dealloc %dg : memref<4096xf32>
  gpu.dealloc %db : memref<1xf32>
  gpu.dealloc %y : memref<33x4096xf32>
  return
}

func.func @ln_f32_residual() {
  %dy = gpu.alloc host_shared () : memref<100x48xf32>
  %dy_u = memref.cast %dy : memref<100x48xf32> to memref<*xf32>
  %dy_s = arith.constant 7007 : i64
  %dy_m = arith.constant 0.0 : f64
  %dy_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%dy_u, %dy_s, %dy_m, %dy_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = gpu.alloc host_shared () : memref<100x48xf32>
  %x_u = memref.cast %x : memref<100x48xf32> to memref<*xf32>
  %x_s = arith.constant 7008 : i64
  %x_m = arith.constant 0.5 : f64
  %x_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %x_s, %x_m, %x_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %ds = gpu.alloc host_shared () : memref<100x48xf32>
  %ds_u = memref.cast %ds : memref<100x48xf32> to memref<*xf32>
  %ds_s = arith.constant 7009 : i64
  %ds_m = arith.constant 0.0 : f64
  %ds_c = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%ds_u, %ds_s, %ds_m, %ds_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<48xf32>
  %g_u = memref.cast %g : memref<48xf32> to memref<*xf32>
  %g_s = arith.constant 7010 : i64
  %g_m = arith.constant 1.0 : f64
  %g_c = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_s, %g_m, %g_c) : (memref<*xf32>, i64, f64, f64) -> ()
  %m = gpu.alloc host_shared () : memref<1xf32>
  %m_u = memref.cast %m : memref<1xf32> to memref<*xf32>
  %r = gpu.alloc host_shared () : memref<1xf32>
  %r_u = memref.cast %r : memref<1xf32> to memref<*xf32>
  %dx = gpu.alloc host_shared () : memref<100x48xf32>
  %dx_u = memref.cast %dx : memref<100x48xf32> to memref<*xf32>
  %dg = gpu.alloc host_shared () : memref<48xf32>
  %dg_u = memref.cast %dg : memref<48xf32> to memref<*xf32>
  %db = gpu.alloc host_shared () : memref<48xf32>
  %db_u = memref.cast %db : memref<48xf32> to memref<*xf32>
  norm.layer_norm_grad grad(%dy : memref<100x48xf32>) ins(%x : memref<100x48xf32>) sum_grad(%ds : memref<100x48xf32>) weight(%g : memref<48xf32>) outs(%dx : memref<100x48xf32>) weight_grad_outs(%dg : memref<48xf32>) bias_grad_outs(%db : memref<48xf32>) {epsilon = 1.0e-05 : f64}
  %isln = arith.constant 1 : i64
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %off = arith.constant 0.0 : f64
  %flags = arith.constant 7171 : i64
  func.call @norm_test_check_norm_grad_f32(%dy_u, %x_u, %ds_u, %g_u, %m_u, %r_u, %dx_u, %dg_u, %db_u, %isln, %axis, %eps, %off, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %dy : memref<100x48xf32>
  gpu.dealloc %x : memref<100x48xf32>
  gpu.dealloc %ds : memref<100x48xf32>
  gpu.dealloc %g : memref<48xf32>
  gpu.dealloc %m : memref<1xf32>
  gpu.dealloc %r : memref<1xf32>
  gpu.dealloc %dx : memref<100x48xf32>
  gpu.dealloc %dg : memref<48xf32>
  gpu.dealloc %db : memref<48xf32>
  return
}

func.func @ln_bf16_saved_offset() {
  %dy = gpu.alloc host_shared () : memref<16x512xbf16>
  %dy_u = memref.cast %dy : memref<16x512xbf16> to memref<*xbf16>
  %dy_s = arith.constant 7011 : i64
  %dy_m = arith.constant 0.0 : f64
  %dy_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%dy_u, %dy_s, %dy_m, %dy_c) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = gpu.alloc host_shared () : memref<16x512xbf16>
  %x_u = memref.cast %x : memref<16x512xbf16> to memref<*xbf16>
  %x_s = arith.constant 7012 : i64
  %x_m = arith.constant 0.5 : f64
  %x_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %x_s, %x_m, %x_c) : (memref<*xbf16>, i64, f64, f64) -> ()
  %ds = gpu.alloc host_shared () : memref<1xbf16>
  %ds_u = memref.cast %ds : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<512xbf16>
  %g_u = memref.cast %g : memref<512xbf16> to memref<*xbf16>
  %g_s = arith.constant 7013 : i64
  %g_m = arith.constant 1.0 : f64
  %g_c = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_s, %g_m, %g_c) : (memref<*xbf16>, i64, f64, f64) -> ()
  %m = gpu.alloc host_shared () : memref<16xf32>
  %m_u = memref.cast %m : memref<16xf32> to memref<*xf32>
  %r = gpu.alloc host_shared () : memref<16xf32>
  %r_u = memref.cast %r : memref<16xf32> to memref<*xf32>
  %dx = gpu.alloc host_shared () : memref<16x512xbf16>
  %dx_u = memref.cast %dx : memref<16x512xbf16> to memref<*xbf16>
  %dg = gpu.alloc host_shared () : memref<512xbf16>
  %dg_u = memref.cast %dg : memref<512xbf16> to memref<*xbf16>
  %db = gpu.alloc host_shared () : memref<512xbf16>
  %db_u = memref.cast %db : memref<512xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<16x512xbf16>
  norm.layer_norm ins(%x : memref<16x512xbf16>) weight(%g : memref<512xbf16>) outs(%y : memref<16x512xbf16>) mean_outs(%m : memref<16xf32>) rstd_outs(%r : memref<16xf32>) {epsilon = 1.0e-05 : f64, weight_offset = 1.0 : f64}
  norm.layer_norm_grad grad(%dy : memref<16x512xbf16>) ins(%x : memref<16x512xbf16>) weight(%g : memref<512xbf16>) mean(%m : memref<16xf32>) rstd(%r : memref<16xf32>) outs(%dx : memref<16x512xbf16>) weight_grad_outs(%dg : memref<512xbf16>) bias_grad_outs(%db : memref<512xbf16>) {epsilon = 1.0e-05 : f64, weight_offset = 1.0 : f64}
  %isln = arith.constant 1 : i64
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %off = arith.constant 1.0 : f64
  %flags = arith.constant 7362 : i64
  func.call @norm_test_check_norm_grad_bf16(%dy_u, %x_u, %ds_u, %g_u, %m_u, %r_u, %dx_u, %dg_u, %db_u, %isln, %axis, %eps, %off, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %dy : memref<16x512xbf16>
  gpu.dealloc %x : memref<16x512xbf16>
  gpu.dealloc %ds : memref<1xbf16>
  gpu.dealloc %g : memref<512xbf16>
  gpu.dealloc %m : memref<16xf32>
  gpu.dealloc %r : memref<16xf32>
  gpu.dealloc %dx : memref<16x512xbf16>
  gpu.dealloc %dg : memref<512xbf16>
  gpu.dealloc %db : memref<512xbf16>
  gpu.dealloc %y : memref<16x512xbf16>
  return
}

func.func @rms_f16_dx_eps_out() {
  %dy = gpu.alloc host_shared () : memref<7x384xf16>
  %dy_u = memref.cast %dy : memref<7x384xf16> to memref<*xf16>
  %dy_s = arith.constant 7014 : i64
  %dy_m = arith.constant 0.0 : f64
  %dy_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%dy_u, %dy_s, %dy_m, %dy_c) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = gpu.alloc host_shared () : memref<7x384xf16>
  %x_u = memref.cast %x : memref<7x384xf16> to memref<*xf16>
  %x_s = arith.constant 7015 : i64
  %x_m = arith.constant 0.5 : f64
  %x_c = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%x_u, %x_s, %x_m, %x_c) : (memref<*xf16>, i64, f64, f64) -> ()
  %ds = gpu.alloc host_shared () : memref<1xf16>
  %ds_u = memref.cast %ds : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<1xf16>
  %g_u = memref.cast %g : memref<1xf16> to memref<*xf16>
  %m = gpu.alloc host_shared () : memref<1xf32>
  %m_u = memref.cast %m : memref<1xf32> to memref<*xf32>
  %r = gpu.alloc host_shared () : memref<1xf32>
  %r_u = memref.cast %r : memref<1xf32> to memref<*xf32>
  %dx = gpu.alloc host_shared () : memref<7x384xf16>
  %dx_u = memref.cast %dx : memref<7x384xf16> to memref<*xf16>
  %dg = gpu.alloc host_shared () : memref<1xf16>
  %dg_u = memref.cast %dg : memref<1xf16> to memref<*xf16>
  %db = gpu.alloc host_shared () : memref<1xf16>
  %db_u = memref.cast %db : memref<1xf16> to memref<*xf16>
  norm.rms_norm_grad grad(%dy : memref<7x384xf16>) ins(%x : memref<7x384xf16>) outs(%dx : memref<7x384xf16>) {epsilon = 1.0e-03 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
  %isln = arith.constant 0 : i64
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-03 : f64
  %off = arith.constant 0.0 : f64
  %flags = arith.constant 1032 : i64
  func.call @norm_test_check_norm_grad_f16(%dy_u, %x_u, %ds_u, %g_u, %m_u, %r_u, %dx_u, %dg_u, %db_u, %isln, %axis, %eps, %off, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf16>, memref<*xf16>, memref<*xf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %dy : memref<7x384xf16>
  gpu.dealloc %x : memref<7x384xf16>
  gpu.dealloc %ds : memref<1xf16>
  gpu.dealloc %g : memref<1xf16>
  gpu.dealloc %m : memref<1xf32>
  gpu.dealloc %r : memref<1xf32>
  gpu.dealloc %dx : memref<7x384xf16>
  gpu.dealloc %dg : memref<1xf16>
  gpu.dealloc %db : memref<1xf16>
  return
}
