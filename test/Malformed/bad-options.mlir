// Bad pass and pipeline options: an error about the option, a non-zero exit,
// never a crash (`not` fails the test on a signal).
//
// RUN: not norm-opt %s --norm-lower-to-cpu='decompose=maybe' 2>&1 | FileCheck %s --check-prefix=DECOMPOSE
// RUN: not norm-opt %s --norm-lower-to-cpu='nosuch=1' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not norm-opt %s --norm-lower-to-cpu='{' 2>&1 | FileCheck %s --check-prefix=BRACE
// RUN: not norm-opt %s --norm-decompose='nosuch=1' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-lower-to-cpu{nosuch=1})' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-decompose{nosuch=1})' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not norm-opt %s --norm-nosuch 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FLAG
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-nosuch)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-PASS
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-decompose' 2>&1 | FileCheck %s --check-prefix=UNWRAPPED
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-decompose))' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: not norm-opt %s --pass-pipeline='func.func(norm-decompose)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not norm-opt %s --norm-decompose --pass-pipeline='builtin.module(norm-lower-to-cpu)' 2>&1 | FileCheck %s --check-prefix=BOTH

// `decompose` is not (or no longer) an option of norm-lower-to-cpu; if it
// comes back as a bool, "maybe" must still be rejected.
// DECOMPOSE: decompose
// NOSUCH: no such option nosuch
// BRACE: no such option {
// UNKNOWN-FLAG: Unknown command line argument '--norm-nosuch'
// UNKNOWN-PASS: 'norm-nosuch' does not refer to a registered pass or pass pipeline
// UNWRAPPED: error: expected pass pipeline to be wrapped with the anchor operation type
// UNBALANCED: error: {{.*}}unbalanced parentheses
// ANCHOR: bad-options.mlir:0:0: error: can't run 'func.func' pass manager on 'builtin.module' op
// BOTH: error: '-pass-pipeline' option can't be used with individual pass options

// Valid IR, so that only the options are wrong.
func.func @valid(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}
