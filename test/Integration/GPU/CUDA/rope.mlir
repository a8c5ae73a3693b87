// GPU execution of the rotary embedding (QK-norm → RoPE) in the row kernel
// through --norm-lower-to-nvvm (fatbin for sm_90, PTX JIT-compiled for sm_80,
// and with the row always re-read and rows on a whole block), each result
// compared with the float64 reference of test/lib/Runtime (the unrounded
// normalized value rotated, then rounded once) on seeded random inputs.
// Cases: rotate_half on [T, H, D] heads with [T, 1, D] angles (a warp, held
// 16-byte chunks paired across the halves); interleaved with angles over a
// leading broadcast dim and D = 36; rotate_half with D / 2 odd (the scalar
// kernel); interleaved on a view at an odd offset (the scalar kernel's
// chunk pairs 2g, 2g + 1); bf16 with Gemma's offset; bf16 with a residual
// and its sum; LayerNorm with γ and β (|mean| >> std) and without; a long
// row (a block per row, the halves across warps); bf16 with rope_rounding =
// each_step (Qwen3's q in bf16: before_weight, bf16 angles; the reference
// rounds the normalized value and each step of the rotation to bf16).
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=0 block-row-threshold=64}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm f32 [16x4x128] axis=2 gamma rope=rotate_half{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [5x3x36] axis=2 rope=interleaved{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [7x2x34] axis=2 gamma rope=rotate_half{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [9x34] axis=1 gamma rope=interleaved{{.*}} PASS
// CHECK: {{^}}rms_norm bf16 [8x2x128] axis=2 gamma offset=1 rope=rotate_half{{.*}} PASS
// CHECK: {{^}}rms_norm bf16 [4x8x64] axis=2 residual gamma sum rope=interleaved{{.*}} PASS
// CHECK: {{^}}layer_norm f32 [16x2x64] axis=2 gamma beta rope=rotate_half{{.*}} PASS
// CHECK: {{^}}layer_norm bf16 [6x4x256] axis=2 rope=interleaved{{.*}} PASS
// CHECK: {{^}}rms_norm f32 [3x1x4096] axis=2 residual gamma sum rope=rotate_half{{.*}} PASS
// (The reference rounds where the kernel does: 0 or a few last-bit flips,
// where rounding once gives ~2e-3.)
// CHECK: {{^}}rms_norm bf16 [8x4x64] axis=2 gamma{{.*}} rope=rotate_half rounding=each_step: rel_err={{0\.000e\+00|[0-9]\.[0-9]+e-(0[5-9]|[1-9][0-9])}} tol=1e-02 PASS
// CHECK-NOT: FAIL

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rope_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rope_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rms_half_f32() : () -> ()
  func.call @rms_pairs_f32() : () -> ()
  func.call @rms_half_f32_odd() : () -> ()
  func.call @rms_pairs_f32_view() : () -> ()
  func.call @rms_half_bf16() : () -> ()
  func.call @rms_pairs_bf16_residual() : () -> ()
  func.call @ln_half_f32() : () -> ()
  func.call @ln_pairs_bf16() : () -> ()
  func.call @rms_half_f32_long() : () -> ()
  func.call @rms_half_bf16_each_step() : () -> ()
  return
}

func.func @rms_half_bf16_each_step() {
  %x = gpu.alloc host_shared () : memref<8x4x64xbf16>
  %x_u = memref.cast %x : memref<8x4x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 170 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 172 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<8x1x64xbf16>
  %c_u = memref.cast %c : memref<8x1x64xbf16> to memref<*xbf16>
  %c_seed = arith.constant 174 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<8x1x64xbf16>
  %s_u = memref.cast %s : memref<8x1x64xbf16> to memref<*xbf16>
  %s_seed = arith.constant 175 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<8x4x64xbf16>
  %y_u = memref.cast %y : memref<8x4x64xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%x : memref<8x4x64xbf16>) weight(%g : memref<64xbf16>) rope(%c, %s : memref<8x1x64xbf16>, memref<8x1x64xbf16>) outs(%y : memref<8x4x64xbf16>) {epsilon = 1.0e-06 : f64, cast_mode = #norm.cast_mode<before_weight>, rope_rounding = #norm.rope_rounding<each_step>}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  // kHasGamma | kCastBeforeWeight | kRopeEachStep
  %flags = arith.constant 65554 : i64
  func.call @norm_test_check_rope_norm_bf16(%x_u, %d_u, %g_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<8x4x64xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %c : memref<8x1x64xbf16>
  gpu.dealloc %s : memref<8x1x64xbf16>
  gpu.dealloc %y : memref<8x4x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_half_f32() {
  %x = gpu.alloc host_shared () : memref<16x4x128xf32>
  %x_u = memref.cast %x : memref<16x4x128xf32> to memref<*xf32>
  %x_seed = arith.constant 110 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<128xf32>
  %g_u = memref.cast %g : memref<128xf32> to memref<*xf32>
  %g_seed = arith.constant 112 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<16x1x128xf32>
  %c_u = memref.cast %c : memref<16x1x128xf32> to memref<*xf32>
  %c_seed = arith.constant 114 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<16x1x128xf32>
  %s_u = memref.cast %s : memref<16x1x128xf32> to memref<*xf32>
  %s_seed = arith.constant 115 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x4x128xf32>
  %y_u = memref.cast %y : memref<16x4x128xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<16x4x128xf32>) weight(%g : memref<128xf32>) rope(%c, %s : memref<16x1x128xf32>, memref<16x1x128xf32>) outs(%y : memref<16x4x128xf32>) {epsilon = 1.0e-06 : f64}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %d_u, %g_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x4x128xf32>
  gpu.dealloc %g : memref<128xf32>
  gpu.dealloc %c : memref<16x1x128xf32>
  gpu.dealloc %s : memref<16x1x128xf32>
  gpu.dealloc %y : memref<16x4x128xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_pairs_f32() {
  %x = gpu.alloc host_shared () : memref<5x3x36xf32>
  %x_u = memref.cast %x : memref<5x3x36xf32> to memref<*xf32>
  %x_seed = arith.constant 120 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %c = gpu.alloc host_shared () : memref<1x3x36xf32>
  %c_u = memref.cast %c : memref<1x3x36xf32> to memref<*xf32>
  %c_seed = arith.constant 124 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<1x3x36xf32>
  %s_u = memref.cast %s : memref<1x3x36xf32> to memref<*xf32>
  %s_seed = arith.constant 125 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<5x3x36xf32>
  %y_u = memref.cast %y : memref<5x3x36xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<5x3x36xf32>) rope(%c, %s : memref<1x3x36xf32>, memref<1x3x36xf32>) outs(%y : memref<5x3x36xf32>) {epsilon = 1.0e-06 : f64, rope_mode = #norm.rope_mode<interleaved>}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %d_u, %d_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x3x36xf32>
  gpu.dealloc %c : memref<1x3x36xf32>
  gpu.dealloc %s : memref<1x3x36xf32>
  gpu.dealloc %y : memref<5x3x36xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_half_f32_odd() {
  %x = gpu.alloc host_shared () : memref<7x2x34xf32>
  %x_u = memref.cast %x : memref<7x2x34xf32> to memref<*xf32>
  %x_seed = arith.constant 130 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<34xf32>
  %g_u = memref.cast %g : memref<34xf32> to memref<*xf32>
  %g_seed = arith.constant 132 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<7x1x34xf32>
  %c_u = memref.cast %c : memref<7x1x34xf32> to memref<*xf32>
  %c_seed = arith.constant 134 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<7x1x34xf32>
  %s_u = memref.cast %s : memref<7x1x34xf32> to memref<*xf32>
  %s_seed = arith.constant 135 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<7x2x34xf32>
  %y_u = memref.cast %y : memref<7x2x34xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<7x2x34xf32>) weight(%g : memref<34xf32>) rope(%c, %s : memref<7x1x34xf32>, memref<7x1x34xf32>) outs(%y : memref<7x2x34xf32>) {epsilon = 1.0e-06 : f64}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %d_u, %g_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x2x34xf32>
  gpu.dealloc %g : memref<34xf32>
  gpu.dealloc %c : memref<7x1x34xf32>
  gpu.dealloc %s : memref<7x1x34xf32>
  gpu.dealloc %y : memref<7x2x34xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_pairs_f32_view() {
  %xw = gpu.alloc host_shared () : memref<9x36xf32>
  %x = memref.subview %xw[0, 1] [9, 34] [1, 1] : memref<9x36xf32> to memref<9x34xf32, strided<[36, 1], offset: 1>>
  %x_u = memref.cast %x : memref<9x34xf32, strided<[36, 1], offset: 1>> to memref<*xf32>
  %x_seed = arith.constant 140 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<34xf32>
  %g_u = memref.cast %g : memref<34xf32> to memref<*xf32>
  %g_seed = arith.constant 142 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<9x34xf32>
  %c_u = memref.cast %c : memref<9x34xf32> to memref<*xf32>
  %c_seed = arith.constant 144 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<9x34xf32>
  %s_u = memref.cast %s : memref<9x34xf32> to memref<*xf32>
  %s_seed = arith.constant 145 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<9x34xf32>
  %y_u = memref.cast %y : memref<9x34xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<9x34xf32, strided<[36, 1], offset: 1>>) weight(%g : memref<34xf32>) rope(%c, %s : memref<9x34xf32>, memref<9x34xf32>) outs(%y : memref<9x34xf32>) {epsilon = 1.0e-06 : f64, rope_mode = #norm.rope_mode<interleaved>}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %d_u, %g_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %xw : memref<9x36xf32>
  gpu.dealloc %g : memref<34xf32>
  gpu.dealloc %c : memref<9x34xf32>
  gpu.dealloc %s : memref<9x34xf32>
  gpu.dealloc %y : memref<9x34xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @rms_half_bf16() {
  %x = gpu.alloc host_shared () : memref<8x2x128xbf16>
  %x_u = memref.cast %x : memref<8x2x128xbf16> to memref<*xbf16>
  %x_seed = arith.constant 150 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<128xbf16>
  %g_u = memref.cast %g : memref<128xbf16> to memref<*xbf16>
  %g_seed = arith.constant 152 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<8x1x128xbf16>
  %c_u = memref.cast %c : memref<8x1x128xbf16> to memref<*xbf16>
  %c_seed = arith.constant 154 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<8x1x128xbf16>
  %s_u = memref.cast %s : memref<8x1x128xbf16> to memref<*xbf16>
  %s_seed = arith.constant 155 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<8x2x128xbf16>
  %y_u = memref.cast %y : memref<8x2x128xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%x : memref<8x2x128xbf16>) weight(%g : memref<128xbf16>) rope(%c, %s : memref<8x1x128xbf16>, memref<8x1x128xbf16>) outs(%y : memref<8x2x128xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f64}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rope_norm_bf16(%x_u, %d_u, %g_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<8x2x128xbf16>
  gpu.dealloc %g : memref<128xbf16>
  gpu.dealloc %c : memref<8x1x128xbf16>
  gpu.dealloc %s : memref<8x1x128xbf16>
  gpu.dealloc %y : memref<8x2x128xbf16>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_pairs_bf16_residual() {
  %x = gpu.alloc host_shared () : memref<4x8x64xbf16>
  %x_u = memref.cast %x : memref<4x8x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 160 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<4x8x64xbf16>
  %r_u = memref.cast %r : memref<4x8x64xbf16> to memref<*xbf16>
  %r_seed = arith.constant 161 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  %r_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%r_u, %r_seed, %r_mean, %r_scale, %r_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 162 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<4x1x64xbf16>
  %c_u = memref.cast %c : memref<4x1x64xbf16> to memref<*xbf16>
  %c_seed = arith.constant 164 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<4x1x64xbf16>
  %s_u = memref.cast %s : memref<4x1x64xbf16> to memref<*xbf16>
  %s_seed = arith.constant 165 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<4x8x64xbf16>
  %y_u = memref.cast %y : memref<4x8x64xbf16> to memref<*xbf16>
  %sum = gpu.alloc host_shared () : memref<4x8x64xbf16>
  %sum_u = memref.cast %sum : memref<4x8x64xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.rms_norm ins(%x : memref<4x8x64xbf16>) residual(%r : memref<4x8x64xbf16>) weight(%g : memref<64xbf16>) rope(%c, %s : memref<4x1x64xbf16>, memref<4x1x64xbf16>) outs(%y : memref<4x8x64xbf16>) sum_outs(%sum : memref<4x8x64xbf16>) {epsilon = 1.0e-06 : f64, rope_mode = #norm.rope_mode<interleaved>}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_rope_norm_bf16(%x_u, %r_u, %g_u, %d_u, %c_u, %s_u, %y_u, %sum_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<4x8x64xbf16>
  gpu.dealloc %r : memref<4x8x64xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %c : memref<4x1x64xbf16>
  gpu.dealloc %s : memref<4x1x64xbf16>
  gpu.dealloc %y : memref<4x8x64xbf16>
  gpu.dealloc %sum : memref<4x8x64xbf16>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @ln_half_f32() {
  %x = gpu.alloc host_shared () : memref<16x2x64xf32>
  %x_u = memref.cast %x : memref<16x2x64xf32> to memref<*xf32>
  %x_seed = arith.constant 170 : i64
  %x_mean = arith.constant 3.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<64xf32>
  %g_u = memref.cast %g : memref<64xf32> to memref<*xf32>
  %g_seed = arith.constant 172 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<64xf32>
  %b_u = memref.cast %b : memref<64xf32> to memref<*xf32>
  %b_seed = arith.constant 173 : i64
  %b_mean = arith.constant 0.0 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<16x1x64xf32>
  %c_u = memref.cast %c : memref<16x1x64xf32> to memref<*xf32>
  %c_seed = arith.constant 174 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<16x1x64xf32>
  %s_u = memref.cast %s : memref<16x1x64xf32> to memref<*xf32>
  %s_seed = arith.constant 175 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x2x64xf32>
  %y_u = memref.cast %y : memref<16x2x64xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.layer_norm ins(%x : memref<16x2x64xf32>) weight(%g : memref<64xf32>) bias(%b : memref<64xf32>) rope(%c, %s : memref<16x1x64xf32>, memref<16x1x64xf32>) outs(%y : memref<16x2x64xf32>) {epsilon = 1.0e-06 : f64}
  %is_ln = arith.constant 1 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 6 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %d_u, %g_u, %b_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x2x64xf32>
  gpu.dealloc %g : memref<64xf32>
  gpu.dealloc %b : memref<64xf32>
  gpu.dealloc %c : memref<16x1x64xf32>
  gpu.dealloc %s : memref<16x1x64xf32>
  gpu.dealloc %y : memref<16x2x64xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}

func.func @ln_pairs_bf16() {
  %x = gpu.alloc host_shared () : memref<6x4x256xbf16>
  %x_u = memref.cast %x : memref<6x4x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 180 : i64
  %x_mean = arith.constant 1.0 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %c = gpu.alloc host_shared () : memref<6x1x256xbf16>
  %c_u = memref.cast %c : memref<6x1x256xbf16> to memref<*xbf16>
  %c_seed = arith.constant 184 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<6x1x256xbf16>
  %s_u = memref.cast %s : memref<6x1x256xbf16> to memref<*xbf16>
  %s_seed = arith.constant 185 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<6x4x256xbf16>
  %y_u = memref.cast %y : memref<6x4x256xbf16> to memref<*xbf16>
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  norm.layer_norm ins(%x : memref<6x4x256xbf16>) rope(%c, %s : memref<6x1x256xbf16>, memref<6x1x256xbf16>) outs(%y : memref<6x4x256xbf16>) {epsilon = 1.0e-06 : f64, rope_mode = #norm.rope_mode<interleaved>}
  %is_ln = arith.constant 1 : i64
  %inter = arith.constant 1 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rope_norm_bf16(%x_u, %d_u, %d_u, %d_u, %c_u, %s_u, %y_u, %d_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<6x4x256xbf16>
  gpu.dealloc %c : memref<6x1x256xbf16>
  gpu.dealloc %s : memref<6x1x256xbf16>
  gpu.dealloc %y : memref<6x4x256xbf16>
  gpu.dealloc %d : memref<1xbf16>
  return
}

func.func @rms_half_f32_long() {
  %x = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %x_u = memref.cast %x : memref<3x1x4096xf32> to memref<*xf32>
  %x_seed = arith.constant 190 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %r_u = memref.cast %r : memref<3x1x4096xf32> to memref<*xf32>
  %r_seed = arith.constant 191 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  %r_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_f32(%r_u, %r_seed, %r_mean, %r_scale, %r_axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<4096xf32>
  %g_u = memref.cast %g : memref<4096xf32> to memref<*xf32>
  %g_seed = arith.constant 192 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %c = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %c_u = memref.cast %c : memref<3x1x4096xf32> to memref<*xf32>
  %c_seed = arith.constant 194 : i64
  %c_mean = arith.constant 0.0 : f64
  %c_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%c_u, %c_seed, %c_mean, %c_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %s = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %s_u = memref.cast %s : memref<3x1x4096xf32> to memref<*xf32>
  %s_seed = arith.constant 195 : i64
  %s_mean = arith.constant 0.0 : f64
  %s_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f32(%s_u, %s_seed, %s_mean, %s_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %y_u = memref.cast %y : memref<3x1x4096xf32> to memref<*xf32>
  %sum = gpu.alloc host_shared () : memref<3x1x4096xf32>
  %sum_u = memref.cast %sum : memref<3x1x4096xf32> to memref<*xf32>
  %d = gpu.alloc host_shared () : memref<1xf32>
  %d_u = memref.cast %d : memref<1xf32> to memref<*xf32>
  norm.rms_norm ins(%x : memref<3x1x4096xf32>) residual(%r : memref<3x1x4096xf32>) weight(%g : memref<4096xf32>) rope(%c, %s : memref<3x1x4096xf32>, memref<3x1x4096xf32>) outs(%y : memref<3x1x4096xf32>) sum_outs(%sum : memref<3x1x4096xf32>) {epsilon = 1.0e-06 : f64}
  %is_ln = arith.constant 0 : i64
  %inter = arith.constant 0 : i64
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_rope_norm_f32(%x_u, %r_u, %g_u, %d_u, %c_u, %s_u, %y_u, %sum_u, %is_ln, %inter, %eps, %offset, %flags) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x1x4096xf32>
  gpu.dealloc %r : memref<3x1x4096xf32>
  gpu.dealloc %g : memref<4096xf32>
  gpu.dealloc %c : memref<3x1x4096xf32>
  gpu.dealloc %s : memref<3x1x4096xf32>
  gpu.dealloc %y : memref<3x1x4096xf32>
  gpu.dealloc %sum : memref<3x1x4096xf32>
  gpu.dealloc %d : memref<1xf32>
  return
}
