// RUN: norm-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition,canonicalize))' | FileCheck %s

// The norm ops under sharding-propagation + shard-partition (DESIGN.md §10):
// rows split → a clone on the local rows, no collective; the normalized dim
// split → the decomposition with only the row statistics all-reduced.

shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @rms_rows
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64xf32>) -> tensor<8x64xf32>
// CHECK-NOT: shard.
// CHECK: norm.rms_norm ins(%[[X]] : tensor<8x64xf32>) weight(%[[W]] : tensor<64xf32>)
// CHECK-NOT: shard.
// CHECK: return
func.func @rms_rows(%x: tensor<16x64xf32>, %w: tensor<64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%xa : tensor<16x64xf32>) weight(%w : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}

// -----

// The hidden dim split: Σx² of the local half of each row, one value per
// row all-reduced (tensor<16xf32>, not the rows), the global count 64, γ split.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @rms_hidden
// CHECK-SAME: (%[[X:.*]]: tensor<16x32xf32>, %[[W:.*]]: tensor<32xf32>) -> tensor<16x32xf32>
// CHECK-DAG: %[[N:.*]] = arith.constant 6.400000e+01 : f32
// CHECK: %[[SQ:.*]]:2 = linalg.generic {{.*}} ins(%[[X]] : tensor<16x32xf32>) outs({{.*}} : tensor<16xf32>, tensor<16xf32>)
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[SQ]]#0 on @g grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
// CHECK-NOT: shard.
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<16xf32>)
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[RSTD]], %[[W]] : tensor<16x32xf32>, tensor<16xf32>, tensor<32xf32>) outs({{.*}} : tensor<16x32xf32>)
// CHECK-NOT: shard.
// CHECK: return
func.func @rms_hidden(%x: tensor<16x64xf32>, %w: tensor<64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%xa : tensor<16x64xf32>) weight(%w : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}

// -----

// LayerNorm, hidden dim split: each process's (mean, M2) pair goes into its
// own slot of a zero [2, P, rows] tensor, one all-reduce, then Chan's combine
// in the same order on every process. γ and β split like the dim; the mean
// result is whole.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @ln_hidden
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>, %[[W:.*]]: tensor<32xf32>, %[[B:.*]]: tensor<32xf32>) -> (tensor<4x32xf32>, tensor<4xf32>)
// CHECK: %[[SELF:.*]] = shard.process_multi_index on @g axes = [0] : index
// CHECK: %[[SLOTS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x4xf32>)
// CHECK: linalg.index 1 : index
// CHECK: arith.cmpi eq, %{{.*}}, %[[SELF]] : index
// CHECK: %[[ALL:.*]] = shard.all_reduce %[[SLOTS]] on @g grid_axes = [0] : tensor<2x2x4xf32> -> tensor<2x2x4xf32>
// CHECK-NOT: shard.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[ALL]] : tensor<2x2x4xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[ALL]], %[[ALL]], %{{.*}} : tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[X]], %{{.*}}, %{{.*}}, %[[W]], %[[B]] : {{.*}}) outs(%{{.*}} : tensor<4x32xf32>)
// CHECK-NOT: shard.
// CHECK: return %[[Y]], %{{.*}} : tensor<4x32xf32>, tensor<4xf32>
func.func @ln_hidden(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<4x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %y, %m = norm.layer_norm ins(%xa : tensor<4x64xf32>) weight(%w : tensor<64xf32>) bias(%b : tensor<64xf32>) outs(%e : tensor<4x64xf32>) mean_outs(%e2 : tensor<4xf32>) -> tensor<4x64xf32>, tensor<4xf32>
  %ys = shard.shard %y to %s : tensor<4x64xf32>
  %ms = shard.shard %m to %r : tensor<4xf32>
  return %ys, %ms : tensor<4x64xf32>, tensor<4xf32>
}

// -----

// norm → matmul, column-parallel W ([N, K], N split): the norm runs whole on
// every process, which multiplies by its columns. No collective.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @norm_matmul_columns
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf32>, %[[G:.*]]: tensor<64xf32>, %[[W:.*]]: tensor<16x64xf32>) -> tensor<8x16xf32>
// CHECK-NOT: shard.
// CHECK: norm.rms_norm_matmul ins(%[[X]] : tensor<8x64xf32>) weight(%[[G]] : tensor<64xf32>) rhs(%[[W]] : tensor<16x64xf32>) outs(%{{.*}} : tensor<8x16xf32>) {transpose_rhs} -> tensor<8x16xf32>
// CHECK-NOT: shard.
// CHECK: return
func.func @norm_matmul_columns(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %c0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %c0 : tensor<32x64xf32>
  %wa = shard.shard %ws to %c0 annotate_for_users : tensor<32x64xf32>
  %xs = shard.shard %x to %r : tensor<8x64xf32>
  %xa = shard.shard %xs to %r annotate_for_users : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %c = norm.rms_norm_matmul ins(%xa : tensor<8x64xf32>) weight(%g : tensor<64xf32>) rhs(%wa : tensor<32x64xf32>) outs(%e : tensor<8x32xf32>) {transpose_rhs} -> tensor<8x32xf32>
  %cs = shard.shard %c to %s1 : tensor<8x32xf32>
  return %cs : tensor<8x32xf32>
}

// -----

// norm → matmul, row-parallel W (K split, X split on K): Σx² per row and the
// f32 partial product are all-reduced; the result is whole on every process.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @norm_matmul_rows
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[G:.*]]: tensor<32xf32>, %[[W:.*]]: tensor<32x32xf32>) -> tensor<8x32xf32>
// CHECK: shard.all_reduce %{{.*}} on @g grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// CHECK: %[[C:.*]] = shard.all_reduce %{{.*}} on @g grid_axes = [0] : tensor<8x32xf32> -> tensor<8x32xf32>
// CHECK-NOT: shard.
// CHECK: return %[[C]]
func.func @norm_matmul_rows(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %c0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %c0 : tensor<64x32xf32>
  %wa = shard.shard %ws to %c0 annotate_for_users : tensor<64x32xf32>
  %xs = shard.shard %x to %s1 : tensor<8x64xf32>
  %xa = shard.shard %xs to %s1 annotate_for_users : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %c = norm.rms_norm_matmul ins(%xa : tensor<8x64xf32>) weight(%g : tensor<64xf32>) rhs(%wa : tensor<64x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %cs = shard.shard %c to %r : tensor<8x32xf32>
  return %cs : tensor<8x32xf32>
}

// -----

// matmul → norm, row-parallel W (K split: o_proj/down_proj + residual +
// norm): the f32 product is all-reduced, then the residual added and the
// norm run whole, as a norm op (its CPU kernel).
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @matmul_norm_rows
// CHECK-SAME: (%[[A:.*]]: tensor<8x32xf32>, %[[W:.*]]: tensor<32x32xf32>, %[[H:.*]]: tensor<8x32xf32>, %[[G:.*]]: tensor<32xf32>) -> tensor<8x32xf32>
// CHECK: %[[P:.*]] = shard.all_reduce %{{.*}} on @g grid_axes = [0] : tensor<8x32xf32> -> tensor<8x32xf32>
// CHECK-NOT: shard.
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[H]] : tensor<8x32xf32>, tensor<8x32xf32>)
// CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[S]] : tensor<8x32xf32>) weight(%[[G]] : tensor<32xf32>)
// CHECK: return %[[Y]]
func.func @matmul_norm_rows(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %h: tensor<8x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %c0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %c0 : tensor<64x32xf32>
  %wa = shard.shard %ws to %c0 annotate_for_users : tensor<64x32xf32>
  %as = shard.shard %a to %s1 : tensor<8x64xf32>
  %aa = shard.shard %as to %s1 annotate_for_users : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %y = norm.matmul_rms_norm ins(%aa : tensor<8x64xf32>) rhs(%wa : tensor<64x32xf32>) residual(%h : tensor<8x32xf32>) weight(%g : tensor<32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ys = shard.shard %y to %r : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}

// -----

// matmul → LayerNorm, column-parallel W (N split): each process has its
// columns of the product; the norm's statistics are combined across them.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @matmul_norm_columns
// CHECK-SAME: (%[[A:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64x16xf32>, %[[G:.*]]: tensor<16xf32>) -> tensor<8x16xf32>
// CHECK: shard.process_multi_index on @g axes = [0] : index
// CHECK: shard.all_reduce %{{.*}} on @g grid_axes = [0] : tensor<2x2x8xf32> -> tensor<2x2x8xf32>
// CHECK-NOT: shard.
// CHECK: return %{{.*}} : tensor<8x16xf32>
func.func @matmul_norm_columns(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %s1 : tensor<64x32xf32>
  %wa = shard.shard %ws to %s1 annotate_for_users : tensor<64x32xf32>
  %as = shard.shard %a to %r : tensor<8x64xf32>
  %aa = shard.shard %as to %r annotate_for_users : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %y = norm.matmul_layer_norm ins(%aa : tensor<8x64xf32>) rhs(%wa : tensor<64x32xf32>) weight(%g : tensor<32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ys = shard.shard %y to %s1 : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}
