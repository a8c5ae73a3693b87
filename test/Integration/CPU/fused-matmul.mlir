// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Execution tests for the fused norm <-> matmul ops (everything in f32, one
// rounding at the end): norm.rms_norm_matmul, norm.layer_norm_matmul,
// norm.matmul_rms_norm and norm.matmul_layer_norm, with and without
// transpose_rhs and matmul_bias.
//
// Each case fills its inputs with seeded random data, runs the op and
// compares every result with a float64 reference on the host
// (test/lib/Runtime/NormTestRuntime.cpp), which prints one line per case.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul f32 [8x33] w=[33x20] gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul f32 [5x40] w=[20x40] gamma mbias trans_rhs offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul f32 [2x3x17] w=[17x9] eps_out: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f32 [8x33] w=[33x20] gamma beta mbias: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f32 [3x17] w=[11x17] trans_rhs: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f32 [4x24] w=[16x24] gamma beta mbias trans_rhs: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_rms_norm f32 [8x24] w=[24x20] residual gamma mbias sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_rms_norm f32 [4x16] w=[16x17]: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_rms_norm f32 [3x40] w=[33x40] residual gamma trans_rhs eps_out offset=1: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_layer_norm f32 [6x24] w=[20x24] residual gamma beta mbias trans_rhs sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_layer_norm f32 [4x12] w=[12x36] residual gamma beta sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_layer_norm f32 [5x8] w=[8x24]: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul bf16 [8x33] w=[33x20] gamma mbias: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f16 [4x40] w=[24x40] gamma beta trans_rhs: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_rms_norm bf16 [8x24] w=[24x20] residual gamma mbias sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}matmul_layer_norm f16 [4x32] w=[32x24] residual gamma beta sum: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul f32 [4x0] w=[0x8] gamma mbias: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm_matmul f32 [4x0] w=[8x0] gamma beta mbias trans_rhs: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm_matmul f32 [3x0] w=[8x0] gamma mbias trans_rhs: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_matmul_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rmm_basic() : () -> ()
  func.call @rmm_trans_bias_gemma() : () -> ()
  func.call @rmm_rank3() : () -> ()
  func.call @lnm_basic() : () -> ()
  func.call @lnm_trans() : () -> ()
  func.call @lnm_cancel() : () -> ()
  func.call @mrn_basic() : () -> ()
  func.call @mrn_plain() : () -> ()
  func.call @mrn_trans_gemma() : () -> ()
  func.call @mln_basic() : () -> ()
  func.call @mln_cancel() : () -> ()
  func.call @mln_plain() : () -> ()
  func.call @rmm_bf16() : () -> ()
  func.call @lnm_f16() : () -> ()
  func.call @mrn_bf16() : () -> ()
  func.call @mln_f16() : () -> ()
  func.call @rmm_k0() : () -> ()
  func.call @lnm_k0() : () -> ()
  func.call @rmm_t_k0() : () -> ()
  return
}

// K = 0 (a dynamic K; a static 0 is rejected by the verifier): empty rows,
// whose statistics divide by max(K, 1) (mean 0, a finite r), so C = bias as
// the op defines it, where 0/0 made every element NaN.
func.func @rmm_k0() {
  %x_m = memref.alloc() : memref<4x0xf32>
  %x_u = memref.cast %x_m : memref<4x0xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<0xf32>
  %g_u = memref.cast %g_m : memref<0xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<0x8xf32>
  %w_u = memref.cast %w_m : memref<0x8xf32> to memref<*xf32>
  %mb_m = memref.alloc() : memref<8xf32>
  %mb_u = memref.cast %mb_m : memref<8xf32> to memref<*xf32>
  %seed = arith.constant 2454901 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed, %mean, %scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c_m = memref.alloc() : memref<4x8xf32>
  %c_u = memref.cast %c_m : memref<4x8xf32> to memref<*xf32>
  %x = memref.cast %x_m : memref<4x0xf32> to memref<4x?xf32>
  %g = memref.cast %g_m : memref<0xf32> to memref<?xf32>
  %w = memref.cast %w_m : memref<0x8xf32> to memref<?x8xf32>
  norm.rms_norm_matmul ins(%x : memref<4x?xf32>) weight(%g : memref<?xf32>) rhs(%w : memref<?x8xf32>)
      matmul_bias(%mb_m : memref<8xf32>) outs(%c_m : memref<4x8xf32>)
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %mb_u, %c_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

func.func @lnm_k0() {
  %x_m = memref.alloc() : memref<4x0xf32>
  %x_u = memref.cast %x_m : memref<4x0xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<0xf32>
  %g_u = memref.cast %g_m : memref<0xf32> to memref<*xf32>
  %b_m = memref.alloc() : memref<0xf32>
  %b_u = memref.cast %b_m : memref<0xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<8x0xf32>
  %w_u = memref.cast %w_m : memref<8x0xf32> to memref<*xf32>
  %mb_m = memref.alloc() : memref<8xf32>
  %mb_u = memref.cast %mb_m : memref<8xf32> to memref<*xf32>
  %seed = arith.constant 2454902 : i64
  %mean = arith.constant -0.5 : f64
  %scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed, %mean, %scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c_m = memref.alloc() : memref<4x8xf32>
  %c_u = memref.cast %c_m : memref<4x8xf32> to memref<*xf32>
  %x = memref.cast %x_m : memref<4x0xf32> to memref<?x?xf32>
  %g = memref.cast %g_m : memref<0xf32> to memref<?xf32>
  %b = memref.cast %b_m : memref<0xf32> to memref<?xf32>
  %w = memref.cast %w_m : memref<8x0xf32> to memref<8x?xf32>
  %c = memref.cast %c_m : memref<4x8xf32> to memref<?x8xf32>
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) bias(%b : memref<?xf32>)
      rhs(%w : memref<8x?xf32>) matmul_bias(%mb_m : memref<8xf32>) outs(%c : memref<?x8xf32>) {transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 774 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %g_u, %b_u, %w_u, %mb_u, %c_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// C = rms_norm(X) * W, W 33x20.
func.func @rmm_basic() {
  %x_m = memref.alloc() : memref<8x33xf32>
  %x_u = memref.cast %x_m : memref<8x33xf32> to memref<*xf32>
  %seed_x = arith.constant 2454202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 2454203 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<33x20xf32>
  %w_u = memref.cast %w_m : memref<33x20xf32> to memref<*xf32>
  %seed_w = arith.constant 2454204 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<8x33xf32> to tensor<8x33xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf32> to tensor<33xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<33x20xf32> to tensor<33x20xf32>
  %c_init = tensor.empty() : tensor<8x20xf32>
  %c_res = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<33xf32>) rhs(%w : tensor<33x20xf32>)
         outs(%c_init : tensor<8x20xf32>) {epsilon = 1.0e-06 : f64}
         -> tensor<8x20xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<8x20xf32> to memref<8x20xf32>
  %c_buf_u = memref.cast %c_buf : memref<8x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %dummy_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// W given as 20x40 (transpose_rhs), matmul_bias, Gemma offset.
func.func @rmm_trans_bias_gemma() {
  %x_m = memref.alloc() : memref<5x40xf32>
  %x_u = memref.cast %x_m : memref<5x40xf32> to memref<*xf32>
  %seed_x = arith.constant 4123302 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<40xf32>
  %g_u = memref.cast %g_m : memref<40xf32> to memref<*xf32>
  %seed_g = arith.constant 4123303 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<20x40xf32>
  %w_u = memref.cast %w_m : memref<20x40xf32> to memref<*xf32>
  %seed_w = arith.constant 4123304 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 4123305 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<5x40xf32> to tensor<5x40xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<40xf32> to tensor<40xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<20x40xf32> to tensor<20x40xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xf32> to tensor<20xf32>
  %c_init = tensor.empty() : tensor<5x20xf32>
  %c_res = norm.rms_norm_matmul ins(%x : tensor<5x40xf32>) weight(%g : tensor<40xf32>) rhs(%w : tensor<20x40xf32>) matmul_bias(%mb : tensor<20xf32>)
         outs(%c_init : tensor<5x20xf32>) {weight_offset = 1.0 : f64, transpose_rhs}
         -> tensor<5x20xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<5x20xf32> to memref<5x20xf32>
  %c_buf_u = memref.cast %c_buf : memref<5x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 770 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %mb_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Rank-3 X (2x3x17), no gamma, eps outside the sqrt.
func.func @rmm_rank3() {
  %x_m = memref.alloc() : memref<2x3x17xf32>
  %x_u = memref.cast %x_m : memref<2x3x17xf32> to memref<*xf32>
  %seed_x = arith.constant 5197702 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w_m = memref.alloc() : memref<17x9xf32>
  %w_u = memref.cast %w_m : memref<17x9xf32> to memref<*xf32>
  %seed_w = arith.constant 5197703 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<2x3x17xf32> to tensor<2x3x17xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<17x9xf32> to tensor<17x9xf32>
  %c_init = tensor.empty() : tensor<2x3x9xf32>
  %c_res = norm.rms_norm_matmul ins(%x : tensor<2x3x17xf32>) rhs(%w : tensor<17x9xf32>)
         outs(%c_init : tensor<2x3x9xf32>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
         -> tensor<2x3x9xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<2x3x9xf32> to memref<2x3x9xf32>
  %c_buf_u = memref.cast %c_buf : memref<2x3x9xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 8 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %dummy_u, %w_u, %dummy_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// C = layer_norm(X) * W + b, W 33x20.
func.func @lnm_basic() {
  %x_m = memref.alloc() : memref<8x33xf32>
  %x_u = memref.cast %x_m : memref<8x33xf32> to memref<*xf32>
  %seed_x = arith.constant 4963002 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 4963003 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<33xf32>
  %b_u = memref.cast %b_m : memref<33xf32> to memref<*xf32>
  %seed_b = arith.constant 4963004 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<33x20xf32>
  %w_u = memref.cast %w_m : memref<33x20xf32> to memref<*xf32>
  %seed_w = arith.constant 4963005 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 4963006 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<8x33xf32> to tensor<8x33xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf32> to tensor<33xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<33xf32> to tensor<33xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<33x20xf32> to tensor<33x20xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xf32> to tensor<20xf32>
  %c_init = tensor.empty() : tensor<8x20xf32>
  %c_res = norm.layer_norm_matmul ins(%x : tensor<8x33xf32>) weight(%g : tensor<33xf32>) bias(%b : tensor<33xf32>) rhs(%w : tensor<33x20xf32>) matmul_bias(%mb : tensor<20xf32>)
         outs(%c_init : tensor<8x20xf32>)
         -> tensor<8x20xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<8x20xf32> to memref<8x20xf32>
  %c_buf_u = memref.cast %c_buf : memref<8x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 262 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %g_u, %b_u, %w_u, %mb_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// transpose_rhs, no gamma/beta/bias.
func.func @lnm_trans() {
  %x_m = memref.alloc() : memref<3x17xf32>
  %x_u = memref.cast %x_m : memref<3x17xf32> to memref<*xf32>
  %seed_x = arith.constant 4356802 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %w_m = memref.alloc() : memref<11x17xf32>
  %w_u = memref.cast %w_m : memref<11x17xf32> to memref<*xf32>
  %seed_w = arith.constant 4356803 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<3x17xf32> to tensor<3x17xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<11x17xf32> to tensor<11x17xf32>
  %c_init = tensor.empty() : tensor<3x11xf32>
  %c_res = norm.layer_norm_matmul ins(%x : tensor<3x17xf32>) rhs(%w : tensor<11x17xf32>)
         outs(%c_init : tensor<3x11xf32>) {transpose_rhs}
         -> tensor<3x11xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<3x11xf32> to memref<3x11xf32>
  %c_buf_u = memref.cast %c_buf : memref<3x11xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 512 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %dummy_u, %dummy_u, %w_u, %dummy_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Rows with |mean| >> std (row 1: 1e4 * scale), transpose_rhs + bias.
func.func @lnm_cancel() {
  %x_m = memref.alloc() : memref<4x24xf32>
  %x_u = memref.cast %x_m : memref<4x24xf32> to memref<*xf32>
  %seed_x = arith.constant 4053902 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<24xf32>
  %g_u = memref.cast %g_m : memref<24xf32> to memref<*xf32>
  %seed_g = arith.constant 4053903 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<24xf32>
  %b_u = memref.cast %b_m : memref<24xf32> to memref<*xf32>
  %seed_b = arith.constant 4053904 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<16x24xf32>
  %w_u = memref.cast %w_m : memref<16x24xf32> to memref<*xf32>
  %seed_w = arith.constant 4053905 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<16xf32>
  %mb_u = memref.cast %mb_m : memref<16xf32> to memref<*xf32>
  %seed_mb = arith.constant 4053906 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x24xf32> to tensor<4x24xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<24xf32> to tensor<24xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<24xf32> to tensor<24xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<16x24xf32> to tensor<16x24xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<16xf32> to tensor<16xf32>
  %c_init = tensor.empty() : tensor<4x16xf32>
  %c_res = norm.layer_norm_matmul ins(%x : tensor<4x24xf32>) weight(%g : tensor<24xf32>) bias(%b : tensor<24xf32>) rhs(%w : tensor<16x24xf32>) matmul_bias(%mb : tensor<16xf32>)
         outs(%c_init : tensor<4x16xf32>) {transpose_rhs}
         -> tensor<4x16xf32>
  %c_buf = bufferization.to_buffer %c_res : tensor<4x16xf32> to memref<4x16xf32>
  %c_buf_u = memref.cast %c_buf : memref<4x16xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 774 : i64
  func.call @norm_test_check_layer_norm_matmul_f32(%x_u, %g_u, %b_u, %w_u, %mb_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Y, S = rms_norm(A * W + b + R).
func.func @mrn_basic() {
  %a_m = memref.alloc() : memref<8x24xf32>
  %a_u = memref.cast %a_m : memref<8x24xf32> to memref<*xf32>
  %seed_a = arith.constant 6026002 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<24x20xf32>
  %w_u = memref.cast %w_m : memref<24x20xf32> to memref<*xf32>
  %seed_w = arith.constant 6026003 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 6026004 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<8x20xf32>
  %r_u = memref.cast %r_m : memref<8x20xf32> to memref<*xf32>
  %seed_r = arith.constant 6026005 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<20xf32>
  %g_u = memref.cast %g_m : memref<20xf32> to memref<*xf32>
  %seed_g = arith.constant 6026006 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<8x24xf32> to tensor<8x24xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<24x20xf32> to tensor<24x20xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xf32> to tensor<20xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<8x20xf32> to tensor<8x20xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<20xf32> to tensor<20xf32>
  %y_init = tensor.empty() : tensor<8x20xf32>
  %s_init = tensor.empty() : tensor<8x20xf32>
  %y_res, %s_res = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) matmul_bias(%mb : tensor<20xf32>) residual(%r : tensor<8x20xf32>) weight(%g : tensor<20xf32>)
         outs(%y_init : tensor<8x20xf32>) sum_outs(%s_init : tensor<8x20xf32>)
         -> tensor<8x20xf32>, tensor<8x20xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<8x20xf32> to memref<8x20xf32>
  %y_buf_u = memref.cast %y_buf : memref<8x20xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<8x20xf32> to memref<8x20xf32>
  %s_buf_u = memref.cast %s_buf : memref<8x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_matmul_rms_norm_f32(%a_u, %w_u, %mb_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// No bias, no residual, no gamma, N = 17.
func.func @mrn_plain() {
  %a_m = memref.alloc() : memref<4x16xf32>
  %a_u = memref.cast %a_m : memref<4x16xf32> to memref<*xf32>
  %seed_a = arith.constant 6476002 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<16x17xf32>
  %w_u = memref.cast %w_m : memref<16x17xf32> to memref<*xf32>
  %seed_w = arith.constant 6476003 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<4x16xf32> to tensor<4x16xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<16x17xf32> to tensor<16x17xf32>
  %y_init = tensor.empty() : tensor<4x17xf32>
  %y_res = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x17xf32>)
         outs(%y_init : tensor<4x17xf32>)
         -> tensor<4x17xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x17xf32> to memref<4x17xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x17xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_matmul_rms_norm_f32(%a_u, %w_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// transpose_rhs, residual, Gemma offset, eps outside the sqrt.
func.func @mrn_trans_gemma() {
  %a_m = memref.alloc() : memref<3x40xf32>
  %a_u = memref.cast %a_m : memref<3x40xf32> to memref<*xf32>
  %seed_a = arith.constant 5002202 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<33x40xf32>
  %w_u = memref.cast %w_m : memref<33x40xf32> to memref<*xf32>
  %seed_w = arith.constant 5002203 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<3x33xf32>
  %r_u = memref.cast %r_m : memref<3x33xf32> to memref<*xf32>
  %seed_r = arith.constant 5002204 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g_m : memref<33xf32> to memref<*xf32>
  %seed_g = arith.constant 5002205 : i64
  %mean_g = arith.constant 0.0 : f64
  %scale_g = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<3x40xf32> to tensor<3x40xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<33x40xf32> to tensor<33x40xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<3x33xf32> to tensor<3x33xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<33xf32> to tensor<33xf32>
  %y_init = tensor.empty() : tensor<3x33xf32>
  %y_res = norm.matmul_rms_norm ins(%a : tensor<3x40xf32>) rhs(%w : tensor<33x40xf32>) residual(%r : tensor<3x33xf32>) weight(%g : tensor<33xf32>)
         outs(%y_init : tensor<3x33xf32>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f64, eps_mode = #norm.eps_mode<outside_sqrt>, transpose_rhs}
         -> tensor<3x33xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<3x33xf32> to memref<3x33xf32>
  %y_buf_u = memref.cast %y_buf : memref<3x33xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 523 : i64
  func.call @norm_test_check_matmul_rms_norm_f32(%a_u, %w_u, %dummy_u, %r_u, %g_u, %y_buf_u, %dummy_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Y, S = layer_norm(A * W^T + b + R), W 20x24.
func.func @mln_basic() {
  %a_m = memref.alloc() : memref<6x24xf32>
  %a_u = memref.cast %a_m : memref<6x24xf32> to memref<*xf32>
  %seed_a = arith.constant 5132502 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<20x24xf32>
  %w_u = memref.cast %w_m : memref<20x24xf32> to memref<*xf32>
  %seed_w = arith.constant 5132503 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xf32>
  %mb_u = memref.cast %mb_m : memref<20xf32> to memref<*xf32>
  %seed_mb = arith.constant 5132504 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xf32>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<6x20xf32>
  %r_u = memref.cast %r_m : memref<6x20xf32> to memref<*xf32>
  %seed_r = arith.constant 5132505 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<20xf32>
  %g_u = memref.cast %g_m : memref<20xf32> to memref<*xf32>
  %seed_g = arith.constant 5132506 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<20xf32>
  %b_u = memref.cast %b_m : memref<20xf32> to memref<*xf32>
  %seed_b = arith.constant 5132507 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<6x24xf32> to tensor<6x24xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<20x24xf32> to tensor<20x24xf32>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xf32> to tensor<20xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<6x20xf32> to tensor<6x20xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<20xf32> to tensor<20xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<20xf32> to tensor<20xf32>
  %y_init = tensor.empty() : tensor<6x20xf32>
  %s_init = tensor.empty() : tensor<6x20xf32>
  %y_res, %s_res = norm.matmul_layer_norm ins(%a : tensor<6x24xf32>) rhs(%w : tensor<20x24xf32>) matmul_bias(%mb : tensor<20xf32>) residual(%r : tensor<6x20xf32>) weight(%g : tensor<20xf32>) bias(%b : tensor<20xf32>)
         outs(%y_init : tensor<6x20xf32>) sum_outs(%s_init : tensor<6x20xf32>) {transpose_rhs}
         -> tensor<6x20xf32>, tensor<6x20xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<6x20xf32> to memref<6x20xf32>
  %y_buf_u = memref.cast %y_buf : memref<6x20xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<6x20xf32> to memref<6x20xf32>
  %s_buf_u = memref.cast %s_buf : memref<6x20xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 807 : i64
  func.call @norm_test_check_matmul_layer_norm_f32(%a_u, %w_u, %mb_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// Residual rows with |mean| >> std; sum returned.
func.func @mln_cancel() {
  %a_m = memref.alloc() : memref<4x12xf32>
  %a_u = memref.cast %a_m : memref<4x12xf32> to memref<*xf32>
  %seed_a = arith.constant 5580802 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<12x36xf32>
  %w_u = memref.cast %w_m : memref<12x36xf32> to memref<*xf32>
  %seed_w = arith.constant 5580803 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<4x36xf32>
  %r_u = memref.cast %r_m : memref<4x36xf32> to memref<*xf32>
  %seed_r = arith.constant 5580804 : i64
  %mean_r = arith.constant 0.5 : f64
  %scale_r = arith.constant 0.5 : f64
  %axis_r = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%r_u, %seed_r, %mean_r, %scale_r, %axis_r) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<36xf32>
  %g_u = memref.cast %g_m : memref<36xf32> to memref<*xf32>
  %seed_g = arith.constant 5580805 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<36xf32>
  %b_u = memref.cast %b_m : memref<36xf32> to memref<*xf32>
  %seed_b = arith.constant 5580806 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<4x12xf32> to tensor<4x12xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<12x36xf32> to tensor<12x36xf32>
  %r = bufferization.to_tensor %r_m restrict : memref<4x36xf32> to tensor<4x36xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<36xf32> to tensor<36xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<36xf32> to tensor<36xf32>
  %y_init = tensor.empty() : tensor<4x36xf32>
  %s_init = tensor.empty() : tensor<4x36xf32>
  %y_res, %s_res = norm.matmul_layer_norm ins(%a : tensor<4x12xf32>) rhs(%w : tensor<12x36xf32>) residual(%r : tensor<4x36xf32>) weight(%g : tensor<36xf32>) bias(%b : tensor<36xf32>)
         outs(%y_init : tensor<4x36xf32>) sum_outs(%s_init : tensor<4x36xf32>)
         -> tensor<4x36xf32>, tensor<4x36xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x36xf32> to memref<4x36xf32>
  %y_buf_u = memref.cast %y_buf : memref<4x36xf32> to memref<*xf32>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x36xf32> to memref<4x36xf32>
  %s_buf_u = memref.cast %s_buf : memref<4x36xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 39 : i64
  func.call @norm_test_check_matmul_layer_norm_f32(%a_u, %w_u, %dummy_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// No optional operands.
func.func @mln_plain() {
  %a_m = memref.alloc() : memref<5x8xf32>
  %a_u = memref.cast %a_m : memref<5x8xf32> to memref<*xf32>
  %seed_a = arith.constant 5731302 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf32>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<8x24xf32>
  %w_u = memref.cast %w_m : memref<8x24xf32> to memref<*xf32>
  %seed_w = arith.constant 5731303 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f32(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf32>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<5x8xf32> to tensor<5x8xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<8x24xf32> to tensor<8x24xf32>
  %y_init = tensor.empty() : tensor<5x24xf32>
  %y_res = norm.matmul_layer_norm ins(%a : tensor<5x8xf32>) rhs(%w : tensor<8x24xf32>)
         outs(%y_init : tensor<5x24xf32>)
         -> tensor<5x24xf32>
  %y_buf = bufferization.to_buffer %y_res : tensor<5x24xf32> to memref<5x24xf32>
  %y_buf_u = memref.cast %y_buf : memref<5x24xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_matmul_layer_norm_f32(%a_u, %w_u, %dummy_u, %dummy_u, %dummy_u, %dummy_u, %y_buf_u, %dummy_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}

// bf16 fused norm -> matmul.
func.func @rmm_bf16() {
  %x_m = memref.alloc() : memref<8x33xbf16>
  %x_u = memref.cast %x_m : memref<8x33xbf16> to memref<*xbf16>
  %seed_x = arith.constant 1486202 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<33xbf16>
  %g_u = memref.cast %g_m : memref<33xbf16> to memref<*xbf16>
  %seed_g = arith.constant 1486203 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<33x20xbf16>
  %w_u = memref.cast %w_m : memref<33x20xbf16> to memref<*xbf16>
  %seed_w = arith.constant 1486204 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_bf16(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xbf16>
  %mb_u = memref.cast %mb_m : memref<20xbf16> to memref<*xbf16>
  %seed_mb = arith.constant 1486205 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<8x33xbf16> to tensor<8x33xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<33xbf16> to tensor<33xbf16>
  %w = bufferization.to_tensor %w_m restrict : memref<33x20xbf16> to tensor<33x20xbf16>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xbf16> to tensor<20xbf16>
  %c_init = tensor.empty() : tensor<8x20xbf16>
  %c_res = norm.rms_norm_matmul ins(%x : tensor<8x33xbf16>) weight(%g : tensor<33xbf16>) rhs(%w : tensor<33x20xbf16>) matmul_bias(%mb : tensor<20xbf16>)
         outs(%c_init : tensor<8x20xbf16>)
         -> tensor<8x20xbf16>
  %c_buf = bufferization.to_buffer %c_res : tensor<8x20xbf16> to memref<8x20xbf16>
  %c_buf_u = memref.cast %c_buf : memref<8x20xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %mb_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  return
}

// f16 fused LayerNorm -> matmul, transpose_rhs.
func.func @lnm_f16() {
  %x_m = memref.alloc() : memref<4x40xf16>
  %x_u = memref.cast %x_m : memref<4x40xf16> to memref<*xf16>
  %seed_x = arith.constant 779602 : i64
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  %axis_x = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed_x, %mean_x, %scale_x, %axis_x) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<40xf16>
  %g_u = memref.cast %g_m : memref<40xf16> to memref<*xf16>
  %seed_g = arith.constant 779603 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<40xf16>
  %b_u = memref.cast %b_m : memref<40xf16> to memref<*xf16>
  %seed_b = arith.constant 779604 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf16>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<24x40xf16>
  %w_u = memref.cast %w_m : memref<24x40xf16> to memref<*xf16>
  %seed_w = arith.constant 779605 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f16(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<4x40xf16> to tensor<4x40xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<40xf16> to tensor<40xf16>
  %b = bufferization.to_tensor %b_m restrict : memref<40xf16> to tensor<40xf16>
  %w = bufferization.to_tensor %w_m restrict : memref<24x40xf16> to tensor<24x40xf16>
  %c_init = tensor.empty() : tensor<4x24xf16>
  %c_res = norm.layer_norm_matmul ins(%x : tensor<4x40xf16>) weight(%g : tensor<40xf16>) bias(%b : tensor<40xf16>) rhs(%w : tensor<24x40xf16>)
         outs(%c_init : tensor<4x24xf16>) {transpose_rhs}
         -> tensor<4x24xf16>
  %c_buf = bufferization.to_buffer %c_res : tensor<4x24xf16> to memref<4x24xf16>
  %c_buf_u = memref.cast %c_buf : memref<4x24xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 518 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %b_u, %w_u, %dummy_u, %c_buf_u, %eps, %offset, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  return
}

// bf16 fused matmul -> RMSNorm with residual and sum.
func.func @mrn_bf16() {
  %a_m = memref.alloc() : memref<8x24xbf16>
  %a_u = memref.cast %a_m : memref<8x24xbf16> to memref<*xbf16>
  %seed_a = arith.constant 3456002 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<24x20xbf16>
  %w_u = memref.cast %w_m : memref<24x20xbf16> to memref<*xbf16>
  %seed_w = arith.constant 3456003 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_bf16(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb_m = memref.alloc() : memref<20xbf16>
  %mb_u = memref.cast %mb_m : memref<20xbf16> to memref<*xbf16>
  %seed_mb = arith.constant 3456004 : i64
  %mean_mb = arith.constant 0.1 : f64
  %scale_mb = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %seed_mb, %mean_mb, %scale_mb) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<8x20xbf16>
  %r_u = memref.cast %r_m : memref<8x20xbf16> to memref<*xbf16>
  %seed_r = arith.constant 3456005 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<20xbf16>
  %g_u = memref.cast %g_m : memref<20xbf16> to memref<*xbf16>
  %seed_g = arith.constant 3456006 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xbf16>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<8x24xbf16> to tensor<8x24xbf16>
  %w = bufferization.to_tensor %w_m restrict : memref<24x20xbf16> to tensor<24x20xbf16>
  %mb = bufferization.to_tensor %mb_m restrict : memref<20xbf16> to tensor<20xbf16>
  %r = bufferization.to_tensor %r_m restrict : memref<8x20xbf16> to tensor<8x20xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<20xbf16> to tensor<20xbf16>
  %y_init = tensor.empty() : tensor<8x20xbf16>
  %s_init = tensor.empty() : tensor<8x20xbf16>
  %y_res, %s_res = norm.matmul_rms_norm ins(%a : tensor<8x24xbf16>) rhs(%w : tensor<24x20xbf16>) matmul_bias(%mb : tensor<20xbf16>) residual(%r : tensor<8x20xbf16>) weight(%g : tensor<20xbf16>)
         outs(%y_init : tensor<8x20xbf16>) sum_outs(%s_init : tensor<8x20xbf16>)
         -> tensor<8x20xbf16>, tensor<8x20xbf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<8x20xbf16> to memref<8x20xbf16>
  %y_buf_u = memref.cast %y_buf : memref<8x20xbf16> to memref<*xbf16>
  %s_buf = bufferization.to_buffer %s_res : tensor<8x20xbf16> to memref<8x20xbf16>
  %s_buf_u = memref.cast %s_buf : memref<8x20xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%a_u, %w_u, %mb_u, %r_u, %g_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  return
}

// f16 fused matmul -> LayerNorm with residual and sum.
func.func @mln_f16() {
  %a_m = memref.alloc() : memref<4x32xf16>
  %a_u = memref.cast %a_m : memref<4x32xf16> to memref<*xf16>
  %seed_a = arith.constant 5276302 : i64
  %mean_a = arith.constant 0.2 : f64
  %scale_a = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%a_u, %seed_a, %mean_a, %scale_a) : (memref<*xf16>, i64, f64, f64) -> ()
  %w_m = memref.alloc() : memref<32x24xf16>
  %w_u = memref.cast %w_m : memref<32x24xf16> to memref<*xf16>
  %seed_w = arith.constant 5276303 : i64
  %mean_w = arith.constant 0.0 : f64
  %scale_w = arith.constant 0.3 : f64
  func.call @norm_test_fill_f16(%w_u, %seed_w, %mean_w, %scale_w) : (memref<*xf16>, i64, f64, f64) -> ()
  %r_m = memref.alloc() : memref<4x24xf16>
  %r_u = memref.cast %r_m : memref<4x24xf16> to memref<*xf16>
  %seed_r = arith.constant 5276304 : i64
  %mean_r = arith.constant 0.1 : f64
  %scale_r = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %seed_r, %mean_r, %scale_r) : (memref<*xf16>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<24xf16>
  %g_u = memref.cast %g_m : memref<24xf16> to memref<*xf16>
  %seed_g = arith.constant 5276305 : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf16>, i64, f64, f64) -> ()
  %b_m = memref.alloc() : memref<24xf16>
  %b_u = memref.cast %b_m : memref<24xf16> to memref<*xf16>
  %seed_b = arith.constant 5276306 : i64
  %mean_b = arith.constant 0.0 : f64
  %scale_b = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %seed_b, %mean_b, %scale_b) : (memref<*xf16>, i64, f64, f64) -> ()
  %a = bufferization.to_tensor %a_m restrict : memref<4x32xf16> to tensor<4x32xf16>
  %w = bufferization.to_tensor %w_m restrict : memref<32x24xf16> to tensor<32x24xf16>
  %r = bufferization.to_tensor %r_m restrict : memref<4x24xf16> to tensor<4x24xf16>
  %g = bufferization.to_tensor %g_m restrict : memref<24xf16> to tensor<24xf16>
  %b = bufferization.to_tensor %b_m restrict : memref<24xf16> to tensor<24xf16>
  %y_init = tensor.empty() : tensor<4x24xf16>
  %s_init = tensor.empty() : tensor<4x24xf16>
  %y_res, %s_res = norm.matmul_layer_norm ins(%a : tensor<4x32xf16>) rhs(%w : tensor<32x24xf16>) residual(%r : tensor<4x24xf16>) weight(%g : tensor<24xf16>) bias(%b : tensor<24xf16>)
         outs(%y_init : tensor<4x24xf16>) sum_outs(%s_init : tensor<4x24xf16>)
         -> tensor<4x24xf16>, tensor<4x24xf16>
  %y_buf = bufferization.to_buffer %y_res : tensor<4x24xf16> to memref<4x24xf16>
  %y_buf_u = memref.cast %y_buf : memref<4x24xf16> to memref<*xf16>
  %s_buf = bufferization.to_buffer %s_res : tensor<4x24xf16> to memref<4x24xf16>
  %s_buf_u = memref.cast %s_buf : memref<4x24xf16> to memref<*xf16>
  %dummy = memref.alloc() : memref<1xf16>
  %dummy_u = memref.cast %dummy : memref<1xf16> to memref<*xf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 39 : i64
  func.call @norm_test_check_matmul_layer_norm_f16(%a_u, %w_u, %dummy_u, %r_u, %g_u, %b_u, %y_buf_u, %s_buf_u, %eps, %offset, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  return
}

// K = 0 with W as N×K and 3 rows: the GEMV's K-blocked dot products run one
// (empty) K block, so the epilogue still writes C = bias.
func.func @rmm_t_k0() {
  %x_m = memref.alloc() : memref<3x0xf32>
  %x_u = memref.cast %x_m : memref<3x0xf32> to memref<*xf32>
  %g_m = memref.alloc() : memref<0xf32>
  %g_u = memref.cast %g_m : memref<0xf32> to memref<*xf32>
  %w_m = memref.alloc() : memref<8x0xf32>
  %w_u = memref.cast %w_m : memref<8x0xf32> to memref<*xf32>
  %mb_m = memref.alloc() : memref<8xf32>
  %mb_u = memref.cast %mb_m : memref<8xf32> to memref<*xf32>
  %seed = arith.constant 2454903 : i64
  %mean = arith.constant 0.25 : f64
  %scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%mb_u, %seed, %mean, %scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c_m = memref.alloc() : memref<3x8xf32>
  %c_u = memref.cast %c_m : memref<3x8xf32> to memref<*xf32>
  %x = memref.cast %x_m : memref<3x0xf32> to memref<3x?xf32>
  %g = memref.cast %g_m : memref<0xf32> to memref<?xf32>
  %w = memref.cast %w_m : memref<8x0xf32> to memref<8x?xf32>
  norm.rms_norm_matmul ins(%x : memref<3x?xf32>) weight(%g : memref<?xf32>) rhs(%w : memref<8x?xf32>)
      matmul_bias(%mb_m : memref<8xf32>) outs(%c_m : memref<3x8xf32>) {transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 770 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%x_u, %g_u, %w_u, %mb_u, %c_u, %eps, %offset, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}
