// RUN: norm-opt %s -split-input-file --norm-lower-shard-to-mpi | FileCheck %s

// What MLIR 22's convert-shard-to-mpi cannot lower, rewritten first into
// rings of send/recv or all-reduces; the world split of a 1-D reduction dropped; the grid erased;
// the MPI ABI recorded.

// CHECK: module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK-NOT: shard.
// Chunks along dim 1 of 4 rows are not contiguous: no ring, the
// all-reduce of a zero tensor holding the part in its slot.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: %[[RANK:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[SLOT:.*]] = tensor.insert_slice %[[X]] into %[[ZEROS]][0, %[[OFF]]] [4, 8] [1, 1]
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[SLOT]]
// CHECK: %[[WORLD:.*]] = mpi.comm_world : !mpi.comm
// CHECK-NOT: mpi.comm_split
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %{{.*}}) : memref<64xf32>, memref<64xf32>
shard.grid @g(shape = 2)
func.func @gather(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Chunks along dim 0 over the whole 1-D grid: a ring of send/recv (one
// step with 2 processes), even ranks sending first; the received partial
// combined into the process's own chunk.
// CHECK-LABEL: func.func @scatter
// CHECK-NOT: mpi.allreduce
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32>
// CHECK: memref.copy %{{.*}}, %[[PARTIALS]] : memref<64xf32> to memref<64xf32>
// CHECK: %[[RECEIVED:.*]] = memref.alloc() : memref<32xf32>
// CHECK: scf.for
// CHECK: %[[OUT:.*]] = memref.subview %[[PARTIALS]][%{{.*}}] [32] [1]
// CHECK: %[[ACC:.*]] = memref.subview %[[PARTIALS]][%{{.*}}] [32] [1]
// CHECK: scf.if
// CHECK-NEXT: mpi.recv(%[[RECEIVED]], %{{.*}}, %{{.*}}, %{{.*}}) : memref<32xf32>, i32, i32
// CHECK-NEXT: mpi.send(%[[OUT]], %{{.*}}, %{{.*}}, %{{.*}}) : memref<32xf32, strided<[1], offset: ?>>, i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: mpi.send(%[[OUT]],
// CHECK-NEXT: mpi.recv(%[[RECEIVED]],
// CHECK: linalg.add ins(%[[RECEIVED]], %[[ACC]] : {{.*}}) outs(%[[ACC]] :
// CHECK: memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 16] : memref<32xf32> into memref<2x16xf32>
// CHECK-NOT: mpi.allreduce
shard.grid @g(shape = 2)
func.func @scatter(%x: tensor<4x16xf32>) -> tensor<2x16xf32> {
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

// Rows over 4 processes: the own part into its slot, then 3 steps that
// pass on one chunk each.
// CHECK-LABEL: func.func @gather_rows
// CHECK-NOT: mpi.allreduce
// CHECK-DAG: %[[STEPS:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[ALL:.*]] = memref.alloc() : memref<256xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<64xf32> to memref<64xf32, strided<[1], offset: ?>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[STEPS]]
// CHECK: mpi.send(%{{.*}}) : memref<64xf32, strided<[1], offset: ?>>, i32, i32
// CHECK: mpi.recv(%{{.*}}) : memref<64xf32, strided<[1], offset: ?>>, i32, i32
// CHECK: memref.expand_shape %[[ALL]] {{\[\[}}0, 1, 2]] output_shape [1, 16, 16]
// CHECK-NOT: mpi.allreduce
shard.grid @g(shape = 4)
func.func @gather_rows(%x: tensor<1x4x16xf32>) -> tensor<1x16x16xf32> {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<1x4x16xf32> -> tensor<1x16x16xf32>
  return %0 : tensor<1x16x16xf32>
}

// -----

// 22's partition writes a reduce-scatter as an all-reduce sliced by the
// same processes: one ring reduce-scatter of the max.
// CHECK-LABEL: func.func @reduce_then_slice
// CHECK-NOT: mpi.allreduce
// CHECK: mpi.send
// CHECK: linalg.max
// CHECK-NOT: mpi.allreduce
shard.grid @g(shape = 2)
func.func @reduce_then_slice(%x: tensor<4x16xf32>) -> tensor<2x16xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<4x16xf32> -> tensor<4x16xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [0] slice_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// An all-reduce with another reader stays one; its slice is local.
// CHECK-LABEL: func.func @reduce_read_twice
// CHECK: mpi.allreduce
// CHECK: tensor.extract_slice
// CHECK-NOT: mpi.send
shard.grid @g(shape = 2)
func.func @reduce_read_twice(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<2x16xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
  %1 = shard.all_slice %0 on @g grid_axes = [0] slice_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<2x16xf32>
}

// -----

// Processes of one axis of a 2-D grid are not the world the calls name,
// and a product is not a combine the ring has: the all-reduce forms.
// CHECK-LABEL: func.func @gather_one_axis_of_two
// CHECK-NOT: mpi.send
// CHECK: mpi.allreduce
// CHECK-LABEL: func.func @scatter_product
// CHECK-NOT: mpi.send
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_PROD, %{{.*}})
shard.grid @g2(shape = 2x2)
func.func @gather_one_axis_of_two(%x: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %0 = shard.all_gather %x on @g2 grid_axes = [1] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
shard.grid @g(shape = 2)
func.func @scatter_product(%x: tensor<4x16xf32>) -> tensor<2x16xf32> {
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] reduction = product scatter_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

// A module that names its implementation keeps it.
// CHECK: module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice
// CHECK-NOT: shard.
module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  shard.grid @g(shape = 2)
  func.func @slice(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
    %0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

// No grid: nothing to do, no attribute.
// CHECK: module {
// CHECK-LABEL: func.func @unsharded
func.func @unsharded(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
