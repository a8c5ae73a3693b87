// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// A norm op on memrefs the kernels cannot take is an error at the op:
// nothing later in the GPU pipeline lowers one, and the pass must not exit 0
// with it left (mlir-translate would fail on it, far from the cause).

// A column slice of a wider row is not contiguous by rows.
func.func @strided_rows(%x: memref<4x8xf32, strided<[16, 1]>>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #0 (memref<4x8xf32, strided<[16, 1]>>) has non-contiguous rows, which are not supported by the GPU row kernel}}
  norm.rms_norm ins(%x : memref<4x8xf32, strided<[16, 1]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// The output counts as much as the input.
func.func @strided_output(%x: memref<4x8xf32>, %g: memref<8xf32>, %b: memref<8xf32>,
                          %y: memref<4x8xf32, strided<[16, 1], offset: 8>>) {
  // expected-error @+1 {{'norm.layer_norm' op is left by convert-norm-to-gpu: operand #3 (memref<4x8xf32, strided<[16, 1], offset: 8>>) has non-contiguous rows, which are not supported by the GPU row kernel}}
  norm.layer_norm ins(%x : memref<4x8xf32>) weight(%g : memref<8xf32>) bias(%b : memref<8xf32>)
    outs(%y : memref<4x8xf32, strided<[16, 1], offset: 8>>)
  return
}

// -----

func.func @strided_fused(%x: memref<16x64xbf16, strided<[128, 1]>>, %w: memref<64x32xbf16>,
                         %c: memref<16x32xbf16>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op is left by convert-norm-to-gpu: operand #0 (memref<16x64xbf16, strided<[128, 1]>>) has non-contiguous rows, which are not supported by the GPU GEMM kernels}}
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16, strided<[128, 1]>>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>)
  return
}
