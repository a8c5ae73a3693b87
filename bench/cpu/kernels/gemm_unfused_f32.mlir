// The unfused sequence, f32: Y = rms_norm(X; γ, ε = 1e-6) into a scratch
// argument, then C = Y · W (linalg.fill + linalg.matmul, W K×N), both on
// memrefs through the project pipeline (norm row kernel, then the packed
// GEMM of lower-matmuls).
//   norm-run gemm_unfused_f32.mlir --entry=unfused --dims=M,K,K,M,K,K,N,M,N
// (x: M,K; γ: K; y: M,K; W: K,N; C: M,N).
func.func @unfused(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>,
                   %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>) {epsilon = 1.0e-06 : f64}
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%y, %w : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
