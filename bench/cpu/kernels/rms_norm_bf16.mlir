// RMSNorm over the last dim, bf16, γ; epsilon 1e-6; f32 accumulation (default
// acc_type), rounded once after the weight (default cast_mode).
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run rms_norm_bf16.mlir --entry=rms_norm --dims=R,H,H,R,H
// (x: R,H; γ: H; y: R,H).
func.func @rms_norm(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
