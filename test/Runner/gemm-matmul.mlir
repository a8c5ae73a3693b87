// REQUIRES: norm-jit
// f32 matmuls compiled by the project's GEMM (norm-lower-to-cpu's
// lower-matmuls, on by default) against upstream MLIR's loops on identical
// random inputs: named linalg.matmul on memrefs (accumulating into C), the
// generic form with W as N×K, and linalg.matmul on tensors (generalized and
// bufferized first). Shapes cross the K blocks (256), column chunks (256),
// row blocks and tile tails; one runs on two threads.
//
// RUN: norm-run %s --entry=mm --dims=203,700,700,530,203,530 --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm --dims=1,300,300,17,1,17 --seed=2 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm_t --dims=37,520,270,520,37,270 --seed=3 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// A few rows with W as NxK go through the GEMV dot products (C += A·Wᵀ):
// RUN: norm-run %s --entry=mm_t --dims=5,300,70,300,5,70 --seed=5 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// bf16 and f16 A and W with an f32 C (linalg extends both): the same GEMM
// (bf16 on AVX512-BF16 hosts: the dot-product micro-kernel):
// RUN: norm-run %s --entry=mm_bf16 --dims=203,701,701,530,203,530 --seed=6 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm_bf16 --dims=40,300,300,70,40,70 --seed=7 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm_f16 --dims=37,520,520,270,37,270 --seed=8 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=mm_tensor --dims=64,257,257,300 --seed=4 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// Batch matmuls (attention's Q·Kᵀ with K as N×K, and P·V): one GEMM per
// batch, batches over the threads, each C[b] viewed at its offset:
// RUN: norm-run %s --entry=bmm --dims=5,37,70,5,70,43,5,37,43 --seed=9 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=bmm_t --dims=3,130,64,3,130,64,3,130,130 --seed=10 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=bmm_t --dims=4,5,300,4,17,300,4,5,17 --seed=11 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=bmm_tensor --dims=2,64,257,2,257,40 --seed=12 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// W with the batch in the middle (V as [seq, heads, dim], the head split
// folded into P·V): each batch's W is a strided [K, N] view.
// RUN: norm-run %s --entry=bmm_v --dims=3,37,70,70,3,43,3,37,43 --seed=13 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s --check-prefix=IR
// RUN: norm-opt %s --norm-lower-to-cpu="lower-matmuls=0" | FileCheck %s --check-prefix=NOGEMM

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

// The GEMM's micro-kernel is 12 × 2 FMAs of 16 lanes (AVX-512 hosts) or
// 6 × 2 of 8; upstream's loops have no vector FMA at all.
// IR: llvm.intr.fmuladd{{.*}}vector<{{8|16}}xf32>
// NOGEMM-NOT: llvm.intr.fmuladd

func.func @mm(%a: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %w : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

func.func @mm_t(%a: memref<?x?xf32>, %wt: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %wt : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @mm_tensor(%a: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}

func.func @mm_bf16(%a: memref<?x?xbf16>, %w: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %w : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}

func.func @mm_f16(%a: memref<?x?xf16>, %w: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %w : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

func.func @bmm(%a: memref<?x?x?xf32>, %w: memref<?x?x?xf32>, %c: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%a, %w : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?x?xf32>)
  return
}

func.func @bmm_t(%q: memref<?x?x?xf32>, %k: memref<?x?x?xf32>, %s: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (b, n, k)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%s : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  }
  return
}

func.func @bmm_tensor(%a: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %a, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?x?xf32>
  %n = tensor.dim %w, %c2 : tensor<?x?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%b, %m, %n) : tensor<?x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %c = linalg.batch_matmul ins(%a, %w : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%z : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %c : tensor<?x?x?xf32>
}

func.func @bmm_v(%p: memref<?x?x?xf32>, %v: memref<?x?x?xf32>, %o: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (k, b, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%o : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}
