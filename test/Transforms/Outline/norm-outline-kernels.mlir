// RUN: norm-opt %s --split-input-file --norm-outline-kernels | FileCheck %s
// The calls are no_inline: MLIR's inliner leaves them.
// RUN: norm-opt %s --split-input-file --norm-outline-kernels --inline | FileCheck %s --check-prefix=INLINER

// Two equal norm ops (other buffers, other weights) are one function with
// two calls; another epsilon or another shape is another function. Each
// new function goes after the function that first calls it, private, with
// internal LLVM linkage.
// CHECK-LABEL: func.func @equal_and_distinct
// CHECK-SAME:    (%[[X:arg[0-9]+]]: memref<4x8xf32>, %[[G0:arg[0-9]+]]: memref<8xf32>, %[[G1:arg[0-9]+]]: memref<8xf32>, %[[A:arg[0-9]+]]: memref<4x8xf32>, %[[B:arg[0-9]+]]: memref<4x8xf32>, %[[C:arg[0-9]+]]: memref<4x8xf32>, %[[D:arg[0-9]+]]: memref<2x8xf32>, %[[E:arg[0-9]+]]: memref<2x8xf32>)
// CHECK-NEXT:    call @__norm_kernel_0_norm_rms_norm(%[[X]], %[[G0]], %[[A]]) {no_inline} : (memref<4x8xf32>, memref<8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT:    call @__norm_kernel_0_norm_rms_norm(%[[A]], %[[G1]], %[[B]]) {no_inline}
// CHECK-NEXT:    call @__norm_kernel_1_norm_rms_norm(%[[B]], %[[G0]], %[[C]]) {no_inline}
// CHECK-NEXT:    call @__norm_kernel_2_norm_rms_norm(%[[D]], %[[G0]], %[[E]]) {no_inline}
// CHECK-NEXT:    return
// CHECK:       func.func private @__norm_kernel_0_norm_rms_norm(%[[KX:arg[0-9]+]]: memref<4x8xf32>, %[[KG:arg[0-9]+]]: memref<8xf32>, %[[KY:arg[0-9]+]]: memref<4x8xf32>) attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK-NEXT:    norm.rms_norm ins(%[[KX]] : memref<4x8xf32>) weight(%[[KG]] : memref<8xf32>) outs(%[[KY]] : memref<4x8xf32>)
// CHECK-NEXT:    return
// CHECK:       func.func private @__norm_kernel_1_norm_rms_norm(
// CHECK:         norm.rms_norm {{.*}} {epsilon = 9.99999974E-6 : f32}
// CHECK:       func.func private @__norm_kernel_2_norm_rms_norm(%{{.*}}: memref<2x8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<2x8xf32>)
// CHECK-NOT:   func.func private
// INLINER-LABEL: func.func @equal_and_distinct
// INLINER-COUNT-4: call @__norm_kernel_
// INLINER-NOT: norm.rms_norm
// INLINER: return
func.func @equal_and_distinct(%x: memref<4x8xf32>, %g0: memref<8xf32>, %g1: memref<8xf32>,
    %a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<4x8xf32>,
    %d: memref<2x8xf32>, %e: memref<2x8xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) weight(%g0 : memref<8xf32>) outs(%a : memref<4x8xf32>)
  norm.rms_norm ins(%a : memref<4x8xf32>) weight(%g1 : memref<8xf32>) outs(%b : memref<4x8xf32>)
  norm.rms_norm ins(%b : memref<4x8xf32>) weight(%g0 : memref<8xf32>) outs(%c : memref<4x8xf32>) {epsilon = 1.0e-05 : f32}
  norm.rms_norm ins(%d : memref<2x8xf32>) weight(%g0 : memref<8xf32>) outs(%e : memref<2x8xf32>)
  return
}

// -----

// Dynamic dims are arguments' dims: rows of any count share the function
// of `?`, which is not the static one's.
// CHECK-LABEL: func.func @dynamic
// CHECK:         call @__norm_kernel_0_norm_layer_norm(%{{.*}}, %{{.*}}) {no_inline} : (memref<?x16xf16>, memref<?x16xf16>) -> ()
// CHECK:         call @__norm_kernel_0_norm_layer_norm(%{{.*}}, %{{.*}}) {no_inline} : (memref<?x16xf16>, memref<?x16xf16>) -> ()
// CHECK:         call @__norm_kernel_1_norm_layer_norm(%{{.*}}, %{{.*}}) {no_inline} : (memref<3x16xf16>, memref<3x16xf16>) -> ()
// CHECK:       func.func private @__norm_kernel_0_norm_layer_norm(%{{.*}}: memref<?x16xf16>, %{{.*}}: memref<?x16xf16>)
// CHECK:       func.func private @__norm_kernel_1_norm_layer_norm(%{{.*}}: memref<3x16xf16>, %{{.*}}: memref<3x16xf16>)
func.func @dynamic(%x: memref<?x16xf16>, %y: memref<?x16xf16>, %u: memref<?x16xf16>,
    %v: memref<?x16xf16>, %s: memref<3x16xf16>, %t: memref<3x16xf16>) {
  norm.layer_norm ins(%x : memref<?x16xf16>) outs(%y : memref<?x16xf16>)
  norm.layer_norm ins(%u : memref<?x16xf16>) outs(%v : memref<?x16xf16>)
  norm.layer_norm ins(%s : memref<3x16xf16>) outs(%t : memref<3x16xf16>)
  return
}

// -----

// Constants a linalg body captures, and a fill's value, go into the
// function (the kernels fold them); they are part of the key, and the
// caller's copies go when nothing else uses them. Weights that are
// globals are arguments: layers with other weights share the kernel.
// CHECK-LABEL: func.func @constants
// CHECK-NOT:     arith.constant 2.000000e+00
// CHECK-NOT:     arith.constant 0.000000e+00
// CHECK:         %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:         %[[W0:.*]] = memref.get_global @w0
// CHECK:         %[[W1:.*]] = memref.get_global @w1
// CHECK:         call @__norm_kernel_0_linalg_generic(%[[W0]], %{{.*}})
// CHECK:         call @__norm_kernel_0_linalg_generic(%[[W1]], %{{.*}})
// CHECK:         call @__norm_kernel_1_linalg_generic(%[[W1]], %{{.*}})
// CHECK:         call @__norm_kernel_2_linalg_fill(%{{.*}})
// CHECK:         call @__norm_kernel_2_linalg_fill(%{{.*}})
// CHECK:         call @__norm_kernel_3_linalg_fill(%{{.*}})
// CHECK:         call @use(%[[THREE]]) : (f32) -> ()
// CHECK:       func.func private @__norm_kernel_0_linalg_generic(%[[IN:arg[0-9]+]]: memref<8xf32>, %[[OUT:arg[0-9]+]]: memref<8xf32>)
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[IN]] : memref<8xf32>) outs(%[[OUT]] : memref<8xf32>)
// CHECK:           math.powf %{{.*}}, %[[TWO]] : f32
// CHECK:       func.func private @__norm_kernel_1_linalg_generic(
// CHECK-NEXT:    arith.constant 3.000000e+00 : f32
// CHECK:       func.func private @__norm_kernel_2_linalg_fill(%[[F:arg[0-9]+]]: memref<8xf32>)
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%[[F]] : memref<8xf32>)
// CHECK:       func.func private @__norm_kernel_3_linalg_fill(
// CHECK-NEXT:    arith.constant 1.000000e+00 : f32
func.func private @use(f32)
memref.global "private" constant @w0 : memref<8xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<8xf32> = dense<2.0>
func.func @constants(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w0 = memref.get_global @w0 : memref<8xf32>
  %w1 = memref.get_global @w1 : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%w0 : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%w1 : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%w1 : memref<8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %three : f32
    linalg.yield %p : f32
  }
  linalg.fill ins(%zero : f32) outs(%a : memref<8xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<8xf32>)
  call @use(%three) : (f32) -> ()
  return
}

// -----

// An operand passed twice is one argument (a kernel may rely on two
// operands being the same buffer), so it is not the kernel of two buffers.
// CHECK-LABEL: func.func @repeated_operand
// CHECK:         call @__norm_kernel_0_linalg_generic(%[[P:arg[0-9]+]], %[[Q:arg[0-9]+]]) {no_inline} : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK:         call @__norm_kernel_1_linalg_generic(%[[P]], %[[Q]], %[[R:arg[0-9]+]]) {no_inline} : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
// CHECK:         call @__norm_kernel_1_linalg_generic(%[[P]], %[[R]], %[[Q]])
// CHECK:       func.func private @__norm_kernel_0_linalg_generic(%[[ARG:arg[0-9]+]]: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK:         ins(%[[ARG]], %[[ARG]] : memref<8xf32>, memref<8xf32>)
// CHECK:       func.func private @__norm_kernel_1_linalg_generic(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @repeated_operand(%p: memref<8xf32>, %q: memref<8xf32>, %r: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %p : memref<8xf32>, memref<8xf32>) outs(%q : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %q : memref<8xf32>, memref<8xf32>) outs(%r : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %r : memref<8xf32>, memref<8xf32>) outs(%q : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Kernels of a layer inside a loop, with views as operands; a second
// function calls the first one's kernels, which stay after the first. A
// name already taken is not reused.
// CHECK-LABEL: func.func @layers
// CHECK:         scf.for
// CHECK:           %[[V:.*]] = memref.subview
// CHECK:           call @__norm_kernel_0_linalg_transpose_0(%[[V]], %{{.*}}) {no_inline} : (memref<4x8xf32, strided<[16, 1], offset: ?>>, memref<8x4xf32>) -> ()
// CHECK:           call @__norm_kernel_1_linalg_matmul(
// CHECK:       func.func private @__norm_kernel_0_linalg_transpose_0(
// CHECK:         linalg.transpose
// CHECK:       func.func private @__norm_kernel_1_linalg_matmul(
// CHECK:         linalg.matmul
// CHECK-LABEL: func.func @second
// CHECK:         call @__norm_kernel_1_linalg_matmul(
// CHECK-NOT:     linalg.matmul
// CHECK:       func.func @__norm_kernel_0_linalg_transpose()
func.func @layers(%x: memref<4x16xf32>, %t: memref<8x4xf32>, %w: memref<4x4xf32>, %o: memref<8x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.subview %x[0, %i] [4, 8] [1, 1] : memref<4x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
    linalg.transpose ins(%v : memref<4x8xf32, strided<[16, 1], offset: ?>>) outs(%t : memref<8x4xf32>) permutation = [1, 0]
    linalg.matmul ins(%t, %w : memref<8x4xf32>, memref<4x4xf32>) outs(%o : memref<8x4xf32>)
  }
  return
}
func.func @second(%t: memref<8x4xf32>, %w: memref<4x4xf32>, %o: memref<8x4xf32>) {
  linalg.matmul ins(%t, %w : memref<8x4xf32>, memref<4x4xf32>) outs(%o : memref<8x4xf32>)
  return
}
func.func @__norm_kernel_0_linalg_transpose() {
  return
}

// -----

// Left in place: a body that uses a value from above that is not a
// constant (as an argument the kernel would not see what it is), ops on
// tensors, and what is not a norm or linalg op.
// CHECK-LABEL: func.func @left
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.*}}, %arg2 : f32
// CHECK:         norm.rms_norm ins(%{{.*}} : tensor<2x8xf32>)
// CHECK:         memref.copy
// CHECK-NOT:     call
// CHECK:         return
// CHECK-NOT:   func.func
func.func @left(%x: memref<8xf32>, %y: memref<8xf32>, %s: f32, %tx: tensor<2x8xf32>, %ty: tensor<2x8xf32>) -> tensor<2x8xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  }
  %r = norm.rms_norm ins(%tx : tensor<2x8xf32>) outs(%ty : tensor<2x8xf32>) -> tensor<2x8xf32>
  memref.copy %x, %y : memref<8xf32> to memref<8xf32>
  return %r : tensor<2x8xf32>
}
