// The unfused pairs that the norm → matmul → norm ops of ../input-norm.mlir
// stand for: decomposed, both files give the same IR.

func.func @qk_input_norm(%a: tensor<4x64xf32>, %w: tensor<32x64xf32>, %g: tensor<8xf32>, %gi: tensor<64xf32>, %i: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %s0 = tensor.empty() : tensor<4x32xf32>
  %s = norm.rms_norm_matmul ins(%a : tensor<4x64xf32>) weight(%gi : tensor<64xf32>) rhs(%w : tensor<32x64xf32>) outs(%s0 : tensor<4x32xf32>) {acc_type = f32, eps_mode = #norm.eps_mode<inside_sqrt>, epsilon = 1.0e-5 : f32, transpose_rhs} -> tensor<4x32xf32>
  %sh = tensor.expand_shape %s [[0], [1, 2]] output_shape [4, 4, 8] : tensor<4x32xf32> into tensor<4x4x8xf32>
  %ih = tensor.expand_shape %i [[0], [1, 2]] output_shape [4, 4, 8] : tensor<4x32xf32> into tensor<4x4x8xf32>
  %n = norm.rms_norm ins(%sh : tensor<4x4x8xf32>) weight(%g : tensor<8xf32>) outs(%ih : tensor<4x4x8xf32>) {acc_type = f32, eps_mode = #norm.eps_mode<inside_sqrt>, epsilon = 1.0e-6 : f32} -> tensor<4x4x8xf32>
  %y = tensor.collapse_shape %n [[0], [1, 2]] : tensor<4x4x8xf32> into tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

func.func @gemma_memref(%a: memref<4x32xbf16>, %w: memref<32x16xbf16>, %mb: memref<16xbf16>, %g: memref<16xf32>, %gi: memref<32xf32>, %y: memref<4x16xbf16>) {
  %s = memref.alloc() : memref<4x16xbf16>
  norm.rms_norm_matmul ins(%a : memref<4x32xbf16>) weight(%gi : memref<32xf32>) rhs(%w : memref<32x16xbf16>) matmul_bias(%mb : memref<16xbf16>) outs(%s : memref<4x16xbf16>) {acc_type = f32, cast_mode = #norm.cast_mode<after_weight>, eps_mode = #norm.eps_mode<inside_sqrt>, epsilon = 1.0e-6 : f32, weight_offset = 1.0 : f32}
  norm.rms_norm ins(%s : memref<4x16xbf16>) weight(%g : memref<16xf32>) outs(%y : memref<4x16xbf16>) {acc_type = f32, eps_mode = #norm.eps_mode<inside_sqrt>, weight_offset = 1.0 : f32}
  memref.dealloc %s : memref<4x16xbf16>
  return
}
