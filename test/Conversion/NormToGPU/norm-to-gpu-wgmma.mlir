// --convert-norm-to-gpu with chip=sm_90a: the GEMMs warpgroupGemmApplies
// takes (bf16/f16; no prologue, or an RMSNorm or LayerNorm prologue, with
// or without γ, weight offset and residual) run on wgmma.mma_async with TMA
// loads into four 24 KiB stages (the residual: norm-to-gpu-wgmma-residual.mlir)
// (lib/Conversion/NormToGPU/Gemm/WarpgroupGemm.cpp); the guarded-load kernel
// stays the fallback for misaligned buffers. GEMMs it does not take, and
// every GEMM for sm_90 (no "a": no wgmma in its PTX), use mma.sync.
// The checks are of the serial schedule (wgmma-pipeline=0); the default,
// pipelined one is norm-to-gpu-wgmma-pipeline.mlir's.
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0" -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a wgmma-pipeline=0" -split-input-file | FileCheck %s --check-prefix=SPLIT

// SM90-NOT: nvvm.wgmma
// SM90-NOT: nvgpu.tma

// CHECK-LABEL: func.func @rms_kn_bf16
// CHECK:         %[[MAPA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK:         %[[MAPW:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         %[[SMEM:.*]] = arith.constant 99584 : i32
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %{{.*}}, {{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK:           %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-COUNT-4:   nvgpu.mbarrier.init %[[BAR]]
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.*}}], %{{.*}}
// CHECK:             nvgpu.tma.async.load %[[MAPA]]
// CHECK-COUNT-2:     nvgpu.tma.async.load %[[MAPW]]
// CHECK:           %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32, f32,
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %{{.*}})
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK:             vector.reduction <add>
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:             nvvm.wgmma.commit.group.sync.aligned
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:             gpu.barrier
// CHECK:           gpu.shuffle xor
// CHECK:           math.sqrt
// CHECK-COUNT-64:  llvm.extractvalue
// CHECK:           gpu.terminator
// The guarded-load fallback.
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
func.func @rms_kn_bf16(%x: memref<128x512xbf16>, %w: memref<512x256xbf16>, %mb: memref<256xbf16>, %y: memref<128x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<128x512xbf16>) rhs(%w : memref<512x256xbf16>) matmul_bias(%mb : memref<256xbf16>) outs(%y : memref<128x256xbf16>) {epsilon = 1.0e-06 : f64}
  return
}

// -----

// W as N×K: one 128 × 64 box a stage, B K-major (layout col).
// CHECK-LABEL: func.func @rms_nk_f16
// CHECK:         nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16
// CHECK:         nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16
// CHECK:         gpu.launch
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @rms_nk_f16(%x: memref<64x256xf16>, %w: memref<128x256xf16>, %y: memref<64x128xf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xf16>) rhs(%w : memref<128x256xf16>) outs(%y : memref<64x128xf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}

// -----

// γ not folded into W: the A tile is rescaled in shared memory
// (norm-to-gpu-wgmma-prologue.mlir), still on wgmma.
// CHECK-LABEL: func.func @rms_gamma_bf16
// CHECK:         nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         return
func.func @rms_gamma_bf16(%x: memref<64x256xbf16>, %g: memref<256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) weight(%g : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64}
  return
}

// -----

// LayerNorm → matmul: wgmma (norm-to-gpu-wgmma-layer-norm.mlir checks
// its prologue).
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         return
func.func @layer_norm_bf16(%x: memref<64x256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<64x256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-05 : f64}
  return
}

// -----

// A weight offset without γ (a scale of 1 + offset on A): wgmma too.
// CHECK-LABEL: func.func @rms_offset_bf16
// CHECK:         nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         return
func.func @rms_offset_bf16(%x: memref<64x256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32}
  return
}

// -----

// f32 inputs run on FMAs, not tensor cores.
// CHECK-LABEL: func.func @rms_f32
// CHECK-NOT:     nvvm.wgmma
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         return
func.func @rms_f32(%x: memref<64x256xf32>, %w: memref<256x128xf32>, %y: memref<64x128xf32>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xf32>) rhs(%w : memref<256x128xf32>) outs(%y : memref<64x128xf32>) {epsilon = 1.0e-06 : f64}
  return
}

// -----

// With split-K allowed, one output block and 4096 k's: the split kernel
// (slices of the K tiles of 64 into f32 partials, then the reduction) runs
// on wgmma as the unsplit branch does (norm-to-gpu-wgmma-split-k.mlir).
// SPLIT-LABEL: func.func @split_k_bf16
// SPLIT:         scf.if
// SPLIT:           gpu.alloc
// SPLIT-NOT:       nvgpu.mma.sync
// SPLIT:           nvvm.wgmma.mma_async
// SPLIT-NOT:       nvgpu.mma.sync
// SPLIT:         } else {
// SPLIT:           nvvm.wgmma.mma_async
func.func @split_k_bf16(%x: memref<64x4096xbf16>, %w: memref<4096x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x4096xbf16>) rhs(%w : memref<4096x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
