// RUN: norm-opt %s --norm-x86-nontemporal-stores --split-input-file | FileCheck %s

// Non-temporal stores of 128-, 256- and 512-bit vectors of 16-bit elements,
// aligned to their size, become vmovntdq with a memory clobber, of the
// value's bits as i16 lanes.

// CHECK-LABEL: llvm.func @sixteen_bit
//  CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[A:.*]]: vector<16xi16>, %[[B:.*]]: vector<8xbf16>, %[[C:.*]]: vector<32xf16>)
//       CHECK: llvm.inline_asm has_side_effects asm_dialect = att "vmovntdq $0, ($1)", "x,r,~{memory}" %[[A]], %[[P]] : (vector<16xi16>, !llvm.ptr) -> ()
//       CHECK: %[[BB:.*]] = llvm.bitcast %[[B]] : vector<8xbf16> to vector<8xi16>
//       CHECK: llvm.inline_asm has_side_effects asm_dialect = att "vmovntdq $0, ($1)", "x,r,~{memory}" %[[BB]], %[[P]] : (vector<8xi16>, !llvm.ptr) -> ()
//       CHECK: %[[CB:.*]] = llvm.bitcast %[[C]] : vector<32xf16> to vector<32xi16>
//       CHECK: llvm.inline_asm has_side_effects asm_dialect = att "vmovntdq $0, ($1)", "x,r,~{memory}" %[[CB]], %[[P]] : (vector<32xi16>, !llvm.ptr) -> ()
//   CHECK-NOT: llvm.store
llvm.func @sixteen_bit(%p: !llvm.ptr, %a: vector<16xi16>, %b: vector<8xbf16>, %c: vector<32xf16>) {
  llvm.store %a, %p {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
  llvm.store %b, %p {alignment = 16 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr
  llvm.store %c, %p {alignment = 64 : i64, nontemporal} : vector<32xf16>, !llvm.ptr
  llvm.return
}

// -----

// Negative: plain stores, other element widths (LLVM keeps their hint),
// under-aligned stores (vmovntdq would fault), other sizes, scalars and
// volatile stores are left alone.
// CHECK-LABEL: llvm.func @others
//   CHECK-NOT: llvm.inline_asm
//       CHECK: llvm.store %{{.*}} {alignment = 32 : i64} : vector<16xi16>, !llvm.ptr
//       CHECK: llvm.store %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
//       CHECK: llvm.store %{{.*}} {alignment = 16 : i64, nontemporal} : vector<16xi8>, !llvm.ptr
//       CHECK: llvm.store %{{.*}} {alignment = 2 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
//       CHECK: llvm.store %{{.*}} {alignment = 8 : i64, nontemporal} : vector<4xi16>, !llvm.ptr
//       CHECK: llvm.store %{{.*}} {alignment = 2 : i64, nontemporal} : i16, !llvm.ptr
//       CHECK: llvm.store volatile %{{.*}} {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
llvm.func @others(%p: !llvm.ptr, %a: vector<16xi16>, %f: vector<16xf32>, %q: vector<16xi8>, %s: vector<4xi16>, %x: i16) {
  llvm.store %a, %p {alignment = 32 : i64} : vector<16xi16>, !llvm.ptr
  llvm.store %f, %p {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
  llvm.store %q, %p {alignment = 16 : i64, nontemporal} : vector<16xi8>, !llvm.ptr
  llvm.store %a, %p {alignment = 2 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
  llvm.store %s, %p {alignment = 8 : i64, nontemporal} : vector<4xi16>, !llvm.ptr
  llvm.store %x, %p {alignment = 2 : i64, nontemporal} : i16, !llvm.ptr
  llvm.store volatile %a, %p {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
  llvm.return
}
