// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// A memref-form matmul → per-head norm → RoPE (norm.matmul_rms_norm with
// `rope`) has no GPU kernel: an error at the op, never a GEMM that leaves
// the rotation out. `norm-lower-to-nvvm` decomposes the tensor form first
// (test/Pipelines/lower-to-nvvm-fused-rope.mlir).

func.func @rope_memref(%a: memref<16x64xbf16>, %w: memref<64x128xbf16>, %g: memref<32xbf16>, %c: memref<16x1x32xbf16>, %y: memref<16x128xbf16>) {
  // expected-error @+1 {{'norm.matmul_rms_norm' op cannot be lowered to a GPU kernel: the GPU GEMM's per-head epilogue has no rotary embedding ('rope'; decompose the op)}}
  norm.matmul_rms_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<64x128xbf16>) weight(%g : memref<32xbf16>) rope(%c, %c : memref<16x1x32xbf16>, memref<16x1x32xbf16>) outs(%y : memref<16x128xbf16>) {head_dim = 32 : i64}
  return
}
