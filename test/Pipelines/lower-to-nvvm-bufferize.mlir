// RUN: norm-opt %s --split-input-file --norm-lower-to-nvvm-bufferize | FileCheck %s

// The first stage of --norm-lower-to-nvvm on a module with tensors: the CPU
// pipeline's clean-up (arith on tensors as one fused linalg.generic) and
// bufferization, then every buffer GPU-accessible: the constant copied out
// of its host global, the allocations managed memory, freed with
// gpu.dealloc.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME:      %[[X:.*]]: memref<4xf32>) -> memref<4xf32>
// CHECK:         %[[G:.*]] = memref.get_global
// CHECK:         %[[W:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         memref.copy %[[G]], %[[W]]
// CHECK:         %[[Y:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[W]] : memref<4xf32>, memref<4xf32>) outs(%[[Y]] : memref<4xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         gpu.dealloc %[[W]]
// CHECK:         return %[[Y]]
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.mulf %x, %w : tensor<4xf32>
  %z = arith.addf %y, %x : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// A module without tensors is left as it is: its buffers are the caller's
// to make device-accessible, and its own deallocations would be refused by
// the ownership-based deallocation.
// CHECK-LABEL: func.func @buffers(
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[M]]
// CHECK-NEXT:    memref.dealloc %[[M]]
// CHECK-NEXT:    return
func.func @buffers(%x: memref<4xf32>) {
  %m = memref.alloc() : memref<4xf32>
  memref.copy %x, %m : memref<4xf32> to memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
