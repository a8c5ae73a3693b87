// REQUIRES: norm-jit
// A reshape that splits one dim into two dynamic sizes (torch-mlir's and
// ONNX's [B·T, N] → [B, T, H, D] with B and T unknown) bufferizes to a
// memref.expand_shape that MLIR 22's expand-strided-metadata crashed on;
// norm-reinterpret-dynamic-expand-shape makes it a view first. The per-head
// QK-norm fused into the matmul on the product so split, checked against
// float64 through the expand, on 1 and 2 threads, f32 and bf16:
// Unfused (the norm reads the product, which --check cannot take as an
// input), compared with the upstream pipeline:
// RUN: norm-run %s --entry=qk_heads --dims=6,2 --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// RUN: norm-run %s --entry=qk_heads --dims=10,2 --seed=2 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// SAME: PASS
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=qk_heads --dims=6,2 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=qk_heads_bf16 --dims=6,2 --seed=4 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// FUSED-LABEL: func.func @qk_heads(
//       FUSED: norm.matmul_rms_norm {{.*}} {head_dim = 8 : i64}
//   FUSED-NOT: norm.rms_norm
// FUSED-LABEL: func.func @qk_heads_bf16(
//       FUSED: norm.matmul_rms_norm {{.*}} {head_dim = 8 : i64}
// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project {{.*}} PASS{{$}}

// x: [M, 32] with M = B·T; T is the length of `tokens` (2 here), so that
// T and B = M / T are both run-time values.
func.func @qk_heads(%a: tensor<?x32xf32>, %w: tensor<32x32xf32>, %tokens: tensor<?xf32>) -> tensor<?x?x4x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xf32>
  %t = tensor.dim %tokens, %c0 : tensor<?xf32>
  %b = arith.divui %m, %t : index
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [%b, %t, 4, 8] : tensor<?x32xf32> into tensor<?x?x4x8xf32>
  %e = tensor.empty(%b, %t) : tensor<?x?x4x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?x4x8xf32>) outs(%e : tensor<?x?x4x8xf32>) -> tensor<?x?x4x8xf32>
  return %y : tensor<?x?x4x8xf32>
}

func.func @qk_heads_bf16(%a: tensor<?x32xbf16>, %w: tensor<32x32xbf16>, %tokens: tensor<?xbf16>) -> tensor<?x?x4x8xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xbf16>
  %t = tensor.dim %tokens, %c0 : tensor<?xbf16>
  %b = arith.divui %m, %t : index
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty(%m) : tensor<?x32xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xbf16>, tensor<32x32xbf16>) outs(%z : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [%b, %t, 4, 8] : tensor<?x32xbf16> into tensor<?x?x4x8xbf16>
  %e = tensor.empty(%b, %t) : tensor<?x?x4x8xbf16>
  %y = norm.rms_norm ins(%h : tensor<?x?x4x8xbf16>) outs(%e : tensor<?x?x4x8xbf16>) -> tensor<?x?x4x8xbf16>
  return %y : tensor<?x?x4x8xbf16>
}
