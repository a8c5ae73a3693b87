// RUN: norm-opt %s --convert-norm-to-gpu --canonicalize -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu=max-split-k=1 --canonicalize -split-input-file | FileCheck %s --check-prefix=NOSPLIT
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_80" --canonicalize -split-input-file | FileCheck %s --check-prefix=SM80

// Split-K for outputs with few blocks. Decode, RMSNorm → matmul 16 × 4096 ×
// 4096 bf16: 32 blocks of 64 × 128, fewer than two per SM, so the host
// takes min(⌈2·132 / 32⌉, 128 K tiles / 8, 16) = 9 slices (sm_80:
// ⌈2·108 / 32⌉ = 7): f32 temporaries for the partial accumulators [9][16][4096]
// and the row sums [9][16][2] (device memory, the async form), the GEMM
// with gridDim.z = 9 whose slices run their K tiles and store partials
// (row sums from the first column of blocks) instead of C, then one thread
// per element of C sums the slices, computes r and writes C; the
// temporaries are freed. The guarded-load kernel (misaligned buffers) is
// not split. With max-split-k=1 the cp.async kernel writes C itself.
// CHECK-LABEL: func.func @decode_rms
// CHECK-DAG:     %[[SPLITS:.*]] = arith.constant 9 : index
// CHECK:         scf.if
// CHECK:           %[[ACC:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SPLITS]], %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// CHECK:           %[[ROWS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SPLITS]], %{{.*}}) : memref<?x?x2xf32>
// CHECK:           gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %[[SPLITS]])
// CHECK:             nvgpu.device_async_copy
// CHECK:             scf.for
// CHECK:               nvgpu.mma.sync
// CHECK:             gpu.shuffle  xor
// CHECK:             memref.store %{{.*}}, %[[ROWS]][%[[Z]], %{{.*}}, %c0{{.*}}] : memref<?x?x2xf32>
// CHECK:             memref.store %{{.*}}, %[[ACC]][%[[Z]], %{{.*}}, %{{.*}}] : memref<?x?x?xf32>
// CHECK-NOT:         memref.store %{{.*}} : memref<16x4096xbf16>
// CHECK:             gpu.terminator
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[SPLITS]]
// CHECK:               memref.load %[[ACC]]
// CHECK:               memref.load %[[ROWS]]
// CHECK:             math.sqrt
// CHECK:             arith.truncf %{{.*}} : f32 to bf16
// CHECK:             memref.store %{{.*}} : memref<16x4096xbf16>
// CHECK:           gpu.dealloc async {{.*}} %[[ACC]]
// CHECK:           gpu.dealloc async {{.*}} %[[ROWS]]
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:             memref.store %{{.*}} : memref<16x4096xbf16>
// NOSPLIT-LABEL: func.func @decode_rms
// NOSPLIT-NOT:   gpu.alloc
// NOSPLIT-COUNT-2: gpu.launch
// NOSPLIT-NOT:   gpu.launch
// SM80-LABEL:    func.func @decode_rms
// SM80:          arith.constant 7 : index
func.func @decode_rms(%x: memref<16x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<16x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<16x4096xbf16>)
  return
}

// -----

// LayerNorm also sums the columns' c = Σγ'W and Σβ·W per slice (from the
// first row of blocks), into a third temporary; every slice first stages
// K tile 0 for the common pivot, then its own first tile.
// CHECK-LABEL: func.func @decode_ln
// CHECK:           gpu.alloc async {{.*}} : memref<?x?x?xf32>
// CHECK:           gpu.alloc async {{.*}} : memref<?x?x2xf32>
// CHECK:           %[[COLS:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?x?x2xf32>
// CHECK:           gpu.launch
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:             gpu.barrier
// CHECK:             gpu.shuffle  xor
// CHECK:             gpu.barrier
// CHECK:             nvgpu.device_async_copy
// CHECK:             scf.for
// CHECK:             memref.store %{{.*}}, %[[COLS]]
// CHECK:           gpu.launch
// CHECK:             memref.load %[[COLS]]
// CHECK-COUNT-3:   gpu.dealloc async
// NOSPLIT-LABEL: func.func @decode_ln
func.func @decode_ln(%x: memref<?x4096xf16>, %g: memref<4096xf16>, %b: memref<4096xf16>,
                     %w: memref<1024x4096xf16>, %c: memref<?x1024xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x4096xf16>) weight(%g : memref<4096xf16>) bias(%b : memref<4096xf16>)
    rhs(%w : memref<1024x4096xf16>) outs(%c : memref<?x1024xf16>) {transpose_rhs}
  return
}

// -----

// A large output (4096 × 4096: 2048 blocks) is never split: the slice
// count folds to 1 and only the unsplit kernels remain.
// CHECK-LABEL: func.func @prefill_rms
// CHECK-NOT:     gpu.alloc
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:     gpu.launch
func.func @prefill_rms(%x: memref<4096x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<4096x4096xbf16>)
  return
}
