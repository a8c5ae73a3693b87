// RUN: norm-opt %s --convert-norm-to-gpu=max-split-k=1 -split-input-file | FileCheck %s

// The GPU GEMMs of the fused ops with mixed element types (docs/design.md,
// "Mixed element types").

// An f32 γ with bf16 data (Gemma 3) is staged in shared memory at f32: two
// 16-byte cp.async copies of 4 f32 per chunk of 8 bf16 columns, read back
// as 8 f32 lanes, never rounded to bf16; the MMAs stay bf16.
// CHECK-LABEL: func.func @gemma_weight
// CHECK:         gpu.launch
// CHECK:           %[[G:.*]] = memref.view %{{.*}} : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy %{{.*}}, %[[G]][%{{.*}}, %{{.*}}], 4, %{{.*}} {bypassL1} : memref<128xf32> to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy %{{.*}}, %[[G]][%{{.*}}, %{{.*}}], 4, %{{.*}} {bypassL1} : memref<128xf32> to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[GV:.*]] = vector.load %[[G]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x32xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK:           %[[G0:.*]] = vector.extract %[[GV]][0] : f32 from vector<8xf32>
// CHECK-NOT:       arith.truncf %[[G0]]
// CHECK:           arith.addf %[[G0]], %{{.*}} : f32
// CHECK:           nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @gemma_weight(%x: memref<?x128xbf16>, %g: memref<128xf32>, %w: memref<64x128xbf16>, %c: memref<?x64xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x128xbf16>) weight(%g : memref<128xf32>) rhs(%w : memref<64x128xbf16>) outs(%c : memref<?x64xbf16>) {weight_offset = 1.0 : f32, transpose_rhs}
  return
}

// -----

// f16 LayerNorm with f32 γ/β into an f32 C: β is staged at f32 too, and C
// is stored as pairs of f32 (8 bytes).
// CHECK-LABEL: func.func @layer_norm_f32_output
// CHECK:         gpu.launch
// CHECK-DAG:       memref.view %{{.*}} : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG:       memref.view %{{.*}} : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:           vector.store %{{.*}} {alignment = 8 : i64} : memref<?x64xf32>, vector<2xf32>
func.func @layer_norm_f32_output(%x: memref<?x128xf16>, %g: memref<128xf32>, %b: memref<128xf32>, %w: memref<128x64xf16>, %mb: memref<64xf32>, %c: memref<?x64xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x128xf16>) weight(%g : memref<128xf32>) bias(%b : memref<128xf32>) rhs(%w : memref<128x64xf16>) matmul_bias(%mb : memref<64xf32>) outs(%c : memref<?x64xf32>)
  return
}

// -----

// bf16 A and W accumulated into f32: S (with the f32 bias and residual) is
// stored at f32 without rounding, then the row kernel normalizes it.
// CHECK-LABEL: func.func @f32_sum
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:       arith.truncf
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} : memref<?x128xf32>, vector<2xf32>
// CHECK-NOT:       arith.truncf
// CHECK:           vector.store %{{.*}} {alignment = 8 : i64} : memref<?x128xf32>, vector<2xf32>
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} : memref<?x128xf32>, vector<4xf32>
// CHECK:           vector.load %{{.*}} : memref<128xf32>, vector<4xf32>
func.func @f32_sum(%a: memref<?x64xbf16>, %w: memref<64x128xbf16>, %mb: memref<128xf32>, %h: memref<?x128xf32>, %g: memref<128xf32>, %y: memref<?x128xf32>, %s: memref<?x128xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x64xbf16>) rhs(%w : memref<64x128xbf16>) matmul_bias(%mb : memref<128xf32>) residual(%h : memref<?x128xf32>) weight(%g : memref<128xf32>) outs(%y : memref<?x128xf32>) sum_outs(%s : memref<?x128xf32>)
  return
}
