// RUN: norm-opt %s --norm-single-lane-masked-stores | FileCheck %s
// RUN: norm-opt %s --norm-single-lane-masked-stores | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=ASM
// RUN: mlir-translate %s --mlir-to-llvmir | llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=BUG

// A masked store whose constant mask enables one lane becomes a plain store
// of that lane's element at its address: lane 0 of i8 lanes truncated from
// i32 (a quantized row's one-element tail), lane 2 of i16 (alignment 8 at
// offset 4: 4), lane 5 of f32 (alignment 4), a one-lane vector.

// CHECK-LABEL: llvm.func @one_lane
//  CHECK-SAME: (%[[P0:.*]]: !llvm.ptr, %[[P1:.*]]: !llvm.ptr, %[[P2:.*]]: !llvm.ptr, %[[P3:.*]]: !llvm.ptr, %[[W:.*]]: vector<16xi32>, %[[F:.*]]: vector<8xf32>, %[[O:.*]]: vector<1xi8>)
//       CHECK: %[[Q:.*]] = llvm.trunc %[[W]] : vector<16xi32> to vector<16xi8>
//       CHECK: %[[H:.*]] = llvm.trunc %[[W]] : vector<16xi32> to vector<16xi16>
//       CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
//       CHECK: %[[E0:.*]] = llvm.extractelement %[[Q]][%[[C0]] : i64] : vector<16xi8>
//       CHECK: llvm.store %[[E0]], %[[P0]] {alignment = 1 : i64} : i8, !llvm.ptr
//       CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
//       CHECK: %[[E2:.*]] = llvm.extractelement %[[H]][%[[C2]] : i64] : vector<16xi16>
//       CHECK: %[[A2:.*]] = llvm.getelementptr inbounds %[[P1]][2] : (!llvm.ptr) -> !llvm.ptr, i16
//       CHECK: llvm.store %[[E2]], %[[A2]] {alignment = 4 : i64} : i16, !llvm.ptr
//       CHECK: %[[C5:.*]] = llvm.mlir.constant(5 : i64) : i64
//       CHECK: %[[E5:.*]] = llvm.extractelement %[[F]][%[[C5]] : i64] : vector<8xf32>
//       CHECK: %[[A5:.*]] = llvm.getelementptr inbounds %[[P2]][5] : (!llvm.ptr) -> !llvm.ptr, f32
//       CHECK: llvm.store %[[E5]], %[[A5]] {alignment = 4 : i64} : f32, !llvm.ptr
//       CHECK: %[[E:.*]] = llvm.extractelement %[[O]][%{{.*}} : i64] : vector<1xi8>
//       CHECK: llvm.store %[[E]], %[[P3]] {alignment = 1 : i64} : i8, !llvm.ptr
//   CHECK-NOT: llvm.intr.masked.store

// The machine code writes one byte, then two; LLVM 22 without the pass
// writes four bytes for each (vmovss and vextractps of the i32 lanes, the
// third RUN line). The f32 and one-lane stores are right either way.
// ASM-LABEL: one_lane:
//   ASM-NOT: vmovss
//       ASM: movb %al, (%rdi)
//       ASM: movw %r{{[0-9a-z]+}}w, 4(%rsi)
//       ASM: vextractps $1, %xmm1, 20(%rdx)
//       ASM: movb %r8b, (%rcx)
//       ASM: retq
// BUG-LABEL: one_lane:
//       BUG: vmovss %xmm0, (%rdi)
//       BUG: vextractps $2, %xmm0, 4(%rsi)
llvm.func @one_lane(%p0: !llvm.ptr, %p1: !llvm.ptr, %p2: !llvm.ptr, %p3: !llvm.ptr, %w: vector<16xi32>, %f: vector<8xf32>, %o: vector<1xi8>) {
  %q = llvm.trunc %w : vector<16xi32> to vector<16xi8>
  %h = llvm.trunc %w : vector<16xi32> to vector<16xi16>
  %first = llvm.mlir.constant(dense<[true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : vector<16xi1>) : vector<16xi1>
  %third = llvm.mlir.constant(dense<[false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false]> : vector<16xi1>) : vector<16xi1>
  %sixth = llvm.mlir.constant(dense<[false, false, false, false, false, true, false, false]> : vector<8xi1>) : vector<8xi1>
  %one = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
  llvm.intr.masked.store %q, %p0, %first {alignment = 1 : i32} : vector<16xi8>, vector<16xi1> into !llvm.ptr
  llvm.intr.masked.store %h, %p1, %third {alignment = 8 : i32} : vector<16xi16>, vector<16xi1> into !llvm.ptr
  llvm.intr.masked.store %f, %p2, %sixth {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  llvm.intr.masked.store %o, %p3, %one {alignment = 1 : i32} : vector<1xi8>, vector<1xi1> into !llvm.ptr
  llvm.return
}

// Negative: masks of two lanes, of none, and run-time masks stay masked
// stores (the back end stores them right), as do vectors of i1.
// CHECK-LABEL: llvm.func @others
//   CHECK-NOT: llvm.store
//       CHECK: llvm.intr.masked.store %{{.*}} : vector<16xi8>, vector<16xi1> into !llvm.ptr
//       CHECK: llvm.intr.masked.store %{{.*}} : vector<16xi8>, vector<16xi1> into !llvm.ptr
//       CHECK: llvm.intr.masked.store %{{.*}} : vector<16xi8>, vector<16xi1> into !llvm.ptr
//       CHECK: llvm.intr.masked.store %{{.*}} : vector<8xi1>, vector<8xi1> into !llvm.ptr
//   CHECK-NOT: llvm.store
// ASM-LABEL: others:
// BUG-LABEL: others:
llvm.func @others(%p: !llvm.ptr, %w: vector<16xi32>, %m: vector<16xi1>, %b: vector<8xi1>) {
  %q = llvm.trunc %w : vector<16xi32> to vector<16xi8>
  %two = llvm.mlir.constant(dense<[true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : vector<16xi1>) : vector<16xi1>
  %none = llvm.mlir.constant(dense<false> : vector<16xi1>) : vector<16xi1>
  %first = llvm.mlir.constant(dense<[true, false, false, false, false, false, false, false]> : vector<8xi1>) : vector<8xi1>
  llvm.intr.masked.store %q, %p, %two {alignment = 1 : i32} : vector<16xi8>, vector<16xi1> into !llvm.ptr
  llvm.intr.masked.store %q, %p, %none {alignment = 1 : i32} : vector<16xi8>, vector<16xi1> into !llvm.ptr
  llvm.intr.masked.store %q, %p, %m {alignment = 1 : i32} : vector<16xi8>, vector<16xi1> into !llvm.ptr
  llvm.intr.masked.store %b, %p, %first {alignment = 1 : i32} : vector<8xi1>, vector<8xi1> into !llvm.ptr
  llvm.return
}
