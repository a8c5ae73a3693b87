// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics

// A norm op on memrefs the kernels cannot take is an error at the op:
// nothing later in the GPU pipeline lowers one, and the pass must not exit 0
// with it left (mlir-translate would fail on it, far from the cause).

// Every other column of a row (an inner stride of 2) is not a row of
// contiguous elements. (A column slice, stride 1, is lowered:
// norm-to-gpu-strided.mlir.)
func.func @inner_stride(%x: memref<4x8xf32, strided<[16, 2]>>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #0 (memref<4x8xf32, strided<[16, 2]>>) has an inner stride of 2, not 1 (the row kernels read rows of contiguous elements)}}
  norm.rms_norm ins(%x : memref<4x8xf32, strided<[16, 2]>>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A dynamic inner stride may not be 1.
func.func @dynamic_inner_stride(%x: memref<4x8xf32>, %y: memref<4x8xf32, strided<[?, ?], offset: ?>>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #1 (memref<4x8xf32, strided<[?, ?], offset: ?>>) has an inner stride of ?, not 1 (the row kernels read rows of contiguous elements)}}
  norm.rms_norm ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32, strided<[?, ?], offset: ?>>)
  return
}

// -----

// The output counts as much as the input: per-head rows of a split-QKV
// slice (heads 8 apart, tokens 64 apart) are not one row stride apart.
func.func @rows_not_evenly_spaced(%x: memref<2x4x8xf32>, %g: memref<8xf32>, %b: memref<8xf32>,
                                  %y: memref<2x4x8xf32, strided<[64, 8, 1]>>) {
  // expected-error @+1 {{'norm.layer_norm' op is left by convert-norm-to-gpu: operand #3 (memref<2x4x8xf32, strided<[64, 8, 1]>>) has row dims that do not merge into one row stride (dim 0 has stride 64, dim 1 stride 8 and size 4)}}
  norm.layer_norm ins(%x : memref<2x4x8xf32>) weight(%g : memref<8xf32>) bias(%b : memref<8xf32>)
    outs(%y : memref<2x4x8xf32, strided<[64, 8, 1]>>) {axis = 2 : i64}
  return
}

// -----

// A normalized dim that is not contiguous with the next one.
func.func @gappy_normalized_dims(%x: memref<4x2x8xf32, strided<[32, 16, 1]>>, %y: memref<4x2x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm' op is left by convert-norm-to-gpu: operand #0 (memref<4x2x8xf32, strided<[32, 16, 1]>>) has normalized dims that are not contiguous (dim 1 has stride 16)}}
  norm.rms_norm ins(%x : memref<4x2x8xf32, strided<[32, 16, 1]>>) outs(%y : memref<4x2x8xf32>) {axis = 1 : i64}
  return
}

// -----

// The fused GEMMs take identity layouts only.
func.func @strided_fused(%x: memref<16x64xbf16, strided<[128, 1]>>, %w: memref<64x32xbf16>,
                         %c: memref<16x32xbf16>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op is left by convert-norm-to-gpu: operand #0 (memref<16x64xbf16, strided<[128, 1]>>) has non-contiguous rows, which are not supported by the GPU GEMM kernels}}
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16, strided<[128, 1]>>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>)
  return
}
