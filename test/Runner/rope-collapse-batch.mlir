// REQUIRES: norm-jit
// QK-norm -> RoPE when the reshapes that regroup the product's rows into
// [B, T] start with a collapse (torch-mlir's `aten.view`): a [B*T, N]
// product split into heads [B*T, H, D], collapsed to [B*T*H, D] and
// expanded to [B, T, H, D] (f32); a bf16-rounded product flattened to one
// dim and expanded to [B, T, H, D] (bf16, each_step); a batch matmul's
// [B, T, N] collapsed to [B*T, N] and expanded to [B, T, H, D] (f32).
// --norm-fuse-matmul takes the rotation into the norm and the norm into
// the matmul's epilogue, the fused op taking the regrouping of the rows
// (A viewed as [B, T, K]); the angles [1, T, 1, D] are read at
// (row / H) mod T, so B > 1 checks the wrap. Run against the IR as
// written (upstream's lowering of the same IR) and against float64, 1 and
// 2 threads.
//
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// RUN: norm-run %s --entry=heads_collapse --dims=3,7,7,7 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=1 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=heads_collapse --dims=2,33,33,33 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline=upstream --seed=2 --dist=normal --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=flatten_bf16 --dims=3,9,9,9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=3 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=flatten_bf16 --dims=4,21,21,21 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline=upstream --seed=4 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_collapse --dims=3,5,5,5 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_collapse --dims=2,17,17,17 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline=upstream --seed=6 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// The fused IR against the float64 reference (%b and %t are tensor.dim of
// the argument %a, so norm-run follows the fused op's A to its sizes):
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=heads_collapse --dims=3,7,7,7 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=heads_collapse --dims=2,33,33,33 --seed=8 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=flatten_bf16 --dims=3,9,9,9 --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
// RUN: norm-run %t.mlir --entry=flatten_bf16 --dims=4,21,21,21 --seed=10 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
// RUN: norm-run %t.mlir --entry=batch_collapse --dims=3,5,5,5 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=batch_collapse --dims=2,17,17,17 --seed=12 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32

// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} PASS{{$}}
// F32: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-05 PASS{{$}}
// BF16: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>

// FUSED-LABEL: func.func @heads_collapse(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @heads_collapse(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h0 = tensor.expand_shape %p [[0], [1, 2]] output_shape [%bt, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %f = tensor.collapse_shape %h0 [[0, 1], [2]] : tensor<?x4x32xf32> into tensor<?x32xf32>
  %h = tensor.expand_shape %f [[0, 1, 2], [3]] output_shape [%b, %t, 4, 32] : tensor<?x32xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xf32>, tensor<?x?x4x16xf32>) -> tensor<?x?x4x32xf32>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xf32>, tensor<?x?x4x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4x32xf32>
  return %y : tensor<?x?x4x32xf32>
}

// FUSED-LABEL: func.func @flatten_bf16(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xbf16>) {{.*}} rope({{.*}} : tensor<1x?x1x32xbf16>, tensor<1x?x1x32xbf16>) outs(%{{.*}} : tensor<?x?x128xbf16>) {{.*}}rope_rounding = #norm.rope_rounding<each_step>
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @flatten_bf16(%a: tensor<?x?x64xbf16>, %w: tensor<64x128xbf16>, %g: tensor<32xbf16>, %cos: tensor<?x32xbf16>, %sin: tensor<?x32xbf16>) -> tensor<?x?x4x32xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xbf16>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xbf16>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x64xbf16> into tensor<?x64xbf16>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xbf16>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xbf16>, tensor<64x128xbf16>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %be = tensor.empty(%bt) : tensor<?x128xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<?x128xf32>) outs(%be : tensor<?x128xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %r = arith.truncf %v : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<?x128xbf16>
  %f = tensor.collapse_shape %pb [[0, 1]] : tensor<?x128xbf16> into tensor<?xbf16>
  %h = tensor.expand_shape %f [[0, 1, 2, 3]] output_shape [%b, %t, 4, 32] : tensor<?xbf16> into tensor<?x?x4x32xbf16>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xbf16>
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e0 : tensor<?x?x4x32xbf16>) {epsilon = 1.0e-6 : f32} -> tensor<?x?x4x32xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xbf16> to tensor<?x?x4x16xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xbf16> to tensor<?x?x4x16xbf16>
  %neg = arith.negf %x2 : tensor<?x?x4x16xbf16>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xbf16>, tensor<?x?x4x16xbf16>) -> tensor<?x?x4x32xbf16>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xbf16>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xbf16>, tensor<?x32xbf16>) outs(%e1 : tensor<?x?x4x32xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %r = arith.mulf %v, %c : bf16
    linalg.yield %r : bf16
  } -> tensor<?x?x4x32xbf16>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xbf16>, tensor<?x32xbf16>) outs(%e1 : tensor<?x?x4x32xbf16>) {
  ^bb0(%v: bf16, %s: bf16, %o: bf16):
    %r = arith.mulf %v, %s : bf16
    linalg.yield %r : bf16
  } -> tensor<?x?x4x32xbf16>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xbf16>, tensor<?x?x4x32xbf16>) outs(%e1 : tensor<?x?x4x32xbf16>) {
  ^bb0(%l: bf16, %r: bf16, %o: bf16):
    %v = arith.addf %l, %r : bf16
    linalg.yield %v : bf16
  } -> tensor<?x?x4x32xbf16>
  return %y : tensor<?x?x4x32xbf16>
}

// FUSED-LABEL: func.func @batch_collapse(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: linalg.batch_matmul
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @batch_collapse(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %a, %c0 : tensor<?x?x64xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x64xf32>
  %we = tensor.empty(%b) : tensor<?x64x128xf32>
  %wb = linalg.broadcast ins(%w : tensor<64x128xf32>) outs(%we : tensor<?x64x128xf32>) dimensions = [0]
  %pe = tensor.empty(%b, %t) : tensor<?x?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x?x128xf32>) -> tensor<?x?x128xf32>
  %p = linalg.batch_matmul ins(%a, %wb : tensor<?x?x64xf32>, tensor<?x64x128xf32>) outs(%z : tensor<?x?x128xf32>) -> tensor<?x?x128xf32>
  %f = tensor.collapse_shape %p [[0, 1], [2]] : tensor<?x?x128xf32> into tensor<?x128xf32>
  %h = tensor.expand_shape %f [[0, 1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [%b, %t, 4, 16] [1, 1, 1, 1] : tensor<?x?x4x32xf32> to tensor<?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<?x?x4x16xf32>, tensor<?x?x4x16xf32>) -> tensor<?x?x4x32xf32>
  %e1 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #t4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x4x32xf32>, tensor<?x?x4x32xf32>) outs(%e1 : tensor<?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4x32xf32>
  return %y : tensor<?x?x4x32xf32>
}
