// RUN: norm-opt %s --split-input-file --verify-diagnostics --norm-lower-to-nvvm="format=isa"

// --norm-lower-to-nvvm lowers norm ops and the structured linalg ops around
// them (test/Pipelines/lower-to-nvvm-model-ops.mlir); anything else it would
// leave in the host code is a located error saying why, never an exit 0
// with IR mlir-translate rejects.

// A norm op on every other column of a row (an inner stride of 2; a column
// slice is lowered): refused by convert-norm-to-gpu.
func.func @strided_norm(%x: memref<4x8xf32, strided<[16, 2]>>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #0 (memref<4x8xf32, strided<[16, 2]>>) has an inner stride of 2, not 1 (the row kernels read rows of contiguous elements)}}
  norm.rms_norm ins(%x : memref<4x8xf32, strided<[16, 2]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A linalg op that is not a structured op (linalg.softmax has no loops of
// its own; frontends spell softmax as generics, which are lowered): named
// before the host conversion. The same on buffers and on tensors (which
// the pipeline bufferizes first).
func.func @softmax(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'linalg.softmax' op is left by norm-lower-to-nvvm: no pass of norm-lower-to-nvvm lowers it}}
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

func.func @softmax_on_tensors(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{'linalg.softmax' op is left by norm-lower-to-nvvm: no pass of norm-lower-to-nvvm lowers it}}
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// An op on tensors that has no bufferization (TOSA is lowered to linalg
// first, e.g. by --tosa-to-linalg-pipeline): one-shot bufferization's
// error at the op.
func.func @tosa_on_tensors(%x: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{op was not bufferized}}
  %y = tosa.add %x, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// An empty block: a located error, not a ptxas failure ("Positive non-zero
// value expected for maxntid"); with format=isa nothing noticed it.
func.func @empty_block(%m: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch_func' op has a block size of 0 in x: an empty launch is not valid on any GPU}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c0, %sy = %c1, %sz = %c1) {
    memref.store %v, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
