// RMSNorm over the last dim, f32, γ; epsilon 1e-6; f32 accumulation (default
// acc_type), rounded once after the weight (default cast_mode).
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run rms_norm_f32.mlir --entry=rms_norm --dims=R,H,H,R,H
// (x: R,H; γ: H; y: R,H).
func.func @rms_norm(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>) {epsilon = 1.0e-06 : f64}
  return
}
