// RUN: not norm-opt %s --convert-norm-to-vector="target=sse9" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not norm-opt %s --convert-norm-to-vector="accumulators=0" 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: not norm-opt %s --convert-norm-to-vector="accumulators=banana" 2>&1 | FileCheck %s --check-prefix=PARSE

// Bad options are diagnostics with a non-zero exit, never a crash.
// TARGET: error: convert-norm-to-vector: unknown target 'sse9' (expected host, avx512, avx512-bf16, avx2 or generic)
// ACC: error: convert-norm-to-vector: accumulators must be in [1, 16], got 0
// PARSE: for the --accumulators option: 'banana' value invalid for long argument

func.func @f(%x: memref<2x8xf32>, %y: memref<2x8xf32>) {
  norm.rms_norm ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  return
}
