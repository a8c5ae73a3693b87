// RUN: norm-opt %s --split-input-file --convert-norm-to-gpu -verify-diagnostics

// The gradient kernels take identity layouts and no pRMSNorm: anything else
// on memrefs is a located error (nothing later in the GPU pipeline lowers
// it). On tensors the op is left alone (bufferization's business).

func.func @partial(%dy: memref<4x64xf32>, %x: memref<4x64xf32>, %dx: memref<4x64xf32>) {
  // expected-error @+1 {{'norm.rms_norm_grad' op is left by convert-norm-to-gpu: the gradient kernels have no pRMSNorm (partial < 1)}}
  norm.rms_norm_grad grad(%dy : memref<4x64xf32>) ins(%x : memref<4x64xf32>)
      outs(%dx : memref<4x64xf32>) {partial = 0.5 : f32}
  return
}

// -----

func.func @strided(%s: memref<4x64xf32, strided<[128, 1]>>, %x: memref<4x64xf32>,
                   %dx: memref<4x64xf32>) {
  // expected-error @+1 {{'norm.layer_norm_grad' op is left by convert-norm-to-gpu: the gradient kernels take memrefs with identity layouts only}}
  norm.layer_norm_grad grad(%s : memref<4x64xf32, strided<[128, 1]>>) ins(%x : memref<4x64xf32>)
      outs(%dx : memref<4x64xf32>)
  return
}
