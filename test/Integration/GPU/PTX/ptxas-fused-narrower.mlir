// The matmul → norm ops with f32 A and W and a 16-bit S and Y (docs/design.md,
// "Mixed element types in the fused ops") through --norm-lower-to-nvvm to
// PTX: the SIMT GEMMs round S to bf16/f16 as they store it (the split-K
// reduction too), the row kernels normalize it; with ptxas, every kernel
// assembles for sm_80 and sm_90 without local memory.
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" -o %t.sm90.mlir
// RUN: rm -rf %t.sm90 && %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 | FileCheck %s --check-prefix=EXTRACT
// RUN: cat %t.sm90/rms_bf16_kernel*.ptx | FileCheck %s --check-prefix=BF16 --implicit-check-not=mma.sync
// RUN: cat %t.sm90/ln_f16_kernel*.ptx | FileCheck %s --check-prefix=F16 --implicit-check-not=mma.sync
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 --ptxas %ptxas --arch sm_90 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o %t.sm80.mlir %}
// RUN: %if ptxas %{ rm -rf %t.sm80 && %python %S/../Inputs/extract-ptx.py %t.sm80.mlir %t.sm80 --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=CLEAN %}

// Per op: the cp.async GEMM, its split-K slice and reduction kernels, the
// guarded-load GEMM, and the two row kernels of the norm of S.
// EXTRACT: extracted 12 PTX modules
// CLEAN: extracted 12 PTX modules
// CLEAN-COUNT-12: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error

// f32 FMAs, no tensor-core instruction, S rounded to bf16 / f16.
// BF16: fma.rn.f32
// BF16: cvt.rn.bf16.f32
// F16: fma.rn.f32
// F16: cvt.rn.f16.f32

func.func @rms_bf16(%a: memref<?x1024xf32>, %w: memref<1024x256xf32>,
                    %r: memref<?x256xbf16>, %g: memref<256xbf16>,
                    %y: memref<?x256xbf16>, %s: memref<?x256xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x1024xf32>) rhs(%w : memref<1024x256xf32>)
    residual(%r : memref<?x256xbf16>) weight(%g : memref<256xbf16>)
    outs(%y : memref<?x256xbf16>) sum_outs(%s : memref<?x256xbf16>)
  return
}

func.func @ln_f16(%a: memref<?x512xf32>, %w: memref<96x512xf32>,
                  %g: memref<96xf32>, %b: memref<96xf32>,
                  %y: memref<?x96xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x512xf32>) rhs(%w : memref<96x512xf32>)
    weight(%g : memref<96xf32>) bias(%b : memref<96xf32>)
    outs(%y : memref<?x96xf16>) {transpose_rhs}
  return
}
