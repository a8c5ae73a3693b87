// Upstream mlir-opt (Debian's, linked to the same libMLIR.so) gets the norm
// dialect and passes from the plugin. Plugin passes are registered after
// the command line is parsed, so they are named in --pass-pipeline.
// RUN: mlir-opt %s --load-dialect-plugin=%norm_plugin --load-pass-plugin=%norm_plugin --pass-pipeline='builtin.module(norm-decompose)' | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%norm_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// Without the plugin, mlir-opt does not know the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: func.func @f
// CHECK-NOT: norm.rms_norm
// CHECK: linalg.generic
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// NOPLUGIN: error: Dialect `norm' not found for custom op 'norm.rms_norm'
func.func @f(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
