// RUN: norm-opt %s --norm-bf16-memory-as-i16 --split-input-file | FileCheck %s

// bf16 loads and stores, scalar and vector, plain and masked, become i16
// accesses with the same attributes and a bitcast on the value.

// CHECK-LABEL: llvm.func @vector
//  CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[M:.*]]: vector<8xi1>)
//       CHECK: %[[L:.*]] = llvm.load %[[P]] {alignment = 2 : i64} : !llvm.ptr -> vector<8xi16>
//       CHECK: %[[V:.*]] = llvm.bitcast %[[L]] : vector<8xi16> to vector<8xbf16>
//       CHECK: %[[S:.*]] = llvm.bitcast %[[V]] : vector<8xbf16> to vector<8xi16>
//       CHECK: llvm.store %[[S]], %[[P]] {alignment = 16 : i64, nontemporal} : vector<8xi16>, !llvm.ptr
//       CHECK: %[[Z:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<8xi16>
//       CHECK: %[[ML:.*]] = llvm.intr.masked.load %[[P]], %[[M]], %[[Z]] {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi16>) -> vector<8xi16>
//       CHECK: %[[MV:.*]] = llvm.bitcast %[[ML]] : vector<8xi16> to vector<8xbf16>
//       CHECK: %[[MS:.*]] = llvm.bitcast %[[MV]] : vector<8xbf16> to vector<8xi16>
//       CHECK: llvm.intr.masked.store %[[MS]], %[[P]], %[[M]] {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
//   CHECK-NOT: bf16
llvm.func @vector(%p: !llvm.ptr, %m: vector<8xi1>) {
  %v = llvm.load %p {alignment = 2 : i64} : !llvm.ptr -> vector<8xbf16>
  llvm.store %v, %p {alignment = 16 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr
  %z = llvm.mlir.zero : vector<8xbf16>
  %w = llvm.intr.masked.load %p, %m, %z {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xbf16>) -> vector<8xbf16>
  llvm.intr.masked.store %w, %p, %m {alignment = 2 : i32} : vector<8xbf16>, vector<8xi1> into !llvm.ptr
  llvm.return
}

// -----

// A masked load without a pass-through value.
// CHECK-LABEL: llvm.func @no_pass_through
//       CHECK: %[[ML:.*]] = llvm.intr.masked.load %{{.*}}, %{{.*}} {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>) -> vector<16xi16>
//       CHECK: %[[V:.*]] = llvm.bitcast %[[ML]] : vector<16xi16> to vector<16xbf16>
//       CHECK: llvm.return %[[V]]
llvm.func @no_pass_through(%p: !llvm.ptr, %m: vector<16xi1>) -> vector<16xbf16> {
  %w = llvm.intr.masked.load %p, %m {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>) -> vector<16xbf16>
  llvm.return %w : vector<16xbf16>
}

// -----

// Scalars too.
// CHECK-LABEL: llvm.func @scalar
//       CHECK: %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
//       CHECK: %[[V:.*]] = llvm.bitcast %[[L]] : i16 to bf16
//       CHECK: %[[S:.*]] = llvm.bitcast %[[V]] : bf16 to i16
//       CHECK: llvm.store %[[S]], %{{.*}} : i16, !llvm.ptr
llvm.func @scalar(%p: !llvm.ptr, %q: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> bf16
  llvm.store %v, %q : bf16, !llvm.ptr
  llvm.return
}

// -----

// Negative: other types (f16, f32, i16) are left alone.
// CHECK-LABEL: llvm.func @others
//   CHECK-NOT: llvm.bitcast
//       CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xf16>
//       CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr
//       CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
//       CHECK: llvm.intr.masked.store %{{.*}} : vector<8xi16>, vector<8xi1> into !llvm.ptr
//   CHECK-NOT: llvm.bitcast
//       CHECK: llvm.return
llvm.func @others(%p: !llvm.ptr, %m: vector<8xi1>, %i: vector<8xi16>) -> f32 {
  %h = llvm.load %p : !llvm.ptr -> vector<8xf16>
  llvm.store %h, %p : vector<8xf16>, !llvm.ptr
  %f = llvm.load %p : !llvm.ptr -> f32
  llvm.intr.masked.store %i, %p, %m {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into !llvm.ptr
  llvm.return %f : f32
}
