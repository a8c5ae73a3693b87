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

// -----

// A row-parallel matmul (K split) from zero: linalg's partition gives the
// init to process 0 and a zero fill to the others through an scf.if; the
// init is that zero already, so the pass lets every process start from it
// (the CPU pipeline then sees a matmul of a fill, its GEMM).
// CHECK-LABEL: func.func @row_parallel_from_zero
// CHECK-NOT: scf.if
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK-NOT: scf.if
// CHECK: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x32xf32>) outs(%[[ZERO]] : tensor<8x32xf32>)
// CHECK: shard.all_reduce %[[P]] on @g grid_axes = [0] : tensor<8x32xf32> -> tensor<8x32xf32>
shard.grid @g(shape = 2)
func.func @row_parallel_from_zero(%a: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %k = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %k0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %k : tensor<8x32xf32>
  %aa = shard.shard %as to %k annotate_for_users : tensor<8x32xf32>
  %ws = shard.shard %w to %k0 : tensor<32x32xf32>
  %wa = shard.shard %ws to %k0 annotate_for_users : tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = linalg.matmul ins(%aa, %wa : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %cr = shard.shard %c to %r : tensor<8x32xf32>
  return %cr : tensor<8x32xf32>
}

// -----

// Accumulating into another init (here ones): only process 0 may add it,
// so the scf.if stays.
// CHECK-LABEL: func.func @row_parallel_from_ones
// CHECK: %[[SELF:.*]] = shard.process_multi_index on @g axes = [0] : index
// CHECK: scf.if
// CHECK: linalg.matmul
// CHECK: shard.all_reduce
shard.grid @g(shape = 2)
func.func @row_parallel_from_ones(%a: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %k = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %k0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %k : tensor<8x32xf32>
  %aa = shard.shard %as to %k annotate_for_users : tensor<8x32xf32>
  %ws = shard.shard %w to %k0 : tensor<32x32xf32>
  %wa = shard.shard %ws to %k0 annotate_for_users : tensor<32x32xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = linalg.matmul ins(%aa, %wa : tensor<8x32xf32>, tensor<32x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %cr = shard.shard %c to %r : tensor<8x32xf32>
  return %cr : tensor<8x32xf32>
}
