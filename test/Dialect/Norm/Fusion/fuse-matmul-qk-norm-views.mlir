// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// QK-norm heads reached through any chain of reshapes and transposes whose
// composite regroups the product's N columns into heads of D (D the
// normalized dim) and only regroups its rows otherwise: the fused op has
// the product's shape and head_dim = D, the views follow it unchanged.

// A collapse+expand pair that merges the heads back before splitting them
// again ([T, H, D] → [T, H·D] → [T, H, D]).
// CHECK-LABEL: func.func @collapse_expand_pair
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<4x32xf32>) rhs(%arg1 : tensor<32x16xf32>) weight(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<4x16xf32>) {head_dim = 8 : i64} -> tensor<4x16xf32>
//  CHECK-NEXT: %[[A:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 8]
//  CHECK-NEXT: %[[B:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0], [1, 2]]
//  CHECK-NEXT: %[[C:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 8]
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[C]]
func.func @collapse_expand_pair(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %g: tensor<8xf32>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %f = tensor.collapse_shape %h [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
  %h2 = tensor.expand_shape %f [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h2 : tensor<4x2x8xf32>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// N split one way, merged, then split into the heads the norm reads:
// [4, 24] → [4, 2, 12] → [4, 24] → [4, 3, 8] (12 is not a multiple of 8:
// only the composite is heads of 8).
// CHECK-LABEL: func.func @resplit
//       CHECK: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<4x24xf32>) {head_dim = 8 : i64}
//   CHECK-NOT: norm.rms_norm
func.func @resplit(%a: tensor<4x32xf32>, %w: tensor<32x24xf32>) -> tensor<4x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x24xf32>) -> tensor<4x24xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x24xf32>) outs(%z : tensor<4x24xf32>) -> tensor<4x24xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 12] : tensor<4x24xf32> into tensor<4x2x12xf32>
  %f = tensor.collapse_shape %h [[0], [1, 2]] : tensor<4x2x12xf32> into tensor<4x24xf32>
  %h2 = tensor.expand_shape %f [[0], [1, 2]] output_shape [4, 3, 8] : tensor<4x24xf32> into tensor<4x3x8xf32>
  %e = tensor.empty() : tensor<4x3x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h2 : tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  return %y : tensor<4x3x8xf32>
}

// -----

// tensor.reshape with a shape tensor (ONNX import's Reshape): [B·T, H·D]
// straight to [B, T, H, D].
// CHECK-LABEL: func.func @reshape_shape_tensor
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%arg0 : tensor<6x32xf32>) {{.*}} outs(%{{.*}} : tensor<6x64xf32>) {head_dim = 16 : i64} -> tensor<6x64xf32>
//  CHECK-NEXT: %[[R:.*]] = tensor.reshape %[[Y]](%{{.*}}) : (tensor<6x64xf32>, tensor<4xindex>) -> tensor<2x3x4x16xf32>
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[R]]
func.func @reshape_shape_tensor(%a: tensor<6x32xf32>, %w: tensor<32x64xf32>, %g: tensor<16xf32>) -> tensor<2x3x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x64xf32>) -> tensor<6x64xf32>
  %c = linalg.matmul ins(%a, %w : tensor<6x32xf32>, tensor<32x64xf32>) outs(%z : tensor<6x64xf32>) -> tensor<6x64xf32>
  %shape = arith.constant dense<[2, 3, 4, 16]> : tensor<4xindex>
  %h = tensor.reshape %c(%shape) : (tensor<6x64xf32>, tensor<4xindex>) -> tensor<2x3x4x16xf32>
  %e = tensor.empty() : tensor<2x3x4x16xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<2x3x4x16xf32>) weight(%g : tensor<16xf32>) outs(%e : tensor<2x3x4x16xf32>) -> tensor<2x3x4x16xf32>
  return %y : tensor<2x3x4x16xf32>
}

// -----

// torch-mlir's aten.linear on [B, T, C] with a dynamic T: the batch
// collapsed into the matmul's rows, the product expanded back with
// output_shape operands, viewed as heads, and transposed by a
// linalg.generic copy (aten.transpose) to [B, H, T, D].
// CHECK-LABEL: func.func @torch_linear_heads
//       CHECK: %[[X:.*]] = tensor.collapse_shape %arg0
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[X]] : tensor<?x64xf32>) rhs(%arg1 : tensor<128x64xf32>) weight(%arg2 : tensor<32xf32>) outs(%{{.*}} : tensor<?x128xf32>) {epsilon = 9.99999997E-7 : f32, head_dim = 32 : i64, transpose_rhs} -> tensor<?x128xf32>
//  CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [2, %{{.*}}, 128]
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[E]] {{\[\[}}0], [1], [2, 3]] output_shape [2, %{{.*}}, 4, 32]
//       CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<2x?x4x32xf32>)
//   CHECK-NOT: norm.rms_norm
//       CHECK: return %[[T]]
#in = affine_map<(b, h, t, d) -> (b, t, h, d)>
#out = affine_map<(b, h, t, d) -> (b, h, t, d)>
func.func @torch_linear_heads(%x: tensor<2x?x64xf32>, %w: tensor<128x64xf32>, %g: tensor<32xf32>) -> tensor<2x4x?x32xf32> {
  %c1 = arith.constant 1 : index
  %t = tensor.dim %x, %c1 : tensor<2x?x64xf32>
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x?x64xf32> into tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x128xf32>) -> tensor<?x128xf32>
  %wt0 = tensor.empty() : tensor<64x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x64xf32>) outs(%wt0 : tensor<64x128xf32>) permutation = [1, 0]
  %p = linalg.matmul ins(%a, %wt : tensor<?x64xf32>, tensor<64x128xf32>) outs(%z : tensor<?x128xf32>) -> tensor<?x128xf32>
  %p3 = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, %t, 128] : tensor<?x128xf32> into tensor<2x?x128xf32>
  %h = tensor.expand_shape %p3 [[0], [1], [2, 3]] output_shape [2, %t, 4, 32] : tensor<2x?x128xf32> into tensor<2x?x4x32xf32>
  %te = tensor.empty(%t) : tensor<2x4x?x32xf32>
  %tr = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<2x?x4x32xf32>) outs(%te : tensor<2x4x?x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x4x?x32xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%tr : tensor<2x4x?x32xf32>) weight(%g : tensor<32xf32>) outs(%te : tensor<2x4x?x32xf32>) {epsilon = 1.0e-6 : f32} -> tensor<2x4x?x32xf32>
  return %y : tensor<2x4x?x32xf32>
}

// -----

// Heads transposed to [B, H, T, D] and their rows merged ([B·H·T, D], as
// attention kernels take them): rows regrouped, each row still one head.
// CHECK-LABEL: func.func @transposed_rows_merged
//       CHECK: norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<2x3x32xf32>) {head_dim = 8 : i64}
//       CHECK: linalg.transpose
//  CHECK-NEXT: tensor.collapse_shape
//   CHECK-NOT: norm.rms_norm
func.func @transposed_rows_merged(%a: tensor<2x3x16xf32>, %w: tensor<16x32xf32>) -> tensor<24x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<2x3x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x3x32xf32>) -> tensor<2x3x32xf32>
  %wb0 = tensor.empty() : tensor<2x16x32xf32>
  %wb = linalg.broadcast ins(%w : tensor<16x32xf32>) outs(%wb0 : tensor<2x16x32xf32>) dimensions = [0]
  %c = linalg.batch_matmul ins(%a, %wb : tensor<2x3x16xf32>, tensor<2x16x32xf32>) outs(%z : tensor<2x3x32xf32>) -> tensor<2x3x32xf32>
  %h = tensor.expand_shape %c [[0], [1], [2, 3]] output_shape [2, 3, 4, 8] : tensor<2x3x32xf32> into tensor<2x3x4x8xf32>
  %te = tensor.empty() : tensor<2x4x3x8xf32>
  %t = linalg.transpose ins(%h : tensor<2x3x4x8xf32>) outs(%te : tensor<2x4x3x8xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<2x4x3x8xf32> into tensor<24x8xf32>
  %e = tensor.empty() : tensor<24x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%r : tensor<24x8xf32>) outs(%e : tensor<24x8xf32>) -> tensor<24x8xf32>
  return %y : tensor<24x8xf32>
}

// -----

// A transpose that swaps a head's columns with the heads, then a reshape
// back to [4, 2, 8]: each row of 8 takes 4 columns of each of 2 heads.
// Not fused; the remark names the view that makes the normalized dim.
// CHECK-LABEL: func.func @columns_across_heads
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @columns_across_heads(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 4, 4] : tensor<4x16xf32> into tensor<4x4x4xf32>
  %te = tensor.empty() : tensor<4x4x4xf32>
  %t = linalg.transpose ins(%h : tensor<4x4x4xf32>) outs(%te : tensor<4x4x4xf32>) permutation = [0, 2, 1]
  %f = tensor.collapse_shape %t [[0], [1, 2]] : tensor<4x4x4xf32> into tensor<4x16xf32>
  %r = tensor.expand_shape %f [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{with a producer: its normalized dim (size 8) is not 8 consecutive columns of one row of the product: it takes columns of different heads (each row of the product as 2 heads of 8) ('tensor.expand_shape', view 4 of 4 after the matmul, makes it so)}}
  %y = norm.rms_norm ins(%r : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Rows and columns mixed: [4, 16] transposed to [16, 4] would be a
// transpose moving the normalized dim; here the rows of the product are
// split into the normalized dim ([4·16] → [8, 8] after a transpose of the
// heads view to [2, 4, 8]): each row of 8 is one head, but the rows of
// the norm's input are not the product's. Fused: a regrouping of rows.
// CHECK-LABEL: func.func @rows_regrouped_after_transpose
//       CHECK: norm.matmul_rms_norm {{.*}} {head_dim = 8 : i64}
func.func @rows_regrouped_after_transpose(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %te = tensor.empty() : tensor<2x4x8xf32>
  %t = linalg.transpose ins(%h : tensor<4x2x8xf32>) outs(%te : tensor<2x4x8xf32>) permutation = [1, 0, 2]
  %f = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%f : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// A tensor.reshape to dynamic sizes next to the columns: [?, 32] flattened
// and cut into [?, ?, 8]. The static 8 cut exactly from the columns' inner
// end are one head; the two dynamic sizes index the rows and the heads of
// a row in some grouping, all a norm over the 8 needs. Fused.
// CHECK-LABEL: func.func @reshape_dynamic_heads
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<?x32xf32>) {head_dim = 8 : i64} -> tensor<?x32xf32>
//  CHECK-NEXT: tensor.reshape %[[Y]]
//   CHECK-NOT: norm.rms_norm
func.func @reshape_dynamic_heads(%a: tensor<?x32xf32>, %w: tensor<32x32xf32>, %shape: tensor<3xindex>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = tensor.reshape %c(%shape) : (tensor<?x32xf32>, tensor<3xindex>) -> tensor<?x?x8xf32>
  %c1 = arith.constant 1 : index
  %d0 = tensor.extract %shape[%c0] : tensor<3xindex>
  %d1 = tensor.extract %shape[%c1] : tensor<3xindex>
  %e = tensor.empty(%d0, %d1) : tensor<?x?x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

// -----

// Several dynamic sizes beside the columns in an expand: [?·32] (rows and
// columns flattened by a collapse) cut into [?, ?, 4, 8]; the static
// 4 × 8 are the columns exactly. Fused.
// CHECK-LABEL: func.func @expand_dynamic_beside_columns
//       CHECK: norm.matmul_rms_norm {{.*}} {head_dim = 8 : i64}
//   CHECK-NOT: norm.rms_norm
func.func @expand_dynamic_beside_columns(%a: tensor<?x32xf32>, %w: tensor<32x32xf32>, %b: index, %t: index) -> tensor<?x?x4x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %f = tensor.collapse_shape %c [[0, 1]] : tensor<?x32xf32> into tensor<?xf32>
  %h = tensor.expand_shape %f [[0, 1, 2, 3]] output_shape [%b, %t, 4, 8] : tensor<?xf32> into tensor<?x?x4x8xf32>
  %e = tensor.empty(%b, %t) : tensor<?x?x4x8xf32>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<?x?x4x8xf32>) outs(%e : tensor<?x?x4x8xf32>) -> tensor<?x?x4x8xf32>
  return %y : tensor<?x?x4x8xf32>
}

// -----

// Dynamic sizes beside static ones that do not cut the columns exactly:
// [?, 32] flattened into [?, 3, 8] (3 cuts a row's 4 heads). The analysis
// cannot say what the 3 index. Not fused; the remark names the reshape
// and the dim.
// CHECK-LABEL: func.func @reshape_dynamic_uneven
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @reshape_dynamic_uneven(%a: tensor<?x32xf32>, %w: tensor<32x32xf32>, %shape: tensor<3xindex>) -> tensor<?x3x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x32xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = tensor.reshape %c(%shape) : (tensor<?x32xf32>, tensor<3xindex>) -> tensor<?x3x8xf32>
  %d0 = tensor.extract %shape[%c0] : tensor<3xindex>
  %e = tensor.empty(%d0) : tensor<?x3x8xf32>
  // expected-remark @+1 {{with a producer: 'tensor.reshape' (view 1 of 1 after the matmul, to tensor<?x3x8xf32>) (the whole input flattened) splits its input's dim 0 into [?, 3, 8], which cuts the product's columns (or rows beside them) where they are not whole heads or whole rows (or at a dynamic size)}}
  %y = norm.rms_norm ins(%h : tensor<?x3x8xf32>) outs(%e : tensor<?x3x8xf32>) -> tensor<?x3x8xf32>
  return %y : tensor<?x3x8xf32>
}

// -----

// A linalg.generic that is not a plain copy (it scales) is no view: the
// norm does not read the product's heads. Not fused.
// CHECK-LABEL: func.func @generic_not_copy
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
#id = affine_map<(t, h, d) -> (t, h, d)>
func.func @generic_not_copy(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<4x2x8xf32>
  // expected-remark @+1 {{with a producer: the input is not produced by a matmul}}
  %y = norm.rms_norm ins(%s : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// Through an unranked tensor (tensor.reshape to tensor<*xf32>, then a
// cast back): no dims to follow. Not fused, and no crash.
// CHECK-LABEL: func.func @unranked_reshape
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @unranked_reshape(%a: tensor<4x32xf32>, %w: tensor<32x16xf32>, %shape: tensor<?xindex>) -> tensor<4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = tensor.reshape %c(%shape) : (tensor<4x16xf32>, tensor<?xindex>) -> tensor<*xf32>
  %h = tensor.cast %u : tensor<*xf32> to tensor<4x2x8xf32>
  %e = tensor.empty() : tensor<4x2x8xf32>
  // expected-remark @+1 {{with a producer: the input is not produced by a matmul}}
  %y = norm.rms_norm ins(%h : tensor<4x2x8xf32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %y : tensor<4x2x8xf32>
}

// -----

// An empty product (0 rows, or N = 0): its views have no pieces to cut,
// so the heads are not analyzed and nothing is fused (the unfused ops
// compute the same empty result). Not fused, and no crash (a division by
// the zero extent did crash).
// CHECK-LABEL: func.func @zero_rows
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @zero_rows(%a: tensor<0x32xf32>, %w: tensor<32x16xf32>) -> tensor<0x2x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<0x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<0x16xf32>) -> tensor<0x16xf32>
  %c = linalg.matmul ins(%a, %w : tensor<0x32xf32>, tensor<32x16xf32>) outs(%z : tensor<0x16xf32>) -> tensor<0x16xf32>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [0, 2, 2, 8] : tensor<0x16xf32> into tensor<0x2x2x8xf32>
  %e = tensor.empty() : tensor<0x2x2x8xf32>
  // expected-remark @+1 {{with a producer: the matmul's product or a view of it has a dim of size 0}}
  %y = norm.rms_norm ins(%h : tensor<0x2x2x8xf32>) outs(%e : tensor<0x2x2x8xf32>) -> tensor<0x2x2x8xf32>
  return %y : tensor<0x2x2x8xf32>
}

// -----

// CHECK-LABEL: func.func @zero_heads
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @zero_heads(%a: tensor<4x32xf32>, %w: tensor<32x0xf32>) -> tensor<4x0x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<4x0xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x0xf32>) -> tensor<4x0xf32>
  %c = linalg.matmul ins(%a, %w : tensor<4x32xf32>, tensor<32x0xf32>) outs(%z : tensor<4x0xf32>) -> tensor<4x0xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 0, 8] : tensor<4x0xf32> into tensor<4x0x8xf32>
  %e = tensor.empty() : tensor<4x0x8xf32>
  // expected-remark @+1 {{with a producer: the matmul's product or a view of it has a dim of size 0}}
  %y = norm.rms_norm ins(%h : tensor<4x0x8xf32>) outs(%e : tensor<4x0x8xf32>) -> tensor<4x0x8xf32>
  return %y : tensor<4x0x8xf32>
}
