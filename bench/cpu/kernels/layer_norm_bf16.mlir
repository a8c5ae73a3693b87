// LayerNorm over the last dim, bf16, γ and β; epsilon 1e-5; f32 accumulation
// (default acc_type), rounded once after the weight and bias.
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run layer_norm_bf16.mlir --entry=layer_norm --dims=R,H,H,H,R,H
// (x: R,H; γ: H; β: H; y: R,H).
func.func @layer_norm(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>) {epsilon = 1.0e-05 : f64}
  return
}
