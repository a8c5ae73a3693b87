// RUN: norm-opt %s --norm-gpu-async-launches -split-input-file | FileCheck %s
// The chained forms are the ones gpu-to-llvm lowers (one stream a chain):
// test/Pipelines/lower-to-nvvm-async.mlir translates them to LLVM IR.

// Two launches and the frees after them: one stream (a gpu.wait async),
// every op after the one before, one blocking wait before the return. The
// managed allocation stays synchronous and off the chain.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[M:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<64xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @k::@f {{.*}} args(%[[D]] : memref<64xf32>, %[[M]] : memref<64xf32>)
// CHECK-NEXT:    %[[N:.*]] = gpu.alloc  host_shared () : memref<64xf32>
// CHECK-NEXT:    %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @k::@f {{.*}} args(%[[M]] : memref<64xf32>, %[[N]] : memref<64xf32>)
// CHECK-NEXT:    %[[T4:.*]] = gpu.dealloc async [%[[T3]]] %[[D]] : memref<64xf32>
// CHECK-NEXT:    %[[T5:.*]] = gpu.dealloc async [%[[T4]]] %[[M]] : memref<64xf32>
// CHECK-NEXT:    gpu.wait [%[[T5]]]
// CHECK-NEXT:    return %[[N]]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<64xf32>) kernel { gpu.return }
  }
  func.func @chain() -> memref<64xf32> {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc host_shared () : memref<64xf32>
    %d = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%d : memref<64xf32>, %m : memref<64xf32>)
    %n = gpu.alloc host_shared () : memref<64xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%m : memref<64xf32>, %n : memref<64xf32>)
    gpu.dealloc %d : memref<64xf32>
    gpu.dealloc %m : memref<64xf32>
    return %n : memref<64xf32>
  }
}

// -----

// A host read in the middle: the host waits for the first launch before
// the load; the second launch starts a new stream. A host op that only
// computes (arith) or allocates host memory does not wait.
// CHECK-LABEL: func.func @host_read
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @k::@f
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    memref.alloc
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @k::@f
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    call @use
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<64xf32>) kernel { gpu.return }
  }
  func.func private @use(f32, memref<8xf32>)
  func.func @host_read(%a: memref<64xf32>, %b: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    %i = arith.addi %c1, %c1 : index
    %h = memref.alloc () : memref<8xf32>
    %v = memref.load %b[%i] : memref<64xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%b : memref<64xf32>, %a : memref<64xf32>)
    func.call @use(%v, %h) : (f32, memref<8xf32>) -> ()
    return
  }
}

// -----

// A split-K branch as convert-norm-to-gpu writes it (a device scratch
// buffer allocated and freed in the blocking form): its ops join the
// enclosing chain's stream, no wait inside; after the branch the chain
// goes on from the token before it (the same stream).
// CHECK-LABEL: func.func @branch
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @k::@f
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      %[[S:.*]], %[[T2:.*]] = gpu.alloc async [%[[T1]]] () : memref<64xf32>
// CHECK-NEXT:      %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @k::@f
// CHECK-NEXT:      %[[T4:.*]] = gpu.dealloc async [%[[T3]]] %[[S]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %{{.*}} = gpu.launch_func async [%[[T1]]] @k::@f
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T5:.*]] = gpu.launch_func async [%[[T1]]] @k::@f
// CHECK-NEXT:    gpu.wait [%[[T5]]]
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<64xf32>) kernel { gpu.return }
  }
  func.func @branch(%a: memref<64xf32>, %b: memref<64xf32>, %split: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    scf.if %split {
      %t0 = gpu.wait async
      %s, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
      gpu.wait [%t1]
      gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%b : memref<64xf32>, %s : memref<64xf32>)
      %t2 = gpu.wait async
      %t3 = gpu.dealloc async [%t2] %s : memref<64xf32>
      gpu.wait [%t3]
    } else {
      gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%b : memref<64xf32>, %a : memref<64xf32>)
    }
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    return
  }
}

// -----

// A loop with a host store in it is a host op: the host waits before it,
// and the loop body's launch gets a chain of its own, waited for before
// the next iteration.
// CHECK-LABEL: func.func @host_loop
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @k::@f
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:      %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @k::@f
// CHECK-NEXT:      gpu.wait [%[[T3]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<64xf32>) kernel { gpu.return }
  }
  func.func @host_loop(%a: memref<64xf32>, %b: memref<64xf32>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %x, %a[%i] : memref<64xf32>
      gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%a : memref<64xf32>, %b : memref<64xf32>)
    }
    return
  }
}

// -----

// Ops that already have a token (a benchmark's own chain) are left as they
// are, after a wait for the chain before them.
// CHECK-LABEL: func.func @own_chain
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @k::@f
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    %[[S:.*]] = gpu.wait async
// CHECK-NEXT:    %[[U:.*]] = gpu.launch_func async [%[[S]]] @k::@f
// CHECK-NEXT:    gpu.wait [%[[U]]]
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf32>, %b: memref<64xf32>) kernel { gpu.return }
  }
  func.func @own_chain(%a: memref<64xf32>, %b: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    %s = gpu.wait async
    %u = gpu.launch_func async [%s] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%b : memref<64xf32>, %a : memref<64xf32>)
    gpu.wait [%u]
    return
  }
}
