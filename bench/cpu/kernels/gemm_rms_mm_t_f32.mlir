// Fused RMSNorm -> matmul, f32, W given as N×K (PyTorch Linear layout,
// transpose_rhs): C = rms_norm(X; γ, ε = 1e-6) · Wᵀ, no matmul bias.
//   norm-run gemm_rms_mm_t_f32.mlir --entry=rms_mm_t --dims=M,K,K,N,K,M,N
// (x: M,K; γ: K; W: N,K; C: M,N).
func.func @rms_mm_t(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                    %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}
