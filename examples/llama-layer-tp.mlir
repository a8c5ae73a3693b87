// A Llama-like decoder layer with Megatron tensor parallelism over a grid of
// 2 processes (issue 31 item 3; DESIGN.md §10), run with mpirun -np 2:
//   bash scripts/run-example-mpi.sh examples/llama-layer-tp.mlir
// Written in a form MLIR 22's shard dialect partitions: heads are a real
// dimension of Wq/Wk/Wv/Wo ([heads, head_dim, hidden]), attention and the
// projections are linalg.generic contractions, softmax is generic
// max/exp/sum/div, the causal mask an input (no RoPE). The shard
// annotations: every argument comes in whole (replicated), the weights
// are split for their users along dim 0: q/k/v column-parallel (each
// process has 2 of the 4 heads), o row-parallel (it contracts the local
// heads; partition all-reduces its product), gate/up column-parallel (N of
// the fused norm → matmul: each process normalizes the whole rows),
// down row-parallel (all-reduced). The norms are replicated. Per layer,
// two all-reduces of 8×64 f32 move; nothing else.
// @main runs @llama_layer_tp and the same layer without annotations
// (@llama_layer) on every process and prints [1] when they agree within
// 1e-6 (relative), [0] otherwise.

shard.grid @tp(shape = 2)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @llama_layer_tp(%x: tensor<8x64xf32>, %g1: tensor<64xf32>, %wq: tensor<4x16x64xf32>, %wk: tensor<4x16x64xf32>, %wv: tensor<4x16x64xf32>, %wo: tensor<4x16x64xf32>, %mask: tensor<8x8xf32>, %g2: tensor<64xf32>, %wg: tensor<128x64xf32>, %wu: tensor<128x64xf32>, %wd: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %r = shard.sharding @tp split_axes = [[]] : !shard.sharding
  %d0 = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %x_r = shard.shard %x to %r : tensor<8x64xf32>
  %x_ = shard.shard %x_r to %r annotate_for_users : tensor<8x64xf32>
  %g1_r = shard.shard %g1 to %r : tensor<64xf32>
  %g1_ = shard.shard %g1_r to %r annotate_for_users : tensor<64xf32>
  %g2_r = shard.shard %g2 to %r : tensor<64xf32>
  %g2_ = shard.shard %g2_r to %r annotate_for_users : tensor<64xf32>
  %mask_r = shard.shard %mask to %r : tensor<8x8xf32>
  %mask_ = shard.shard %mask_r to %r annotate_for_users : tensor<8x8xf32>
  %wq_r = shard.shard %wq to %r : tensor<4x16x64xf32>
  %wq_ = shard.shard %wq_r to %d0 annotate_for_users : tensor<4x16x64xf32>
  %wk_r = shard.shard %wk to %r : tensor<4x16x64xf32>
  %wk_ = shard.shard %wk_r to %d0 annotate_for_users : tensor<4x16x64xf32>
  %wv_r = shard.shard %wv to %r : tensor<4x16x64xf32>
  %wv_ = shard.shard %wv_r to %d0 annotate_for_users : tensor<4x16x64xf32>
  %wo_r = shard.shard %wo to %r : tensor<4x16x64xf32>
  %wo_ = shard.shard %wo_r to %d0 annotate_for_users : tensor<4x16x64xf32>
  %wg_r = shard.shard %wg to %r : tensor<128x64xf32>
  %wg_ = shard.shard %wg_r to %d0 annotate_for_users : tensor<128x64xf32>
  %wu_r = shard.shard %wu to %r : tensor<128x64xf32>
  %wu_ = shard.shard %wu_r to %d0 annotate_for_users : tensor<128x64xf32>
  %wd_r = shard.shard %wd to %r : tensor<128x64xf32>
  %wd_ = shard.shard %wd_r to %d0 annotate_for_users : tensor<128x64xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  // Attention: RMSNorm replicated.
  %en = tensor.empty() : tensor<8x64xf32>
  %n1 = norm.rms_norm ins(%x_ : tensor<8x64xf32>) weight(%g1_ : tensor<64xf32>) outs(%en : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ehd = tensor.empty() : tensor<4x8x16xf32>
  %fhd = linalg.fill ins(%zero : f32) outs(%ehd : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wq_ : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wk_ : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wv_ : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  // Scores (h, t, s) = q·k / sqrt(D) + mask, softmax over s.
  %ehs = tensor.empty() : tensor<4x8x8xf32>
  %fhs = linalg.fill ins(%zero : f32) outs(%ehs : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(h, t, s, d) -> (h, t, d)>, affine_map<(h, t, s, d) -> (h, s, d)>, affine_map<(h, t, s, d) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%fhs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (t, s)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask_ : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.25 : f32
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %eht = tensor.empty() : tensor<4x8xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%eht : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x8x8xf32>) outs(%fmax : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x8x8xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%eht : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<4x8x8xf32>) outs(%fsum : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %pr = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8x8xf32>
  // p · v (h, t, d).
  %pv = linalg.generic {indexing_maps = [affine_map<(h, t, d, s) -> (h, t, s)>, affine_map<(h, t, d, s) -> (h, s, d)>, affine_map<(h, t, d, s) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pr, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  // o: row-parallel (contracts the local heads), then all-reduced.
  %fo = linalg.fill ins(%zero : f32) outs(%en : tensor<8x64xf32>) -> tensor<8x64xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(t, n, h, d) -> (h, t, d)>, affine_map<(t, n, h, d) -> (h, d, n)>, affine_map<(t, n, h, d) -> (t, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%pv, %wo_ : tensor<4x8x16xf32>, tensor<4x16x64xf32>) outs(%fo : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %h1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x_, %o : tensor<8x64xf32>, tensor<8x64xf32>) outs(%en : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %h1_r = shard.shard %h1 to %r : tensor<8x64xf32>
  %h1_ = shard.shard %h1_r to %r annotate_for_users : tensor<8x64xf32>
  // MLP: the norm fused with gate and up, column-parallel.
  %ef = tensor.empty() : tensor<8x128xf32>
  %gate = norm.rms_norm_matmul ins(%h1_ : tensor<8x64xf32>) weight(%g2_ : tensor<64xf32>) rhs(%wg_ : tensor<128x64xf32>) outs(%ef : tensor<8x128xf32>) {transpose_rhs} -> tensor<8x128xf32>
  %up = norm.rms_norm_matmul ins(%h1_ : tensor<8x64xf32>) weight(%g2_ : tensor<64xf32>) rhs(%wu_ : tensor<128x64xf32>) outs(%ef : tensor<8x128xf32>) {transpose_rhs} -> tensor<8x128xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<8x128xf32>, tensor<8x128xf32>) outs(%ef : tensor<8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %e, %one : f32
    %s = arith.divf %a, %den : f32
    %p = arith.mulf %s, %b : f32
    linalg.yield %p : f32
  } -> tensor<8x128xf32>
  // down: row-parallel, then all-reduced.
  %down = linalg.matmul ins(%act, %wd_ : tensor<8x128xf32>, tensor<128x64xf32>) outs(%fo : tensor<8x64xf32>) -> tensor<8x64xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h1_, %down : tensor<8x64xf32>, tensor<8x64xf32>) outs(%en : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %out_r = shard.shard %out to %r : tensor<8x64xf32>
  return %out_r : tensor<8x64xf32>
}

func.func @llama_layer(%x: tensor<8x64xf32>, %g1: tensor<64xf32>, %wq: tensor<4x16x64xf32>, %wk: tensor<4x16x64xf32>, %wv: tensor<4x16x64xf32>, %wo: tensor<4x16x64xf32>, %mask: tensor<8x8xf32>, %g2: tensor<64xf32>, %wg: tensor<128x64xf32>, %wu: tensor<128x64xf32>, %wd: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  // Attention: RMSNorm replicated.
  %en = tensor.empty() : tensor<8x64xf32>
  %n1 = norm.rms_norm ins(%x : tensor<8x64xf32>) weight(%g1 : tensor<64xf32>) outs(%en : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ehd = tensor.empty() : tensor<4x8x16xf32>
  %fhd = linalg.fill ins(%zero : f32) outs(%ehd : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wq : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wk : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>, affine_map<(h, t, d, k) -> (h, d, k)>, affine_map<(h, t, d, k) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%n1, %wv : tensor<8x64xf32>, tensor<4x16x64xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  // Scores (h, t, s) = q·k / sqrt(D) + mask, softmax over s.
  %ehs = tensor.empty() : tensor<4x8x8xf32>
  %fhs = linalg.fill ins(%zero : f32) outs(%ehs : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(h, t, s, d) -> (h, t, d)>, affine_map<(h, t, s, d) -> (h, s, d)>, affine_map<(h, t, s, d) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%fhs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (t, s)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.25 : f32
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %eht = tensor.empty() : tensor<4x8xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%eht : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x8x8xf32>) outs(%fmax : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x8x8xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%eht : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<4x8x8xf32>) outs(%fsum : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %pr = linalg.generic {indexing_maps = [affine_map<(h, t, s) -> (h, t, s)>, affine_map<(h, t, s) -> (h, t)>, affine_map<(h, t, s) -> (h, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%ehs : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8x8xf32>
  // p · v (h, t, d).
  %pv = linalg.generic {indexing_maps = [affine_map<(h, t, d, s) -> (h, t, s)>, affine_map<(h, t, d, s) -> (h, s, d)>, affine_map<(h, t, d, s) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pr, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%fhd : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  // o: row-parallel (contracts the local heads), then all-reduced.
  %fo = linalg.fill ins(%zero : f32) outs(%en : tensor<8x64xf32>) -> tensor<8x64xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(t, n, h, d) -> (h, t, d)>, affine_map<(t, n, h, d) -> (h, d, n)>, affine_map<(t, n, h, d) -> (t, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%pv, %wo : tensor<4x8x16xf32>, tensor<4x16x64xf32>) outs(%fo : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %h1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %o : tensor<8x64xf32>, tensor<8x64xf32>) outs(%en : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  // MLP: the norm fused with gate and up, column-parallel.
  %ef = tensor.empty() : tensor<8x128xf32>
  %gate = norm.rms_norm_matmul ins(%h1 : tensor<8x64xf32>) weight(%g2 : tensor<64xf32>) rhs(%wg : tensor<128x64xf32>) outs(%ef : tensor<8x128xf32>) {transpose_rhs} -> tensor<8x128xf32>
  %up = norm.rms_norm_matmul ins(%h1 : tensor<8x64xf32>) weight(%g2 : tensor<64xf32>) rhs(%wu : tensor<128x64xf32>) outs(%ef : tensor<8x128xf32>) {transpose_rhs} -> tensor<8x128xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<8x128xf32>, tensor<8x128xf32>) outs(%ef : tensor<8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %e, %one : f32
    %s = arith.divf %a, %den : f32
    %p = arith.mulf %s, %b : f32
    linalg.yield %p : f32
  } -> tensor<8x128xf32>
  // down: row-parallel, then all-reduced.
  %down = linalg.matmul ins(%act, %wd : tensor<8x128xf32>, tensor<128x64xf32>) outs(%fo : tensor<8x64xf32>) -> tensor<8x64xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h1, %down : tensor<8x64xf32>, tensor<8x64xf32>) outs(%en : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %z: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %out : tensor<8x64xf32>
}

// make_x: element l (row-major) = ((37 l + 0) mod 101 / 101 − 0.5) · 4.0.
func.func @make_x() -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x64xf32>) {
  ^bb0(%o: f32):
    %l0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %s1 = arith.constant 64 : index
    %m1 = arith.muli %l0, %s1 : index
    %l1 = arith.addi %m1, %i1 : index
    %c37 = arith.constant 37 : index
    %coff = arith.constant 0 : index
    %c101 = arith.constant 101 : index
    %a = arith.muli %l1, %c37 : index
    %b = arith.addi %a, %coff : index
    %c = arith.remui %b, %c101 : index
    %ci = arith.index_cast %c : index to i64
    %cf = arith.sitofp %ci : i64 to f32
    %f101 = arith.constant 101.0 : f32
    %half = arith.constant 0.5 : f32
    %k = arith.constant 4.0 : f32
    %u = arith.divf %cf, %f101 : f32
    %v = arith.subf %u, %half : f32
    %w = arith.mulf %v, %k : f32
    linalg.yield %w : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// make_gamma: element l (row-major) = ((37 l + 5) mod 101 / 101 − 0.5) · 1.0.
func.func @make_gamma() -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<64xf32>) {
  ^bb0(%o: f32):
    %l0 = linalg.index 0 : index
    %c37 = arith.constant 37 : index
    %coff = arith.constant 5 : index
    %c101 = arith.constant 101 : index
    %a = arith.muli %l0, %c37 : index
    %b = arith.addi %a, %coff : index
    %c = arith.remui %b, %c101 : index
    %ci = arith.index_cast %c : index to i64
    %cf = arith.sitofp %ci : i64 to f32
    %f101 = arith.constant 101.0 : f32
    %half = arith.constant 0.5 : f32
    %k = arith.constant 1.0 : f32
    %u = arith.divf %cf, %f101 : f32
    %v = arith.subf %u, %half : f32
    %w = arith.mulf %v, %k : f32
    linalg.yield %w : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// make_heads: element l (row-major) = ((37 l + 11) mod 101 / 101 − 0.5) · 0.25.
func.func @make_heads() -> tensor<4x16x64xf32> {
  %e = tensor.empty() : tensor<4x16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x16x64xf32>) {
  ^bb0(%o: f32):
    %l0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %s1 = arith.constant 16 : index
    %m1 = arith.muli %l0, %s1 : index
    %l1 = arith.addi %m1, %i1 : index
    %i2 = linalg.index 2 : index
    %s2 = arith.constant 64 : index
    %m2 = arith.muli %l1, %s2 : index
    %l2 = arith.addi %m2, %i2 : index
    %c37 = arith.constant 37 : index
    %coff = arith.constant 11 : index
    %c101 = arith.constant 101 : index
    %a = arith.muli %l2, %c37 : index
    %b = arith.addi %a, %coff : index
    %c = arith.remui %b, %c101 : index
    %ci = arith.index_cast %c : index to i64
    %cf = arith.sitofp %ci : i64 to f32
    %f101 = arith.constant 101.0 : f32
    %half = arith.constant 0.5 : f32
    %k = arith.constant 0.25 : f32
    %u = arith.divf %cf, %f101 : f32
    %v = arith.subf %u, %half : f32
    %w = arith.mulf %v, %k : f32
    linalg.yield %w : f32
  } -> tensor<4x16x64xf32>
  return %r : tensor<4x16x64xf32>
}

// make_ffn: element l (row-major) = ((37 l + 17) mod 101 / 101 − 0.5) · 0.25.
func.func @make_ffn() -> tensor<128x64xf32> {
  %e = tensor.empty() : tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<128x64xf32>) {
  ^bb0(%o: f32):
    %l0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %s1 = arith.constant 64 : index
    %m1 = arith.muli %l0, %s1 : index
    %l1 = arith.addi %m1, %i1 : index
    %c37 = arith.constant 37 : index
    %coff = arith.constant 17 : index
    %c101 = arith.constant 101 : index
    %a = arith.muli %l1, %c37 : index
    %b = arith.addi %a, %coff : index
    %c = arith.remui %b, %c101 : index
    %ci = arith.index_cast %c : index to i64
    %cf = arith.sitofp %ci : i64 to f32
    %f101 = arith.constant 101.0 : f32
    %half = arith.constant 0.5 : f32
    %k = arith.constant 0.25 : f32
    %u = arith.divf %cf, %f101 : f32
    %v = arith.subf %u, %half : f32
    %w = arith.mulf %v, %k : f32
    linalg.yield %w : f32
  } -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// The causal mask: 0 on and below the diagonal, −1e9 above.
func.func @make_mask() -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, s) -> (t, s)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %s = linalg.index 1 : index
    %future = arith.cmpi ugt, %s, %t : index
    %zero = arith.constant 0.0 : f32
    %big = arith.constant -1.0e9 : f32
    %v = arith.select %future, %big, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// 1 when max |a − b| / max |b| ≤ 1e-6 (DESIGN.md §4, f32), else 0.
func.func @check(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>, affine_map<(i, j) -> (1)>], iterator_types = ["reduction", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<8x64xf32>) outs(%f, %f : tensor<2xf32>, tensor<2xf32>) {
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
  %flag = arith.select %ok, %one, %z : f32
  %t = tensor.from_elements %flag : tensor<1xf32>
  return %t : tensor<1xf32>
}

// Runs the layer on every process and checks it against one process.
func.func @main() {
  %init = mpi.init : !mpi.retval
  %x = call @make_x() : () -> tensor<8x64xf32>
  %g = call @make_gamma() : () -> tensor<64xf32>
  %wh = call @make_heads() : () -> tensor<4x16x64xf32>
  %wf = call @make_ffn() : () -> tensor<128x64xf32>
  %mask = call @make_mask() : () -> tensor<8x8xf32>
  %y1 = call @llama_layer_tp(%x, %g, %wh, %wh, %wh, %wh, %mask, %g, %wf, %wf, %wf) : (tensor<8x64xf32>, tensor<64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<8x64xf32>
  %y2 = call @llama_layer(%x, %g, %wh, %wh, %wh, %wh, %mask, %g, %wf, %wf, %wf) : (tensor<8x64xf32>, tensor<64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<8x64xf32>
  %ok = call @check(%y1, %y2) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<1xf32>
  %u = tensor.cast %ok : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %fin = mpi.finalize : !mpi.retval
  return
}
