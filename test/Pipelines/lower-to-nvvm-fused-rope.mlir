// --norm-lower-to-nvvm on matmul → per-head norm → RoPE (norm.matmul_rms_norm
// with `rope`, the fused q/k norms of Qwen3, here with the input norm too):
// the GPU GEMM's epilogue does not rotate, so the op becomes the unfused
// sequence before bufferization (noGPUKernelTakes), whose halves reach their
// kernels: the GEMM (here the norm → matmul one) and the row kernel of the
// standalone per-head norm with the rotation. Memref-form ops are an error
// at the op (test/Conversion/NormToGPU/fused-rope-invalid.mlir).
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" --mlir-print-ir-before=convert-norm-to-gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEQ

// CHECK-NOT: norm.
// CHECK-LABEL: llvm.func @q_heads_rope(
// CHECK:         gpu.launch_func
// CHECK:         gpu.launch_func
// CHECK:       gpu.binary

// SEQ-LABEL: func.func @q_heads_rope(
// SEQ-NOT:     norm.matmul_rms_norm
// SEQ:         norm.rms_norm_matmul ins(%{{.*}} : memref<16x64xbf16>) weight(%{{.*}} : memref<64xf32>) rhs(%{{.*}} : memref<128x64xbf16>) outs(%{{.*}} : memref<16x128xbf16>)
// SEQ:         norm.rms_norm ins(%{{.*}} : memref<16x4x32xbf16>) weight(%{{.*}} : memref<32xf32>) rope(%{{.*}}, %{{.*}} : memref<16x1x32xf32>, memref<16x1x32xf32>) outs(%{{.*}} : memref<16x4x32xbf16>)

func.func @q_heads_rope(%a: tensor<16x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<32xf32>, %gi: tensor<64xf32>, %c: tensor<16x1x32xf32>, %s: tensor<16x1x32xf32>) -> tensor<16x128xbf16> {
  %e = tensor.empty() : tensor<16x128xbf16>
  %y = norm.matmul_rms_norm ins(%a : tensor<16x64xbf16>) rhs(%w : tensor<128x64xbf16>) weight(%g : tensor<32xf32>) input_weight(%gi : tensor<64xf32>) rope(%c, %s : tensor<16x1x32xf32>, tensor<16x1x32xf32>) outs(%e : tensor<16x128xbf16>) {head_dim = 32 : i64, transpose_rhs, input_epsilon = 1.0e-6 : f32} -> tensor<16x128xbf16>
  return %y : tensor<16x128xbf16>
}
