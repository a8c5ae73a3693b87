// RUN: norm-opt %s --norm-decompose -split-input-file | FileCheck %s

// RMSNorm, bf16 with the Gemma offset: x is upcast before squaring, the
// statistics are f32 and summed with Kahan compensation (second output),
// the weight is (γ + 1) in f32 and the result is rounded once at the end
// (cast_mode = after_weight).
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_norm_bf16_gemma
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x64xbf16>, %[[G:[^:]*]]: tensor<64xbf16>, %[[E:[^:]*]]: tensor<?x64xbf16>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<?xf32>
// CHECK: %[[ZERO_C:.*]] = linalg.fill {{.*}} -> tensor<?xf32>
// CHECK: %[[SS:.*]]:2 = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x64xbf16>) outs(%[[ZERO]], %[[ZERO_C]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:   ^bb0(%{{.*}}: bf16, %[[S:.*]]: f32, %[[C:.*]]: f32):
// CHECK:   %[[V:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK:   %[[Y:.*]] = arith.subf %[[SQ]], %[[C]] : f32
// CHECK:   %[[T:.*]] = arith.addf %[[S]], %[[Y]] : f32
// CHECK:   %[[D:.*]] = arith.subf %[[T]], %[[S]] : f32
// CHECK:   %[[NEWC:.*]] = arith.subf %[[D]], %[[Y]] : f32
// CHECK:   linalg.yield %[[T]], %[[NEWC]] : f32, f32
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[SS]]#0 : tensor<?xf32>)
// CHECK:   arith.divf
// CHECK:   arith.addf
// CHECK:   math.sqrt
// CHECK:   arith.divf
// CHECK: %[[OUT:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$COL]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[RSTD]], %[[G]] : tensor<?x64xbf16>, tensor<?xf32>, tensor<64xbf16>) outs(%[[E]] : tensor<?x64xbf16>)
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK:   arith.mulf
// CHECK:   %[[GAMMA:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[FACTOR:.*]] = arith.addf %[[GAMMA]], %{{.*}} : f32
// CHECK:   %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[FACTOR]] : f32
// CHECK:   arith.truncf %[[SCALED]] : f32 to bf16
// CHECK: return %[[OUT]]
// CHECK-NOT: norm.
func.func @rms_norm_bf16_gemma(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %e: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = norm.rms_norm ins(%x : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>) outs(%e : tensor<?x64xbf16>)
      {weight_offset = 1.0 : f32} -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// Llama's cast placement: round the normalized value, then multiply by γ in
// the element type. pRMSNorm masks elements past k = ⌈0.25 · 8⌉ = 2.
// CHECK-LABEL: func.func @rms_norm_partial_llama
// CHECK: math.ceil
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   arith.extf %{{.*}} : f16 to f32
// CHECK:   %[[IDX:.*]] = linalg.index 1 : index
// CHECK:   %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:   arith.select %[[IN]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:   %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:   arith.mulf %[[T]], %{{.*}} : f16
func.func @rms_norm_partial_llama(%x: tensor<4x8xf16>, %g: tensor<8xf16>, %e: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = norm.rms_norm ins(%x : tensor<4x8xf16>) weight(%g : tensor<8xf16>) outs(%e : tensor<4x8xf16>)
      {partial = 0.25 : f64, cast_mode = #norm.cast_mode<before_weight>} -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// LayerNorm: two passes over values shifted by the row's first element (the
// pivot map), never E[x²] − E[x]²; ε outside the root.
// CHECK-DAG: #[[$PIVOT:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @layer_norm_shifted_two_pass
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>
// CHECK: %[[SUM:.*]]:2 = linalg.generic {indexing_maps = [#{{.*}}, #[[$PIVOT]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:   %[[D:.*]] = arith.subf
// CHECK:   arith.subf %[[D]]
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]]#0 : tensor<4xf32>)
// CHECK: %[[M2:.*]]:2 = linalg.generic {indexing_maps = [#{{.*}}, #[[$PIVOT]], #{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[X]], %[[MEAN]] :
// CHECK:   arith.subf
// CHECK:   %[[C:.*]] = arith.subf
// CHECK:   arith.mulf %[[C]], %[[C]]
// CHECK: linalg.generic {{.*}} ins(%[[M2]]#0 : tensor<4xf32>)
// CHECK:   math.sqrt
// CHECK:   arith.addf
// CHECK:   arith.divf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[X]], %[[MEAN]], %{{.*}}, %{{.*}}, %{{.*}} :
func.func @layer_norm_shifted_two_pass(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.layer_norm ins(%x : tensor<4x8xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>)
      {eps_mode = #norm.eps_mode<outside_sqrt>} -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Residual add with both outputs, and the statistics results: the sum goes
// to sum_outs and is what gets normalized; mean = pivot + shifted mean.
// CHECK-LABEL: func.func @layer_norm_residual_stats
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x5xf32>, %[[R:[^:]*]]: tensor<2x3x5xf32>, %[[E:[^:]*]]: tensor<2x3x5xf32>, %[[S:[^:]*]]: tensor<2x3x5xf32>, %[[M:[^:]*]]: tensor<2xf32>, %[[RS:[^:]*]]: tensor<2xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[R]] : {{.*}}) outs(%[[S]] : tensor<2x3x5xf32>)
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[SUM]], %[[SUM]]
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}} outs(%[[RS]] : tensor<2xf32>)
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} outs(%[[M]] : tensor<2xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<2x3x5xf32>)
// CHECK: return %[[Y]], %[[SUM]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm_residual_stats(%x: tensor<2x3x5xf32>, %r: tensor<2x3x5xf32>, %e: tensor<2x3x5xf32>,
    %s: tensor<2x3x5xf32>, %m: tensor<2xf32>, %rs: tensor<2xf32>)
    -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2xf32>, tensor<2xf32>) {
  %y, %sum, %mean, %rstd = norm.layer_norm ins(%x : tensor<2x3x5xf32>) residual(%r : tensor<2x3x5xf32>)
      outs(%e : tensor<2x3x5xf32>) sum_outs(%s : tensor<2x3x5xf32>) mean_outs(%m : tensor<2xf32>)
      rstd_outs(%rs : tensor<2xf32>) {axis = 1 : i64}
      -> tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2xf32>, tensor<2xf32>
  return %y, %sum, %mean, %rstd : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// On memrefs: linalg on memrefs, temporaries allocated and freed.
// CHECK-LABEL: func.func @rms_norm_memref
// CHECK-NOT: tensor
// CHECK: %[[SUM:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[SUM]] : memref<4x8xf32>)
// CHECK: memref.dealloc %[[SUM]]
// CHECK-NOT: norm.
func.func @rms_norm_memref(%x: memref<4x8xf32>, %r: memref<4x8xf32>, %y: memref<4x8xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) residual(%r : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// norm → matmul: the norm in f32 (no rounding of the normalized value), the
// product accumulated in f32, the bias added and the result rounded once.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$RHST:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @rms_norm_matmul_transposed
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHST]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<8x20xf32>, tensor<20xbf16>)
// CHECK:   arith.addf
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: norm.
func.func @rms_norm_matmul_transposed(%x: tensor<8x32xbf16>, %g: tensor<32xbf16>, %w: tensor<20x32xbf16>,
    %b: tensor<20xbf16>, %e: tensor<8x20xbf16>) -> tensor<8x20xbf16> {
  %c = norm.rms_norm_matmul ins(%x : tensor<8x32xbf16>) weight(%g : tensor<32xbf16>) rhs(%w : tensor<20x32xbf16>)
      matmul_bias(%b : tensor<20xbf16>) outs(%e : tensor<8x20xbf16>) {transpose_rhs} -> tensor<8x20xbf16>
  return %c : tensor<8x20xbf16>
}

// -----

// matmul → norm: S = round(A·W + residual) goes to sum_outs and is
// normalized.
// CHECK-LABEL: func.func @matmul_layer_norm_residual
// CHECK-SAME: %[[S:[^:]*]]: tensor<4x6xf32>) -> 
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<4x6xf32>, tensor<4x6xf32>) outs(%[[S]] : tensor<4x6xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[SUM]]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[SUM]], %[[SUM]]
// CHECK: return %[[Y]], %[[SUM]]
func.func @matmul_layer_norm_residual(%a: tensor<4x10xf32>, %w: tensor<10x6xf32>, %r: tensor<4x6xf32>,
    %e: tensor<4x6xf32>, %s: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %y, %sum = norm.matmul_layer_norm ins(%a : tensor<4x10xf32>) rhs(%w : tensor<10x6xf32>) residual(%r : tensor<4x6xf32>)
      outs(%e : tensor<4x6xf32>) sum_outs(%s : tensor<4x6xf32>) -> tensor<4x6xf32>, tensor<4x6xf32>
  return %y, %sum : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// The pass touches nothing but norm ops: a linalg.softmax (itself an
// AggregatedOpInterface op) and other IR stay as they are.
// CHECK-LABEL: func.func @leaves_other_ops_alone
// CHECK: arith.addf
// CHECK: linalg.softmax
func.func @leaves_other_ops_alone(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = arith.addf %x, %x : tensor<4x8xf32>
  %y = linalg.softmax dimension(1) ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// norm → matmul with a residual: S = round(X + R) to bf16 is computed first
// (into sum_outs) and is what is normalized, in f32, then multiplied.
// CHECK-LABEL: func.func @residual_rms_norm_matmul
//  CHECK-SAME: (%[[X:.*]]: tensor<8x32xbf16>, %[[R:.*]]: tensor<8x32xbf16>, %{{.*}}: tensor<32x20xbf16>, %{{.*}}: tensor<8x20xbf16>, %[[SI:.*]]: tensor<8x32xbf16>)
//       CHECK: %[[XF:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8x32xbf16>)
//       CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[XF]], %[[R]] : tensor<8x32xf32>, tensor<8x32xbf16>) outs(%[[SI]] : tensor<8x32xbf16>)
//       CHECK:   arith.addf
//       CHECK:   arith.truncf {{.*}} : f32 to bf16
//       CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<8x32xbf16>) outs(%{{.*}} : tensor<8x32xf32>)
//       CHECK:   arith.extf
//   CHECK-NOT: norm.
//       CHECK: return %{{.*}}, %[[S]] : tensor<8x20xbf16>, tensor<8x32xbf16>
func.func @residual_rms_norm_matmul(%x: tensor<8x32xbf16>, %r: tensor<8x32xbf16>, %w: tensor<32x20xbf16>,
    %e: tensor<8x20xbf16>, %s: tensor<8x32xbf16>) -> (tensor<8x20xbf16>, tensor<8x32xbf16>) {
  %c, %sum = norm.rms_norm_matmul ins(%x : tensor<8x32xbf16>) residual(%r : tensor<8x32xbf16>)
      rhs(%w : tensor<32x20xbf16>) outs(%e : tensor<8x20xbf16>) sum_outs(%s : tensor<8x32xbf16>) -> tensor<8x20xbf16>, tensor<8x32xbf16>
  return %c, %sum : tensor<8x20xbf16>, tensor<8x32xbf16>
}
