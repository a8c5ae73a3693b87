// REQUIRES: avx512bf16
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx512
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.threads
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 vector-options={pipeline-rows=false streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.rows
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 vector-options={bf16-pair-order=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.natural
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx2
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.avx512 > %t.avx512.data
// RUN: grep -v base@ %t.threads > %t.threads.data
// RUN: grep -v base@ %t.rows > %t.rows.data
// RUN: grep -v base@ %t.natural > %t.natural.data
// RUN: grep -v base@ %t.avx2 > %t.avx2.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.avx512.data %t.upstream.data
// RUN: diff %t.threads.data %t.upstream.data
// RUN: diff %t.rows.data %t.upstream.data
// RUN: diff %t.natural.data %t.upstream.data
// RUN: diff %t.avx2.data %t.upstream.data
// RUN: FileCheck %s < %t.avx512
// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=KERNEL
// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 bf16-pair-order=false" | FileCheck %s --check-prefix=NATURAL

// Dynamic scales (per token, per group) on bf16 rows from the row kernel
// built for 512-bit registers, where the rows are in pair order (32 lanes:
// the even elements, then the odd ones) and the row buffer holds each block
// of 32 in that order (QuantizedRow.h): the scales' bits and the bytes must
// equal the decomposition's (diff), on one thread and on two (chunks of
// pipelined rows, streaming stores: rows of 4099 bytes start misaligned
// but for the first, so both of the store sweep's branches run), without
// row pipelining, in natural order (bf16-pair-order=false) and on AVX2. y
// is exact: x (or x + residual) is all ones and ε below an ulp, so 1/σ = 1
// and the RMSNorm's y is γ; the LayerNorm's d is 0 and its y is β. γ and β
// are bf16 of 16 binades (2^-15 to 2^1), their bits from (i · 40503) mod
// 2^16 with the exponent field folded into that range, so each row's or
// group's t = y / s spans the formats' normals, subnormals and zero, and
// neighbouring elements' codes differ: a byte or a scale in the wrong place
// shows. Rows of 4099 end in a masked tail (3 values: two even elements,
// one odd); 9 rows give the two threads chunks of two pipelined rows.

// KERNEL-LABEL: func.func @per_token
//       KERNEL: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       KERNEL: vector.load %{{.*}} : memref<9x4099xbf16>, vector<32xbf16>
//       KERNEL: vector.store %{{.*}} : memref<?xf32>, vector<32xf32>
//       KERNEL: vector.maskedstore %{{.*}} : memref<?xf32>, vector<32xi1>, vector<32xf32>
//       KERNEL: arith.maxui %{{.*}} : vector<32xi32>
//       KERNEL: vector.load %{{.*}} : memref<?xf32>, vector<32xf32>
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL: arith.ori %{{.*}}, %{{.*}} : vector<32xi8>
//       KERNEL: vector.store %{{.*}} : memref<9x4099xf8E4M3FN>, vector<32xf8E4M3FN>
// KERNEL-LABEL: func.func @per_group
//       KERNEL: vector.load %{{.*}} : memref<9x4096xbf16>, vector<32xbf16>
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL: vector.store %{{.*}} : memref<9x4096xf8E4M3FN>, vector<32xf8E4M3FN>
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
//       KERNEL: vector.store %{{.*}} : memref<9x4096xi8>, vector<32xi8>

// NATURAL-LABEL: func.func @per_token
//   NATURAL-NOT: vector<32xbf16>
//       NATURAL: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
//   NATURAL-NOT: vector<32xbf16>
// NATURAL-LABEL: func.func @per_group
//   NATURAL-NOT: vector<32xbf16>
//   NATURAL-NOT: llvm.x86.avx512.packssdw.512

// The per-token scales' bits (the same on every row): max |γ| = 1.9921875
// over 448, 57344 and 127 in f32; a check that the data is what the
// comment says (every run is diffed against the decomposition's).
// CHECK: sizes = [9, 1] strides = [1, 1] data =
// CHECK-NEXT: {{\[\[}}999405275],
// CHECK: sizes = [9, 1] strides = [1, 1] data =
// CHECK-NEXT: {{\[\[}}940685019],
// CHECK: sizes = [9, 1] strides = [1, 1] data =
// CHECK-NEXT: {{\[\[}}1015054594],

func.func private @printMemrefI32(memref<*xi32>)

func.func @per_token(%x: memref<9x4099xbf16>, %r: memref<9x4099xbf16>,
                     %g: memref<4099xbf16>,
                     %q: memref<9x4099xf8E4M3FN>, %sq: memref<9xf32>,
                     %e: memref<9x4099xf8E5M2>, %se: memref<9xf32>,
                     %i: memref<9x4099xi8>, %si: memref<9xf32>) {
  norm.rms_norm ins(%x : memref<9x4099xbf16>) residual(%r : memref<9x4099xbf16>)
    weight(%g : memref<4099xbf16>)
    outs(%q : memref<9x4099xf8E4M3FN>) scale_outs(%sq : memref<9xf32>)
    {epsilon = 1.0e-30 : f32}
  norm.layer_norm ins(%x : memref<9x4099xbf16>) residual(%r : memref<9x4099xbf16>)
    weight(%g : memref<4099xbf16>) bias(%g : memref<4099xbf16>)
    outs(%e : memref<9x4099xf8E5M2>) scale_outs(%se : memref<9xf32>)
    {axis = 1 : i64, epsilon = 1.0e-05 : f32}
  norm.rms_norm ins(%x : memref<9x4099xbf16>) residual(%r : memref<9x4099xbf16>)
    weight(%g : memref<4099xbf16>)
    outs(%i : memref<9x4099xi8>) scale_outs(%si : memref<9xf32>)
    {epsilon = 1.0e-30 : f32}
  return
}

func.func @per_group(%x: memref<9x4096xbf16>, %g: memref<4096xbf16>,
                     %q: memref<9x4096xf8E4M3FN>, %sq: memref<9x128xf32>,
                     %i: memref<9x4096xi8>, %si: memref<9x32xf32>) {
  norm.rms_norm ins(%x : memref<9x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%q : memref<9x4096xf8E4M3FN>) scale_outs(%sq : memref<9x128xf32>)
    {epsilon = 1.0e-30 : f32, group_size = 32 : i64}
  norm.rms_norm ins(%x : memref<9x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%i : memref<9x4096xi8>) scale_outs(%si : memref<9x32xf32>)
    {epsilon = 1.0e-30 : f32, group_size = 128 : i64}
  return
}

// Groups of 64 in rows of 19 groups: one batch of 16 groups whose maxima,
// scales and 1/s are taken a vector at a time (QuantizedRow.cpp,
// emitGroupBatches), then 3 groups one by one; E5M2 and i8.
func.func @per_group_tail(%x: memref<9x1216xbf16>, %g: memref<1216xbf16>,
                          %e: memref<9x1216xf8E5M2>, %se: memref<9x19xf32>,
                          %i: memref<9x1216xi8>, %si: memref<9x19xf32>) {
  norm.rms_norm ins(%x : memref<9x1216xbf16>) weight(%g : memref<1216xbf16>)
    outs(%e : memref<9x1216xf8E5M2>) scale_outs(%se : memref<9x19xf32>)
    {epsilon = 1.0e-30 : f32, group_size = 64 : i64}
  norm.rms_norm ins(%x : memref<9x1216xbf16>) weight(%g : memref<1216xbf16>)
    outs(%i : memref<9x1216xi8>) scale_outs(%si : memref<9x19xf32>)
    {epsilon = 1.0e-30 : f32, group_size = 64 : i64}
  return
}

// bf16 bits: sign and mantissa of h = (i · 40503) mod 2^16, exponent field
// 112 + (h >> 7) mod 16.
func.func @fill_values(%g: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %g, %c0 : memref<?xbf16>
  %mult = arith.constant 40503 : i32
  %keep = arith.constant 0x807F : i32
  %c7 = arith.constant 7 : i32
  %c15 = arith.constant 15 : i32
  %c112 = arith.constant 112 : i32
  scf.for %i = %c0 to %n step %c1 {
    %w = arith.index_cast %i : index to i32
    %h = arith.muli %w, %mult : i32
    %kept = arith.andi %h, %keep : i32
    %e0 = arith.shrui %h, %c7 : i32
    %e1 = arith.andi %e0, %c15 : i32
    %e2 = arith.addi %e1, %c112 : i32
    %e = arith.shli %e2, %c7 : i32
    %bits = arith.ori %kept, %e : i32
    %b16 = arith.trunci %bits : i32 to i16
    %v = arith.bitcast %b16 : i16 to bf16
    memref.store %v, %g[%i] : memref<?xbf16>
  }
  return
}

func.func @print_bytes(%q: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %q, %c0 : memref<?x?xi8>
  %n = memref.dim %q, %c1 : memref<?x?xi8>
  %out = memref.alloc(%rows, %n) : memref<?x?xi32>
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %b = memref.load %q[%r, %i] : memref<?x?xi8>
      %w = arith.extui %b : i8 to i32
      memref.store %w, %out[%r, %i] : memref<?x?xi32>
    }
  }
  %out_u = memref.cast %out : memref<?x?xi32> to memref<*xi32>
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func @print_scales(%s: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %s, %c0 : memref<?x?xf32>
  %n = memref.dim %s, %c1 : memref<?x?xf32>
  %out = memref.alloc(%rows, %n) : memref<?x?xi32>
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %s[%r, %i] : memref<?x?xf32>
      %w = arith.bitcast %v : f32 to i32
      memref.store %w, %out[%r, %i] : memref<?x?xi32>
    }
  }
  %out_u = memref.cast %out : memref<?x?xi32> to memref<*xi32>
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %half = arith.constant 0.5 : bf16
  %one = arith.constant 1.0 : bf16

  %x = memref.alloc() : memref<9x4099xbf16>
  linalg.fill ins(%half : bf16) outs(%x : memref<9x4099xbf16>)
  %g = memref.alloc() : memref<4099xbf16>
  %g_d = memref.cast %g : memref<4099xbf16> to memref<?xbf16>
  func.call @fill_values(%g_d) : (memref<?xbf16>) -> ()
  %q = memref.alloc() : memref<9x4099xf8E4M3FN>
  %e = memref.alloc() : memref<9x4099xf8E5M2>
  %i = memref.alloc() : memref<9x4099xi8>
  %sq = memref.alloc() : memref<9xf32>
  %se = memref.alloc() : memref<9xf32>
  %si = memref.alloc() : memref<9xf32>
  func.call @per_token(%x, %x, %g, %q, %sq, %e, %se, %i, %si)
    : (memref<9x4099xbf16>, memref<9x4099xbf16>, memref<4099xbf16>,
       memref<9x4099xf8E4M3FN>, memref<9xf32>, memref<9x4099xf8E5M2>,
       memref<9xf32>, memref<9x4099xi8>, memref<9xf32>) -> ()
  %q8 = memref.alloc() : memref<9x4099xi8>
  %e8 = memref.alloc() : memref<9x4099xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c4099 = arith.constant 4099 : index
  scf.for %r = %c0 to %c9 step %c1 {
    scf.for %k = %c0 to %c4099 step %c1 {
      %a = memref.load %q[%r, %k] : memref<9x4099xf8E4M3FN>
      %ab = arith.bitcast %a : f8E4M3FN to i8
      memref.store %ab, %q8[%r, %k] : memref<9x4099xi8>
      %b = memref.load %e[%r, %k] : memref<9x4099xf8E5M2>
      %bb = arith.bitcast %b : f8E5M2 to i8
      memref.store %bb, %e8[%r, %k] : memref<9x4099xi8>
    }
  }
  %q8_d = memref.cast %q8 : memref<9x4099xi8> to memref<?x?xi8>
  %e8_d = memref.cast %e8 : memref<9x4099xi8> to memref<?x?xi8>
  %i_d = memref.cast %i : memref<9x4099xi8> to memref<?x?xi8>
  func.call @print_bytes(%q8_d) : (memref<?x?xi8>) -> ()
  func.call @print_bytes(%e8_d) : (memref<?x?xi8>) -> ()
  func.call @print_bytes(%i_d) : (memref<?x?xi8>) -> ()
  %sq_2 = memref.expand_shape %sq [[0, 1]] output_shape [9, 1] : memref<9xf32> into memref<9x1xf32>
  %se_2 = memref.expand_shape %se [[0, 1]] output_shape [9, 1] : memref<9xf32> into memref<9x1xf32>
  %si_2 = memref.expand_shape %si [[0, 1]] output_shape [9, 1] : memref<9xf32> into memref<9x1xf32>
  %sq_d = memref.cast %sq_2 : memref<9x1xf32> to memref<?x?xf32>
  %se_d = memref.cast %se_2 : memref<9x1xf32> to memref<?x?xf32>
  %si_d = memref.cast %si_2 : memref<9x1xf32> to memref<?x?xf32>
  func.call @print_scales(%sq_d) : (memref<?x?xf32>) -> ()
  func.call @print_scales(%se_d) : (memref<?x?xf32>) -> ()
  func.call @print_scales(%si_d) : (memref<?x?xf32>) -> ()

  %xg = memref.alloc() : memref<9x4096xbf16>
  linalg.fill ins(%one : bf16) outs(%xg : memref<9x4096xbf16>)
  %gg = memref.alloc() : memref<4096xbf16>
  %gg_d = memref.cast %gg : memref<4096xbf16> to memref<?xbf16>
  func.call @fill_values(%gg_d) : (memref<?xbf16>) -> ()
  %gq = memref.alloc() : memref<9x4096xf8E4M3FN>
  %gi = memref.alloc() : memref<9x4096xi8>
  %gsq = memref.alloc() : memref<9x128xf32>
  %gsi = memref.alloc() : memref<9x32xf32>
  func.call @per_group(%xg, %gg, %gq, %gsq, %gi, %gsi)
    : (memref<9x4096xbf16>, memref<4096xbf16>, memref<9x4096xf8E4M3FN>,
       memref<9x128xf32>, memref<9x4096xi8>, memref<9x32xf32>) -> ()
  %gq8 = memref.alloc() : memref<9x4096xi8>
  %c4096 = arith.constant 4096 : index
  scf.for %r = %c0 to %c9 step %c1 {
    scf.for %k = %c0 to %c4096 step %c1 {
      %a = memref.load %gq[%r, %k] : memref<9x4096xf8E4M3FN>
      %ab = arith.bitcast %a : f8E4M3FN to i8
      memref.store %ab, %gq8[%r, %k] : memref<9x4096xi8>
    }
  }
  %gq8_d = memref.cast %gq8 : memref<9x4096xi8> to memref<?x?xi8>
  %gi_d = memref.cast %gi : memref<9x4096xi8> to memref<?x?xi8>
  func.call @print_bytes(%gq8_d) : (memref<?x?xi8>) -> ()
  func.call @print_bytes(%gi_d) : (memref<?x?xi8>) -> ()
  %gsq_d = memref.cast %gsq : memref<9x128xf32> to memref<?x?xf32>
  %gsi_d = memref.cast %gsi : memref<9x32xf32> to memref<?x?xf32>
  func.call @print_scales(%gsq_d) : (memref<?x?xf32>) -> ()
  func.call @print_scales(%gsi_d) : (memref<?x?xf32>) -> ()

  %xt = memref.alloc() : memref<9x1216xbf16>
  linalg.fill ins(%one : bf16) outs(%xt : memref<9x1216xbf16>)
  %gt = memref.alloc() : memref<1216xbf16>
  %gt_d = memref.cast %gt : memref<1216xbf16> to memref<?xbf16>
  func.call @fill_values(%gt_d) : (memref<?xbf16>) -> ()
  %te = memref.alloc() : memref<9x1216xf8E5M2>
  %ti = memref.alloc() : memref<9x1216xi8>
  %tse = memref.alloc() : memref<9x19xf32>
  %tsi = memref.alloc() : memref<9x19xf32>
  func.call @per_group_tail(%xt, %gt, %te, %tse, %ti, %tsi)
    : (memref<9x1216xbf16>, memref<1216xbf16>, memref<9x1216xf8E5M2>,
       memref<9x19xf32>, memref<9x1216xi8>, memref<9x19xf32>) -> ()
  %te8 = memref.alloc() : memref<9x1216xi8>
  %c1216 = arith.constant 1216 : index
  scf.for %r = %c0 to %c9 step %c1 {
    scf.for %k = %c0 to %c1216 step %c1 {
      %a = memref.load %te[%r, %k] : memref<9x1216xf8E5M2>
      %ab = arith.bitcast %a : f8E5M2 to i8
      memref.store %ab, %te8[%r, %k] : memref<9x1216xi8>
    }
  }
  %te8_d = memref.cast %te8 : memref<9x1216xi8> to memref<?x?xi8>
  %ti_d = memref.cast %ti : memref<9x1216xi8> to memref<?x?xi8>
  func.call @print_bytes(%te8_d) : (memref<?x?xi8>) -> ()
  func.call @print_bytes(%ti_d) : (memref<?x?xi8>) -> ()
  %tse_d = memref.cast %tse : memref<9x19xf32> to memref<?x?xf32>
  %tsi_d = memref.cast %tsi : memref<9x19xf32> to memref<?x?xf32>
  func.call @print_scales(%tse_d) : (memref<?x?xf32>) -> ()
  func.call @print_scales(%tsi_d) : (memref<?x?xf32>) -> ()
  return
}
