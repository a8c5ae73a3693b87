// RUN: norm-opt %s --norm-fuse-matmul --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests of --norm-fuse-matmul: unfused IR as frontends write it
// (norm op, linalg.transpose of a Linear weight, linalg.matmul, bias and
// residual adds), run with and without the fusion; each result is compared
// with the float64 reference of the fused op it must equal
// (test/lib/Runtime). The folded cases check that W' = diag(γ + 1)·W and
// b' = β·W + bias were folded right: the reference gets the original γ, β,
// W and bias.

// FUSED-LABEL: func.func @linear_transposed_bias
//   FUSED-NOT: linalg.matmul
//       FUSED: norm.rms_norm_matmul {{.*}} {transpose_rhs}
// FUSED-LABEL: func.func @layer_norm_folded
//   FUSED-NOT: linalg.matmul
//       FUSED: norm.layer_norm_matmul
// FUSED-LABEL: func.func @matmul_residual_norm
//   FUSED-NOT: linalg.matmul
//       FUSED: norm.matmul_rms_norm
// FUSED-LABEL: func.func @rms_bf16_folded
//   FUSED-NOT: linalg.matmul
//       FUSED: norm.rms_norm_matmul
//   FUSED-NOT: linalg.matmul

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul f32 [6x24] w=[16x24] gamma mbias trans_rhs: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f32 [5x8] w=[8x4] gamma beta mbias offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_rms_norm f32 [4x12] w=[12x16] residual gamma sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul bf16 [4x8] w=[8x4] gamma: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @linear_transposed_bias() : () -> ()
  func.call @layer_norm_folded() : () -> ()
  func.call @matmul_residual_norm() : () -> ()
  func.call @rms_bf16_folded() : () -> ()
  return
}

// RMSNorm (runtime γ) → PyTorch Linear: W as N×K through linalg.transpose,
// bias added after the product.
func.func @linear_transposed_bias() {
  %x_m = memref.alloc() : memref<6x24xf32>
  %x_u = memref.cast %x_m : memref<6x24xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<24xf32>
  %g_u = memref.cast %g_m : memref<24xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<16x24xf32>
  %w_u = memref.cast %w_m : memref<16x24xf32> to memref<*xf32>
  %mb_m = memref.alloc() : memref<16xf32>
  %mb_u = memref.cast %mb_m : memref<16xf32> to memref<*xf32>
  %s1 = arith.constant 1101 : i64
  %s2 = arith.constant 1102 : i64
  %s3 = arith.constant 1103 : i64
  %s4 = arith.constant 1104 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %s1, %half, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s2, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%w_u, %s3, %zero_d, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%mb_u, %s4, %zero_d, %one) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x24xf32> to tensor<6x24xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<24xf32> to tensor<24xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<16x24xf32> to tensor<16x24xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<16xf32> to tensor<16xf32>

  %e = tensor.empty() : tensor<6x24xf32>
  %n = norm.rms_norm ins(%x : tensor<6x24xf32>) weight(%g : tensor<24xf32>) outs(%e : tensor<6x24xf32>) -> tensor<6x24xf32>
  %te = tensor.empty() : tensor<24x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x24xf32>) outs(%te : tensor<24x16xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x16xf32>) -> tensor<6x16xf32>
  %c = linalg.matmul ins(%n, %wt : tensor<6x24xf32>, tensor<24x16xf32>) outs(%z : tensor<6x16xf32>) -> tensor<6x16xf32>
  %bb = linalg.broadcast ins(%mb : tensor<16xf32>) outs(%ce : tensor<6x16xf32>) dimensions = [0]
  %out = linalg.add ins(%c, %bb : tensor<6x16xf32>, tensor<6x16xf32>) outs(%ce : tensor<6x16xf32>) -> tensor<6x16xf32>

  %o_m = bufferization.to_buffer %out : tensor<6x16xf32> to memref<6x16xf32>
  %o_u = memref.cast %o_m : memref<6x16xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 770 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %mb_u, %o_u, %eps, %zero_d, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// LayerNorm (constant γ, β, Gemma offset 1) → matmul with constant W and a
// constant bias broadcast into the init: folded into W' and b'.
func.func @layer_norm_folded() {
  %x_m = memref.alloc() : memref<5x8xf32>
  %x_u = memref.cast %x_m : memref<5x8xf32> to memref<*xf32>
  %s1 = arith.constant 2201 : i64
  %mean = arith.constant 3.0 : f64
  %scale = arith.constant 2.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %s1, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x8xf32> to tensor<5x8xf32>
  %g = arith.constant dense<[0.0943, -0.0095, 0.2906, -0.0565, 0.2215, 0.1194, -0.0652, 0.2045]> : tensor<8xf32>
  %b = arith.constant dense<[-0.4250, 0.3673, -0.3603, -0.3186, 0.3490, 1.1537, -0.2524, -0.0535]> : tensor<8xf32>
  %w = arith.constant dense<[[0.1274, 0.4477, 0.0771, -0.1033], [0.4763, -0.4534, 0.3585, -0.2104], [-0.3557, -0.3822, -0.1915, 0.3161], [-0.3193, 0.0816, 0.1389, -0.1276], [0.0477, -0.4372, -0.4404, -0.2940], [0.1804, -0.0724, -0.1859, 0.0856], [-0.0468, -0.2002, 0.2944, 0.1990], [-0.2559, 0.0744, 0.0252, 0.3751]]> : tensor<8x4xf32>
  %mb = arith.constant dense<[0.4589, -0.4241, 0.9603, -0.7639]> : tensor<4xf32>

  %e = tensor.empty() : tensor<5x8xf32>
  %n = norm.layer_norm ins(%x : tensor<5x8xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<5x8xf32>) {weight_offset = 1.0 : f32} -> tensor<5x8xf32>
  %ce = tensor.empty() : tensor<5x4xf32>
  %bb = linalg.broadcast ins(%mb : tensor<4xf32>) outs(%ce : tensor<5x4xf32>) dimensions = [0]
  %out = linalg.matmul ins(%n, %w : tensor<5x8xf32>, tensor<8x4xf32>) outs(%bb : tensor<5x4xf32>) -> tensor<5x4xf32>

  %o_m = bufferization.to_buffer %out : tensor<5x4xf32> to memref<5x4xf32>
  %o_u = memref.cast %o_m : memref<5x4xf32> to memref<*xf32>
  %g_m = bufferization.to_buffer %g : tensor<8xf32> to memref<8xf32>
  %g_u = memref.cast %g_m : memref<8xf32> to memref<*xf32>
  %b_m = bufferization.to_buffer %b : tensor<8xf32> to memref<8xf32>
  %b_u = memref.cast %b_m : memref<8xf32> to memref<*xf32>
  %w_m = bufferization.to_buffer %w : tensor<8x4xf32> to memref<8x4xf32>
  %w_u = memref.cast %w_m : memref<8x4xf32> to memref<*xf32>
  %mb_m = bufferization.to_buffer %mb : tensor<4xf32> to memref<4xf32>
  %mb_u = memref.cast %mb_m : memref<4xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 262 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %g_u, %b_u, %w_u, %mb_u, %o_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// matmul → residual add → RMSNorm, the sum read by the residual stream.
func.func @matmul_residual_norm() {
  %a_m = memref.alloc() : memref<4x12xf32>
  %a_u = memref.cast %a_m : memref<4x12xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<12x16xf32>
  %w_u = memref.cast %w_m : memref<12x16xf32> to memref<*xf32>
  %h_m = memref.alloc() : memref<4x16xf32>
  %h_u = memref.cast %h_m : memref<4x16xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<16xf32>
  %g_u = memref.cast %g_m : memref<16xf32> to memref<*xf32>
  %s1 = arith.constant 3301 : i64
  %s2 = arith.constant 3302 : i64
  %s3 = arith.constant 3303 : i64
  %s4 = arith.constant 3304 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%a_u, %s1, %half, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_f32(%w_u, %s2, %zero_d, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_rows_f32(%h_u, %s3, %one, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s4, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<4x12xf32> to tensor<4x12xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<12x16xf32> to tensor<12x16xf32>
  %h = bufferization.to_tensor %h_m restrict : memref<4x16xf32> to tensor<4x16xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<16xf32> to tensor<16xf32>

  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul ins(%a, %w : tensor<4x12xf32>, tensor<12x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = linalg.add ins(%h, %p : tensor<4x16xf32>, tensor<4x16xf32>) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = norm.rms_norm ins(%s : tensor<4x16xf32>) weight(%g : tensor<16xf32>) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>

  %y_m = bufferization.to_buffer %y : tensor<4x16xf32> to memref<4x16xf32>
  %y_u = memref.cast %y_m : memref<4x16xf32> to memref<*xf32>
  %s_m = bufferization.to_buffer %s : tensor<4x16xf32> to memref<4x16xf32>
  %s_u = memref.cast %s_m : memref<4x16xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_matmul_rms_norm_f32(%a_u, %w_u, %dummy_u, %h_u, %g_u, %y_u, %s_u, %eps, %zero_d, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// bf16 RMSNorm with a constant γ → matmul with a constant W: W' is rounded
// to bf16 once.
func.func @rms_bf16_folded() {
  %x_m = memref.alloc() : memref<4x8xbf16>
  %x_u = memref.cast %x_m : memref<4x8xbf16> to memref<*xbf16>
  %s1 = arith.constant 4401 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero_d = arith.constant 0.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %s1, %half, %one, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x8xbf16> to tensor<4x8xbf16>
  %g = arith.constant dense<[0.9181, 1.2571, 0.6520, 0.9890, 0.5392, 1.1682, 1.2646, 1.0730]> : tensor<8xbf16>
  %w = arith.constant dense<[[0.3755, -0.1863, 0.1953, 0.0944], [0.0799, -0.0438, 0.3400, 0.4447], [-0.0259, 0.1642, -0.4393, 0.2015], [0.1471, 0.4931, 0.3219, -0.2154], [-0.1142, 0.1687, -0.4774, -0.0383], [-0.3320, -0.3829, -0.4410, 0.2682], [-0.3707, -0.2524, -0.1091, 0.3714], [-0.4194, -0.0508, 0.0494, 0.3834]]> : tensor<8x4xbf16>

  %e = tensor.empty() : tensor<4x8xbf16>
  %n = norm.rms_norm ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<4x4xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<4x4xbf16>) -> tensor<4x4xbf16>
  %out = linalg.matmul ins(%n, %w : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%z : tensor<4x4xbf16>) -> tensor<4x4xbf16>

  %o_m = bufferization.to_buffer %out : tensor<4x4xbf16> to memref<4x4xbf16>
  %o_u = memref.cast %o_m : memref<4x4xbf16> to memref<*xbf16>
  %g_m = bufferization.to_buffer %g : tensor<8xbf16> to memref<8xbf16>
  %g_u = memref.cast %g_m : memref<8xbf16> to memref<*xbf16>
  %w_m = bufferization.to_buffer %w : tensor<8x4xbf16> to memref<8x4xbf16>
  %w_u = memref.cast %w_m : memref<8x4xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %dummy_u, %o_u, %eps, %zero_d, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  return
}
