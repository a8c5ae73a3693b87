// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s

// The LayerNorm row kernel (AVX2 width: 8 x f32). Three sweeps over the
// row, only the first from memory: Σx gives the mean m; then Σd and Σd²
// with d = x − m give the corrected variance Σd²/n − (Σd/n)² (never
// E[x²] − E[x]²); then the normalize sweep.

// CHECK-LABEL: func.func @ln_stats
//  CHECK-SAME: %[[MEAN:[a-z0-9]+]]: memref<?xf32>, %[[RSTD:[a-z0-9]+]]: memref<?xf32>)
//       CHECK: scf.for %[[ROW:.*]] =
// Sweep 1: Σx.
//       CHECK:   scf.for
//       CHECK:     scf.for
//       CHECK:       %[[X1:.*]] = vector.load %{{.*}} : memref<?x?xf32>, vector<8xf32>
//       CHECK:       arith.addf %{{.*}}, %[[X1]] : vector<8xf32>
// The horizontal sum: a halving tree of the lanes, 8 to 4 to 2 to 1.
//       CHECK:   arith.addf %{{.*}} : vector<4xf32>
//       CHECK:   arith.addf %{{.*}} : vector<2xf32>
//       CHECK:   arith.addf %{{.*}} : vector<1xf32>
//       CHECK:   %[[SUM:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   %[[M:.*]] = arith.divf %[[SUM]], %{{.*}} : f32
//       CHECK:   %[[MV:.*]] = vector.broadcast %[[M]] : f32 to vector<8xf32>
// Sweep 2: Σd and Σd², 4 accumulators each; a block's 4 are added before
// its Kahan step, so the block loop carries one sum and one compensation
// per statistic (not 4 each: 24 live vectors spilled on AVX2).
//       CHECK:   scf.for {{.*}} iter_args({{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
//       CHECK:     scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
//       CHECK:       %[[X2:.*]] = vector.load %{{.*}} : memref<?x?xf32>, vector<8xf32>
//       CHECK:       %[[D:.*]] = arith.subf %[[X2]], %[[MV]] : vector<8xf32>
//       CHECK:       arith.addf %{{.*}}, %[[D]] : vector<8xf32>
//       CHECK:       vector.fma %[[D]], %[[D]], %{{.*}} : vector<8xf32>
//       CHECK:       scf.yield
//       CHECK:     %[[T0:.*]] = arith.addf %[[IN:.*]]#0, %[[IN]]#1 : vector<8xf32>
//       CHECK:     %[[T1:.*]] = arith.addf %[[IN]]#2, %[[IN]]#3 : vector<8xf32>
//       CHECK:     %[[BLOCKD:.*]] = arith.addf %[[T0]], %[[T1]] : vector<8xf32>
//       CHECK:     arith.subf %[[BLOCKD]], %{{.*}} : vector<8xf32>
// The masked tail zeroes the lanes past n, where d would be −m.
//       CHECK:   scf.if
//       CHECK:     %[[TM:.*]] = vector.create_mask
//       CHECK:     %[[TD:.*]] = arith.subf %{{.*}}, %[[MV]] : vector<8xf32>
//       CHECK:     arith.select %[[TM]], %[[TD]], %{{.*}} : vector<8xi1>, vector<8xf32>
//       CHECK:   vector.shuffle %[[SUMS:.*]]#0, %[[SUMS]]#0 [0, 1, 2, 3]
//       CHECK:   %[[SD:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   vector.shuffle %[[SUMS]]#1, %[[SUMS]]#1 [0, 1, 2, 3]
//       CHECK:   %[[SD2:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   %[[C:.*]] = arith.divf %[[SD]], %{{.*}} : f32
//       CHECK:   %[[Q:.*]] = arith.divf %[[SD2]], %{{.*}} : f32
//       CHECK:   %[[C2:.*]] = arith.mulf %[[C]], %[[C]] : f32
//       CHECK:   %[[VAR0:.*]] = arith.subf %[[Q]], %[[C2]] : f32
//       CHECK:   %[[VAR:.*]] = arith.maximumf %[[VAR0]], %{{.*}} : f32
//       CHECK:   %[[VE:.*]] = arith.addf %[[VAR]], %{{.*}} : f32
//       CHECK:   %[[ROOT:.*]] = math.sqrt %[[VE]] : f32
//       CHECK:   %[[R:.*]] = arith.divf %{{.*}}, %[[ROOT]] : f32
//       CHECK:   %[[TRUEMEAN:.*]] = arith.addf %[[M]], %[[C]] : f32
//       CHECK:   memref.store %[[TRUEMEAN]], %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:   memref.store %[[R]], %{{.*}}[%[[ROW]]] : memref<?xf32>
// Sweep 3: y = ((x − m) − c) · rstd · γ + β as
// fma(fma(x − m, rstd, −c·rstd), γ, β): x − m is exact where |m| ≫ std.
//       CHECK:   %[[RV:.*]] = vector.broadcast %[[R]] : f32 to vector<8xf32>
//       CHECK:   %[[CR:.*]] = arith.mulf %[[C]], %[[R]] : f32
//       CHECK:   %[[NCR:.*]] = arith.negf %[[CR]] : f32
//       CHECK:   %[[NCRV:.*]] = vector.broadcast %[[NCR]] : f32 to vector<8xf32>
//       CHECK:   scf.for
//       CHECK:     %[[X3:.*]] = vector.load
//       CHECK:     %[[S1:.*]] = arith.subf %[[X3]], %[[MV]]
//       CHECK:     %[[S2:.*]] = vector.fma %[[S1]], %[[RV]], %[[NCRV]]
//       CHECK:     %[[G:.*]] = vector.load
//       CHECK:     %[[B:.*]] = vector.load
//       CHECK:     %[[S3:.*]] = vector.fma %[[S2]], %[[G]], %[[B]]
//       CHECK:     vector.store %[[S3]]
func.func @ln_stats(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>,
                    %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) bias(%b : memref<?xf32>)
      outs(%y : memref<?x?xf32>) mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  return
}

// -----

// bf16 LayerNorm, residual form: on AVX2, 16 bf16 lanes (one 256-bit
// register) loaded and widened per vector, two registers of f32.
// CHECK-LABEL: func.func @ln_residual_bf16
//       CHECK: vector.load %{{.*}} : memref<2x48xbf16>, vector<16xbf16>
//       CHECK: arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//   CHECK-NOT: norm.layer_norm
func.func @ln_residual_bf16(%x: memref<2x48xbf16>, %r: memref<2x48xbf16>, %y: memref<2x48xbf16>, %s: memref<2x48xbf16>) {
  norm.layer_norm ins(%x : memref<2x48xbf16>) residual(%r : memref<2x48xbf16>)
      outs(%y : memref<2x48xbf16>) sum_outs(%s : memref<2x48xbf16>)
  return
}
