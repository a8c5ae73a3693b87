// REQUIRES: norm-jit
// A hand-written residual add in front of a norm (linalg.add, not the norm's
// residual operand): --norm-fuse-matmul makes it the residual, so the fused
// norm → matmul op adds it and returns the sum. Run on random inputs and
// compared with upstream MLIR's code for the same unfused IR (the add, the
// decomposed norm and the matmul as loops), both outputs.
//
// The rewrite happens (and no add or standalone norm is left):
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @add_rms_mm
//   IR-NOT: linalg.add
//       IR: norm.rms_norm_matmul ins(%arg0 : tensor<?x?xf32>) residual(%arg1 : tensor<?x?xf32>)
//   IR-NOT: norm.rms_norm ins
// IR-LABEL: func.func @add_ln_mm_bf16
//   IR-NOT: linalg.add
//       IR: norm.layer_norm_matmul ins(%arg1 : tensor<?x?xbf16>) residual(%arg0 : tensor<?x?xbf16>)
//
// @add_rms_mm(x, h: R×K, g: K, w: K×N) -> (c: R×N, s: R×K), f32:
// RUN: norm-run %s --entry=add_rms_mm --dims=37,300,37,300,300,300,270 --seed=1 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
// M = 1 (the GEMV) on two threads:
// RUN: norm-run %s --entry=add_rms_mm --dims=1,520,1,520,520,520,300 --seed=2 --mean=0.5 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline=upstream --compare-tol=1e-5 | FileCheck %s
//
// @add_ln_mm_bf16(h, x: R×K, g, b: K, w: N×K as a transposed matmul)
//   -> (c: R×N, s: R×K), bf16; rows with |mean| ≈ 10³·std. Compared with the
// same pipeline with residual-add off (the add computed on its own, then the
// fused op on the rounded sum): the norm rounds the sum to bf16 as the add
// did, so the two agree to the last bit. (Not with the unfused code: a bf16
// linalg.matmul accumulates in bf16, 2–4e-2 off the fused op here.)
// RUN: norm-run %s --entry=add_ln_mm_bf16 --dims=20,256,20,256,256,256,96,256 --seed=3 --mean=1000 --warmup=0 --repeat=1 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-fuse-matmul{residual-add=false},norm-lower-to-cpu)' --compare-tol=1e-7 | FileCheck %s --check-prefix=EXACT

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}
// EXACT: {{^}}norm-run: entry=add_ln_mm_bf16 pipeline=custom {{.*}} cmp_rel_err=0.000e+00 cmp_tol=1e-07 PASS{{$}}

func.func @add_rms_mm(%x: tensor<?x?xf32>, %h: tensor<?x?xf32>, %g: tensor<?xf32>, %w: tensor<?x?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %k = tensor.dim %x, %c1 : tensor<?x?xf32>
  %n = tensor.dim %w, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %k) : tensor<?x?xf32>
  %s = linalg.add ins(%x, %h : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = norm.rms_norm ins(%s : tensor<?x?xf32>) weight(%g : tensor<?xf32>) outs(%e : tensor<?x?xf32>) {epsilon = 1.0e-5 : f32} -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul ins(%y, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c, %s : tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @add_ln_mm_bf16(%h: tensor<?x?xbf16>, %x: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>, %w: tensor<?x?xbf16>)
    -> (tensor<?x?xbf16>, tensor<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %k = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %n = tensor.dim %w, %c0 : tensor<?x?xbf16>
  %e = tensor.empty(%m, %k) : tensor<?x?xbf16>
  %s = linalg.add ins(%x, %h : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%e : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %y = norm.layer_norm ins(%s : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>) outs(%e : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty(%m, %n) : tensor<?x?xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %c = linalg.matmul indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (j, l)>, affine_map<(i, j, l) -> (i, j)>]
      ins(%y, %w : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%z : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %c, %s : tensor<?x?xbf16>, tensor<?x?xbf16>
}
