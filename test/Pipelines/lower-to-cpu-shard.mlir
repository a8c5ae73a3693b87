// RUN: norm-opt %s --norm-lower-to-cpu=num-threads=1 | FileCheck %s
// RUN: not norm-opt %s --norm-lower-to-cpu=mpi-implementation=mpich 2>&1 | FileCheck %s --check-prefix=OPTION

// A sharded module through --norm-lower-to-cpu: partitioned, its
// collectives lowered to MPI calls (MPICH's ABI by default), nothing of
// shard or mpi left. One MPI_Allreduce (of the row sums), on the world
// communicator (no MPI_Comm_split per call).

// CHECK: module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK-NOT: shard.
// CHECK-NOT: mpi.
// CHECK-NOT: MPI_Comm_split
// CHECK: llvm.func @MPI_Allreduce
// CHECK-NOT: shard.
// CHECK-NOT: mpi.
// CHECK-NOT: MPI_Comm_split
// CHECK: llvm.call @MPI_Allreduce(
// CHECK-NOT: llvm.call @MPI_Allreduce
// CHECK-NOT: shard.
// CHECK-NOT: mpi.
// CHECK-NOT: MPI_Comm_split

// OPTION: norm-lower-to-cpu: mpi-implementation must be 'MPICH' or 'OpenMPI', got 'mpich'

shard.grid @g(shape = 2)
func.func @hidden(%x: tensor<16x64xf32>, %w: tensor<64xf32>) -> tensor<16x64xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %xa = shard.shard %xs to %s annotate_for_users : tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%xa : tensor<16x64xf32>) weight(%w : tensor<64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = shard.shard %y to %s : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}
