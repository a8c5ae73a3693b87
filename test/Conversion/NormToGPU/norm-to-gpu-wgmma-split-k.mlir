// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a" --canonicalize -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90" --canonicalize -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_80" --canonicalize -split-input-file | FileCheck %s --check-prefix=SM80

// Split-K on the sm_90a warpgroup-MMA kernel. Decode, RMSNorm → matmul
// 16 × 4096 × 4096 bf16: 32 blocks of 64 × 128 and 64 K tiles of 64, so
// min(⌈2·132 / 32⌉, 64 / 8, 16) = 8 slices of 8 tiles (gridDim.z); the
// slices run the pipelined wgmma kernel (128 consumer threads and the
// producer warp) over their tiles, the first MMA with scale-d 0, and store
// the partials in the mma.sync slices' layout (row sums [8][16][2] from the
// first column of blocks: the thread's Σx² and its pair's; accumulators as
// column pairs [8][16][4096]); the reduction kernel and the frees follow.
// CHECK-LABEL: func.func @decode_rms
// CHECK-DAG:     %[[SPLITS:.*]] = arith.constant 8 : index
// CHECK:         scf.if
// CHECK:           %[[ACC:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SPLITS]], %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// CHECK:           %[[ROWS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SPLITS]], %{{.*}}) : memref<?x?x2xf32>
// CHECK:           gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %[[SPLITS]]) threads({{.*}}) in (%{{.*}} = %c160{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK:             nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
// CHECK:             nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK:             scf.for
// CHECK:               nvvm.wgmma.mma_async
// CHECK:             gpu.shuffle  xor
// CHECK:             memref.store %{{.*}}, %[[ROWS]][%[[Z]], %{{.*}}, %c0{{.*}}] : memref<?x?x2xf32>
// CHECK:             memref.store %{{.*}}, %[[ROWS]][%[[Z]], %{{.*}}, %c1{{.*}}] : memref<?x?x2xf32>
// CHECK:             vector.store %{{.*}}, %[[ACC]][%[[Z]], %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<?x?x?xf32>, vector<2xf32>
// CHECK-NOT:         memref<16x4096xbf16>
// CHECK:             gpu.terminator
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[SPLITS]]
// CHECK:               memref.load %[[ACC]]
// CHECK:               memref.load %[[ROWS]]
// CHECK:             math.sqrt
// CHECK:             memref.store %{{.*}} : memref<16x4096xbf16>
// CHECK:           gpu.dealloc async {{.*}} %[[ACC]]
// CHECK:           gpu.dealloc async {{.*}} %[[ROWS]]
// CHECK:         } else {
// The guarded-load fallback (misaligned buffers) is not split.
// CHECK:           gpu.launch
// CHECK:             nvgpu.mma.sync
// Without "a" (no wgmma in sm_90's PTX) and at sm_80 the slices are the
// mma.sync kernel's, over its K tiles of 32 (sm_90: min(9, 128 / 8) = 9
// slices; sm_80, 108 SMs: 7).
// SM90-LABEL: func.func @decode_rms
// SM90:         %[[SPLITS:.*]] = arith.constant 9 : index
// SM90:         gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %[[SPLITS]])
// SM90-NOT:       nvvm.wgmma
// SM90:           nvgpu.mma.sync
// SM90:         gpu.launch
// SM90:           scf.for %{{.*}} = %{{.*}} to %[[SPLITS]]
// SM80-LABEL: func.func @decode_rms
// SM80:         %[[SPLITS:.*]] = arith.constant 7 : index
// SM80:         gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %[[SPLITS]])
// SM80-NOT:       nvvm.wgmma
// SM80:           nvgpu.mma.sync
func.func @decode_rms(%x: memref<16x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<16x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<16x4096xbf16>)
  return
}

// -----

// LayerNorm with its mean saved and a residual: every slice takes its
// pivot from K tile 0, loaded (A and R, no W) by a TMA load of its own on
// one more mbarrier (the seventh after the 2 × 3 of the ring: three
// stages with R's tiles) into the last
// stage before the ring starts; the row sums carry the pivot third, the
// column sums c, Σβ·W come from the first row of blocks; S is written by
// the slices (each K tile's owner). 3 slices: ⌈1536 / 64⌉ / 8.
// CHECK-LABEL: func.func @decode_ln_residual
// CHECK-DAG:     %[[SPLITS:.*]] = arith.constant 3 : index
// CHECK:           %[[ROWS:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?x?x3xf32>
// CHECK:           %[[COLS:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?x?x2xf32>
// CHECK:           gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in ({{.*}}, %{{.*}} = %[[SPLITS]])
// CHECK:             %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
// CHECK:             scf.if
// CHECK:               nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c6{{.*}}], %c16384
// CHECK-COUNT-2:       nvgpu.tma.async.load {{.*}}, %[[BAR]][%c6{{.*}}]
// CHECK-NOT:           nvgpu.tma.async.load
// CHECK:             }
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[BAR]][%c6{{.*}}]
// CHECK:             gpu.barrier
// CHECK:             nvvm.wgmma.mma_async
// CHECK:             memref.store %{{.*}}, %[[ROWS]][%[[Z]], %{{.*}}, %c2{{.*}}] : memref<?x?x3xf32>
// CHECK:             memref.store %{{.*}}, %[[COLS]][%[[Z]], %{{.*}}, %c1{{.*}}] : memref<?x?x2xf32>
// CHECK:           gpu.launch
// CHECK:             memref.load %[[ROWS]][%c0{{.*}}, %{{.*}}, %c2{{.*}}] : memref<?x?x3xf32>
func.func @decode_ln_residual(%x: memref<16x1536xf16>, %r: memref<16x1536xf16>, %g: memref<1536xf16>, %b: memref<1536xf16>,
                              %w: memref<1024x1536xf16>, %c: memref<16x1024xf16>, %s: memref<16x1536xf16>,
                              %mean: memref<16xf32>, %rstd: memref<16xf32>) {
  norm.layer_norm_matmul ins(%x : memref<16x1536xf16>) residual(%r : memref<16x1536xf16>) weight(%g : memref<1536xf16>) bias(%b : memref<1536xf16>)
    rhs(%w : memref<1024x1536xf16>) outs(%c : memref<16x1024xf16>) sum_outs(%s : memref<16x1536xf16>)
    mean_outs(%mean : memref<16xf32>) rstd_outs(%rstd : memref<16xf32>) {transpose_rhs}
  return
}

// -----

// normalizesA (cast_mode: the rows' statistics are a pass of their own
// before the K loop) splits on wgmma too: every slice makes the pass over
// the whole row (RowNormalizer: the loads of X, the pair's shuffle) and
// rewrites its own K tiles, then stores plain partials (no row sums); the
// reduction is the plain one (no rstd to form). sm_90 and sm_80 keep the
// unsplit mma.sync kernel.
// CHECK-LABEL: func.func @decode_cast_mode
// CHECK-DAG:     %[[SPLITS:.*]] = arith.constant 8 : index
// CHECK:         scf.if
// CHECK:           %[[ACC:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[SPLITS]], %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// CHECK-NOT:       gpu.alloc
// CHECK:           gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in ({{.*}}, %{{.*}} = %[[SPLITS]])
// CHECK:             scf.for
// CHECK:               memref.load %{{.*}} : memref<16x4096xbf16>
// CHECK:             gpu.shuffle  xor
// CHECK:             math.sqrt
// CHECK:             nvvm.fence.proxy
// CHECK:             nvvm.wgmma.mma_async
// CHECK:             vector.store %{{.*}}, %[[ACC]][%[[Z]], %{{.*}}, %{{.*}}]
// CHECK:           gpu.launch
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[SPLITS]]
// CHECK-NOT:         math.sqrt
// CHECK:           gpu.dealloc async {{.*}} %[[ACC]]
// CHECK:         } else {
// SM90-LABEL: func.func @decode_cast_mode
// SM90-NOT:     gpu.alloc
// SM90-NOT:     nvvm.wgmma
// SM90:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// SM90:           nvgpu.mma.sync
// SM90-NOT:     gpu.alloc
// SM90-NOT:     nvvm.wgmma
// SM90:         return
// SM80-LABEL: func.func @decode_cast_mode
// SM80-NOT:     gpu.alloc
// SM80-NOT:     nvvm.wgmma
// SM80:           nvgpu.mma.sync
// SM80-NOT:     gpu.alloc
// SM80:         return
func.func @decode_cast_mode(%x: memref<16x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<16x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<16x4096xbf16>) {cast_mode = #norm.cast_mode<after_weight>}
  return
}
