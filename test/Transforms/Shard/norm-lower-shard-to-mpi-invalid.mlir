// RUN: norm-opt %s -split-input-file -verify-diagnostics --norm-lower-shard-to-mpi
// RUN: not norm-opt %s -split-input-file --norm-lower-shard-to-mpi=mpi-implementation=LAM 2>&1 | FileCheck %s --check-prefix=OPTION

// What neither MLIR 22 nor norm-lower-shard-to-mpi lowers: an error at the
// op, never exit 0 with shard ops left (22's convert-shard-to-mpi rolls the
// whole module back and succeeds).

// OPTION: error: norm-lower-shard-to-mpi: mpi-implementation must be MPICH or OpenMPI, got 'LAM'

shard.grid @g(shape = 2)
func.func @all_to_all(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  // expected-error @below {{'shard.all_to_all' op is not lowered to MPI by MLIR 22}}
  %0 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x8xf32> -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{'shard.all_reduce' op with a dynamic shape is not lowered correctly by MLIR 22}}
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  // expected-error @below {{'shard.all_reduce' op on elements other than f32, f64 and integers is not lowered by MLIR 22}}
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<8xbf16> -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}
