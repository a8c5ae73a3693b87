// RUN: norm-opt %s --norm-inline-alloca-scopes --split-input-file --allow-unregistered-dialect | FileCheck %s

// An x86 intrinsic call in a parallel iteration (the quantized rows' i8
// packing) allocates nothing on the stack: the scope goes, which
// canonicalization does not do (it takes the call for a possible alloca).
// CHECK-LABEL: func.func @intrinsic_in_parallel_body
//       CHECK: omp.loop_nest
//   CHECK-NOT: memref.alloca_scope
//       CHECK: scf.for
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx2.packssdw"
//       CHECK: omp.yield
func.func @intrinsic_in_parallel_body(%m: memref<?xvector<16xi16>>, %a: vector<8xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          scf.for %j = %c0 to %c4 step %c1 {
            %p = llvm.call_intrinsic "llvm.x86.avx2.packssdw"(%a, %a) : (vector<8xi32>, vector<8xi32>) -> vector<16xi16>
            memref.store %p, %m[%i] : memref<?xvector<16xi16>>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Results of the scope become what its terminator returned; calls do not
// allocate in the caller's frame; nested scopes go too.
// CHECK-LABEL: func.func @results_calls_nested
//  CHECK-SAME: (%[[X:.*]]: f32)
//   CHECK-NOT: memref.alloca_scope
//       CHECK: %[[C:.*]] = call @callee(%[[X]])
//       CHECK: %[[S:.*]] = arith.addf %[[C]], %[[X]]
//       CHECK: return %[[S]]
func.func private @callee(f32) -> f32
func.func @results_calls_nested(%x: f32) -> f32 {
  %r = memref.alloca_scope -> (f32) {
    %c = func.call @callee(%x) : (f32) -> f32
    %s = memref.alloca_scope -> (f32) {
      %t = arith.addf %c, %x : f32
      memref.alloca_scope.return %t : f32
    }
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}

// -----

// A stack allocation keeps its scope (inlined, the loop would grow the
// stack every iteration).
// CHECK-LABEL: func.func @alloca_keeps_scope
//       CHECK: scf.for
//       CHECK:   memref.alloca_scope {
//       CHECK:     memref.alloca()
func.func @alloca_keeps_scope(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.alloca_scope {
      %b = memref.alloca() : memref<16xf32>
      memref.store %f, %b[%c0] : memref<16xf32>
    }
  }
  return
}

// -----

// So do the stack intrinsics, an llvm.alloca, and an op whose effects are
// unknown; an alloca in a nested scope is that scope's, so the outer one
// goes.
// CHECK-LABEL: func.func @may_allocate
//       CHECK: memref.alloca_scope {
//  CHECK-NEXT:   llvm.call_intrinsic "llvm.stacksave"
//       CHECK: memref.alloca_scope {
//  CHECK-NEXT:   llvm.alloca
//       CHECK: memref.alloca_scope {
//  CHECK-NEXT:   "test.unknown"()
//       CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"
//  CHECK-NEXT: memref.alloca_scope {
//  CHECK-NEXT:   memref.alloca()
//       CHECK: return
func.func @may_allocate(%a: vector<8xi32>) {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  memref.alloca_scope {
    %s = llvm.call_intrinsic "llvm.stacksave"() : () -> !llvm.ptr
  }
  memref.alloca_scope {
    %p = llvm.alloca %c1 x f32 : (i64) -> !llvm.ptr
  }
  memref.alloca_scope {
    "test.unknown"() : () -> ()
  }
  memref.alloca_scope {
    %p = llvm.call_intrinsic "llvm.x86.avx2.packssdw"(%a, %a) : (vector<8xi32>, vector<8xi32>) -> vector<16xi16>
    memref.alloca_scope {
      %b = memref.alloca() : memref<16xf32>
    }
  }
  return
}
