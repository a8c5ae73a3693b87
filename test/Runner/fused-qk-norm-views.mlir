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
// tensor, a transpose then a merge of the rows), against the float64
// reference: --check undoes the views from the returned buffer back to
// the op's [B·T, N] (and applies the input's collapse to the argument).
// RUN: norm-run %t.mlir --entry=torch_linear_heads --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=torch_linear_heads --seed=6 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=torch_linear_heads_bf16 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=torch_linear_heads_bf16 --seed=8 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=onnx_reshape_heads --seed=9 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=onnx_reshape_heads --seed=10 --threads=2 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=onnx_reshape_heads_bf16 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=onnx_reshape_heads_bf16 --seed=12 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=transposed_rows_merged --seed=13 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %t.mlir --entry=transposed_rows_merged --seed=14 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// The same forms fused and lowered, against the IR unfused through
// upstream:
// RUN: norm-run %s --entry=torch_linear_heads --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=onnx_reshape_heads --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --seed=6 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// A result returned through an op --check does not follow (here a slice of
// the heads) is a clear error when nothing else can be checked, and a
// warning beside the ops that are checked, never a silent pass:
// RUN: not norm-run %t.mlir --entry=sliced_heads --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=SLICED
// SLICED: norm-run: error: --check: @sliced_heads has no checkable norm op ({{.*}}); norm.matmul_rms_norm at {{.*}} is not: its outs result reaches the return only through 'tensor.extract_slice', which --check cannot follow (it follows casts, tensor.expand_shape, tensor.collapse_shape, tensor.reshape, linalg.transpose and linalg.generic permutation copies)
// RUN: norm-run %t.mlir --entry=sliced_beside_checked --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=BESIDE
// BESIDE: norm-run: warning: --check: norm.matmul_rms_norm at {{.*}} is not checked: its outs result reaches the return only through 'tensor.extract_slice'
// BESIDE: {{^}}norm-run: entry=sliced_beside_checked {{.*}} tol=1e-06 PASS{{$}}

// CHECK: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=project threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-02}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_0-9]+}} pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}

// The product [B·T, H·D] expanded straight to [B, T, H, D] (the rows as
// torch-mlir's aten.linear on [B, T, C] collapses them: @torch_linear_heads
// has the collapse).
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

// bf16, W N×K, D = 32: the generic transpose of @torch_linear_heads.
// FUSED-LABEL: func.func @torch_linear_heads_bf16
//       FUSED: norm.matmul_rms_norm {{.*}}head_dim = 32{{.*}}transpose_rhs
//  FUSED-NEXT: tensor.expand_shape
//  FUSED-NEXT: tensor.expand_shape
//  FUSED-NEXT: linalg.generic
func.func @torch_linear_heads_bf16(%x: tensor<2x7x64xbf16>, %w: tensor<96x64xbf16>, %g: tensor<32xbf16>) -> tensor<2x3x7x32xbf16> {
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x7x64xbf16> into tensor<14x64xbf16>
  %zero = arith.constant 0.0 : bf16
  %pe = tensor.empty() : tensor<14x96xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%pe : tensor<14x96xbf16>) -> tensor<14x96xbf16>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %w : tensor<14x64xbf16>, tensor<96x64xbf16>) outs(%z : tensor<14x96xbf16>) -> tensor<14x96xbf16>
  %p3 = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 7, 96] : tensor<14x96xbf16> into tensor<2x7x96xbf16>
  %h = tensor.expand_shape %p3 [[0], [1], [2, 3]] output_shape [2, 7, 3, 32] : tensor<2x7x96xbf16> into tensor<2x7x3x32xbf16>
  %te = tensor.empty() : tensor<2x3x7x32xbf16>
  %tr = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<2x7x3x32xbf16>) outs(%te : tensor<2x3x7x32xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    linalg.yield %v : bf16
  } -> tensor<2x3x7x32xbf16>
  %e = tensor.empty() : tensor<2x3x7x32xbf16>
  %y = norm.rms_norm ins(%tr : tensor<2x3x7x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e : tensor<2x3x7x32xbf16>) {epsilon = 1.0e-6 : f32} -> tensor<2x3x7x32xbf16>
  return %y : tensor<2x3x7x32xbf16>
}

// bf16 through ONNX's tensor.reshape, D = 16 of N = 64.
// FUSED-LABEL: func.func @onnx_reshape_heads_bf16
//       FUSED: %[[Y:.*]] = norm.matmul_rms_norm {{.*}}head_dim = 16
//  FUSED-NEXT: tensor.reshape %[[Y]]
func.func @onnx_reshape_heads_bf16(%a: tensor<10x48xbf16>, %w: tensor<48x64xbf16>, %g: tensor<16xbf16>) -> tensor<2x5x4x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<10x64xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<10x64xbf16>) -> tensor<10x64xbf16>
  %c = linalg.matmul ins(%a, %w : tensor<10x48xbf16>, tensor<48x64xbf16>) outs(%z : tensor<10x64xbf16>) -> tensor<10x64xbf16>
  %shape = arith.constant dense<[2, 5, 4, 16]> : tensor<4xindex>
  %h = tensor.reshape %c(%shape) : (tensor<10x64xbf16>, tensor<4xindex>) -> tensor<2x5x4x16xbf16>
  %e = tensor.empty() : tensor<2x5x4x16xbf16>
  %y = norm.rms_norm ins(%h : tensor<2x5x4x16xbf16>) weight(%g : tensor<16xbf16>) outs(%e : tensor<2x5x4x16xbf16>) -> tensor<2x5x4x16xbf16>
  return %y : tensor<2x5x4x16xbf16>
}

// Heads transposed to [B, H, T, D] and their rows merged to [B·H·T, D]:
// the returned buffer's rows are in another order than the op's, so
// --check undoes the merge, the transpose (a strided view) and the split
// (a copy of that view).
// FUSED-LABEL: func.func @transposed_rows_merged
//       FUSED: norm.matmul_rms_norm {{.*}}head_dim = 8
//       FUSED: linalg.transpose
//  FUSED-NEXT: tensor.collapse_shape
func.func @transposed_rows_merged(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %g: tensor<8xf32>) -> tensor<24x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 3, 4, 8] : tensor<6x32xf32> into tensor<2x3x4x8xf32>
  %te = tensor.empty() : tensor<2x4x3x8xf32>
  %t = linalg.transpose ins(%h : tensor<2x3x4x8xf32>) outs(%te : tensor<2x4x3x8xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<2x4x3x8xf32> into tensor<24x8xf32>
  %e = tensor.empty() : tensor<24x8xf32>
  %y = norm.rms_norm ins(%r : tensor<24x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<24x8xf32>) -> tensor<24x8xf32>
  return %y : tensor<24x8xf32>
}

// Negative: the heads returned through a slice, which --check cannot
// follow back to the op's result.
// FUSED-LABEL: func.func @sliced_heads
//       FUSED: norm.matmul_rms_norm
//       FUSED: tensor.extract_slice
func.func @sliced_heads(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>) -> tensor<6x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [6, 4, 8] : tensor<6x32xf32> into tensor<6x4x8xf32>
  %e = tensor.empty() : tensor<6x4x8xf32>
  %y = norm.rms_norm ins(%h : tensor<6x4x8xf32>) outs(%e : tensor<6x4x8xf32>) -> tensor<6x4x8xf32>
  %s = tensor.extract_slice %y[0, 0, 0] [6, 2, 8] [1, 1, 1] : tensor<6x4x8xf32> to tensor<6x2x8xf32>
  return %s : tensor<6x2x8xf32>
}

// The same beside a norm that is checked: a warning names the one that is
// not.
func.func @sliced_beside_checked(%a: tensor<6x16xf32>, %w: tensor<16x32xf32>, %x: tensor<4x8xf32>) -> (tensor<6x2x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x32xf32>) -> tensor<6x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<6x16xf32>, tensor<16x32xf32>) outs(%z : tensor<6x32xf32>) -> tensor<6x32xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [6, 4, 8] : tensor<6x32xf32> into tensor<6x4x8xf32>
  %e = tensor.empty() : tensor<6x4x8xf32>
  %y = norm.rms_norm ins(%h : tensor<6x4x8xf32>) outs(%e : tensor<6x4x8xf32>) -> tensor<6x4x8xf32>
  %s = tensor.extract_slice %y[0, 0, 0] [6, 2, 8] [1, 1, 1] : tensor<6x4x8xf32> to tensor<6x2x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y2 = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %y2 : tensor<6x2x8xf32>, tensor<4x8xf32>
}
