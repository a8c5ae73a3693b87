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
// Two threads, and the AVX2 width (8 f32 lanes):
// RUN: norm-run %s --entry=softmax --seed=5 --threads=2 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s --check-prefix=CUSTOM

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}
// CUSTOM: {{^}}norm-run: entry=softmax pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

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
