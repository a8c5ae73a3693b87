// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=1" --canonicalize --cse | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=1 grad-block-rows=1" --canonicalize --cse | FileCheck %s --check-prefix=ONE

// The gradient kernel's blocks of rows (GradKernel.cpp, grad-block-rows,
// default 2): with dγ or dβ and rows whose dy and x take over 32 KiB, a
// chunk's rows go two at a time: the row sums sweep of each row, then one
// column sweep that writes both rows' dx and adds both rows' dy·x̂ (dy)
// into the partials with one load and one store; the rows after the last
// whole block (a chunk of an odd number of rows) one at a time.

// CHECK-LABEL: func.func @ln_wide
//       CHECK: %[[STREAM:.*]] = arith.cmpi uge
//       CHECK: scf.for %[[CHUNK:.*]] = %c0 to %{{.*}} step %c1 {
//       CHECK:   %[[FIRST:.*]] = arith.divui
//       CHECK:   %[[END:.*]] = arith.divui
//       CHECK:   %[[COUNT:.*]] = arith.subi %[[END]], %[[FIRST]]
//       CHECK:   %[[ODD:.*]] = arith.remui %[[COUNT]], %c2
//       CHECK:   %[[WHOLE:.*]] = arith.subi %[[COUNT]], %[[ODD]]
//       CHECK:   %[[BEND:.*]] = arith.addi %[[FIRST]], %[[WHOLE]]
//       CHECK:   scf.for %[[ROW:.*]] = %[[FIRST]] to %[[BEND]] step %c2 {
// The row sums sweep of each row:
//       CHECK:     memref.load %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:     scf.for {{.*}} step %c1024
//       CHECK:     %[[ROW1:.*]] = arith.addi %[[ROW]], %c1
//       CHECK:     memref.load %{{.*}}[%[[ROW1]]] : memref<?xf32>
//       CHECK:     scf.for {{.*}} step %c1024
// One column sweep, streamed: both rows' dx, each partial loaded and
// stored once, the rows' terms added in row order.
//       CHECK:     scf.if %[[STREAM]] {
//       CHECK:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16 {
//       CHECK:         vector.store %{{.*}}[%[[ROW]], %[[J]]] {alignment = 64 : i64, nontemporal = true}
//       CHECK:         vector.store %{{.*}}[%[[ROW1]], %[[J]]] {alignment = 64 : i64, nontemporal = true}
//       CHECK:         %[[PG:.*]] = vector.load %[[PGM:.*]][%[[CHUNK]], %[[J]]]
//       CHECK:         %[[G0:.*]] = vector.fma %{{.*}}, %{{.*}}, %[[PG]]
//       CHECK:         %[[G1:.*]] = vector.fma %{{.*}}, %{{.*}}, %[[G0]]
//       CHECK:         vector.store %[[G1]], %[[PGM]][%[[CHUNK]], %[[J]]]
//       CHECK:         %[[PB:.*]] = vector.load %[[PBM:.*]][%[[CHUNK]], %[[J]]]
//       CHECK:         %[[B0:.*]] = arith.addf %[[PB]], %{{.*}}
//       CHECK:         %[[B1:.*]] = arith.addf %[[B0]], %{{.*}}
//       CHECK:         vector.store %[[B1]], %[[PBM]][%[[CHUNK]], %[[J]]]
//   CHECK-NOT:         vector.load %[[PGM]]
//       CHECK:       }
// The rest, a row at a time: one dx store per column vector.
//       CHECK:   scf.for %[[R:.*]] = %[[BEND]] to %[[END]] step %c1 {
//       CHECK:       scf.for %[[J2:.*]] = %{{.*}} to %{{.*}} step %c16 {
//       CHECK:         vector.store %{{.*}}[%[[R]], %[[J2]]] {alignment = 64 : i64, nontemporal = true}
//  CHECK-NEXT:         vector.load %[[PGM]][%[[CHUNK]], %[[J2]]]
//  CHECK-NEXT:         vector.fma
//  CHECK-NEXT:         vector.store %{{.*}}, %[[PGM]][%[[CHUNK]], %[[J2]]]
//       CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"

// grad-block-rows=1: a row at a time.
// ONE-LABEL: func.func @ln_wide
//   ONE-NOT: step %c2 {
//       ONE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
//   ONE-NOT: step %c2 {
//       ONE: return
func.func @ln_wide(%dy: memref<?x8192xf32>, %x: memref<?x8192xf32>, %g: memref<8192xf32>,
                   %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x8192xf32>,
                   %dg: memref<8192xf32>, %db: memref<8192xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x8192xf32>) ins(%x : memref<?x8192xf32>)
      weight(%g : memref<8192xf32>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x8192xf32>) weight_grad_outs(%dg : memref<8192xf32>)
      bias_grad_outs(%db : memref<8192xf32>)
  return
}

// -----

// Rows of 8200 f32 (not a whole number of 16-lane vectors): blocks only
// when dx does not stream, since a block's rows share one alignment head.
// CHECK-LABEL: func.func @rms_unaligned
//       CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c32800
//       CHECK: arith.cmpi uge, %[[BYTES]], %c1
//       CHECK: scf.for
//       CHECK:   %[[ODD:.*]] = arith.remui %{{.*}}, %c2
//       CHECK:   %[[WHOLE:.*]] = arith.subi %{{.*}}, %[[ODD]]
//       CHECK:   %[[NOSTREAM:.*]] = arith.cmpi ult, %[[BYTES]], %c1
//       CHECK:   %[[BLOCKED:.*]] = arith.select %[[NOSTREAM]], %[[WHOLE]], %c0
//       CHECK:   %[[BEND:.*]] = arith.addi %{{.*}}, %[[BLOCKED]]
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %[[BEND]] step %c2 {
func.func @rms_unaligned(%dy: memref<?x8200xf32>, %x: memref<?x8200xf32>, %g: memref<8200xf32>,
                         %r: memref<?xf32>, %dx: memref<?x8200xf32>, %dg: memref<8200xf32>) {
  norm.rms_norm_grad grad(%dy : memref<?x8200xf32>) ins(%x : memref<?x8200xf32>)
      weight(%g : memref<8200xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x8200xf32>) weight_grad_outs(%dg : memref<8200xf32>)
  return
}

// -----

// Where blocks do not apply, a row at a time: no dγ or dβ (no partials to
// share); rows whose dy and x fit the 32 KiB (8192 bf16 each: 32 KiB, a
// row's second read from L1).
// CHECK-LABEL: func.func @rms_dx_only
//   CHECK-NOT: step %c2 {
//       CHECK: return
func.func @rms_dx_only(%dy: memref<?x8192xf32>, %x: memref<?x8192xf32>, %g: memref<8192xf32>,
                       %r: memref<?xf32>, %dx: memref<?x8192xf32>) {
  norm.rms_norm_grad grad(%dy : memref<?x8192xf32>) ins(%x : memref<?x8192xf32>)
      weight(%g : memref<8192xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x8192xf32>)
  return
}

// CHECK-LABEL: func.func @ln_bf16_fits
//   CHECK-NOT: step %c2 {
//       CHECK: return
func.func @ln_bf16_fits(%dy: memref<?x8192xbf16>, %x: memref<?x8192xbf16>, %g: memref<8192xbf16>,
                        %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x8192xbf16>,
                        %dg: memref<8192xf32>, %db: memref<8192xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x8192xbf16>) ins(%x : memref<?x8192xbf16>)
      weight(%g : memref<8192xbf16>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x8192xbf16>) weight_grad_outs(%dg : memref<8192xf32>)
      bias_grad_outs(%db : memref<8192xf32>)
  return
}
