// RUN: norm-opt %s --split-input-file --linalg-generalize-named-ops --norm-fuse-elementwise | FileCheck %s
// RUN: norm-opt %s --split-input-file --linalg-generalize-named-ops --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=UPSTREAM

// An MLP's silu(gate)·up feeding the down projection: the elementwise ops
// fuse with each other, not into the matmul (upstream puts the exp inside
// the k loop), so the matmul stays the generic lower-matmuls takes.

// CHECK-LABEL: func.func @mlp_down
//       CHECK:   %[[ACT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//       CHECK:     math.exp
//       CHECK:     arith.mulf
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%[[ACT]], %{{.*}} : tensor<8x32xf32>, tensor<32x16xf32>)
//   CHECK-NOT:     math.exp
//       CHECK:     linalg.yield
// UPSTREAM-LABEL: func.func @mlp_down
//       UPSTREAM:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
//       UPSTREAM:     math.exp
func.func @mlp_down(%gate: tensor<8x32xf32>, %up: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %neg = linalg.negf ins(%gate : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ex = linalg.exp ins(%neg : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %den = linalg.add ins(%ex, %ones : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %sig = linalg.div ins(%gate, %den : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %act = linalg.mul ins(%sig, %up : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%act, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A transposed weight (nn.Linear's W as N×K) does fuse: the matmul reads W
// through a permuted indexing map, the N×K form of lower-matmuls.

// CHECK-LABEL: func.func @linear
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%arg0, %arg1 : tensor<8x32xf32>, tensor<16x32xf32>)
//   CHECK-NOT:   linalg.generic
func.func @linear(%x: tensor<8x32xf32>, %w: tensor<16x32xf32>) -> tensor<8x16xf32> {
  %et = tensor.empty() : tensor<32x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x32xf32>) outs(%et : tensor<32x16xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Attention heads merged back (transpose, then collapse to [seq, hidden])
// before the output projection: upstream folds the reshape into the matmul
// by expansion, a 4-D contraction over (head, dim); here the matmul keeps
// its 2-D form and the reshape stays.

// CHECK-LABEL: func.func @merge_heads
//       CHECK:   tensor.collapse_shape
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// UPSTREAM-LABEL: func.func @merge_heads
//       UPSTREAM:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @merge_heads(%o: tensor<4x8x16xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %et = tensor.empty() : tensor<8x4x16xf32>
  %t = linalg.transpose ins(%o : tensor<4x8x16xf32>) outs(%et : tensor<8x4x16xf32>) permutation = [1, 0, 2]
  %m = tensor.collapse_shape %t [[0], [1, 2]] : tensor<8x4x16xf32> into tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%m, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Elementwise chains and broadcasts fuse as upstream's pass fuses them, and
// a reduction is a consumer like a matmul: its computing producer stays.

// CHECK-LABEL: func.func @chain_and_reduction
//       CHECK:   %[[SQ:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//       CHECK:     arith.addf
//       CHECK:     arith.mulf
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[SQ]]
func.func @chain_and_reduction(%x: tensor<8x32xf32>, %b: tensor<32xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<8x32xf32>) dimensions = [0]
  %s = linalg.add ins(%x, %bb : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %sq = linalg.mul ins(%s, %s : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%sq : tensor<8x32xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  return %r : tensor<8xf32>
}
