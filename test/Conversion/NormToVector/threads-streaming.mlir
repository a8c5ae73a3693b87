// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=4096 streaming-threshold=65536 pipeline-rows=false" | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-vector="target=avx2 parallel-threshold=4096 streaming-threshold=65536 pipeline-rows=false" | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s --convert-norm-to-vector="target=generic accumulators=2 parallel-threshold=-1 streaming-threshold=-1 prefetch=false" | FileCheck %s --check-prefix=GENERIC

// The thread split and the streaming stores are decided at run time from
// the op's size (the shapes here are dynamic):
// - rows run in an scf.parallel (OpenMP after the pipeline) when the op
//   touches at least parallel-threshold bytes and has more than one row,
//   else in a plain loop;
// - when y has at least streaming-threshold bytes, each row's stores start
//   with a masked head up to the vector alignment of y, then aligned
//   non-temporal stores, then a masked tail; an sfence ends the kernel.

// CHECK-LABEL: func.func @rms
//       CHECK: %[[ELEMS:.*]] = arith.muli %[[R:.*]], %[[N:.*]] : index
//       CHECK: %[[YBYTES:.*]] = arith.muli %[[ELEMS]], %c4
//       CHECK: %[[STREAM:.*]] = arith.cmpi uge, %[[YBYTES]], %c65536
//       CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
//       CHECK: %[[BYTES:.*]] = arith.muli %[[ELEMS]], %c8
//       CHECK: %[[BIG:.*]] = arith.cmpi uge, %[[BYTES]], %c4096
//       CHECK: %[[SEVERAL:.*]] = arith.cmpi ugt, %[[R]], %c1
//       CHECK: %[[PAR:.*]] = arith.andi %[[BIG]], %[[SEVERAL]] : i1
//       CHECK: scf.if %[[PAR]] {
//       CHECK:   scf.parallel (%[[ROW:.*]]) = (%c0{{.*}}) to (%[[R]]) step (%c1{{.*}}) {
//       CHECK:     vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// The next row (the last row clamps to itself) is prefetched into L2 while
// this one is normalized.
//       CHECK:     %[[NEXT0:.*]] = arith.addi %[[ROW]], %c1
//       CHECK:     %[[NEXT:.*]] = arith.minui %[[NEXT0]], %{{.*}} : index
//       CHECK:     scf.if %[[STREAM]] {
//       CHECK:       %[[ROWOFF:.*]] = arith.muli %[[ROW]], %[[N]]
//       CHECK:       %[[ROWBYTES:.*]] = arith.muli %[[ROWOFF]], %c4
//       CHECK:       %[[ADDR:.*]] = arith.addi %[[BASE]], %[[ROWBYTES]]
//       CHECK:       %[[MIS:.*]] = arith.remui %[[ADDR]], %c64
//       CHECK:       %[[GAP:.*]] = arith.subi %c64{{.*}}, %[[MIS]]
//       CHECK:       %[[GAPB:.*]] = arith.remui %[[GAP]], %c64
//       CHECK:       %[[GAPE:.*]] = arith.divui %[[GAPB]], %c4
//       CHECK:       %[[HEAD:.*]] = arith.minui %[[GAPE]], %[[N]]
//       CHECK:       scf.if
//       CHECK:         vector.create_mask %[[HEAD]]
//       CHECK:         vector.maskedstore
//       CHECK:       scf.for %[[J:.*]] = %[[HEAD]] to
//       CHECK:         memref.prefetch %{{.*}}[%[[NEXT]], %[[J]]], read, locality<2>, data
//       CHECK:         vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<?x?xf32>, vector<16xf32>
//       CHECK:       scf.if
//       CHECK:         vector.maskedstore
//       CHECK:     } else {
//       CHECK:       scf.for
//       CHECK:         vector.store
//   CHECK-NOT:         nontemporal
//       CHECK:     scf.reduce
//       CHECK: } else {
//       CHECK:   scf.for
//       CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"
//       CHECK: return

// AVX2-LABEL: func.func @rms
//       AVX2: scf.parallel
//       AVX2: vector.fma %{{.*}} : vector<8xf32>
//       AVX2: arith.remui %{{.*}}, %c32
//       AVX2: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<?x?xf32>, vector<8xf32>

// Threads and streaming off: one plain row loop, no fence; two accumulators
// of 4 lanes.
// GENERIC-LABEL: func.func @rms
//   GENERIC-NOT: scf.parallel
//   GENERIC-NOT: memref.prefetch
//   GENERIC-NOT: nontemporal
//       GENERIC: scf.for %{{.*}} step %c8
//       GENERIC:   vector.fma %{{.*}} : vector<4xf32>
//       GENERIC:   vector.fma %{{.*}} : vector<4xf32>
//   GENERIC-NOT:   vector.fma
//       GENERIC:   scf.yield
//   GENERIC-NOT: llvm.call_intrinsic
//       GENERIC: return
func.func @rms(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>)
  return
}

// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=4096 streaming-threshold=-1" | FileCheck %s --check-prefix=PIPE

// Row pipelining (the default): threads take chunks of min(64, ⌈rows/8⌉)
// rows (at least 1), so that a few-row problem still spreads; in a chunk
// only the first row has a statistics sweep of its own, and the normalize
// sweep of row r also accumulates Σs² of row r+1 (clamped to the chunk's last
// row), in Kahan-compensated blocks of 64 vectors with U = 4 independent
// accumulators (one chain's FMA latency bounded the sweep). The sum is
// carried to the next row.
// PIPE-LABEL: func.func @rms_pipelined
//       PIPE: %[[EIGHTH:.*]] = arith.ceildivui %[[ROWS:.*]], %c8{{[_0-9]*}} : index
//       PIPE: %[[CAPPED:.*]] = arith.minui %c64{{[_0-9]*}}, %[[EIGHTH]] : index
//       PIPE: %[[CHUNK:.*]] = arith.maxui %c1{{[_0-9]*}}, %[[CAPPED]] : index
//       PIPE: %[[TASKS:.*]] = arith.ceildivui %[[ROWS]], %[[CHUNK]] : index
//       PIPE: scf.parallel (%[[TASK:.*]]) = (%{{.*}}) to (%[[TASKS]]) step
//       PIPE:   %[[FIRST:.*]] = arith.muli %[[TASK]], %[[CHUNK]]
//       PIPE:   %[[END:.*]] = arith.minui
//       PIPE:   %[[S0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       PIPE:   scf.for %[[ROW:.*]] = %[[FIRST]] to %[[END]] step %{{.*}} iter_args(%[[SS:.*]] = %[[S0]]) -> (f32) {
//       PIPE:     %[[NEXT0:.*]] = arith.addi %[[ROW]], %c1{{[_0-9]*}}
//       PIPE:     %[[NEXT:.*]] = arith.minui %[[NEXT0]], %{{.*}} : index
//       PIPE:     arith.divf %[[SS]], %{{.*}} : f32
//       PIPE:     scf.for %[[JB:.*]] = {{.*}} step %c1024{{[_0-9]*}} iter_args
//       PIPE:       scf.for %[[J:.*]] = %[[JB]] to %{{.*}} step %c64{{[_0-9]*}} iter_args(%[[ACC0:.*]] = %{{.*}}, %[[ACC1:.*]] = %{{.*}}, %[[ACC2:.*]] = %{{.*}}, %[[ACC3:.*]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
//       PIPE:         vector.load %{{.*}}[%[[ROW]], %[[J]]]
//       PIPE:         vector.store %{{.*}}[%[[ROW]], %[[J]]]
//       PIPE:         %[[XN:.*]] = vector.load %{{.*}}[%[[NEXT]], %[[J]]]
//       PIPE:         vector.fma %[[XN]], %[[XN]], %[[ACC0]]
//       PIPE:         %[[J1:.*]] = arith.addi %[[J]], %c16
//       PIPE:         vector.store %{{.*}}[%[[ROW]], %[[J1]]]
//       PIPE:         %[[XN1:.*]] = vector.load %{{.*}}[%[[NEXT]], %[[J1]]]
//       PIPE:         vector.fma %[[XN1]], %[[XN1]], %[[ACC1]]
//       PIPE:         vector.fma %{{.*}}, %{{.*}}, %[[ACC2]]
//       PIPE:         vector.fma %{{.*}}, %{{.*}}, %[[ACC3]]
//       PIPE:     %[[NEXTSS:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       PIPE:     scf.yield %[[NEXTSS]] : f32
func.func @rms_pipelined(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>)
  return
}
