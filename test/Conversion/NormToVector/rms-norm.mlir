// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false bf16-pair-order=false" | FileCheck %s

// The RMSNorm row kernel on memrefs (threads and streaming stores off here;
// see threads-streaming.mlir). One row at a time: a blocked sum of squares
// with four FMA accumulators whose block sums are Kahan-compensated, the
// remaining vectors, a masked tail, then the normalize sweep.

// CHECK-LABEL: func.func @rms_dynamic
//  CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[G:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?x?xf32>)
//   CHECK-DAG: %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.*}}, %[[N:.*]]], strides: [%[[N]], 1]
//   CHECK-DAG: %[[GV:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [%[[N]]], strides: [1]
//   CHECK-DAG: %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%{{.*}}, %[[N]]], strides: [%[[N]], 1]
//       CHECK: scf.for %[[ROW:.*]] =
// Whole blocks: an inner loop of 4 independent FMA chains ...
//       CHECK:   scf.for %{{.*}} step %c1024
//       CHECK:     scf.for %{{.*}} step %c64
//       CHECK:       vector.load %[[XV]][%[[ROW]], %{{.*}}] : memref<?x?xf32>, vector<16xf32>
//       CHECK:       vector.fma
//       CHECK:       vector.fma
//       CHECK:       vector.fma
//       CHECK:       vector.fma
//   CHECK-NOT:       vector.fma
//       CHECK:       scf.yield
// ... added to the running sums with Kahan compensation.
//       CHECK:     %[[Y0:.*]] = arith.subf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK:     %[[T0:.*]] = arith.addf %{{.*}}, %[[Y0]] : vector<16xf32>
//       CHECK:     %[[D0:.*]] = arith.subf %[[T0]], %{{.*}} : vector<16xf32>
//       CHECK:     arith.subf %[[D0]], %[[Y0]] : vector<16xf32>
// The rest: whole vectors, then a masked tail.
//       CHECK:   scf.for %{{.*}} step %c64
//       CHECK:   scf.for %{{.*}} step %c16
//       CHECK:   scf.if
//       CHECK:     %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
//       CHECK:     vector.maskedload %[[XV]][%[[ROW]], %{{.*}}], %[[MASK]]
// The horizontal sum: a halving tree of the lanes, 16 to 8 to ... to 1.
//       CHECK:   arith.addf %{{.*}} : vector<8xf32>
//       CHECK:   arith.addf %{{.*}} : vector<1xf32>
//       CHECK:   %[[SS:.*]] = vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//   CHECK-NOT:   vector.reduction
//       CHECK:   %[[MS:.*]] = arith.divf %[[SS]], %{{.*}} : f32
//       CHECK:   %[[PLUS:.*]] = arith.addf %[[MS]], %{{.*}} : f32
//       CHECK:   %[[ROOT:.*]] = math.sqrt %[[PLUS]] : f32
//       CHECK:   %[[RSTD:.*]] = arith.divf %{{.*}}, %[[ROOT]] : f32
//       CHECK:   %[[RSTDV:.*]] = vector.broadcast %[[RSTD]] : f32 to vector<16xf32>
// The normalize sweep re-reads x (from cache) and applies γ.
//       CHECK:   scf.for %[[J:.*]] = %{{.*}} step %c16
//       CHECK:     %[[XJ:.*]] = vector.load %[[XV]][%[[ROW]], %[[J]]]
//       CHECK:     %[[NJ:.*]] = arith.mulf %[[XJ]], %[[RSTDV]] : vector<16xf32>
//       CHECK:     %[[GJ:.*]] = vector.load %[[GV]][%[[J]]]
//       CHECK:     %[[OUT:.*]] = arith.mulf %[[NJ]], %[[GJ]] : vector<16xf32>
//       CHECK:     vector.store %[[OUT]], %[[YV]][%[[ROW]], %[[J]]] : memref<?x?xf32>, vector<16xf32>
//       CHECK:   scf.if
//       CHECK:     vector.maskedstore %[[YV]]
//   CHECK-NOT: norm.rms_norm
func.func @rms_dynamic(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
  return
}

// -----

// bf16 with a residual (in natural order, bf16-pair-order=false; the
// 32-lane pair order: bf16-pair-order-avx512.mlir): inputs are widened to
// f32 before any arithmetic, the sum x + r is rounded to bf16 (as the op defines it) and written to
// sum_outs, rstd is stored per row in f32.
// CHECK-LABEL: func.func @rms_residual_bf16
//       CHECK: %[[XL:.*]] = vector.load %{{.*}} : memref<4x64xbf16>, vector<16xbf16>
//       CHECK: %[[XW:.*]] = arith.extf %[[XL]] : vector<16xbf16> to vector<16xf32>
//       CHECK: %[[RL:.*]] = vector.load %{{.*}} : memref<4x64xbf16>, vector<16xbf16>
//       CHECK: %[[RW:.*]] = arith.extf %[[RL]] : vector<16xbf16> to vector<16xf32>
//       CHECK: %[[S:.*]] = arith.addf %[[XW]], %[[RW]] : vector<16xf32>
//       CHECK: %[[SN:.*]] = arith.truncf %[[S]] : vector<16xf32> to vector<16xbf16>
//       CHECK: %[[SR:.*]] = arith.extf %[[SN]] : vector<16xbf16> to vector<16xf32>
//       CHECK: vector.fma %[[SR]], %[[SR]]
//       CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
//       CHECK: scf.for
//       CHECK:   arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
//       CHECK:   vector.store %{{.*}} : memref<4x64xbf16>, vector<16xbf16>
//       CHECK:   arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
//       CHECK:   vector.store %{{.*}} : memref<4x64xbf16>, vector<16xbf16>
func.func @rms_residual_bf16(%x: memref<4x64xbf16>, %r: memref<4x64xbf16>, %g: memref<64xbf16>,
                             %y: memref<4x64xbf16>, %s: memref<4x64xbf16>, %rstd: memref<4xf32>) {
  norm.rms_norm ins(%x : memref<4x64xbf16>) residual(%r : memref<4x64xbf16>) weight(%g : memref<64xbf16>)
      outs(%y : memref<4x64xbf16>) sum_outs(%s : memref<4x64xbf16>) rstd_outs(%rstd : memref<4xf32>)
  return
}

// -----

// pRMSNorm: the sum of squares runs over k = ceil(partial · n) elements.
// CHECK-LABEL: func.func @rms_partial
//       CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
//       CHECK: %[[CEIL:.*]] = math.ceil %[[SCALED]] : f64
//       CHECK: arith.fptosi %[[CEIL]] : f64 to i64
func.func @rms_partial(%x: memref<3x40xf32>, %y: memref<3x40xf32>) {
  norm.rms_norm ins(%x : memref<3x40xf32>) outs(%y : memref<3x40xf32>) {partial = 0.25 : f64}
  return
}

// -----

// ε outside the root; the Gemma offset without γ scales by (1 + offset).
// CHECK-LABEL: func.func @rms_eps_outside_offset
//       CHECK: %[[MS:.*]] = arith.divf
//       CHECK: %[[ROOT:.*]] = math.sqrt %[[MS]] : f32
//       CHECK: %[[DEN:.*]] = arith.addf %[[ROOT]], %{{.*}} : f32
//       CHECK: arith.divf %{{.*}}, %[[DEN]] : f32
//       CHECK: scf.for
//       CHECK:   %[[ONE:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
//       CHECK:   %[[OFF:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
//       CHECK:   %[[F:.*]] = arith.addf %[[ONE]], %[[OFF]] : vector<16xf32>
//       CHECK:   arith.mulf %{{.*}}, %[[F]] : vector<16xf32>
func.func @rms_eps_outside_offset(%x: memref<2x32xf32>, %y: memref<2x32xf32>) {
  norm.rms_norm ins(%x : memref<2x32xf32>) outs(%y : memref<2x32xf32>)
      {eps_mode = #norm.eps_mode<outside_sqrt>, weight_offset = 1.0 : f64}
  return
}

// -----

// cast_mode = before_weight (HF Llama): the normalized value is rounded to
// f16 before the multiply by γ, and the product is rounded again.
// CHECK-LABEL: func.func @rms_before_weight_f16
//       CHECK: scf.for
//       CHECK:   %[[N:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK:   %[[NH:.*]] = arith.truncf %[[N]] : vector<16xf32> to vector<16xf16>
//       CHECK:   %[[NR:.*]] = arith.extf %[[NH]] : vector<16xf16> to vector<16xf32>
//       CHECK:   %[[G:.*]] = arith.extf %{{.*}} : vector<16xf16> to vector<16xf32>
//       CHECK:   %[[P:.*]] = arith.mulf %[[NR]], %[[G]] : vector<16xf32>
//       CHECK:   %[[PH:.*]] = arith.truncf %[[P]] : vector<16xf32> to vector<16xf16>
//       CHECK:   %[[PR:.*]] = arith.extf %[[PH]] : vector<16xf16> to vector<16xf32>
//       CHECK:   %[[OUT:.*]] = arith.truncf %[[PR]] : vector<16xf32> to vector<16xf16>
//       CHECK:   vector.store %[[OUT]]
func.func @rms_before_weight_f16(%x: memref<2x32xf16>, %g: memref<32xf16>, %y: memref<2x32xf16>) {
  norm.rms_norm ins(%x : memref<2x32xf16>) weight(%g : memref<32xf16>) outs(%y : memref<2x32xf16>)
      {cast_mode = #norm.cast_mode<before_weight>}
  return
}

// -----

// Any axis: the normalized dims [axis, rank) become one row of n elements;
// the leading dims are the rows, and rstd is viewed as one row-indexed vector.
// CHECK-LABEL: func.func @rms_axis1_rank3
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3, 20], strides: [20, 1] : memref<3x4x5xf32> to memref<3x20xf32>
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [20], strides: [1] : memref<4x5xf32> to memref<20xf32>
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3], strides: [1] : memref<3xf32> to memref<3xf32>
func.func @rms_axis1_rank3(%x: memref<3x4x5xf32>, %g: memref<4x5xf32>, %y: memref<3x4x5xf32>, %rstd: memref<3xf32>) {
  norm.rms_norm ins(%x : memref<3x4x5xf32>) weight(%g : memref<4x5xf32>) outs(%y : memref<3x4x5xf32>)
      rstd_outs(%rstd : memref<3xf32>) {axis = 1 : i64}
  return
}

// -----

// axis = 0: the whole buffer is one row.
// CHECK-LABEL: func.func @rms_axis0
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 37], strides: [37, 1] : memref<37xf32> to memref<1x37xf32>
func.func @rms_axis0(%x: memref<37xf32>, %y: memref<37xf32>) {
  norm.rms_norm ins(%x : memref<37xf32>) outs(%y : memref<37xf32>) {axis = 0 : i64}
  return
}

// -----

// f64 data accumulates in f64: 8 lanes per 512-bit vector.
// CHECK-LABEL: func.func @rms_f64
//       CHECK: vector.load %{{.*}} : memref<2x24xf64>, vector<8xf64>
//       CHECK: vector.fma %{{.*}} : vector<8xf64>
func.func @rms_f64(%x: memref<2x24xf64>, %y: memref<2x24xf64>) {
  norm.rms_norm ins(%x : memref<2x24xf64>) outs(%y : memref<2x24xf64>)
  return
}
