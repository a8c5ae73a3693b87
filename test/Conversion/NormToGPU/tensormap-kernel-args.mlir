// RUN: norm-opt %s --norm-tensormap-kernel-args -split-input-file | FileCheck %s

// A TMA descriptor argument of a kernel becomes !llvm.ptr, cast back to the
// descriptor at the kernel's entry; the launch casts its operand to
// !llvm.ptr. Other arguments are left alone.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @load(%[[P:.*]]: !llvm.ptr, %[[N:.*]]: index) kernel
// CHECK-NEXT:      %[[D:.*]] = builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK-NEXT:      nvgpu.tma.prefetch.descriptor %[[D]]
// CHECK-LABEL: func.func @host
// CHECK-SAME:    (%[[MAP:.*]]: !nvgpu.tensormap.descriptor{{.*}}, %[[M:.*]]: index)
// CHECK:         %[[CAST:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !nvgpu.tensormap.descriptor{{.*}} to !llvm.ptr
// CHECK-NEXT:    gpu.launch_func @kernels::@load {{.*}} args(%[[CAST]] : !llvm.ptr, %[[M]] : index)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @load(%map: !map, %n: index) kernel {
      nvgpu.tma.prefetch.descriptor %map : !map
      gpu.return
    }
  }
  func.func @host(%map: !map, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%map : !map, %m : index)
    return
  }
}

// -----

// No descriptor: nothing changes.
// CHECK-LABEL: gpu.module @plain
// CHECK:         gpu.func @scale(%{{.*}}: memref<?xf32>, %{{.*}}: index) kernel
// CHECK-NOT:     unrealized_conversion_cast
// CHECK-LABEL: func.func @launch
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         gpu.launch_func @plain::@scale {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index)
module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @scale(%x: memref<?xf32>, %n: index) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @plain::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %n : index)
    return
  }
}
