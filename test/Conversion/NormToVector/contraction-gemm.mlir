// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 gemm-tile-rows=4 gemm-tile-vectors=3 gemm-block-k=64 gemm-block-n=48 gemm-unroll=2 lower-matmuls" | FileCheck %s

// Contractions that are not one matmul or batch matmul but a loop nest of
// them (LinalgContraction.h): the forms of the shard partitioner's Llama
// layer (examples/llama-layer-sp.mlir) and einsum-like generics. Each
// becomes the packed GEMM (its vector.fma micro-kernel) on 2-D views: the
// GEMM groups collapsed, the other dims fixed by outer loops (parallel ones
// an scf.parallel, reductions an scf.for accumulating into C).

// q/k/v of the sharded layer: (h, t, d, k), A (t, k) without the head dim
// (broadcast over heads), W (h, d, k), C (h, t, d). The heads go over the
// threads; A is used whole, W and C per head.
// CHECK-LABEL: func.func @heads_broadcast_a
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   scf.parallel (%[[H:.*]]) =
//       CHECK:     memref.subview %{{.*}}[%[[H]], 0, 0] [1, 8, 64] [1, 1, 1] : memref<4x8x64xf32> to memref<8x64xf32, strided<[64, 1], offset: ?>>
//       CHECK:     memref.subview %{{.*}}[%[[H]], 0, 0] [1, 16, 8] [1, 1, 1] : memref<4x16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: ?>>
//       CHECK:     vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.generic
func.func @heads_broadcast_a(%x: memref<16x64xf32>, %w: memref<4x8x64xf32>, %q: memref<4x16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>,
                                   affine_map<(h, t, d, k) -> (h, d, k)>,
                                   affine_map<(h, t, d, k) -> (h, t, d)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<16x64xf32>, memref<4x8x64xf32>) outs(%q : memref<4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The o projection: (t, n, h, d) with two reduction dims that are not
// contiguous in A (h, t, d): d is K, h an outer reduction loop in sequence
// (no scf.parallel around it), each head's GEMM adding into the whole C.
// CHECK-LABEL: func.func @two_reductions
//   CHECK-NOT:   scf.parallel
//       CHECK:   scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:     memref.subview %{{.*}}[%[[H]], 0, 0] [1, 16, 8] [1, 1, 1] : memref<4x16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: ?>>
//       CHECK:     memref.subview %{{.*}}[%[[H]], 0, 0] [1, 8, 32] [1, 1, 1] : memref<4x8x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
//       CHECK:     vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.generic
func.func @two_reductions(%a: memref<4x16x8xf32>, %w: memref<4x8x32xf32>, %c: memref<16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, n, h, d) -> (h, t, d)>,
                                   affine_map<(t, n, h, d) -> (h, d, n)>,
                                   affine_map<(t, n, h, d) -> (t, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : memref<4x16x8xf32>, memref<4x8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two reduction dims contiguous in both A and W: collapsed to one K; no
// outer loop. bf16 A and W with an f32 C take the same GEMM.
// CHECK-LABEL: func.func @collapsed_k
//       CHECK:   memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<16x4x8xbf16> into memref<16x32xbf16>
//       CHECK:   memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<4x8x24xbf16> into memref<32x24xbf16>
//   CHECK-NOT:   memref.subview %{{.*}} : memref<16x4x8xbf16>
//       CHECK:   vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.generic
func.func @collapsed_k(%a: memref<16x4x8xbf16>, %w: memref<4x8x24xbf16>, %c: memref<16x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, h, d) -> (m, h, d)>,
                                   affine_map<(m, n, h, d) -> (h, d, n)>,
                                   affine_map<(m, n, h, d) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : memref<16x4x8xbf16>, memref<4x8x24xbf16>) outs(%c : memref<16x24xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows over two dims (batch, seq) against one W (N × K): M = batch · seq,
// one GEMM on the collapsed A and C.
// CHECK-LABEL: func.func @collapsed_rows
//       CHECK:   memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x16x32xf32> into memref<32x32xf32>
//       CHECK:   memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x16x24xf32> into memref<32x24xf32>
//   CHECK-NOT:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%c2)
//       CHECK:   vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.generic
func.func @collapsed_rows(%a: memref<2x16x32xf32>, %w: memref<24x32xf32>, %c: memref<2x16x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, t, n, k) -> (b, t, k)>,
                                   affine_map<(b, t, n, k) -> (n, k)>,
                                   affine_map<(b, t, n, k) -> (b, t, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x16x32xf32>, memref<24x32xf32>) outs(%c : memref<2x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// C stored (n, m): computed as W · Aᵀ, W (n, k) the GEMM's A and A (m, k)
// its transposed W: no view, no loop around the GEMM.
// CHECK-LABEL: func.func @c_transposed
//   CHECK-NOT:   memref.subview
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.generic
func.func @c_transposed(%a: memref<16x32xf32>, %w: memref<24x32xf32>, %c: memref<24x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (n, m)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<16x32xf32>, memref<24x32xf32>) outs(%c : memref<24x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.contract in the q/k/v form, and a named batch_matmul with W
// transposed by its maps, take the GEMM as the generics do.
// CHECK-LABEL: func.func @named_forms
//       CHECK:   scf.parallel (%[[H:.*]]) =
//       CHECK:     memref.subview %{{.*}}[%[[H]], 0, 0] [1, 8, 64]
//       CHECK:     vector.fma {{.*}} : vector<8xf32>
//       CHECK:   scf.parallel (%[[B:.*]]) =
//       CHECK:     memref.subview %{{.*}}[%[[B]], 0, 0] [1, 16, 64]
//       CHECK:     vector.fma {{.*}} : vector<8xf32>
//   CHECK-NOT:   linalg.contract
//   CHECK-NOT:   linalg.batch_matmul
func.func @named_forms(%x: memref<16x64xf32>, %w: memref<4x8x64xf32>, %q: memref<4x16x8xf32>,
                       %bq: memref<4x16x64xf32>, %bk: memref<4x24x64xf32>, %bs: memref<4x16x24xf32>) {
  linalg.contract indexing_maps = [affine_map<(h, t, d, k) -> (t, k)>,
                                   affine_map<(h, t, d, k) -> (h, d, k)>,
                                   affine_map<(h, t, d, k) -> (h, t, d)>]
      ins(%x, %w : memref<16x64xf32>, memref<4x8x64xf32>) outs(%q : memref<4x16x8xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                       affine_map<(b, m, n, k) -> (b, n, k)>,
                                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%bq, %bk : memref<4x16x64xf32>, memref<4x24x64xf32>) outs(%bs : memref<4x16x24xf32>)
  return
}

// -----

// What no GEMM loop nest takes is left to upstream's loops (the pattern
// says why with --debug): A stored K × M (A's last dim not a reduction),
// C's last dim a batch dim of both inputs, a body that is not out + a·b,
// and a bf16 C.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   vector.fma
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel", "reduction"]
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel", "parallel", "reduction"]
//       CHECK:   linalg.generic
//       CHECK:     arith.maximumf
//       CHECK:   linalg.generic
//       CHECK:     arith.addf
//   CHECK-NOT:   vector.fma
func.func @left_alone(%at: memref<32x16xf32>, %w: memref<32x24xf32>, %c: memref<16x24xf32>,
                      %ab: memref<16x32x4xf32>, %wb: memref<24x32x4xf32>, %cb: memref<16x24x4xf32>,
                      %a: memref<16x32xf32>, %a16: memref<16x32xbf16>, %w16: memref<32x24xbf16>,
                      %c16: memref<16x24xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %w : memref<32x16xf32>, memref<32x24xf32>) outs(%c : memref<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, b, k) -> (m, k, b)>,
                                   affine_map<(m, n, b, k) -> (n, k, b)>,
                                   affine_map<(m, n, b, k) -> (m, n, b)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ab, %wb : memref<16x32x4xf32>, memref<24x32x4xf32>) outs(%cb : memref<16x24x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<16x32xf32>, memref<32x24xf32>) outs(%c : memref<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.addf %x, %y : f32
    %s = arith.maximumf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %w16 : memref<16x32xbf16>, memref<32x24xbf16>) outs(%c16 : memref<16x24xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %p = arith.mulf %x, %y : bf16
    %s = arith.addf %o, %p : bf16
    linalg.yield %s : bf16
  }
  return
}
