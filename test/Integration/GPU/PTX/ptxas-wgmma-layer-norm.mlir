// The sm_90a warpgroup-MMA GEMM with the LayerNorm prologue
// (WarpgroupPrologue.cpp) as PTX for sm_90a: @bench is bench_fused.py's
// LayerNorm case (bf16 4096³, γ, β, W as N×K, static), @tails a
// dynamic-tail case (K×N W, the statistics saved), both on the pipelined
// 64 × 128 block that LayerNorm keeps by default. With ptxas each
// assembles without local memory (CUDA 13.0: 128–136 registers). At
// 128 × 256 (wgmma-block-m=128 wgmma-block-n=256) the kernels assemble
// but spill (168 registers, 128 of them accumulators): not the default.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa gpu-options={max-split-k=1}" -o %t.mlir
// RUN: rm -rf %t && %python %S/../Inputs/extract-ptx.py %t.mlir %t | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefixes=PTX,PTX128 < %t/bench_kernel.ptx
// RUN: FileCheck %s --check-prefixes=PTX,PTX128 < %t/tails_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.mlir %t --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN %}
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa gpu-options={max-split-k=1 wgmma-block-m=128 wgmma-block-n=256}" -o %t.256.mlir
// RUN: rm -rf %t.256 && %python %S/../Inputs/extract-ptx.py %t.256.mlir %t.256 | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefixes=PTX,PTX256 < %t.256/bench_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.256.mlir %t.256 --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=ASSEMBLES %}

// Each op's wgmma kernel and its guarded mma.sync fallback (for buffers
// the host finds misaligned).
// EXTRACT: extracted 4 PTX modules
// CLEAN: extracted 4 PTX modules
// CLEAN-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error
// ASSEMBLES: extracted 4 PTX modules
// ASSEMBLES-COUNT-4: Used {{[0-9]+}} registers
// ASSEMBLES-NOT: error

// PTX:          .target sm_90a
// PTX256:       .maxntid 288, 1, 1
// PTX128:       .maxntid 160, 1, 1
// The pivot: K tile 0's barrier, then the warpgroup's named barrier.
// PTX:          mbarrier.try_wait.parity.shared.b64
// PTX:          bar.sync {{1|%r[0-9]+}}, 128;
// A K tile: the rewrite, the fence and the barrier, the MMAs, the column
// sums (fma) while they run, wait_group 1.
// PTX:          mbarrier.try_wait.parity.shared.b64
// PTX:          st.shared.v4.b32
// PTX:          fence.proxy.async.shared::cta;
// PTX:          bar.sync {{1|%r[0-9]+}}, 128;
// PTX:          wgmma.fence.sync.aligned
// PTX256-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX128-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX:          wgmma.commit_group.sync.aligned
// PTX:          fma.rn.f32
// PTX:          wgmma.wait_group.sync.aligned {{[[:space:]]*}}1;

func.func @bench(%x: memref<4096x4096xbf16>, %g: memref<4096xbf16>, %b: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %y: memref<4096x4096xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<4096x4096xbf16>) weight(%g : memref<4096xbf16>) bias(%b : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%y : memref<4096x4096xbf16>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  return
}

func.func @tails(%x: memref<?x1000xbf16>, %g: memref<1000xbf16>, %b: memref<1000xbf16>, %w: memref<1000x264xbf16>, %y: memref<?x264xbf16>, %m: memref<?xf32>, %rs: memref<?xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x264xbf16>) outs(%y : memref<?x264xbf16>) mean_outs(%m : memref<?xf32>) rstd_outs(%rs : memref<?xf32>) {epsilon = 1.0e-05 : f64}
  return
}
