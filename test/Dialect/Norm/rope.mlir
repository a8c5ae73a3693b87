// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --mlir-print-op-generic | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s
// RUN: norm-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// The rotary-embedding epilogue of the standalone norms (QK-norm → RoPE):
// `rope(cos, sin)` operands broadcast over their size-1 dims, `rope_mode`,
// and the decomposition, the reference semantics: the normalized value in
// acc_type into a temporary, then one generic that reads it twice (at d and
// at its partner), rotates and rounds once.

// ROUNDTRIP-LABEL: func.func @rotate_half
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<8x4x32xf32>) weight(%{{.*}} : tensor<32xf32>) rope(%{{.*}}, %{{.*}} : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%{{.*}} : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$HALF:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, (d2 + 16) mod 32)>
// CHECK-DAG: #[[$HEADS:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @rotate_half
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x4x32xf32>, %[[G:[^:]*]]: tensor<32xf32>, %[[C:[^:]*]]: tensor<8x1x32xf32>, %[[S:[^:]*]]: tensor<8x1x32xf32>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}}, %[[G]] : {{.*}}) outs(%{{.*}} : tensor<8x4x32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$HALF]], #[[$HEADS]], #[[$HEADS]], #[[$ID]]], {{.*}}} ins(%[[N]], %[[N]], %[[C]], %[[S]] : {{.*}})
// CHECK:   %[[D:.*]] = linalg.index 2 : index
// CHECK:   %[[FIRST:.*]] = arith.cmpi ult, %[[D]], %c16
// CHECK:   %[[PS:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:   %[[NEG:.*]] = arith.negf %[[PS]]
// CHECK:   %[[T:.*]] = arith.select %[[FIRST]], %[[NEG]], %[[PS]]
// CHECK:   %[[VC:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:   %[[R:.*]] = arith.addf %[[VC]], %[[T]]
// CHECK:   linalg.yield %[[R]]
// CHECK-NOT: norm.rms_norm
// BUF-LABEL: func.func @rotate_half
// BUF: norm.rms_norm ins(%{{.*}} : memref<8x4x32xf32{{.*}}>) weight(%{{.*}} : memref<32xf32{{.*}}>) rope(%{{.*}}, %{{.*}} : memref<8x1x32xf32{{.*}}>, memref<8x1x32xf32{{.*}}>) outs(%{{.*}} : memref<8x4x32xf32>)
func.func @rotate_half(%x: tensor<8x4x32xf32>, %g: tensor<32xf32>, %c: tensor<8x1x32xf32>, %s: tensor<8x1x32xf32>) -> tensor<8x4x32xf32> {
  %e = tensor.empty() : tensor<8x4x32xf32>
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>)
         rope(%c, %s : tensor<8x1x32xf32>, tensor<8x1x32xf32>)
         outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

// -----

// bf16 x with f32 angles: the normalized value and the rotation in f32, one
// truncf at the end; interleaved pairs (2i, 2i+1) through d + 1 − 2·(d mod 2).
// ROUNDTRIP-LABEL: func.func @interleaved_layer_norm
// ROUNDTRIP: norm.layer_norm ins(%{{.*}} : tensor<2x8x64xbf16>) weight(%{{.*}} : tensor<64xbf16>) bias(%{{.*}} : tensor<64xbf16>) rope(%{{.*}}, %{{.*}} : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%{{.*}} : tensor<2x8x64xbf16>) {rope_mode = #norm.rope_mode<interleaved>} -> tensor<2x8x64xbf16>
// CHECK-DAG: #[[$PAIR:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 - (d2 mod 2) * 2 + 1)>
// CHECK-DAG: #[[$POS:.*]] = affine_map<(d0, d1, d2) -> (0, d1, d2)>
// CHECK-LABEL: func.func @interleaved_layer_norm
// CHECK: %[[N:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x64xf32>)
// CHECK-NOT: arith.truncf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$PAIR]], #[[$POS]], #[[$POS]], #{{.*}}], {{.*}}} ins(%[[N]], %[[N]], %{{.*}}, %{{.*}} : tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%{{.*}} : tensor<2x8x64xbf16>)
// CHECK:   arith.remui %{{.*}}, %c2
// CHECK:   arith.cmpi eq
// CHECK:   %[[R:.*]] = arith.addf
// CHECK:   %[[Y:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK:   linalg.yield %[[Y]]
func.func @interleaved_layer_norm(%x: tensor<2x8x64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>, %c: tensor<1x8x64xf32>, %s: tensor<1x8x64xf32>) -> tensor<2x8x64xbf16> {
  %e = tensor.empty() : tensor<2x8x64xbf16>
  %y = norm.layer_norm ins(%x : tensor<2x8x64xbf16>) weight(%g : tensor<64xbf16>) bias(%b : tensor<64xbf16>)
         rope(%c, %s : tensor<1x8x64xf32>, tensor<1x8x64xf32>)
         outs(%e : tensor<2x8x64xbf16>) {rope_mode = #norm.rope_mode<interleaved>} -> tensor<2x8x64xbf16>
  return %y : tensor<2x8x64xbf16>
}

// -----

// Memrefs, dynamic rows, a residual: the rotation writes `outs`.
// ROUNDTRIP-LABEL: func.func @memref_residual
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : memref<?x2x16xf32>) residual(%{{.*}} : memref<?x2x16xf32>) rope(%{{.*}}, %{{.*}} : memref<?x1x16xf32>, memref<?x1x16xf32>) outs(%{{.*}} : memref<?x2x16xf32>) sum_outs(%{{.*}} : memref<?x2x16xf32>)
// CHECK-LABEL: func.func @memref_residual
// CHECK-SAME: memref<?x1x16xf32>, %[[Y:[^:]*]]: memref<?x2x16xf32>, %{{[^:]*}}: memref<?x2x16xf32>)
// CHECK: memref.alloc(%{{.*}}) : memref<?x2x16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : memref<?x2x16xf32>)
// CHECK: memref.dealloc
func.func @memref_residual(%x: memref<?x2x16xf32>, %r: memref<?x2x16xf32>, %c: memref<?x1x16xf32>, %s: memref<?x1x16xf32>, %y: memref<?x2x16xf32>, %sum: memref<?x2x16xf32>) {
  norm.rms_norm ins(%x : memref<?x2x16xf32>) residual(%r : memref<?x2x16xf32>)
    rope(%c, %s : memref<?x1x16xf32>, memref<?x1x16xf32>)
    outs(%y : memref<?x2x16xf32>) sum_outs(%sum : memref<?x2x16xf32>)
  return
}

// -----

// A dynamic sequence length (HF's batch form at B = 1 traced with a
// symbolic T): the angles' `?` is the input's T, read by its index like any
// dim that is not a static 1; bf16 steps.
// ROUNDTRIP-LABEL: func.func @dynamic_seq
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<1x?x4x64xbf16>) rope(%{{.*}}, %{{.*}} : tensor<1x?x1x64xbf16>, tensor<1x?x1x64xbf16>) outs(%{{.*}} : tensor<1x?x4x64xbf16>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<1x?x4x64xbf16>
// CHECK-DAG: #[[$SEQ:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, d3)>
// CHECK-LABEL: func.func @dynamic_seq
// CHECK-SAME: %[[C:[^:]*]]: tensor<1x?x1x64xbf16>, %[[S:[^:]*]]: tensor<1x?x1x64xbf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$SEQ]], #[[$SEQ]], #{{.*}}], {{.*}}} ins(%{{.*}}, %{{.*}}, %[[C]], %[[S]] : {{.*}})
// CHECK-NOT: norm.rms_norm
func.func @dynamic_seq(%x: tensor<1x?x4x64xbf16>, %c: tensor<1x?x1x64xbf16>, %s: tensor<1x?x1x64xbf16>, %e: tensor<1x?x4x64xbf16>) -> tensor<1x?x4x64xbf16> {
  %y = norm.rms_norm ins(%x : tensor<1x?x4x64xbf16>)
         rope(%c, %s : tensor<1x?x1x64xbf16>, tensor<1x?x1x64xbf16>)
         outs(%e : tensor<1x?x4x64xbf16>) {rope_rounding = #norm.rope_rounding<each_step>} -> tensor<1x?x4x64xbf16>
  return %y : tensor<1x?x4x64xbf16>
}

// -----

// Dynamic angles over a static input: their sizes meet at run time.
// ROUNDTRIP-LABEL: func.func @dynamic_angles_static_input
// ROUNDTRIP: rope(%{{.*}}, %{{.*}} : tensor<?x1x32xf32>, tensor<?x1x32xf32>)
func.func @dynamic_angles_static_input(%x: tensor<8x4x32xf32>, %c: tensor<?x1x32xf32>, %s: tensor<?x1x32xf32>) -> tensor<8x4x32xf32> {
  %e = tensor.empty() : tensor<8x4x32xf32>
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>)
         rope(%c, %s : tensor<?x1x32xf32>, tensor<?x1x32xf32>)
         outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}
