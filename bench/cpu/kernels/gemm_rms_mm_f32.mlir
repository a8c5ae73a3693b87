// Fused RMSNorm -> matmul, f32: C = rms_norm(X; γ, ε = 1e-6) · W, W K×N
// (row-major, the sgemm "NN" case), no matmul bias; f32 accumulation.
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run gemm_rms_mm_f32.mlir --entry=rms_mm --dims=M,K,K,K,N,M,N
// (x: M,K; γ: K; W: K,N; C: M,N).
func.func @rms_mm(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>,
                  %c: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {epsilon = 1.0e-06 : f64}
  return
}
