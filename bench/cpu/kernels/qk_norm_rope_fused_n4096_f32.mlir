// QK-norm → RoPE fused, f32 (Qwen3-like, 32 heads of 128): Y = per-head
// rms_norm(A · W; γ[128], ε = 1e-6), each head rotated (rotate_half) by the
// angles of its row, A M×K, W K×4096 (K×N), cos/sin M×1×128, Y M×4096: the
// statistics of each head gathered in the GEMM's epilogue, the head rotated
// as the row kernel normalizes it (head_dim = 128, rope).
//   norm-run qk_norm_rope_fused_n4096_f32.mlir --entry=qk_fused --dims=M,K,K,M,M,M
// (A: M,K; W: K; cos, sin: M; Y: M; γ static).
func.func @qk_fused(%a: memref<?x?xf32>, %w: memref<?x4096xf32>, %g: memref<128xf32>,
                    %c: memref<?x1x128xf32>, %s: memref<?x1x128xf32>,
                    %y: memref<?x4096xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xf32>) rhs(%w : memref<?x4096xf32>)
      weight(%g : memref<128xf32>)
      rope(%c, %s : memref<?x1x128xf32>, memref<?x1x128xf32>)
      outs(%y : memref<?x4096xf32>)
      {epsilon = 1.0e-06 : f64, head_dim = 128 : i64}
  return
}
