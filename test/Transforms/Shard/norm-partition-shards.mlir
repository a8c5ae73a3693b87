// RUN: norm-opt %s -split-input-file --norm-partition-shards | FileCheck %s
// RUN: norm-opt %s -split-input-file --norm-drop-sharding | FileCheck %s --check-prefix=DROP

// norm-partition-shards partitions the functions that use shard ops and
// leaves the others (a driver, declarations) alone; norm-drop-sharding
// gives the one-process program of the same file.

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%{{.*}}: tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK: shard.all_reduce %{{.*}} on @g grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
// CHECK-LABEL: func.func @driver
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<16x64xf32>
// DROP-NOT: shard.
// DROP-LABEL: func.func @split
// DROP-SAME: (%[[X:.*]]: tensor<16x64xf32>) -> tensor<16x64xf32>
// DROP: norm.rms_norm ins(%[[X]] : tensor<16x64xf32>)
// DROP-NOT: shard.
shard.grid @g(shape = 2)
func.func private @declared(tensor<16x64xf32>)
func.func @split(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%xa : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}
func.func @driver(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = arith.addf %x, %x : tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// No grid: unchanged (the CPU pipeline runs the pass on every module).
// CHECK-LABEL: func.func @plain
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
