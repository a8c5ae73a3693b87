// The LayerNorm gradient for bench/cpu/grad.py: dy and x [R, H], γ [H], the
// forward's saved mean and rstd [R] (f32); dx [R, H], dγ and dβ [H] in the
// data type.
func.func @layer_norm_grad(%dy: memref<?x?xf32>, %x: memref<?x?xf32>, %g: memref<?xf32>,
                           %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x?xf32>,
                           %dg: memref<?xf32>, %db: memref<?xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x?xf32>) ins(%x : memref<?x?xf32>)
      weight(%g : memref<?xf32>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x?xf32>) weight_grad_outs(%dg : memref<?xf32>)
      bias_grad_outs(%db : memref<?xf32>) {epsilon = 1.0e-05 : f32}
  return
}
