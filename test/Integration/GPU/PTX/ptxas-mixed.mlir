// The norms with mixed element types (f32 γ/β with bf16/f16 x, f32 results)
// through --norm-lower-to-nvvm to PTX: two kernels (vector and scalar) per
// op; with ptxas, each assembles for sm_80 and sm_90 without local memory.
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" -o %t.sm90.mlir
// RUN: rm -rf %t.sm90 && %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 | FileCheck %s --check-prefix=EXTRACT
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 --ptxas %ptxas --arch sm_90 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o %t.sm80.mlir %}
// RUN: %if ptxas %{ rm -rf %t.sm80 && %python %S/../Inputs/extract-ptx.py %t.sm80.mlir %t.sm80 --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=CLEAN %}

// EXTRACT: extracted 6 PTX modules
// CLEAN-COUNT-6: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT: {{[1-9][0-9]* bytes (stack frame|spill|lmem)}}
// CLEAN-NOT: error

func.func @gemma(%x: memref<?x4096xbf16>, %g: memref<4096xf32>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xf32>)
    outs(%y : memref<?x4096xbf16>) {weight_offset = 1.0 : f32}
  return
}

func.func @llama(%x: memref<?x1024xbf16>, %g: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.rms_norm ins(%x : memref<?x1024xbf16>) weight(%g : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>) {cast_mode = #norm.cast_mode<before_weight>}
  return
}

func.func @layer_norm(%x: memref<?x768xf16>, %g: memref<768xf32>, %b: memref<768xf32>, %y: memref<?x768xf32>) {
  norm.layer_norm ins(%x : memref<?x768xf16>) weight(%g : memref<768xf32>)
    bias(%b : memref<768xf32>) outs(%y : memref<?x768xf32>)
  return
}
