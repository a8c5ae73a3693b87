// The matmul alone, bf16 inputs: C = X · W with X, W bf16 and C f32 (linalg
// extends both to f32: the product the fused ops compute before their
// single rounding), through the project pipeline's lower-matmuls to the same
// packed GEMM (on AVX512-BF16: the dot-product micro-kernel). C is zeroed
// first (linalg.fill, included in the time, as a BLAS beta = 0 does). C is
// f32 where the fused op writes bf16: M·N·2 more bytes stored.
//   norm-run gemm_matmul_bf16.mlir --entry=matmul --dims=M,K,K,N,M,N
// (x: M,K; W: K,N; C: M,N).
func.func @matmul(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%x, %w : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}
