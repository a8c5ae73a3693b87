// GPU execution of quantized norm outputs (DESIGN.md §8) through
// --norm-lower-to-nvvm: the row kernel writes f8E4M3FN, f8E5M2 and i8 with a
// static scale, per-token scales (the row's amax, a max-reduction across
// the row's threads) or per-group scales (each group's amax across the
// threads that hold it); fp8 through cvt.rn.satfinite on sm_90, the integer
// encoding on sm_80 (GPUQuantizedRow.cpp). Each result is compared by the
// test runtime with the quantization of the float64 reference (every
// element equal, or one step off within 1e-6 of a rounding boundary; the
// scales within 1e-6). Cases: a warp per row held in registers; four warps
// with a residual and its sum (the amax through shared memory); a masked
// last chunk; an odd row length (scalar kernel); Llama's before_weight with
// bf16 γ (the weight step never rounded before the quantization); a block
// per row; Gemma's offset; fp8 subnormals (a large scale). Per group, odd
// row counts: groups of 128 on a whole warp (f32); of 32 on 4 lanes (bf16,
// residual and sum); unaligned views (the scalar kernel): a group on 4
// warps of 4 (bf16, 128), on 2 warps of 4 (f32, 64), and 4 chunks of each
// thread of a warp (f32, 128); groups of 32 on 8 lanes with a masked last
// chunk. The third RUN line re-reads rows (one group a loop iteration; a
// block per row at n = 4096: groups across warps in a loop).
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=0 block-row-threshold=2048}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 {{\[}}64x1024]{{.*}} -> f8E4M3FN {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm bf16 {{\[}}16x4096]{{.*}} -> f8E5M2 {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}layer_norm f32 {{\[}}33x1000]{{.*}} -> i8 {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm f32 {{\[}}5x1001]{{.*}} -> i8 {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}layer_norm bf16 {{\[}}8x256]{{.*}} -> f8E4M3FN {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm f32 {{\[}}3x65536]{{.*}} -> f8E4M3FN {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm bf16 {{\[}}7x384]{{.*}} -> i8 {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}layer_norm f32 {{\[}}4x64]{{.*}} -> f8E5M2 {{.*}}mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm f32 {{\[}}33x1024]{{.*}} -> f8E4M3FN group=128: mismatches=0 {{.*}} PASS
// CHECK: {{^}}layer_norm bf16 {{\[}}7x4096]{{.*}} -> i8 group=32: mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm bf16 {{\[}}5x4096]{{.*}} -> f8E4M3FN group=128: mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm f32 {{\[}}5x4096]{{.*}} -> i8 group=64: mismatches=0 {{.*}} PASS
// CHECK: {{^}}layer_norm f32 {{\[}}9x256]{{.*}} -> i8 group=128: mismatches=0 {{.*}} PASS
// CHECK: {{^}}rms_norm f32 {{\[}}3x96]{{.*}} -> f8E5M2 group=32: mismatches=0 {{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_quant_norm_bf16_f8E4M3FN(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_f8E5M2(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_bf16_i8(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_f8E4M3FN(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_f8E5M2(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_quant_norm_f32_i8(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_f32_e4m3_static() : () -> ()
  func.call @rms_bf16_e5m2_token() : () -> ()
  func.call @ln_f32_i8_token() : () -> ()
  func.call @rms_f32_i8_static_odd() : () -> ()
  func.call @ln_bf16_e4m3_token_bw() : () -> ()
  func.call @rms_f32_e4m3_token_long() : () -> ()
  func.call @rms_bf16_i8_static_bw() : () -> ()
  func.call @ln_f32_e5m2_static_sub() : () -> ()
  func.call @rms_f32_e4m3_group128() : () -> ()
  func.call @ln_bf16_i8_group32_residual() : () -> ()
  func.call @rms_bf16_e4m3_group128_unaligned() : () -> ()
  func.call @rms_f32_i8_group64_unaligned() : () -> ()
  func.call @ln_f32_i8_group128_unaligned() : () -> ()
  func.call @rms_f32_e5m2_group32_offset() : () -> ()
  return
}

func.func @rms_f32_e4m3_static() {
  %x = gpu.alloc host_shared () : memref<64x1024xf32>
  %x_u = memref.cast %x : memref<64x1024xf32> to memref<*xf32>
  %x_seed = arith.constant 5101 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1024xf32>
  %g_u = memref.cast %g : memref<1024xf32> to memref<*xf32>
  %g_seed = arith.constant 5103 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<64x1024xf8E4M3FN>
  %q_u = memref.cast %q : memref<64x1024xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc = gpu.alloc host_shared () : memref<1xf32>
  %sc_u = memref.cast %sc : memref<1xf32> to memref<*xf32>
  %scale = arith.constant 0.005 : f32
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<64x1024xf32>) weight(%g : memref<1024xf32>) scale(%scale : f32) outs(%q : memref<64x1024xf8E4M3FN>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.005 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16386 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<64x1024xf32>
  gpu.dealloc %g : memref<1024xf32>
  gpu.dealloc %q : memref<64x1024xf8E4M3FN>
  gpu.dealloc %sc : memref<1xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_bf16_e5m2_token() {
  %x = gpu.alloc host_shared () : memref<16x4096xbf16>
  %x_u = memref.cast %x : memref<16x4096xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5111 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<16x4096xbf16>
  %r_u = memref.cast %r : memref<16x4096xbf16> to memref<*xbf16>
  %r_seed = arith.constant 5112 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<4096xbf16>
  %g_u = memref.cast %g : memref<4096xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5113 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<16x4096xf8E5M2>
  %q_u = memref.cast %q : memref<16x4096xf8E5M2> to memref<*xf8E5M2>
  %s = gpu.alloc host_shared () : memref<16x4096xbf16>
  %s_u = memref.cast %s : memref<16x4096xbf16> to memref<*xbf16>
  %sc = gpu.alloc host_shared () : memref<16xf32>
  %sc_u = memref.cast %sc : memref<16xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%x : memref<16x4096xbf16>) residual(%r : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) outs(%q : memref<16x4096xf8E5M2>) sum_outs(%s : memref<16x4096xbf16>) scale_outs(%sc : memref<16xf32>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E5M2(%x_u, %r_u, %g_u, %d_u, %q_u, %s_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E5M2>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<16x4096xbf16>
  gpu.dealloc %r : memref<16x4096xbf16>
  gpu.dealloc %g : memref<4096xbf16>
  gpu.dealloc %q : memref<16x4096xf8E5M2>
  gpu.dealloc %s : memref<16x4096xbf16>
  gpu.dealloc %sc : memref<16xf32>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @ln_f32_i8_token() {
  %x = gpu.alloc host_shared () : memref<33x1000xf32>
  %x_u = memref.cast %x : memref<33x1000xf32> to memref<*xf32>
  %x_seed = arith.constant 5121 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1000xf32>
  %g_u = memref.cast %g : memref<1000xf32> to memref<*xf32>
  %g_seed = arith.constant 5123 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1000xf32>
  %b_u = memref.cast %b : memref<1000xf32> to memref<*xf32>
  %b_seed = arith.constant 5124 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<33x1000xi8>
  %q_u = memref.cast %q : memref<33x1000xi8> to memref<*xi8>
  %sc = gpu.alloc host_shared () : memref<33xf32>
  %sc_u = memref.cast %sc : memref<33xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<33x1000xf32>) weight(%g : memref<1000xf32>) bias(%b : memref<1000xf32>) outs(%q : memref<33x1000xi8>) scale_outs(%sc : memref<33xf32>) {epsilon = 1.0e-05 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 8198 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%x_u, %d_u, %g_u, %b_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<33x1000xf32>
  gpu.dealloc %g : memref<1000xf32>
  gpu.dealloc %b : memref<1000xf32>
  gpu.dealloc %q : memref<33x1000xi8>
  gpu.dealloc %sc : memref<33xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_f32_i8_static_odd() {
  %x = gpu.alloc host_shared () : memref<5x1001xf32>
  %x_u = memref.cast %x : memref<5x1001xf32> to memref<*xf32>
  %x_seed = arith.constant 5131 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1001xf32>
  %g_u = memref.cast %g : memref<1001xf32> to memref<*xf32>
  %g_seed = arith.constant 5133 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<5x1001xi8>
  %q_u = memref.cast %q : memref<5x1001xi8> to memref<*xi8>
  %sc = gpu.alloc host_shared () : memref<1xf32>
  %sc_u = memref.cast %sc : memref<1xf32> to memref<*xf32>
  %scale = arith.constant 0.02 : f32
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<5x1001xf32>) weight(%g : memref<1001xf32>) scale(%scale : f32) outs(%q : memref<5x1001xi8>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.02 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16386 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<5x1001xf32>
  gpu.dealloc %g : memref<1001xf32>
  gpu.dealloc %q : memref<5x1001xi8>
  gpu.dealloc %sc : memref<1xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @ln_bf16_e4m3_token_bw() {
  %x = gpu.alloc host_shared () : memref<8x256xbf16>
  %x_u = memref.cast %x : memref<8x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5141 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<256xbf16>
  %g_u = memref.cast %g : memref<256xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5143 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<256xbf16>
  %b_u = memref.cast %b : memref<256xbf16> to memref<*xbf16>
  %b_seed = arith.constant 5144 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<8x256xf8E4M3FN>
  %q_u = memref.cast %q : memref<8x256xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc = gpu.alloc host_shared () : memref<8xf32>
  %sc_u = memref.cast %sc : memref<8xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.layer_norm ins(%x : memref<8x256xbf16>) weight(%g : memref<256xbf16>) bias(%b : memref<256xbf16>) outs(%q : memref<8x256xf8E4M3FN>) scale_outs(%sc : memref<8xf32>) {epsilon = 1.0e-05 : f64, cast_mode = #norm.cast_mode<before_weight>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 8214 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E4M3FN(%x_u, %d_u, %g_u, %b_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<8x256xbf16>
  gpu.dealloc %g : memref<256xbf16>
  gpu.dealloc %b : memref<256xbf16>
  gpu.dealloc %q : memref<8x256xf8E4M3FN>
  gpu.dealloc %sc : memref<8xf32>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_f32_e4m3_token_long() {
  %x = gpu.alloc host_shared () : memref<3x65536xf32>
  %x_u = memref.cast %x : memref<3x65536xf32> to memref<*xf32>
  %x_seed = arith.constant 5151 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<65536xf32>
  %g_u = memref.cast %g : memref<65536xf32> to memref<*xf32>
  %g_seed = arith.constant 5153 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<3x65536xf8E4M3FN>
  %q_u = memref.cast %q : memref<3x65536xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc = gpu.alloc host_shared () : memref<3xf32>
  %sc_u = memref.cast %sc : memref<3xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<3x65536xf32>) weight(%g : memref<65536xf32>) outs(%q : memref<3x65536xf8E4M3FN>) scale_outs(%sc : memref<3xf32>) {epsilon = 1.0e-06 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<3x65536xf32>
  gpu.dealloc %g : memref<65536xf32>
  gpu.dealloc %q : memref<3x65536xf8E4M3FN>
  gpu.dealloc %sc : memref<3xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_bf16_i8_static_bw() {
  %x = gpu.alloc host_shared () : memref<7x384xbf16>
  %x_u = memref.cast %x : memref<7x384xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5161 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<384xbf16>
  %g_u = memref.cast %g : memref<384xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5163 : i64
  %g_mean = arith.constant 0.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<7x384xi8>
  %q_u = memref.cast %q : memref<7x384xi8> to memref<*xi8>
  %sc = gpu.alloc host_shared () : memref<1xf32>
  %sc_u = memref.cast %sc : memref<1xf32> to memref<*xf32>
  %scale = arith.constant 0.01 : f32
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%x : memref<7x384xbf16>) weight(%g : memref<384xbf16>) scale(%scale : f32) outs(%q : memref<7x384xi8>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f64, cast_mode = #norm.cast_mode<before_weight>}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %sval = arith.constant 0.01 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 16402 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<7x384xbf16>
  gpu.dealloc %g : memref<384xbf16>
  gpu.dealloc %q : memref<7x384xi8>
  gpu.dealloc %sc : memref<1xf32>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @ln_f32_e5m2_static_sub() {
  %x = gpu.alloc host_shared () : memref<4x64xf32>
  %x_u = memref.cast %x : memref<4x64xf32> to memref<*xf32>
  %x_seed = arith.constant 5171 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 5173 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<64xf32>
  %b_u = memref.cast %b : memref<64xf32> to memref<*xf32>
  %b_seed = arith.constant 5174 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<4x64xf8E5M2>
  %q_u = memref.cast %q : memref<4x64xf8E5M2> to memref<*xf8E5M2>
  %sc = gpu.alloc host_shared () : memref<1xf32>
  %sc_u = memref.cast %sc : memref<1xf32> to memref<*xf32>
  %scale = arith.constant 30000.0 : f32
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<4x64xf32>) weight(%g : memref<64xf32>) bias(%b : memref<64xf32>) scale(%scale : f32) outs(%q : memref<4x64xf8E5M2>) {epsilon = 1.0e-05 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 30000.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 0 : i64
  %flags = arith.constant 24582 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %d_u, %g_u, %b_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<4x64xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %b : memref<64xf32>
  gpu.dealloc %q : memref<4x64xf8E5M2>
  gpu.dealloc %sc : memref<1xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_f32_e4m3_group128() {
  %x = gpu.alloc host_shared () : memref<33x1024xf32>
  %x_u = memref.cast %x : memref<33x1024xf32> to memref<*xf32>
  %x_seed = arith.constant 5181 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1024xf32>
  %g_u = memref.cast %g : memref<1024xf32> to memref<*xf32>
  %g_seed = arith.constant 5183 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<33x1024xf8E4M3FN>
  %q_u = memref.cast %q : memref<33x1024xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc = gpu.alloc host_shared () : memref<33x8xf32>
  %sc_u = memref.cast %sc : memref<33x8xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<33x1024xf32>) weight(%g : memref<1024xf32>) outs(%q : memref<33x1024xf8E4M3FN>) scale_outs(%sc : memref<33x8xf32>) {epsilon = 1.0e-06 : f64, group_size = 128 : i64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 128 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_f32_f8E4M3FN(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E4M3FN>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<33x1024xf32>
  gpu.dealloc %g : memref<1024xf32>
  gpu.dealloc %q : memref<33x1024xf8E4M3FN>
  gpu.dealloc %sc : memref<33x8xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @ln_bf16_i8_group32_residual() {
  %x = gpu.alloc host_shared () : memref<7x4096xbf16>
  %x_u = memref.cast %x : memref<7x4096xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5191 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<7x4096xbf16>
  %r_u = memref.cast %r : memref<7x4096xbf16> to memref<*xbf16>
  %r_seed = arith.constant 5192 : i64
  %r_mean = arith.constant 0.1 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<4096xbf16>
  %g_u = memref.cast %g : memref<4096xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5193 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<4096xbf16>
  %b_u = memref.cast %b : memref<4096xbf16> to memref<*xbf16>
  %b_seed = arith.constant 5194 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<7x4096xi8>
  %q_u = memref.cast %q : memref<7x4096xi8> to memref<*xi8>
  %s = gpu.alloc host_shared () : memref<7x4096xbf16>
  %s_u = memref.cast %s : memref<7x4096xbf16> to memref<*xbf16>
  %sc = gpu.alloc host_shared () : memref<7x128xf32>
  %sc_u = memref.cast %sc : memref<7x128xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.layer_norm ins(%x : memref<7x4096xbf16>) residual(%r : memref<7x4096xbf16>) weight(%g : memref<4096xbf16>) bias(%b : memref<4096xbf16>) outs(%q : memref<7x4096xi8>) sum_outs(%s : memref<7x4096xbf16>) scale_outs(%sc : memref<7x128xf32>) {epsilon = 1.0e-05 : f64, group_size = 32 : i64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 32 : i64
  %flags = arith.constant 8231 : i64
  func.call @norm_test_check_quant_norm_bf16_i8(%x_u, %r_u, %g_u, %b_u, %q_u, %s_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi8>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<7x4096xbf16>
  gpu.dealloc %r : memref<7x4096xbf16>
  gpu.dealloc %g : memref<4096xbf16>
  gpu.dealloc %b : memref<4096xbf16>
  gpu.dealloc %q : memref<7x4096xi8>
  gpu.dealloc %s : memref<7x4096xbf16>
  gpu.dealloc %sc : memref<7x128xf32>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_bf16_e4m3_group128_unaligned() {
  %x = gpu.alloc host_shared () : memref<5x4099xbf16>
  %x_u = memref.cast %x : memref<5x4099xbf16> to memref<*xbf16>
  %x_seed = arith.constant 5201 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %xs = memref.subview %x[0, 3] [5, 4096] [1, 1] : memref<5x4099xbf16> to memref<5x4096xbf16, strided<[4099, 1], offset: 3>>
  %xs_u = memref.cast %xs : memref<5x4096xbf16, strided<[4099, 1], offset: 3>> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<4096xbf16>
  %g_u = memref.cast %g : memref<4096xbf16> to memref<*xbf16>
  %g_seed = arith.constant 5203 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<5x4096xf8E4M3FN>
  %q_u = memref.cast %q : memref<5x4096xf8E4M3FN> to memref<*xf8E4M3FN>
  %sc = gpu.alloc host_shared () : memref<5x32xf32>
  %sc_u = memref.cast %sc : memref<5x32xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%xs : memref<5x4096xbf16, strided<[4099, 1], offset: 3>>) weight(%g : memref<4096xbf16>) outs(%q : memref<5x4096xf8E4M3FN>) scale_outs(%sc : memref<5x32xf32>) {epsilon = 1.0e-06 : f64, group_size = 128 : i64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 128 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_bf16_f8E4M3FN(%xs_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xf8E4M3FN>, memref<*xbf16>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<5x4099xbf16>
  gpu.dealloc %g : memref<4096xbf16>
  gpu.dealloc %q : memref<5x4096xf8E4M3FN>
  gpu.dealloc %sc : memref<5x32xf32>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_f32_i8_group64_unaligned() {
  %x = gpu.alloc host_shared () : memref<5x4098xf32>
  %x_u = memref.cast %x : memref<5x4098xf32> to memref<*xf32>
  %x_seed = arith.constant 5231 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %xs = memref.subview %x[0, 2] [5, 4096] [1, 1] : memref<5x4098xf32> to memref<5x4096xf32, strided<[4098, 1], offset: 2>>
  %xs_u = memref.cast %xs : memref<5x4096xf32, strided<[4098, 1], offset: 2>> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<4096xf32>
  %g_u = memref.cast %g : memref<4096xf32> to memref<*xf32>
  %g_seed = arith.constant 5233 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<5x4096xi8>
  %q_u = memref.cast %q : memref<5x4096xi8> to memref<*xi8>
  %sc = gpu.alloc host_shared () : memref<5x64xf32>
  %sc_u = memref.cast %sc : memref<5x64xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%xs : memref<5x4096xf32, strided<[4098, 1], offset: 2>>) weight(%g : memref<4096xf32>) outs(%q : memref<5x4096xi8>) scale_outs(%sc : memref<5x64xf32>) {epsilon = 1.0e-06 : f64, group_size = 64 : i64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 64 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%xs_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<5x4098xf32>
  gpu.dealloc %g : memref<4096xf32>
  gpu.dealloc %q : memref<5x4096xi8>
  gpu.dealloc %sc : memref<5x64xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @ln_f32_i8_group128_unaligned() {
  %x = gpu.alloc host_shared () : memref<9x257xf32>
  %x_u = memref.cast %x : memref<9x257xf32> to memref<*xf32>
  %x_seed = arith.constant 5211 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %xs = memref.subview %x[0, 1] [9, 256] [1, 1] : memref<9x257xf32> to memref<9x256xf32, strided<[257, 1], offset: 1>>
  %xs_u = memref.cast %xs : memref<9x256xf32, strided<[257, 1], offset: 1>> to memref<*xf32>
  %g = gpu.alloc host_shared () : memref<256xf32>
  %g_u = memref.cast %g : memref<256xf32> to memref<*xf32>
  %g_seed = arith.constant 5213 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<256xf32>
  %b_u = memref.cast %b : memref<256xf32> to memref<*xf32>
  %b_seed = arith.constant 5214 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<9x256xi8>
  %q_u = memref.cast %q : memref<9x256xi8> to memref<*xi8>
  %sc = gpu.alloc host_shared () : memref<9x2xf32>
  %sc_u = memref.cast %sc : memref<9x2xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%xs : memref<9x256xf32, strided<[257, 1], offset: 1>>) weight(%g : memref<256xf32>) bias(%b : memref<256xf32>) outs(%q : memref<9x256xi8>) scale_outs(%sc : memref<9x2xf32>) {epsilon = 1.0e-05 : f64, group_size = 128 : i64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 128 : i64
  %flags = arith.constant 8198 : i64
  func.call @norm_test_check_quant_norm_f32_i8(%xs_u, %d_u, %g_u, %b_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi8>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<9x257xf32>
  gpu.dealloc %g : memref<256xf32>
  gpu.dealloc %b : memref<256xf32>
  gpu.dealloc %q : memref<9x256xi8>
  gpu.dealloc %sc : memref<9x2xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_f32_e5m2_group32_offset() {
  %x = gpu.alloc host_shared () : memref<3x96xf32>
  %x_u = memref.cast %x : memref<3x96xf32> to memref<*xf32>
  %x_seed = arith.constant 5221 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<96xf32>
  %g_u = memref.cast %g : memref<96xf32> to memref<*xf32>
  %g_seed = arith.constant 5223 : i64
  %g_mean = arith.constant 0.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %q = gpu.alloc host_shared () : memref<3x96xf8E5M2>
  %q_u = memref.cast %q : memref<3x96xf8E5M2> to memref<*xf8E5M2>
  %sc = gpu.alloc host_shared () : memref<3x3xf32>
  %sc_u = memref.cast %sc : memref<3x3xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<3x96xf32>) weight(%g : memref<96xf32>) outs(%q : memref<3x96xf8E5M2>) scale_outs(%sc : memref<3x3xf32>) {epsilon = 1.0e-06 : f64, group_size = 32 : i64, weight_offset = 1.0 : f64}
  %axis = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %sval = arith.constant 0.0 : f64
  %smin = arith.constant 0.0 : f64
  %group = arith.constant 32 : i64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_quant_norm_f32_f8E5M2(%x_u, %d_u, %g_u, %d_u, %q_u, %d_u, %sc_u, %axis, %eps, %offset, %sval, %smin, %group, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf8E5M2>, memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, f64, i64, i64) -> ()
  gpu.dealloc %x : memref<3x96xf32>
  gpu.dealloc %g : memref<96xf32>
  gpu.dealloc %q : memref<3x96xf8E5M2>
  gpu.dealloc %sc : memref<3x3xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

