// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=0" | FileCheck %s --check-prefix=THREADS
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=1" | FileCheck %s --check-prefix=STREAM
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=0 streaming-threshold=-1 prefetch=false" | FileCheck %s --check-prefix=PLAIN

// The gradient ops on the CPU (AVX2: 8 × f32), GradKernel.cpp: the rows cut
// into min(R, 64) chunks with partial column sums of dγ/dβ each; per row
// the row sums Σ dŷ·x̂ and Σ dŷ (one blocked, compensated sweep), then one
// sweep that stores dx and adds into the chunk's partials; then the
// partials added in chunk order.

// CHECK-LABEL: func.func @ln_saved
//       CHECK: %[[CHUNKS:.*]] = arith.minui %{{.*}}, %c64 : index
//       CHECK: %[[PG:.*]] = memref.alloc(%[[CHUNKS]], %c20) {alignment = 64 : i64} : memref<?x?xf32>
//       CHECK: %[[PB:.*]] = memref.alloc(%[[CHUNKS]], %c20) {alignment = 64 : i64} : memref<?x?xf32>
//       CHECK: scf.for %[[CHUNK:.*]] = %{{.*}} to %[[CHUNKS]]
// The chunk's partials are zeroed, then its rows run.
//       CHECK:   vector.store %{{.*}}, %[[PG]][%[[CHUNK]], %{{.*}}]
//       CHECK:   vector.store %{{.*}}, %[[PB]][%[[CHUNK]], %{{.*}}]
//       CHECK:   scf.for %[[ROW:.*]] =
// The saved statistics, no statistics sweep.
//       CHECK:     memref.load %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:     memref.load %{{.*}}[%[[ROW]]] : memref<?xf32>
//   CHECK-NOT:     vector.extract
//       CHECK:     vector.fma
//       CHECK:     vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:     vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// The dx sweep: one store of dx, dγ += dy·x̂ (an FMA), dβ += dy.
//       CHECK:     scf.for
//       CHECK:       vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x20xf32>, vector<8xf32>
//       CHECK:       vector.fma
//       CHECK:       vector.store %{{.*}}, %[[PG]][%[[CHUNK]], %{{.*}}]
//       CHECK:       arith.addf
//       CHECK:       vector.store %{{.*}}, %[[PB]][%[[CHUNK]], %{{.*}}]
//       CHECK:       vector.maskedstore
// The totals: per column vector, the chunks in order.
//       CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
//       CHECK:   scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]]
//       CHECK:     vector.load %[[PG]][%[[C]], %{{.*}}]
//       CHECK:   vector.store
//       CHECK:   scf.for %[[C2:.*]] = %{{.*}} to %[[CHUNKS]]
//       CHECK:     vector.load %[[PB]][%[[C2]], %{{.*}}]
//       CHECK:   vector.store
//       CHECK: memref.dealloc %[[PG]]
//       CHECK: memref.dealloc %[[PB]]
//   CHECK-NOT: norm.layer_norm_grad

// Above the parallel threshold the chunks are the tasks of an scf.parallel.
// THREADS-LABEL: func.func @ln_saved
//       THREADS: scf.if
//       THREADS:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// dx streams when it has at least streaming-threshold bytes (the forward
// kernel's choice, made at run time): each row's dx sweep starts with a
// masked head up to dx's 32-byte alignment, then non-temporal stores (the
// partial column sums keep ordinary ones), a masked tail; one sfence after
// all rows, before the totals. The two sweeps prefetch the row 2 ahead
// (the last row itself) into L2, one input each: the row sums sweep dy,
// the dx sweep x.
// STREAM-LABEL: func.func @ln_saved
//  STREAM-SAME: (%[[DYARG:[^:]*]]: memref<?x20xf32>, %[[XARG:[^:]*]]: memref<?x20xf32>
//       STREAM: %[[DY:.*]] = memref.reinterpret_cast %[[DYARG]]
//       STREAM: %[[X:.*]] = memref.reinterpret_cast %[[XARG]]
//       STREAM: %[[STREAM:.*]] = arith.cmpi uge, %{{.*}}, %c1{{.*}} : index
//       STREAM: scf.for %[[CHUNK:.*]] = %{{.*}} to
//       STREAM:   scf.for %[[ROW:.*]] =
//       STREAM:     %[[NEXT0:.*]] = arith.addi %[[ROW]], %c2
//       STREAM:     %[[LAST:.*]] = arith.addi %{{.*}}, %c-1
//       STREAM:     %[[NEXT:.*]] = arith.minui %[[NEXT0]], %[[LAST]] : index
//       STREAM:     memref.prefetch %[[DY]][%[[NEXT]], %{{.*}}], read, locality<2>, data
//   STREAM-NOT:     memref.prefetch %[[X]]
//       STREAM:     scf.if %[[STREAM]] {
//       STREAM:       memref.extract_aligned_pointer_as_index
//       STREAM:       %[[HEAD:.*]] = arith.minui %{{.*}}, %c20
//       STREAM:       scf.if
//       STREAM:         vector.maskedstore %{{.*}}[%[[ROW]], %c0{{.*}}]
//       STREAM:       scf.for %[[J:.*]] = %[[HEAD]] to
//   STREAM-NOT:         memref.prefetch %[[DY]]
//       STREAM:         memref.prefetch %[[X]][%[[NEXT]], %[[J]]], read, locality<2>, data
//   STREAM-NOT:         memref.prefetch
//       STREAM:         vector.store %{{.*}}[%[[ROW]], %[[J]]] {alignment = 32 : i64, nontemporal = true} : memref<?x20xf32>, vector<8xf32>
//       STREAM:         vector.store %{{.*}}[%[[CHUNK]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
//       STREAM:         vector.store %{{.*}}[%[[CHUNK]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
//       STREAM:     } else {
//   STREAM-NOT:       nontemporal
//       STREAM:       vector.store %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x20xf32>, vector<8xf32>
//       STREAM: llvm.call_intrinsic "llvm.x86.sse.sfence"
//       STREAM: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
//       STREAM: memref.dealloc

// With streaming and prefetching off: neither, nor the fence.
// PLAIN-LABEL: func.func @ln_saved
//   PLAIN-NOT: nontemporal
//   PLAIN-NOT: memref.prefetch
//   PLAIN-NOT: sfence
//       PLAIN: return
func.func @ln_saved(%dy: memref<?x20xf32>, %x: memref<?x20xf32>, %g: memref<20xf32>,
                    %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x20xf32>,
                    %dg: memref<20xf32>, %db: memref<20xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x20xf32>) ins(%x : memref<?x20xf32>)
      weight(%g : memref<20xf32>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x20xf32>) weight_grad_outs(%dg : memref<20xf32>)
      bias_grad_outs(%db : memref<20xf32>)
  return
}

// -----

// Recomputed statistics (the forward kernel's Σx² sweep), bf16 data: dx
// rounded to bf16 once; no dγ, so no partials. Rows of 16-bit data take
// the forward row kernel's width on AVX2, 16 f32 lanes (two registers):
// one full-register load of dy or x, one store of dx per 16 values.
// CHECK-LABEL: func.func @rms_bf16_dx_only
//   CHECK-NOT: memref.alloc
//       CHECK: scf.for
//       CHECK:   scf.for %[[ROW:.*]] =
//       CHECK:   arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//       CHECK:   vector.fma
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   math.sqrt
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
//       CHECK:   vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<4x64xbf16>, vector<16xbf16>
//   CHECK-NOT: vector<8xbf16>
//   CHECK-NOT: norm.rms_norm_grad
func.func @rms_bf16_dx_only(%dy: memref<4x64xbf16>, %x: memref<4x64xbf16>,
                            %dx: memref<4x64xbf16>) {
  norm.rms_norm_grad grad(%dy : memref<4x64xbf16>) ins(%x : memref<4x64xbf16>)
      outs(%dx : memref<4x64xbf16>)
  return
}

// -----

// bf16 LayerNorm with saved statistics and dγ, dβ: 16 lanes throughout
// (the partial column sums are two f32 registers a step). The row sums of
// dx keep U·L = 32 elements a step (2 accumulators of 16 lanes where f32
// rows have 4 of 8), so that dy, x, γ and the sums fit the 16 registers.
// CHECK-LABEL: func.func @ln_bf16_saved
//       CHECK: %[[PG:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
//       CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c512 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
//       CHECK:     arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//       CHECK: vector.shuffle %[[S0:.*]], %[[S0]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<16xf32>
//       CHECK: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK: vector.shuffle %[[S1:.*]], %[[S1]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<16xf32>
//       CHECK: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<?x200xbf16>, vector<16xbf16>
//       CHECK: vector.store %{{.*}}, %[[PG]][%{{.*}}, %{{.*}}] : memref<?x?xf32>, vector<16xf32>
//       CHECK: vector.maskedstore %{{.*}} : memref<?x200xbf16>, vector<16xi1>, vector<16xbf16>
//   CHECK-NOT: vector<8xbf16>
//   CHECK-NOT: norm.layer_norm_grad
func.func @ln_bf16_saved(%dy: memref<?x200xbf16>, %x: memref<?x200xbf16>, %g: memref<200xbf16>,
                         %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x200xbf16>,
                         %dg: memref<200xf32>, %db: memref<200xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x200xbf16>) ins(%x : memref<?x200xbf16>)
      weight(%g : memref<200xbf16>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x200xbf16>) weight_grad_outs(%dg : memref<200xf32>)
      bias_grad_outs(%db : memref<200xf32>)
  return
}

// -----

// dγ and dβ only: no dx, so no row sums sweep; its one sweep prefetches
// both dy and x of the row 2 ahead.
// STREAM-LABEL: func.func @ln_param_grads
//  STREAM-SAME: (%[[DYARG:[^:]*]]: memref<?x64xf32>, %[[XARG:[^:]*]]: memref<?x64xf32>
//       STREAM: %[[DY:.*]] = memref.reinterpret_cast %[[DYARG]]
//       STREAM: %[[X:.*]] = memref.reinterpret_cast %[[XARG]]
//   STREAM-NOT: nontemporal
//       STREAM:   scf.for %{{.*}} =
//       STREAM:     scf.for %[[ROW:.*]] =
//       STREAM:       %[[NEXT0:.*]] = arith.addi %[[ROW]], %c2
//       STREAM:       %[[NEXT:.*]] = arith.minui %[[NEXT0]], %{{.*}} : index
//       STREAM:       scf.for %[[J:.*]] =
//       STREAM:         memref.prefetch %[[DY]][%[[NEXT]], %[[J]]], read, locality<2>, data
//       STREAM:         memref.prefetch %[[X]][%[[NEXT]], %[[J]]], read, locality<2>, data
//   STREAM-NOT: sfence
//       STREAM: return
func.func @ln_param_grads(%dy: memref<?x64xf32>, %x: memref<?x64xf32>,
                          %m: memref<?xf32>, %r: memref<?xf32>,
                          %dg: memref<64xf32>, %db: memref<64xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x64xf32>) ins(%x : memref<?x64xf32>)
      mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      weight_grad_outs(%dg : memref<64xf32>) bias_grad_outs(%db : memref<64xf32>)
  return
}

// -----

// Left for --norm-decompose: pRMSNorm (no prefix mask in the kernel), a
// strided view, tensors.
// CHECK-LABEL: func.func @left_alone
//       CHECK: norm.rms_norm_grad {{.*}} {partial = 5.000000e-01 : f32}
//       CHECK: norm.rms_norm_grad grad(%{{.*}} : memref<4x64xf32, strided<[128, 1]>>)
//       CHECK: norm.layer_norm_grad grad(%{{.*}} : tensor<4x64xf32>)
func.func @left_alone(%dy: memref<4x64xf32>, %x: memref<4x64xf32>, %dx: memref<4x64xf32>,
                      %s: memref<4x64xf32, strided<[128, 1]>>, %t: tensor<4x64xf32>)
    -> tensor<4x64xf32> {
  norm.rms_norm_grad grad(%dy : memref<4x64xf32>) ins(%x : memref<4x64xf32>)
      outs(%dx : memref<4x64xf32>) {partial = 0.5 : f32}
  norm.rms_norm_grad grad(%s : memref<4x64xf32, strided<[128, 1]>>) ins(%x : memref<4x64xf32>)
      outs(%dx : memref<4x64xf32>)
  %r = norm.layer_norm_grad grad(%t : tensor<4x64xf32>) ins(%t : tensor<4x64xf32>)
      outs(%t : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
