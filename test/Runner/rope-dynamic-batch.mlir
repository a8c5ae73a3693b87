// REQUIRES: norm-jit
// QK-norm -> RoPE over rows regrouped at two dynamic sizes: a projection's
// [B*T, N] product viewed as [B, T, N] (output_shape [%b, %t, N], both
// dynamic), then as heads [B, T, H, D]; cos/sin [T, D] broadcast over the
// batch. --norm-fuse-matmul takes the rotation into the norm and the norm
// into the matmul's epilogue, the fused op taking the rows' split itself
// (A viewed as [B, T, K]): its angles [1, T, 1, D], read at (row / H) mod T.
// Run against the IR as written, f32 and bf16 (each_step), 1 and 2
// threads, B > 1 so the wrap matters.
//
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// Fused vs as written (both through the project pipeline):
// RUN: norm-run %s --entry=batch_seq_dyn --dims=3,7,7,7 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=1 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn --dims=2,33,33,33 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=2 --dist=normal --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn_bf16 --dims=3,9,9,9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=3 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_seq_dyn_bf16 --dims=4,21,21,21 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=4 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// Not against the float64 reference: norm-run's --check cannot follow the
// fused op's A (an expand_shape of two dynamic sizes in one group, which
// it cannot tell apart); the fused op's kernel over [1, ?, 1, D] angles of
// a [B, T, K] input is checked against float64 where --check can follow
// it (fused-rope-views.mlir: [B, T, 1, D] angles of a static [B, T, K]).
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
//
// A table of another length than T: norm-run cannot trace the fused op's
// A to check the arguments, and the compiled check (norm-check-rope-sizes)
// stops the run (SIGABRT), naming the fused op and both sizes; norm-run
// says the compiled function aborted, with no crash report of its own:
// RUN: not --crash norm-run %t.mlir --entry=batch_seq_dyn --dims=3,7,5,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SHORT

// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} PASS{{$}}
// SHORT: error: 'norm.matmul_rms_norm': rope angle operand 'cos' has size 5 in dim 1, the output viewed as [..., H, D] has size 7 there
// SHORT-NEXT: norm-run: error: the compiled function aborted (SIGABRT): the program stopped itself, e.g. on a failed run-time check reported above
// SHORT-NOT: {{PLEASE submit a bug report|Stack dump}}

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
