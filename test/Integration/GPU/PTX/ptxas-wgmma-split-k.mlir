// The split-K sm_90a warpgroup-MMA GEMM as PTX for sm_90a, on decode
// shapes (the default split): RMSNorm → matmul bf16 16 × 4096 × 4096 with
// γ (8 slices) and LayerNorm → matmul f16 16 × 1536 → 1024 with a residual,
// γ, β, S, mean and rstd (3 slices; each slice's pivot tile on a barrier
// of its own). Each op is its slices' wgmma kernel, the reduction and the
// guarded mma.sync fallback; with ptxas each assembles without local
// memory.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa" -o %t.mlir
// RUN: rm -rf %t && %python %S/../Inputs/extract-ptx.py %t.mlir %t | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefix=PTX < %t/decode_rms_kernel.ptx
// RUN: FileCheck %s --check-prefixes=PTX,LN < %t/decode_ln_residual_kernel.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.mlir %t --ptxas %ptxas --arch sm_90a | FileCheck %s --check-prefix=CLEAN %}

// EXTRACT: extracted 6 PTX modules
// CLEAN: extracted 6 PTX modules
// CLEAN-COUNT-6: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error

// PTX:          .target sm_90a
// PTX:          .maxntid 160, 1, 1
// LN:           cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__mbarrier+48]
// LN:           mbarrier.try_wait.parity.shared.b64
// LN:           bar.sync 0;
// PTX:          wgmma.mma_async.sync.aligned.m64n128k16.f32
// PTX:          st.global.v2.b32
func.func @decode_rms(%x: memref<16x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<16x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<16x4096xbf16>)
  return
}

func.func @decode_ln_residual(%x: memref<16x1536xf16>, %r: memref<16x1536xf16>, %g: memref<1536xf16>, %b: memref<1536xf16>,
                              %w: memref<1024x1536xf16>, %c: memref<16x1024xf16>, %s: memref<16x1536xf16>,
                              %mean: memref<16xf32>, %rstd: memref<16xf32>) {
  norm.layer_norm_matmul ins(%x : memref<16x1536xf16>) residual(%r : memref<16x1536xf16>) weight(%g : memref<1536xf16>) bias(%b : memref<1536xf16>)
    rhs(%w : memref<1024x1536xf16>) outs(%c : memref<16x1024xf16>) sum_outs(%s : memref<16x1536xf16>)
    mean_outs(%mean : memref<16xf32>) rstd_outs(%rstd : memref<16xf32>) {transpose_rhs}
  return
}
