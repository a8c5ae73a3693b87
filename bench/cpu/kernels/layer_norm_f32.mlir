// LayerNorm over the last dim, f32, γ and β; epsilon 1e-5; f32 accumulation
// (default acc_type), rounded once after the weight and bias.
// Destination-passing style on dynamic memrefs, for norm-run:
//   norm-run layer_norm_f32.mlir --entry=layer_norm --dims=R,H,H,H,R,H
// (x: R,H; γ: H; β: H; y: R,H).
func.func @layer_norm(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>) {epsilon = 1.0e-05 : f64}
  return
}
