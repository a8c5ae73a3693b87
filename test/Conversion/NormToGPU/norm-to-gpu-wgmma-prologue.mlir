// --convert-norm-to-gpu with chip=sm_90a: RMSNorm → matmul with γ and/or
// weight_offset runs on the warpgroup-MMA kernel, whose prologue
// (lib/Conversion/NormToGPU/Gemm/WarpgroupPrologue.cpp) rewrites each
// 128-byte-swizzled A tile as round(x·γ') after Σx² of x: γ read at its own
// type from global memory at the logical column of each physical chunk
// (chunk ^ row % 8), 0 past K, the product rounded to the element type once,
// stored back in place, then fence.proxy.async.shared::cta and a barrier
// before the MMAs: in the pipelined schedule (the default) each consumer
// warpgroup's own (nvvm.barrier id 1 + warpgroup, 128 threads), with the
// producer warp's loop beside the consumers'; in the serial one the block's.
// sm_90 never takes wgmma (LayerNorm: norm-to-gpu-wgmma-layer-norm.mlir;
// a residual: norm-to-gpu-wgmma-residual.mlir; cast_mode and pRMSNorm:
// norm-to-gpu-wgmma-normalize.mlir).
// The CHECK lines are of wgmma-conflict-free-prologue=0 (each thread's
// chunks in order c, Σx² added as each is read); CF checks the default
// (the chunks in order c ^ (row % 4), each chunk's Σx² kept and added in
// chunk order after the stores, selected by row % 4).
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-conflict-free-prologue=0" -split-input-file | FileCheck %s --check-prefixes=CHECK,PIPE
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-block-m=128 wgmma-block-n=256 wgmma-conflict-free-prologue=0" -split-input-file | FileCheck %s --check-prefixes=CHECK,PIPE
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0 wgmma-conflict-free-prologue=0" -split-input-file | FileCheck %s --check-prefixes=CHECK,SERIAL
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" -split-input-file | FileCheck %s --check-prefix=CF
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0 wgmma-conflict-free-prologue=1" -split-input-file | FileCheck %s --check-prefix=CF
// RUN: not norm-opt %s --convert-norm-to-gpu="chip=sm_90a wgmma-conflict-free-prologue=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: wgmma-conflict-free-prologue
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" -split-input-file | FileCheck %s --check-prefix=SM90

// SM90-NOT: nvvm.wgmma
// SM90-NOT: nvvm.fence.proxy

// Gemma: f32 γ with bf16 X, weight_offset 1, W as N×K.
// CHECK-LABEL: func.func @gamma_f32_offset_nk
// CF-LABEL:    func.func @gamma_f32_offset_nk
// CF:            nvgpu.mbarrier.try_wait.parity
// CF:            %[[TILE:.*]] = memref.view {{.*}} to memref<64x64xbf16, #gpu.address_space<workgroup>>
// CF:            %[[ROW:.*]] = arith.divui %{{.*}}, %{{.*}}
// CF:            %[[COL0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CF:            %[[TURN:.*]] = arith.remui %[[ROW]], %c4{{.*}} : index
// CF:            %[[O0:.*]] = arith.xori %c0{{.*}}, %[[TURN]] : index
// CF:            %[[O1:.*]] = arith.xori %c1{{.*}}, %[[TURN]] : index
// CF:            %[[O2:.*]] = arith.xori %c2{{.*}}, %[[TURN]] : index
// CF:            %[[O3:.*]] = arith.xori %c3{{.*}}, %[[TURN]] : index
// CF:            %[[PHASE:.*]] = arith.remui %[[ROW]], %c8{{.*}} : index
// CF:            %[[P0:.*]] = arith.addi %{{.*}}, %[[O0]] : index
// CF:            arith.xori %[[P0]], %[[PHASE]] : index
// CF-COUNT-4:    vector.load %{{.*}} : memref<256xf32>, vector<8xf32>
// CF:            %[[OFF0:.*]] = arith.muli %[[O0]], %c8{{.*}} : index
// CF:            %[[COL:.*]] = arith.addi %[[COL0]], %[[OFF0]] : index
// CF:            %[[X:.*]] = vector.load %[[TILE]][%[[ROW]], %[[COL]]]
// CF:            %[[RED:.*]] = vector.reduction <add>
// CF-NEXT:       %[[T0:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=f,f" %[[RED]] : (f32) -> f32
// CF-NOT:        arith.addf %{{.*}} : f32
// CF:            vector.store %{{.*}}, %[[TILE]][%[[ROW]], %[[COL]]]
// CF:            %[[T1:.*]] = llvm.inline_asm
// CF:            vector.store
// CF:            %[[T2:.*]] = llvm.inline_asm
// CF:            vector.store
// CF:            %[[T3:.*]] = llvm.inline_asm
// CF:            vector.store
// Chunk 0's Σ: the step c with c ^ turn = 0.
// CF:            %[[IS1:.*]] = arith.cmpi eq, %[[TURN]], %c1{{.*}} : index
// CF-NEXT:       %[[S01:.*]] = arith.select %[[IS1]], %[[T1]], %[[T0]] : f32
// CF:            %[[IS2:.*]] = arith.cmpi eq, %[[TURN]], %c2{{.*}} : index
// CF-NEXT:       %[[S02:.*]] = arith.select %[[IS2]], %[[T2]], %[[S01]] : f32
// CF:            %[[IS3:.*]] = arith.cmpi eq, %[[TURN]], %c3{{.*}} : index
// CF-NEXT:       %[[R0:.*]] = arith.select %[[IS3]], %[[T3]], %[[S02]] : f32
// CF-NEXT:       %[[SUM0:.*]] = arith.addf %{{.*}}, %[[R0]] : f32
// Chunk 1's: steps 1, 0, 3, 2 for turn 0 .. 3.
// CF:            arith.select %{{.*}}, %[[T0]], %[[T1]] : f32
// CF:            arith.select %{{.*}}, %[[T3]], %{{.*}} : f32
// CF:            %[[R1:.*]] = arith.select %{{.*}}, %[[T2]], %{{.*}} : f32
// CF-NEXT:       %[[SUM1:.*]] = arith.addf %[[SUM0]], %[[R1]] : f32
// CF-COUNT-2:    arith.addf %{{.*}} : f32
// CF-NEXT:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CF:            nvvm.wgmma.fence.aligned
// CHECK-SAME:    %[[G:[^:]*]]: memref<256xf32>
// CHECK:         gpu.launch
// PIPE:            %[[CONSUMER:.*]] = arith.cmpi ult, %[[TID:[^,]*]], %{{.*}} : index
// PIPE:            scf.if %[[CONSUMER]]
// PIPE:              %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SUM:.*]] = %{{.*}})
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             %[[TILE:.*]] = memref.view {{.*}} to memref<{{64|128}}x64xbf16, #gpu.address_space<workgroup>>
// CHECK:             %[[ROW:.*]] = arith.divui %[[TID:[^,]*]], %{{.*}}
// CHECK:             %[[PHASE:.*]] = arith.remui %[[ROW]], %{{.*}}
// CHECK:             %[[CHUNK:.*]] = arith.xori %{{.*}}, %[[PHASE]] : index
// CHECK:             %[[K:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:             %[[INSIDE:.*]] = arith.cmpi ult, %[[K]], %{{.*}} : index
// CHECK:             %[[AT:.*]] = arith.select %[[INSIDE]], %[[K]], %{{.*}} : index
// CHECK:             %[[GV:.*]] = vector.load %[[G]][%[[AT]]] {alignment = 16 : i64} : memref<256xf32>, vector<8xf32>
// CHECK-COUNT-3:     vector.load %[[G]]
// CHECK:             %[[X:.*]] = vector.load %[[TILE]][%[[ROW]], %[[COL:.*]]] : memref<{{64|128}}x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             %[[XF:.*]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK:             %[[SQ:.*]] = arith.mulf %[[XF]], %[[XF]] : vector<8xf32>
// CHECK:             %[[RED:.*]] = vector.reduction <add>, %[[SQ]]
// CHECK:             %[[S0:.*]] = arith.addf %[[SUM]], %[[RED]] : f32
// CHECK:             llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=f,f" %[[S0]] : (f32) -> f32
// CHECK:             %[[GP:.*]] = arith.addf %[[GV]], %{{.*}} : vector<8xf32>
// CHECK:             %[[F0:.*]] = arith.select %[[INSIDE]], %[[GP]], %{{.*}} : vector<8xf32>
// CHECK:             %[[A:.*]] = arith.mulf %[[XF]], %[[F0]] : vector<8xf32>
// CHECK:             %[[AB:.*]] = arith.truncf %[[A]] : vector<8xf32> to vector<8xbf16>
// CHECK:             vector.store %[[AB]], %[[TILE]][%[[ROW]], %[[COL]]] {alignment = 16 : i64}
// CHECK-COUNT-3:     vector.store
// CHECK-NEXT:        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// PIPE-NEXT:         %[[C1:.*]] = arith.constant 1 : index
// PIPE-NEXT:         %[[ID:.*]] = arith.addi %[[WG]], %[[C1]]
// PIPE-NEXT:         %[[ID32:.*]] = arith.index_castui %[[ID]] : index to i32
// PIPE-NEXT:         %[[C128:.*]] = arith.constant 128 : index
// PIPE-NEXT:         %[[N:.*]] = arith.index_castui %[[C128]] : index to i32
// PIPE-NEXT:         nvvm.barrier id = %[[ID32]] number_of_threads = %[[N]]
// SERIAL-NEXT:       gpu.barrier
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// PIPE:              nvvm.wgmma.wait.group.sync.aligned 1
// PIPE:              nvgpu.mbarrier.arrive
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 0
// The producer warp's loop.
// PIPE:              scf.for
// PIPE:                nvgpu.mbarrier.try_wait.parity
// PIPE:                nvgpu.mbarrier.arrive.expect_tx
// PIPE:                nvgpu.tma.async.load
// CHECK:             gpu.barrier
// CHECK:           gpu.terminator
// The guarded-load fallback.
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
func.func @gamma_f32_offset_nk(%x: memref<64x256xbf16>, %g: memref<256xf32>, %w: memref<128x256xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) weight(%g : memref<256xf32>) rhs(%w : memref<128x256xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  return
}

// -----

// f16 γ of the element type, W as K×N: γ' = γ (no offset add).
// CHECK-LABEL: func.func @gamma_f16_kn
// CHECK:         gpu.launch
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK-COUNT-4:     vector.load %{{.*}} {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// CHECK-NOT:         arith.addf {{.*}} : vector<8xf32>
// CHECK:             arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK:             nvvm.fence.proxy
// PIPE:              nvvm.barrier id
// SERIAL-NEXT:       gpu.barrier
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
func.func @gamma_f16_kn(%x: memref<128x512xf16>, %g: memref<512xf16>, %w: memref<512x256xf16>, %y: memref<128x256xf16>) {
  norm.rms_norm_matmul ins(%x : memref<128x512xf16>) weight(%g : memref<512xf16>) rhs(%w : memref<512x256xf16>) outs(%y : memref<128x256xf16>) {epsilon = 1.0e-06 : f64}
  return
}

// -----

// weight_offset without γ: γ' = 1 + offset, no global read.
// CHECK-LABEL: func.func @offset_only
// CHECK:         gpu.launch
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK-NOT:         vector.load {{.*}} : memref<256xbf16>
// CHECK:             %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:             %[[OFF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:             %[[GP:.*]] = arith.addf %[[ONE]], %[[OFF]] : f32
// CHECK:             vector.broadcast %[[GP]] : f32 to vector<8xf32>
// CHECK:             arith.truncf
// CHECK:             nvvm.fence.proxy
// PIPE:              nvvm.barrier id
// SERIAL-NEXT:       gpu.barrier
// CHECK:             nvvm.wgmma.mma_async
func.func @offset_only(%x: memref<64x256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64, weight_offset = 0.5 : f32}
  return
}

// -----

// Without γ and offset the tile is read only: no store, fence or extra
// barrier.
// CHECK-LABEL: func.func @no_gamma
// CHECK:         gpu.launch
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:             vector.reduction <add>
// CHECK-NOT:         vector.store
// CHECK-NOT:         nvvm.fence.proxy
// CHECK-NOT:         llvm.inline_asm
// CHECK-NOT:         gpu.barrier
// CHECK-NOT:         nvvm.barrier
// CHECK:             nvvm.wgmma.fence.aligned
func.func @no_gamma(%x: memref<64x256xbf16>, %w: memref<256x128xbf16>, %y: memref<64x128xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<64x256xbf16>) rhs(%w : memref<256x128xbf16>) outs(%y : memref<64x128xbf16>) {epsilon = 1.0e-06 : f64}
  return
}
