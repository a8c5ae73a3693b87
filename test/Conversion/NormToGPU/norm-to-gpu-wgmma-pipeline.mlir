// --convert-norm-to-gpu with chip=sm_90a and wgmma-pipeline=1: the
// warp-specialized warpgroup-MMA GEMM (lib/Conversion/NormToGPU/Gemm/
// WarpgroupPipeline.cpp). Per block size: the threads (BM / 64 consumer
// warpgroups and a producer warp), the stages (full and empty mbarriers,
// 2·S of them), the TMA boxes, the wgmma shape; the consumers wait on the
// full barrier, issue one K tile of MMAs, keep it in flight (wait_group 1)
// and release the previous tile's stage (arrive on its empty barrier); the
// producer waits on the empty barrier before each tile's loads; after
// both, every thread runs the epilogue. The default (no wgmma option) is
// this schedule, its block chosen per GEMM: 64 × 128 for these outputs (too
// few 128 × 256 blocks to fill the multiprocessors); the first RUN lines
// turn its tile-0 peel and vector stores off to see the plain loop.
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-scale-d0=0 wgmma-vector-store=0" | FileCheck %s --check-prefixes=CHECK,B64x128
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-scale-d0=0 wgmma-vector-store=0 wgmma-pipeline=1" | FileCheck %s --check-prefixes=CHECK,B64x128
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-scale-d0=0 wgmma-vector-store=0 wgmma-pipeline=1 wgmma-block-n=256" | FileCheck %s --check-prefixes=CHECK,B64x256
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-scale-d0=0 wgmma-vector-store=0 wgmma-pipeline=1 wgmma-block-m=128" | FileCheck %s --check-prefixes=CHECK,B128x128
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-scale-d0=0 wgmma-vector-store=0 wgmma-pipeline=1 wgmma-block-m=128 wgmma-block-n=256" | FileCheck %s --check-prefixes=CHECK,B128x256
// The default also peels K tile 0 (wgmma-scale-d0): its first MMA with
// scale-d 0, then the loop from tile 1 releases every predecessor's stage.
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" | FileCheck %s --check-prefix=PEEL

// PEEL-LABEL: func.func @rms_kn_bf16
// PEEL:          scf.if %{{.*}} -> (!llvm.struct<(f32,
// PEEL:            nvgpu.mbarrier.try_wait.parity
// PEEL:            nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// PEEL-COUNT-3:    nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// PEEL:            nvvm.wgmma.wait.group.sync.aligned 1
// PEEL-NEXT:       scf.for %{{.*}} = %c1 to
// PEEL:              nvvm.wgmma.wait.group.sync.aligned 1
// PEEL-NOT:          scf.if
// PEEL:              nvgpu.mbarrier.arrive
// PEEL:            nvvm.wgmma.wait.group.sync.aligned 0
// PEEL:          } else {

// CHECK-LABEL: func.func @rms_kn_bf16
// B64x128:       nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16
// B64x256:       nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16
// B128x128:      nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<128x64xbf16
// B128x256:      nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<128x64xbf16
// CHECK:         nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16
// 1024 + S · stage + BM · 4 bytes: 4 × 24 KiB, 5 × 40 KiB, 7 × 32 KiB,
// 4 × 48 KiB.
// B64x128:       arith.constant 99584 : i32
// B64x256:       arith.constant 206080 : i32
// B128x128:      arith.constant 230912 : i32
// B128x256:      arith.constant 198144 : i32
// B64x128:       %[[NT:.*]] = arith.constant 160 : index
// B64x256:       %[[NT:.*]] = arith.constant 160 : index
// B128x128:      %[[NT:.*]] = arith.constant 288 : index
// B128x256:      %[[NT:.*]] = arith.constant 288 : index
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[NT]],
// B64x128:         %[[BAR:.*]] = nvgpu.mbarrier.create -> <{{.*}}, num_barriers = 8>
// B64x256:         %[[BAR:.*]] = nvgpu.mbarrier.create -> <{{.*}}, num_barriers = 10>
// B128x128:        %[[BAR:.*]] = nvgpu.mbarrier.create -> <{{.*}}, num_barriers = 14>
// B128x256:        %[[BAR:.*]] = nvgpu.mbarrier.create -> <{{.*}}, num_barriers = 8>
// CHECK:           nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %c1
// B64x128:         nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %c128
// B128x256:        nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %c256
// CHECK:           nvvm.fence.mbarrier.init
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[RES:.*]]:2 = scf.if %{{.*}} -> (!llvm.struct<(f32,
// CHECK:             scf.for {{.*}} iter_args(
// CHECK:               nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK:               vector.reduction <add>
// CHECK:               nvvm.wgmma.fence.aligned
// B64x128-COUNT-4:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// B64x256-COUNT-4:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// B128x128-COUNT-4:    nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// B128x256-COUNT-4:    nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK:               nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:          nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:               scf.if
// CHECK:                 nvgpu.mbarrier.arrive %[[BAR]]
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           } else {
// CHECK:             scf.if
// CHECK:               scf.for
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK:                 nvgpu.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK:                 nvgpu.tma.async.load
// B64x128-COUNT-2:       nvgpu.tma.async.load
// B128x256-COUNT-4:      nvgpu.tma.async.load
// CHECK:           gpu.shuffle xor %[[RES]]#1
// CHECK:           gpu.barrier
// CHECK:           scf.if
// B64x128-COUNT-64:  llvm.extractvalue %[[RES]]#0[
// B128x256-COUNT-128: llvm.extractvalue
// CHECK:           gpu.terminator
func.func @rms_kn_bf16(%x: memref<200x1000xbf16>, %w: memref<1000x264xbf16>, %mb: memref<264xbf16>, %y: memref<200x264xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<200x1000xbf16>) rhs(%w : memref<1000x264xbf16>) matmul_bias(%mb : memref<264xbf16>) outs(%y : memref<200x264xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
