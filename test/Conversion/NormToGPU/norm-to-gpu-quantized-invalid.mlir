// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// Quantized outputs (DESIGN.md §8) the GPU row kernel does not write yet:
// per-group scales. The op is an error at the op, never left behind with
// exit 0.

func.func @per_group(%x: memref<4x256xf32>, %q: memref<4x256xf8E4M3FN>, %sc: memref<4x2xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: has per-group quantization scales, which the GPU row kernel does not compute yet (--norm-decompose it first)}}
  norm.rms_norm ins(%x : memref<4x256xf32>) outs(%q : memref<4x256xf8E4M3FN>) scale_outs(%sc : memref<4x2xf32>) {group_size = 128 : i64}
  return
}

// -----

func.func @per_group_i8(%x: memref<4x64xbf16>, %q: memref<4x64xi8>, %sc: memref<4x2xf32>) {
  // expected-error @+1 {{'norm.layer_norm' op is left by convert-norm-to-gpu: has per-group quantization scales, which the GPU row kernel does not compute yet (--norm-decompose it first)}}
  norm.layer_norm ins(%x : memref<4x64xbf16>) outs(%q : memref<4x64xi8>) scale_outs(%sc : memref<4x2xf32>) {group_size = 32 : i64}
  return
}

