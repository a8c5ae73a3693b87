// --convert-norm-to-gpu with chip=sm_90a: a norm → matmul with a residual
// (RMSNorm or LayerNorm; with or without γ, β, weight offset; with or
// without sum_outs S) runs on the warpgroup-MMA kernel
// (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp). The host makes a
// third TMA map, R's, with A's box and swizzle; each stage holds the A
// tile, R's tile after it and the W tile (32 KiB at 64 × 128, three stages
// so that two blocks share an SM), all loaded on one full barrier. Per K
// tile, after the stage's wait, the thread's four chunks of s = round(x + r)
// (extf, addf, truncf) read from both tiles at the same place, each written
// to S by the first column of blocks (n0 < 1, inside M and K); the
// statistics of s in the mma.sync kernel's order (RMSNorm: two fma chains;
// LayerNorm: the pivot of s, then add and fma), pinned; the A tile
// rewritten as s (RMSNorm without γ or offset), round(s·γ') or
// round((s − p)·γ'); fence.proxy.async and the barrier before the MMAs.
// The default block is 64 × 128 even for an output of 128 × 256 blocks
// (the residual prologue spills there), and the mma.sync kernel is still
// what sm_90, cast_mode (normalizesA) and a K of no whole 16-byte chunks
// get.
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0" -split-input-file | FileCheck %s --check-prefixes=CHECK,SERIAL
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" -split-input-file | FileCheck %s --check-prefixes=CHECK,PIPE
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-block-m=128 wgmma-block-n=256" -split-input-file | FileCheck %s --check-prefix=B256
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=SM90

// SM90-NOT: nvvm.wgmma
// SM90-NOT: nvgpu.tma

// RMSNorm, γ, S, W as K×N.
// CHECK-LABEL: func.func @rms_residual_gamma_sum
// CHECK-SAME:    %[[R:[a-z0-9]+]]: memref<64x256xbf16>, %{{.*}}: memref<256xbf16>, %{{.*}}: memref<256x128xbf16>, %{{.*}}: memref<64x128xbf16>, %[[S:[a-z0-9]+]]: memref<64x256xbf16>
// CHECK:         %[[RV2:.*]] = memref.reinterpret_cast %[[R]]
// CHECK:         %[[SV2:.*]] = memref.reinterpret_cast %[[S]]
// CHECK:         %[[MAPA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         %[[RCAST:.*]] = memref.cast %[[RV2]]
// CHECK:         %[[MAPR:.*]] = nvgpu.tma.create.descriptor %[[RCAST]] box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         %[[MAPW:.*]] = nvgpu.tma.create.descriptor
// 1024 + 3 stages of 32 KiB + r (256 bytes).
// CHECK:         arith.constant 99584 : i32
// SERIAL:        nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// PIPE:          nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// The loads of a stage (the serial schedule's thread 0 issues the first
// ones before the loop, the pipelined one's producer warp after the
// consumers' branch): A, R after it, W, on one expect_tx of 32 KiB.
// SERIAL:        nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c32768
// SERIAL-NEXT:   %[[VA:.*]] = memref.view
// SERIAL-NEXT:   nvgpu.tma.async.load %[[MAPA]]{{.*}} to %[[VA]]
// SERIAL:        %[[VR:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xbf16
// SERIAL-NEXT:   nvgpu.tma.async.load %[[MAPR]]{{.*}} to %[[VR]]
// SERIAL-COUNT-2: nvgpu.tma.async.load %[[MAPW]]
// The K loop: the stage's A and R tiles, 8 KiB apart.
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         %[[TA:.*]] = memref.view %{{.*}}[%[[OFF:.*]]][] : {{.*}} to memref<64x64xbf16
// CHECK-NEXT:    %c8192{{.*}} = arith.constant 8192 : index
// CHECK-NEXT:    %[[ROFF:.*]] = arith.addi %[[OFF]], %c8192
// CHECK-NEXT:    %[[TR:.*]] = memref.view %{{.*}}[%[[ROFF]]][] : {{.*}} to memref<64x64xbf16
// S from the first column of blocks.
// CHECK-NEXT:    %[[FIRSTCOL:.*]] = arith.cmpi ult, %{{.*}}, %c1
// CHECK:         %[[X:.*]] = vector.load %[[TA]][%[[ROW:.*]], %[[COL:.*]]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NEXT:    %[[RV:.*]] = vector.load %[[TR]][%[[ROW]], %[[COL]]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK-NEXT:    %[[RF:.*]] = arith.extf %[[RV]] : vector<8xbf16> to vector<8xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[XF]], %[[RF]] : vector<8xf32>
// CHECK-NEXT:    %[[SV:.*]] = arith.truncf %[[SUM]] : vector<8xf32> to vector<8xbf16>
// CHECK:         %[[IN:.*]] = arith.andi %[[FIRSTCOL]], %{{.*}} : i1
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      vector.store %[[SV]], %[[SV2]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x256xbf16>, vector<8xbf16>
// CHECK-COUNT-3: vector.store %{{.*}} {alignment = 16 : i64} : memref<64x256xbf16>, vector<8xbf16>
// Σs² in two chains (even and odd lanes), 16 fmas each, both pinned.
// CHECK-COUNT-32: math.fma
// CHECK-NEXT:    llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK-NEXT:    llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// The rewrite round(s·γ') in step order, γ from global memory.
// CHECK:         vector.load %{{.*}} : memref<256xbf16>, vector<8xbf16>
// CHECK:         arith.mulf %{{.*}} : vector<8xf32>
// CHECK:         vector.store %{{.*}}, %[[TA]][%[[ROW]], %{{.*}}] {alignment = 16 : i64}
// CHECK-COUNT-3: vector.store %{{.*}}, %[[TA]]
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// SERIAL-NEXT:   gpu.barrier
// PIPE:          nvvm.barrier id
// CHECK:         nvvm.wgmma.fence.aligned
// PIPE-COUNT-4:  nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// SERIAL-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// PIPE:          nvvm.wgmma.wait.group.sync.aligned 1
// PIPE:          nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c32768
// PIPE-NEXT:     %[[PVA:.*]] = memref.view
// PIPE-NEXT:     nvgpu.tma.async.load %[[MAPA]]{{.*}} to %[[PVA]]
// PIPE:          %[[PVR:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xbf16
// PIPE-NEXT:     nvgpu.tma.async.load %[[MAPR]]{{.*}} to %[[PVR]]
// PIPE-COUNT-2:  nvgpu.tma.async.load %[[MAPW]]
// The epilogue adds the pair's chains, v + shuffle(v), each.
// CHECK:         gpu.shuffle  xor
// CHECK:         gpu.shuffle  xor
// CHECK:         gpu.terminator
// At 128 × 256 (asked for): 128-row A and R tiles, three stages of 64 KiB
// (1024 + 3 · 65536 + 512 bytes), two consumer warpgroups.
// B256-LABEL: func.func @rms_residual_gamma_sum
// B256:         arith.constant 198144 : i32
// B256:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// B256:         nvgpu.mbarrier.try_wait.parity
// B256:         %[[TA:.*]] = memref.view %{{.*}} to memref<128x64xbf16
// B256:         %[[TR:.*]] = memref.view %{{.*}} to memref<128x64xbf16
// B256:         vector.load %[[TA]]
// B256-NEXT:    vector.load %[[TR]]
// B256:         vector.store %{{.*}} : memref<64x256xbf16>, vector<8xbf16>
// B256:         nvvm.fence.proxy
// B256:         nvvm.barrier id
// B256-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// B256:         nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c65536
func.func @rms_residual_gamma_sum(%x: memref<64x256xbf16>, %r: memref<64x256xbf16>, %g: memref<256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>, %s: memref<64x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) residual(%r : memref<64x256xbf16>) weight(%g : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) sum_outs(%s : memref<64x256xbf16>) {epsilon = 1.0e-06 : f64}
  return
}

// -----

// RMSNorm without γ, offset or S: the tile is rewritten as s itself (no
// multiply, no γ), and nothing is written to global memory but C.
// CHECK-LABEL: func.func @rms_residual_plain
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         %[[TA:.*]] = memref.view %{{.*}} to memref<64x64xbf16
// CHECK:         %[[TR:.*]] = memref.view %{{.*}} to memref<64x64xbf16
// CHECK:         %[[X:.*]] = vector.load %[[TA]]
// CHECK-NEXT:    vector.load %[[TR]]
// CHECK-NEXT:    arith.extf
// CHECK-NEXT:    arith.extf
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    %[[S0:.*]] = arith.truncf
// CHECK-NOT:     memref<64x256xbf16>, vector<8xbf16>
// CHECK-NOT:     arith.mulf
// CHECK:         llvm.inline_asm
// CHECK-NEXT:    llvm.inline_asm
// CHECK-NEXT:    vector.store %[[S0]], %[[TA]]
// CHECK-COUNT-3: vector.store %{{.*}}, %[[TA]]
// CHECK-NEXT:    nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         gpu.terminator
func.func @rms_residual_plain(%x: memref<64x256xbf16>, %r: memref<64x256xbf16>, %w: memref<128x256xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) residual(%r : memref<64x256xbf16>) rhs(%w : memref<128x256xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}

// -----

// LayerNorm, γ, β, S: the pivot is the mean of s (both tiles read before
// the loop), then the sums of d = s − p, and the column sums after the MMAs.
// CHECK-LABEL: func.func @ln_residual_sum
// CHECK:         nvgpu.mbarrier.try_wait.parity %{{.*}}[%c0{{.*}}], %false
// CHECK:         vector.load
// CHECK-NEXT:    vector.load
// CHECK-NEXT:    arith.extf
// CHECK-NEXT:    arith.extf
// CHECK-NEXT:    arith.addf %{{.*}} : vector<8xf32>
// CHECK-NEXT:    arith.truncf
// CHECK:         arith.divf
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         arith.addf %{{.*}} : vector<8xf32>
// CHECK-NEXT:    arith.truncf
// CHECK:         scf.if
// CHECK-NEXT:      vector.store %{{.*}} : memref<64x256xbf16>, vector<8xbf16>
// CHECK:         arith.subf %{{.*}} : vector<8xf32>
// CHECK:         llvm.inline_asm
// CHECK-NEXT:    llvm.inline_asm
// CHECK:         nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         math.fma
// CHECK:         gpu.terminator
func.func @ln_residual_sum(%x: memref<64x256xbf16>, %r: memref<64x256xbf16>, %g: memref<256xbf16>, %b: memref<256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>, %s: memref<64x256xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<64x256xbf16>) residual(%r : memref<64x256xbf16>) weight(%g : memref<256xbf16>) bias(%b : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) sum_outs(%s : memref<64x256xbf16>) {epsilon = 1.0e-05 : f64}
  return
}

// -----

// An output of 512 blocks of 128 × 256 (enough for every multiprocessor):
// without a residual the default block is 128 × 256, with one 64 × 128.
// CHECK-LABEL: func.func @default_block_residual
// CHECK:         nvvm.wgmma.mma_async
// PIPE-SAME:       <m = 64, n = 128, k = 16>
// CHECK:         gpu.terminator
func.func @default_block_residual(%x: memref<4096x4096xbf16>, %r: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>, %s: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) residual(%r : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) sum_outs(%s : memref<4096x4096xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}

// -----

// CHECK-LABEL: func.func @default_block_no_residual
// CHECK:         nvvm.wgmma.mma_async
// PIPE-SAME:       <m = 64, n = 256, k = 16>
// CHECK:         gpu.terminator
func.func @default_block_no_residual(%x: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}

// -----

// cast_mode with a residual (normalizesA: a pass over the rows of s
// before the K loop, norm-to-gpu-wgmma-normalize.mlir) takes wgmma too:
// R's TMA tile beside A's, s written to S, the tile normalized.
// CHECK-LABEL: func.func @residual_cast_mode
// CHECK:         vector.store {{.*}} : memref<64x256xbf16>, vector<8xbf16>
// CHECK:         nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         return
// SM90-LABEL: func.func @residual_cast_mode
// SM90:         nvgpu.mma.sync
func.func @residual_cast_mode(%x: memref<64x256xbf16>, %r: memref<64x256xbf16>, %g: memref<256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>, %s: memref<64x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) residual(%r : memref<64x256xbf16>) weight(%g : memref<256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) sum_outs(%s : memref<64x256xbf16>) {cast_mode = #norm.cast_mode<after_weight>, epsilon = 1.0e-06 : f64}
  return
}

// -----

// Still on mma.sync: K = 100 is no whole number of 16-byte chunks (TMA's
// strides need them), so the guarded-load kernel, which stages R by
// element loads, takes it.
// CHECK-LABEL: func.func @residual_k_tail
// CHECK-NOT:     nvvm.wgmma
// CHECK-NOT:     nvgpu.tma
// CHECK:         memref.load %{{.*}} : memref<8x100xbf16>
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     nvvm.wgmma
// CHECK:         return
func.func @residual_k_tail(%x: memref<8x100xbf16>, %r: memref<8x100xbf16>, %w: memref<100x64xbf16>, %y: memref<8x64xbf16>, %s: memref<8x100xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<8x100xbf16>) residual(%r : memref<8x100xbf16>) rhs(%w : memref<100x64xbf16>) outs(%y : memref<8x64xbf16>) sum_outs(%s : memref<8x100xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
