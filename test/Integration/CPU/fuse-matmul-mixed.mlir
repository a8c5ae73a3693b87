// RUN: norm-opt %s --norm-fuse-matmul --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests of --norm-fuse-matmul with mixed element types
// (docs/design.md, "Mixed element types"): unfused IR as frontends write a
// bf16 model with f32 norm weights (Gemma 3): bf16 × bf16 matmuls
// accumulated into f32, then rounded to bf16 or kept f32. Run with and
// without the fusion; each result is compared with the float64 reference of
// the fused op it must equal (test/lib/Runtime, the _pf32 / _of32
// checkers).

// FUSED-LABEL: func.func @gemma_qkv
//   FUSED-NOT: linalg.
//       FUSED: norm.rms_norm_matmul {{.*}} weight(%{{.*}} : tensor<24xf32>) {{.*}} outs(%{{.*}} : tensor<6x16xbf16>)
//   FUSED-NOT: linalg.
// FUSED-LABEL: func.func @f32_residual_stream
//   FUSED-NOT: linalg.
//       FUSED: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<5x32xf32>) sum_outs(%{{.*}} : tensor<5x32xf32>)
//   FUSED-NOT: linalg.
// FUSED-LABEL: func.func @gemma_post_norm
//   FUSED-NOT: linalg.
//       FUSED: norm.matmul_layer_norm {{.*}} outs(%{{.*}} : tensor<4x24xbf16>)
//   FUSED-NOT: linalg.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [6x24] w=[16x24] gamma trans_rhs params=f32 offset=1: rel_err={{.*}} tol=1e-02 PASS
// CHECK-NEXT: {{^}}matmul_rms_norm bf16 [5x40] w=[40x32] residual gamma sum params=f32 out=f32: rel_err={{.*}} tol=1e-05 {{.*}}PASS
// CHECK-NEXT: {{^}}matmul_layer_norm bf16 [4x16] w=[16x24] gamma beta params=f32: rel_err={{.*}} tol=1e-02 PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_matmul_bf16_pf32(memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16_of32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_bf16_pf32(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @gemma_qkv() : () -> ()
  func.call @f32_residual_stream() : () -> ()
  func.call @gemma_post_norm() : () -> ()
  return
}

// Gemma 3's input norm (bf16 x, f32 γ, 1 + γ) into a bf16 Linear (W as
// N×K through the matmul's maps), accumulated in f32 and rounded to bf16.
func.func @gemma_qkv() {
  %x_m = memref.alloc() : memref<6x24xbf16>
  %x_u = memref.cast %x_m : memref<6x24xbf16> to memref<*xbf16>
  %g_m = memref.alloc() : memref<24xf32>
  %g_u = memref.cast %g_m : memref<24xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<16x24xbf16>
  %w_u = memref.cast %w_m : memref<16x24xbf16> to memref<*xbf16>
  %s1 = arith.constant 3101 : i64
  %s2 = arith.constant 3102 : i64
  %s3 = arith.constant 3103 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %s1, %half, %one, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s2, %zero_d, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_bf16(%w_u, %s3, %zero_d, %half) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x24xbf16> to tensor<6x24xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<24xf32> to tensor<24xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<16x24xbf16> to tensor<16x24xbf16>

  %e = tensor.empty() : tensor<6x24xbf16>
  %n = norm.rms_norm ins(%x : tensor<6x24xbf16>) weight(%g : tensor<24xf32>) outs(%e : tensor<6x24xbf16>) {weight_offset = 1.0 : f32} -> tensor<6x24xbf16>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x16xf32>) -> tensor<6x16xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%n, %w : tensor<6x24xbf16>, tensor<16x24xbf16>) outs(%z : tensor<6x16xf32>) -> tensor<6x16xf32>
  %te = tensor.empty() : tensor<6x16xbf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<6x16xf32>) outs(%te : tensor<6x16xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<6x16xbf16>

  %o_m = bufferization.to_buffer %out : tensor<6x16xbf16> to memref<6x16xbf16>
  %o_u = memref.cast %o_m : memref<6x16xbf16> to memref<*xbf16>
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16_pf32(%x_u, %g_u, %w_u, %o_u, %o_u, %eps, %one, %flags)
      : (memref<*xbf16>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  return
}

// bf16 × bf16 into f32, an f32 residual stream added, an f32 RMSNorm; the
// sum is read after the norm (returned by the fused op).
func.func @f32_residual_stream() {
  %a_m = memref.alloc() : memref<5x40xbf16>
  %a_u = memref.cast %a_m : memref<5x40xbf16> to memref<*xbf16>
  %w_m = memref.alloc() : memref<40x32xbf16>
  %w_u = memref.cast %w_m : memref<40x32xbf16> to memref<*xbf16>
  %h_m = memref.alloc() : memref<5x32xf32>
  %h_u = memref.cast %h_m : memref<5x32xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<32xf32>
  %g_u = memref.cast %g_m : memref<32xf32> to memref<*xf32>
  %s1 = arith.constant 3201 : i64
  %s2 = arith.constant 3202 : i64
  %s3 = arith.constant 3203 : i64
  %s4 = arith.constant 3204 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%a_u, %s1, %half, %one, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_bf16(%w_u, %s2, %zero_d, %half) : (memref<*xbf16>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%h_u, %s3, %half, %one) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s4, %one, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<5x40xbf16> to tensor<5x40xbf16>
  %w = bufferization.to_tensor %w_m restrict : memref<40x32xbf16> to tensor<40x32xbf16>
  %h = bufferization.to_tensor %h_m restrict : memref<5x32xf32> to tensor<5x32xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<32xf32> to tensor<32xf32>

  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<5x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<5x32xf32>) -> tensor<5x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<5x40xbf16>, tensor<40x32xbf16>) outs(%z : tensor<5x32xf32>) -> tensor<5x32xf32>
  %se = tensor.empty() : tensor<5x32xf32>
  %s = linalg.add ins(%c, %h : tensor<5x32xf32>, tensor<5x32xf32>) outs(%se : tensor<5x32xf32>) -> tensor<5x32xf32>
  %ye = tensor.empty() : tensor<5x32xf32>
  %y = norm.rms_norm ins(%s : tensor<5x32xf32>) weight(%g : tensor<32xf32>) outs(%ye : tensor<5x32xf32>) -> tensor<5x32xf32>

  %y_m = bufferization.to_buffer %y : tensor<5x32xf32> to memref<5x32xf32>
  %y_u = memref.cast %y_m : memref<5x32xf32> to memref<*xf32>
  %sum_m = bufferization.to_buffer %s : tensor<5x32xf32> to memref<5x32xf32>
  %sum_u = memref.cast %sum_m : memref<5x32xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16_of32(%a_u, %w_u, %h_u, %h_u, %g_u, %y_u, %sum_u, %eps, %zero_d, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// A Gemma-style post-norm: the f32 product rounded to bf16, then a bf16
// LayerNorm with f32 γ/β.
func.func @gemma_post_norm() {
  %a_m = memref.alloc() : memref<4x16xbf16>
  %a_u = memref.cast %a_m : memref<4x16xbf16> to memref<*xbf16>
  %w_m = memref.alloc() : memref<16x24xbf16>
  %w_u = memref.cast %w_m : memref<16x24xbf16> to memref<*xbf16>
  %g_m = memref.alloc() : memref<24xf32>
  %g_u = memref.cast %g_m : memref<24xf32> to memref<*xf32>
  %b_m = memref.alloc() : memref<24xf32>
  %b_u = memref.cast %b_m : memref<24xf32> to memref<*xf32>
  %s1 = arith.constant 3301 : i64
  %s2 = arith.constant 3302 : i64
  %s3 = arith.constant 3303 : i64
  %s4 = arith.constant 3304 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%a_u, %s1, %half, %one, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_bf16(%w_u, %s2, %zero_d, %half) : (memref<*xbf16>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s3, %one, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %s4, %zero_d, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<4x16xbf16> to tensor<4x16xbf16>
  %w = bufferization.to_tensor %w_m restrict : memref<16x24xbf16> to tensor<16x24xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<24xf32> to tensor<24xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<24xf32> to tensor<24xf32>

  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x24xf32>) -> tensor<4x24xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x16xbf16>, tensor<16x24xbf16>) outs(%z : tensor<4x24xf32>) -> tensor<4x24xf32>
  %te = tensor.empty() : tensor<4x24xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<4x24xf32>) outs(%te : tensor<4x24xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x24xbf16>
  %ye = tensor.empty() : tensor<4x24xbf16>
  %y = norm.layer_norm ins(%t : tensor<4x24xbf16>) weight(%g : tensor<24xf32>) bias(%b : tensor<24xf32>) outs(%ye : tensor<4x24xbf16>) -> tensor<4x24xbf16>

  %y_m = bufferization.to_buffer %y : tensor<4x24xbf16> to memref<4x24xbf16>
  %y_u = memref.cast %y_m : memref<4x24xbf16> to memref<*xbf16>
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 6 : i64
  func.call @norm_test_check_matmul_layer_norm_bf16_pf32(%a_u, %w_u, %y_u, %y_u, %g_u, %b_u, %y_u, %y_u, %eps, %zero_d, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  return
}
