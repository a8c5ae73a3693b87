// RUN: norm-opt %s --split-input-file --allow-unregistered-dialect --norm-gpu-merge-kernels | FileCheck %s

// Two modules equal but for their names (other locations too) are one:
// the first stays, with its name, and the second's launches use it. A
// module with another body (another constant), another kernel attribute
// (known_grid_size), another target or a global of another name stays; a
// kernel of another name in an equal module is the same kernel.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.module @f_kernel [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:      gpu.func @f_kernel(%{{.*}}: memref<8xf32>) kernel
// CHECK-NOT:     gpu.module @f_kernel_0
// CHECK:         gpu.module @f_kernel_1
// CHECK:         gpu.module @f_kernel_2
// CHECK:         gpu.module @f_kernel_3
// CHECK:         gpu.module @f_kernel_4
// CHECK:         gpu.module @f_kernel_5
// CHECK-NOT:     gpu.module @f_kernel_6
// CHECK-LABEL:   func.func @f
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      gpu.launch_func  @f_kernel::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_1::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_2::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_3::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_4::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_5::@f_kernel
// CHECK-NEXT:      gpu.launch_func  @f_kernel_5::@f_kernel
// CHECK-NEXT:      return
module attributes {gpu.container_module} {
  gpu.module @f_kernel [#nvvm.target<chip = "sm_90">] {
    gpu.func @f_kernel(%m: memref<8xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
      %i = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 [#nvvm.target<chip = "sm_90">] {
    gpu.func @f_kernel(%m: memref<8xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
      %i = gpu.thread_id x loc("elsewhere":1:1)
      %c = arith.constant 1.0 : f32
      memref.store %c, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 [#nvvm.target<chip = "sm_90">] {
    gpu.func @f_kernel(%m: memref<8xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
      %i = gpu.thread_id x
      %c = arith.constant 2.0 : f32
      memref.store %c, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_2 [#nvvm.target<chip = "sm_90">] {
    gpu.func @f_kernel(%m: memref<8xf32>) kernel attributes {known_grid_size = array<i32: 2, 1, 1>} {
      %i = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_3 [#nvvm.target<chip = "sm_80">] {
    gpu.func @f_kernel(%m: memref<8xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
      %i = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_4 [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @a : memref<8xf32, 3>
    gpu.func @f_kernel(%m: memref<8xf32>) kernel {
      %g = memref.get_global @a : memref<8xf32, 3>
      gpu.return
    }
  }
  gpu.module @f_kernel_5 [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @b : memref<8xf32, 3>
    gpu.func @f_kernel(%m: memref<8xf32>) kernel {
      %g = memref.get_global @b : memref<8xf32, 3>
      gpu.return
    }
  }
  gpu.module @f_kernel_6 [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @b : memref<8xf32, 3>
    gpu.func @other_name(%m: memref<8xf32>) kernel {
      %g = memref.get_global @b : memref<8xf32, 3>
      gpu.return
    }
  }
  func.func @f(%m: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_2::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_3::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_4::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_5::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @f_kernel_6::@other_name blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>)
    return
  }
}

// -----

// A module that something other than a launch names is kept, and still
// takes the launches of a later equal module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.module @k
// CHECK:         gpu.module @k_0
// CHECK-NOT:     gpu.module
// CHECK-LABEL:   func.func @g
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      gpu.launch_func  @k::@k
// CHECK-NEXT:      gpu.launch_func  @k::@k
// CHECK-NEXT:      "test.user"() {ref = @k_0::@k}
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @k_0 {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @k_1 {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @g() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k_1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    "test.user"() {ref = @k_0::@k} : () -> ()
    return
  }
}
