// RUN: norm-opt %s --norm-lower-bf16-mma-sync -split-input-file | FileCheck %s

// A bf16 m16n8k16 nvgpu.mma.sync becomes nvvm.mma.sync on i32 registers
// (two bf16 values each) and four f32 accumulators.
// CHECK-LABEL: func.func @bf16
// CHECK-SAME:    %[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>
// CHECK:         %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK:         %[[A0I:.*]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK:         vector.extract %[[A0I]][0] : i32 from vector<1xi32>
// CHECK:         %[[D:.*]] = nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}]
// CHECK-SAME:      layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         llvm.extractvalue %[[D]][3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         %[[R:.*]] = vector.insert %{{.*}}, %{{.*}} [1, 1] : f32 into vector<2x2xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     nvgpu.mma.sync
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// f16 is left for convert-nvgpu-to-nvvm, which handles it.
// CHECK-LABEL: func.func @f16
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
