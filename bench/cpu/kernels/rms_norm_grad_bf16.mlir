// The RMSNorm gradient for bench/cpu/grad.py: dy and x [R, H], γ [H], the
// forward's saved rstd [R] (f32); dx [R, H] and dγ [H] in the data type.
func.func @rms_norm_grad(%dy: memref<?x?xbf16>, %x: memref<?x?xbf16>, %g: memref<?xbf16>,
                         %r: memref<?xf32>, %dx: memref<?x?xbf16>, %dg: memref<?xbf16>) {
  norm.rms_norm_grad grad(%dy : memref<?x?xbf16>) ins(%x : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) rstd(%r : memref<?xf32>) outs(%dx : memref<?x?xbf16>)
      weight_grad_outs(%dg : memref<?xbf16>) {epsilon = 1.0e-06 : f32}
  return
}
