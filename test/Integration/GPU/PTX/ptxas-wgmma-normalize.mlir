// The sm_90a warpgroup-MMA GEMM on normalizesA problems (cast_mode,
// pRMSNorm: the rows' statistics from a pass before the K loop, each A
// tile rewritten as the normalized activations) as PTX for sm_90a: @gemma
// is Gemma 3's order at the bench's static 4096³ (f32 γ + 1, after_weight,
// W as N×K), on the pipelined 128 × 256 block the schedule picks for it;
// @prms_decode pRMSNorm p = 0.25 with γ and rstd at decode shape (16 ×
// 4096 × 4096: 8 split-K slices and the reduction, beside the unsplit
// kernel); @ln_residual LayerNorm with cast_mode before_weight, a residual,
// γ, β, S, mean and rstd, dynamic M (split or not at run time). With
// ptxas each kernel assembles without local memory (CUDA 13.0; registers:
// docs/design.md, "cast_mode and pRMSNorm").
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa" -o %t.mlir
// RUN: rm -rf %t && %python %S/../Inputs/extract-ptx.py %t.mlir %t | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefix=PTX < %t/gemma_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.mlir %t --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN %}

// Each op's wgmma kernel(s), split-K's reduction, and the guarded mma.sync
// fallback (for buffers the host finds misaligned).
// EXTRACT: extracted 9 PTX modules
// CLEAN: extracted 9 PTX modules
// CLEAN-COUNT-9: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error

// The pass over the rows (global loads of X, the pair's shuffle), then per
// K tile: the stage's full barrier, rstd from shared memory, the chunk of
// x and of γ, the normalized chunk stored back, the fence, the
// warpgroup's barrier and the MMAs.
// PTX:          .target sm_90a
// PTX:          .maxntid 288, 1, 1
// PTX:          ld.global.b16
// PTX:          shfl.sync.bfly.b32
// PTX:          rsqrt.approx.f32
// PTX:          mbarrier.try_wait.parity.shared.b64
// PTX:          ld.shared.b32
// PTX:          ld.shared.v4.b32
// PTX:          ld.global.v4.b32
// PTX:          st.shared.v4.b32
// PTX:          fence.proxy.async.shared::cta;
// PTX:          bar.sync {{1|%r[0-9]+}}, 128;
// PTX:          wgmma.fence.sync.aligned
// PTX-COUNT-4:  wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16

func.func @gemma(%x: memref<4096x4096xbf16>, %g: memref<4096xf32>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4096x4096xbf16>) weight(%g : memref<4096xf32>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) {cast_mode = #norm.cast_mode<after_weight>, epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  return
}
func.func @prms_decode(%x: memref<16x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<16x4096xbf16>, %rs: memref<16xf32>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<16x4096xbf16>) rstd_outs(%rs : memref<16xf32>) {epsilon = 1.0e-06 : f64, partial = 0.25 : f32, transpose_rhs}
  return
}
func.func @ln_residual(%x: memref<?x1000xbf16>, %r: memref<?x1000xbf16>, %g: memref<1000xbf16>, %b: memref<1000xbf16>, %w: memref<1000x264xbf16>, %y: memref<?x264xbf16>, %s: memref<?x1000xbf16>, %m: memref<?xf32>, %rs: memref<?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xbf16>) residual(%r : memref<?x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) outs(%y : memref<?x264xbf16>) sum_outs(%s : memref<?x1000xbf16>) mean_outs(%m : memref<?xf32>) rstd_outs(%rs : memref<?xf32>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 1.0e-05 : f64}
  return
}
