// QK-norm fused, f32 (Qwen3-like, 32 heads of 128): Y = per-head
// rms_norm(A · W; γ[128], ε = 1e-6), A M×K, W K×4096 (K×N), Y M×4096; the
// statistics of each head gathered in the GEMM's epilogue (head_dim = 128).
//   norm-run qk_norm_fused_n4096_f32.mlir --entry=qk_fused --dims=M,K,K,M
// (A: M,K; W: K; Y: M; γ static).
func.func @qk_fused(%a: memref<?x?xf32>, %w: memref<?x4096xf32>, %g: memref<128xf32>,
                    %y: memref<?x4096xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x4096xf32>)
      weight(%g : memref<128xf32>) outs(%y : memref<?x4096xf32>)
      {epsilon = 1.0e-06 : f64, head_dim = 128 : i64}
  return
}
