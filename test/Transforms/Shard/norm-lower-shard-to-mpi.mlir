// RUN: norm-opt %s -split-input-file --norm-lower-shard-to-mpi | FileCheck %s

// What MLIR 22's convert-shard-to-mpi cannot lower, rewritten first into
// all-reduces; the world split of a 1-D reduction dropped; the grid erased;
// the MPI ABI recorded.

// CHECK: module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK-NOT: shard.
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

// CHECK-LABEL: func.func @scatter
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %{{.*}}) : memref<64xf32>, memref<64xf32>
// CHECK: %[[ALL:.*]] = bufferization.to_tensor
// CHECK: tensor.extract_slice %[[ALL]][%{{.*}}, 0] [2, 16] [1, 1] : tensor<4x16xf32> to tensor<2x16xf32>
shard.grid @g(shape = 2)
func.func @scatter(%x: tensor<4x16xf32>) -> tensor<2x16xf32> {
  %0 = shard.reduce_scatter %x on @g grid_axes = [0] scatter_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
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
