// RUN: not norm-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --norm-decompose 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --canonicalize 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --norm-lower-to-cpu 2>&1 | FileCheck %s

// The generic form bypasses the custom parser: operand segment sizes,
// property kinds and values are whatever the user wrote. Each must be
// rejected with a located error, never crash.

func.func @segments_sum_mismatch(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op operand count (2) does not match with the total size (6) specified in attribute 'operandSegmentSizes'
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 5, 0, 0, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @segments_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'operandSegmentSizes' attribute cannot have negative elements
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 2, 0, 0, 0, 0, 0, 1, 0, -1, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @segments_wrong_length(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid properties {operandSegmentSizes = array<i32: 1, 1>} for op norm.rms_norm: size mismatch in attribute conversion: 2 vs 10
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 1>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @segments_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid properties {{.*}} for op norm.rms_norm: expected DenseI32ArrayAttr
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i64: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @segments_missing(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op operand count (2) does not match with the total size (0) specified in attribute 'operandSegmentSizes'
  %y = "norm.rms_norm"(%x, %e) : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @optional_segment_of_two(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op operand group starting at #1 requires 0 or 1 element, but found 2
  %y = "norm.layer_norm"(%x, %x, %x, %e) <{operandSegmentSizes = array<i32: 1, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>, tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @no_operands() {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op expected 2 or more operands, but found 0
  "norm.rms_norm"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : () -> ()
  return
}

// -----

func.func @fused_too_few_operands(%x: tensor<8x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm_matmul' op expected 3 or more operands, but found 2
  %c = "norm.rms_norm_matmul"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 0, 0>}> : (tensor<8x33xf32>, tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @epsilon_string(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute or 64-bit float attribute
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, epsilon = "1e-6"}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @epsilon_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op 'epsilon' must be finite and >= 0
  %y = "norm.layer_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0>, epsilon = -1.0 : f64}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @axis_huge(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'axis' = 9223372036854775807 is out of range for an input of rank 2
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, axis = 9223372036854775807 : i64}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @axis_most_negative(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op 'axis' = -9223372036854775808 is out of range for an input of rank 2
  %y = "norm.layer_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0>, axis = -9223372036854775808 : i64}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @axis_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid properties {{.*}} for op norm.rms_norm: Invalid attribute `axis` in property conversion: 1.000000e+00 : f32
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, axis = 1.0 : f32}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @cast_mode_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid properties {{.*}} for op norm.rms_norm: Invalid attribute `cast_mode` in property conversion: 3 : i32
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, cast_mode = 3 : i32}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @partial_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op attribute 'partial' failed to satisfy constraint: 32-bit float attribute or 64-bit float attribute
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, partial = 5 : i64}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @acc_type_wrong_kind(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op attribute 'acc_type' failed to satisfy constraint: type attribute of floating-point
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>, acc_type = i64}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @transpose_rhs_wrong_kind(%x: tensor<8x33xf32>, %w: tensor<20x33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid properties {{.*}} for op norm.rms_norm_matmul: Invalid attribute `transpose_rhs` in property conversion: 1 : i32
  %c = "norm.rms_norm_matmul"(%x, %w, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1, 0, 0>, transpose_rhs = 1 : i32}> : (tensor<8x33xf32>, tensor<20x33xf32>, tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @fused_rhs_rank1(%x: tensor<8x33xf32>, %w: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 1
  %c = "norm.rms_norm_matmul"(%x, %w, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1, 0, 0>}> : (tensor<8x33xf32>, tensor<33xf32>, tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}

// -----

func.func @with_region(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op requires zero regions
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>}> ({
  ^bb0:
  }) : (tensor<4x17xf32>, tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @memref_result(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<4x17xf32>'
  %y = "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 0, 0>}> : (memref<4x17xf32>, memref<4x17xf32>) -> memref<4x17xf32>
  return
}

// -----

func.func @results_vs_inits(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>, %rs: tensor<4xf32>) -> tensor<4x17xf32> {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op expected the number of tensor results (1) to be equal to the number of output tensors (2)
  %y = "norm.rms_norm"(%x, %e, %rs) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 1, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>, tensor<4xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

// The segments decide the roles: here the second operand is rstd_outs
// (rank 1), not outs, so the op has no `outs` with the input's shape.
func.func @segments_reassign_roles(%x: tensor<4x17xf32>, %rs: tensor<4xf32>, %e: tensor<4x17xf32>) -> (tensor<4x17xf32>, tensor<4xf32>) {
  // CHECK: generic-form.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op 'outs' shape [4] must equal the input shape [4, 17]
  %y:2 = "norm.rms_norm"(%x, %rs, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1, 0, 1, 0>}> : (tensor<4x17xf32>, tensor<4xf32>, tensor<4x17xf32>) -> (tensor<4xf32>, tensor<4x17xf32>)
  return %y#1, %y#0 : tensor<4x17xf32>, tensor<4xf32>
}
