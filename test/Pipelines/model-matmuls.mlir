// The matmuls of model IR reach the project's GEMM through the CPU
// pipeline: an MLP's silu(gate)·up stays out of the down projection
// (norm-fuse-elementwise), so lower-matmuls takes it (a packed GEMM: vector
// FMAs over Ã and B̃ panels) and exp is evaluated once per activation, not
// once per multiply-add. With codegen=upstream (upstream's elementwise
// fusion), the exp sits inside the matmul's k loop.
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" --mlir-print-ir-after=convert-norm-to-vector 2>&1 >/dev/null | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" --mlir-print-ir-after=norm-decompose 2>&1 >/dev/null | FileCheck %s --check-prefix=UPSTREAM

// CHECK-LABEL: func.func @mlp_down
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//       CHECK:     math.exp
//   CHECK-NOT:   iterator_types = ["parallel", "parallel", "reduction"]
//       CHECK:   scf.parallel
//       CHECK:     vector.fma {{.*}} : vector<16xf32>
//   CHECK-NOT:   math.exp
//       CHECK:   return
// UPSTREAM-LABEL: func.func @mlp_down
//       UPSTREAM:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
//       UPSTREAM:     math.exp
func.func @mlp_down(%gate: tensor<64x256xf32>, %up: tensor<64x256xf32>, %w: tensor<128x256xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %neg = linalg.negf ins(%gate : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %ex = linalg.exp ins(%neg : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %den = linalg.add ins(%ex, %ones : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %sig = linalg.div ins(%gate, %den : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %act = linalg.mul ins(%sig, %up : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %et = tensor.empty() : tensor<256x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x256xf32>) outs(%et : tensor<256x128xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul ins(%act, %wt : tensor<64x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
