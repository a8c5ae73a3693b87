// norm-opt --norm-fuse-matmul died of SIGFPE (a division by the zero extent in
// the head-view analysis, HeadViews.cpp cut()) on an empty matmul product
// seen through an expand_shape to heads.
func.func @zero_rows(%a: tensor<0x32xf32>, %w: tensor<32x16xf32>) -> tensor<0x2x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<0x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<0x16xf32>) -> tensor<0x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<0x32xf32>, tensor<32x16xf32>) outs(%z : tensor<0x16xf32>) -> tensor<0x16xf32>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [0, 2, 2, 8] : tensor<0x16xf32> into tensor<0x2x2x8xf32>
  %e = tensor.empty() : tensor<0x2x2x8xf32>
  %y = norm.rms_norm ins(%h : tensor<0x2x2x8xf32>) outs(%e : tensor<0x2x2x8xf32>) -> tensor<0x2x2x8xf32>
  return %y : tensor<0x2x2x8xf32>
}
func.func @zero_cols(%a: tensor<4x32xf32>, %w: tensor<32x0xf32>) -> tensor<4x0x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x0xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x0xf32>) -> tensor<4x0xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x0xf32>) outs(%z : tensor<4x0xf32>) -> tensor<4x0xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 0, 8] : tensor<4x0xf32> into tensor<4x0x8xf32>
  %e = tensor.empty() : tensor<4x0x8xf32>
  %y = norm.rms_norm ins(%h : tensor<4x0x8xf32>) outs(%e : tensor<4x0x8xf32>) -> tensor<4x0x8xf32>
  return %y : tensor<4x0x8xf32>
}
