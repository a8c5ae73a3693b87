// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" --canonicalize | FileCheck %s

// LayerNorm in the GEMV (Gemm/Gemv*.cpp): c = γ'ᵀW and Σβ·W are W times the
// rows γ' and β, packed into Ã in front of A's row (Ã: 3 rows × K = 768
// floats), so one row of A runs as a 3-row tile of the dot products
// (18 accumulators), not the decode kernel and not the packed GEMM. At the
// last K block Ã row 0 goes to the task's c buffer, row 1 to its Σβ·W
// buffer, and row 2 to C as r·dot − r·(μ − p)·c + Σβ·W.
// CHECK-LABEL: func.func @gemv_layer_norm_dots
//       CHECK:   %[[A:.*]] = memref.alloc() {{.*}} : memref<768xf32>
//       CHECK:   scf.for %[[K:.*]] = %c0 to %c256 step %c16 {
//  CHECK-NEXT:     %[[GV:.*]] = vector.load %arg1[%[[K]]]
//  CHECK-NEXT:     vector.store %[[GV]], %[[A]][%[[K]]]
//  CHECK-NEXT:     %[[BV:.*]] = vector.load %arg2[%[[K]]]
//  CHECK-NEXT:     %[[K1:.*]] = arith.addi %[[K]], %c256
//  CHECK-NEXT:     vector.store %[[BV]], %[[A]][%[[K1]]]
//       CHECK:   scf.parallel
//       CHECK:     %[[C:.*]] = memref.alloc() {{.*}} : memref<96xf32>
//       CHECK:     %[[BW:.*]] = memref.alloc() {{.*}} : memref<96xf32>
//       CHECK:     scf.for
//       CHECK:       %[[ACC:.*]]:18 = scf.for
// CHECK-COUNT-18:      vector.fma
//       CHECK:       %[[C0:.*]] = vector.reduction <add>, %[[ACC]]#0
//       CHECK:       memref.store %[[C0]], %[[C]][
//       CHECK:       %[[BW0:.*]] = vector.reduction <add>, %[[ACC]]#6
//       CHECK:       memref.store %[[BW0]], %[[BW]][
//       CHECK:       %[[Y0:.*]] = vector.reduction <add>, %[[ACC]]#12
//       CHECK:       %[[R:.*]] = memref.load %{{.*}}[%c0] : memref<1xf32>
//       CHECK:       %[[RS:.*]] = memref.load %{{.*}}[%c0] : memref<1xf32>
//       CHECK:       %[[NEG:.*]] = arith.negf %[[RS]]
//       CHECK:       %[[RY:.*]] = arith.mulf %[[Y0]], %[[R]]
//       CHECK:       %[[CJ:.*]] = memref.load %[[C]][
//       CHECK:       %[[T:.*]] = math.fma %[[NEG]], %[[CJ]], %[[RY]]
//       CHECK:       %[[BWJ:.*]] = memref.load %[[BW]][
//       CHECK:       %[[OUT:.*]] = arith.addf %[[T]], %[[BWJ]]
//       CHECK:       memref.store %[[OUT]], %arg4[%c0,
//   CHECK-NOT:   vector.load {{.*}} : memref<256x
func.func @gemv_layer_norm_dots(%x: memref<1x256xf32>, %g: memref<256xf32>,
                                %b: memref<256xf32>, %w: memref<100x256xf32>,
                                %c: memref<1x100xf32>) {
  norm.layer_norm_matmul ins(%x : memref<1x256xf32>) weight(%g : memref<256xf32>)
      bias(%b : memref<256xf32>) rhs(%w : memref<100x256xf32>)
      outs(%c : memref<1x100xf32>) {transpose_rhs}
  return
}

// -----

// W as K×N, γ and no β: one column-sum row (Ã: 3 rows × 64), a 3-row tile
// of the row sweeps (18 accumulators, per-task scratch of 3 rows × 96
// columns); with fewer than 4 rows the K block of W is copied before the
// tile (a whole task: 6 plain loads per W row); at the last K block row
// 0's 6 vectors go to the task's c buffer, which the epilogue of A's rows
// reads.
// CHECK-LABEL: func.func @gemv_layer_norm_sweeps
//       CHECK:   %[[A:.*]] = memref.alloc() {{.*}} : memref<192xf32>
//       CHECK:   vector.load %{{.*}} : memref<64xf32>, vector<16xf32>
//       CHECK:   vector.store %{{.*}}, %[[A]]
//       CHECK:   scf.parallel
//       CHECK:     %[[SCRATCH:.*]] = memref.alloc() {{.*}} : memref<288xf32>
//       CHECK:     %[[C:.*]] = memref.alloc() {{.*}} : memref<96xf32>
//       CHECK:     %[[BLOCK:.*]] = memref.alloc() {{.*}} : memref<3072xf32>
//       CHECK:       scf.if
//       CHECK:         scf.for
// CHECK-COUNT-6:         vector.load %arg2{{.*}} : memref<64x100xf32>, vector<16xf32>
//       CHECK:     %[[ACC:.*]]:18 = scf.for
// CHECK-COUNT-18:      vector.fma
//       CHECK:     scf.if
//       CHECK:       vector.store %[[ACC]]#0, %[[C]]
//       CHECK:       vector.store %[[ACC]]#5, %[[C]]
//       CHECK:       vector.load %[[C]]
//       CHECK:       vector.maskedstore %arg3[%c0,
//       CHECK:       vector.maskedstore %arg3[%c1,
func.func @gemv_layer_norm_sweeps(%x: memref<2x64xf32>, %g: memref<64xf32>,
                                  %w: memref<64x100xf32>, %c: memref<2x100xf32>) {
  norm.layer_norm_matmul ins(%x : memref<2x64xf32>) weight(%g : memref<64xf32>)
      rhs(%w : memref<64x100xf32>) outs(%c : memref<2x100xf32>)
  return
}

// -----

// A dynamic M: LayerNorm has no decode branch (no test for one row); Ã has
// M + 2 rows.
// CHECK-LABEL: func.func @gemv_layer_norm_dynamic
//       CHECK:   %[[DIM:.*]] = memref.dim %arg0, %c0
//   CHECK-NOT:   arith.cmpi eq, %[[DIM]], %c1
//       CHECK:   %[[MANY:.*]] = arith.cmpi ugt, %[[DIM]], %c16
//       CHECK:   scf.if %[[MANY]]
//       CHECK:   } else {
//       CHECK:     %[[ROWS:.*]] = arith.addi %[[DIM]], %c2
//       CHECK:     %[[SIZE:.*]] = arith.muli %[[ROWS]], %c512
//       CHECK:     memref.alloc(%[[SIZE]])
//   CHECK-NOT:   arith.cmpi eq, %[[DIM]], %c1
//       CHECK:   return
func.func @gemv_layer_norm_dynamic(%x: memref<?x512xf32>, %g: memref<512xf32>,
                                   %b: memref<512xf32>, %w: memref<512x300xf32>,
                                   %c: memref<?x300xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x512xf32>) weight(%g : memref<512xf32>)
      bias(%b : memref<512xf32>) rhs(%w : memref<512x300xf32>)
      outs(%c : memref<?x300xf32>)
  return
}
