// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --mlir-print-op-generic | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s
// RUN: norm-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON

// Quantized outputs (DESIGN.md §8): the static scale operand, the dynamic
// scales result (per token, per group), on tensors and memrefs; and the
// decomposition, the reference semantics: y in the accumulation type, then
// q = sat(rne(y · 1/s)).

// ROUNDTRIP-LABEL: func.func @static_f8e4m3fn
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<4x64xbf16>) weight(%{{.*}} : tensor<64xbf16>) scale(%{{.*}} : f32) outs(%{{.*}} : tensor<4x64xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
// CHECK-LABEL: func.func @static_f8e4m3fn
// CHECK-SAME: %[[S:[^:]*]]: f32
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x64xf8E4M3FN>)
// CHECK-NOT: arith.truncf
// CHECK: %[[T:.*]] = arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK: %[[MAX:.*]] = arith.constant 4.480000e+02 : f32
// CHECK: arith.minimumf %[[T]], %[[MAX]] : f32
// CHECK: arith.maximumf
// CHECK: math.roundeven
// CHECK: %[[BITS:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i8
// CHECK: %[[Q:.*]] = arith.bitcast %[[BITS]] : i8 to f8E4M3FN
// CHECK: linalg.yield %[[Q]] : f8E4M3FN
func.func @static_f8e4m3fn(%x: tensor<4x64xbf16>, %g: tensor<64xbf16>, %s: f32, %e: tensor<4x64xf8E4M3FN>) -> tensor<4x64xf8E4M3FN> {
  %q = norm.rms_norm ins(%x : tensor<4x64xbf16>) weight(%g : tensor<64xbf16>) scale(%s : f32) outs(%e : tensor<4x64xf8E4M3FN>) -> tensor<4x64xf8E4M3FN>
  return %q : tensor<4x64xf8E4M3FN>
}

// -----

// A 0-d scale and an i8 result: round, clamp to [-128, 127], convert.
// ROUNDTRIP-LABEL: func.func @static_i8_0d
// ROUNDTRIP: scale(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<4x64xi8>)
// CHECK-LABEL: func.func @static_i8_0d
// CHECK: %[[S:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: arith.divf %{{.*}}, %[[S]] : f32
// CHECK: linalg.generic
// CHECK: %[[R:.*]] = math.roundeven %{{.*}} : f32
// CHECK: %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK: %[[A:.*]] = arith.maxnumf %[[R]], %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[B:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK: %[[Q:.*]] = arith.fptosi %[[B]] : f32 to i8
// CHECK: linalg.yield %[[Q]] : i8
func.func @static_i8_0d(%x: tensor<4x64xf32>, %s: tensor<f32>, %e: tensor<4x64xi8>) -> tensor<4x64xi8> {
  %q = norm.layer_norm ins(%x : tensor<4x64xf32>) scale(%s : tensor<f32>) outs(%e : tensor<4x64xi8>) -> tensor<4x64xi8>
  return %q : tensor<4x64xi8>
}

// -----

// Per-token dynamic scales with a residual: y to an f32 temporary, amax per
// row into the scales, s = max(amax / 57344, s_min), then the quantizing
// sweep. The sum keeps the input's type. An unused `scale_outs` is not
// dropped by canonicalization (the quantized values need their scales).
// ROUNDTRIP-LABEL: func.func @per_token_residual
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<8x32xf32>) residual(%{{.*}} : tensor<8x32xf32>) outs(%{{.*}} : tensor<8x32xf8E5M2>) sum_outs(%{{.*}} : tensor<8x32xf32>) scale_outs(%{{.*}} : tensor<8xf32>) {scale_min = 9.99999997E-7 : f32} -> tensor<8x32xf8E5M2>, tensor<8x32xf32>, tensor<8xf32>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @per_token_residual
// CHECK-SAME: %[[SC:[^:]*]]: tensor<8xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x32xf32>)
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[SC]] : tensor<8xf32>)
// CHECK: %[[AMAX:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[Y]] : tensor<8x32xf32>) outs(%[[FILL]] : tensor<8xf32>)
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: %[[SCALES:.*]] = linalg.generic {{.*}} outs(%[[AMAX]] : tensor<8xf32>)
// CHECK: arith.constant 5.734400e+04 : f32
// CHECK: arith.divf
// CHECK: arith.constant 9.99999997E-7 : f32
// CHECK: arith.maximumf
// CHECK: %[[Q:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], {{.*}} ins(%[[Y]], %[[SCALES]] : tensor<8x32xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x32xf8E5M2>)
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK: return %[[Q]], %{{.*}} :
// CANON-LABEL: func.func @per_token_residual
// CANON: scale_outs(%{{.*}} : tensor<8xf32>)
func.func @per_token_residual(%x: tensor<8x32xf32>, %r: tensor<8x32xf32>, %e: tensor<8x32xf8E5M2>, %es: tensor<8x32xf32>, %sc: tensor<8xf32>) -> (tensor<8x32xf8E5M2>, tensor<8x32xf32>) {
  %q, %sum, %scales = norm.rms_norm ins(%x : tensor<8x32xf32>) residual(%r : tensor<8x32xf32>) outs(%e : tensor<8x32xf8E5M2>) sum_outs(%es : tensor<8x32xf32>) scale_outs(%sc : tensor<8xf32>) {scale_min = 1.0e-6 : f32} -> tensor<8x32xf8E5M2>, tensor<8x32xf32>, tensor<8xf32>
  return %q, %sum : tensor<8x32xf8E5M2>, tensor<8x32xf32>
}

// -----

// Per-group scales over two normalized dims (2 × 64 = 128 elements, groups
// of 32): a group is ⌊flattened index / 32⌋. Memrefs.
// ROUNDTRIP-LABEL: func.func @per_group_memref
// ROUNDTRIP: norm.layer_norm ins(%{{.*}} : memref<4x2x64xf32>) outs(%{{.*}} : memref<4x2x64xi8>) scale_outs(%{{.*}} : memref<4x4xf32>) {axis = 1 : i64, group_size = 32 : i64}
// (d1 · 64 + d2) floordiv 32, simplified:
// CHECK-DAG: #[[$GROUP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 * 2 + d2 floordiv 32)>
// CHECK-LABEL: func.func @per_group_memref
// CHECK-SAME: %[[Q:[^:]*]]: memref<4x2x64xi8>, %[[SC:[^:]*]]: memref<4x4xf32>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<4x2x64xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SC]] : memref<4x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$GROUP]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[Y]] : memref<4x2x64xf32>) outs(%[[SC]] : memref<4x4xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[SC]] : memref<4x4xf32>)
// CHECK: arith.constant 1.270000e+02 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$GROUP]], #{{.*}}], {{.*}} ins(%[[Y]], %[[SC]] : memref<4x2x64xf32>, memref<4x4xf32>) outs(%[[Q]] : memref<4x2x64xi8>)
// CHECK: memref.dealloc %[[Y]]
func.func @per_group_memref(%x: memref<4x2x64xf32>, %q: memref<4x2x64xi8>, %sc: memref<4x4xf32>) {
  norm.layer_norm ins(%x : memref<4x2x64xf32>) outs(%q : memref<4x2x64xi8>) scale_outs(%sc : memref<4x4xf32>) {axis = 1 : i64, group_size = 32 : i64}
  return
}

// -----

// A static 0-d memref scale on memrefs.
// ROUNDTRIP-LABEL: func.func @static_memref
// ROUNDTRIP: scale(%{{.*}} : memref<f32>) outs(%{{.*}} : memref<?x128xf8E4M3FN>)
// CHECK-LABEL: func.func @static_memref
// CHECK: memref.load %{{.*}}[] : memref<f32>
func.func @static_memref(%x: memref<?x128xf16>, %s: memref<f32>, %q: memref<?x128xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<?x128xf16>) scale(%s : memref<f32>) outs(%q : memref<?x128xf8E4M3FN>)
  return
}
