// REQUIRES: norm-jit
// QK-norm through casts among the views, fused by --norm-fuse-matmul and
// run: the f32 product of bf16 A and W rounded to bf16 after the expand to
// heads (a linalg.generic truncf), in the transpose's generic, or before a
// rows' split with the rotation; tensor.cast to dynamic rows and back in
// f32. The fused op rounds S where the truncation was.
//
// The fusion happens (no matmul, no truncf left):
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
// FUSED-NOT: linalg.matmul
// FUSED-NOT: arith.truncf
//
// The fused IR against the float64 reference (f32 tol 1e-5, bf16 1e-2):
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=rounded_heads --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=rounded_heads --seed=2 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=rounded_in_transpose --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=rounded_in_transpose --seed=4 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=f32_casts --dims=12 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=f32_casts --dims=7 --seed=6 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=rounded_row_split_rope --dims=5,5 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=rounded_row_split_rope --dims=5,5 --seed=8 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// Fused and lowered against the IR unfused through upstream (the
// truncation and views as written):
// RUN: norm-run %s --entry=rounded_heads --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=9 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=rounded_in_transpose --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=10 --threads=2 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=f32_casts --dims=9 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=11 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=rounded_row_split_rope --dims=5,5 --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=12 --threads=2 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

// FUSED-LABEL: func.func @rounded_heads
//       FUSED: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<18x128xbf16>) {head_dim = 32 : i64, transpose_rhs, weight_offset = 1.000000e+00 : f32} -> tensor<18x128xbf16>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @rounded_heads(%a: tensor<18x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<32xf32>) -> tensor<2x9x4x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<18x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<18x128xf32>) -> tensor<18x128xf32>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<18x64xbf16>, tensor<128x64xbf16>) outs(%z : tensor<18x128xf32>) -> tensor<18x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 9, 4, 32] : tensor<18x128xf32> into tensor<2x9x4x32xf32>
  %te = tensor.empty() : tensor<2x9x4x32xbf16>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<2x9x4x32xf32>) outs(%te : tensor<2x9x4x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x9x4x32xbf16>
  %e = tensor.empty() : tensor<2x9x4x32xbf16>
  %y = norm.rms_norm ins(%t : tensor<2x9x4x32xbf16>) weight(%g : tensor<32xf32>) outs(%e : tensor<2x9x4x32xbf16>) {weight_offset = 1.0 : f32} -> tensor<2x9x4x32xbf16>
  return %y : tensor<2x9x4x32xbf16>
}

// FUSED-LABEL: func.func @rounded_in_transpose
//       FUSED: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<10x64xbf16>) {head_dim = 16 : i64} -> tensor<10x64xbf16>
//       FUSED: linalg.transpose
#thd = affine_map<(h, t, d) -> (t, h, d)>
#htd = affine_map<(h, t, d) -> (h, t, d)>
func.func @rounded_in_transpose(%a: tensor<10x48xbf16>, %w: tensor<48x64xbf16>, %g: tensor<16xbf16>) -> tensor<4x10x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<10x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<10x64xf32>) -> tensor<10x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<10x48xbf16>, tensor<48x64xbf16>) outs(%z : tensor<10x64xf32>) -> tensor<10x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [10, 4, 16] : tensor<10x64xf32> into tensor<10x4x16xf32>
  %te = tensor.empty() : tensor<4x10x16xbf16>
  %t = linalg.generic {indexing_maps = [#thd, #htd], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<10x4x16xf32>) outs(%te : tensor<4x10x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x10x16xbf16>
  %e = tensor.empty() : tensor<4x10x16xbf16>
  %y = norm.rms_norm ins(%t : tensor<4x10x16xbf16>) weight(%g : tensor<16xbf16>) outs(%e : tensor<4x10x16xbf16>) -> tensor<4x10x16xbf16>
  return %y : tensor<4x10x16xbf16>
}

// FUSED-LABEL: func.func @f32_casts
//       FUSED: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<?x96xf32>) {head_dim = 32 : i64} -> tensor<?x96xf32>
//       FUSED: tensor.cast
func.func @f32_casts(%a: tensor<?x40xf32>, %w: tensor<40x96xf32>, %g: tensor<32xf32>) -> tensor<?x3x32xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x40xf32>
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty(%m) : tensor<?x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x96xf32>) -> tensor<?x96xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x40xf32>, tensor<40x96xf32>) outs(%z : tensor<?x96xf32>) -> tensor<?x96xf32>
  %c = tensor.cast %p : tensor<?x96xf32> to tensor<?x?xf32>
  %s = tensor.cast %c : tensor<?x?xf32> to tensor<?x96xf32>
  %h = tensor.expand_shape %s [[0], [1, 2]] output_shape [%m, 3, 32] : tensor<?x96xf32> into tensor<?x3x32xf32>
  %e = tensor.empty(%m) : tensor<?x3x32xf32>
  %y = norm.rms_norm ins(%h : tensor<?x3x32xf32>) weight(%g : tensor<32xf32>) outs(%e : tensor<?x3x32xf32>) -> tensor<?x3x32xf32>
  return %y : tensor<?x3x32xf32>
}

// FUSED-LABEL: func.func @rounded_row_split_rope
//       FUSED: norm.matmul_rms_norm {{.*}} rope({{.*}}) outs(%{{.*}} : tensor<2x?x64xbf16>) {head_dim = 16 : i64
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rounded_row_split_rope(%a: tensor<10x32xbf16>, %w: tensor<32x64xbf16>, %cos: tensor<1x?x1x16xbf16>, %sin: tensor<1x?x1x16xbf16>) -> tensor<2x?x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<10x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<10x64xf32>) -> tensor<10x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<10x32xbf16>, tensor<32x64xbf16>) outs(%z : tensor<10x64xf32>) -> tensor<10x64xf32>
  %te = tensor.empty() : tensor<10x64xbf16>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<10x64xf32>) outs(%te : tensor<10x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<10x64xbf16>
  %c = tensor.cast %r : tensor<10x64xbf16> to tensor<?x64xbf16>
  %c1 = arith.constant 1 : index
  %t = tensor.dim %cos, %c1 : tensor<1x?x1x16xbf16>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2, %t, 4, 16] : tensor<?x64xbf16> into tensor<2x?x4x16xbf16>
  %e = tensor.empty(%t) : tensor<2x?x4x16xbf16>
  %y = norm.rms_norm ins(%h : tensor<2x?x4x16xbf16>) rope(%cos, %sin : tensor<1x?x1x16xbf16>, tensor<1x?x1x16xbf16>) outs(%e : tensor<2x?x4x16xbf16>) -> tensor<2x?x4x16xbf16>
  return %y : tensor<2x?x4x16xbf16>
}
