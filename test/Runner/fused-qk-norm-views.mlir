// REQUIRES: norm-jit
// QK-norm heads reached through other reshapes, as frontends write them,
// fused by --norm-fuse-matmul (norm.matmul_rms_norm with head_dim, the
// views after it) and run.
//
// The fusion happens:
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
//
// The fused IR against the float64 reference (f32 tol 1e-5, bf16 1e-2):
// the fused op's result is returned through the [B·T, N] → [B, T, H, D]
// expand_shape, which norm-run's --check reads as the op's result.
// RUN: norm-opt %s --norm-fuse-matmul -o %t.mlir
// RUN: norm-run %t.mlir --entry=bt_heads --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=bt_heads --seed=2 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=bt_heads_bf16 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=bt_heads_bf16 --seed=4 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// The forms whose views after the fused op are no reshape of its rows
// (a transpose by a linalg.generic copy, tensor.reshape with a shape
// tensor), fused and lowered, against the same IR unfused through upstream:
// RUN: norm-run %s --entry=torch_linear_heads --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=onnx_reshape_heads --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=6 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

// The product [B·T, H·D] expanded straight to [B, T, H, D] (the rows as
// torch-mlir's aten.linear on [B, T, C] collapses them: @torch_linear_heads
// has the collapse; --check wants the op's input an argument).
// FUSED-LABEL: func.func @bt_heads
//       FUSED: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<18x128xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 32 : i64} -> tensor<18x128xf32>
//  FUSED-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 9, 4, 32]
//  FUSED-NEXT: return %[[H]]
func.func @bt_heads(%a: tensor<18x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>) -> tensor<2x9x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<18x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<18x128xf32>) -> tensor<18x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<18x64xf32>, tensor<64x128xf32>) outs(%z : tensor<18x128xf32>) -> tensor<18x128xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 9, 4, 32] : tensor<18x128xf32> into tensor<2x9x4x32xf32>
  %e = tensor.empty() : tensor<2x9x4x32xf32>
  %y = norm.rms_norm ins(%h : tensor<2x9x4x32xf32>) weight(%g : tensor<32xf32>) outs(%e : tensor<2x9x4x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<2x9x4x32xf32>
  return %y : tensor<2x9x4x32xf32>
}

// bf16, W N×K (PyTorch's Linear), D = 64, Gemma's 1 + γ.
// FUSED-LABEL: func.func @bt_heads_bf16
//       FUSED: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<14x256xbf16>) {{.*}}head_dim = 64 : i64{{.*}}transpose_rhs{{.*}} -> tensor<14x256xbf16>
//  FUSED-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 7, 4, 64]
//  FUSED-NEXT: return %[[H]]
func.func @bt_heads_bf16(%a: tensor<14x128xbf16>, %w: tensor<256x128xbf16>, %g: tensor<64xbf16>) -> tensor<2x7x4x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %pe = tensor.empty() : tensor<14x256xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%pe : tensor<14x256xbf16>) -> tensor<14x256xbf16>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<14x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<14x256xbf16>) -> tensor<14x256xbf16>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 7, 4, 64] : tensor<14x256xbf16> into tensor<2x7x4x64xbf16>
  %e = tensor.empty() : tensor<2x7x4x64xbf16>
  %y = norm.rms_norm ins(%h : tensor<2x7x4x64xbf16>) weight(%g : tensor<64xbf16>) outs(%e : tensor<2x7x4x64xbf16>) {epsilon = 1.0e-6 : f32, weight_offset = 1.0 : f32} -> tensor<2x7x4x64xbf16>
  return %y : tensor<2x7x4x64xbf16>
}

// The product expanded back to [B, T, N], viewed as heads, and transposed
// to [B, H, T, D] by a linalg.generic copy (torch-mlir's aten.transpose).
// FUSED-LABEL: func.func @torch_linear_heads
//       FUSED: norm.matmul_rms_norm {{.*}}head_dim = 16
//   FUSED-NOT: norm.rms_norm
//       FUSED: return
#in = affine_map<(b, h, t, d) -> (b, t, h, d)>
#out = affine_map<(b, h, t, d) -> (b, h, t, d)>
func.func @torch_linear_heads(%x: tensor<2x5x48xf32>, %w: tensor<48x64xf32>, %g: tensor<16xf32>) -> tensor<2x4x5x16xf32> {
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x5x48xf32> into tensor<10x48xf32>
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<10x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<10x64xf32>) -> tensor<10x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<10x48xf32>, tensor<48x64xf32>) outs(%z : tensor<10x64xf32>) -> tensor<10x64xf32>
  %p3 = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 5, 64] : tensor<10x64xf32> into tensor<2x5x64xf32>
  %h = tensor.expand_shape %p3 [[0], [1], [2, 3]] output_shape [2, 5, 4, 16] : tensor<2x5x64xf32> into tensor<2x5x4x16xf32>
  %te = tensor.empty() : tensor<2x4x5x16xf32>
  %tr = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<2x5x4x16xf32>) outs(%te : tensor<2x4x5x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x4x5x16xf32>
  %e = tensor.empty() : tensor<2x4x5x16xf32>
  %y = norm.rms_norm ins(%tr : tensor<2x4x5x16xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<2x4x5x16xf32>) -> tensor<2x4x5x16xf32>
  return %y : tensor<2x4x5x16xf32>
}

// ONNX import's Reshape: tensor.reshape with a constant shape tensor.
// FUSED-LABEL: func.func @onnx_reshape_heads
//       FUSED: %[[Y:.*]] = norm.matmul_rms_norm {{.*}}head_dim = 16
//  FUSED-NEXT: tensor.reshape %[[Y]]
func.func @onnx_reshape_heads(%a: tensor<6x32xf32>, %w: tensor<32x64xf32>, %g: tensor<16xf32>) -> tensor<2x3x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x64xf32>) -> tensor<6x64xf32>
  %c = linalg.matmul ins(%a, %w : tensor<6x32xf32>, tensor<32x64xf32>) outs(%z : tensor<6x64xf32>) -> tensor<6x64xf32>
  %shape = arith.constant dense<[2, 3, 4, 16]> : tensor<4xindex>
  %h = tensor.reshape %c(%shape) : (tensor<6x64xf32>, tensor<4xindex>) -> tensor<2x3x4x16xf32>
  %e = tensor.empty() : tensor<2x3x4x16xf32>
  %y = norm.rms_norm ins(%h : tensor<2x3x4x16xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<2x3x4x16xf32>) -> tensor<2x3x4x16xf32>
  return %y : tensor<2x3x4x16xf32>
}
