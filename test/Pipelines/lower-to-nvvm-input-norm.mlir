// --norm-lower-to-nvvm on norm → matmul → norm (norm.matmul_rms_norm with an
// input norm, the fused q/k norms of Qwen3 and Gemma 3): the GPU GEMM has no
// norm prologue beside a norm epilogue, so the op becomes the unfused pair
// before bufferization (noGPUKernelTakes), and both halves reach their
// kernels: the norm → matmul GEMM and the row kernel of the per-head norm.
// Memref-form ops are an error at the op
// (test/Conversion/NormToGPU/input-norm-invalid.mlir).
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" --mlir-print-ir-before=convert-norm-to-gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAIR

// CHECK-NOT: norm.
// CHECK-LABEL: llvm.func @q_heads(
// CHECK:         gpu.launch_func
// CHECK:         gpu.launch_func
// CHECK:       gpu.binary

// PAIR-LABEL: func.func @q_heads(
// PAIR-NOT:     norm.matmul_rms_norm
// PAIR:         norm.rms_norm_matmul ins(%{{.*}} : memref<16x64xbf16>) weight(%{{.*}} : memref<64xf32>) rhs(%{{.*}} : memref<128x64xbf16>) outs(%{{.*}} : memref<16x128xbf16>) {{{.*}}cast_mode = #norm.cast_mode<after_weight>{{.*}}weight_offset = 1.000000e+00 : f32}
// PAIR:         norm.rms_norm ins(%{{.*}} : memref<16x4x32xbf16>) weight(%{{.*}} : memref<32xf32>) outs(%{{.*}} : memref<16x4x32xbf16>)

func.func @q_heads(%a: tensor<16x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<32xf32>, %gi: tensor<64xf32>) -> tensor<16x128xbf16> {
  %e = tensor.empty() : tensor<16x128xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<16x64xbf16>) rhs(%w : tensor<128x64xbf16>) weight(%g : tensor<32xf32>) input_weight(%gi : tensor<64xf32>) outs(%e : tensor<16x128xbf16>) {head_dim = 32 : i64, transpose_rhs, weight_offset = 1.0 : f32, input_epsilon = 1.0e-6 : f32, input_weight_offset = 1.0 : f32, input_cast_mode = #norm.cast_mode<after_weight>} -> tensor<16x128xbf16>
  return %y : tensor<16x128xbf16>
}
