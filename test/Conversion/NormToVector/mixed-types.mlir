// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s

// The row kernel with mixed element types (docs/design.md, "Mixed element
// types"): γ and β are loaded as vectors of their own type (f32) straight
// into the f32 lanes, never rounded to x's type; y is stored in its own type.
// Each check follows the normalize sweep's body (after its prefetch).

// Gemma: bf16 x, f32 γ, 1 + γ, one rounding to bf16 at the end.
// CHECK-LABEL: func.func @gemma
//  CHECK-SAME: (%[[X:.*]]: memref<?x?xbf16>, %[[G:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?x?xbf16>)
//   CHECK-DAG: %[[GV:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [%{{.*}}], strides: [1]
//   CHECK-DAG: %[[YV:.*]] = memref.reinterpret_cast %[[Y]]
//       CHECK: memref.prefetch
//  CHECK-NEXT: %[[XL:.*]] = vector.load %{{.*}} : memref<?x?xbf16>, vector<16xbf16>
//  CHECK-NEXT: %[[XA:.*]] = arith.extf %[[XL]] : vector<16xbf16> to vector<16xf32>
//  CHECK-NEXT: %[[NV:.*]] = arith.mulf %[[XA]], %{{.*}} : vector<16xf32>
//  CHECK-NEXT: %[[GL:.*]] = vector.load %[[GV]][%{{.*}}] : memref<?xf32>, vector<16xf32>
//       CHECK: %[[F:.*]] = arith.addf %[[GL]], %{{.*}} : vector<16xf32>
//  CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NV]], %[[F]] : vector<16xf32>
//  CHECK-NEXT: %[[T:.*]] = arith.truncf %[[P]] : vector<16xf32> to vector<16xbf16>
//  CHECK-NEXT: vector.store %[[T]], %[[YV]]
func.func @gemma(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xbf16>) {weight_offset = 1.0 : f32}
  return
}

// -----

// Llama with an f32 weight: the normalized value rounds to bf16 (truncf and
// extf), the f32 γ multiplies it in f32 and y is stored as f32.
// CHECK-LABEL: func.func @llama
//       CHECK: memref.prefetch
//  CHECK-NEXT: vector.load %{{.*}} : memref<?x?xbf16>, vector<16xbf16>
//  CHECK-NEXT: arith.extf
//  CHECK-NEXT: %[[NV:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
//  CHECK-NEXT: %[[NR:.*]] = arith.truncf %[[NV]] : vector<16xf32> to vector<16xbf16>
//  CHECK-NEXT: %[[NW:.*]] = arith.extf %[[NR]] : vector<16xbf16> to vector<16xf32>
//  CHECK-NEXT: %[[GL:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
//  CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NW]], %[[GL]] : vector<16xf32>
//  CHECK-NEXT: vector.store %[[P]], %{{.*}} : memref<?x?xf32>, vector<16xf32>
func.func @llama(%x: memref<?x?xbf16>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}

// -----

// LayerNorm: f16 x, f32 γ and β, f32 y: f32 all the way after the loads.
// CHECK-LABEL: func.func @layer_norm
//       CHECK: memref.prefetch
//  CHECK-NEXT: vector.load %{{.*}} : memref<?x?xf16>, vector<16xf16>
//  CHECK-NEXT: arith.extf
//       CHECK: %[[N:.*]] = vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
//  CHECK-NEXT: %[[GL:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
//  CHECK-NEXT: %[[BL:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
//  CHECK-NEXT: %[[S:.*]] = vector.fma %[[N]], %[[GL]], %[[BL]] : vector<16xf32>
//  CHECK-NEXT: vector.store %[[S]], %{{.*}} : memref<?x?xf32>, vector<16xf32>
func.func @layer_norm(%x: memref<?x?xf16>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf32>) bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>)
  return
}

// -----

// The same LayerNorm in before_weight mode: the normalized value rounds to
// f16, and γ·v + β is two f32 steps, each rounded (γ's type), not the FMA
// of the default mode.
// CHECK-LABEL: func.func @layer_norm_before_weight
//       CHECK: memref.prefetch
//  CHECK-NEXT: vector.load %{{.*}} : memref<?x?xf16>, vector<16xf16>
//  CHECK-NEXT: arith.extf
//       CHECK: %[[N:.*]] = vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
//  CHECK-NEXT: %[[NR:.*]] = arith.truncf %[[N]] : vector<16xf32> to vector<16xf16>
//  CHECK-NEXT: %[[NW:.*]] = arith.extf %[[NR]] : vector<16xf16> to vector<16xf32>
//  CHECK-NEXT: %[[GL:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
//  CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NW]], %[[GL]] : vector<16xf32>
//  CHECK-NEXT: %[[BL:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
//  CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[BL]] : vector<16xf32>
//  CHECK-NEXT: vector.store %[[S]], %{{.*}} : memref<?x?xf32>, vector<16xf32>
func.func @layer_norm_before_weight(%x: memref<?x?xf16>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) weight(%g : memref<?xf32>) bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}
