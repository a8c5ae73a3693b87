// GPU execution of the fused norm/matmul ops through --norm-lower-to-nvvm:
// the tensor-core GEMM kernels (fatbin for sm_90, and PTX JIT-compiled for
// sm_80), each result compared with the float64 reference of test/lib/Runtime
// on seeded random inputs (rows with |mean| >> std included: row 1 of every
// input has mean 1e4), with the tolerances of DESIGN.md §4 (bf16 1e-2, f16
// 2e-3, as ‖out − ref‖ / ‖ref‖). Buffers are managed memory (gpu.alloc
// host_shared), written and checked on the host.
// Cases: RMSNorm → matmul with W as K×N (ldmatrix.trans) and N×K, tails in
// M and N, Gemma's offset and a bias, M = 1 with tails in K and N, K not a
// multiple of 8 (the guarded-load kernel), a rank-3 input; LayerNorm →
// matmul the same way; RMSNorm / LayerNorm → matmul with a residual
// (S = round(X + R) normalized, and returned through sum_outs): tails in M
// and N, M = 1, K not a multiple of 8 (the guarded-load kernel) and N = 0
// (S is still written); matmul → RMSNorm / LayerNorm with a residual, with
// and without sum_outs; RMSNorm / LayerNorm → matmul with K = 0 (C = bias).
// Every buffer is freed (synchronous gpu.dealloc, which the pipeline's
// norm-gpu-async-allocs puts in the async form gpu-to-llvm lowers).
// The same cases with f32 buffers run the SIMT (FMA-unit) GEMM kernels, at
// f32's tolerance (1e-5 as ‖out − ref‖ / ‖ref‖, DESIGN.md §4): the last
// group of RUN lines runs this file with every bf16 and f16 made f32
// (%bf16_to_f32, test/Integration/GPU/lit.local.cfg) against its own CHECK
// lines made f32. With f32 a 16-byte chunk is 4 elements, so the cp.async
// kernel takes K and N multiples of 4: [5x1000] w=[300x1000] runs it in
// f32, where bf16 takes the guarded kernel; K×N with N = 70 and K = 1000
// with N = 300 (N×K) still cover both.
// Few output blocks and K ≥ 512 take the split-K path (2 to 16 K slices
// and the reduction kernel): most cases here, and a decode-shaped LayerNorm
// with 16 slices; the RUN lines with max-split-k=1 turn it off.
// REQUIRES: cuda-gpu
// RUN: norm-opt %s --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %s
// RUN: %bf16_to_f32 %s > %t.f32.mlir
// RUN: norm-opt %t.f32.mlir --norm-lower-to-nvvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %t.f32.mlir
// RUN: norm-opt %t.f32.mlir --norm-lower-to-nvvm="gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %t.f32.mlir
// RUN: norm-opt %t.f32.mlir --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %t.f32.mlir
// RUN: norm-opt %t.f32.mlir --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa gpu-options={max-split-k=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%norm_test_runtime,%norm_cuda_runtime | FileCheck %t.f32.mlir

// CHECK-NOT: FAIL
// CHECK: {{^}}rms_norm_matmul bf16 [64x256] w=[256x128]{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [70x1024] w=[1000x1024]{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [1x520] w=[520x200]{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [33x100] w=[100x70]{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [2x3x64] w=[64x16]{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [64x768] w=[768x256]{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [17x512] w=[384x512]{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [5x1000] w=[300x1000]{{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [1x64] w=[64x8]{{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [16x512] w=[512x1024]{{.*}} PASS
// CHECK: {{^}}matmul_layer_norm f16 [7x256] w=[384x256]{{.*}} PASS
// CHECK: {{^}}matmul_rms_norm bf16 [3x100] w=[100x36]{{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [70x1024] w=[200x1024] residual gamma trans_rhs sum offset=1: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul f16 [1x520] w=[520x200] residual mbias: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [64x768] w=[768x256] residual gamma beta mbias sum: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [5x100] w=[36x100] residual trans_rhs eps_out sum: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [3x64] w=[64x0] residual gamma sum: {{.*}} PASS
// CHECK: {{^}}rms_norm_matmul bf16 [5x0] w=[0x24] gamma mbias: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul f16 [3x0] w=[40x0] gamma beta mbias trans_rhs: {{.*}} PASS
// CHECK: {{^}}layer_norm_matmul bf16 [3x4096] w=[4096x136]{{.*}} PASS
// CHECK-NOT: FAIL

func.func private @norm_test_check_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_layer_norm_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_matmul_rms_norm_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_layer_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_residual_rms_norm_matmul_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  func.call @rmm_kn_bf16() : () -> ()
  func.call @rmm_nk_bf16_tails() : () -> ()
  func.call @rmm_m1_f16() : () -> ()
  func.call @rmm_guarded_bf16() : () -> ()
  func.call @rmm_rank3_bf16() : () -> ()
  func.call @lnm_kn_bf16() : () -> ()
  func.call @lnm_nk_f16() : () -> ()
  func.call @lnm_guarded_bf16() : () -> ()
  func.call @lnm_m1_f16() : () -> ()
  func.call @mrn_kn_bf16() : () -> ()
  func.call @mln_nk_f16() : () -> ()
  func.call @mrn_guarded_bf16() : () -> ()
  func.call @rrmm_nk_bf16_tails() : () -> ()
  func.call @rrmm_kn_m1_f16() : () -> ()
  func.call @rlnm_kn_bf16() : () -> ()
  func.call @rlnm_guarded_f16() : () -> ()
  func.call @rrmm_n0_bf16() : () -> ()
  func.call @rmm_k0_bf16() : () -> ()
  func.call @lnm_k0_f16() : () -> ()
  func.call @lnm_decode_split_bf16() : () -> ()
  return
}

// K = 0 (dynamic; a static 0 is rejected by the verifier): no K tile runs,
// the statistics divide by max(K, 1) (mean 0, a finite r) and C = bias,
// where 0/0 made C NaN.
func.func @rmm_k0_bf16() {
  %x = gpu.alloc host_shared () : memref<5x0xbf16>
  %x_u = memref.cast %x : memref<5x0xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<0xbf16>
  %g_u = memref.cast %g : memref<0xbf16> to memref<*xbf16>
  %w = gpu.alloc host_shared () : memref<0x24xbf16>
  %w_u = memref.cast %w : memref<0x24xbf16> to memref<*xbf16>
  %mb = gpu.alloc host_shared () : memref<24xbf16>
  %mb_u = memref.cast %mb : memref<24xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1901 : i64
  %mb_mean = arith.constant 0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<5x24xbf16>
  %y_u = memref.cast %y : memref<5x24xbf16> to memref<*xbf16>
  %xd = memref.cast %x : memref<5x0xbf16> to memref<5x?xbf16>
  %gd = memref.cast %g : memref<0xbf16> to memref<?xbf16>
  %wd = memref.cast %w : memref<0x24xbf16> to memref<?x24xbf16>
  norm.rms_norm_matmul ins(%xd : memref<5x?xbf16>) weight(%gd : memref<?xbf16>) rhs(%wd : memref<?x24xbf16>) matmul_bias(%mb : memref<24xbf16>) outs(%y : memref<5x24xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 258 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x0xbf16>
  gpu.dealloc %g : memref<0xbf16>
  gpu.dealloc %w : memref<0x24xbf16>
  gpu.dealloc %mb : memref<24xbf16>
  gpu.dealloc %y : memref<5x24xbf16>
  return
}

func.func @lnm_k0_f16() {
  %x = gpu.alloc host_shared () : memref<3x0xf16>
  %x_u = memref.cast %x : memref<3x0xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<0xf16>
  %g_u = memref.cast %g : memref<0xf16> to memref<*xf16>
  %b = gpu.alloc host_shared () : memref<0xf16>
  %b_u = memref.cast %b : memref<0xf16> to memref<*xf16>
  %w = gpu.alloc host_shared () : memref<40x0xf16>
  %w_u = memref.cast %w : memref<40x0xf16> to memref<*xf16>
  %mb = gpu.alloc host_shared () : memref<40xf16>
  %mb_u = memref.cast %mb : memref<40xf16> to memref<*xf16>
  %mb_seed = arith.constant 1902 : i64
  %mb_mean = arith.constant -0.5 : f64
  %mb_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_f16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x40xf16>
  %y_u = memref.cast %y : memref<3x40xf16> to memref<*xf16>
  %xd = memref.cast %x : memref<3x0xf16> to memref<?x?xf16>
  %gd = memref.cast %g : memref<0xf16> to memref<?xf16>
  %bd = memref.cast %b : memref<0xf16> to memref<?xf16>
  %wd = memref.cast %w : memref<40x0xf16> to memref<40x?xf16>
  %yd = memref.cast %y : memref<3x40xf16> to memref<?x40xf16>
  norm.layer_norm_matmul ins(%xd : memref<?x?xf16>) weight(%gd : memref<?xf16>) bias(%bd : memref<?xf16>) rhs(%wd : memref<40x?xf16>) matmul_bias(%mb : memref<40xf16>) outs(%yd : memref<?x40xf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 774 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x0xf16>
  gpu.dealloc %g : memref<0xf16>
  gpu.dealloc %b : memref<0xf16>
  gpu.dealloc %w : memref<40x0xf16>
  gpu.dealloc %mb : memref<40xf16>
  gpu.dealloc %y : memref<3x40xf16>
  return
}

func.func @rmm_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<64x256xbf16>
  %x_u = memref.cast %x : memref<64x256xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1007 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<256x128xbf16>
  %w_u = memref.cast %w : memref<256x128xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1014 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<256xbf16>
  %g_u = memref.cast %g : memref<256xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1021 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<64x128xbf16>
  %y_u = memref.cast %y : memref<64x128xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) weight(%g : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<64x256xbf16>
  gpu.dealloc %w : memref<256x128xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<256xbf16>
  gpu.dealloc %y : memref<64x128xbf16>
  return
}

func.func @rmm_nk_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<70x1024xbf16>
  %x_u = memref.cast %x : memref<70x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1028 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x1024xbf16>
  %w_u = memref.cast %w : memref<1000x1024xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1035 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1024xbf16>
  %g_u = memref.cast %g : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1042 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<1000xbf16>
  %mb_u = memref.cast %mb : memref<1000xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1049 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x1000xbf16>
  %y_u = memref.cast %y : memref<70x1000xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<70x1024xbf16>) weight(%g : memref<1024xbf16>) rhs(%w : memref<1000x1024xbf16>) matmul_bias(%mb : memref<1000xbf16>) outs(%y : memref<70x1000xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 770 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1024xbf16>
  gpu.dealloc %w : memref<1000x1024xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1024xbf16>
  gpu.dealloc %mb : memref<1000xbf16>
  gpu.dealloc %y : memref<70x1000xbf16>
  return
}

func.func @rmm_m1_f16() {
  %x = gpu.alloc host_shared () : memref<1x520xf16>
  %x_u = memref.cast %x : memref<1x520xf16> to memref<*xf16>
  %x_seed = arith.constant 1056 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<520x200xf16>
  %w_u = memref.cast %w : memref<520x200xf16> to memref<*xf16>
  %w_seed = arith.constant 1063 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<1x200xf16>
  %y_u = memref.cast %y : memref<1x200xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<1x520xf16>) rhs(%w : memref<520x200xf16>) outs(%y : memref<1x200xf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_rms_norm_matmul_f16(%x_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x520xf16>
  gpu.dealloc %w : memref<520x200xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<1x200xf16>
  return
}

func.func @rmm_guarded_bf16() {
  %x = gpu.alloc host_shared () : memref<33x100xbf16>
  %x_u = memref.cast %x : memref<33x100xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1070 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<100x70xbf16>
  %w_u = memref.cast %w : memref<100x70xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1077 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<100xbf16>
  %g_u = memref.cast %g : memref<100xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1084 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x70xbf16>
  %y_u = memref.cast %y : memref<33x70xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<33x100xbf16>) weight(%g : memref<100xbf16>) rhs(%w : memref<100x70xbf16>) outs(%y : memref<33x70xbf16>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 10 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<33x100xbf16>
  gpu.dealloc %w : memref<100x70xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<100xbf16>
  gpu.dealloc %y : memref<33x70xbf16>
  return
}

func.func @rmm_rank3_bf16() {
  %x = gpu.alloc host_shared () : memref<2x3x64xbf16>
  %x_u = memref.cast %x : memref<2x3x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1091 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 2 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x16xbf16>
  %w_u = memref.cast %w : memref<64x16xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1098 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1105 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<2x3x16xbf16>
  %y_u = memref.cast %y : memref<2x3x16xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<2x3x64xbf16>) weight(%g : memref<64xbf16>) rhs(%w : memref<64x16xbf16>) outs(%y : memref<2x3x16xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_bf16(%x_u, %g_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<2x3x64xbf16>
  gpu.dealloc %w : memref<64x16xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %y : memref<2x3x16xbf16>
  return
}

func.func @lnm_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<64x768xbf16>
  %x_u = memref.cast %x : memref<64x768xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1112 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<768x256xbf16>
  %w_u = memref.cast %w : memref<768x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1119 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<768xbf16>
  %g_u = memref.cast %g : memref<768xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1126 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<768xbf16>
  %b_u = memref.cast %b : memref<768xbf16> to memref<*xbf16>
  %b_seed = arith.constant 1133 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<256xbf16>
  %mb_u = memref.cast %mb : memref<256xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1140 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<64x256xbf16>
  %y_u = memref.cast %y : memref<64x256xbf16> to memref<*xbf16>
  norm.layer_norm_matmul ins(%x : memref<64x768xbf16>) weight(%g : memref<768xbf16>) bias(%b : memref<768xbf16>) rhs(%w : memref<768x256xbf16>) matmul_bias(%mb : memref<256xbf16>) outs(%y : memref<64x256xbf16>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 262 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<64x768xbf16>
  gpu.dealloc %w : memref<768x256xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<768xbf16>
  gpu.dealloc %b : memref<768xbf16>
  gpu.dealloc %mb : memref<256xbf16>
  gpu.dealloc %y : memref<64x256xbf16>
  return
}

// Decode-shaped: 3 rows (row 1 of mean 1e4) × K = 4096 → N = 136, two
// column blocks: the split-K path with 16 K slices (the most), the
// statistics and LayerNorm's column sums summed over the slices.
func.func @lnm_decode_split_bf16() {
  %x = gpu.alloc host_shared () : memref<3x4096xbf16>
  %x_u = memref.cast %x : memref<3x4096xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1112 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<4096x136xbf16>
  %w_u = memref.cast %w : memref<4096x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1119 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<4096xbf16>
  %g_u = memref.cast %g : memref<4096xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1126 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<4096xbf16>
  %b_u = memref.cast %b : memref<4096xbf16> to memref<*xbf16>
  %b_seed = arith.constant 1133 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<136xbf16>
  %mb_u = memref.cast %mb : memref<136xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1140 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x136xbf16>
  %y_u = memref.cast %y : memref<3x136xbf16> to memref<*xbf16>
  norm.layer_norm_matmul ins(%x : memref<3x4096xbf16>) weight(%g : memref<4096xbf16>) bias(%b : memref<4096xbf16>) rhs(%w : memref<4096x136xbf16>) matmul_bias(%mb : memref<136xbf16>) outs(%y : memref<3x136xbf16>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 262 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x4096xbf16>
  gpu.dealloc %w : memref<4096x136xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<4096xbf16>
  gpu.dealloc %b : memref<4096xbf16>
  gpu.dealloc %mb : memref<136xbf16>
  gpu.dealloc %y : memref<3x136xbf16>
  return
}

func.func @lnm_nk_f16() {
  %x = gpu.alloc host_shared () : memref<17x512xf16>
  %x_u = memref.cast %x : memref<17x512xf16> to memref<*xf16>
  %x_seed = arith.constant 1147 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<384x512xf16>
  %w_u = memref.cast %w : memref<384x512xf16> to memref<*xf16>
  %w_seed = arith.constant 1154 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<512xf16>
  %g_u = memref.cast %g : memref<512xf16> to memref<*xf16>
  %g_seed = arith.constant 1161 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<512xf16>
  %b_u = memref.cast %b : memref<512xf16> to memref<*xf16>
  %b_seed = arith.constant 1168 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<17x384xf16>
  %y_u = memref.cast %y : memref<17x384xf16> to memref<*xf16>
  norm.layer_norm_matmul ins(%x : memref<17x512xf16>) weight(%g : memref<512xf16>) bias(%b : memref<512xf16>) rhs(%w : memref<384x512xf16>) outs(%y : memref<17x384xf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 518 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %g_u, %b_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<17x512xf16>
  gpu.dealloc %w : memref<384x512xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<512xf16>
  gpu.dealloc %b : memref<512xf16>
  gpu.dealloc %y : memref<17x384xf16>
  return
}

func.func @lnm_guarded_bf16() {
  %x = gpu.alloc host_shared () : memref<5x1000xbf16>
  %x_u = memref.cast %x : memref<5x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1175 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<300x1000xbf16>
  %w_u = memref.cast %w : memref<300x1000xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1182 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1189 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<5x300xbf16>
  %y_u = memref.cast %y : memref<5x300xbf16> to memref<*xbf16>
  norm.layer_norm_matmul ins(%x : memref<5x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<300x1000xbf16>) outs(%y : memref<5x300xbf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 514 : i64
  func.call @norm_test_check_layer_norm_matmul_bf16(%x_u, %g_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x1000xbf16>
  gpu.dealloc %w : memref<300x1000xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %y : memref<5x300xbf16>
  return
}

func.func @lnm_m1_f16() {
  %x = gpu.alloc host_shared () : memref<1x64xf16>
  %x_u = memref.cast %x : memref<1x64xf16> to memref<*xf16>
  %x_seed = arith.constant 1196 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<64x8xf16>
  %w_u = memref.cast %w : memref<64x8xf16> to memref<*xf16>
  %w_seed = arith.constant 1203 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<1x8xf16>
  %y_u = memref.cast %y : memref<1x8xf16> to memref<*xf16>
  norm.layer_norm_matmul ins(%x : memref<1x64xf16>) rhs(%w : memref<64x8xf16>) outs(%y : memref<1x8xf16>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 0 : i64
  func.call @norm_test_check_layer_norm_matmul_f16(%x_u, %d_u, %d_u, %w_u, %d_u, %y_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x64xf16>
  gpu.dealloc %w : memref<64x8xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<1x8xf16>
  return
}

func.func @mrn_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<16x512xbf16>
  %x_u = memref.cast %x : memref<16x512xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1210 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<512x1024xbf16>
  %w_u = memref.cast %w : memref<512x1024xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1217 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1024xbf16>
  %g_u = memref.cast %g : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1224 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<1024xbf16>
  %mb_u = memref.cast %mb : memref<1024xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1231 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<16x1024xbf16>
  %r_u = memref.cast %r : memref<16x1024xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1238 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<16x1024xbf16>
  %y_u = memref.cast %y : memref<16x1024xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<16x1024xbf16>
  %s_u = memref.cast %s : memref<16x1024xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%x : memref<16x512xbf16>) rhs(%w : memref<512x1024xbf16>) matmul_bias(%mb : memref<1024xbf16>) residual(%r : memref<16x1024xbf16>) weight(%g : memref<1024xbf16>) outs(%y : memref<16x1024xbf16>) sum_outs(%s : memref<16x1024xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 291 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%x_u, %w_u, %mb_u, %r_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<16x512xbf16>
  gpu.dealloc %w : memref<512x1024xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1024xbf16>
  gpu.dealloc %mb : memref<1024xbf16>
  gpu.dealloc %r : memref<16x1024xbf16>
  gpu.dealloc %y : memref<16x1024xbf16>
  gpu.dealloc %s : memref<16x1024xbf16>
  return
}

func.func @mln_nk_f16() {
  %x = gpu.alloc host_shared () : memref<7x256xf16>
  %x_u = memref.cast %x : memref<7x256xf16> to memref<*xf16>
  %x_seed = arith.constant 1245 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<384x256xf16>
  %w_u = memref.cast %w : memref<384x256xf16> to memref<*xf16>
  %w_seed = arith.constant 1252 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %g = gpu.alloc host_shared () : memref<384xf16>
  %g_u = memref.cast %g : memref<384xf16> to memref<*xf16>
  %g_seed = arith.constant 1259 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_f16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<384xf16>
  %b_u = memref.cast %b : memref<384xf16> to memref<*xf16>
  %b_seed = arith.constant 1266 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %r = gpu.alloc host_shared () : memref<7x384xf16>
  %r_u = memref.cast %r : memref<7x384xf16> to memref<*xf16>
  %r_seed = arith.constant 1273 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<7x384xf16>
  %y_u = memref.cast %y : memref<7x384xf16> to memref<*xf16>
  norm.matmul_layer_norm ins(%x : memref<7x256xf16>) rhs(%w : memref<384x256xf16>) residual(%r : memref<7x384xf16>) weight(%g : memref<384xf16>) bias(%b : memref<384xf16>) outs(%y : memref<7x384xf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 519 : i64
  func.call @norm_test_check_matmul_layer_norm_f16(%x_u, %w_u, %d_u, %r_u, %g_u, %b_u, %y_u, %d_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<7x256xf16>
  gpu.dealloc %w : memref<384x256xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %g : memref<384xf16>
  gpu.dealloc %b : memref<384xf16>
  gpu.dealloc %r : memref<7x384xf16>
  gpu.dealloc %y : memref<7x384xf16>
  return
}

func.func @mrn_guarded_bf16() {
  %x = gpu.alloc host_shared () : memref<3x100xbf16>
  %x_u = memref.cast %x : memref<3x100xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1280 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<100x36xbf16>
  %w_u = memref.cast %w : memref<100x36xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1287 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<36xbf16>
  %g_u = memref.cast %g : memref<36xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1294 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x36xbf16>
  %y_u = memref.cast %y : memref<3x36xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<3x36xbf16>
  %s_u = memref.cast %s : memref<3x36xbf16> to memref<*xbf16>
  norm.matmul_rms_norm ins(%x : memref<3x100xbf16>) rhs(%w : memref<100x36xbf16>) weight(%g : memref<36xbf16>) outs(%y : memref<3x36xbf16>) sum_outs(%s : memref<3x36xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 34 : i64
  func.call @norm_test_check_matmul_rms_norm_bf16(%x_u, %w_u, %d_u, %d_u, %g_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x100xbf16>
  gpu.dealloc %w : memref<100x36xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<36xbf16>
  gpu.dealloc %y : memref<3x36xbf16>
  gpu.dealloc %s : memref<3x36xbf16>
  return
}

func.func @rrmm_nk_bf16_tails() {
  %x = gpu.alloc host_shared () : memref<70x1024xbf16>
  %x_u = memref.cast %x : memref<70x1024xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1301 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<70x1024xbf16>
  %r_u = memref.cast %r : memref<70x1024xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1308 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<200x1024xbf16>
  %w_u = memref.cast %w : memref<200x1024xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1315 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<1024xbf16>
  %g_u = memref.cast %g : memref<1024xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1322 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x200xbf16>
  %y_u = memref.cast %y : memref<70x200xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<70x1024xbf16>
  %s_u = memref.cast %s : memref<70x1024xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<70x1024xbf16>) residual(%r : memref<70x1024xbf16>) weight(%g : memref<1024xbf16>) rhs(%w : memref<200x1024xbf16>) outs(%y : memref<70x200xbf16>) sum_outs(%s : memref<70x1024xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 1.0 : f64
  %flags = arith.constant 547 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %g_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<70x1024xbf16>
  gpu.dealloc %r : memref<70x1024xbf16>
  gpu.dealloc %w : memref<200x1024xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<1024xbf16>
  gpu.dealloc %y : memref<70x200xbf16>
  gpu.dealloc %s : memref<70x1024xbf16>
  return
}

func.func @rrmm_kn_m1_f16() {
  %x = gpu.alloc host_shared () : memref<1x520xf16>
  %x_u = memref.cast %x : memref<1x520xf16> to memref<*xf16>
  %x_seed = arith.constant 1329 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<1x520xf16>
  %r_u = memref.cast %r : memref<1x520xf16> to memref<*xf16>
  %r_seed = arith.constant 1336 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<520x200xf16>
  %w_u = memref.cast %w : memref<520x200xf16> to memref<*xf16>
  %w_seed = arith.constant 1343 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %mb = gpu.alloc host_shared () : memref<200xf16>
  %mb_u = memref.cast %mb : memref<200xf16> to memref<*xf16>
  %mb_seed = arith.constant 1350 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<1x200xf16>
  %y_u = memref.cast %y : memref<1x200xf16> to memref<*xf16>
  norm.rms_norm_matmul ins(%x : memref<1x520xf16>) residual(%r : memref<1x520xf16>) rhs(%w : memref<520x200xf16>) matmul_bias(%mb : memref<200xf16>) outs(%y : memref<1x200xf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 257 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_f16(%x_u, %r_u, %d_u, %w_u, %mb_u, %y_u, %d_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<1x520xf16>
  gpu.dealloc %r : memref<1x520xf16>
  gpu.dealloc %w : memref<520x200xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %mb : memref<200xf16>
  gpu.dealloc %y : memref<1x200xf16>
  return
}

func.func @rlnm_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<64x768xbf16>
  %x_u = memref.cast %x : memref<64x768xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1357 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<64x768xbf16>
  %r_u = memref.cast %r : memref<64x768xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1364 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<768x256xbf16>
  %w_u = memref.cast %w : memref<768x256xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1371 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<768xbf16>
  %g_u = memref.cast %g : memref<768xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1378 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<768xbf16>
  %b_u = memref.cast %b : memref<768xbf16> to memref<*xbf16>
  %b_seed = arith.constant 1385 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %mb = gpu.alloc host_shared () : memref<256xbf16>
  %mb_u = memref.cast %mb : memref<256xbf16> to memref<*xbf16>
  %mb_seed = arith.constant 1392 : i64
  %mb_mean = arith.constant 0.2 : f64
  %mb_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%mb_u, %mb_seed, %mb_mean, %mb_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<64x256xbf16>
  %y_u = memref.cast %y : memref<64x256xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<64x768xbf16>
  %s_u = memref.cast %s : memref<64x768xbf16> to memref<*xbf16>
  norm.layer_norm_matmul ins(%x : memref<64x768xbf16>) residual(%r : memref<64x768xbf16>) weight(%g : memref<768xbf16>) bias(%b : memref<768xbf16>) rhs(%w : memref<768x256xbf16>) matmul_bias(%mb : memref<256xbf16>) outs(%y : memref<64x256xbf16>) sum_outs(%s : memref<64x768xbf16>) {epsilon = 1.0e-05 : f64}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 295 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_bf16(%x_u, %r_u, %g_u, %b_u, %w_u, %mb_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<64x768xbf16>
  gpu.dealloc %r : memref<64x768xbf16>
  gpu.dealloc %w : memref<768x256xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<768xbf16>
  gpu.dealloc %b : memref<768xbf16>
  gpu.dealloc %mb : memref<256xbf16>
  gpu.dealloc %y : memref<64x256xbf16>
  gpu.dealloc %s : memref<64x768xbf16>
  return
}

func.func @rlnm_guarded_f16() {
  %x = gpu.alloc host_shared () : memref<5x100xf16>
  %x_u = memref.cast %x : memref<5x100xf16> to memref<*xf16>
  %x_seed = arith.constant 1399 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<5x100xf16>
  %r_u = memref.cast %r : memref<5x100xf16> to memref<*xf16>
  %r_seed = arith.constant 1406 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<36x100xf16>
  %w_u = memref.cast %w : memref<36x100xf16> to memref<*xf16>
  %w_seed = arith.constant 1413 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xf16>
  %d_u = memref.cast %d : memref<1xf16> to memref<*xf16>
  %y = gpu.alloc host_shared () : memref<5x36xf16>
  %y_u = memref.cast %y : memref<5x36xf16> to memref<*xf16>
  %s = gpu.alloc host_shared () : memref<5x100xf16>
  %s_u = memref.cast %s : memref<5x100xf16> to memref<*xf16>
  norm.layer_norm_matmul ins(%x : memref<5x100xf16>) residual(%r : memref<5x100xf16>) rhs(%w : memref<36x100xf16>) outs(%y : memref<5x36xf16>) sum_outs(%s : memref<5x100xf16>) {epsilon = 1.0e-05 : f64, eps_mode = #norm.eps_mode<outside_sqrt>, transpose_rhs}
  %eps = arith.constant 1.0e-05 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 553 : i64
  func.call @norm_test_check_residual_layer_norm_matmul_f16(%x_u, %r_u, %d_u, %d_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<5x100xf16>
  gpu.dealloc %r : memref<5x100xf16>
  gpu.dealloc %w : memref<36x100xf16>
  gpu.dealloc %d : memref<1xf16>
  gpu.dealloc %y : memref<5x36xf16>
  gpu.dealloc %s : memref<5x100xf16>
  return
}

func.func @rrmm_n0_bf16() {
  %x = gpu.alloc host_shared () : memref<3x64xbf16>
  %x_u = memref.cast %x : memref<3x64xbf16> to memref<*xbf16>
  %x_seed = arith.constant 1420 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<3x64xbf16>
  %r_u = memref.cast %r : memref<3x64xbf16> to memref<*xbf16>
  %r_seed = arith.constant 1427 : i64
  %r_mean = arith.constant 0.25 : f64
  %r_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<64x0xbf16>
  %w_u = memref.cast %w : memref<64x0xbf16> to memref<*xbf16>
  %w_seed = arith.constant 1434 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %d = gpu.alloc host_shared () : memref<1xbf16>
  %d_u = memref.cast %d : memref<1xbf16> to memref<*xbf16>
  %g = gpu.alloc host_shared () : memref<64xbf16>
  %g_u = memref.cast %g : memref<64xbf16> to memref<*xbf16>
  %g_seed = arith.constant 1441 : i64
  %g_mean = arith.constant 1.0 : f64
  %g_scale = arith.constant 0.25 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<3x0xbf16>
  %y_u = memref.cast %y : memref<3x0xbf16> to memref<*xbf16>
  %s = gpu.alloc host_shared () : memref<3x64xbf16>
  %s_u = memref.cast %s : memref<3x64xbf16> to memref<*xbf16>
  norm.rms_norm_matmul ins(%x : memref<3x64xbf16>) residual(%r : memref<3x64xbf16>) weight(%g : memref<64xbf16>) rhs(%w : memref<64x0xbf16>) outs(%y : memref<3x0xbf16>) sum_outs(%s : memref<3x64xbf16>) {epsilon = 1.0e-06 : f64}
  %eps = arith.constant 1.0e-06 : f64
  %offset = arith.constant 0.0 : f64
  %flags = arith.constant 35 : i64
  func.call @norm_test_check_residual_rms_norm_matmul_bf16(%x_u, %r_u, %g_u, %w_u, %d_u, %y_u, %s_u, %eps, %offset, %flags) : (memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, f64, f64, i64) -> ()
  gpu.dealloc %x : memref<3x64xbf16>
  gpu.dealloc %r : memref<3x64xbf16>
  gpu.dealloc %w : memref<64x0xbf16>
  gpu.dealloc %d : memref<1xbf16>
  gpu.dealloc %g : memref<64xbf16>
  gpu.dealloc %y : memref<3x0xbf16>
  gpu.dealloc %s : memref<3x64xbf16>
  return
}
