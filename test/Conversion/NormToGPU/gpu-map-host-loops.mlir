// RUN: norm-opt %s --split-input-file --verify-diagnostics --norm-gpu-map-host-loops="block-size=128" | FileCheck %s

// The host's parallel loops, as convert-linalg-to-parallel-loops makes them,
// mapped for convert-parallel-loops-to-gpu: collapsed to one dimension
// (8 × 100 = 800 elements), tiles of 128 on block x, a thread an element on
// thread x, the tail past 800 guarded, the element's indices recovered by
// division.
// CHECK-LABEL: func.func @two_dims(
// CHECK:         %[[N:.*]] = arith.muli %{{.*}}, %c100{{.*}} : index
// CHECK:         %[[STEP:.*]] = arith.muli %{{.*}}, %c128 : index
// CHECK:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[N]]) step (%[[STEP]]) {
// CHECK:           scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]]) step (%{{.*}}) {
// CHECK:             %[[K:.*]] = arith.addi %[[T]], %[[B]] : index
// CHECK:             arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK:             scf.if
// CHECK-DAG:           %[[J:.*]] = arith.remsi %[[K]], %{{.*}} : index
// CHECK-DAG:           %[[I:.*]] = arith.divsi %[[K]], %{{.*}} : index
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @two_dims(%a: memref<8x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c100 = arith.constant 100 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c100) step (%c1, %c1) {
    memref.store %cst, %a[%i, %j] : memref<8x100xf32>
  }
  return
}

// -----

// A loop nested in a thread's body runs sequentially in it; loops already in
// a kernel and loops with reductions are not the pass's.
// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for
// CHECK:           scf.parallel
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:       gpu.launch
// CHECK:         scf.parallel
// CHECK-NOT:     mapping
// CHECK:       scf.parallel
// CHECK:         scf.reduce(%{{.*}} : f32)
// CHECK-NOT:   mapping
func.func @nested(%a: memref<4x8x16xf32>, %s: f32, %r: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      scf.parallel (%k) = (%c0) to (%c16) step (%c1) {
        memref.store %s, %a[%i, %j, %k] : memref<4x8x16xf32>
      }
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.parallel (%k) = (%c0) to (%c16) step (%c1) {
      memref.store %s, %a[%c0, %c0, %k] : memref<4x8x16xf32>
    }
    gpu.terminator
  }
  %init = arith.constant 0.0 : f32
  %sum = scf.parallel (%k) = (%c0) to (%c16) step (%c1) init (%init) -> f32 {
    %v = memref.load %a[%c0, %c0, %k] : memref<4x8x16xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %sum, %r[] : memref<f32>
  return
}
