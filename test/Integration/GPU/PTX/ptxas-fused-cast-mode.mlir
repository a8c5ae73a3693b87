// The fused norm → matmul GEMM with cast_mode and pRMSNorm (issue 26 item
// 7) through --norm-lower-to-nvvm to PTX. The row statistics come from a
// pass of their own before the K loop (over the first ⌈p·K⌉ columns for
// pRMSNorm), and the A tile is rewritten as the normalized activations
// rounded where cast_mode says, so the GEMM is a plain one. At sm_90a the
// bf16/f16 ops take the warpgroup kernel (issue 27 item 3; @gemma, K of
// 2048 with few output blocks, split over K: the slices, the reduction
// and the guarded fallback; @plain_rms and @ln_f16 unsplit and the
// fallback), @prms_f32 the FMA kernel (cp.async and guarded); at sm_80 the
// cp.async and guarded kernels only, never split. With ptxas, every kernel
// assembles for sm_80 and sm_90a without local memory. Their execution,
// emulated, is in test/Integration/GPU/Emulated/model-layers.test (Gemma
// 3's fused layer at 1e-2 of its float64 model) and wgmma-normalize.test.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa" -o %t.sm90a.mlir
// RUN: rm -rf %t.sm90a && %python %S/../Inputs/extract-ptx.py %t.sm90a.mlir %t.sm90a | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefix=GEMMA < %t.sm90a/gemma_kernel.ptx
// RUN: FileCheck %s --check-prefix=PRMS < %t.sm90a/prms_f32_kernel.ptx
// RUN: cat %t.sm90a/prms_f32*.ptx | FileCheck %s --check-prefix=NOWGMMA
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90a.mlir %t.sm90a --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN90A %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o %t.sm80.mlir %}
// RUN: %if ptxas %{ rm -rf %t.sm80 && %python %S/../Inputs/extract-ptx.py %t.sm80.mlir %t.sm80 --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=CLEAN80 %}
// RUN: %if ptxas %{ cat %t.sm80/*.ptx | FileCheck %s --check-prefix=NOWGMMA %}

// EXTRACT: extracted 9 PTX modules
// CLEAN90A: extracted 9 PTX modules
// CLEAN90A-COUNT-9: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN90A-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN90A-NOT: error
// CLEAN80: extracted 8 PTX modules
// CLEAN80-COUNT-8: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN80-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN80-NOT: error

// Gemma's order (a split-K slice of the wgmma kernel): the statistics loop
// reads X from global memory, the pair's shuffle, rstd goes to shared
// memory, then bf16 wgmma on the rewritten tiles.
// GEMMA: ld.global.b16
// GEMMA: shfl.sync.bfly.b32
// GEMMA: st.shared.b32
// GEMMA: fence.proxy.async.shared::cta;
// GEMMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// pRMSNorm in f32 (FMA units; k = ⌈0.25·300⌉ = 75 folded).
// PRMS: ld.global.b32
// PRMS: fma.rn.f32

// NOWGMMA-NOT: wgmma

func.func @gemma(%x: memref<16x2048xbf16>, %g: memref<2048xf32>, %w: memref<256x2048xbf16>, %c: memref<16x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x2048xbf16>) weight(%g : memref<2048xf32>) rhs(%w : memref<256x2048xbf16>) outs(%c : memref<16x256xbf16>) {cast_mode = #norm.cast_mode<after_weight>, weight_offset = 1.0 : f32, transpose_rhs}
  return
}

func.func @plain_rms(%x: memref<?x512xbf16>, %w: memref<512x256xbf16>, %c: memref<?x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x512xbf16>) rhs(%w : memref<512x256xbf16>) outs(%c : memref<?x256xbf16>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}

func.func @ln_f16(%x: memref<?x256xf16>, %r: memref<?x256xf16>, %g: memref<256xf32>, %b: memref<256xf32>, %w: memref<256x128xf16>, %c: memref<?x128xf16>, %s: memref<?x256xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x256xf16>) residual(%r : memref<?x256xf16>) weight(%g : memref<256xf32>) bias(%b : memref<256xf32>) rhs(%w : memref<256x128xf16>) outs(%c : memref<?x128xf16>) sum_outs(%s : memref<?x256xf16>) {cast_mode = #norm.cast_mode<after_weight>}
  return
}

func.func @prms_f32(%x: memref<?x300xf32>, %g: memref<300xf32>, %w: memref<300x64xf32>, %c: memref<?x64xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x300xf32>) weight(%g : memref<300xf32>) rhs(%w : memref<300x64xf32>) outs(%c : memref<?x64xf32>) {partial = 0.25 : f32}
  return
}
