// RUN: not norm-opt %s 2>&1 | FileCheck %s
// RUN: not norm-opt %s --norm-lower-to-cpu 2>&1 | FileCheck %s

// The file ends in the middle of an op (no closing parenthesis, no newline).
// CHECK: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

func.func @truncated(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>) outs(%e