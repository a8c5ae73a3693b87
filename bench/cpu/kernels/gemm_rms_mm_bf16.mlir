// Fused RMSNorm -> matmul, bf16: C = rms_norm(X; γ, ε = 1e-6) · W, W K×N
// (row-major, the sgemm "NN" case), no matmul bias; f32 accumulation (default
// acc_type), C rounded to bf16 once.
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run gemm_rms_mm_bf16.mlir --entry=rms_mm --dims=M,K,K,K,N,M,N
// (x: M,K; γ: K; W: K,N; C: M,N).
func.func @rms_mm(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %w: memref<?x?xbf16>,
                  %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
