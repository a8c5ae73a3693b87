// RUN: not norm-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not norm-opt %s -split-input-file --norm-decompose 2>&1 | FileCheck %s

// A required operand (`ins`, `rhs`, `outs`) whose operandSegmentSizes entry
// is 0. ODS only checks that optional segments have at most one value and
// that the sizes add up; the op verifier checks that required segments hold
// exactly one operand before any accessor reads it (this used to segfault).

func.func @input_takes_outs(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 2, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (memref<4x17xf32>, memref<4x17xf32>) -> ()
  return
}

// -----

func.func @residual_takes_outs(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0>}> : (memref<4x17xf32>, memref<4x17xf32>) -> ()
  return
}

// -----

func.func @tensor_no_outs(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  "norm.layer_norm"(%x, %e) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<4x17xf32>, tensor<4x17xf32>) -> ()
  return
}

// -----

func.func @fused_no_outs(%a0: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4x20xf32>, %a3: tensor<4x20xf32>, %a4: tensor<17xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %r:3 = "norm.layer_norm_matmul"(%a0, %a1, %a2, %a3, %a4) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>}> : (tensor<4xf32>, tensor<4xf32>, tensor<4x20xf32>, tensor<4x20xf32>, tensor<17xf32>) -> (tensor<4x17xf32>, tensor<4x17xf32>, tensor<4x20xf32>)
  return
}

// -----

func.func @fused_no_rhs(%x: memref<8x24xf32>, %w: memref<24x20xf32>, %e: memref<8x20xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  "norm.matmul_rms_norm"(%x, %w, %e) <{operandSegmentSizes = array<i32: 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0>}> : (memref<8x24xf32>, memref<24x20xf32>, memref<8x20xf32>) -> ()
  return
}

// -----

// No input segment at all: `ins` silently becomes the residual operand and
// `outs` the sum_outs operand; this is accepted today and printed back as
// `norm.rms_norm ins(%0) residual(%0) outs(%1) sum_outs(%1)`.
func.func @no_input_accepted(%x: memref<4x17xf32>, %e: memref<4x17xf32>) {
  // CHECK: generic-segments.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  "norm.rms_norm"(%x, %e) <{operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0, 0, 1, 0, 0>}> : (memref<4x17xf32>, memref<4x17xf32>) -> ()
  return
}
