// --convert-norm-to-gpu with chip=sm_90a: norm → matmul whose normalized
// activations round (cast_mode) or whose RMSNorm statistics cover a prefix
// of the row (pRMSNorm), GemmProblem::normalizesA, runs on the
// warpgroup-MMA kernel: the rows' statistics from a pass of their own over
// X in global memory before the K loop (RowNormalizer::rowStatistics, the
// mma.sync kernel's: two threads a row, every other element, the pair's
// shuffle; every thread of the block, the producer warp as row M), kept in
// the kernel's f32 scratch and saved by the first column of blocks; then
// each A tile rewritten in place as the normalized activations
// (WarpgroupPrologue::normalizeTile: the thread's four chunks of the
// swizzled tile, γ and β at the chunk's logical column, 0 past K, rounded
// to the element type), fence.proxy.async, the warpgroup's barrier, the
// MMAs; the epilogue is the plain GEMM's. What the wgmma kernel still
// refuses keeps mma.sync (f32; K not a multiple of 8: the guarded kernel),
// and sm_90 and sm_80 never take wgmma. Split-K:
// norm-to-gpu-wgmma-split-k.mlir.
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" --canonicalize -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0" --canonicalize -split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=NOWGMMA
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_80 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=NOWGMMA

// NOWGMMA-NOT: nvvm.wgmma
// NOWGMMA-NOT: nvgpu.tma

// Gemma's order: f32 γ + 1, after_weight, W as N×K, rstd saved.
// CHECK-LABEL: func.func @cast_mode_gamma
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c160
// CHECK:           %[[ROW:.*]] = arith.divui %{{.*}}, %c2 : index
// CHECK:           %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c128 : index
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 iter_args
// CHECK:             memref.load %{{.*}} : memref<64x256xbf16>
// CHECK:             arith.mulf
// CHECK:           gpu.shuffle  xor
// CHECK:           math.sqrt
// CHECK:           scf.if %[[CONSUMER]] {
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:             memref.store %{{.*}} : memref<64xf32>
// CHECK:           }
// CHECK:           scf.if %{{.*}} -> (
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             %[[RSTD:.*]] = memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:             %[[X:.*]] = vector.load %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             %[[G:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<256xf32>, vector<8xf32>
// CHECK:             %[[XF:.*]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK:             %[[R:.*]] = vector.broadcast %[[RSTD]] : f32 to vector<8xf32>
// CHECK:             %[[XHAT:.*]] = arith.mulf %[[XF]], %[[R]] : vector<8xf32>
// CHECK:             %[[GP:.*]] = arith.addf %[[G]], %{{.*}} : vector<8xf32>
// CHECK:             %[[Y:.*]] = arith.mulf %[[XHAT]], %[[GP]] : vector<8xf32>
// CHECK:             %[[YK:.*]] = arith.select %{{.*}}, %[[Y]], %{{.*}} : vector<8xf32>
// CHECK:             %[[A:.*]] = arith.truncf %[[YK]] : vector<8xf32> to vector<8xbf16>
// CHECK:             vector.store %[[A]], %{{.*}} {alignment = 16 : i64} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-COUNT-3:     vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             nvvm.fence.proxy
// CHECK:             nvvm.barrier id
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:     nvvm.wgmma.mma_async
// The plain epilogue: no row scale.
// CHECK-NOT:         math.sqrt
// CHECK:             gpu.terminator
// SERIAL-LABEL: func.func @cast_mode_gamma
// SERIAL:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128
// SERIAL:           nvgpu.tma.async.load
// SERIAL:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 iter_args
// SERIAL:           gpu.shuffle  xor
// SERIAL:           scf.for
// SERIAL:             nvgpu.mbarrier.try_wait.parity
// SERIAL:             arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// SERIAL:             nvvm.fence.proxy
// SERIAL:             gpu.barrier
// SERIAL:             nvvm.wgmma.mma_async
func.func @cast_mode_gamma(%x: memref<64x256xbf16>, %g: memref<256xf32>, %w: memref<128x256xbf16>, %y: memref<64x128xbf16>, %rs: memref<64xf32>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) weight(%g : memref<256xf32>) rhs(%w : memref<128x256xbf16>) outs(%y : memref<64x128xbf16>) rstd_outs(%rs : memref<64xf32>) {cast_mode = #norm.cast_mode<after_weight>, weight_offset = 1.0 : f32, transpose_rhs}
  return
}

// -----

// pRMSNorm p = 0.25 over K = 1000: Σx² over the first ⌈250⌉ columns (not a
// multiple of the K tile), divided by 250; all of K is normalized.
// CHECK-LABEL: func.func @partial_gamma
// CHECK:           arith.select %{{.*}}, %c250, %c0 : index
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 iter_args
// CHECK:             memref.load %{{.*}} : memref<64x1000xbf16>
// CHECK:           gpu.shuffle  xor
// CHECK:           arith.divf %{{.*}}, %cst{{.*}} : f32
// CHECK:           math.sqrt
// CHECK:           nvvm.wgmma.mma_async
func.func @partial_gamma(%x: memref<64x1000xbf16>, %g: memref<1000xbf16>, %w: memref<1000x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x128xbf16>) outs(%y : memref<64x128xbf16>) {partial = 0.25 : f32}
  return
}

// -----

// LayerNorm, before_weight, with a residual and S: s = round(x + r) in the
// pass (from global memory) and in the tile (from A's and R's TMA tiles,
// written to S); the mean pass, then Σd, Σd²; μ and its correction beside
// rstd in the scratch; the saved mean is μ + correction.
// CHECK-LABEL: func.func @ln_cast_before
// CHECK:           scf.for
// CHECK:             memref.load %{{.*}} : memref<64x256xf16>
// CHECK:             memref.load %{{.*}} : memref<64x256xf16>
// CHECK:             arith.truncf %{{.*}} : f32 to f16
// CHECK:           gpu.shuffle  xor
// CHECK:           scf.for
// CHECK:           gpu.shuffle  xor
// CHECK:           gpu.shuffle  xor
// CHECK:           math.sqrt
// CHECK:           scf.if
// CHECK-COUNT-3:     memref.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:             arith.addf
// CHECK:             memref.store %{{.*}} : memref<64xf32>
// CHECK:           scf.if
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK-COUNT-3:     memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:             vector.load %{{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:             vector.load %{{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:             vector.store %{{.*}} : memref<64x256xf16>, vector<8xf16>
// CHECK:             arith.subf
// CHECK:             arith.subf
// CHECK:             arith.mulf
// before_weight: x̂ rounded to f16 before γ.
// CHECK:             arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK:             arith.extf
// CHECK:             vector.store %{{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:             nvvm.fence.proxy
// CHECK:             nvvm.wgmma.mma_async
func.func @ln_cast_before(%x: memref<64x256xf16>, %r: memref<64x256xf16>, %g: memref<256xf16>, %b: memref<256xf16>, %w: memref<256x128xf16>, %y: memref<64x128xf16>, %s: memref<64x256xf16>, %m: memref<64xf32>) {
  norm.layer_norm_matmul ins(%x : memref<64x256xf16>) residual(%r : memref<64x256xf16>) weight(%g : memref<256xf16>) bias(%b : memref<256xf16>) rhs(%w : memref<256x128xf16>) outs(%y : memref<64x128xf16>) sum_outs(%s : memref<64x256xf16>) mean_outs(%m : memref<64xf32>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}

// -----

// Still on mma.sync: f32 data (the FMA kernel; tensor cores take f32 only
// as TF32).
// CHECK-LABEL: func.func @cast_mode_f32
// CHECK-NOT:     nvvm.wgmma
// CHECK-NOT:     nvgpu.tma
// CHECK:         return
func.func @cast_mode_f32(%x: memref<64x256xf32>, %g: memref<256xf32>, %w: memref<256x128xf32>, %y: memref<64x128xf32>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xf32>) weight(%g : memref<256xf32>) rhs(%w : memref<256x128xf32>) outs(%y : memref<64x128xf32>) {partial = 0.5 : f32}
  return
}

// -----

// Still on mma.sync: K not a multiple of 8 (TMA's 16-byte strides): the
// guarded-load kernel.
// CHECK-LABEL: func.func @cast_mode_k_tail
// CHECK-NOT:     nvvm.wgmma
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.wgmma
// CHECK:         return
func.func @cast_mode_k_tail(%x: memref<64x100xbf16>, %g: memref<100xbf16>, %w: memref<100x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x100xbf16>) weight(%g : memref<100xbf16>) rhs(%w : memref<100x128xbf16>) outs(%y : memref<64x128xbf16>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}
