// The unfused sequence, bf16: Y = rms_norm(X; γ, ε = 1e-6) (bf16, f32
// statistics) into a scratch argument, then C = Y · W (linalg.fill +
// linalg.matmul, bf16 inputs, f32 C, W K×N), both on memrefs through the
// project pipeline (norm row kernel, then the packed GEMM of lower-matmuls).
//   norm-run gemm_unfused_bf16.mlir --entry=unfused --dims=M,K,K,M,K,K,N,M,N
// (x: M,K; γ: K; y: M,K; W: K,N; C: M,N).
func.func @unfused(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>,
                   %w: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>) {epsilon = 1.0e-06 : f64}
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%y, %w : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}
