// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// The GPU row kernel does not apply a rotary embedding yet: the op is an
// error at the op, never a kernel that leaves the rotation out.
func.func @rope(%x: memref<8x4x32xf32>, %c: memref<8x1x32xf32>, %s: memref<8x1x32xf32>, %y: memref<8x4x32xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: has a rotary embedding (rope), which the GPU row kernel does not apply yet (--norm-decompose it first)}}
  norm.rms_norm ins(%x : memref<8x4x32xf32>) rope(%c, %s : memref<8x1x32xf32>, memref<8x1x32xf32>) outs(%y : memref<8x4x32xf32>)
  return
}
