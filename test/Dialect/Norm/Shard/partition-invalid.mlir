// RUN: norm-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))'

// Splits the norm ops cannot honour: a located error from shard-partition,
// not a crash and not a wrong partition.

shard.grid @g(shape = 2)
func.func @partial_rms(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  // expected-error @below {{cannot split the normalized dims of a partial RMSNorm (its prefix is not a row sum)}}
  %y = norm.rms_norm ins(%xa : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {partial = 0.25 : f32} -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @indivisible(%x: tensor<16x63xf32>) -> tensor<16x63xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x63xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x63xf32>
  %e = tensor.empty() : tensor<16x63xf32>
  // expected-error @below {{cannot split dimension 1 of size 63 of 'tensor<16x63xf32>' into 2 equal parts}}
  %y = norm.rms_norm ins(%xa : tensor<16x63xf32>) outs(%e : tensor<16x63xf32>) -> tensor<16x63xf32>
  %ys = shard.shard %y to %s : tensor<16x63xf32>
  return %ys : tensor<16x63xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @two_grid_axes(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[], [0, 1]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  // expected-error @below {{cannot split its normalized dims over more than one grid axis}}
  %y = norm.layer_norm ins(%xa : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @per_head(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %g: tensor<8xf32>) -> tensor<8x32xf32> {
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %s1 : tensor<64x32xf32>
  %wa = shard.shard %ws to %s1 annotate_for_users : tensor<64x32xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  // expected-error @below {{cannot split the normalized dims of a per-head norm}}
  %y = norm.matmul_rms_norm ins(%a : tensor<8x64xf32>) rhs(%wa : tensor<64x32xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<8x32xf32>) {head_dim = 8 : i64} -> tensor<8x32xf32>
  %ys = shard.shard %y to %s1 : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @dynamic_scales(%x: tensor<16x64xf32>) -> (tensor<16x64xf8E4M3FN>, tensor<16xf32>) {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf8E4M3FN>
  %e1 = tensor.empty() : tensor<16xf32>
  // expected-error @below {{cannot split the normalized dims of a norm with dynamic quantization scales}}
  %y, %sc = norm.rms_norm ins(%xa : tensor<16x64xf32>) outs(%e : tensor<16x64xf8E4M3FN>) scale_outs(%e1 : tensor<16xf32>) -> tensor<16x64xf8E4M3FN>, tensor<16xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf8E4M3FN>
  %ss = shard.shard %sc to %r : tensor<16xf32>
  return %ys, %ss : tensor<16x64xf8E4M3FN>, tensor<16xf32>
}
