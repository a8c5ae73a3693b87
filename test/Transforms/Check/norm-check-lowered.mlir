// RUN: norm-opt %s --split-input-file --verify-diagnostics \
// RUN:   --norm-check-lowered="pipeline=my-pipeline dialects=linalg,norm,tensor"

// Ops of the other dialects are not the check's business.
func.func @clean(%a: memref<4xf32>, %b: f32) {
  %c0 = arith.constant 0 : index
  memref.store %b, %a[%c0] : memref<4xf32>
  return
}

// -----

#map = affine_map<(d0) -> (d0)>
func.func @generic(%a: memref<4xf32>, %b: memref<4xf32>) {
  // One error for the op, none for its linalg.yield.
  // expected-error @+1 {{'linalg.generic' op is left by my-pipeline: no pass of my-pipeline lowers it}}
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @on_tensors() -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.empty' op is left by my-pipeline: it is on tensors: my-pipeline lowers buffers here (bufferize the IR first)}}
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @strided(%x: memref<4x8xf32, strided<[16, 1]>>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by my-pipeline: operand #0 (memref<4x8xf32, strided<[16, 1]>>) has non-contiguous rows, which are not supported by my-pipeline's row kernels}}
  norm.rms_norm ins(%x : memref<4x8xf32, strided<[16, 1]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// An empty grid or block is rejected here, not by ptxas or the driver.
func.func @empty_launch() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+2 {{'gpu.launch' op has a grid size of 0 in y: an empty launch is not valid on any GPU}}
  // expected-error @+1 {{'gpu.launch' op has a block size of 0 in x: an empty launch is not valid on any GPU}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c0, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c0, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
