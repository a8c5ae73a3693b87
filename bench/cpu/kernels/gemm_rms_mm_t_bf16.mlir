// Fused RMSNorm -> matmul, bf16, W given as N×K (PyTorch Linear layout,
// transpose_rhs): C = rms_norm(X; γ, ε = 1e-6) · Wᵀ, no matmul bias.
//   norm-run gemm_rms_mm_t_bf16.mlir --entry=rms_mm_t --dims=M,K,K,N,K,M,N
// (x: M,K; γ: K; W: N,K; C: M,N).
func.func @rms_mm_t(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>,
                    %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}
