// REQUIRES: norm-jit
// Contractions that become a loop nest of the project's GEMM
// (LinalgContraction.h; norm-lower-to-cpu's lower-matmuls) against upstream
// MLIR's loops on identical random inputs: the einsum forms of the shard
// partitioner's Llama layer and of torch-mlir/IREE. Shapes are not
// multiples of the register tile or the blocks; some run on two threads.
// (--check's float64 reference covers norm ops only; these are linalg.)
//
// q/k/v: (h, t, d, k) A (t, k) broadcast over heads, W (h, d, k), C (h, t, d).
// RUN: norm-run %s --entry=heads --dims=37,300,5,70,300,5,37,70 --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=heads --dims=128,260,3,64,260,3,128,64 --seed=2 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=heads_bf16 --dims=37,300,5,70,300,5,37,70 --seed=3 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// o projection: (t, n, h, d), two reduction dims not contiguous in A:
// A (h, t, d), W (h, d, n), C (t, n); one GEMM per head into the same C.
// RUN: norm-run %s --entry=oproj --dims=3,37,70,3,70,50,37,50 --seed=4 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=oproj --dims=4,20,64,4,64,300,20,300 --seed=5 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// Two reduction dims contiguous in both: collapsed to one K.
// RUN: norm-run %s --entry=k2 --dims=37,3,70,3,70,50,37,50 --seed=6 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
// RUN: norm-run %s --entry=k2_bf16 --dims=37,3,70,3,70,50,37,50 --seed=7 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// Rows over two dims (batch × seq against a shared W as N × K): one GEMM.
// RUN: norm-run %s --entry=rows2 --dims=3,37,70,50,70,3,37,50 --seed=8 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// C stored transposed, (n, m): computed as W · Aᵀ.
// RUN: norm-run %s --entry=c_t --dims=37,70,50,70,50,37 --seed=9 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// linalg.contract (bf16 A and W, f32 C), the q/k/v form.
// RUN: norm-run %s --entry=contract_bf16 --dims=37,300,5,70,300,5,37,70 --seed=10 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s
//
// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s --check-prefix=IR
// RUN: norm-opt %s --norm-lower-to-cpu="lower-matmuls=0" | FileCheck %s --check-prefix=NOGEMM

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

// IR: llvm.intr.fmuladd{{.*}}vector<{{8|16}}xf32>
// NOGEMM-NOT: llvm.intr.fmuladd

#qkv = [affine_map<(h, t, d, k) -> (t, k)>,
        affine_map<(h, t, d, k) -> (h, d, k)>,
        affine_map<(h, t, d, k) -> (h, t, d)>]
#par3red1 = ["parallel", "parallel", "parallel", "reduction"]

func.func @heads(%x: memref<?x?xf32>, %w: memref<?x?x?xf32>, %q: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = #qkv, iterator_types = #par3red1}
      ins(%x, %w : memref<?x?xf32>, memref<?x?x?xf32>) outs(%q : memref<?x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @heads_bf16(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %q: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = #qkv, iterator_types = #par3red1}
      ins(%x, %w : memref<?x?xbf16>, memref<?x?x?xbf16>) outs(%q : memref<?x?x?xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @oproj(%a: memref<?x?x?xf32>, %w: memref<?x?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, n, h, d) -> (h, t, d)>,
                                   affine_map<(t, n, h, d) -> (h, d, n)>,
                                   affine_map<(t, n, h, d) -> (t, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

#k2 = [affine_map<(m, n, h, d) -> (m, h, d)>,
       affine_map<(m, n, h, d) -> (h, d, n)>,
       affine_map<(m, n, h, d) -> (m, n)>]
#par2red2 = ["parallel", "parallel", "reduction", "reduction"]

func.func @k2(%a: memref<?x?x?xf32>, %w: memref<?x?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = #k2, iterator_types = #par2red2}
      ins(%a, %w : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @k2_bf16(%a: memref<?x?x?xbf16>, %w: memref<?x?x?xbf16>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = #k2, iterator_types = #par2red2}
      ins(%a, %w : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @rows2(%a: memref<?x?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, t, n, k) -> (b, t, k)>,
                                   affine_map<(b, t, n, k) -> (n, k)>,
                                   affine_map<(b, t, n, k) -> (b, t, n)>],
                  iterator_types = #par3red1}
      ins(%a, %w : memref<?x?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @c_t(%a: memref<?x?xf32>, %w: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (n, m)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @contract_bf16(%x: memref<?x?xbf16>, %w: memref<?x?x?xbf16>, %q: memref<?x?x?xf32>) {
  linalg.contract indexing_maps = #qkv
      ins(%x, %w : memref<?x?xbf16>, memref<?x?x?xbf16>) outs(%q : memref<?x?x?xf32>)
  return
}
