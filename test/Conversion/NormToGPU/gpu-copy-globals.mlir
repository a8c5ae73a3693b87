// RUN: norm-opt %s --norm-gpu-copy-globals -split-input-file -verify-diagnostics | FileCheck %s

// Each memref.get_global of a function is copied into an allocated buffer,
// which every other use of the global then reads.
// CHECK-LABEL: func.func @scale
// CHECK:         %[[G:.*]] = memref.get_global @weights : memref<4xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[G]], %[[C]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    %{{.*}} = memref.load %[[C]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[C]]
// CHECK-NEXT:    return
memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @scale(%i: index, %v: f32) {
  %g = memref.get_global @weights : memref<4xf32>
  %x = memref.load %g[%i] : memref<4xf32>
  memref.store %v, %g[%i] : memref<4xf32>
  return
}

// -----

// A function without globals is left as it is.
// CHECK-LABEL: func.func @none
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NEXT:    return
func.func @none() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A global with a layout cannot be copied into a plain buffer: an error at
// the op.
memref.global "private" constant @strided : memref<2xf32, strided<[2]>> = dense<[1.0, 2.0]>
func.func @layout() {
  // expected-error @below {{norm-gpu-copy-globals: cannot copy a constant of type 'memref<2xf32, strided<[2]>>' into GPU-accessible memory}}
  %g = memref.get_global @strided : memref<2xf32, strided<[2]>>
  return
}
