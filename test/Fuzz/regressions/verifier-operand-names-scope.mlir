// ASan: stack-use-after-scope in the norm verifiers, on any valid norm op with
// a weight or bias (the names "weight"/"bias" were iterated from a dead
// temporary array). Fixed in NormOps.cpp; see docs/testing.md.
func.func @norms(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>,
                 %e: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = norm.rms_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>)
      outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = norm.layer_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>)
      bias(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %l : tensor<4x8xf32>, tensor<4x8xf32>
}
