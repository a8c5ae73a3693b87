// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=BF16

// Few rows stream W unpacked (Gemm/Gemv*.cpp). A dynamic M tests at run time:
// more than 16 rows take the packed GEMM (first), up to 16 the GEMV, which
// tests again for one row (decode).
// CHECK-LABEL: func.func @gemv_dispatch
//       CHECK: %[[MANY:.*]] = arith.cmpi ugt, %{{.*}}, %c16
//       CHECK: scf.if %[[MANY]] {
//       CHECK:   vector.transpose
//       CHECK: } else {
//       CHECK:   %[[ONE:.*]] = arith.cmpi eq, %dim, %c1
//       CHECK:   scf.if %[[ONE]] {
//       CHECK:     scf.parallel
//       CHECK:   } else {
//       CHECK:     scf.parallel
func.func @gemv_dispatch(%x: memref<?x4096xf32>, %w: memref<4096x4096xf32>, %c: memref<?x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xf32>) rhs(%w : memref<4096x4096xf32>)
      outs(%c : memref<?x4096xf32>) {transpose_rhs}
  return
}

// -----

// A static M picks one path. W as N×K, 16 rows: Ã packed once, before the
// threads, by K blocks of 256 ([K block][M][256]: x·γ' and Σx², then r).
// Per task (96 W rows): per group of 6 W rows, per K block, tiles of 4 rows
// of Ã: 24 vector accumulators along k, from zeros or from the task's
// scratch; per 16 k's 6 W vectors (each prefetched one K block on), 4 of Ã,
// 24 FMAs; the last K block reduces each accumulator and applies the
// epilogue, the others store the accumulators back.
// CHECK-LABEL: func.func @gemv_dot_products
//       CHECK:   scf.for
//       CHECK:     scf.for
//       CHECK:       vector.store
//       CHECK:       math.sqrt
//       CHECK:       arith.divf
//       CHECK:   scf.parallel
//       CHECK:     %[[SCRATCH:.*]] = memref.alloc(
//       CHECK:     scf.for {{.*}} step %c6
//       CHECK:       scf.for
//       CHECK:         scf.for {{.*}} step %c4
//       CHECK:           scf.if
//       CHECK:             vector.load %[[SCRATCH]]
//       CHECK:           scf.for {{.*}} step %c16
//  CHECK-COUNT-6:          memref.prefetch
//  CHECK-COUNT-24:         vector.fma {{.*}} : vector<16xf32>
//       CHECK:           scf.if
//       CHECK:             vector.reduction <add>
//       CHECK:           } else {
//       CHECK:             vector.store {{.*}}, %[[SCRATCH]]
//   CHECK-NOT: vector.transpose
func.func @gemv_dot_products(%x: memref<16x4096xf32>, %w: memref<4096x4096xf32>, %c: memref<16x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xf32>) rhs(%w : memref<4096x4096xf32>)
      outs(%c : memref<16x4096xf32>) {transpose_rhs}
  return
}

// -----

// W as K×N, 16 rows: per task (one group of 6 vectors, 96 columns), per K
// block of 32 rows, a contiguous copy (f32) of the block: with a whole
// first tile of 4 rows (here), that tile loads the group's 6 vectors of
// each W row (masked past the task's columns) and stores them to the block
// as it computes; the other tiles read the block. Per k: 6 vectors, 4
// broadcasts of Ã, 24 FMAs, and (whole tasks) the next K block's 6 lines
// of that row prefetched into L2; the GEMM's epilogue after the last K
// block, the task's scratch between the others. Fewer than 4 rows copy the
// block first (a whole task unmasked with static offsets, the short last
// task masked).
// CHECK-LABEL: func.func @gemv_row_sweeps
//       CHECK:   scf.parallel
//       CHECK:     %[[SCRATCH:.*]] = memref.alloc(
//       CHECK:     %[[BLOCK:.*]] = memref.alloc() {{.*}} : memref<3072xf32>
//       CHECK:     scf.for
//       CHECK:       scf.if
//       CHECK:         scf.for {{.*}} step %c96
//       CHECK:           scf.if
//       CHECK:             vector.load %[[SCRATCH]]
//       CHECK:           scf.for
//       CHECK:             scf.if
//  CHECK-COUNT-6:            memref.prefetch {{.*}} read, locality<2>, data
//       CHECK:             }
//       CHECK:             vector.maskedload %arg1{{.*}} : memref<4096x4096xf32>
//  CHECK-NEXT:             vector.store {{.*}}, %[[BLOCK]]
//  CHECK-COUNT-24:         vector.fma {{.*}} : vector<16xf32>
//       CHECK:           scf.if
//       CHECK:             vector.maskedstore
//       CHECK:           } else {
//       CHECK:             vector.store {{.*}}, %[[SCRATCH]]
//       CHECK:           scf.for {{.*}} step %c4
//       CHECK:             scf.for
//  CHECK-COUNT-6:            vector.load %[[BLOCK]]
//  CHECK-COUNT-24:           vector.fma {{.*}} : vector<16xf32>
func.func @gemv_row_sweeps(%x: memref<16x4096xf32>, %w: memref<4096x4096xf32>, %c: memref<16x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<16x4096xf32>) rhs(%w : memref<4096x4096xf32>)
      outs(%c : memref<16x4096xf32>)
  return
}

// -----

// One row (decode) streams W: 4 whole W rows at a time (N×K), one
// reduction per output, no K blocks, no scratch. K×N: tasks of 1024
// columns whose sums wait in a 1024-float buffer (L1) while groups of 8 W
// rows stream past, each row one 4 KiB run: per vector of columns one load
// and one store of the sums and 8 FMAs (f32 W: no software prefetch); the
// last K mod 8 rows one at a time; then the epilogue per 16 vectors.
// CHECK-LABEL: func.func @gemv_decode_dots
//       CHECK:   scf.parallel
//   CHECK-NOT:     memref.alloc
//       CHECK:     scf.for {{.*}} step %c4
//       CHECK:       scf.for {{.*}} step %c16
//  CHECK-COUNT-4:      vector.fma {{.*}} : vector<16xf32>
//       CHECK:       vector.reduction <add>
// CHECK-LABEL: func.func @gemv_decode_sweeps
//       CHECK:   scf.parallel
//       CHECK:     %[[S:.*]] = memref.alloc() {{.*}} : memref<1024xf32>
//       CHECK:     scf.for {{.*}} step %c8
//   CHECK-NOT:       memref.prefetch
//       CHECK:       scf.for {{.*}} step %c16
//       CHECK:         vector.load %[[S]]
// CHECK-COUNT-8:       vector.fma {{.*}} : vector<16xf32>
//       CHECK:         vector.store %{{.*}}, %[[S]]
//       CHECK:     scf.for {{.*}} step %c1
//       CHECK:     scf.for {{.*}} step %c256
//       CHECK:     memref.dealloc %[[S]]
func.func @gemv_decode_dots(%x: memref<1x4096xf32>, %w: memref<4096x4096xf32>, %c: memref<1x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<1x4096xf32>) rhs(%w : memref<4096x4096xf32>)
      outs(%c : memref<1x4096xf32>) {transpose_rhs}
  return
}
func.func @gemv_decode_sweeps(%x: memref<1x4096xf32>, %w: memref<4096x4096xf32>, %c: memref<1x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<1x4096xf32>) rhs(%w : memref<4096x4096xf32>)
      outs(%c : memref<1x4096xf32>)
  return
}

// -----

// bf16 with AVX512-BF16: either layout takes the GEMV up to 16 rows, on
// vdpbf16ps. W as K×N (after the packed GEMM, the GEMV's branch): the row
// sweeps' first tile interleaves W rows k and k + 1 into k-pairs (stored to
// the block) and each row of Ã is broadcast as a 32-bit pair.
// BF16-LABEL: func.func @bf16_kxn
//       BF16: arith.cmpi ugt, %{{.*}}, %c16 :
//       BF16: x86vector.avx512.dot
//       BF16: } else {
//       BF16: vector.interleave {{.*}} : vector<16xbf16> -> vector<32xbf16>
//       BF16: vector.store {{.*}} : memref<3072xbf16>, vector<32xbf16>
//       BF16: vector.broadcast {{.*}} : i32 to vector<16xi32>
//       BF16: x86vector.avx512.dot
// BF16-LABEL: func.func @bf16_nxk
//       BF16: arith.cmpi ugt, %{{.*}}, %c16 :
func.func @bf16_kxn(%x: memref<?x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<?x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
      outs(%c : memref<?x4096xbf16>)
  return
}
func.func @bf16_nxk(%x: memref<?x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<?x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
      outs(%c : memref<?x4096xbf16>) {transpose_rhs}
  return
}

// -----

// bf16 with W as N×K runs the K-blocked dot products on vdpbf16ps for any
// number of rows: Ã (zero-filled first: steps are 32 k's) holds
// round(x·γ'), multiplied in f32 and rounded to bf16 once, and the tiles
// read W as it is, 32 k's of a row per load (no copy of W): per 32 k's a
// prefetch per W row one K block on and 24 x86vector.avx512.dot; K's tail
// is a masked load of W.
// BF16-LABEL: func.func @bf16_nxk_rows
//       BF16:   %[[A:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xbf16>
//       BF16:   scf.for
//       BF16:     vector.store %{{.*}}, %[[A]]{{.*}} : memref<?xbf16>, vector<32xbf16>
//       BF16:   scf.parallel
//       BF16:     arith.mulf {{.*}} : vector<16xf32>
//       BF16:     x86vector.avx512.cvt.packed.f32_to_bf16
//       BF16:     vector.store {{.*}}, %[[A]]
//       BF16:   scf.parallel
//   BF16-NOT:     memref.alloc() {{.*}}xbf16>
//       BF16:     scf.for {{.*}} step %c6
//       BF16:       scf.for
//       BF16:         scf.for {{.*}} step %c4
//       BF16:           scf.for {{.*}} step %c32
//       BF16:             memref.prefetch %arg2
//       BF16:             vector.load %arg2{{.*}} : memref<4096x4096xbf16>, vector<32xbf16>
//       BF16:             vector.load %[[A]]{{.*}} : memref<?xbf16>, vector<32xbf16>
// BF16-COUNT-24:          x86vector.avx512.dot
//       BF16:           scf.if
//       BF16:             vector.maskedload %arg2{{.*}} : memref<4096x4096xbf16>, vector<32xi1>, vector<32xbf16>
//       BF16:           scf.if
//       BF16:             vector.reduction <add>
func.func @bf16_nxk_rows(%x: memref<13x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>,
                         %c: memref<13x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<13x4096xbf16>) weight(%g : memref<4096xbf16>)
      rhs(%w : memref<4096x4096xbf16>) outs(%c : memref<13x4096xbf16>) {transpose_rhs}
  return
}

// -----

// One row, bf16, W as N×K: the decode kernel runs vdpbf16ps on W as it is
// (4 whole W rows at a time, 32 k's per load, a masked load at K's tail),
// with Ã's one row of round(x·γ').
// BF16-LABEL: func.func @bf16_nxk_decode
//       BF16:   x86vector.avx512.cvt.packed.f32_to_bf16
//       BF16:   scf.parallel
//       BF16:     scf.for {{.*}} step %c32
//       BF16:       vector.load %{{.*}} : memref<?xbf16>, vector<32xbf16>
//       BF16:       vector.load %arg2{{.*}} : memref<4096x4096xbf16>, vector<32xbf16>
//       BF16:       x86vector.avx512.dot
//       BF16:       vector.load %arg2{{.*}} : memref<4096x4096xbf16>, vector<32xbf16>
//       BF16:       x86vector.avx512.dot
//       BF16:     scf.if
//       BF16:       vector.maskedload %arg2{{.*}} vector<32xbf16>
// CHECK-LABEL: func.func @bf16_nxk_decode
//   CHECK-NOT:   x86vector.avx512.dot
//       CHECK:   return
func.func @bf16_nxk_decode(%x: memref<1x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>,
                           %c: memref<1x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<1x4096xbf16>) weight(%g : memref<4096xbf16>)
      rhs(%w : memref<4096x4096xbf16>) outs(%c : memref<1x4096xbf16>) {transpose_rhs}
  return
}

// -----

// One row, bf16, W as K×N: the decode sweeps widen W to f32 and read 4 KiB
// runs of each row, as f32's, with no software prefetch: tasks of 2048
// columns, whose sums take 8 KiB.
// BF16-LABEL: func.func @bf16_kxn_decode
//       BF16:   scf.parallel
//       BF16:     memref.alloc() {{.*}} : memref<2048xf32>
//       BF16:     scf.for {{.*}} step %c8
//       BF16:       scf.for {{.*}} step %c16
//   BF16-NOT:         memref.prefetch
// BF16-COUNT-8:       vector.fma {{.*}} : vector<16xf32>
func.func @bf16_kxn_decode(%x: memref<1x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<1x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<1x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
      outs(%c : memref<1x4096xbf16>)
  return
}

