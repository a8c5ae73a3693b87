// RUN: norm-opt %s --norm-lower-to-cpu="num-threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 num-threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=1 vector-options={pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 pipeline-rows=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Rows of 8- and 16-bit elements that end one element past a whole vector
// (33 = 2·16 + 1, 4·8 + 1) write their last element with a one-lane masked
// store. LLVM 22's AVX-512 back end wrote that store four bytes wide
// (norm-single-lane-masked-stores): three bytes of an fp8 row's successor,
// two of a bf16 row's (target=avx512 rounds bf16 in integer lanes, a
// truncation), and past the end of the last row. The outputs here are the
// first 40 rows of a 41-row buffer whose rows are filled with 13.0
// beforehand: row 40 must still hold it, and every row must match float64.
// The JIT compiles for the host, so the targets without AVX-512 met the
// bug too on an AVX-512 host.

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 {{\[}}40x33] axis=1 gamma offset=1 -> f8E4M3FN per_token: mismatches=0 {{.*}} PASS
// The fp8 bits of 13.0, 0x55:
// CHECK: Unranked Memref
// CHECK-NEXT: [85,  85,  85,  85]
// CHECK-NEXT: {{^}}rms_norm bf16 {{\[}}40x33] axis=1 gamma: rel_err={{.*}} PASS
// The bf16 bits of 13.0, 0x4150:
// CHECK: Unranked Memref
// CHECK-NEXT: [16720,  16720,  16720,  16720]
// CHECK-NOT: FAIL

func.func private @norm_test_check_quant_norm_f32_f8E4M3FN(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64)
    attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64)
    attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64)
    attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @fp8_rows() : () -> ()
  func.call @bf16_rows() : () -> ()
  return
}

func.func @fp8_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() : memref<40x33xf32>
  %x_u = memref.cast %x : memref<40x33xf32> to memref<*xf32>
  %seed = arith.constant 7309001 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%x_u, %seed, %mean, %scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %g = memref.alloc() : memref<33xf32>
  %g_u = memref.cast %g : memref<33xf32> to memref<*xf32>
  %g_seed = arith.constant 7309002 : i64
  %g_mean = arith.constant 0.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %all = memref.alloc() : memref<41x33xf8E4M3FN>
  %canary = arith.constant 13.0 : f8E4M3FN
  linalg.fill ins(%canary : f8E4M3FN) outs(%all : memref<41x33xf8E4M3FN>)
  %q = memref.subview %all[0, 0] [40, 33] [1, 1] : memref<41x33xf8E4M3FN> to memref<40x33xf8E4M3FN, strided<[33, 1]>>
  %sc = memref.alloc() : memref<40xf32>
  norm.rms_norm ins(%x : memref<40x33xf32>) weight(%g : memref<33xf32>)
      outs(%q : memref<40x33xf8E4M3FN, strided<[33, 1]>>) scale_outs(%sc : memref<40xf32>)
      {axis = 1 : i64, epsilon = 1.0e-06 : f32, weight_offset = 1.0 : f32}
  %q_c = memref.alloc() : memref<40x33xf8E4M3FN>
  memref.copy %q, %q_c : memref<40x33xf8E4M3FN, strided<[33, 1]>> to memref<40x33xf8E4M3FN>
  %q_u = memref.cast %q_c : memref<40x33xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc_u = memref.cast %sc : memref<40xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %x_u, %g_u, %x_u, %q_u, %x_u, %sc_u, %axis, %eps, %offset, %zero, %zero, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  %c40 = arith.constant 40 : index
  %bits = memref.alloc() : memref<4xi32>
  scf.for %j = %c0 to %c4 step %c1 {
    %v = memref.load %all[%c40, %j] : memref<41x33xf8E4M3FN>
    %b = arith.bitcast %v : f8E4M3FN to i8
    %w = arith.extui %b : i8 to i32
    memref.store %w, %bits[%j] : memref<4xi32>
  }
  %bits_u = memref.cast %bits : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%bits_u) : (memref<*xi32>) -> ()
  return
}

func.func @bf16_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() : memref<40x33xbf16>
  %x_u = memref.cast %x : memref<40x33xbf16> to memref<*xbf16>
  %seed = arith.constant 7309003 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%x_u, %seed, %mean, %scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = memref.alloc() : memref<33xbf16>
  %g_u = memref.cast %g : memref<33xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7309004 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %all = memref.alloc() : memref<41x33xbf16>
  %canary = arith.constant 13.0 : bf16
  linalg.fill ins(%canary : bf16) outs(%all : memref<41x33xbf16>)
  %y = memref.subview %all[0, 0] [40, 33] [1, 1] : memref<41x33xbf16> to memref<40x33xbf16, strided<[33, 1]>>
  norm.rms_norm ins(%x : memref<40x33xbf16>) weight(%g : memref<33xbf16>)
      outs(%y : memref<40x33xbf16, strided<[33, 1]>>)
      {axis = 1 : i64, epsilon = 1.0e-06 : f32}
  %y_c = memref.alloc() : memref<40x33xbf16>
  memref.copy %y, %y_c : memref<40x33xbf16, strided<[33, 1]>> to memref<40x33xbf16>
  %y_u = memref.cast %y_c : memref<40x33xbf16> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy_f32 = memref.alloc() : memref<1xf32>
  %dummy_f32_u = memref.cast %dummy_f32 : memref<1xf32> to memref<*xf32>
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %partial = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_bf16(%x_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy_f32_u, %axis, %eps, %offset, %partial, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  %c40 = arith.constant 40 : index
  %bits = memref.alloc() : memref<4xi32>
  scf.for %j = %c0 to %c4 step %c1 {
    %v = memref.load %all[%c40, %j] : memref<41x33xbf16>
    %b = arith.bitcast %v : bf16 to i16
    %w = arith.extui %b : i16 to i32
    memref.store %w, %bits[%j] : memref<4xi32>
  }
  %bits_u = memref.cast %bits : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%bits_u) : (memref<*xi32>) -> ()
  return
}
