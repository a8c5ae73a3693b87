// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="outline-kernels=false" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu --mlir-print-ir-after=norm-outline-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTLINED

// Two layers with the same body, as a whole-model export repeats them,
// share one outlined row kernel (norm-outline-kernels); it runs on other
// row counts (a dynamic dim) and other weights at each call, and every
// result matches the float64 reference (test/lib/Runtime), with and
// without outlining.
// OUTLINED-COUNT-1: func.func private @__norm_kernel_{{[0-9]+}}_norm_rms_norm(
// OUTLINED-NOT:     func.func private @__norm_kernel_{{[0-9]+}}_norm_rms_norm(

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [5x64] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [9x64] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [3x64] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @layer_a(%x: tensor<?x64xf32>, %g: tensor<64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %y = norm.rms_norm ins(%x : tensor<?x64xf32>) weight(%g : tensor<64xf32>)
      outs(%e : tensor<?x64xf32>) {epsilon = 1.0e-06 : f64} -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

func.func @layer_b(%x: tensor<?x64xf32>, %g: tensor<64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %y = norm.rms_norm ins(%x : tensor<?x64xf32>) weight(%g : tensor<64xf32>)
      outs(%e : tensor<?x64xf32>) {epsilon = 1.0e-06 : f64} -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Runs @layer_a (or @layer_b with %b) on %rows seeded rows and checks it.
func.func @run(%rows: index, %seed: i64, %b: i1) {
  %x_m = memref.alloc(%rows) : memref<?x64xf32>
  %x_u = memref.cast %x_m : memref<?x64xf32> to memref<*xf32>
  %mean_x = arith.constant 0.5 : f64
  %scale_x = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %seed, %mean_x, %scale_x) : (memref<*xf32>, i64, f64, f64) -> ()
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %one = arith.constant 1 : i64
  %seed_g = arith.addi %seed, %one : i64
  %mean_g = arith.constant 1.0 : f64
  %scale_g = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %mean_g, %scale_g) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<?x64xf32> to tensor<?x64xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %y = scf.if %b -> tensor<?x64xf32> {
    %yb = func.call @layer_b(%x, %g) : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
    scf.yield %yb : tensor<?x64xf32>
  } else {
    %ya = func.call @layer_a(%x, %g) : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
    scf.yield %ya : tensor<?x64xf32>
  }
  %y_buf = bufferization.to_buffer %y : tensor<?x64xf32> to memref<?x64xf32>
  %y_u = memref.cast %y_buf : memref<?x64xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  %axis = arith.constant 1 : i64
  %partial = arith.constant 1.0 : f64
  func.call @norm_test_check_rms_norm_f32(%x_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %s1 = arith.constant 81001 : i64
  %s2 = arith.constant 81011 : i64
  %s3 = arith.constant 81021 : i64
  %false = arith.constant false
  %true = arith.constant true
  func.call @run(%c5, %s1, %false) : (index, i64, i1) -> ()
  func.call @run(%c9, %s2, %true) : (index, i64, i1) -> ()
  func.call @run(%c3, %s3, %false) : (index, i64, i1) -> ()
  return
}
