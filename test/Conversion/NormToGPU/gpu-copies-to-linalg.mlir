// norm-gpu-copies-to-linalg: the host's memref.copy ops (RoPE's half
// rotation writes two strided halves) become linalg.copy, for the
// linalg → loops → kernels path of --norm-lower-to-nvvm when both buffers
// are views of gpu.alloc; copies of host buffers (memref.alloc, arguments),
// in device code, rank-0 and unranked copies stay.
// RUN: norm-opt %s --norm-gpu-copies-to-linalg | FileCheck %s
// RUN: norm-opt %s --norm-gpu-copies-to-linalg --convert-linalg-to-parallel-loops --norm-gpu-map-host-loops --convert-parallel-loops-to-gpu | FileCheck %s --check-prefix=KERNEL

// CHECK-LABEL: func.func @rope_halves
// CHECK-SAME:    (%[[A:.*]]: memref<16x128x32xf32>)
// CHECK:         %[[Y:.*]] = gpu.alloc host_shared () : memref<16x128x64xf32>
// CHECK:         %[[LO:.*]] = memref.subview %[[Y]][0, 0, 0] [16, 128, 32] [1, 1, 1]
// CHECK:         memref.copy %[[A]], %[[LO]]
// CHECK:         %[[B:.*]] = gpu.alloc () : memref<16x128x32xf32>
// CHECK:         %[[HI:.*]] = memref.subview %[[Y]][0, 0, 32] [16, 128, 32] [1, 1, 1]
// CHECK:         linalg.copy ins(%[[B]] : memref<16x128x32xf32>) outs(%[[HI]] : memref<16x128x32xf32, strided<[8192, 64, 1], offset: 32>>)
// CHECK:         %[[C:.*]] = memref.cast %[[B]]
// CHECK:         linalg.copy ins(%[[LO]] : {{.*}}) outs(%[[C]] : memref<?x128x32xf32>)
// CHECK-NOT:     memref.copy
// KERNEL-LABEL: func.func @rope_halves
// KERNEL:       memref.copy
// KERNEL-COUNT-2: gpu.launch
// KERNEL-NOT:   memref.copy
func.func @rope_halves(%a: memref<16x128x32xf32>) -> memref<16x128x64xf32> {
  %y = gpu.alloc host_shared () : memref<16x128x64xf32>
  %lo = memref.subview %y[0, 0, 0] [16, 128, 32] [1, 1, 1] : memref<16x128x64xf32> to memref<16x128x32xf32, strided<[8192, 64, 1]>>
  // An argument: the caller may have allocated it on the host.
  memref.copy %a, %lo : memref<16x128x32xf32> to memref<16x128x32xf32, strided<[8192, 64, 1]>>
  %b = gpu.alloc () : memref<16x128x32xf32>
  %hi = memref.subview %y[0, 0, 32] [16, 128, 32] [1, 1, 1] : memref<16x128x64xf32> to memref<16x128x32xf32, strided<[8192, 64, 1], offset: 32>>
  memref.copy %b, %hi : memref<16x128x32xf32> to memref<16x128x32xf32, strided<[8192, 64, 1], offset: 32>>
  %c = memref.cast %b : memref<16x128x32xf32> to memref<?x128x32xf32>
  memref.copy %lo, %c : memref<16x128x32xf32, strided<[8192, 64, 1]>> to memref<?x128x32xf32>
  return %y : memref<16x128x64xf32>
}

// CHECK-LABEL: func.func @left_alone
// KERNEL-LABEL: func.func @left_alone
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<*xf32> to memref<*xf32>
// CHECK:         gpu.launch
// CHECK:           memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32>
// CHECK-NOT:     linalg.copy
func.func @left_alone(%s: memref<f32>, %t: memref<f32>, %u: memref<*xf32>, %v: memref<*xf32>, %p: memref<4xf32>, %q: memref<4xf32>) {
  // A host buffer (a test's reference copy): a kernel cannot reach it.
  %d = gpu.alloc host_shared () : memref<4xf32>
  %h = memref.alloc() : memref<4xf32>
  memref.copy %d, %h : memref<4xf32> to memref<4xf32>
  memref.copy %s, %t : memref<f32> to memref<f32>
  memref.copy %u, %v : memref<*xf32> to memref<*xf32>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.copy %p, %q : memref<4xf32> to memref<4xf32>
    gpu.terminator
  }
  return
}
