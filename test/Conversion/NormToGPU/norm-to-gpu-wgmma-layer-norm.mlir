// --convert-norm-to-gpu with chip=sm_90a: LayerNorm → matmul runs on the
// warpgroup-MMA kernel (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp).
// Before the K loop the consumers wait for K tile 0 and take the pivot p of
// each row (the mean of its first 32 elements), then meet at their barrier;
// per K tile, after the stage's wait, the thread's four chunks of its row,
// d = x − p, Σd (add) and Σd² (fma) in element order,
// pinned, then chunk by chunk γ and the chunk stored back as round(d·γ'), fence.proxy.async and the
// barrier before the MMAs; after the MMAs are issued, the thread's column
// sums c = Σγ'W and Σβ·W (fma) from the W tile, then wait_group 1 (the
// pipelined schedule) or 0 (serial). The epilogue forms r and r·(μ − p)
// (the corrected variance, clamped at 0), stores them and the column sums
// in shared memory, and C = r·acc − r·(μ − p)·c + Σβ·W + bias. What the
// wgmma prologue does not do keeps its kernel: f32 (the SIMT kernel), and
// sm_90 never takes wgmma (a residual: norm-to-gpu-wgmma-residual.mlir).
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" -split-input-file | FileCheck %s --check-prefixes=CHECK,PIPE
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0" -split-input-file | FileCheck %s --check-prefixes=CHECK,SERIAL
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-block-m=128 wgmma-block-n=128" -split-input-file | FileCheck %s --check-prefix=HALF
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=SM90

// SM90-NOT: nvvm.wgmma

// CHECK-LABEL: func.func @layer_norm_gamma_beta
// CHECK:         gpu.launch
// The pivot: stage 0, phase 0, 32 elements of the row, divided by min(K, 32).
// CHECK:           nvgpu.mbarrier.try_wait.parity %{{.*}}[%c0{{.*}}], %false
// CHECK-COUNT-32:  arith.addf %{{.*}} : f32
// CHECK:           arith.addf %{{.*}} : f32
// CHECK:           %[[P:.*]] = arith.divf %{{.*}} : f32
// PIPE:            nvvm.barrier id
// SERIAL:          gpu.barrier
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:           %[[TILE:.*]] = memref.view {{.*}} to memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:   vector.load %[[TILE]]
// CHECK:           arith.subf %{{.*}} : vector<8xf32>
// CHECK:           arith.addf %{{.*}} : f32
// CHECK-NEXT:      math.fma %{{.*}} : f32
// CHECK:           llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK-NEXT:      llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<256xbf16>, vector<8xbf16>
// CHECK-COUNT-4:   vector.store %{{.*}}, %[[TILE]]
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// PIPE:            nvvm.barrier id
// SERIAL-NEXT:     gpu.barrier
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:   nvvm.wgmma.mma_async
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// The column sums from the K×N slabs: γ' and β of 8 k at a time, W's
// column j in row k at physical chunk (j % 64 / 8) ^ (k % 8).
// CHECK:           %[[W:.*]] = memref.view {{.*}} to memref<2x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK:           %[[W0:.*]] = memref.load %[[W]]
// CHECK:           %[[W0F:.*]] = arith.extf %[[W0]] : bf16 to f32
// CHECK:           math.fma %{{.*}}, %[[W0F]], %{{.*}} : f32
// CHECK:           math.fma %{{.*}}, %[[W0F]], %{{.*}} : f32
// PIPE:            nvvm.wgmma.wait.group.sync.aligned 1
// SERIAL:          nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue.
// CHECK:           arith.maximumf
// CHECK:           memref.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           arith.mulf %{{.*}} : vector<2xf32>
// CHECK:           arith.subf %{{.*}} : vector<2xf32>
// CHECK:           arith.addf %{{.*}} : vector<2xf32>
// CHECK:         gpu.terminator
// The guarded-load fallback.
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// 128 × 128: 256 consumer threads, 128 columns: the second warpgroup sums
// none.
// HALF-LABEL:  func.func @layer_norm_gamma_beta
// HALF:          nvvm.wgmma.commit.group.sync.aligned
// HALF:          %[[MINE:.*]] = arith.cmpi ult, %{{.*}}, %c128{{.*}} : index
// HALF:          scf.if %[[MINE]] -> (f32, f32)
// HALF:            math.fma
func.func @layer_norm_gamma_beta(%x: memref<128x256xbf16>, %g: memref<256xbf16>, %b: memref<256xbf16>, %w: memref<256x128xbf16>, %y: memref<128x128xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<128x256xbf16>) weight(%g : memref<256xbf16>) bias(%b : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<128x128xbf16>) {epsilon = 1.0e-05 : f64}
  return
}

// -----

// No γ or β, W as N×K: γ' = 1 (no global loads), W's row j read as 16-byte
// chunks at physical chunk k / 8 ^ (j % 8); no Σβ·W.
// CHECK-LABEL: func.func @layer_norm_plain_nk
// CHECK:         gpu.launch
// CHECK-NOT:       vector.load {{.*}} : memref<256xbf16>
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK:           %[[W:.*]] = memref.view {{.*}} to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK:           vector.load %[[W]]
// CHECK-COUNT-8:   math.fma %{{.*}} : f32
// CHECK-NOT:       math.fma
// CHECK:           vector.load %[[W]]
// CHECK:         gpu.terminator
func.func @layer_norm_plain_nk(%x: memref<64x256xbf16>, %w: memref<128x256xbf16>, %y: memref<64x128xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<64x256xbf16>) rhs(%w : memref<128x256xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  return
}

// -----

// Still on the SIMT kernel: f32 (tensor cores take f32 only as TF32).
// CHECK-LABEL: func.func @layer_norm_f32
// CHECK-NOT:     nvvm.wgmma
// CHECK:         nvgpu.device_async_copy {{.*}} : memref<64x256xf32> to memref<2x64x
// CHECK-NOT:     nvgpu.mma.sync
// CHECK-NOT:     nvvm.wgmma
// CHECK:         return
func.func @layer_norm_f32(%x: memref<64x256xf32>, %g: memref<256xf32>, %b: memref<256xf32>, %w: memref<256x128xf32>, %y: memref<64x128xf32>) {
  norm.layer_norm_matmul ins(%x : memref<64x256xf32>) weight(%g : memref<256xf32>) bias(%b : memref<256xf32>) rhs(%w : memref<256x128xf32>) outs(%y : memref<64x128xf32>) {epsilon = 1.0e-05 : f64}
  return
}
