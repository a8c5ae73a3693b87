// RUN: norm-opt %s --norm-outline-kernels="min-sites=2" | FileCheck %s

// With min-sites=2 (norm-lower-to-nvvm's setting), only a kernel that at
// least two sites of the module share becomes a function, named in the
// order of its first site; a kernel with one site stays where it is.
// Sites in two functions count together.
// CHECK-LABEL: func.func @first
// CHECK-SAME:    (%[[X:arg[0-9]+]]: memref<4x8xf32>, %[[G:arg[0-9]+]]: memref<8xf32>, %[[A:arg[0-9]+]]: memref<4x8xf32>, %[[B:arg[0-9]+]]: memref<4x8xf32>, %[[D:arg[0-9]+]]: memref<2x8xf32>, %[[E:arg[0-9]+]]: memref<2x8xf32>)
// CHECK-NEXT:    norm.rms_norm ins(%[[D]] : memref<2x8xf32>)
// CHECK-NEXT:    call @__norm_kernel_0_norm_rms_norm(%[[X]], %[[G]], %[[A]]) {no_inline}
// CHECK-NEXT:    linalg.exp ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT:    call @__norm_kernel_1_norm_layer_norm(%[[A]], %[[B]]) {no_inline}
// CHECK-NEXT:    return
// CHECK:       func.func private @__norm_kernel_0_norm_rms_norm(
// CHECK:       func.func private @__norm_kernel_1_norm_layer_norm(
// CHECK-LABEL: func.func @second
// CHECK-NEXT:    call @__norm_kernel_0_norm_rms_norm(
// CHECK-NEXT:    call @__norm_kernel_1_norm_layer_norm(
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    return
// CHECK-NOT:   func.func
func.func @first(%x: memref<4x8xf32>, %g: memref<8xf32>, %a: memref<4x8xf32>,
    %b: memref<4x8xf32>, %d: memref<2x8xf32>, %e: memref<2x8xf32>) {
  norm.rms_norm ins(%d : memref<2x8xf32>) weight(%g : memref<8xf32>) outs(%e : memref<2x8xf32>)
  norm.rms_norm ins(%x : memref<4x8xf32>) weight(%g : memref<8xf32>) outs(%a : memref<4x8xf32>)
  linalg.exp ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  norm.layer_norm ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  return
}

func.func @second(%x: memref<4x8xf32>, %g: memref<8xf32>, %a: memref<4x8xf32>,
    %b: memref<4x8xf32>, %y: memref<3x8xf32>, %z: memref<3x8xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) weight(%g : memref<8xf32>) outs(%a : memref<4x8xf32>)
  norm.layer_norm ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  linalg.exp ins(%y : memref<3x8xf32>) outs(%z : memref<3x8xf32>)
  return
}
