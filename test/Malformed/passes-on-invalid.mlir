// RUN: not norm-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --canonicalize 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --norm-decompose 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --norm-lower-to-cpu 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(norm-decompose))' 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --one-shot-bufferize=bufferize-function-boundaries 2>&1 | FileCheck %s

// IR that the passes would mis-handle if it reached them (an axis past the
// rank, a rank-0 input, a 1-D rhs, a zero `partial`, a NaN ε, mixed tensors
// and memrefs, ...). The verifier runs when the input is parsed and must stop
// every pass before it starts: a located error, a non-zero exit, no crash,
// and no pass output.
// CHECK-NOT: linalg.
// CHECK-NOT: llvm.

func.func @axis_past_rank(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'axis' = 5 is out of range for an input of rank 2
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = 5 : i64} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @axis_negative(%x: memref<?x?xf32>, %e: memref<?x?xf32>) {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op 'axis' = -3 is out of range for an input of rank 2
  norm.layer_norm ins(%x : memref<?x?xf32>) outs(%e : memref<?x?xf32>) {axis = -3 : i64}
  return
}

// -----

func.func @rank0(%x: tensor<f32>, %e: tensor<f32>) -> tensor<f32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op input must have rank >= 1
  %y = norm.layer_norm ins(%x : tensor<f32>) outs(%e : tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @empty_normalized_dim(%x: tensor<?x0xf32>, %e: tensor<?x0xf32>) -> tensor<?x0xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op the normalized dimensions must not be empty (dimension 1 has size 0)
  %y = norm.rms_norm ins(%x : tensor<?x0xf32>) outs(%e : tensor<?x0xf32>) -> tensor<?x0xf32>
  return %y : tensor<?x0xf32>
}

// -----

func.func @partial_zero(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'partial' must be in (0, 1]
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {partial = 0.0 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @epsilon_nan(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op 'epsilon' must be finite and >= 0
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {epsilon = 0x7FC00000 : f32} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @acc_type_narrow(%x: tensor<4x17xf64>, %e: tensor<4x17xf64>) -> tensor<4x17xf64> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'acc_type' 'f32' is narrower than the element type 'f64'
  %y = norm.rms_norm ins(%x : tensor<4x17xf64>) outs(%e : tensor<4x17xf64>) {acc_type = f32} -> tensor<4x17xf64>
  return %y : tensor<4x17xf64>
}

// -----

func.func @mixed_kinds(%x: tensor<4x17xf32>, %g: memref<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op operands must be all tensors or all memrefs; operand #1 is 'memref<17xf32>'
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : memref<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @stat_shape(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %m: tensor<17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op 'mean_outs' shape [17] must equal the non-normalized dimensions of the input [4]
  %y, %mean = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) mean_outs(%m : tensor<17xf32>) -> tensor<4x17xf32>, tensor<17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @tensor_op_without_results(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op expected the number of tensor results (0) to be equal to the number of output tensors (1)
  norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>)
  return
}

// -----

func.func @memref_op_with_results(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (0)
  %y = norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) -> tensor<4x17xf32>
  return
}

// -----

func.func @fused_rhs_rank1(%x: tensor<8x33xf32>, %w: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 1
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @fused_rhs_rank1_memref(%x: memref<8x24xf32>, %w: memref<24xf32>, %e: memref<8x20xf32>) {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.matmul_layer_norm' op 'rhs' must be a 2-D matrix, got rank 1
  norm.matmul_layer_norm ins(%x : memref<8x24xf32>) rhs(%w : memref<24xf32>) outs(%e : memref<8x20xf32>)
  return
}

// -----

func.func @fused_input_rank0(%x: tensor<f32>, %w: tensor<1x20xf32>, %e: tensor<20xf32>) -> tensor<20xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm_matmul' op input must have rank >= 1
  %c = norm.layer_norm_matmul ins(%x : tensor<f32>) rhs(%w : tensor<1x20xf32>) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  return %c : tensor<20xf32>
}

// -----

func.func @fused_k_mismatch(%x: tensor<?x33xf32>, %w: tensor<20x32xf32>, %e: tensor<?x20xf32>) -> tensor<?x20xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm_matmul' op contraction size mismatch: the input has K = 33 but 'rhs' dimension 1 has size 32 (transpose_rhs)
  %c = norm.layer_norm_matmul ins(%x : tensor<?x33xf32>) rhs(%w : tensor<20x32xf32>) outs(%e : tensor<?x20xf32>) {transpose_rhs} -> tensor<?x20xf32>
  return %c : tensor<?x20xf32>
}

// -----

func.func @fused_weight_shape(%a: tensor<8x24xf32>, %w: tensor<24x20xf32>, %g: tensor<24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.matmul_rms_norm' op 'weight' shape [24] must equal [N] (the output's last dimension) = [20]
  %y = norm.matmul_rms_norm ins(%a : tensor<8x24xf32>) rhs(%w : tensor<24x20xf32>) weight(%g : tensor<24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

// One invalid op among valid ones: nothing is lowered.
func.func @valid_before(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}
func.func @invalid_after(%x: tensor<4x17xf32>, %g: tensor<4xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: passes-on-invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'weight' shape [4] must equal the normalized dimensions of the input [17]
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}
// CHECK-NOT: linalg.
// CHECK-NOT: llvm.
