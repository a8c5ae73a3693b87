// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// A memref-form norm → matmul → norm (norm.matmul_rms_norm with an input
// norm) has no GPU kernel: an error at the op, never a GEMM that leaves the
// input norm out. `norm-lower-to-nvvm` decomposes the tensor form first
// (test/Pipelines/lower-to-nvvm-input-norm.mlir).

func.func @input_norm_memref(%a: memref<16x64xbf16>, %w: memref<64x128xbf16>, %g: memref<32xbf16>, %y: memref<16x128xbf16>) {
  // expected-error @+1 {{'norm.matmul_rms_norm' op cannot be lowered to a GPU kernel: the GPU GEMM has no norm prologue with a norm epilogue ('input_epsilon'; decompose the op)}}
  norm.matmul_rms_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<64x128xbf16>) weight(%g : memref<32xbf16>) outs(%y : memref<16x128xbf16>) {head_dim = 32 : i64, input_epsilon = 1.0e-6 : f32}
  return
}
