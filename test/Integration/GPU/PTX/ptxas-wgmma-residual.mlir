// The sm_90a warpgroup-MMA GEMM with the residual-add prologue
// (WarpgroupPrologue.cpp) as PTX for sm_90a: @bench is bench_fused.py's
// residual case (RMSNorm → matmul, bf16 4096³, γ, S, W as N×K, static),
// @bench_nosum the same without S, @bench_ln LayerNorm's (γ, β, S); @tails
// and @ln_tails dynamic-tail cases (K×N W, K = 1000, the statistics
// saved), all on the pipelined 64 × 128 block that a residual keeps by
// default. With ptxas each assembles without local memory (CUDA 13.0:
// 130–168 registers; @bench 162). At 128 × 256 (wgmma-block-m=128
// wgmma-block-n=256) the kernels assemble but spill (168 registers, 128 of
// them accumulators; 144–468 bytes): not the default.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa gpu-options={max-split-k=1}" -o %t.mlir
// RUN: rm -rf %t && %python %S/../Inputs/extract-ptx.py %t.mlir %t | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefixes=PTX,SUM < %t/bench_kernel.ptx
// RUN: FileCheck %s --check-prefixes=PTX,SUM < %t/ln_tails_kernel.ptx
// RUN: FileCheck %s --check-prefixes=PTX,NOSUM < %t/bench_nosum_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.mlir %t --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN %}
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" -o %t.256.mlir
// RUN: %if ptxas %{ rm -rf %t.256 && %python %S/../Inputs/extract-ptx.py %t.256.mlir %t.256 --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=ASSEMBLES %}

// Each op's wgmma kernel and its guarded mma.sync fallback (for buffers
// the host finds misaligned).
// EXTRACT: extracted 10 PTX modules
// CLEAN: extracted 10 PTX modules
// CLEAN-COUNT-10: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error
// ASSEMBLES: extracted 10 PTX modules
// ASSEMBLES-COUNT-10: Used {{[0-9]+}} registers
// ASSEMBLES-NOT: error

// PTX:          .target sm_90a
// PTX:          .maxntid 160, 1, 1
// A K tile: the stage's full barrier, x and r of a chunk from the two
// tiles 8 KiB apart (16-byte shared loads), added (LLVM folds the f32 add
// and the one rounding into the packed bf16 add, which gives the same
// bits: 24 ≥ 2·8 + 2 significand bits), with S a 16-byte global store,
// then the rewrite, the fence, the warpgroup's barrier and the MMAs.
// PTX:          mbarrier.try_wait.parity.shared.b64
// PTX:          ld.shared.v4.b32 {{.*}}, [[[ADDR:%rd[0-9]+]]];
// PTX-NEXT:     ld.shared.v4.b32 {{.*}}, [[[ADDR]]+8192];
// PTX-NEXT:     add.rn.bf16x2
// SUM:          st.global.v4.b32
// NOSUM-NOT:    st.global.v4.b32
// PTX:          fma.rn.f32
// PTX:          st.shared.v4.b32
// PTX:          fence.proxy.async.shared::cta;
// PTX:          bar.sync {{1|%r[0-9]+}}, 128;
// PTX:          wgmma.fence.sync.aligned
// PTX-COUNT-4:  wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX:          wgmma.wait_group.sync.aligned {{[[:space:]]*}}1;

func.func @bench(%x: memref<4096x4096xbf16>, %r: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>, %s: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) residual(%r : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) sum_outs(%s : memref<4096x4096xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}
func.func @bench_nosum(%x: memref<4096x4096xbf16>, %r: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) residual(%r : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) {epsilon = 1.0e-06 : f64, transpose_rhs}
  return
}
func.func @bench_ln(%x: memref<4096x4096xbf16>, %r: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %b: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>, %s: memref<4096x4096xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<4096x4096xbf16>) residual(%r : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) bias(%b : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) sum_outs(%s : memref<4096x4096xbf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  return
}
func.func @tails(%x: memref<?x1000xbf16>, %r: memref<?x1000xbf16>, %g: memref<1000xbf16>, %w: memref<1000x264xbf16>, %y: memref<?x264xbf16>, %s: memref<?x1000xbf16>, %rs: memref<?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x1000xbf16>) residual(%r : memref<?x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) outs(%y : memref<?x264xbf16>) sum_outs(%s : memref<?x1000xbf16>) rstd_outs(%rs : memref<?xf32>) {epsilon = 1.0e-06 : f64}
  return
}
func.func @ln_tails(%x: memref<?x1000xbf16>, %r: memref<?x1000xbf16>, %g: memref<1000xbf16>, %b: memref<1000xbf16>, %w: memref<1000x264xbf16>, %y: memref<?x264xbf16>, %s: memref<?x1000xbf16>, %m: memref<?xf32>, %rs: memref<?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xbf16>) residual(%r : memref<?x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) outs(%y : memref<?x264xbf16>) sum_outs(%s : memref<?x1000xbf16>) mean_outs(%m : memref<?xf32>) rstd_outs(%rs : memref<?xf32>) {epsilon = 1.0e-05 : f64}
  return
}
