// The matmul alone, f32: C = X · W, W K×N, as the linalg.matmul the
// project pipeline (lower-matmuls, on by default) compiles to the same
// packed GEMM as the fused ops. linalg.matmul accumulates into C, so C is
// zeroed first (linalg.fill, included in the time, as a BLAS beta = 0 does).
//   norm-run gemm_matmul_f32.mlir --entry=matmul --dims=M,K,K,N,M,N
// (x: M,K; W: K,N; C: M,N).
func.func @matmul(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%x, %w : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
