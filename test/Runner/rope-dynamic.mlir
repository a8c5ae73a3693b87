// REQUIRES: norm-jit
// QK-norm → RoPE at a dynamic sequence length (torch-mlir with dynamic
// shapes, ONNX's symbolic `seq`): cos/sin [?, D] (or HF's [1, 1, ?, D]),
// the rotation written as elementwise ops. --norm-fuse-matmul takes the
// rotation into the norm (rope, the angles' dynamic dim the input's size),
// and into the matmul's epilogue where a projection produces the norm's
// input. The fused IR is run against the IR as written and against the
// float64 reference, f32 and bf16 (each_step), 1 and 2 threads.
//
// The fusion happens:
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// Fused vs as written (both through the project pipeline), 1 and 2 threads:
// f32 to the tolerance (the IR as written rounds each step to f32, the
// fused op once), bf16 each_step bit for bit for the standalone norm:
// RUN: norm-run %s --entry=qwen3_dyn --dims=7,7,7 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=1 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=qwen3_dyn --dims=33,33,33 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=2 --dist=normal --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=hf_batch_dyn_bf16 --dims=9,9,9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=3 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=SAME
// RUN: norm-run %s --entry=hf_batch_dyn_bf16 --dims=21,21,21 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=4 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=SAME
// RUN: norm-run %s --entry=qk_matmul_dyn --dims=11,11,11 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=qk_matmul_dyn --dims=40,40,40 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=6 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=qk_matmul_dyn_bf16 --dims=9,9,9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=7 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=qk_matmul_dyn_bf16 --dims=26,26,26 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=8 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// The rows of a static B = 2 and a dynamic T, split with the heads in one
// view (the fused op takes the rows' split, A as [2, T, K]), against the
// IR as written here and against float64 below:
// RUN: norm-run %s --entry=batch_rows_dyn --dims=5,5,5 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline='builtin.module(norm-lower-to-cpu)' --seed=17 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=batch_rows_dyn --dims=12,12,12 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{num-threads=2})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --seed=18 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// The fused IR against the float64 reference, 1 and 2 threads:
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=qwen3_dyn --dims=7,7,7 --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %t.mlir --entry=qwen3_dyn --dims=33,33,33 --seed=10 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %t.mlir --entry=hf_batch_dyn_bf16 --dims=9,9,9 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %t.mlir --entry=hf_batch_dyn_bf16 --dims=21,21,21 --seed=12 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %t.mlir --entry=qk_matmul_dyn --dims=11,11,11 --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %t.mlir --entry=qk_matmul_dyn --dims=40,40,40 --seed=14 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %t.mlir --entry=qk_matmul_dyn_bf16 --dims=9,9,9 --seed=15 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %t.mlir --entry=qk_matmul_dyn_bf16 --dims=26,26,26 --seed=16 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %t.mlir --entry=batch_rows_dyn --dims=5,5,5 --seed=19 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %t.mlir --entry=batch_rows_dyn --dims=12,12,12 --seed=20 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
//
// A table whose dynamic size is not the input's is refused before the run
// (the lowered code assumes they agree), a table of 1 row too: a dynamic
// dim is never a broadcast.
// RUN: not norm-run %t.mlir --entry=qwen3_dyn --dims=7,5,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not norm-run %t.mlir --entry=qwen3_dyn --dims=7,1,1 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not norm-run %t.mlir --entry=qk_matmul_dyn --dims=11,1,1 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=ONEMM

// F32: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-06}} PASS{{$}}
// BF16: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}
// CHECK-NOT: FAIL
// SAME: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} cmp_rel_err=0.000e+00 {{.*}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} PASS{{$}}
// SHORT: norm-run: error: {{.*}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: cos (argument #2) has shape [5x1x64], expected [7x1x64]
// ONE: norm-run: error: {{.*}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: cos (argument #2) has shape [1x1x64], expected [7x1x64]
// ONEMM: norm-run: error: {{.*}}: the argument shapes (from the signature and --dims) do not fit norm.matmul_rms_norm: cos (argument #3) has shape [1x1x32], expected [11x1x32]

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#htd = affine_map<(d0, d1, d2) -> (d1, d2)>
#tdp = affine_map<(d0, d1, d2) -> (d0, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#hf4 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
#hf3 = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>

// Qwen3's q in f32: [T, H, D] normed, transposed to [H, T, D], rotate_half
// from slices, a negf and tensor.concat, cos/sin [T, D].
// FUSED-LABEL: func.func @qwen3_dyn
//       FUSED: norm.rms_norm {{.*}} rope({{.*}} : tensor<?x1x64xf32>, tensor<?x1x64xf32>)
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @qwen3_dyn(%x: tensor<?x4x64xf32>, %g: tensor<64xf32>, %cos: tensor<?x64xf32>, %sin: tensor<?x64xf32>) -> tensor<4x?x64xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x4x64xf32>
  %e0 = tensor.empty(%t) : tensor<?x4x64xf32>
  %n = norm.rms_norm ins(%x : tensor<?x4x64xf32>) weight(%g : tensor<64xf32>) outs(%e0 : tensor<?x4x64xf32>) {epsilon = 1.0e-6 : f32} -> tensor<?x4x64xf32>
  %e1 = tensor.empty(%t) : tensor<4x?x64xf32>
  %q = linalg.transpose ins(%n : tensor<?x4x64xf32>) outs(%e1 : tensor<4x?x64xf32>) permutation = [1, 0, 2]
  %q1 = tensor.extract_slice %q[0, 0, 0] [4, %t, 32] [1, 1, 1] : tensor<4x?x64xf32> to tensor<4x?x32xf32>
  %q2 = tensor.extract_slice %q[0, 0, 32] [4, %t, 32] [1, 1, 1] : tensor<4x?x64xf32> to tensor<4x?x32xf32>
  %neg = arith.negf %q2 : tensor<4x?x32xf32>
  %rot = tensor.concat dim(2) %neg, %q1 : (tensor<4x?x32xf32>, tensor<4x?x32xf32>) -> tensor<4x?x64xf32>
  %e4 = tensor.empty(%t) : tensor<4x?x64xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #htd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<4x?x64xf32>, tensor<?x64xf32>) outs(%e4 : tensor<4x?x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x64xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #htd, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<4x?x64xf32>, tensor<?x64xf32>) outs(%e4 : tensor<4x?x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x64xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<4x?x64xf32>, tensor<4x?x64xf32>) outs(%e4 : tensor<4x?x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x?x64xf32>
  return %r : tensor<4x?x64xf32>
}

// Hugging Face's batch form in bf16 at B = 1: q [1, T, H, D] normed
// (rounding before its weight), transposed to [1, H, T, D], rotate_half
// by inserts into an empty tensor (their sizes tensor.dim of the slices),
// cos/sin [1, 1, T, D] read at 0 in the unit dims; every step in bf16:
// rope_rounding = each_step, the angles [1, T, 1, D] in the norm's dims.
// FUSED-LABEL: func.func @hf_batch_dyn_bf16
//       FUSED: norm.rms_norm {{.*}} rope({{.*}} : tensor<1x?x1x64xbf16>, tensor<1x?x1x64xbf16>) {{.*}}rope_rounding = #norm.rope_rounding<each_step>
//   FUSED-NOT: linalg.generic
//   FUSED-NOT: tensor.insert_slice
//       FUSED: return
func.func @hf_batch_dyn_bf16(%x: tensor<1x?x4x64xbf16>, %g: tensor<64xbf16>, %cos: tensor<1x1x?x64xbf16>, %sin: tensor<1x1x?x64xbf16>) -> tensor<1x4x?x64xbf16> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = tensor.dim %x, %c1 : tensor<1x?x4x64xbf16>
  %e0 = tensor.empty(%t) : tensor<1x?x4x64xbf16>
  %n = norm.rms_norm ins(%x : tensor<1x?x4x64xbf16>) weight(%g : tensor<64xbf16>) outs(%e0 : tensor<1x?x4x64xbf16>) {epsilon = 1.0e-6 : f32, cast_mode = #norm.cast_mode<before_weight>} -> tensor<1x?x4x64xbf16>
  %e1 = tensor.empty(%t) : tensor<1x4x?x64xbf16>
  %q = linalg.transpose ins(%n : tensor<1x?x4x64xbf16>) outs(%e1 : tensor<1x4x?x64xbf16>) permutation = [0, 2, 1, 3]
  %tq = tensor.dim %q, %c2 : tensor<1x4x?x64xbf16>
  %q1 = tensor.extract_slice %q[0, 0, 0, 0] [1, 4, %tq, 32] [1, 1, 1, 1] : tensor<1x4x?x64xbf16> to tensor<1x4x?x32xbf16>
  %q2 = tensor.extract_slice %q[0, 0, 0, 32] [1, 4, %tq, 32] [1, 1, 1, 1] : tensor<1x4x?x64xbf16> to tensor<1x4x?x32xbf16>
  %t2 = tensor.dim %q2, %c2 : tensor<1x4x?x32xbf16>
  %e2 = tensor.empty(%t2) : tensor<1x4x?x32xbf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q2 : tensor<1x4x?x32xbf16>) outs(%e2 : tensor<1x4x?x32xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %v = arith.negf %a : bf16
    linalg.yield %v : bf16
  } -> tensor<1x4x?x32xbf16>
  %e3 = tensor.empty(%tq) : tensor<1x4x?x64xbf16>
  %tn = tensor.dim %neg, %c2 : tensor<1x4x?x32xbf16>
  %i0 = tensor.insert_slice %neg into %e3[0, 0, 0, 0] [1, 4, %tn, 32] [1, 1, 1, 1] : tensor<1x4x?x32xbf16> into tensor<1x4x?x64xbf16>
  %t1 = tensor.dim %q1, %c2 : tensor<1x4x?x32xbf16>
  %rot = tensor.insert_slice %q1 into %i0[0, 0, 0, 32] [1, 4, %t1, 32] [1, 1, 1, 1] : tensor<1x4x?x32xbf16> into tensor<1x4x?x64xbf16>
  %e4 = tensor.empty(%tq) : tensor<1x4x?x64xbf16>
  %qc = linalg.generic {indexing_maps = [#id4, #hf4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %cos : tensor<1x4x?x64xbf16>, tensor<1x1x?x64xbf16>) outs(%e4 : tensor<1x4x?x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.mulf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<1x4x?x64xbf16>
  %qs = linalg.generic {indexing_maps = [#id4, #hf4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x?x64xbf16>, tensor<1x1x?x64xbf16>) outs(%e4 : tensor<1x4x?x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.mulf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<1x4x?x64xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>) outs(%e4 : tensor<1x4x?x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %v = arith.addf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<1x4x?x64xbf16>
  return %r : tensor<1x4x?x64xbf16>
}

// The q projection at a dynamic T in f32: linalg.matmul → [T, H, D] →
// per-head norm → RoPE: one norm.matmul_rms_norm with the rotation.
// FUSED-LABEL: func.func @qk_matmul_dyn
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<?x1x32xf32>, tensor<?x1x32xf32>) {{.*}}head_dim = 32
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @qk_matmul_dyn(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%t) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [%t, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %e0 = tensor.empty(%t) : tensor<?x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<?x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e0 : tensor<?x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xf32> to tensor<?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 16] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xf32> to tensor<?x4x16xf32>
  %neg = arith.negf %x2 : tensor<?x4x16xf32>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<?x4x16xf32>, tensor<?x4x16xf32>) -> tensor<?x4x32xf32>
  %e1 = tensor.empty(%t) : tensor<?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id3, #tdp, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #tdp, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x4x32xf32>, tensor<?x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x4x32xf32>, tensor<?x4x32xf32>) outs(%e1 : tensor<?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x4x32xf32>
  return %y : tensor<?x4x32xf32>
}

// The same in bf16 (the product rounded to bf16, the rotation in bf16
// steps): norm.matmul_rms_norm with rope_rounding = each_step.
// FUSED-LABEL: func.func @qk_matmul_dyn_bf16
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}} : tensor<?x1x32xbf16>, tensor<?x1x32xbf16>) {{.*}}head_dim = 32 : i64, rope_rounding = #norm.rope_rounding<each_step>
//   FUSED-NOT: norm.rms_norm
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @qk_matmul_dyn_bf16(%a: tensor<?x64xbf16>, %w: tensor<64x128xbf16>, %g: tensor<32xbf16>, %cos: tensor<?x32xbf16>, %sin: tensor<?x32xbf16>) -> tensor<?x4x32xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %a, %c0 : tensor<?x64xbf16>
  %pe = tensor.empty(%t) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xbf16>, tensor<64x128xbf16>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %be = tensor.empty(%t) : tensor<?x128xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<?x128xf32>) outs(%be : tensor<?x128xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %r = arith.truncf %v : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<?x128xbf16>
  %h = tensor.expand_shape %pb [[0], [1, 2]] output_shape [%t, 4, 32] : tensor<?x128xbf16> into tensor<?x4x32xbf16>
  %e0 = tensor.empty(%t) : tensor<?x4x32xbf16>
  %n = norm.rms_norm ins(%h : tensor<?x4x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e0 : tensor<?x4x32xbf16>) -> tensor<?x4x32xbf16>
  %x1 = tensor.extract_slice %n[0, 0, 0] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xbf16> to tensor<?x4x16xbf16>
  %x2 = tensor.extract_slice %n[0, 0, 16] [%t, 4, 16] [1, 1, 1] : tensor<?x4x32xbf16> to tensor<?x4x16xbf16>
  %neg = arith.negf %x2 : tensor<?x4x16xbf16>
  %rot = tensor.concat dim(2) %neg, %x1 : (tensor<?x4x16xbf16>, tensor<?x4x16xbf16>) -> tensor<?x4x32xbf16>
  %e1 = tensor.empty(%t) : tensor<?x4x32xbf16>
  %qc = linalg.generic {indexing_maps = [#id3, #tdp, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<?x4x32xbf16>, tensor<?x32xbf16>) outs(%e1 : tensor<?x4x32xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %r = arith.mulf %v, %c : bf16
    linalg.yield %r : bf16
  } -> tensor<?x4x32xbf16>
  %qs = linalg.generic {indexing_maps = [#id3, #tdp, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<?x4x32xbf16>, tensor<?x32xbf16>) outs(%e1 : tensor<?x4x32xbf16>) {
  ^bb0(%v: bf16, %s: bf16, %o: bf16):
    %r = arith.mulf %v, %s : bf16
    linalg.yield %r : bf16
  } -> tensor<?x4x32xbf16>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<?x4x32xbf16>, tensor<?x4x32xbf16>) outs(%e1 : tensor<?x4x32xbf16>) {
  ^bb0(%l: bf16, %r: bf16, %o: bf16):
    %v = arith.addf %l, %r : bf16
    linalg.yield %v : bf16
  } -> tensor<?x4x32xbf16>
  return %y : tensor<?x4x32xbf16>
}

// Rows B·T at B = 2 and a dynamic T with [1, T, D] angles, the product
// split to [2, T, H, D] in one view: the angles are not a reshape in the
// product's [2·T, H, D] view, so the fused op takes the view's split of
// the rows (A as [2, T, K], its output [2, T, N], angles [1, T, 1, D]
// read at (row / H) mod T) and the heads split stays a view after it.
// FUSED-LABEL: func.func @batch_rows_dyn
//       FUSED: norm.matmul_rms_norm ins(%{{.*}} : tensor<2x?x64xf32>) {{.*}} rope({{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<2x?x128xf32>)
//  FUSED-NEXT: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [2, %{{.*}}, 4, 32]
//   FUSED-NOT: linalg.matmul
//   FUSED-NOT: linalg.generic
//       FUSED: return
func.func @batch_rows_dyn(%a: tensor<2x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x?x32xf32>, %sin: tensor<1x?x32xf32>) -> tensor<2x?x4x32xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %a, %c1 : tensor<2x?x64xf32>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x?x64xf32> into tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %bt = tensor.dim %a2, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a2, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, %t, 4, 32] : tensor<?x128xf32> into tensor<2x?x4x32xf32>
  %e0 = tensor.empty(%t) : tensor<2x?x4x32xf32>
  %n = norm.rms_norm ins(%h : tensor<2x?x4x32xf32>) outs(%e0 : tensor<2x?x4x32xf32>) -> tensor<2x?x4x32xf32>
  %x1 = tensor.extract_slice %n[0, 0, 0, 0] [2, %t, 4, 16] [1, 1, 1, 1] : tensor<2x?x4x32xf32> to tensor<2x?x4x16xf32>
  %x2 = tensor.extract_slice %n[0, 0, 0, 16] [2, %t, 4, 16] [1, 1, 1, 1] : tensor<2x?x4x32xf32> to tensor<2x?x4x16xf32>
  %neg = arith.negf %x2 : tensor<2x?x4x16xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<2x?x4x16xf32>, tensor<2x?x4x16xf32>) -> tensor<2x?x4x32xf32>
  %e1 = tensor.empty(%t) : tensor<2x?x4x32xf32>
  %qc = linalg.generic {indexing_maps = [#id4, #hf3, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %cos : tensor<2x?x4x32xf32>, tensor<1x?x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.mulf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x?x4x32xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #hf3, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<2x?x4x32xf32>, tensor<1x?x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x?x4x32xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc, %qs : tensor<2x?x4x32xf32>, tensor<2x?x4x32xf32>) outs(%e1 : tensor<2x?x4x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %v = arith.addf %l, %r : f32
    linalg.yield %v : f32
  } -> tensor<2x?x4x32xf32>
  return %y : tensor<2x?x4x32xf32>
}
