// REQUIRES: mpi
// RUN: norm-opt %s --norm-lower-to-cpu=num-threads=1 \
// RUN:   | sed -e 's/^module attributes {mpi.dlti = .*} {$/module {/' > %t.mlir
// RUN: %mpiexec -np 4 mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%libmpich \
// RUN:   | FileCheck %s
// RUN: norm-opt %s --norm-partition-shards --norm-lower-shard-to-mpi \
// RUN:   | FileCheck %s --check-prefix=MPI

// The ring all-gather and reduce-scatter (norm-lower-shard-to-mpi) on 4
// processes, 3 steps each, the parity order of the blocking calls
// exercised beyond a pair: Megatron-SP in miniature. RMSNorm on each
// process's 2 of 8 rows, all-gathered for a column-parallel up projection
// (W1 split by its output columns), a row-parallel down projection (W2
// split along K) reduce-scattered to the local rows for the residual add,
// all-gathered for the result. Every process prints [1] when the result
// is within 1e-6 (relative) of the same function on one process.

// CHECK-COUNT-4: [1]
// CHECK-NOT: [0]

// MPI-LABEL: func.func @sp_split
// MPI-NOT: mpi.allreduce
// MPI: mpi.send({{.*}}) : memref<32xf32, strided<[1], offset: ?>>
// MPI: linalg.add
// MPI: mpi.send({{.*}}) : memref<32xf32, strided<[1], offset: ?>>
// MPI-NOT: mpi.allreduce
// MPI-LABEL: func.func @sp_whole

shard.grid @g(shape = 4)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @sp_split(%x: tensor<8x16xf32>, %g: tensor<16xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %d0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %d1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %x_in = shard.shard %x to %r : tensor<8x16xf32>
  %x_ = shard.shard %x_in to %d0 annotate_for_users : tensor<8x16xf32>
  %g_in = shard.shard %g to %r : tensor<16xf32>
  %g_ = shard.shard %g_in to %r annotate_for_users : tensor<16xf32>
  %w1_in = shard.shard %w1 to %r : tensor<32x16xf32>
  %w1_ = shard.shard %w1_in to %d0 annotate_for_users : tensor<32x16xf32>
  %w2_in = shard.shard %w2 to %r : tensor<32x16xf32>
  %w2_ = shard.shard %w2_in to %d0 annotate_for_users : tensor<32x16xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x16xf32>
  %n = norm.rms_norm ins(%x_ : tensor<8x16xf32>) weight(%g_ : tensor<16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %n_s = shard.shard %n to %d0 : tensor<8x16xf32>
  %n_ = shard.shard %n_s to %r annotate_for_users : tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %up = linalg.generic {indexing_maps = [affine_map<(t, f, k) -> (t, k)>, affine_map<(t, f, k) -> (f, k)>, affine_map<(t, f, k) -> (t, f)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n_, %w1_ : tensor<8x16xf32>, tensor<32x16xf32>) outs(%f1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %o, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %up_s = shard.shard %up to %d1 : tensor<8x32xf32>
  %up_ = shard.shard %up_s to %d1 annotate_for_users : tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %down = linalg.matmul ins(%up_, %w2_ : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %down_r = shard.shard %down to %r : tensor<8x16xf32>
  %down_ = shard.shard %down_r to %d0 annotate_for_users : tensor<8x16xf32>
  %e3 = tensor.empty() : tensor<8x16xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x_, %down_ : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e3 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %out_s = shard.shard %out to %d0 : tensor<8x16xf32>
  %out_r = shard.shard %out_s to %r annotate_for_users : tensor<8x16xf32>
  return %out_r : tensor<8x16xf32>
}

// The same on one process.
func.func @sp_whole(%x: tensor<8x16xf32>, %g: tensor<16xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x16xf32>
  %n = norm.rms_norm ins(%x : tensor<8x16xf32>) weight(%g : tensor<16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %up = linalg.generic {indexing_maps = [affine_map<(t, f, k) -> (t, k)>, affine_map<(t, f, k) -> (f, k)>, affine_map<(t, f, k) -> (t, f)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %w1 : tensor<8x16xf32>, tensor<32x16xf32>) outs(%f1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %o, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %down = linalg.matmul ins(%up, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e3 = tensor.empty() : tensor<8x16xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %down : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e3 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %out : tensor<8x16xf32>
}

// 1 when max |a − b| / max |b| ≤ 1e-6, else 0, as a 1-element tensor.
func.func @check(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>, affine_map<(i, j) -> (1)>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f, %f : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%va: f32, %vb: f32, %d: f32, %n: f32):
    %s = arith.subf %va, %vb : f32
    %as = math.absf %s : f32
    %ab = math.absf %vb : f32
    %d2 = arith.maximumf %d, %as : f32
    %n2 = arith.maximumf %n, %ab : f32
    linalg.yield %d2, %n2 : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = tensor.extract %m#0[%c0] : tensor<2xf32>
  %n = tensor.extract %m#1[%c1] : tensor<2xf32>
  %r = arith.divf %d, %n : f32
  %tol = arith.constant 1.0e-6 : f32
  %ok = arith.cmpf ole, %r, %tol : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %flag = arith.select %ok, %one, %zero : f32
  %t = tensor.from_elements %flag : tensor<1xf32>
  return %t : tensor<1xf32>
}

// Seeded values: v[i, j] = ((37·(C i + j + s)) mod 101) / 25 − 2, for
// x (s = 0), W1 (s = 7) and W2 (s = 13); γ[j] = 1 + j / 16.
func.func @seeded(%rows: index, %cols: index, %s: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %c101 = arith.constant 101 : index
    %k = arith.muli %i, %cols : index
    %l = arith.addi %k, %j : index
    %l2 = arith.addi %l, %s : index
    %m = arith.muli %l2, %c37 : index
    %r = arith.remui %m, %c101 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c25 = arith.constant 25.0 : f32
    %c2 = arith.constant 2.0 : f32
    %q = arith.divf %rf, %c25 : f32
    %y = arith.subf %q, %c2 : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %v : tensor<?x?xf32>
}

func.func @main() {
  %init = mpi.init : !mpi.retval
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %xd = call @seeded(%c8, %c16, %c0) : (index, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<8x16xf32>
  %w1d = call @seeded(%c32, %c16, %c7) : (index, index, index) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<32x16xf32>
  %w2d = call @seeded(%c32, %c16, %c13) : (index, index, index) -> tensor<?x?xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<32x16xf32>
  %eg = tensor.empty() : tensor<16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]} outs(%eg : tensor<16xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %c16f = arith.constant 16.0 : f32
    %one = arith.constant 1.0 : f32
    %v = arith.divf %jf, %c16f : f32
    %v2 = arith.addf %v, %one : f32
    linalg.yield %v2 : f32
  } -> tensor<16xf32>
  %split = call @sp_split(%x, %g, %w1, %w2) : (tensor<8x16xf32>, tensor<16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %whole = call @sp_whole(%x, %g, %w1, %w2) : (tensor<8x16xf32>, tensor<16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %ok = call @check(%split, %whole) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xf32>
  %u = tensor.cast %ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %fin = mpi.finalize : !mpi.retval
  return
}
