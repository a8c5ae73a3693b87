// RUN: norm-opt %s --norm-gpu-device-intermediates -split-input-file | FileCheck %s

// Buffers only kernels touch (directly, through views and casts, freed by
// gpu.dealloc, their shape read) become device memory; the one the
// function returns, the one the host loads from (through a view), the one
// passed to a call and the one a branch yields stay managed.
// CHECK-LABEL: func.func @intermediates
// CHECK:         %[[A:.*]] = gpu.alloc  () : memref<4x16xf32>
// CHECK:         %[[B:.*]] = gpu.alloc  () : memref<64xf32>
// CHECK:         %[[C:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// CHECK:         %[[D:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// CHECK:         %[[E:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// CHECK:         %[[F:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// An async allocation is left to whoever chained it.
// CHECK:         gpu.alloc async [%{{.*}}] host_shared () : memref<64xf32>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<?xf32, strided<[1], offset: ?>>) kernel { gpu.return }
  }
  func.func private @use(memref<64xf32>)
  func.func @intermediates(%x: memref<64xf32>, %cond: i1) -> (memref<64xf32>, f32, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %a = gpu.alloc host_shared () : memref<4x16xf32>
    %b = gpu.alloc host_shared () : memref<64xf32>
    %c = gpu.alloc host_shared () : memref<64xf32>
    %d = gpu.alloc host_shared () : memref<64xf32>
    %e = gpu.alloc host_shared () : memref<64xf32>
    %f = gpu.alloc host_shared () : memref<64xf32>
    %t = gpu.wait async
    %g, %t1 = gpu.alloc async [%t] host_shared () : memref<64xf32>
    %a1 = memref.collapse_shape %a [[0, 1]] : memref<4x16xf32> into memref<64xf32>
    %a2 = memref.subview %a1[%c8] [%c8] [1] : memref<64xf32> to memref<?xf32, strided<[1], offset: ?>>
    %b1 = memref.cast %b : memref<64xf32> to memref<?xf32>
    %b2 = memref.reinterpret_cast %b1 to offset: [0], sizes: [%c8], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %n = memref.dim %b1, %c0 : memref<?xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<64xf32>, %a2 : memref<?xf32, strided<[1], offset: ?>>)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%c : memref<64xf32>, %b2 : memref<?xf32, strided<[1], offset: ?>>)
    %c2 = memref.subview %c[%c8] [%c8] [1] : memref<64xf32> to memref<?xf32, strided<[1], offset: ?>>
    %v = memref.load %c2[%c0] : memref<?xf32, strided<[1], offset: ?>>
    func.call @use(%d) : (memref<64xf32>) -> ()
    %y = scf.if %cond -> memref<64xf32> {
      scf.yield %e : memref<64xf32>
    } else {
      scf.yield %x : memref<64xf32>
    }
    gpu.dealloc %a : memref<4x16xf32>
    gpu.dealloc %b : memref<64xf32>
    gpu.dealloc %c : memref<64xf32>
    gpu.dealloc %d : memref<64xf32>
    %t2 = gpu.dealloc async [%t1] %g : memref<64xf32>
    gpu.wait [%t2]
    return %f, %v, %n : memref<64xf32>, f32, index
  }
}
