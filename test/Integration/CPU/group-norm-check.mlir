// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// The GroupNorm checker of the test runtime (norm_test_check_group_norm_*,
// test/lib/Runtime), which the GPU execution test GPU/CUDA/group-norm.mlir
// and its emulated twin rely on: it passes the CPU kernel's result and
// fails when the result is not the op's (checked with other groups, a
// statistic overwritten, a NaN in y) or the call is malformed (γ of the
// wrong size, a flag it does not know, groups that do not divide C), each
// with exactly one line.

// CHECK: {{^}}group_norm f32 [2x8x5x3] groups=4 gamma beta mean rstd: rel_err={{.*}} tol=1e-06 mean_err={{.*}} rstd_err={{.*}} PASS
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=2 gamma beta: rel_err={{.*}} tol=1e-06 FAIL
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=4 gamma beta mean rstd: rel_err={{.*}} tol=1e-06 mean_err={{.*}} rstd_err={{.*}} FAIL
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=4 gamma: rel_err=nan tol=1e-06 (gamma has 4 elements, expected 8) FAIL
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=4 residual gamma: rel_err=nan tol=1e-06 (flags other than gamma, beta, mean, rstd) FAIL
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=3: rel_err=nan tol=1e-06 (the input has no 3 groups of channels) FAIL
// CHECK-NEXT: {{^}}group_norm f32 [2x8x5x3] groups=4 gamma beta: rel_err=nan tol=1e-06 FAIL
// CHECK-NOT: {{.}}

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_group_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  %x = memref.alloc() : memref<2x8x5x3xf32>
  %x_u = memref.cast %x : memref<2x8x5x3xf32> to memref<*xf32>
  %seed = arith.constant 2671 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%x_u, %seed, %half, %one) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = memref.alloc() : memref<8xf32>
  %g_u = memref.cast %g : memref<8xf32> to memref<*xf32>
  %b = memref.alloc() : memref<8xf32>
  %b_u = memref.cast %b : memref<8xf32> to memref<*xf32>
  %seed_g = arith.constant 2672 : i64
  %seed_b = arith.constant 2673 : i64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %seed_b, %zero, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = memref.alloc() : memref<2x8x5x3xf32>
  %y_u = memref.cast %y : memref<2x8x5x3xf32> to memref<*xf32>
  %m = memref.alloc() : memref<2x4xf32>
  %m_u = memref.cast %m : memref<2x4xf32> to memref<*xf32>
  %r = memref.alloc() : memref<2x4xf32>
  %r_u = memref.cast %r : memref<2x4xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<2x8x5x3xf32>) weight(%g : memref<8xf32>)
      bias(%b : memref<8xf32>) outs(%y : memref<2x8x5x3xf32>)
      mean_outs(%m : memref<2x4xf32>) rstd_outs(%r : memref<2x4xf32>) {num_groups = 4 : i64}
  %eps = arith.constant 1.0e-05 : f64
  %g2 = arith.constant 2 : i64
  %g3 = arith.constant 3 : i64
  %g4 = arith.constant 4 : i64
  %gamma_beta = arith.constant 6 : i64
  %all = arith.constant 198 : i64
  // The kernel's result: PASS.
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g4, %eps, %all)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // Checked as a GroupNorm of 2 groups: y differs.
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g2, %eps, %gamma_beta)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // One rstd overwritten (y still right).
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %rstd = memref.load %r[%c0, %c3] : memref<2x4xf32>
  %wrong = arith.constant 1.001 : f32
  %rstd_w = arith.mulf %rstd, %wrong : f32
  memref.store %rstd_w, %r[%c0, %c3] : memref<2x4xf32>
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g4, %eps, %all)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // γ of 4 elements for 8 channels.
  %m4 = memref.subview %g[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %m4_u = memref.cast %m4 : memref<4xf32, strided<[1]>> to memref<*xf32>
  %gamma = arith.constant 2 : i64
  func.call @norm_test_check_group_norm_f32(%x_u, %m4_u, %b_u, %y_u, %m_u, %r_u, %g4, %eps, %gamma)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // A residual, which GroupNorm does not have.
  %residual = arith.constant 3 : i64
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g4, %eps, %residual)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // 3 groups of 8 channels.
  %none = arith.constant 0 : i64
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g3, %eps, %none)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  // A NaN in y.
  %nan = arith.constant 0x7FC00000 : f32
  %c1 = arith.constant 1 : index
  memref.store %nan, %y[%c1, %c3, %c1, %c1] : memref<2x8x5x3xf32>
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %g4, %eps, %gamma_beta)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  return
}
