// The transform library of mma-sync-layout.mlir: upstream's
// transform.nvgpu.rewrite_matmul_as_mma_sync on every linalg.matmul.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %matmul : (!transform.any_op) -> ()
    transform.yield
  }
}
