// RUN: norm-opt %s -split-input-file --norm-lower-to-cpu | FileCheck %s

// Valid memref-form norm ops through the CPU pipeline. The pipeline
// decomposes norm ops after bufferization and deallocation, so the
// decomposition's own memref.dealloc of its temporaries no longer meets the
// ownership-based deallocation (which rejected them before).

// CHECK-LABEL: llvm.func @layer_norm_memref
func.func @layer_norm_memref(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  norm.layer_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>)
  return
}

// -----

// CHECK-LABEL: llvm.func @rms_norm_matmul_memref
func.func @rms_norm_matmul_memref(%x: memref<?x33xbf16>, %w: memref<20x33xbf16>, %e: memref<?x20xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x33xbf16>) rhs(%w : memref<20x33xbf16>) outs(%e : memref<?x20xbf16>) {transpose_rhs}
  return
}
