// RUN: norm-opt %s --split-input-file --verify-diagnostics --norm-lower-to-nvvm="format=isa"

// --norm-lower-to-nvvm lowers memref-form norm ops (and, with
// lower-matmuls, matmuls); anything else it would leave in the host code is
// a located error saying why, never an exit 0 with IR mlir-translate
// rejects.

// A norm op on every other column of a row (an inner stride of 2; a column
// slice is lowered): refused by convert-norm-to-gpu.
func.func @strided_norm(%x: memref<4x8xf32, strided<[16, 2]>>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #0 (memref<4x8xf32, strided<[16, 2]>>) has an inner stride of 2, not 1 (the row kernels read rows of contiguous elements)}}
  norm.rms_norm ins(%x : memref<4x8xf32, strided<[16, 2]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A plain host-side linalg op: no pass of the pipeline lowers it.
#map = affine_map<(d0) -> (d0)>
func.func @generic(%a: memref<64xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{'linalg.generic' op is left by norm-lower-to-nvvm: no pass of norm-lower-to-nvvm lowers it}}
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matmul without lower-matmuls (or one the GEMM does not take) is named
// before the host conversion turns its body into llvm ops (which the
// verifier then rejected as "expected add/mul op in the body").
func.func @matmul(%a: memref<16x32xf32>, %b: memref<32x8xf32>, %c: memref<16x8xf32>) {
  // expected-error @+1 {{'linalg.matmul' op is left by norm-lower-to-nvvm: no pass of norm-lower-to-nvvm lowers it}}
  linalg.matmul ins(%a, %b : memref<16x32xf32>, memref<32x8xf32>) outs(%c : memref<16x8xf32>)
  return
}

// -----

func.func @batch_matmul(%a: memref<2x16x32xf16>, %b: memref<2x32x8xf16>, %c: memref<2x16x8xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op is left by norm-lower-to-nvvm: no pass of norm-lower-to-nvvm lowers it}}
  linalg.batch_matmul ins(%a, %b : memref<2x16x32xf16>, memref<2x32x8xf16>) outs(%c : memref<2x16x8xf32>)
  return
}

// -----

// The pipeline takes buffers.
func.func @on_tensors(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm' op is left by norm-lower-to-nvvm: it is on tensors: norm-lower-to-nvvm lowers buffers here (bufferize the IR first)}}
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
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
