// RUN: norm-opt %s --split-input-file --convert-norm-to-gpu | FileCheck %s

// The gradient ops on the GPU (GPUGradKernel.cpp): the rows launch (a
// block of 512 threads per chunk of rows, block reductions through
// shuffles and shared memory, partial column sums in device memory), then
// the columns launch adding the chunks' partials in order.

// CHECK-LABEL: func.func @ln_saved
//       CHECK: scf.if
//       CHECK:   %[[CHUNKS:.*]] = arith.maxui
//       CHECK:   %[[PG:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[CHUNKS]], %c20) : memref<?x?xf32>
//       CHECK:   %[[PB:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[CHUNKS]], %c20) : memref<?x?xf32>
//       CHECK:   gpu.launch blocks(%[[CHUNK:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[CHUNKS]], %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c512{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[SH:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// The chunk's partials zeroed by the threads that own the columns.
//       CHECK:     memref.store %{{.*}}, %[[PG]][%[[CHUNK]], %{{.*}}]
//       CHECK:     memref.store %{{.*}}, %[[PB]][%[[CHUNK]], %{{.*}}]
// Per row: the saved statistics, Σ dŷ·x̂ and Σ dŷ reduced over the block.
//       CHECK:     scf.for %[[ROW:.*]] =
//       CHECK:       memref.load %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:       memref.load %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:       gpu.shuffle  xor
//       CHECK:       gpu.barrier
//       CHECK:       memref.store %{{.*}}, %[[SH]]
//       CHECK:       gpu.barrier
//       CHECK:       memref.load %[[SH]]
// dx, and the partial column sums.
//       CHECK:       scf.for %[[J:.*]] = %[[T]] to %c20 step %c512
//       CHECK:         memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[J]]] : memref<?x20xf32>
//       CHECK:         memref.store %{{.*}}, %[[PG]][%[[CHUNK]], %[[J]]]
//       CHECK:         memref.store %{{.*}}, %[[PB]][%[[CHUNK]], %[[J]]]
//       CHECK:     gpu.terminator
// One thread per column: the chunks in order.
//       CHECK:   gpu.launch
//       CHECK:     scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]]
//       CHECK:       memref.load %[[PG]][%[[C]], %{{.*}}]
//       CHECK:     scf.for %[[C2:.*]] = %{{.*}} to %[[CHUNKS]]
//       CHECK:       memref.load %[[PB]][%[[C2]], %{{.*}}]
//       CHECK:     gpu.terminator
//       CHECK:   gpu.dealloc async
//       CHECK:   gpu.dealloc async
//   CHECK-NOT: norm.layer_norm_grad
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

// dx only, bf16, recomputed rstd: one launch, no partials; dx rounded to
// bf16 once.
// CHECK-LABEL: func.func @rms_bf16_dx_only
//   CHECK-NOT: gpu.alloc
//       CHECK: gpu.launch
//       CHECK:   arith.extf %{{.*}} : bf16 to f32
//       CHECK:   math.sqrt
//       CHECK:   arith.truncf %{{.*}} : f32 to bf16
//       CHECK:   gpu.terminator
//   CHECK-NOT: gpu.launch
func.func @rms_bf16_dx_only(%dy: memref<4x64xbf16>, %x: memref<4x64xbf16>,
                            %dx: memref<4x64xbf16>) {
  norm.rms_norm_grad grad(%dy : memref<4x64xbf16>) ins(%x : memref<4x64xbf16>)
      outs(%dx : memref<4x64xbf16>)
  return
}

