// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 lower-matmuls=false" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 gemm-tile-rows=4 gemm-tile-vectors=3 gemm-block-k=64 gemm-block-n=48 gemm-unroll=2 lower-matmuls" | FileCheck %s --check-prefix=SMALL

// Memref-form fused ops with more than 16 rows become the packed GEMM of
// NormToVector/Gemm/ (fewer take the GEMV, fused-gemv.mlir): all of A packed once
// into Ã (transformed, with the row statistics), in parallel over rows; then
// threads over column chunks, each packing its W panel into B̃, the
// register-tiled micro-kernel (12 rows × 2 vectors by default with
// AVX-512), the scale applied as C is stored (masked at the column tail).

// CHECK-LABEL: func.func @rms_matmul
//       CHECK: %[[PACKED_A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       CHECK: scf.parallel
//       CHECK:   scf.for
// The row statistics while A is packed: x·x, then the γ multiply; then r.
//       CHECK:     vector.fma
//       CHECK:     arith.mulf {{.*}} : vector<16xf32>
//       CHECK:     vector.store {{.*}}, %[[PACKED_A]]
//       CHECK:   math.sqrt
//       CHECK:   arith.divf
//       CHECK: scf.parallel
//       CHECK:   %[[PACKED_B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<65536xf32>
//       CHECK:   scf.for
//       CHECK:     vector.store {{.*}}, %[[PACKED_B]]
// The micro-kernel: 12 broadcasts × 2 B vectors per k step, Ã read from
// the shared panel.
//       CHECK:     memref.load %[[PACKED_A]]
//       CHECK:     vector.broadcast
//  CHECK-COUNT-2:  vector.fma {{.*}} : vector<16xf32>
//       CHECK:     vector.maskedstore
//       CHECK:   memref.dealloc %[[PACKED_B]]
//       CHECK: memref.dealloc %[[PACKED_A]]
//   CHECK-NOT: linalg.
//   CHECK-NOT: norm.
// SMALL-LABEL: func.func @rms_matmul
//       SMALL: memref.alloc() {alignment = 64 : i64} : memref<3072xf32>
//       SMALL: vector.fma {{.*}} : vector<8xf32>
func.func @rms_matmul(%x: memref<24x64xf32>, %g: memref<64xf32>, %w: memref<64x32xf32>, %c: memref<24x32xf32>) {
  norm.rms_norm_matmul ins(%x : memref<24x64xf32>) weight(%g : memref<64xf32>) rhs(%w : memref<64x32xf32>)
      outs(%c : memref<24x32xf32>)
  return
}

// -----

// LayerNorm → matmul with W given as N×K: W is packed through L×L register
// transposes; the column sums c = Σ γ·W and Σ β·W are gathered while packing.

// CHECK-LABEL: func.func @ln_matmul_t
//       CHECK: vector.fma
//       CHECK: math.sqrt
//       CHECK: arith.divf
//       CHECK: scf.parallel
//       CHECK: vector.transpose {{.*}} [1, 0] : vector<16x16xf32> to vector<16x16xf32>
//   CHECK-NOT: linalg.
//   CHECK-NOT: norm.
func.func @ln_matmul_t(%x: memref<?x768xbf16>, %g: memref<768xbf16>, %b: memref<768xbf16>,
                       %w: memref<300x768xbf16>, %c: memref<?x300xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xbf16>) weight(%g : memref<768xbf16>)
      bias(%b : memref<768xbf16>) rhs(%w : memref<300x768xbf16>)
      outs(%c : memref<?x300xbf16>) {transpose_rhs}
  return
}

// -----

// matmul → norm: the GEMM writes the pre-norm sum (into a temporary here)
// and, per row and 16 columns, its statistics (LayerNorm: a pivot,
// Σ (s − pivot) and M2) from the registers it stores; a merge per row
// (Chan) gives the variance and the mean as pivot + correction, and the row
// kernel normalizes S in one sweep, ((s − p) − c)·r, with no statistics
// sweep of its own.

// CHECK-LABEL: func.func @matmul_ln
//       CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x32xf32>
//       CHECK: %[[PIVOT:.*]] = memref.alloc(%c4, %{{.*}}) {{.*}} : memref<?x?xf32>
//       CHECK: %[[DELTA:.*]] = memref.alloc(%c4, %{{.*}}) {{.*}} : memref<?x?xf32>
//       CHECK: %[[M2:.*]] = memref.alloc(%c4, %{{.*}}) {{.*}} : memref<?x?xf32>
//       CHECK: scf.parallel
//       CHECK:   vector.fma
//       CHECK:   vector.maskedstore %[[S]]
//       CHECK:   vector.reduction <add>
//       CHECK:   memref.store %{{.*}}, %[[PIVOT]]
//       CHECK:   memref.store %{{.*}}, %[[DELTA]]
//       CHECK:   memref.store %{{.*}}, %[[M2]]
//       CHECK: scf.parallel
//       CHECK:   vector.maskedload %[[PIVOT]]
//       CHECK:   vector.maskedload %[[M2]]
//       CHECK:   memref.store %{{.*}}, %[[VAR:[a-z_0-9]+]][
//  CHECK-NEXT:   memref.store %{{.*}}, %[[SHIFT:[a-z_0-9]+]][
//  CHECK-NEXT:   memref.store %{{.*}}, %[[CORR:[a-z_0-9]+]][
//       CHECK: scf.for
//       CHECK:   memref.load %[[VAR]]
//       CHECK:   math.sqrt
//   CHECK-NOT:   vector.reduction
//       CHECK:   vector.load %[[SV:[a-z_0-9]+]]
//       CHECK:   arith.subf
//       CHECK:   vector.fma
//       CHECK:   vector.store
//       CHECK: memref.dealloc %[[PIVOT]]
//       CHECK: memref.dealloc %[[S]]
//   CHECK-NOT: linalg.
//   CHECK-NOT: norm.
func.func @matmul_ln(%a: memref<4x16xf32>, %w: memref<16x32xf32>, %y: memref<4x32xf32>) {
  norm.matmul_layer_norm ins(%a : memref<4x16xf32>) rhs(%w : memref<16x32xf32>) outs(%y : memref<4x32xf32>)
  return
}

// -----

// An f64 accumulation type is not the GEMM's: the op is split into the norm
// (vector row kernel into a temporary) and a linalg.generic matmul.

// CHECK-LABEL: func.func @rms_matmul_f64
//       CHECK: vector.fma {{.*}} : vector<8xf64>
//       CHECK: linalg.generic
//  CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
//  CHECK-SAME: memref<4x64xf64>, memref<64x32xf32>
//   CHECK-NOT: norm.
func.func @rms_matmul_f64(%x: memref<4x64xf32>, %w: memref<64x32xf32>, %c: memref<4x32xf32>) {
  norm.rms_norm_matmul ins(%x : memref<4x64xf32>) rhs(%w : memref<64x32xf32>)
      outs(%c : memref<4x32xf32>) {acc_type = f64}
  return
}

// -----

// With lower-matmuls, f32 memref matmuls (named, or generic with W as N×K)
// use the GEMM and accumulate into C; bf16 and tensor matmuls are left alone.
// Without it (the first RUN line) nothing but norm ops is touched.

// CHECK-LABEL: func.func @matmuls
//       CHECK: linalg.matmul
//       CHECK: linalg.generic
//       CHECK: linalg.matmul {{.*}}bf16
// SMALL-LABEL: func.func @matmuls
//   SMALL-NOT: linalg.matmul ins({{.*}} : memref<24x64xf32>
//       SMALL: scf.parallel
//       SMALL: vector.fma
//       SMALL: scf.parallel
//       SMALL: vector.transpose
//       SMALL: linalg.matmul {{.*}}bf16
func.func @matmuls(%a: memref<24x64xf32>, %w: memref<64x32xf32>, %wt: memref<32x64xf32>,
                   %c: memref<24x32xf32>, %ab: memref<24x64xbf16>, %wb: memref<64x32xbf16>,
                   %cb: memref<24x32xbf16>) {
  linalg.matmul ins(%a, %w : memref<24x64xf32>, memref<64x32xf32>) outs(%c : memref<24x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %wt : memref<24x64xf32>, memref<32x64xf32>) outs(%c : memref<24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%ab, %wb : memref<24x64xbf16>, memref<64x32xbf16>) outs(%cb : memref<24x32xbf16>)
  return
}

// -----

// A residual: A is read as round(X + R) while it is packed (bf16: the sum is
// rounded to bf16 before its statistics are taken), and packing, which runs
// once per row before the column chunks (so also when N = 0), writes that
// sum to sum_outs.
// CHECK-LABEL: func.func @residual_rms_matmul
//  CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xbf16>, %[[R:[^:]*]]: memref<?x?xbf16>, %{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: memref<?x?xbf16>, %[[S:[^:]*]]: memref<?x?xbf16>)
//   CHECK-DAG: %[[XV:.*]] = memref.reinterpret_cast %[[X]]
//   CHECK-DAG: %[[RV:.*]] = memref.reinterpret_cast %[[R]]
//   CHECK-DAG: %[[SV:.*]] = memref.reinterpret_cast %[[S]]
// (The packed GEMM, for more than 16 rows, comes first; the GEMV is its
// else branch.)
//       CHECK: scf.if
//       CHECK:   scf.parallel (%[[ROW:.*]]) =
//       CHECK:     %[[XL:.*]] = vector.load %[[XV]][%[[ROW]]
//       CHECK:     %[[XF:.*]] = arith.extf %[[XL]]
//       CHECK:     %[[RL:.*]] = vector.load %[[RV]][%[[ROW]]
//       CHECK:     %[[RF:.*]] = arith.extf %[[RL]]
//       CHECK:     %[[SUM:.*]] = arith.addf %[[XF]], %[[RF]] : vector<16xf32>
//       CHECK:     %[[SUMB:.*]] = arith.truncf %[[SUM]] : vector<16xf32> to vector<16xbf16>
//   CHECK-NOT:     scf.if
//       CHECK:     vector.store %{{.*}}, %[[SV]][%[[ROW]]
//       CHECK:     vector.fma
//       CHECK:     vector.maskedstore %[[SV]][%[[ROW]]
//       CHECK:   scf.parallel
//   CHECK-NOT:   %[[SV]]
//       CHECK: } else {
func.func @residual_rms_matmul(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                               %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
  return
}

// -----

// Batch matmuls (lower-matmuls): one GEMM per batch on strided 2-D views,
// batches over the threads; W's batch dim may be in front or in the middle
// (V as [seq, heads, dim]), not last.
// SMALL-LABEL: func.func @batch_matmuls
//       SMALL:   scf.parallel (%[[B:.*]]) =
//       SMALL:     memref.subview %{{.*}}[%[[B]], 0, 0] [1, 8, 64] [1, 1, 1] : memref<3x8x64xf32> to memref<8x64xf32, strided<[64, 1], offset: ?>>
//       SMALL:     memref.subview %{{.*}}[0, %[[B]], 0] [64, 1, 32] [1, 1, 1] : memref<64x3x32xf32> to memref<64x32xf32, strided<[96, 1], offset: ?>>
//       SMALL:     vector.fma {{.*}} : vector<8xf32>
//       SMALL:   linalg.generic
//  SMALL-SAME:     iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @batch_matmuls(%p: memref<3x8x64xf32>, %v: memref<64x3x32xf32>, %o: memref<3x8x32xf32>,
                         %vl: memref<64x32x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (k, b, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<3x8x64xf32>, memref<64x3x32xf32>) outs(%o : memref<3x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  // The batch as W's last dim: its rows are not contiguous; left alone.
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (k, n, b)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vl : memref<3x8x64xf32>, memref<64x32x3xf32>) outs(%o : memref<3x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// matmul → norm with N ≤ NC = 256 (one column chunk holds whole rows):
// after a row block's last K block its rows are merged and normalized right
// there (views of the block's rows, from L2); rows wider than a chunk are
// normalized after the GEMM (the branch after the chunk loop).
// CHECK-LABEL: func.func @matmul_ln_epilogue
//       CHECK: scf.parallel
//       CHECK:   %[[LAST_AND_FIT:.*]] = arith.andi
//       CHECK:   scf.if %[[LAST_AND_FIT]] {
//       CHECK:     scf.parallel (%{{.*}}) = (%[[FIRST:[a-z0-9_]+]]) to
//       CHECK:     memref.subview %{{.*}}[%[[FIRST]], 0] [%{{.*}}, 32] [1, 1] : memref<24x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
//       CHECK:     math.sqrt
//       CHECK:     vector.store
//       CHECK: %[[WIDE:.*]] = arith.cmpi ugt, %c32{{.*}}, %c256
//       CHECK: scf.if %[[WIDE]] {
//       CHECK:   math.sqrt
func.func @matmul_ln_epilogue(%a: memref<24x16xf32>, %w: memref<16x32xf32>, %y: memref<24x32xf32>) {
  norm.matmul_layer_norm ins(%a : memref<24x16xf32>) rhs(%w : memref<16x32xf32>) outs(%y : memref<24x32xf32>)
  return
}
