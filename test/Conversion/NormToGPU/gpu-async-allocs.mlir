// RUN: norm-opt %s --norm-gpu-async-allocs -split-input-file | FileCheck %s
// After it, MLIR 22's gpu-to-llvm lowers every gpu.alloc and gpu.dealloc
// (before, it left the synchronous ones and the async ones without exactly
// one dependency in the host code).
// RUN: norm-opt %s --norm-gpu-async-allocs --gpu-to-llvm -split-input-file | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: gpu.alloc
// LLVM-NOT: gpu.dealloc

// A synchronous gpu.alloc of device memory and gpu.dealloc: the async op on
// a fresh stream, then a blocking gpu.wait, so each still completes before
// the host goes on.
// CHECK-LABEL: func.func @sync
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?x64xf32>
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[M]]
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[M]] : memref<?x64xf32>
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    return
func.func @sync(%n: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %m = gpu.alloc (%n) : memref<?x64xf32>
  memref.store %f, %m[%c0, %c0] : memref<?x64xf32>
  gpu.dealloc %m : memref<?x64xf32>
  return
}

// -----

// Synchronous ops with dependencies: the fresh stream waits for them.
// CHECK-LABEL: func.func @sync_deps
// CHECK:         %[[A:.*]] = gpu.wait async
// CHECK-NEXT:    %[[B:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async [%[[A]], %[[B]]]
// CHECK-NEXT:    %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async [%[[A]]]
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[M]] : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T3]]]
func.func @sync_deps() {
  %a = gpu.wait async
  %b = gpu.wait async
  %m = gpu.alloc [%a, %b] () : memref<16xf32>
  gpu.dealloc [%a] %m : memref<16xf32>
  return
}

// -----

// Async ops with no or two dependencies: a gpu.wait async joins them into
// the one that gpu-to-llvm takes; the op's own token is kept.
// CHECK-LABEL: func.func @async_deps
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16xf32>
// CHECK-NEXT:    %[[A:.*]] = gpu.wait async
// CHECK-NEXT:    %[[J:.*]] = gpu.wait async [%[[T1]], %[[A]]]
// CHECK-NEXT:    %[[T2:.*]] = gpu.dealloc async [%[[J]]] %[[M]] : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T2]]]
func.func @async_deps() {
  %m, %t = gpu.alloc async () : memref<16xf32>
  %a = gpu.wait async
  %t2 = gpu.dealloc async [%t, %a] %m : memref<16xf32>
  gpu.wait [%t2]
  return
}

// -----

// Forms gpu-to-llvm lowers are left alone: async with one dependency, and
// synchronous host_shared (managed memory) allocations.
// CHECK-LABEL: func.func @lowered
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.dealloc async [%[[T1]]] %[[M]] : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T2]]]
// CHECK-NEXT:    %[[H:.*]] = gpu.alloc host_shared () : memref<16xf32>
// CHECK-NEXT:    return %[[H]]
func.func @lowered() -> memref<16xf32> {
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %t2 = gpu.dealloc async [%t1] %m : memref<16xf32>
  gpu.wait [%t2]
  %h = gpu.alloc host_shared () : memref<16xf32>
  return %h : memref<16xf32>
}

// -----

// host_shared allocations are lowered only synchronously, without
// dependencies: the host waits for them first, and an async one returns a
// fresh (complete) token.
// CHECK-LABEL: func.func @host_shared_async
// CHECK:         %[[A:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.wait [%[[A]]]
// CHECK-NEXT:    %[[H:.*]] = gpu.alloc host_shared () : memref<16xf32>
// CHECK-NEXT:    %[[T:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async [%[[T]]]
// CHECK-NEXT:    %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[H]] : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T1]]]
func.func @host_shared_async() {
  %a = gpu.wait async
  %h, %t = gpu.alloc async [%a] host_shared () : memref<16xf32>
  gpu.dealloc [%t] %h : memref<16xf32>
  return
}
