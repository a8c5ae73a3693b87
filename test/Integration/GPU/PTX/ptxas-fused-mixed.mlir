// The fused norm/matmul GEMMs with mixed element types (f32 γ/β staged
// beside bf16/f16 tiles, f32 outputs of bf16/f16 MMAs, an f32 pre-norm sum)
// through --norm-lower-to-nvvm to PTX; with ptxas, every kernel assembles
// for sm_80, sm_90 and sm_90a without local memory. Split-K is on (the default):
// @gemma's K of 2048 with few output blocks takes the slice and reduction
// kernels too.
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" -o %t.sm90.mlir
// RUN: rm -rf %t.sm90 && %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefix=GEMMA < %t.sm90/gemma_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 --ptxas %ptxas --arch sm_90 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o %t.sm80.mlir %}
// RUN: %if ptxas %{ rm -rf %t.sm80 && %python %S/../Inputs/extract-ptx.py %t.sm80.mlir %t.sm80 --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=CLEAN %}
// On sm_90a the GEMM of @f32_sum (no prologue) is the warpgroup kernel:
// bf16 wgmma into f32 accumulators, S stored at f32.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa" -o %t.sm90a.mlir
// RUN: rm -rf %t.sm90a && %python %S/../Inputs/extract-ptx.py %t.sm90a.mlir %t.sm90a | FileCheck %s --check-prefix=EXTRACT90A
// RUN: cat %t.sm90a/f32_sum_kernel*.ptx | FileCheck %s --check-prefix=WGMMA
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90a.mlir %t.sm90a --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN90A %}

// Per op the cp.async and guarded GEMMs and a split-K slice and reduction
// kernel; @f32_sum's two row kernels besides.
// EXTRACT: extracted 14 PTX modules
// CLEAN: extracted 14 PTX modules
// CLEAN-COUNT-14: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error
// On sm_90a the split-K slices are the warpgroup kernel's, over K tiles of
// 64 (at least 8 a slice): @gemma (K = 2048) splits, the K of 768 and 512
// do not (the unsplit wgmma kernel). Per op the wgmma and guarded GEMMs,
// @gemma's slices and reduction, @f32_sum's row kernels.
// EXTRACT90A: extracted 10 PTX modules
// CLEAN90A: extracted 10 PTX modules
// CLEAN90A-COUNT-10: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN90A-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN90A-NOT: error

// WGMMA: wgmma.mma_async.sync.aligned.{{.*}}.f32.bf16.bf16

// The f32 γ: 16-byte cp.async copies beside the bf16 tiles', bf16 MMAs.
// GEMMA: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{%r[0-9]+}};
// GEMMA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

func.func @gemma(%x: memref<?x2048xbf16>, %g: memref<2048xf32>, %w: memref<256x2048xbf16>, %c: memref<?x256xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x2048xbf16>) weight(%g : memref<2048xf32>)
    rhs(%w : memref<256x2048xbf16>) outs(%c : memref<?x256xbf16>)
    {weight_offset = 1.0 : f32, transpose_rhs}
  return
}

func.func @layer_norm_f32_output(%x: memref<?x768xf16>, %g: memref<768xf32>, %b: memref<768xf32>, %w: memref<768x256xf16>, %mb: memref<256xf32>, %c: memref<?x256xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xf16>) weight(%g : memref<768xf32>)
    bias(%b : memref<768xf32>) rhs(%w : memref<768x256xf16>)
    matmul_bias(%mb : memref<256xf32>) outs(%c : memref<?x256xf32>)
  return
}

func.func @f32_sum(%a: memref<?x512xbf16>, %w: memref<512x1024xbf16>, %h: memref<?x1024xf32>, %g: memref<1024xf32>, %y: memref<?x1024xf32>, %s: memref<?x1024xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x512xbf16>) rhs(%w : memref<512x1024xbf16>)
    residual(%h : memref<?x1024xf32>) weight(%g : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>) sum_outs(%s : memref<?x1024xf32>)
  return
}
