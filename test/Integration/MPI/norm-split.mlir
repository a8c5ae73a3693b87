// REQUIRES: mpi
// RUN: norm-opt %s --norm-lower-to-cpu=num-threads=1 \
// RUN:   | sed -e 's/^module attributes {mpi.dlti = .*} {$/module {/' > %t.mlir
// RUN: %mpirun mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%libmpich \
// RUN:   | FileCheck %s

// Norm ops partitioned over 2 processes (a hidden dim split, a row-parallel
// K split), lowered by --norm-lower-to-cpu to MPI calls and run with
// mpirun -np 2, against the same ops on one process: each line is one
// op's max |distributed − whole| / max |whole| ≤ 1e-6 (DESIGN.md §4, f32),
// printed by both processes. (sed: mlir-runner does not register the DLTI
// dialect of the module's "MPI:Implementation" entry. The input is a file:
// mpirun gives stdin to the first process only.)

// CHECK-COUNT-8: [1]
// CHECK-NOT: [0]

shard.grid @g(shape = 2)
func.func private @printMemrefF32(tensor<*xf32>)

// RMSNorm over a hidden dim split in two: x and γ come in whole and go out whole.
func.func @rms_split(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xr = shard.shard %x to %r : tensor<4x64xf32>
  %xs = shard.shard %xr to %s annotate_for_users : tensor<4x64xf32>
  %wr = shard.shard %w to %r : tensor<64xf32>
  %ws = shard.shard %wr to %s0 annotate_for_users : tensor<64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.rms_norm ins(%xs : tensor<4x64xf32>) weight(%ws : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %ys = shard.shard %y to %s : tensor<4x64xf32>
  %yr = shard.shard %ys to %r annotate_for_users : tensor<4x64xf32>
  return %yr : tensor<4x64xf32>
}

// The same RMSNorm on one process.
func.func @rms_whole(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.rms_norm ins(%x : tensor<4x64xf32>) weight(%w : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// LayerNorm over the split hidden dim: (mean, M2) pairs combined.
func.func @ln_split(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xr = shard.shard %x to %r : tensor<4x64xf32>
  %xs = shard.shard %xr to %s annotate_for_users : tensor<4x64xf32>
  %wr = shard.shard %w to %r : tensor<64xf32>
  %ws = shard.shard %wr to %s0 annotate_for_users : tensor<64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.layer_norm ins(%xs : tensor<4x64xf32>) weight(%ws : tensor<64xf32>) bias(%ws : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %ys = shard.shard %y to %s : tensor<4x64xf32>
  %yr = shard.shard %ys to %r annotate_for_users : tensor<4x64xf32>
  return %yr : tensor<4x64xf32>
}
func.func @ln_whole(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.layer_norm ins(%x : tensor<4x64xf32>) weight(%w : tensor<64xf32>) bias(%w : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// norm → matmul with a row-parallel W (K split): statistics and product
// all-reduced. W is x's transpose-shaped [64, 64] slice of x stacked.
func.func @norm_matmul_split(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %m: tensor<64x64xf32>) -> tensor<4x64xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xr = shard.shard %x to %r : tensor<4x64xf32>
  %xs = shard.shard %xr to %s annotate_for_users : tensor<4x64xf32>
  %mr = shard.shard %m to %r : tensor<64x64xf32>
  %ms = shard.shard %mr to %s0 annotate_for_users : tensor<64x64xf32>
  %wr = shard.shard %w to %r : tensor<64xf32>
  %ws = shard.shard %wr to %s0 annotate_for_users : tensor<64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %c = norm.rms_norm_matmul ins(%xs : tensor<4x64xf32>) weight(%ws : tensor<64xf32>) rhs(%ms : tensor<64x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %cr = shard.shard %c to %r : tensor<4x64xf32>
  return %cr : tensor<4x64xf32>
}
func.func @norm_matmul_whole(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %m: tensor<64x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %c = norm.rms_norm_matmul ins(%x : tensor<4x64xf32>) weight(%w : tensor<64xf32>) rhs(%m : tensor<64x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %c : tensor<4x64xf32>
}

// matmul → norm with a row-parallel W (o_proj + residual + norm): the
// product all-reduced, the norm whole.
func.func @matmul_norm_split(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %m: tensor<64x64xf32>) -> tensor<4x64xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xr = shard.shard %x to %r : tensor<4x64xf32>
  %xs = shard.shard %xr to %s annotate_for_users : tensor<4x64xf32>
  %mr = shard.shard %m to %r : tensor<64x64xf32>
  %ms = shard.shard %mr to %s0 annotate_for_users : tensor<64x64xf32>
  %wr = shard.shard %w to %r : tensor<64xf32>
  %wa = shard.shard %wr to %r annotate_for_users : tensor<64xf32>
  %xa = shard.shard %xr to %r annotate_for_users : tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.matmul_rms_norm ins(%xs : tensor<4x64xf32>) rhs(%ms : tensor<64x64xf32>) residual(%xa : tensor<4x64xf32>) weight(%wa : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %yr = shard.shard %y to %r : tensor<4x64xf32>
  return %yr : tensor<4x64xf32>
}
func.func @matmul_norm_whole(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %m: tensor<64x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = norm.matmul_rms_norm ins(%x : tensor<4x64xf32>) rhs(%m : tensor<64x64xf32>) residual(%x : tensor<4x64xf32>) weight(%w : tensor<64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// 1 when max |a − b| / max |b| ≤ 1e-6, else 0, as a 1-element tensor.
func.func @check(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>, affine_map<(i, j) -> (1)>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%f, %f : tensor<2xf32>, tensor<2xf32>) {
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

// Seeded inputs: x[i, j] = ((37·(64 i + j)) mod 101) / 25 − 2 + i (rows of
// different means), γ[j] = 1 + j / 64.
func.func @main() {
  %init = mpi.init : !mpi.retval
  %e = tensor.empty() : tensor<4x64xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x64xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c64 = arith.constant 64 : index
    %c37 = arith.constant 37 : index
    %c101 = arith.constant 101 : index
    %k = arith.muli %i, %c64 : index
    %l = arith.addi %k, %j : index
    %m = arith.muli %l, %c37 : index
    %r = arith.remui %m, %c101 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f32
    %c25 = arith.constant 25.0 : f32
    %c2 = arith.constant 2.0 : f32
    %v = arith.divf %rf, %c25 : f32
    %v2 = arith.subf %v, %c2 : f32
    %v3 = arith.addf %v2, %if : f32
    linalg.yield %v3 : f32
  } -> tensor<4x64xf32>
  %ew = tensor.empty() : tensor<64xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]} outs(%ew : tensor<64xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %c64 = arith.constant 64.0 : f32
    %one = arith.constant 1.0 : f32
    %v = arith.divf %jf, %c64 : f32
    %v2 = arith.addf %v, %one : f32
    linalg.yield %v2 : f32
  } -> tensor<64xf32>
  // W: x's rows repeated, scaled by 1/64.
  %em = tensor.empty() : tensor<64x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(k, n) -> (n mod 4, k)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%em : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.015625 : f32
    %s = arith.mulf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %rms1 = call @rms_split(%x, %w) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %rms2 = call @rms_whole(%x, %w) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %rms_ok = call @check(%rms1, %rms2) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<1xf32>
  %rms_u = tensor.cast %rms_ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%rms_u) : (tensor<*xf32>) -> ()
  %ln1 = call @ln_split(%x, %w) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %ln2 = call @ln_whole(%x, %w) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %ln_ok = call @check(%ln1, %ln2) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<1xf32>
  %ln_u = tensor.cast %ln_ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%ln_u) : (tensor<*xf32>) -> ()
  %norm_matmul1 = call @norm_matmul_split(%x, %w, %m) : (tensor<4x64xf32>, tensor<64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
  %norm_matmul2 = call @norm_matmul_whole(%x, %w, %m) : (tensor<4x64xf32>, tensor<64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
  %norm_matmul_ok = call @check(%norm_matmul1, %norm_matmul2) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<1xf32>
  %norm_matmul_u = tensor.cast %norm_matmul_ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%norm_matmul_u) : (tensor<*xf32>) -> ()
  %matmul_norm1 = call @matmul_norm_split(%x, %w, %m) : (tensor<4x64xf32>, tensor<64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
  %matmul_norm2 = call @matmul_norm_whole(%x, %w, %m) : (tensor<4x64xf32>, tensor<64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
  %matmul_norm_ok = call @check(%matmul_norm1, %matmul_norm2) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<1xf32>
  %matmul_norm_u = tensor.cast %matmul_norm_ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%matmul_norm_u) : (tensor<*xf32>) -> ()
  %fin = mpi.finalize : !mpi.retval
  return
}
