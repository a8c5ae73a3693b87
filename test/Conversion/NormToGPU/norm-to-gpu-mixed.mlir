// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s

// The GPU row kernel with mixed element types (docs/design.md, "Mixed
// element types"): x is read as 16-byte vectors of 8 bf16, γ as vectors of
// 8 f32 (32 bytes, their own alignment), widened to f32 lanes, never rounded
// to bf16; y is stored in its own type.

// Gemma: bf16 x, f32 γ, 1 + γ, one rounding to bf16 at the end.
// CHECK-LABEL: func.func @gemma
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<?x4096xbf16>, vector<8xbf16>
// CHECK:           %[[G:.*]] = vector.load %{{.*}} {alignment = 32 : i64} : memref<4096xf32>, vector<8xf32>
// CHECK:           %[[G0:.*]] = vector.extract %[[G]][0] : f32 from vector<8xf32>
// CHECK-NOT:       arith.truncf %[[G0]]
// CHECK:           arith.addf %[[G0]], %{{.*}} : f32
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<?x4096xbf16>, vector<8xbf16>
func.func @gemma(%x: memref<?x4096xbf16>, %g: memref<4096xf32>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xf32>)
    outs(%y : memref<?x4096xbf16>) {weight_offset = 1.0 : f32}
  return
}

// -----

// Llama with an f32 weight: x · rstd rounds to bf16 and back, the f32 γ
// multiplies it in f32, y is f32.
// CHECK-LABEL: func.func @llama
// CHECK:         gpu.launch
// CHECK:           %[[G:.*]] = vector.load %{{.*}} {alignment = 32 : i64} : memref<1024xf32>, vector<8xf32>
// CHECK:           %[[N:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[NR:.*]] = arith.truncf %[[N]] : f32 to bf16
// CHECK-NEXT:      %[[NW:.*]] = arith.extf %[[NR]] : bf16 to f32
// CHECK-NEXT:      arith.mulf %[[NW]], %{{.*}} : f32
// CHECK:           vector.store %{{.*}} {alignment = 32 : i64} : memref<?x1024xf32>, vector<8xf32>
func.func @llama(%x: memref<?x1024xbf16>, %g: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.rms_norm ins(%x : memref<?x1024xbf16>) weight(%g : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}
