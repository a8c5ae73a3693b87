// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 gemm-tile-rows=4 gemm-tile-vectors=3 gemm-block-k=64 gemm-block-n=48 gemm-unroll=2 lower-matmuls" | FileCheck %s --check-prefix=SMALL

// Memref-form fused ops with more than 16 rows become the packed GEMM of
// FusedGemm.cpp (fewer take the GEMV, see below): threads over
// column chunks, W and A packed into f32 buffers, the register-tiled
// micro-kernel (12 rows × 2 vectors by default with AVX-512), the scale
// applied as C is stored (masked at the column tail).

// CHECK-LABEL: func.func @rms_matmul
//       CHECK: scf.parallel
//   CHECK-DAG:   memref.alloc() {alignment = 64 : i64} : memref<65536xf32>
//   CHECK-DAG:   memref.alloc() {alignment = 64 : i64} : memref<49152xf32>
//       CHECK:   scf.for
//       CHECK:     vector.store {{.*}} : memref<65536xf32>, vector<16xf32>
// The row statistics while A is packed: x·x, then the γ multiply.
//       CHECK:     vector.fma
//       CHECK:     arith.mulf {{.*}} : vector<16xf32>
//       CHECK:     math.rsqrt
// The micro-kernel: 12 broadcasts × 2 B vectors per k step.
//       CHECK:     vector.broadcast
//  CHECK-COUNT-2:  vector.fma {{.*}} : vector<16xf32>
//       CHECK:     vector.maskedstore
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
//       CHECK: vector.transpose {{.*}} [1, 0] : vector<16x16xf32> to vector<16x16xf32>
//       CHECK: vector.fma
//       CHECK: math.rsqrt
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

// matmul → norm: the GEMM writes the pre-norm sum (into a temporary here),
// then the row kernel normalizes it.

// CHECK-LABEL: func.func @matmul_ln
//       CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x32xf32>
//       CHECK: scf.parallel
//       CHECK:   vector.fma
//       CHECK: vector.reduction
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
// rounded to bf16 before its statistics are taken), and the first column
// chunk, which runs even when N = 0, writes that sum to sum_outs.
// CHECK-LABEL: func.func @residual_rms_matmul
//  CHECK-SAME: (%[[X:[^:]*]]: memref<?x?xbf16>, %[[R:[^:]*]]: memref<?x?xbf16>, %{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: memref<?x?xbf16>, %[[S:[^:]*]]: memref<?x?xbf16>)
//   CHECK-DAG: %[[XV:.*]] = memref.reinterpret_cast %[[X]]
//   CHECK-DAG: %[[RV:.*]] = memref.reinterpret_cast %[[R]]
//   CHECK-DAG: %[[SV:.*]] = memref.reinterpret_cast %[[S]]
//       CHECK: %[[CHUNKS:.*]] = arith.maxui %{{[0-9]+}}, %c1
//       CHECK: scf.parallel (%[[CHUNK:.*]]) = (%{{.*}}) to (%[[CHUNKS]])
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[CHUNK]]
//       CHECK:   %[[XL:.*]] = vector.load %[[XV]]
//       CHECK:   %[[XF:.*]] = arith.extf %[[XL]]
//       CHECK:   %[[RL:.*]] = vector.load %[[RV]]
//       CHECK:   %[[RF:.*]] = arith.extf %[[RL]]
//       CHECK:   %[[SUM:.*]] = arith.addf %[[XF]], %[[RF]] : vector<16xf32>
//       CHECK:   arith.truncf %[[SUM]] : vector<16xf32> to vector<16xbf16>
//       CHECK:   scf.if %[[FIRST]] {
//       CHECK:     vector.store %{{.*}}, %[[SV]]
//       CHECK:   vector.fma
//       CHECK:   scf.if %[[FIRST]] {
//       CHECK:     vector.maskedstore %[[SV]]
func.func @residual_rms_matmul(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                               %c: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
  return
}
