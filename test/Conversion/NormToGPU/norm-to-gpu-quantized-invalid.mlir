// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// Quantized outputs (DESIGN.md §8) have no GPU kernel yet: the op is an
// error at the op, never left behind with exit 0.

func.func @static_scale(%x: memref<4x64xf32>, %s: f32, %q: memref<4x64xf8E4M3FN>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: has a quantized output, which the row kernels do not write}}
  norm.rms_norm ins(%x : memref<4x64xf32>) scale(%s : f32) outs(%q : memref<4x64xf8E4M3FN>)
  return
}

// -----

func.func @per_token(%x: memref<4x64xbf16>, %q: memref<4x64xi8>, %sc: memref<4xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op is left by convert-norm-to-gpu: has a quantized output, which the row kernels do not write}}
  norm.layer_norm ins(%x : memref<4x64xbf16>) outs(%q : memref<4x64xi8>) scale_outs(%sc : memref<4xf32>)
  return
}
