// RUN: not norm-opt %s --pass-pipeline='builtin.module(func.func(norm-lower-to-cpu))' 2>&1 | FileCheck %s

// norm-lower-to-cpu nested under func.func: the pipeline adds module passes
// (one-shot-bufferize, ...), so it reports an error instead of letting the
// pass manager abort with an LLVM fatal error.
// CHECK: error:
// CHECK-NOT: LLVM ERROR

func.func @valid(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}
