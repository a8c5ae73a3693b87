// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// QK-norm heads reached through casts among the views (issue 26): frontends
// write a bf16 projection as an f32 product (bf16 A and W accumulated into
// f32) rounded to bf16 by an elementwise arith.truncf, which IREE and
// torch-mlir place before or after the reshape to heads, or in the
// transpose's generic; and tensor.cast between static and dynamic sizes.
// One truncation of the product to its operands' type is where the fused
// op rounds S anyway (its output type), wherever it sits among the views;
// the views before it are rebuilt at the rounded type. Casts that round
// elsewhere stay unfused, and the remark says where.

// The truncation after the expand to heads (a 3-D linalg.generic), before a
// Gemma norm with an f32 γ: the fused op's output is bf16, the expand
// follows it at bf16, the generic is gone.
// CHECK-LABEL: func.func @truncf_after_heads
//  CHECK-SAME: %[[A:[^:]*]]: tensor<8x64xbf16>, %[[W:[^:]*]]: tensor<64x64xbf16>, %[[G:[^:]*]]: tensor<16xf32>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[A]] : tensor<8x64xbf16>) rhs(%[[W]] : tensor<64x64xbf16>) weight(%[[G]] : tensor<16xf32>) outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64, weight_offset = 1.000000e+00 : f32} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xbf16> into tensor<8x4x16xbf16>
//  CHECK-NEXT: return %[[H]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @truncf_after_heads(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>, %g: tensor<16xf32>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %te = tensor.empty() : tensor<8x4x16xbf16>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<8x4x16xf32>) outs(%te : tensor<8x4x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<8x4x16xbf16>
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xbf16>) weight(%g : tensor<16xf32>) outs(%e : tensor<8x4x16xbf16>) {weight_offset = 1.0 : f32} -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// torch-mlir's transpose to [H, T, D] and the rounding in one
// linalg.generic (a permutation map and a truncf body): the fused op
// rounds, the transpose follows it as linalg.transpose at bf16.
// CHECK-LABEL: func.func @truncf_in_transpose
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xbf16> into tensor<8x4x16xbf16>
//  CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x8x16xbf16>
//  CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<8x4x16xbf16>) outs(%[[E]] : tensor<4x8x16xbf16>) permutation = [1, 0, 2]
//  CHECK-NEXT: return %[[T]]
#thd = affine_map<(h, t, d) -> (t, h, d)>
#htd = affine_map<(h, t, d) -> (h, t, d)>
func.func @truncf_in_transpose(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>, %g: tensor<16xbf16>) -> tensor<4x8x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %te = tensor.empty() : tensor<4x8x16xbf16>
  %t = linalg.generic {indexing_maps = [#thd, #htd], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<8x4x16xf32>) outs(%te : tensor<4x8x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x8x16xbf16>
  %e = tensor.empty() : tensor<4x8x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<4x8x16xbf16>) weight(%g : tensor<16xbf16>) outs(%e : tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16>
  return %y : tensor<4x8x16xbf16>
}

// -----

// The rounding between a transpose and the norm, as an arith.truncf on
// tensors: the transpose before it is rebuilt at bf16.
// CHECK-LABEL: func.func @tensor_truncf_after_transpose
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{.*}} : tensor<8x64xbf16> into tensor<8x4x16xbf16>
//  CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x8x16xbf16>
//  CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[H]] : tensor<8x4x16xbf16>) outs(%[[E]] : tensor<4x8x16xbf16>) permutation = [1, 0, 2]
//  CHECK-NEXT: return %[[T]]
//   CHECK-NOT: arith.truncf
func.func @tensor_truncf_after_transpose(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<4x8x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %te = tensor.empty() : tensor<4x8x16xf32>
  %t = linalg.transpose ins(%h : tensor<8x4x16xf32>) outs(%te : tensor<4x8x16xf32>) permutation = [1, 0, 2]
  %r = arith.truncf %t : tensor<4x8x16xf32> to tensor<4x8x16xbf16>
  %e = tensor.empty() : tensor<4x8x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%r : tensor<4x8x16xbf16>) outs(%e : tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16>
  return %y : tensor<4x8x16xbf16>
}

// -----

// A tensor.cast to dynamic rows and back to static ones around the
// rounding (a linalg.map) and the expand: f32 casts of the product are
// rebuilt at bf16.
// CHECK-LABEL: func.func @casts_around_map
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[C:.*]] = tensor.cast %[[Y]] : tensor<8x64xbf16> to tensor<?x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[C]] {{.*}} : tensor<?x64xbf16> into tensor<?x4x16xbf16>
//  CHECK-NEXT: %[[S:.*]] = tensor.cast %[[H]] : tensor<?x4x16xbf16> to tensor<8x4x16xbf16>
//  CHECK-NEXT: return %[[S]]
func.func @casts_around_map(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %c = tensor.cast %p : tensor<8x64xf32> to tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<8x64xbf16>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [%m, 4, 16] : tensor<?x64xf32> into tensor<?x4x16xf32>
  %s = tensor.cast %h : tensor<?x4x16xf32> to tensor<8x4x16xf32>
  %te = tensor.empty() : tensor<8x4x16xbf16>
  %t = linalg.map ins(%s : tensor<8x4x16xf32>) outs(%te : tensor<8x4x16xbf16>)
    (%in: f32, %init: bf16) {
      %r = arith.truncf %in : f32 to bf16
      linalg.yield %r : bf16
    }
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xbf16>) outs(%e : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// The rounding as a linalg.copy into a bf16 init (a named op that casts).
// CHECK-LABEL: func.func @copy_rounds
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm {{.*}} outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{.*}} : tensor<8x64xbf16> into tensor<8x4x16xbf16>
//  CHECK-NEXT: return %[[H]]
func.func @copy_rounds(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %te = tensor.empty() : tensor<8x4x16xbf16>
  %t = linalg.copy ins(%h : tensor<8x4x16xf32>) outs(%te : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xbf16>) outs(%e : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// Hugging Face's q at a dynamic B·T in bf16, with the rotation: the f32
// product rounded to bf16 (a 2-D generic), cast to dynamic rows, split to
// [B, T, H, D] in one expand, normalized and rotated with angles
// [1, T, 1, D]. The fused op takes the rows' split behind the rounding and
// the cast: A viewed as [B, T, K] (cast to the rows the split reads
// first), its output bf16 [B, T, N].
// CHECK-LABEL: func.func @rounded_then_row_split
//  CHECK-SAME: %[[A:[^:]*]]: tensor<6x64xbf16>
//       CHECK: %[[AC:.*]] = tensor.cast %[[A]] : tensor<6x64xbf16> to tensor<?x64xbf16>
//       CHECK: %[[AS:.*]] = tensor.expand_shape %[[AC]] {{\[}}[0, 1], [2]] output_shape [2, %{{.*}}, 64] : tensor<?x64xbf16> into tensor<2x?x64xbf16>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[AS]] : tensor<2x?x64xbf16>) {{.*}} rope(%{{.*}}, %{{.*}} : tensor<1x?x1x16xbf16>, tensor<1x?x1x16xbf16>) outs(%{{.*}} : tensor<2x?x64xbf16>) {head_dim = 16 : i64
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, %{{.*}}, 4, 16] : tensor<2x?x64xbf16> into tensor<2x?x4x16xbf16>
//  CHECK-NEXT: return %[[H]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rounded_then_row_split(%a: tensor<6x64xbf16>, %w: tensor<64x64xbf16>, %cos: tensor<1x?x1x16xbf16>, %sin: tensor<1x?x1x16xbf16>) -> tensor<2x?x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<6x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<6x64xf32>) -> tensor<6x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<6x64xf32>) -> tensor<6x64xf32>
  %te = tensor.empty() : tensor<6x64xbf16>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<6x64xf32>) outs(%te : tensor<6x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<6x64xbf16>
  %c = tensor.cast %r : tensor<6x64xbf16> to tensor<?x64xbf16>
  %c1 = arith.constant 1 : index
  %t = tensor.dim %cos, %c1 : tensor<1x?x1x16xbf16>
  %h = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2, %t, 4, 16] : tensor<?x64xbf16> into tensor<2x?x4x16xbf16>
  %e = tensor.empty(%t) : tensor<2x?x4x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%h : tensor<2x?x4x16xbf16>) rope(%cos, %sin : tensor<1x?x1x16xbf16>, tensor<1x?x1x16xbf16>) outs(%e : tensor<2x?x4x16xbf16>) -> tensor<2x?x4x16xbf16>
  return %y : tensor<2x?x4x16xbf16>
}

// -----

// The rounding after the rows' split: the fused op's output [B, T, N] is
// bf16, and the split of its columns into heads follows at bf16.
// CHECK-LABEL: func.func @row_split_then_rounded
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%{{.*}} : tensor<2x3x64xbf16>) {{.*}} rope(%{{.*}}, %{{.*}} : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%{{.*}} : tensor<2x3x64xbf16>) {head_dim = 16 : i64
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [2, 3, 4, 16] : tensor<2x3x64xbf16> into tensor<2x3x4x16xbf16>
//  CHECK-NEXT: return %[[H]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @row_split_then_rounded(%a: tensor<6x64xbf16>, %w: tensor<64x64xbf16>, %cos: tensor<1x3x1x16xf32>, %sin: tensor<1x3x1x16xf32>) -> tensor<2x3x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<6x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<6x64xf32>) -> tensor<6x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<6x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<6x64xf32>) -> tensor<6x64xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 3, 4, 16] : tensor<6x64xf32> into tensor<2x3x4x16xf32>
  %te = tensor.empty() : tensor<2x3x4x16xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<2x3x4x16xf32>) outs(%te : tensor<2x3x4x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<2x3x4x16xbf16>
  %e = tensor.empty() : tensor<2x3x4x16xbf16>
  // expected-remark @+1 {{fused with its producing matmul}}
  %y = norm.rms_norm ins(%r : tensor<2x3x4x16xbf16>) rope(%cos, %sin : tensor<1x3x1x16xf32>, tensor<1x3x1x16xf32>) outs(%e : tensor<2x3x4x16xbf16>) -> tensor<2x3x4x16xbf16>
  return %y : tensor<2x3x4x16xbf16>
}

// -----

// Not fused: a bf16 product widened to f32 after the expand, normalized in
// f32. The product was rounded to bf16; the fused op would round it once,
// to f32. The remark names the cast.
// CHECK-LABEL: func.func @widened_after_heads
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @widened_after_heads(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<8x4x16xf32> {
  %zero = arith.constant 0.0 : bf16
  %pe = tensor.empty() : tensor<8x64xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%pe : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xbf16> into tensor<8x4x16xbf16>
  %te = tensor.empty() : tensor<8x4x16xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<8x4x16xbf16>) outs(%te : tensor<8x4x16xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %r = arith.extf %in : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<8x4x16xf32>
  %e = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @+1 {{norm.rms_norm not fused: into consumers: a user needs the normalized value: 'func.return' is not a matmul; with a producer: the product is widened from bf16 to f32 (by 'linalg.generic', view 2 of 2 after the matmul) after it was rounded to bf16: the fused op rounds the product once, to the type the norm reads, so it cannot round it to bf16 first}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  return %y : tensor<8x4x16xf32>
}

// -----

// f32 operands whose f32 product is rounded to bf16 for a bf16 norm: the
// fused op's S and Y are bf16 (narrower than its operands: bf16 or f16 from
// f32 A and W), rounded where the truncf was.
// CHECK-LABEL: func.func @f32_operands_rounded
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%{{.*}} : tensor<8x64xf32>) rhs(%{{.*}} : tensor<64x64xf32>) outs(%{{.*}} : tensor<8x64xbf16>) {head_dim = 16 : i64} -> tensor<8x64xbf16>
//  CHECK-NEXT: %[[H:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xbf16> into tensor<8x4x16xbf16>
//  CHECK-NEXT: return %[[H]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @f32_operands_rounded(%a: tensor<8x64xf32>, %w: tensor<64x64xf32>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %t = arith.truncf %h : tensor<8x4x16xf32> to tensor<8x4x16xbf16>
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xbf16>) outs(%e : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// Not fused: an f32 bias added to the product before its rounding (then
// viewed as heads); the fused op would add it at bf16.
// CHECK-LABEL: func.func @bias_before_rounding
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @bias_before_rounding(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>, %b: tensor<64xf32>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %be = tensor.empty() : tensor<8x64xf32>
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%be : tensor<8x64xf32>) dimensions = [0]
  %pb = linalg.add ins(%p, %bb : tensor<8x64xf32>, tensor<8x64xf32>) outs(%be : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %pb [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %t = arith.truncf %h : tensor<8x4x16xf32> to tensor<8x4x16xbf16>
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{with a producer: the matmul bias is added at f32 before the rounding to bf16 (the fused op adds it at its output type) (by 'arith.truncf', view 2 of 2 after the matmul)}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xbf16>) outs(%e : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// Not fused: bf16 operands, the product rounded to f16 (another 16-bit
// type) after the expand.
// CHECK-LABEL: func.func @rounded_to_other_type
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @rounded_to_other_type(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<8x4x16xf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %t = arith.truncf %h : tensor<8x4x16xf32> to tensor<8x4x16xf16>
  %e = tensor.empty() : tensor<8x4x16xf16>
  // expected-remark @+1 {{with a producer: the product is rounded to f16, not to its operands' type bf16 (by 'arith.truncf', view 2 of 2 after the matmul)}}
  %y = norm.rms_norm ins(%t : tensor<8x4x16xf16>) outs(%e : tensor<8x4x16xf16>) -> tensor<8x4x16xf16>
  return %y : tensor<8x4x16xf16>
}

// -----

// Not fused: the product rounded to bf16, widened back to f32 and rounded
// again; the remark names the widening.
// CHECK-LABEL: func.func @rounded_twice
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @rounded_twice(%a: tensor<8x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.matmul ins(%a, %w : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tensor.expand_shape %p [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
  %t = arith.truncf %h : tensor<8x4x16xf32> to tensor<8x4x16xbf16>
  %x = arith.extf %t : tensor<8x4x16xbf16> to tensor<8x4x16xf32>
  %t2 = arith.truncf %x : tensor<8x4x16xf32> to tensor<8x4x16xbf16>
  %e = tensor.empty() : tensor<8x4x16xbf16>
  // expected-remark @+1 {{with a producer: the product is widened from bf16 to f32 (by 'arith.extf', view 3 of 4 after the matmul) after it was rounded to bf16}}
  %y = norm.rms_norm ins(%t2 : tensor<8x4x16xbf16>) outs(%e : tensor<8x4x16xbf16>) -> tensor<8x4x16xbf16>
  return %y : tensor<8x4x16xbf16>
}

// -----

// Not fused: a cast of an argument, no matmul under it; the remark says
// the casts lead to none.
// CHECK-LABEL: func.func @cast_of_argument
//       CHECK: norm.rms_norm ins
func.func @cast_of_argument(%x: tensor<8x64xf32>) -> tensor<8x64xbf16> {
  %t = arith.truncf %x : tensor<8x64xf32> to tensor<8x64xbf16>
  %e = tensor.empty() : tensor<8x64xbf16>
  // expected-remark @+1 {{with a producer: the casts before the norm do not start at a matmul (the input is a block argument, not a matmul)}}
  %y = norm.rms_norm ins(%t : tensor<8x64xbf16>) outs(%e : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  return %y : tensor<8x64xbf16>
}
