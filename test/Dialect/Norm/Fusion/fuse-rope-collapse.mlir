// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// norm → RoPE when the reshapes that regroup the product's rows start
// with a collapse (torch-mlir's `aten.view` of a [B, T, N] projection, or
// of a [B·T, H, D] view): a chain of collapse_shape / expand_shape keeps
// the elements' row-major order, so a reshape in it whose inner static
// dims multiply to N regroups whole rows of the product, and the fused op
// takes that regrouping as it takes one expand_shape (A viewed at the same
// sizes). A chain that never keeps the N columns whole is refused, and the
// remark names the reshape.

// A batch matmul's [B, T, N] collapsed to [B·T, N] and expanded to
// [B, T, H, D], angles [1, T, 1, D]: the fused op takes A [B, T, K]
// regrouped at the expand's sizes (a collapse and an expand of itself).
// CHECK-LABEL: func.func @batch_collapse_expand
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x?x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>
//   CHECK-DAG: %[[B:.*]] = tensor.dim %[[A]], %c0
//   CHECK-DAG: %[[T:.*]] = tensor.dim %[[A]], %c1
//       CHECK: %[[AF:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[AF]] {{\[}}[0, 1], [2]] output_shape [%[[B]], %[[T]], 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64} -> tensor<?x?x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [%[[B]], %[[T]], 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
//  CHECK-NEXT: return %[[H]]
//   CHECK-NOT: linalg.batch_matmul
func.func @batch_collapse_expand(%a: tensor<?x?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x?x1x32xf32>, %sin: tensor<1x?x1x32xf32>) -> tensor<?x?x4x32xf32> {
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
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) rope(%cos, %sin : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  return %n : tensor<?x?x4x32xf32>
}

// -----

// A 2-D matmul's [B·T, N] split into heads [B·T, H, D], collapsed to
// [B·T·H, D] (rows merged with heads: no whole rows there) and expanded
// to [B, T, H, D]: the last reshape keeps the N columns whole in [H, D],
// so the three regroup the rows into [B, T].
// CHECK-LABEL: func.func @heads_collapse_expand
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x64xf32>, %[[W:[^:]*]]: tensor<64x128xf32>, %[[G:[^:]*]]: tensor<32xf32>, %{{[^:]*}}: tensor<1x?x1x32xf32>, %{{[^:]*}}: tensor<1x?x1x32xf32>, %[[B:[^:]*]]: index, %[[T:[^:]*]]: index
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1], [2]] output_shape [%[[B]], %[[T]], 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) rhs(%[[W]] : tensor<64x128xf32>) weight(%[[G]] : tensor<32xf32>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64} -> tensor<?x?x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [%[[B]], %[[T]], 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
//  CHECK-NEXT: return %[[H]]
//   CHECK-NOT: linalg.matmul
func.func @heads_collapse_expand(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %g: tensor<32xf32>, %cos: tensor<1x?x1x32xf32>, %sin: tensor<1x?x1x32xf32>, %b: index, %t: index) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bt = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h0 = tensor.expand_shape %p [[0], [1, 2]] output_shape [%bt, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %f = tensor.collapse_shape %h0 [[0, 1], [2]] : tensor<?x4x32xf32> into tensor<?x32xf32>
  %h = tensor.expand_shape %f [[0, 1, 2], [3]] output_shape [%b, %t, 4, 32] : tensor<?x32xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) weight(%g : tensor<32xf32>) rope(%cos, %sin : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  return %n : tensor<?x?x4x32xf32>
}

// -----

// Flattened to one dim and expanded ([B·T, N] → [B·T·N] → [B, T, H, D],
// what a view through a 1-D shape gives), with a tensor.cast to static
// heads between: the same regrouping.
// CHECK-LABEL: func.func @flatten_cast_expand
//  CHECK-SAME: %[[A:[^:]*]]: tensor<?x64xf32>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) {{.*}} outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64} -> tensor<?x?x128xf32>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] {{.*}} : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
//  CHECK-NEXT: return %[[H]]
func.func @flatten_cast_expand(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>, %b: index, %t: index) -> tensor<?x?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bt = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %f = tensor.collapse_shape %p [[0, 1]] : tensor<?x128xf32> into tensor<?xf32>
  %h0 = tensor.expand_shape %f [[0, 1, 2, 3]] output_shape [%b, %t, 4, 32] : tensor<?xf32> into tensor<?x?x?x32xf32>
  %h = tensor.cast %h0 : tensor<?x?x?x32xf32> to tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  %cv = tensor.expand_shape %cos [[0, 1], [2, 3]] output_shape [1, %t, 1, 32] : tensor<?x32xf32> into tensor<1x?x1x32xf32>
  %sv = tensor.expand_shape %sin [[0, 1], [2, 3]] output_shape [1, %t, 1, 32] : tensor<?x32xf32> into tensor<1x?x1x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) rope(%cv, %sv : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  return %n : tensor<?x?x4x32xf32>
}

// -----

// Static sizes: [16, N] flattened and expanded to [2, 8, H, D], angles
// [1, 8, 1, D]: in the product's [16, H, D] they would be the table
// repeated twice, so the fused op takes the regrouping ([2, 8] rows, A
// viewed as [2, 8, K] at static sizes).
// CHECK-LABEL: func.func @static_flatten_expand
//  CHECK-SAME: %[[A:[^:]*]]: tensor<16x64xf32>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<2x8x64xf32>) {{.*}} rope(%{{.*}}, %{{.*}} : tensor<1x8x1x32xf32>, tensor<1x8x1x32xf32>) outs(%{{.*}} : tensor<2x8x128xf32>) {head_dim = 32 : i64}
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, 8, 4, 32] : tensor<2x8x128xf32> into tensor<2x8x4x32xf32>
//  CHECK-NEXT: return %[[H]]
//   CHECK-NOT: linalg.matmul
func.func @static_flatten_expand(%a: tensor<16x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x8x1x32xf32>, %sin: tensor<1x8x1x32xf32>) -> tensor<2x8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<16x128xf32>) -> tensor<16x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<16x64xf32>, tensor<64x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %f = tensor.collapse_shape %p [[0, 1]] : tensor<16x128xf32> into tensor<2048xf32>
  %h = tensor.expand_shape %f [[0, 1, 2, 3]] output_shape [2, 8, 4, 32] : tensor<2048xf32> into tensor<2x8x4x32xf32>
  %e0 = tensor.empty() : tensor<2x8x4x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<2x8x4x32xf32>) rope(%cos, %sin : tensor<1x8x1x32xf32>, tensor<1x8x1x32xf32>) outs(%e0 : tensor<2x8x4x32xf32>) -> tensor<2x8x4x32xf32>
  return %n : tensor<2x8x4x32xf32>
}

// -----

// Static rows regrouped then dynamic: [16, N] → [2, 8, N] cast to
// [?, ?, N] → [?, ?, H, D]: the casts hide the sizes from the heads
// view, the chain still gives them (the expand's output_shape).
// CHECK-LABEL: func.func @static_then_cast
//       CHECK: %[[AC:.*]] = tensor.cast %{{.*}} : tensor<16x64xf32> to tensor<?x64xf32>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[AC]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 64] : tensor<?x64xf32> into tensor<?x?x64xf32>
//       CHECK: norm.matmul_rms_norm ins(%[[AS]] : tensor<?x?x64xf32>) {{.*}} outs(%{{.*}} : tensor<?x?x128xf32>) {head_dim = 32 : i64}
func.func @static_then_cast(%a: tensor<16x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x?x1x32xf32>, %sin: tensor<1x?x1x32xf32>, %b: index, %t: index) -> tensor<?x?x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<16x128xf32>) -> tensor<16x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<16x64xf32>, tensor<64x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 8, 128] : tensor<16x128xf32> into tensor<2x8x128xf32>
  %rc = tensor.cast %r : tensor<2x8x128xf32> to tensor<?x?x128xf32>
  %f = tensor.collapse_shape %rc [[0, 1], [2]] : tensor<?x?x128xf32> into tensor<?x128xf32>
  %h = tensor.expand_shape %f [[0, 1], [2, 3]] output_shape [%b, %t, 4, 32] : tensor<?x128xf32> into tensor<?x?x4x32xf32>
  %e0 = tensor.empty(%b, %t) : tensor<?x?x4x32xf32>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %n = norm.rms_norm ins(%h : tensor<?x?x4x32xf32>) rope(%cos, %sin : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%e0 : tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32>
  return %n : tensor<?x?x4x32xf32>
}

// -----

// Flattened and expanded to [B, T·H, D]: the N columns are never whole in
// the inner dims (merged with the rows, cut at D), so no reshape gives
// the fused op whole rows to split; the remark names the last one.
// CHECK-LABEL: func.func @never_whole_rows
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x?x32xf32>) rope(
//   CHECK-NOT: norm.matmul_rms_norm
func.func @never_whole_rows(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x?x32xf32>, %sin: tensor<1x?x32xf32>, %b: index, %th: index) -> tensor<?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bt = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %f = tensor.collapse_shape %p [[0, 1]] : tensor<?x128xf32> into tensor<?xf32>
  %h = tensor.expand_shape %f [[0, 1, 2]] output_shape [%b, %th, 32] : tensor<?xf32> into tensor<?x?x32xf32>
  %e0 = tensor.empty(%b, %th) : tensor<?x?x32xf32>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: its rotary embedding (rope) has no norm → matmul form; with a producer: its rotary angles vary along dim 1 of the norm's input, whose rows the reshapes after the matmul regroup at dynamic sizes (the fused op's angles follow the product's [..., H, D] view, which cannot index them); nor in a view of its rows split by the reshapes after it (which the fused op could take): 'tensor.expand_shape' (view 2 of 2 after the matmul, to tensor<?x?x32xf32>) does not keep the product's 128 columns whole in its inner static dims (it merges them with rows, or cuts them across a dynamic dim), so its dims do not index whole rows of the product}}
  %n = norm.rms_norm ins(%h : tensor<?x?x32xf32>) rope(%cos, %sin : tensor<1x?x32xf32>, tensor<1x?x32xf32>) outs(%e0 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %n : tensor<?x?x32xf32>
}

// -----

// A collapse and an expand that regroup whole rows, then a transpose to
// [B, H, T, D] with angles [1, H, T, D]: in the regrouped [B, T, H, D]
// they would need a transpose of their own, so nothing fuses, and the
// remark names the reshapes it tried.
// CHECK-LABEL: func.func @regrouped_angles_transposed
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<?x4x?x32xf32>) rope(
//   CHECK-NOT: norm.matmul_rms_norm
func.func @regrouped_angles_transposed(%a: tensor<?x64xf32>, %w: tensor<64x128xf32>, %cos: tensor<1x4x?x32xf32>, %sin: tensor<1x4x?x32xf32>, %b: index, %t: index) -> tensor<?x4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bt = tensor.dim %a, %c0 : tensor<?x64xf32>
  %pe = tensor.empty(%bt) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p = linalg.matmul ins(%a, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h0 = tensor.expand_shape %p [[0], [1, 2]] output_shape [%bt, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  %f = tensor.collapse_shape %h0 [[0, 1], [2]] : tensor<?x4x32xf32> into tensor<?x32xf32>
  %h = tensor.expand_shape %f [[0, 1, 2], [3]] output_shape [%b, %t, 4, 32] : tensor<?x32xf32> into tensor<?x?x4x32xf32>
  %te = tensor.empty(%b, %t) : tensor<?x4x?x32xf32>
  %ht = linalg.transpose ins(%h : tensor<?x?x4x32xf32>) outs(%te : tensor<?x4x?x32xf32>) permutation = [0, 2, 1, 3]
  %e0 = tensor.empty(%b, %t) : tensor<?x4x?x32xf32>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: its rotary embedding (rope) has no norm → matmul form; with a producer: its rotary angles vary along dim 2 of the norm's input, whose rows the reshapes after the matmul regroup at dynamic sizes (the fused op's angles follow the product's [..., H, D] view, which cannot index them); nor in the view of its rows split as the first 3 reshapes split them (to 'tensor.expand_shape' (view 3 of 4 after the matmul, to tensor<?x?x4x32xf32>)) (which the fused op could take): its rotary angles vary along dims that a transpose before the norm reorders, so in the product's [..., H, D] view they would need a transpose of their own}}
  %n = norm.rms_norm ins(%ht : tensor<?x4x?x32xf32>) rope(%cos, %sin : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>) outs(%e0 : tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32>
  return %n : tensor<?x4x?x32xf32>
}
