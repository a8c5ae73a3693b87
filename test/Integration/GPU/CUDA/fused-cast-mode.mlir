// GPU execution of the fused norm → matmul GEMM with cast_mode and pRMSNorm
// (issue 26 item 7) through --norm-lower-to-nvvm, checked against the
// float64 reference of test/lib/Runtime (flag 32768: the normalized
// activations rounded where cast_mode says; bits 16..31: p) on seeded random
// inputs: Gemma's order in bf16 with f32 γ + 1 (tensor cores), Llama's
// order with pRMSNorm in bf16, and pRMSNorm in f32 (FMA units, where the
// f32 tolerance tells the prefix statistics from whole-row ones). The same
// file runs on host threads in
// test/Integration/GPU/Emulated/fused-cast-mode.test.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [33x128] w=[72x128] gamma trans_rhs params=f32 cast=after offset=1: {{.*}} tol=1e-02 PASS
// CHECK: {{^}}rms_norm_matmul bf16 [20x96] w=[96x40] gamma cast=before partial=0.5: {{.*}} tol=1e-02 PASS
// CHECK: {{^}}rms_norm_matmul f32 [17x100] w=[100x36] gamma partial=0.25: {{.*}} tol=1e-05 PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_matmul_bf16_pf32(memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @gemma_bf16() : () -> ()
  func.call @llama_partial_bf16() : () -> ()
  func.call @partial_f32() : () -> ()
  return
}

// Gemma 3: bf16 x, f32 γ + 1, W as N×K, after_weight.
func.func @gemma_bf16() {
  %x = gpu.alloc host_shared () : memref<33x128xbf16>
  %x_u = memref.cast %x : memref<33x128xbf16> to memref<*xbf16>
  %s1 = arith.constant 7001 : i64
  %m1 = arith.constant 0.5 : f64
  %c1 = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %s1, %m1, %c1) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<72x128xbf16>
  %w_u = memref.cast %w : memref<72x128xbf16> to memref<*xbf16>
  %s2 = arith.constant 7002 : i64
  %m2 = arith.constant 0.02 : f64
  %c2 = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %s2, %m2, %c2) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<128xf32>
  %g_u = memref.cast %g : memref<128xf32> to memref<*xf32>
  %s3 = arith.constant 7003 : i64
  %c3 = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %s3, %c1, %c3) : (memref<*xf32>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<33x72xbf16>
  %y_u = memref.cast %y : memref<33x72xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<33x128xbf16>) weight(%g : memref<128xf32>) rhs(%w : memref<72x128xbf16>) outs(%y : memref<33x72xbf16>) {cast_mode = #norm.cast_mode<after_weight>, epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  // gamma 2, transpose_rhs 512, round_normalized 32768.
  %flags = arith.constant 33282 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %c1, %flags) : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x128xbf16>
  gpu.dealloc %w : memref<72x128xbf16>
  gpu.dealloc %g : memref<128xf32>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<33x72xbf16>
  return
}

// Llama's order with pRMSNorm (p = 0.5: k = 48 of 96): bf16 γ, W as K×N.
func.func @llama_partial_bf16() {
  %x = gpu.alloc host_shared () : memref<20x96xbf16>
  %x_u = memref.cast %x : memref<20x96xbf16> to memref<*xbf16>
  %s1 = arith.constant 7011 : i64
  %m1 = arith.constant 0.0 : f64
  %c1 = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %s1, %m1, %c1) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<96x40xbf16>
  %w_u = memref.cast %w : memref<96x40xbf16> to memref<*xbf16>
  %s2 = arith.constant 7012 : i64
  %c2 = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %s2, %m1, %c2) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<96xbf16>
  %g_u = memref.cast %g : memref<96xbf16> to memref<*xbf16>
  %s3 = arith.constant 7013 : i64
  %c3 = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %s3, %c1, %c3) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %y = gpu.alloc host_shared () : memref<20x40xbf16>
  %y_u = memref.cast %y : memref<20x40xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<20x96xbf16>) weight(%g : memref<96xbf16>) rhs(%w : memref<96x40xbf16>) outs(%y : memref<20x40xbf16>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 1.0e-06 : f64, partial = 0.5 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %zero = arith.constant 0.0 : f64
  // gamma 2, cast_before_weight 16, round_normalized 32768, p = 2^15 / 2^16.
  %flags = arith.constant 2147516434 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %zero, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<20x96xbf16>
  gpu.dealloc %w : memref<96x40xbf16>
  gpu.dealloc %g : memref<96xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %y : memref<20x40xbf16>
  return
}

// pRMSNorm (p = 0.25: k = 25 of 100) in f32 on the FMA units; K = 100 is
// not a multiple of BK, so the tail of the last K tile is masked.
func.func @partial_f32() {
  %x = gpu.alloc host_shared () : memref<17x100xf32>
  %x_u = memref.cast %x : memref<17x100xf32> to memref<*xf32>
  %s1 = arith.constant 7021 : i64
  %m1 = arith.constant 0.3 : f64
  %c1 = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %s1, %m1, %c1) : (memref<*xf32>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<100x36xf32>
  %w_u = memref.cast %w : memref<100x36xf32> to memref<*xf32>
  %s2 = arith.constant 7022 : i64
  %m2 = arith.constant 0.0 : f64
  %c2 = arith.constant 0.1 : f64
  func.call @norm_test_fill_f32(%w_u, %s2, %m2, %c2) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<100xf32>
  %g_u = memref.cast %g : memref<100xf32> to memref<*xf32>
  %s3 = arith.constant 7023 : i64
  %c3 = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %s3, %c1, %c3) : (memref<*xf32>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %y = gpu.alloc host_shared () : memref<17x36xf32>
  %y_u = memref.cast %y : memref<17x36xf32> to memref<*xf32>
  norm.rms_norm_matmul ins(%x : memref<17x100xf32>) weight(%g : memref<100xf32>) rhs(%w : memref<100x36xf32>) outs(%y : memref<17x36xf32>) {epsilon = 1.0e-06 : f64, partial = 0.25 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %zero = arith.constant 0.0 : f64
  // gamma 2, p = 2^14 / 2^16.
  %flags = arith.constant 1073741826 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %zero, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x100xf32>
  gpu.dealloc %w : memref<100x36xf32>
  gpu.dealloc %g : memref<100xf32>
  gpu.dealloc %d : memref<1xf32>
  gpu.dealloc %y : memref<17x36xf32>
  return
}
