// RUN: norm-opt %s --convert-norm-to-gpu=max-split-k=1 | FileCheck %s

// Per-head matmul → RMSNorm (QK-norm, head_dim = 128, N = 8·128, bf16, W
// as N×K): the GEMM's epilogue writes S = A·W rounded to bf16 into a device
// temporary, as for whole rows; then the row kernel normalizes S and Y
// viewed as M·8 rows of 128, one head a row, with γ of shape [128]. (The
// GPU has no epilogue statistics yet for either form: the row kernel's
// statistics pass re-reads S, docs/design.md.)
// CHECK-LABEL: func.func @qk_norm
// CHECK-SAME:    %{{.*}}: memref<?x512xbf16>, %{{.*}}: memref<1024x512xbf16>, %[[G:.*]]: memref<128xbf16>, %[[Y:.*]]: memref<?x1024xbf16>)
// CHECK:         %[[TMP:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?x1024xbf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           vector.store %{{.*}}, %[[TMP]]
// CHECK:         %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%{{.*}}, 1024]
// CHECK:         %[[HR:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK:         %[[SH:.*]] = memref.reinterpret_cast %[[TMP]] to offset: [0], sizes: [%[[HR]], 128], strides: [128, 1] : memref<?x1024xbf16> to memref<?x128xbf16>
// CHECK:         %[[YH:.*]] = memref.reinterpret_cast %[[YV]] to offset: [0], sizes: [%{{.*}}, 128], strides: [128, 1] : memref<?x1024xbf16> to memref<?x128xbf16>
// CHECK:         memref.reinterpret_cast %[[G]] to offset: [0], sizes: [128]
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.mma.sync
// CHECK:           gpu.shuffle
// CHECK:           math.sqrt
// CHECK:         gpu.dealloc async [%{{.*}}] %[[TMP]]
// CHECK-NOT:     norm.
func.func @qk_norm(%a: memref<?x512xbf16>, %w: memref<1024x512xbf16>, %g: memref<128xbf16>, %y: memref<?x1024xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x512xbf16>) rhs(%w : memref<1024x512xbf16>)
    weight(%g : memref<128xbf16>) outs(%y : memref<?x1024xbf16>) {head_dim = 128 : i64, transpose_rhs}
  return
}
