// GPU execution of norms on strided views through --norm-lower-to-nvvm,
// each result compared with the float64 reference of test/lib/Runtime on
// the same views (Emulated/strided-rows.test runs the row kernels on host
// threads where there is no GPU). Cases: DeepSeek MLA's first 512 of 576
// columns (f32, the 16-byte kernel: offset 0, row stride 576); the k slice
// of a fused bf16 [9, 3·96] projection written into the k slice of a fused
// output (offset 96, stride 288: 16-byte aligned rows); LayerNorm with rstd
// on columns 3..66 of 7×100 rows (an offset no vector is aligned to: the
// scalar kernel) written at columns 5..68 of 7×80.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [16x512]{{.*}} PASS
// CHECK: {{^}}rms_norm bf16 [9x96]{{.*}} PASS
// CHECK: {{^}}layer_norm f32 [7x64]{{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @mla_kv_a() : () -> ()
  func.call @split_qkv_k() : () -> ()
  func.call @ln_unaligned() : () -> ()
  return
}

func.func @mla_kv_a() {
  %x = gpu.alloc host_shared () : memref<16x576xf32>
  %x_u = memref.cast %x : memref<16x576xf32> to memref<*xf32>
  %seed = arith.constant 26501 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<512xf32>
  %g_u = memref.cast %g : memref<512xf32> to memref<*xf32>
  %seed_g = arith.constant 26502 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x512xf32>
  %y_u = memref.cast %y : memref<16x512xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %xs = memref.subview %x[0, 0] [16, 512] [1, 1] : memref<16x576xf32> to memref<16x512xf32, strided<[576, 1]>>
  norm.rms_norm ins(%xs : memref<16x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<16x512xf32>) {epsilon = 1.0e-06 : f64}
  %xs_u = memref.cast %xs : memref<16x512xf32, strided<[576, 1]>> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_f32(%xs_u, %d_u, %g_u, %y_u, %d_u, %d_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x576xf32>
  gpu.dealloc %g : memref<512xf32>
  gpu.dealloc %y : memref<16x512xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @split_qkv_k() {
  %x = gpu.alloc host_shared () : memref<9x288xbf16>
  %x_u = memref.cast %x : memref<9x288xbf16> to memref<*xbf16>
  %seed = arith.constant 26511 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed, %mean, %scale, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<96xbf16>
  %g_u = memref.cast %g : memref<96xbf16> to memref<*xbf16>
  %seed_g = arith.constant 26512 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %one, %quarter) : (memref<*xbf16>, i64, f64, f64) -> ()
  %out = gpu.alloc host_shared () : memref<9x288xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %df = gpu.alloc host_shared () : memref<1xf32>
  %df_u = memref.cast %df : memref<1xf32> to memref<*xf32>
  %k = memref.subview %x[0, 96] [9, 96] [1, 1] : memref<9x288xbf16> to memref<9x96xbf16, strided<[288, 1], offset: 96>>
  %yk = memref.subview %out[0, 96] [9, 96] [1, 1] : memref<9x288xbf16> to memref<9x96xbf16, strided<[288, 1], offset: 96>>
  norm.rms_norm ins(%k : memref<9x96xbf16, strided<[288, 1], offset: 96>>) weight(%g : memref<96xbf16>)
    outs(%yk : memref<9x96xbf16, strided<[288, 1], offset: 96>>) {epsilon = 1.0e-06 : f64}
  %k_u = memref.cast %k : memref<9x96xbf16, strided<[288, 1], offset: 96>> to memref<*xbf16>
  %yk_u = memref.cast %yk : memref<9x96xbf16, strided<[288, 1], offset: 96>> to memref<*xbf16>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_bf16(%k_u, %d_u, %g_u, %yk_u, %d_u, %df_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<9x288xbf16>
  gpu.dealloc %g : memref<96xbf16>
  gpu.dealloc %out : memref<9x288xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %df : memref<1xf32>
  return
}

func.func @ln_unaligned() {
  %x = gpu.alloc host_shared () : memref<7x100xf32>
  %x_u = memref.cast %x : memref<7x100xf32> to memref<*xf32>
  %seed = arith.constant 26521 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %b = gpu.alloc host_shared () : memref<64xf32>
  %b_u = memref.cast %b : memref<64xf32> to memref<*xf32>
  %seed_g = arith.constant 26522 : i64
  %seed_b = arith.constant 26523 : i64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %seed_b, %zero, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %out = gpu.alloc host_shared () : memref<7x80xf32>
  %rs = gpu.alloc host_shared () : memref<7xf32>
  %rs_u = memref.cast %rs : memref<7xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  %xs = memref.subview %x[0, 3] [7, 64] [1, 1] : memref<7x100xf32> to memref<7x64xf32, strided<[100, 1], offset: 3>>
  %ys = memref.subview %out[0, 5] [7, 64] [1, 1] : memref<7x80xf32> to memref<7x64xf32, strided<[80, 1], offset: 5>>
  norm.layer_norm ins(%xs : memref<7x64xf32, strided<[100, 1], offset: 3>>) weight(%g : memref<64xf32>)
    bias(%b : memref<64xf32>) outs(%ys : memref<7x64xf32, strided<[80, 1], offset: 5>>)
    rstd_outs(%rs : memref<7xf32>)
  %xs_u = memref.cast %xs : memref<7x64xf32, strided<[100, 1], offset: 3>> to memref<*xf32>
  %ys_u = memref.cast %ys : memref<7x64xf32, strided<[80, 1], offset: 5>> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 134 : i64
  func.call @norm_test_check_layer_norm_f32(%xs_u, %d_u, %g_u, %b_u, %ys_u, %d_u, %d_u, %rs_u, %axis, %eps, %zero, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x100xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %b : memref<64xf32>
  gpu.dealloc %out : memref<7x80xf32>
  gpu.dealloc %rs : memref<7xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}
