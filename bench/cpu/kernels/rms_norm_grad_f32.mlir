// The RMSNorm gradient for bench/cpu/grad.py: dy and x [R, H], γ [H], the
// forward's saved rstd [R] (f32); dx [R, H] and dγ [H] in the data type.
func.func @rms_norm_grad(%dy: memref<?x?xf32>, %x: memref<?x?xf32>, %g: memref<?xf32>,
                         %r: memref<?xf32>, %dx: memref<?x?xf32>, %dg: memref<?xf32>) {
  norm.rms_norm_grad grad(%dy : memref<?x?xf32>) ins(%x : memref<?x?xf32>)
      weight(%g : memref<?xf32>) rstd(%r : memref<?xf32>) outs(%dx : memref<?x?xf32>)
      weight_grad_outs(%dg : memref<?xf32>) {epsilon = 1.0e-06 : f32}
  return
}
