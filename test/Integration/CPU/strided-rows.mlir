// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// Two threads and streaming stores forced on (the aligned-store head of a
// strided output row starts at its offset + row · stride), AVX2:
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s
// 128-bit vectors, rows not pipelined, no threads, plain stores:
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic vector-options={pipeline-rows=false parallel-threshold=-1 streaming-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s

// Norms on strided views, written on tensors as model IR has them
// (tensor.extract_slice of a wider row, the result inserted into a wider
// tensor), through --norm-lower-to-cpu: the row kernel reads and writes the
// strided buffers in place. Each result is compared with the float64
// reference (test/lib/Runtime) on the same strided views of the inputs.
//   - DeepSeek MLA: RMSNorm of the first 512 of kv_a_proj's 576 columns;
//   - split QKV: RMSNorm (bf16) of the k slice of a fused [T, 3·96]
//     projection, written into the k slice of a fused output;
//   - LayerNorm with mean/rstd on an unaligned slice (columns 3..66),
//     written into a slice of a wider output;
//   - dynamic sizes, offset and row stride;
//   - every other column (an inner stride of 2): not a row view, so the
//     decomposition computes it (slower, correct);
//   - the same on memrefs (the norm op written on strided views, as after
//     bufferization): LayerNorm of x's odd columns into y's even columns,
//     y's odd columns left as they were (counted: "untouched").

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [16x512] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm bf16 [9x96] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [7x64] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [5x37] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}rms_norm f32 [6x20] axis=1 gamma: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}layer_norm f32 [5x24] axis=1 gamma beta mean rstd: rel_err={{.*}} PASS
// CHECK-NEXT: {{^}}untouched: 120{{$}}
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
  func.call @ln_unaligned_slice() : () -> ()
  func.call @dynamic_slice() : () -> ()
  func.call @every_other_column() : () -> ()
  func.call @memref_inner_stride() : () -> ()
  return
}

// x: 16×576, rows with |mean| >> std (fill_rows); y = rms_norm(x[:, 0:512]).
func.func @mla_kv_a() {
  %x_m = memref.alloc() : memref<16x576xf32>
  %x_u = memref.cast %x_m : memref<16x576xf32> to memref<*xf32>
  %seed = arith.constant 26401 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<512xf32>
  %g_u = memref.cast %g_m : memref<512xf32> to memref<*xf32>
  %seed_g = arith.constant 26402 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<16x576xf32> to tensor<16x576xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<512xf32> to tensor<512xf32>
  %kv = tensor.extract_slice %x[0, 0] [16, 512] [1, 1] : tensor<16x576xf32> to tensor<16x512xf32>
  %e = tensor.empty() : tensor<16x512xf32>
  %y = norm.rms_norm ins(%kv : tensor<16x512xf32>) weight(%g : tensor<512xf32>)
         outs(%e : tensor<16x512xf32>) {epsilon = 1.0e-06 : f64} -> tensor<16x512xf32>
  %y_m = bufferization.to_buffer %y : tensor<16x512xf32> to memref<16x512xf32>
  %y_u = memref.cast %y_m : memref<16x512xf32> to memref<*xf32>
  %xs = memref.subview %x_m[0, 0] [16, 512] [1, 1] : memref<16x576xf32> to memref<16x512xf32, strided<[576, 1]>>
  %xs_u = memref.cast %xs : memref<16x512xf32, strided<[576, 1]>> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_f32(%xs_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// qkv: 9×288 bf16 (q, k, v of 96 columns each); the k slice normalized into
// the k slice of a fused output (a strided y at offset 96).
func.func @split_qkv_k() {
  %x_m = memref.alloc() : memref<9x288xbf16>
  %x_u = memref.cast %x_m : memref<9x288xbf16> to memref<*xbf16>
  %seed = arith.constant 26411 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %seed, %mean, %scale, %axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<96xbf16>
  %g_u = memref.cast %g_m : memref<96xbf16> to memref<*xbf16>
  %seed_g = arith.constant 26412 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %seed_g, %one, %quarter) : (memref<*xbf16>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<9x288xbf16> to tensor<9x288xbf16>
  %g = bufferization.to_tensor %g_m restrict : memref<96xbf16> to tensor<96xbf16>
  %k = tensor.extract_slice %x[0, 96] [9, 96] [1, 1] : tensor<9x288xbf16> to tensor<9x96xbf16>
  %out = tensor.empty() : tensor<9x288xbf16>
  %out_k = tensor.extract_slice %out[0, 96] [9, 96] [1, 1] : tensor<9x288xbf16> to tensor<9x96xbf16>
  %kn = norm.rms_norm ins(%k : tensor<9x96xbf16>) weight(%g : tensor<96xbf16>)
          outs(%out_k : tensor<9x96xbf16>) {epsilon = 1.0e-06 : f64} -> tensor<9x96xbf16>
  %res = tensor.insert_slice %kn into %out[0, 96] [9, 96] [1, 1] : tensor<9x96xbf16> into tensor<9x288xbf16>
  %res_m = bufferization.to_buffer %res : tensor<9x288xbf16> to memref<9x288xbf16>
  %y = memref.subview %res_m[0, 96] [9, 96] [1, 1] : memref<9x288xbf16> to memref<9x96xbf16, strided<[288, 1], offset: 96>>
  %y_u = memref.cast %y : memref<9x96xbf16, strided<[288, 1], offset: 96>> to memref<*xbf16>
  %xs = memref.subview %x_m[0, 96] [9, 96] [1, 1] : memref<9x288xbf16> to memref<9x96xbf16, strided<[288, 1], offset: 96>>
  %xs_u = memref.cast %xs : memref<9x96xbf16, strided<[288, 1], offset: 96>> to memref<*xbf16>
  %dummy = memref.alloc() : memref<1xbf16>
  %dummy_u = memref.cast %dummy : memref<1xbf16> to memref<*xbf16>
  %dummy32 = memref.alloc() : memref<1xf32>
  %dummy32_u = memref.cast %dummy32 : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_bf16(%xs_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy32_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// x: 7×100, LayerNorm of columns 3..66 (an offset no vector is aligned to)
// into columns 5..68 of a 7×80 output, with mean and rstd.
func.func @ln_unaligned_slice() {
  %x_m = memref.alloc() : memref<7x100xf32>
  %x_u = memref.cast %x_m : memref<7x100xf32> to memref<*xf32>
  %seed = arith.constant 26421 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<64xf32>
  %g_u = memref.cast %g_m : memref<64xf32> to memref<*xf32>
  %b_m = memref.alloc() : memref<64xf32>
  %b_u = memref.cast %b_m : memref<64xf32> to memref<*xf32>
  %seed_g = arith.constant 26422 : i64
  %seed_b = arith.constant 26423 : i64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %seed_b, %zero, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<7x100xf32> to tensor<7x100xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<64xf32> to tensor<64xf32>
  %b = bufferization.to_tensor %b_m restrict : memref<64xf32> to tensor<64xf32>
  %xs = tensor.extract_slice %x[0, 3] [7, 64] [1, 1] : tensor<7x100xf32> to tensor<7x64xf32>
  %out = tensor.empty() : tensor<7x80xf32>
  %out_s = tensor.extract_slice %out[0, 5] [7, 64] [1, 1] : tensor<7x80xf32> to tensor<7x64xf32>
  %me = tensor.empty() : tensor<7xf32>
  %re = tensor.empty() : tensor<7xf32>
  %y, %mu, %rs = norm.layer_norm ins(%xs : tensor<7x64xf32>) weight(%g : tensor<64xf32>) bias(%b : tensor<64xf32>)
      outs(%out_s : tensor<7x64xf32>) mean_outs(%me : tensor<7xf32>) rstd_outs(%re : tensor<7xf32>)
      -> tensor<7x64xf32>, tensor<7xf32>, tensor<7xf32>
  %res = tensor.insert_slice %y into %out[0, 5] [7, 64] [1, 1] : tensor<7x64xf32> into tensor<7x80xf32>
  %res_m = bufferization.to_buffer %res : tensor<7x80xf32> to memref<7x80xf32>
  %y_v = memref.subview %res_m[0, 5] [7, 64] [1, 1] : memref<7x80xf32> to memref<7x64xf32, strided<[80, 1], offset: 5>>
  %y_u = memref.cast %y_v : memref<7x64xf32, strided<[80, 1], offset: 5>> to memref<*xf32>
  %mu_m = bufferization.to_buffer %mu : tensor<7xf32> to memref<7xf32>
  %mu_u = memref.cast %mu_m : memref<7xf32> to memref<*xf32>
  %rs_m = bufferization.to_buffer %rs : tensor<7xf32> to memref<7xf32>
  %rs_u = memref.cast %rs_m : memref<7xf32> to memref<*xf32>
  %x_v = memref.subview %x_m[0, 3] [7, 64] [1, 1] : memref<7x100xf32> to memref<7x64xf32, strided<[100, 1], offset: 3>>
  %xv_u = memref.cast %x_v : memref<7x64xf32, strided<[100, 1], offset: 3>> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_f32(%xv_u, %dummy_u, %g_u, %b_u, %y_u, %dummy_u, %mu_u, %rs_u, %axis, %eps, %zero, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  return
}

// Sizes, offset and row stride known only at run time: x[1:6, 2:39] of a
// 7×41 x, passed as tensor<?x?xf32> with dynamic slice bounds.
func.func @rms_dyn_slice(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %r0: index, %c0: index,
                         %rows: index, %n: index) -> tensor<?x?xf32> {
  %xs = tensor.extract_slice %x[%r0, %c0] [%rows, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %e = tensor.empty(%rows, %n) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%xs : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
         outs(%e : tensor<?x?xf32>) {epsilon = 1.0e-06 : f64} -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @dynamic_slice() {
  %x_m = memref.alloc() : memref<7x41xf32>
  %x_u = memref.cast %x_m : memref<7x41xf32> to memref<*xf32>
  %seed = arith.constant 26431 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<37xf32>
  %g_u = memref.cast %g_m : memref<37xf32> to memref<*xf32>
  %seed_g = arith.constant 26432 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<7x41xf32> to tensor<7x41xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<37xf32> to tensor<37xf32>
  %xd = tensor.cast %x : tensor<7x41xf32> to tensor<?x?xf32>
  %gd = tensor.cast %g : tensor<37xf32> to tensor<?xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c37 = arith.constant 37 : index
  %y = func.call @rms_dyn_slice(%xd, %gd, %c1, %c2, %c5, %c37)
      : (tensor<?x?xf32>, tensor<?xf32>, index, index, index, index) -> tensor<?x?xf32>
  %y_m = bufferization.to_buffer %y : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %y_u = memref.cast %y_m : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
  %xs = memref.subview %x_m[1, 2] [5, 37] [1, 1] : memref<7x41xf32> to memref<5x37xf32, strided<[41, 1], offset: 43>>
  %xs_u = memref.cast %xs : memref<5x37xf32, strided<[41, 1], offset: 43>> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_f32(%xs_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// x: 6×40, RMSNorm of the even columns (an inner stride of 2).
func.func @every_other_column() {
  %x_m = memref.alloc() : memref<6x40xf32>
  %x_u = memref.cast %x_m : memref<6x40xf32> to memref<*xf32>
  %seed = arith.constant 26441 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<20xf32>
  %g_u = memref.cast %g_m : memref<20xf32> to memref<*xf32>
  %seed_g = arith.constant 26442 : i64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %x = bufferization.to_tensor %x_m restrict : memref<6x40xf32> to tensor<6x40xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<20xf32> to tensor<20xf32>
  %xs = tensor.extract_slice %x[0, 0] [6, 20] [1, 2] : tensor<6x40xf32> to tensor<6x20xf32>
  %e = tensor.empty() : tensor<6x20xf32>
  %y = norm.rms_norm ins(%xs : tensor<6x20xf32>) weight(%g : tensor<20xf32>)
         outs(%e : tensor<6x20xf32>) {epsilon = 1.0e-06 : f64} -> tensor<6x20xf32>
  %y_m = bufferization.to_buffer %y : tensor<6x20xf32> to memref<6x20xf32>
  %y_u = memref.cast %y_m : memref<6x20xf32> to memref<*xf32>
  %xv = memref.subview %x_m[0, 0] [6, 20] [1, 2] : memref<6x40xf32> to memref<6x20xf32, strided<[40, 2]>>
  %xv_u = memref.cast %xv : memref<6x20xf32, strided<[40, 2]>> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_f32(%xv_u, %dummy_u, %g_u, %y_u, %dummy_u, %dummy_u, %axis, %eps, %offset, %one, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) -> ()
  return
}

// On memrefs: x 5×50, LayerNorm (γ, β, mean, rstd) of columns 1, 3, ..., 47
// (offset 1, inner stride 2) into columns 0, 2, ..., 46 of a 5×48 y whose
// other columns hold 7.0 before and must still hold it after (5·24 = 120).
func.func @ln_inner_stride(%x: memref<5x24xf32, strided<[50, 2], offset: 1>>, %g: memref<24xf32>,
                           %b: memref<24xf32>, %y: memref<5x24xf32, strided<[48, 2]>>,
                           %mu: memref<5xf32>, %rs: memref<5xf32>) {
  norm.layer_norm ins(%x : memref<5x24xf32, strided<[50, 2], offset: 1>>) weight(%g : memref<24xf32>)
      bias(%b : memref<24xf32>) outs(%y : memref<5x24xf32, strided<[48, 2]>>)
      mean_outs(%mu : memref<5xf32>) rstd_outs(%rs : memref<5xf32>)
  return
}

func.func @memref_inner_stride() {
  %x_m = memref.alloc() : memref<5x50xf32>
  %x_u = memref.cast %x_m : memref<5x50xf32> to memref<*xf32>
  %seed = arith.constant 26451 : i64
  %mean = arith.constant 0.5 : f64
  %scale = arith.constant 1.0 : f64
  %axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %seed, %mean, %scale, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g_m = memref.alloc() : memref<24xf32>
  %g_u = memref.cast %g_m : memref<24xf32> to memref<*xf32>
  %b_m = memref.alloc() : memref<24xf32>
  %b_u = memref.cast %b_m : memref<24xf32> to memref<*xf32>
  %seed_g = arith.constant 26452 : i64
  %seed_b = arith.constant 26453 : i64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %seed_g, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%b_u, %seed_b, %zero, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  %y_m = memref.alloc() : memref<5x48xf32>
  %seven = arith.constant 7.0 : f32
  linalg.fill ins(%seven : f32) outs(%y_m : memref<5x48xf32>)
  %mu_m = memref.alloc() : memref<5xf32>
  %rs_m = memref.alloc() : memref<5xf32>
  %xv = memref.subview %x_m[0, 1] [5, 24] [1, 2] : memref<5x50xf32> to memref<5x24xf32, strided<[50, 2], offset: 1>>
  %yv = memref.subview %y_m[0, 0] [5, 24] [1, 2] : memref<5x48xf32> to memref<5x24xf32, strided<[48, 2]>>
  func.call @ln_inner_stride(%xv, %g_m, %b_m, %yv, %mu_m, %rs_m)
      : (memref<5x24xf32, strided<[50, 2], offset: 1>>, memref<24xf32>, memref<24xf32>,
         memref<5x24xf32, strided<[48, 2]>>, memref<5xf32>, memref<5xf32>) -> ()
  %xv_u = memref.cast %xv : memref<5x24xf32, strided<[50, 2], offset: 1>> to memref<*xf32>
  %yv_u = memref.cast %yv : memref<5x24xf32, strided<[48, 2]>> to memref<*xf32>
  %mu_u = memref.cast %mu_m : memref<5xf32> to memref<*xf32>
  %rs_u = memref.cast %rs_m : memref<5xf32> to memref<*xf32>
  %dummy = memref.alloc() : memref<1xf32>
  %dummy_u = memref.cast %dummy : memref<1xf32> to memref<*xf32>
  %eps = arith.constant 1.0e-05 : f64
  %flags = arith.constant 198 : i64
  func.call @norm_test_check_layer_norm_f32(%xv_u, %dummy_u, %g_u, %b_u, %yv_u, %dummy_u, %mu_u, %rs_u, %axis, %eps, %zero, %flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64, f64, i64) -> ()
  // y's odd columns: still 7.0.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c48 = arith.constant 48 : index
  %count = scf.for %i = %c0 to %c5 step %c1 iter_args(%a = %c0) -> (index) {
    %r = scf.for %j = %c1 to %c48 step %c2 iter_args(%b2 = %a) -> (index) {
      %v = memref.load %y_m[%i, %j] : memref<5x48xf32>
      %same = arith.cmpf oeq, %v, %seven : f32
      %inc = arith.select %same, %c1, %c0 : index
      %n = arith.addi %b2, %inc : index
      scf.yield %n : index
    }
    scf.yield %r : index
  }
  vector.print str "untouched: "
  vector.print %count : index
  return
}
