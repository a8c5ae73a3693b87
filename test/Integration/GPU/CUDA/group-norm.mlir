// GPU execution of norm.group_norm (InstanceNorm: num_groups = C) through
// --norm-lower-to-nvvm: the row kernel over the [N·G, C/G·ΠS] rows, γ/β
// per channel in the normalize step, each result compared with the float64
// reference of test/lib/Runtime (referenceGroupNorm: y, and mean/rstd of
// shape [N, G]) at DESIGN §4's tolerances. Emulated/group-norm.test runs
// the same kernels on host threads where there is no GPU.
//
// Inputs are filled per group (a row of the fill is one (sample, group)
// run, through an expand_shape view [N, G, C/G, S...]), so the group of
// sample 0, group 1 has |mean| = 10⁴·std. Cases:
//   - f32 [2, 8, 5, 3], G = 4, γ and β: a static row of 30 (2-element
//     vectors; a held row);
//   - f32 [?, 6, ?], G = 2, γ, mean and rstd, ε = 1e-6: a dynamic batch and
//     spatial size, run at S = 64 (rows of 192: the vector kernel) and
//     S = 37 (rows of 111, odd: the scalar kernel);
//   - f16 InstanceNorm [?, 16, ?] (G = C), γ and β, mean and rstd (f32
//     statistics): S = 1000 (8-element vectors) and S = 77 (scalar);
//   - f16 [2, 6, 9, 5], G = 3, no γ or β: a static row of 90 (2-element
//     vectors; chunks that cross channels);
//   - bf16 [4, 32, 3, 3], G = 8, β only.
// Dynamic rows take a warp below block-row-threshold and a block above it;
// the third RUN line (and Emulated/group-norm.test's second) sets the
// threshold to 64, so every dynamic row here runs on a block (vector and
// scalar) and no row is held in registers.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=0 block-row-threshold=64}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}group_norm f32 [2x8x5x3] groups=4 gamma beta: rel_err={{.*}} tol=1e-06 PASS
// CHECK-NEXT: {{^}}group_norm f32 [3x6x64] groups=2 gamma mean rstd: rel_err={{.*}} tol=1e-06 mean_err={{.*}} rstd_err={{.*}} PASS
// CHECK-NEXT: {{^}}group_norm f32 [5x6x37] groups=2 gamma mean rstd: rel_err={{.*}} tol=1e-06 mean_err={{.*}} rstd_err={{.*}} PASS
// CHECK-NEXT: {{^}}group_norm f16 [2x16x1000] groups=16 gamma beta mean rstd: rel_err={{.*}} tol=2e-03 mean_err={{.*}} rstd_err={{.*}} PASS
// CHECK-NEXT: {{^}}group_norm f16 [3x16x77] groups=16 gamma beta mean rstd: rel_err={{.*}} tol=2e-03 mean_err={{.*}} rstd_err={{.*}} PASS
// CHECK-NEXT: {{^}}group_norm f16 [2x6x9x5] groups=3: rel_err={{.*}} tol=2e-03 PASS
// CHECK-NEXT: {{^}}group_norm bf16 [4x32x3x3] groups=8 beta: rel_err={{.*}} tol=1e-02 PASS
// CHECK-NOT: FAIL

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_group_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_group_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_group_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @gn_f32() : () -> ()
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c37 = arith.constant 37 : index
  %c64 = arith.constant 64 : index
  %c77 = arith.constant 77 : index
  %c1000 = arith.constant 1000 : index
  %seed1 = arith.constant 2611 : i64
  %seed2 = arith.constant 2621 : i64
  func.call @gn_dynamic_f32(%c3, %c64, %seed1) : (index, index, i64) -> ()
  func.call @gn_dynamic_f32(%c5, %c37, %seed2) : (index, index, i64) -> ()
  %seed3 = arith.constant 2631 : i64
  %seed4 = arith.constant 2641 : i64
  func.call @in_dynamic_f16(%c2, %c1000, %seed3) : (index, index, i64) -> ()
  func.call @in_dynamic_f16(%c3, %c77, %seed4) : (index, index, i64) -> ()
  func.call @gn_plain_f16() : () -> ()
  func.call @gn_beta_bf16() : () -> ()
  return
}

// f32 [2, 8, 5, 3], G = 4, γ and β.
func.func @gn_f32() {
  %x = gpu.alloc host_shared () : memref<2x8x5x3xf32>
  %x_u = memref.cast %x : memref<2x8x5x3xf32> to memref<*xf32>
  %xg = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 4, 2, 5, 3] : memref<2x8x5x3xf32> into memref<2x4x2x5x3xf32>
  %xg_u = memref.cast %xg : memref<2x4x2x5x3xf32> to memref<*xf32>
  %seed = arith.constant 2601 : i64
  %mean = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%xg_u, %seed, %mean, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<8xf32>
  %g_u = memref.cast %g : memref<8xf32> to memref<*xf32>
  %b = gpu.alloc host_shared () : memref<8xf32>
  %b_u = memref.cast %b : memref<8xf32> to memref<*xf32>
  %seed_g = arith.constant 2602 : i64
  %seed_b = arith.constant 2603 : i64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %seed_b, %zero, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<2x8x5x3xf32>
  %y_u = memref.cast %y : memref<2x8x5x3xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<2x8x5x3xf32>) weight(%g : memref<8xf32>)
      bias(%b : memref<8xf32>) outs(%y : memref<2x8x5x3xf32>) {num_groups = 4 : i64}
  %groups = arith.constant 4 : i64
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 6 : i64
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %b_u, %y_u, %d_u, %d_u, %groups, %eps, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  gpu.dealloc %x : memref<2x8x5x3xf32>
  gpu.dealloc %g : memref<8xf32>
  gpu.dealloc %b : memref<8xf32>
  gpu.dealloc %y : memref<2x8x5x3xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

// f32 [n, 6, s], G = 2, γ, mean and rstd.
func.func @gn_dynamic_f32(%n: index, %s: index, %seed: i64) {
  %x = gpu.alloc host_shared (%n, %s) : memref<?x6x?xf32>
  %x_u = memref.cast %x : memref<?x6x?xf32> to memref<*xf32>
  %xg = memref.expand_shape %x [[0], [1, 2], [3]] output_shape [%n, 2, 3, %s] : memref<?x6x?xf32> into memref<?x2x3x?xf32>
  %xg_u = memref.cast %xg : memref<?x2x3x?xf32> to memref<*xf32>
  %mean = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%xg_u, %seed, %mean, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<6xf32>
  %g_u = memref.cast %g : memref<6xf32> to memref<*xf32>
  %c1 = arith.constant 1 : i64
  %seed_g = arith.addi %seed, %c1 : i64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared (%n, %s) : memref<?x6x?xf32>
  %y_u = memref.cast %y : memref<?x6x?xf32> to memref<*xf32>
  %m = gpu.alloc host_shared (%n) : memref<?x2xf32>
  %m_u = memref.cast %m : memref<?x2xf32> to memref<*xf32>
  %r = gpu.alloc host_shared (%n) : memref<?x2xf32>
  %r_u = memref.cast %r : memref<?x2xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<?x6x?xf32>) weight(%g : memref<6xf32>)
      outs(%y : memref<?x6x?xf32>) mean_outs(%m : memref<?x2xf32>)
      rstd_outs(%r : memref<?x2xf32>) {num_groups = 2 : i64, epsilon = 1.0e-06 : f64}
  %groups = arith.constant 2 : i64
  %eps = arith.constant 1.0e-06 : f64
  %flags = arith.constant 194 : i64
  func.call @norm_test_check_group_norm_f32(%x_u, %g_u, %d_u, %y_u, %m_u, %r_u, %groups, %eps, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  gpu.dealloc %x : memref<?x6x?xf32>
  gpu.dealloc %g : memref<6xf32>
  gpu.dealloc %y : memref<?x6x?xf32>
  gpu.dealloc %m : memref<?x2xf32>
  gpu.dealloc %r : memref<?x2xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

// f16 InstanceNorm [n, 16, s] (G = C = 16), γ and β, mean and rstd.
func.func @in_dynamic_f16(%n: index, %s: index, %seed: i64) {
  %x = gpu.alloc host_shared (%n, %s) : memref<?x16x?xf16>
  %x_u = memref.cast %x : memref<?x16x?xf16> to memref<*xf16>
  %mean = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %seed, %mean, %one, %axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<16xf16>
  %g_u = memref.cast %g : memref<16xf16> to memref<*xf16>
  %b = gpu.alloc host_shared () : memref<16xf16>
  %b_u = memref.cast %b : memref<16xf16> to memref<*xf16>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %seed_g = arith.addi %seed, %c1 : i64
  %seed_b = arith.addi %seed, %c2 : i64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %seed_g, %one, %quarter) : (memref<*xf16>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f16(%b_u, %seed_b, %zero, %quarter) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared (%n, %s) : memref<?x16x?xf16>
  %y_u = memref.cast %y : memref<?x16x?xf16> to memref<*xf16>
  %m = gpu.alloc host_shared (%n) : memref<?x16xf32>
  %m_u = memref.cast %m : memref<?x16xf32> to memref<*xf32>
  %r = gpu.alloc host_shared (%n) : memref<?x16xf32>
  %r_u = memref.cast %r : memref<?x16xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<?x16x?xf16>) weight(%g : memref<16xf16>)
      bias(%b : memref<16xf16>) outs(%y : memref<?x16x?xf16>) mean_outs(%m : memref<?x16xf32>)
      rstd_outs(%r : memref<?x16xf32>) {num_groups = 16 : i64}
  %groups = arith.constant 16 : i64
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_group_norm_f16(%x_u, %g_u, %b_u, %y_u, %m_u, %r_u, %groups, %eps, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  gpu.dealloc %x : memref<?x16x?xf16>
  gpu.dealloc %g : memref<16xf16>
  gpu.dealloc %b : memref<16xf16>
  gpu.dealloc %y : memref<?x16x?xf16>
  gpu.dealloc %m : memref<?x16xf32>
  gpu.dealloc %r : memref<?x16xf32>
  return
}

// f16 [2, 6, 9, 5], G = 3, no γ or β.
func.func @gn_plain_f16() {
  %x = gpu.alloc host_shared () : memref<2x6x9x5xf16>
  %x_u = memref.cast %x : memref<2x6x9x5xf16> to memref<*xf16>
  %xg = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 3, 2, 9, 5] : memref<2x6x9x5xf16> into memref<2x3x2x9x5xf16>
  %xg_u = memref.cast %xg : memref<2x3x2x9x5xf16> to memref<*xf16>
  %seed = arith.constant 2651 : i64
  %mean = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f16(%xg_u, %seed, %mean, %one, %axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %y = gpu.alloc host_shared () : memref<2x6x9x5xf16>
  %y_u = memref.cast %y : memref<2x6x9x5xf16> to memref<*xf16>
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<2x6x9x5xf16>) outs(%y : memref<2x6x9x5xf16>) {num_groups = 3 : i64}
  %groups = arith.constant 3 : i64
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_group_norm_f16(%x_u, %d_u, %d_u, %y_u, %df_u, %df_u, %groups, %eps, %flags)
      : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  gpu.dealloc %x : memref<2x6x9x5xf16>
  gpu.dealloc %y : memref<2x6x9x5xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

// bf16 [4, 32, 3, 3], G = 8, β only.
func.func @gn_beta_bf16() {
  %x = gpu.alloc host_shared () : memref<4x32x3x3xbf16>
  %x_u = memref.cast %x : memref<4x32x3x3xbf16> to memref<*xbf16>
  %xg = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [4, 8, 4, 3, 3] : memref<4x32x3x3xbf16> into memref<4x8x4x3x3xbf16>
  %xg_u = memref.cast %xg : memref<4x8x4x3x3xbf16> to memref<*xbf16>
  %seed = arith.constant 2661 : i64
  %mean = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%xg_u, %seed, %mean, %one, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %b = gpu.alloc host_shared () : memref<32xbf16>
  %b_u = memref.cast %b : memref<32xbf16> to memref<*xbf16>
  %seed_b = arith.constant 2662 : i64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%b_u, %seed_b, %zero, %quarter) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<4x32x3x3xbf16>
  %y_u = memref.cast %y : memref<4x32x3x3xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  norm.group_norm ins(%x : memref<4x32x3x3xbf16>) bias(%b : memref<32xbf16>)
      outs(%y : memref<4x32x3x3xbf16>) {num_groups = 8 : i64}
  %groups = arith.constant 8 : i64
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 4 : i64
  func.call @norm_test_check_group_norm_bf16(%x_u, %d_u, %b_u, %y_u, %df_u, %df_u, %groups, %eps, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, memref<*xf32>, i64, f64, i64) -> ()
  gpu.dealloc %x : memref<4x32x3x3xbf16>
  gpu.dealloc %b : memref<32xbf16>
  gpu.dealloc %y : memref<4x32x3x3xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  return
}
