// RUN: not norm-opt %s --convert-norm-to-vector="target=sse9" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not norm-opt %s --convert-norm-to-vector="accumulators=0" 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: not norm-opt %s --convert-norm-to-vector="accumulators=banana" 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-tile-rows=17" 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-tile-vectors=-1" 2>&1 | FileCheck %s --check-prefix=VECS
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-block-k=100000" 2>&1 | FileCheck %s --check-prefix=BLOCKK
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-unroll=99" 2>&1 | FileCheck %s --check-prefix=UNROLL

// Bad options are diagnostics with a non-zero exit, never a crash.
// TARGET: error: convert-norm-to-vector: unknown target 'sse9' (expected host, avx512, avx512-bf16, avx2 or generic)
// ACC: error: convert-norm-to-vector: accumulators must be in [1, 16], got 0
// PARSE: for the --accumulators option: 'banana' value invalid for long argument
// ROWS: error: convert-norm-to-vector: gemm-tile-rows must be in [0, 16], got 17
// VECS: error: convert-norm-to-vector: gemm-tile-vectors must be in [0, 4], got -1
// BLOCKK: error: convert-norm-to-vector: gemm-block-k must be in [0, 65536], got 100000
// UNROLL: error: convert-norm-to-vector: gemm-unroll must be in [0, 16], got 99
// RUN: not norm-opt %s --convert-norm-to-vector="grad-block-rows=0" 2>&1 | FileCheck %s --check-prefix=GRADBLOCK
// RUN: not norm-opt %s --convert-norm-to-vector="grad-block-rows=9" 2>&1 | FileCheck %s --check-prefix=GRADBLOCK9
// GRADBLOCK: error: convert-norm-to-vector: grad-block-rows must be in [1, 8], got 0
// GRADBLOCK9: error: convert-norm-to-vector: grad-block-rows must be in [1, 8], got 9
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-gemv-rows=-2" 2>&1 | FileCheck %s --check-prefix=GEMV
// RUN: not norm-opt %s --convert-norm-to-vector="gemm-gemv-rows=65" 2>&1 | FileCheck %s --check-prefix=GEMV65
// GEMV: error: convert-norm-to-vector: gemm-gemv-rows must be in [-1, 64], got -2
// GEMV65: error: convert-norm-to-vector: gemm-gemv-rows must be in [-1, 64], got 65

func.func @f(%x: memref<2x8xf32>, %y: memref<2x8xf32>) {
  norm.rms_norm ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  return
}
