// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// The GPU row kernel rotates with angles whose position dims are one run of
// the row dims followed by broadcast ones; HF's [B, 1, T, D] angles over
// [B, H, T, D] heads (broadcast between two position dims) are an error at
// the op (--norm-decompose takes them), never a kernel without the rotation.
func.func @rope(%x: memref<2x4x8x32xf32>, %c: memref<2x1x8x32xf32>, %s: memref<2x1x8x32xf32>, %y: memref<2x4x8x32xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: has rotary angles broadcast over dim 1 between dims they index (the row kernels take one run of position dims, then broadcast ones)}}
  norm.rms_norm ins(%x : memref<2x4x8x32xf32>) rope(%c, %s : memref<2x1x8x32xf32>, memref<2x1x8x32xf32>) outs(%y : memref<2x4x8x32xf32>) {axis = 3 : i64}
  return
}
