// REQUIRES: norm-jit
// The model IR around the norms through norm-vectorize-elementwise (the
// project pipeline) against upstream's scalar loops, on the same random
// inputs: row tails (37 = 2·16 + 5, 70 = 2·32 + 6 for bf16), exp and tanh as
// polynomials, row reductions, a head transpose, a bias broadcast.
// RUN: norm-run %s --entry=silu_mul --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax --seed=2 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=heads --seed=3 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-7 | FileCheck %s
// RUN: norm-run %s --entry=gelu_bf16 --seed=4 --scale=3 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-2 | FileCheck %s
// The same softmax with keepdim reductions into [.., 1] buffers (as
// frontends emit it: unit dims collapsed first):
// RUN: norm-run %s --entry=softmax_keepdim --seed=6 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// Dynamic shapes (rows of 37 and 16, every tile masked; a row of 3, one
// partial tile):
// RUN: norm-run %s --entry=silu_mul_dynamic --dims=7,37,7,37,37 --seed=7 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=silu_mul_dynamic --dims=5,16,5,16,16 --seed=8 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=silu_mul_dynamic --dims=2,3,2,3,3 --seed=9 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// Reductions along rows too long for one vector, in chunks: a dynamic
// softmax (rows of 1, 63, 64, 65: no chunk, partial chunks only, exactly one
// group of 4 vectors, one more lane; 1000 and 32000), a static row of 5000
// (over max-row), bf16 rows summed in f32, an i32 sum (exact):
// RUN: norm-run %s --entry=softmax_dynamic --dims=5,1 --seed=10 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_dynamic --dims=3,63 --seed=11 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_dynamic --dims=3,64 --seed=12 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_dynamic --dims=3,65 --seed=13 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_dynamic --dims=4,1000 --seed=14 --scale=4 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_dynamic --dims=2,32000 --seed=15 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=softmax_long --seed=16 --scale=4 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=row_sum_bf16 --dims=6,333 --seed=17 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// RUN: norm-run %s --entry=row_sum_i32 --dims=3,4097 --seed=18 --scale=1000 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-30 | FileCheck %s
// Every op's tiles on two threads (parallel-threshold=0: scf.parallel,
// then OpenMP), rows reduced whole and in chunks:
// RUN: norm-run %s --entry=softmax --seed=19 --scale=4 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefix=CUSTOM
// RUN: norm-run %s --entry=softmax_long --seed=20 --scale=4 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefix=CUSTOM
// RUN: norm-run %s --entry=silu_mul --seed=21 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefix=CUSTOM
// Two threads, and the AVX2 width (8 f32 lanes):
// RUN: norm-run %s --entry=softmax --seed=5 --threads=2 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefix=CUSTOM
// torch-mlir's x.pow(2) (math.fpowi with a constant exponent; vectorized,
// it had a vector exponent that LLVM's powi rejects), a negative and a
// non-constant exponent, and a product written on tensors directly:
// RUN: norm-run %s --entry=pow_fpowi --seed=22 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-6 | FileCheck %s
// RUN: norm-run %s --entry=mul_tensors --seed=23 --warmup=0 --repeat=1 --compare-pipeline=upstream --compare-tol=1e-7 | FileCheck %s

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}
// CUSTOM: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>

func.func @silu_mul(%g: tensor<7x37xf32>, %u: tensor<7x37xf32>, %b: tensor<37xf32>) -> tensor<7x37xf32> {
  %e = tensor.empty() : tensor<7x37xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, affine_map<(i, j) -> (j)>, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g, %u, %b : tensor<7x37xf32>, tensor<7x37xf32>, tensor<37xf32>) outs(%e : tensor<7x37xf32>) {
  ^bb0(%a: f32, %c: f32, %bias: f32, %o: f32):
    %x = arith.addf %a, %bias : f32
    %n = arith.negf %x : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %ex, %one : f32
    %s = arith.divf %x, %d : f32
    %m = arith.mulf %s, %c : f32
    linalg.yield %m : f32
  } -> tensor<7x37xf32>
  return %r : tensor<7x37xf32>
}

func.func @silu_mul_dynamic(%g: tensor<?x?xf32>, %u: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %g, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %g, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, affine_map<(i, j) -> (j)>, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g, %u, %b : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %c: f32, %bias: f32, %o: f32):
    %x = arith.addf %a, %bias : f32
    %n = arith.negf %x : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %ex, %one : f32
    %s = arith.divf %x, %d : f32
    %m = arith.mulf %s, %c : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @softmax(%x: tensor<3x5x37xf32>) -> tensor<3x5x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<3x5xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<3x5xf32>) -> tensor<3x5xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x37xf32>) outs(%fm : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  %e = tensor.empty() : tensor<3x5x37xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<3x5x37xf32>, tensor<3x5xf32>) outs(%e : tensor<3x5x37xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<3x5x37xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x5x37xf32>) outs(%fs : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<3x5x37xf32>, tensor<3x5xf32>) outs(%e : tensor<3x5x37xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %v = arith.divf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<3x5x37xf32>
  return %p : tensor<3x5x37xf32>
}

#row2 = affine_map<(i, j) -> (i)>

func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty(%rows) : tensor<?xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%fm : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%fs : tensor<?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

func.func @softmax_long(%x: tensor<3x5000xf32>) -> tensor<3x5000xf32> {
  %d = tensor.cast %x : tensor<3x5000xf32> to tensor<?x?xf32>
  %r = func.call @softmax_dynamic(%d) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<3x5000xf32>
  return %s : tensor<3x5000xf32>
}

func.func @row_sum_bf16(%x: tensor<?x?xbf16>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty(%rows) : tensor<?xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xbf16>) outs(%fs : tensor<?xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %sum : tensor<?xf32>
}

func.func @row_sum_i32(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0 : i32
  %er = tensor.empty(%rows) : tensor<?xi32>
  %fs = linalg.fill ins(%zero : i32) outs(%er : tensor<?xi32>) -> tensor<?xi32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%fs : tensor<?xi32>) {
  ^bb0(%a: f32, %o: i32):
    %i = arith.fptosi %a : f32 to i32
    %s = arith.addi %i, %o : i32
    linalg.yield %s : i32
  } -> tensor<?xi32>
  %ef = tensor.empty(%rows) : tensor<?xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xi32>) outs(%ef : tensor<?xf32>) {
  ^bb0(%a: i32, %o: f32):
    %v = arith.sitofp %a : i32 to f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %f : tensor<?xf32>
}

#keep3 = affine_map<(b, i, j) -> (b, i, 0)>

func.func @softmax_keepdim(%x: tensor<3x5x37xf32>) -> tensor<3x5x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<3x5x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<3x5x1xf32>) -> tensor<3x5x1xf32>
  %max = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x37xf32>) outs(%fm : tensor<3x5x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<3x5x1xf32>
  %e = tensor.empty() : tensor<3x5x37xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<3x5x37xf32>, tensor<3x5x1xf32>) outs(%e : tensor<3x5x37xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<3x5x37xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<3x5x1xf32>) -> tensor<3x5x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x5x37xf32>) outs(%fs : tensor<3x5x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<3x5x1xf32>
  %p = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<3x5x37xf32>, tensor<3x5x1xf32>) outs(%e : tensor<3x5x37xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %v = arith.divf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<3x5x37xf32>
  return %p : tensor<3x5x37xf32>
}

// [seq, heads, dim] → [heads, seq, dim]: the innermost dim stays, so each
// tile is one vector copy.
func.func @heads(%x: tensor<5x3x37xf32>) -> tensor<3x5x37xf32> {
  %e = tensor.empty() : tensor<3x5x37xf32>
  %t = linalg.transpose ins(%x : tensor<5x3x37xf32>) outs(%e : tensor<3x5x37xf32>) permutation = [1, 0, 2]
  return %t : tensor<3x5x37xf32>
}

// GPT-2's tanh GELU in bf16 (computed in f32 per element, rounded once).
func.func @gelu_bf16(%x: tensor<4x70xbf16>) -> tensor<4x70xbf16> {
  %e = tensor.empty() : tensor<4x70xbf16>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x70xbf16>) outs(%e : tensor<4x70xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %c2 = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %x3 = arith.mulf %f, %f : f32
    %x3b = arith.mulf %x3, %f : f32
    %in = arith.mulf %x3b, %c3 : f32
    %in2 = arith.addf %f, %in : f32
    %in3 = arith.mulf %in2, %c2 : f32
    %t = math.tanh %in3 : f32
    %t1 = arith.addf %t, %c1 : f32
    %h = arith.mulf %f, %c0 : f32
    %g = arith.mulf %h, %t1 : f32
    %r = arith.truncf %g : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x70xbf16>
  return %r : tensor<4x70xbf16>
}

func.func @pow_fpowi(%x: tensor<4x37xf32>) -> tensor<4x37xf32> {
  %e = tensor.empty() : tensor<4x37xf32>
  %c2 = arith.constant 2 : i64
  %cm3 = arith.constant -3 : i32
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x37xf32>) outs(%e : tensor<4x37xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = math.fpowi %a, %c2 : f32, i64
    %one = arith.constant 1.0 : f32
    %b = arith.addf %sq, %one : f32
    %inv = math.fpowi %b, %cm3 : f32, i32
    %four = arith.constant 4.0 : f32
    %a4 = arith.mulf %a, %four : f32
    %k = arith.fptosi %a4 : f32 to i32
    %p = math.fpowi %b, %k : f32, i32
    %s = arith.addf %inv, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x37xf32>
  return %r : tensor<4x37xf32>
}

func.func @mul_tensors(%x: tensor<5x37xf32>, %y: tensor<5x37xf32>) -> tensor<5x37xf32> {
  %p = arith.mulf %x, %y : tensor<5x37xf32>
  %q = math.absf %p : tensor<5x37xf32>
  return %q : tensor<5x37xf32>
}
