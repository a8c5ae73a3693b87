// RUN: norm-opt %s -verify-diagnostics --norm-drop-sharding

// A partitioned module has no one-process form to go back to.

shard.grid @g(shape = 2)
func.func @partitioned(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{is not a sharding annotation: the module is already partitioned}}
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
