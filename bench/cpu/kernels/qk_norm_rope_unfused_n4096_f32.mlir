// QK-norm → RoPE unfused, f32 (Qwen3-like, 32 heads of 128): S = A · W
// (linalg.fill + linalg.matmul, the project's GEMM through lower-matmuls)
// into a scratch argument, then norm.rms_norm with rope(cos, sin) over the
// last dim of S viewed as [M, 32, 128] (the row kernel, one head a row,
// rotated as it is normalized) into Y.
//   norm-run qk_norm_rope_unfused_n4096_f32.mlir --entry=qk_unfused --dims=M,K,K,M,M,M,M
// (A: M,K; W: K; cos, sin: M; S: M; Y: M).
func.func @qk_unfused(%a: memref<?x?xf32>, %w: memref<?x4096xf32>, %g: memref<128xf32>,
                      %c: memref<?x1x128xf32>, %sn: memref<?x1x128xf32>,
                      %s: memref<?x4096xf32>, %y: memref<?x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<?x4096xf32>)
  linalg.matmul ins(%a, %w : memref<?x?xf32>, memref<?x4096xf32>) outs(%s : memref<?x4096xf32>)
  %c0 = arith.constant 0 : index
  %m = memref.dim %s, %c0 : memref<?x4096xf32>
  %sh = memref.expand_shape %s [[0], [1, 2]] output_shape [%m, 32, 128] : memref<?x4096xf32> into memref<?x32x128xf32>
  %yh = memref.expand_shape %y [[0], [1, 2]] output_shape [%m, 32, 128] : memref<?x4096xf32> into memref<?x32x128xf32>
  norm.rms_norm ins(%sh : memref<?x32x128xf32>) weight(%g : memref<128xf32>)
      rope(%c, %sn : memref<?x1x128xf32>, memref<?x1x128xf32>)
      outs(%yh : memref<?x32x128xf32>) {epsilon = 1.0e-06 : f64}
  return
}
