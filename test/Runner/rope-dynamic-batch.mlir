// REQUIRES: norm-jit
// QK-norm -> RoPE over rows regrouped at two dynamic sizes: a projection's
// [B*T, N] product viewed as [B, T, N] (output_shape [%b, %t, N], both
// dynamic), then as heads [B, T, H, D]; cos/sin [T, D] broadcast over the
// batch. --norm-fuse-matmul takes the rotation into the norm and the norm
// into the matmul's epilogue, the fused op taking the rows' split itself
// (A viewed as [B, T, K]): its angles [1, T, 1, D], read at (row / H) mod T.
// Run against the IR as written and against float64, f32 and bf16
// (each_step), 1 and 2 threads, B > 1 so the wrap matters; the same for
// the canonical form (one expand_shape to [B, T, H, D]), for three
// dynamic sizes in the rows' group and for static sizes.
//
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// Fused vs as written (both through the project pipeline):
// RUN: norm-run %s --entry=batch_seq_dyn --dims=3,7,7,7 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=1 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn --dims=2,33,33,33 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=2 --dist=normal --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn_bf16 --dims=3,9,9,9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=3 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn_bf16 --dims=4,21,21,21 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=4 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=three_dyn --dims=2,3,5,5,5 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=13 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_static --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=14 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// The fused IR against the float64 reference: norm-run's --check follows
// the fused op's A (an expand_shape with two dynamic sizes in one group)
// because the IR says what they are: %b and %t are tensor.dim of the
// argument %a, so their sizes are that buffer's.
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=batch_seq_dyn --dims=3,7,7,7 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=batch_seq_dyn --dims=2,33,33,33 --seed=6 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=batch_seq_dyn_bf16 --dims=3,9,9,9 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
// RUN: norm-run %t.mlir --entry=batch_seq_dyn_bf16 --dims=4,21,21,21 --seed=8 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
// RUN: norm-run %t.mlir --entry=three_dyn --dims=2,3,5,5,5 --seed=15 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=three_dyn --dims=3,2,7,7,7 --seed=16 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.mlir --entry=batch_seq_static --seed=17 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
//
// The canonical form: --canonicalize merges the two expand_shapes into one
// to [B, T, H, D] (what torch-mlir and IREE write); the fused op takes its
// rows' half, the heads split stays a view of its output. Fused vs as
// written and against float64, f32 and bf16, 1 and 2 threads:
// RUN: norm-opt %s --canonicalize -o %t.canon.mlir
// RUN: FileCheck %s --input-file=%t.canon.mlir --check-prefix=ONE
// RUN: norm-opt %t.canon.mlir --norm-fuse-matmul | FileCheck %s --check-prefix=CANON
// RUN: norm-run %t.canon.mlir --entry=batch_seq_dyn --dims=3,7,7,7 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=9 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %t.canon.mlir --entry=batch_seq_dyn_bf16 --dims=4,21,21,21 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=10 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-opt %t.canon.mlir --norm-fuse-matmul -o %t.canon-fused.mlir
// RUN: norm-run %t.canon-fused.mlir --entry=batch_seq_dyn --dims=3,7,7,7 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.canon-fused.mlir --entry=batch_seq_dyn --dims=2,33,33,33 --seed=12 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=F32
// RUN: norm-run %t.canon-fused.mlir --entry=batch_seq_dyn_bf16 --dims=3,9,9,9 --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
// RUN: norm-run %t.canon-fused.mlir --entry=batch_seq_dyn_bf16 --dims=4,21,21,21 --seed=14 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=BF16
//
// A table of another length than T: norm-run, following the fused op's A
// to the argument's dims, refuses the arguments before the run, naming
// the operand and both shapes:
// RUN: not norm-run %t.mlir --entry=batch_seq_dyn --dims=3,7,5,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SHORT

// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} PASS{{$}}
// F32: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-05 PASS{{$}}
// BF16: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}
// SHORT: norm-run: error: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: the argument shapes (from the signature and --dims) do not fit norm.matmul_rms_norm: cos (argument #3) has shape [1x5x1x32], expected [1x7x1x32]

// ONE-LABEL: func.func @batch_seq_dyn(
//       ONE: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [%{{.*}}, %{{.*}}, 4, 32] : tensor<?x128xf32> into tensor<?x?x4x32xf32>
// ONE-LABEL: func.func @batch_seq_dyn_bf16(
//       ONE: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [%{{.*}}, %{{.*}}, 4, 32] : tensor<?x128xbf16> into tensor<?x?x4x32xbf16>

// CANON-LABEL: func.func @batch_seq_dyn(
//       CANON: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CANON: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>)
//  CANON-NEXT: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [%{{.*}}, %{{.*}}, 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
//  CANON-NEXT: return
// CANON-LABEL: func.func @batch_seq_dyn_bf16(
//       CANON: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xbf16>) {{.*}} rope({{.*}} : tensor<1x?x1x32xbf16>, tensor<1x?x1x32xbf16>) outs(%{{.*}} : tensor<?x?x128xbf16>) {{.*}}rope_rounding = #norm.rope_rounding<each_step>
//  CANON-NEXT: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]]
//  CANON-NEXT: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t4 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>

// FUSED-LABEL: func.func @batch_seq_dyn(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @batch_seq_dyn(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x4x32xf32> {
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
  %x = tensor.expand_shape %p [[0, 1], [2]] output_shape [%b, %t, 128] : tensor<?x128xf32> into tensor<?x?x128xf32>
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
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

// FUSED-LABEL: func.func @batch_seq_dyn_bf16(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x64xbf16>) {{.*}} rope({{.*}} : tensor<1x?x1x32xbf16>, tensor<1x?x1x32xbf16>) outs(%{{.*}} : tensor<?x?x128xbf16>) {{.*}}rope_rounding = #norm.rope_rounding<each_step>
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @batch_seq_dyn_bf16(%a: tensor<?x?x64xbf16>, %w: tensor<64x128xbf16>, %g: tensor<32xbf16>, %cos: tensor<?x32xbf16>, %sin: tensor<?x32xbf16>) -> tensor<?x?x4x32xbf16> {
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
  %x = tensor.expand_shape %pb [[0, 1], [2]] output_shape [%b, %t, 128] : tensor<?x128xbf16> into tensor<?x?x128xbf16>
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x?x128xbf16> into tensor<?x?x4x32xbf16>
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

// Three dynamic sizes in the rows' group, [P, B, T, H, D] in one view,
// angles [T, D] broadcast over P and B.
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#t5 = affine_map<(d0, d1, d2, d3, d4) -> (d2, d4)>
// FUSED-LABEL: func.func @three_dyn(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x?x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x1x?x1x32xf32>, tensor<1x1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x?x128xf32>)
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @three_dyn(%a: tensor<?x?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.dim %a, %c0 : tensor<?x?x?x64xf32>
  %b = tensor.dim %a, %c1 : tensor<?x?x?x64xf32>
  %t = tensor.dim %a, %c2 : tensor<?x?x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1, 2], [3]] : tensor<?x?x?x64xf32> into tensor<?x64xf32>
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1, 2], [3, 4]] output_shape [%p0, %b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x?x4x32xf32>
  %e0 = tensor.empty(%p0, %b, %t) : tensor<?x?x?x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<?x?x?x4x32xf32>) outs(%e0 : tensor<?x?x?x4x32xf32>) -> tensor<?x?x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0, 0] [%p0, %b, %t, 4, 16] [1, 1, 1, 1, 1] : tensor<?x?x?x4x32xf32> to tensor<?x?x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 0, 16] [%p0, %b, %t, 4, 16] [1, 1, 1, 1, 1] : tensor<?x?x?x4x32xf32> to tensor<?x?x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x?x?x4x16xf32>
  %rot = tensor.concat dim(4) %neg, %x1 : (tensor<?x?x?x4x16xf32>, tensor<?x?x?x4x16xf32>) -> tensor<?x?x?x4x32xf32>
  %e1 = tensor.empty(%p0, %b, %t) : tensor<?x?x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id5, #t5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id5, #t5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x?x?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x?x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x?x?x4x32xf32>, tensor<?x?x?x4x32xf32>) outs(%e1 : tensor<?x?x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x4x32xf32>
  return %y : tensor<?x?x?x4x32xf32>
}

// Static sizes, B = 2, T = 3, the rows and heads split in one view, angles
// [1, T, 1, D] (fuse-matmul-rope.mlir's angles_on_part_of_rows).
// FUSED-LABEL: func.func @batch_seq_static(
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<2x3x16xf32>) {{.*}} rope({{.*}} : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%{{.*}} : tensor<2x3x32xf32>)
//   FUSED-NOT: linalg.matmul
//       FUSED: return
func.func @batch_seq_static(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %c: tensor<1x3x1x16xf32>, %s: tensor<1x3x1x16xf32>) -> tensor<2x3x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 3, 2, 16] : tensor<6x32xf32> into tensor<2x3x2x16xf32>
  %e = tensor.empty() : tensor<2x3x2x16xf32>
  %y = norm.rms_norm ins(%h : tensor<2x3x2x16xf32>) rope(%c, %s : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%e : tensor<2x3x2x16xf32>) -> tensor<2x3x2x16xf32>
  return %y : tensor<2x3x2x16xf32>
}
