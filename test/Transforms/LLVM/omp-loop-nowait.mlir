// RUN: norm-opt %s --norm-omp-loop-nowait --split-input-file | FileCheck %s

// The loop is the parallel region's last op: the join at the region's end
// is the one barrier it needs.
// CHECK-LABEL: func.func @ends_region
//       CHECK: omp.parallel
//  CHECK-NEXT: omp.wsloop nowait {
func.func @ends_region(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %m[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Ops after the loop in the region may read what other threads stored:
// both loops keep their barriers but the last one.
// CHECK-LABEL: func.func @op_after_loop
//       CHECK: omp.wsloop {
//       CHECK: memref.load
//       CHECK: omp.wsloop nowait {
func.func @op_after_loop(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %m[%i] : memref<?xf32>
        omp.yield
      }
    }
    %v = memref.load %m[%c0] : memref<?xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c1) to (%n) step (%c1) {
        memref.store %v, %m[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A loop with a reduction keeps its barrier.
// CHECK-LABEL: func.func @reduction
//       CHECK: omp.wsloop reduction(
//   CHECK-NOT: nowait
omp.declare_reduction @add_f32 : f32 init {
^bb0(%arg: f32):
  %0 = arith.constant 0.0 : f32
  omp.yield (%0 : f32)
} combiner {
^bb1(%a: f32, %b: f32):
  %1 = arith.addf %a, %b : f32
  omp.yield (%1 : f32)
}
func.func @reduction(%m: memref<?xf32>, %n: index, %acc: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop reduction(@add_f32 %acc -> %prv : !llvm.ptr) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %m[%i] : memref<?xf32>
        %p = llvm.load %prv : !llvm.ptr -> f32
        %s = arith.addf %p, %v : f32
        llvm.store %s, %prv : f32, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A worksharing loop outside an omp.parallel (an orphaned one) is left
// alone: its barrier is the only one.
// CHECK-LABEL: func.func @orphaned
//       CHECK: omp.wsloop {
func.func @orphaned(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.wsloop {
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      memref.store %f, %m[%i] : memref<?xf32>
      omp.yield
    }
  }
  return
}
