// RUN: norm-opt %s --norm-check-rope-sizes -split-input-file | FileCheck %s
// The pipelines run the pass after bufferization:
// RUN: norm-opt %s --norm-lower-to-cpu -split-input-file | FileCheck %s --check-prefix=CPU

// A dynamic angle dim (a traced sequence length) is the input's size: the
// run-time check compares them before the op, for cos and for sin, and on
// a mismatch writes the op, the operand, the dim and both sizes to stderr
// (file descriptor 2) and aborts.
// CHECK-DAG: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.mlir.global internal constant @norm_rope_size_check_0("{{.*}}check-rope-sizes.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'norm.rms_norm': rope angle operand 'cos' has size %lld in dim 0, the input has size %lld there (a dynamic angle dim is that size, never a broadcast)\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @norm_rope_size_check_1("{{.*}}'sin' has size %lld in dim 0{{.*}}")
// CHECK-LABEL: func.func @dynamic_seq
//  CHECK-SAME: (%[[X:.*]]: memref<?x4x64xf32>, %[[C:.*]]: memref<?x1x64xf32>, %[[S:.*]]: memref<?x1x64xf32>
//       CHECK: %[[A:.*]] = memref.dim %[[C]], %{{.*}} : memref<?x1x64xf32>
//       CHECK: %[[B:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x4x64xf32>
//       CHECK: %[[NE:.*]] = arith.cmpi ne, %[[A]], %[[B]] : index
//       CHECK: scf.if %[[NE]] {
//       CHECK:   %[[ADDR:.*]] = llvm.mlir.addressof @norm_rope_size_check_0 : !llvm.ptr
//       CHECK:   %[[FMT:.*]] = llvm.getelementptr %[[ADDR]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<{{[0-9]+}} x i8>
//       CHECK:   %[[FD:.*]] = llvm.mlir.constant(2 : i32) : i32
//       CHECK:   %[[A64:.*]] = arith.index_cast %[[A]] : index to i64
//       CHECK:   %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
//       CHECK:   llvm.call @dprintf(%[[FD]], %[[FMT]], %[[A64]], %[[B64]]) vararg(!llvm.func<i32 (i32, ptr, ...)>)
//       CHECK:   llvm.call @abort() : () -> ()
//       CHECK: }
//       CHECK: memref.dim %[[S]]
//       CHECK: scf.if
//       CHECK: norm.rms_norm
// The pipeline keeps the check (the call survives to the LLVM dialect).
// CPU-LABEL: llvm.func @dynamic_seq
//       CPU: llvm.call @dprintf
//       CPU: llvm.call @abort
func.func @dynamic_seq(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}

// -----

// Static sizes were checked by the verifier, and a static 1 broadcasts:
// nothing is emitted.
// CHECK-LABEL: func.func @static_and_broadcast
//   CHECK-NOT: scf.if
//   CHECK-NOT: llvm.call
//       CHECK: norm.rms_norm
//   CPU-LABEL: llvm.func @static_and_broadcast
//   CPU-NOT: llvm.call @dprintf
//       CPU: llvm.return
func.func @static_and_broadcast(%x: memref<7x4x64xf32>, %c: memref<7x1x64xf32>, %s: memref<7x1x64xf32>, %y: memref<7x4x64xf32>) {
  norm.rms_norm ins(%x : memref<7x4x64xf32>) rope(%c, %s : memref<7x1x64xf32>, memref<7x1x64xf32>) outs(%y : memref<7x4x64xf32>)
  return
}

// -----

// A dynamic input dim broadcast by a static 1 needs no check either; a
// static angle dim over a dynamic input dim does (the static size a
// constant; tensors: tensor.dim).
// CHECK-LABEL: func.func @static_angles_dynamic_input
//       CHECK: %[[A:.*]] = arith.constant 3 : index
//   CHECK-NOT: tensor.dim %{{.*}} : tensor<1x3x1x64xf32>
//       CHECK: %[[B:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?x4x64xf32>
//       CHECK: arith.cmpi ne, %[[A]], %[[B]] : index
//       CHECK: scf.if
//       CHECK: scf.if
//   CHECK-NOT: scf.if
//       CHECK: norm.layer_norm
func.func @static_angles_dynamic_input(%x: tensor<?x?x4x64xf32>, %c: tensor<1x3x1x64xf32>, %s: tensor<1x3x1x64xf32>, %y: tensor<?x?x4x64xf32>) -> tensor<?x?x4x64xf32> {
  %r = norm.layer_norm ins(%x : tensor<?x?x4x64xf32>) rope(%c, %s : tensor<1x3x1x64xf32>, tensor<1x3x1x64xf32>) outs(%y : tensor<?x?x4x64xf32>) -> tensor<?x?x4x64xf32>
  return %r : tensor<?x?x4x64xf32>
}

// -----

// matmul_rms_norm: against the output viewed as [..., H, D] (rows B, T,
// then 2 heads of 16): T dynamic in both, checked; B broadcast.
// CHECK: llvm.mlir.global internal constant @norm_rope_size_check_0("{{.*}}: error: 'norm.matmul_rms_norm': rope angle operand 'cos' has size %lld in dim 1, the output viewed as [..., H, D] has size %lld there
// CHECK-LABEL: func.func @fused_heads
//       CHECK: %[[A:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<1x?x1x16xf32>
//       CHECK: %[[B:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x?x32xf32>
//       CHECK: arith.cmpi ne, %[[A]], %[[B]] : index
//       CHECK: scf.if
//       CHECK: scf.if
//   CHECK-NOT: scf.if
//       CHECK: norm.matmul_rms_norm
func.func @fused_heads(%a: memref<?x?x8xf32>, %w: memref<8x32xf32>, %c: memref<1x?x1x16xf32>, %s: memref<1x?x1x16xf32>, %y: memref<?x?x32xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?x8xf32>) rhs(%w : memref<8x32xf32>) rope(%c, %s : memref<1x?x1x16xf32>, memref<1x?x1x16xf32>) outs(%y : memref<?x?x32xf32>) {head_dim = 16 : i64}
  return
}

// -----

// The module's own declarations of the C functions, of their C types, are
// called (none declared beside them: that would be a redefinition). From
// the split marker before this case's output:
// CHECK: {{^// -{5}$}}
//   CHECK-NOT: llvm.func @dprintf
//   CHECK-NOT: llvm.func @abort
//       CHECK: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32 attributes {sym_visibility = "private"}
//   CHECK-NOT: llvm.func @dprintf
//       CHECK: llvm.func @abort() attributes {sym_visibility = "private"}
//   CHECK-NOT: llvm.func @
// CHECK-LABEL: func.func @declared_by_user
//       CHECK: llvm.call @dprintf
//       CHECK: llvm.call @abort
//       CHECK: norm.rms_norm
//   CHECK-NOT: llvm.func @
//   CPU: llvm.func @declared_by_user
//   CPU: llvm.call @dprintf
//   CPU: llvm.call @abort
llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32 attributes {sym_visibility = "private"}
llvm.func @abort() attributes {sym_visibility = "private"}

func.func @declared_by_user(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}
