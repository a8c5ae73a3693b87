// RUN: norm-opt %s --norm-gpu-host-shared-allocs -split-input-file | FileCheck %s

// Every memref.alloc of a function becomes managed memory (gpu.alloc
// host_shared, with its dynamic sizes) and every memref.dealloc a
// gpu.dealloc.
// CHECK-LABEL: func.func @buffers
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[A:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?x8xf32>
// CHECK-NEXT:    %[[B:.*]] = gpu.alloc  host_shared () : memref<8xbf16>
// CHECK-NEXT:    gpu.dealloc  %[[A]] : memref<?x8xf32>
// CHECK-NEXT:    gpu.dealloc  %[[B]] : memref<8xbf16>
// CHECK-NEXT:    return
func.func @buffers(%n: index) {
  %a = memref.alloc(%n) : memref<?x8xf32>
  %b = memref.alloc() : memref<8xbf16>
  memref.dealloc %a : memref<?x8xf32>
  memref.dealloc %b : memref<8xbf16>
  return
}

// -----

// No memref.alloc or memref.dealloc: nothing changes (stack buffers and
// GPU allocations are left alone).
// CHECK-LABEL: func.func @none
// CHECK-NEXT:    %[[S:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    %[[G:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[G]] : memref<4xf32>
// CHECK-NEXT:    return
func.func @none() {
  %s = memref.alloca() : memref<4xf32>
  %g = gpu.alloc () : memref<4xf32>
  gpu.dealloc %g : memref<4xf32>
  return
}
