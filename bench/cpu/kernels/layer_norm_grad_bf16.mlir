// The LayerNorm gradient for bench/cpu/grad.py: dy and x [R, H], γ [H], the
// forward's saved mean and rstd [R] (f32); dx [R, H], dγ and dβ [H] in the
// data type.
func.func @layer_norm_grad(%dy: memref<?x?xbf16>, %x: memref<?x?xbf16>, %g: memref<?xbf16>,
                           %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x?xbf16>,
                           %dg: memref<?xbf16>, %db: memref<?xbf16>) {
  norm.layer_norm_grad grad(%dy : memref<?x?xbf16>) ins(%x : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x?xbf16>) weight_grad_outs(%dg : memref<?xbf16>)
      bias_grad_outs(%db : memref<?xbf16>) {epsilon = 1.0e-05 : f32}
  return
}
