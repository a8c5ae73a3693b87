// --norm-lower-to-nvvm decomposes the tensor-form norms no GPU kernel takes
// (and only those). A rotary embedding: angles
// the GPU row kernel indexes ([T, 1, D] over [T, H, D] heads) stay on the
// norm op and reach the kernel; HF's [B, 1, T, D] angles over [B, H, T, D]
// (broadcast between two position dims, which the row kernels do not index)
// are decomposed before bufferization and lowered as linalg, instead of a
// located error in convert-norm-to-gpu. Memref-form ones stay that error
// (test/Conversion/NormToGPU/rope-invalid.mlir).
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: norm-opt %s --pass-pipeline="builtin.module(norm-lower-to-nvvm{chip=sm_80 format=isa},func.func(canonicalize))" --mlir-print-ir-after=convert-norm-to-gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS

// CHECK-NOT: norm.
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-LABEL: llvm.func @heads(
// CHECK:         gpu.launch_func
// CHECK-LABEL: llvm.func @hf_broadcast(
// CHECK:         gpu.launch_func
// CHECK:       gpu.binary

// The heads' norm is one row-kernel launch; the broadcast one has no norm op
// left by the time convert-norm-to-gpu runs.
// KERNELS-LABEL: func.func @heads(
// KERNELS-NOT:     norm.rms_norm
// KERNELS:         gpu.launch
// KERNELS-LABEL: func.func @hf_broadcast(
// KERNELS-NOT:     norm.rms_norm
// KERNELS:         return

func.func @heads(%x: tensor<8x4x32xf32>, %c: tensor<8x1x32xf32>, %s: tensor<8x1x32xf32>) -> tensor<8x4x32xf32> {
  %e = tensor.empty() : tensor<8x4x32xf32>
  %y = norm.rms_norm ins(%x : tensor<8x4x32xf32>) rope(%c, %s : tensor<8x1x32xf32>, tensor<8x1x32xf32>) outs(%e : tensor<8x4x32xf32>) {axis = 2 : i64} -> tensor<8x4x32xf32>
  return %y : tensor<8x4x32xf32>
}

func.func @hf_broadcast(%x: tensor<2x4x8x32xf32>, %c: tensor<2x1x8x32xf32>, %s: tensor<2x1x8x32xf32>) -> tensor<2x4x8x32xf32> {
  %e = tensor.empty() : tensor<2x4x8x32xf32>
  %y = norm.rms_norm ins(%x : tensor<2x4x8x32xf32>) rope(%c, %s : tensor<2x1x8x32xf32>, tensor<2x1x8x32xf32>) outs(%e : tensor<2x4x8x32xf32>) {axis = 3 : i64} -> tensor<2x4x8x32xf32>
  return %y : tensor<2x4x8x32xf32>
}

// Per-group quantization scales: the GPU row kernel computes them
// (GPURowKernel.cpp), so the tensor-form op is not decomposed: it reaches
// convert-norm-to-gpu and becomes one row-kernel launch.
// CHECK-LABEL: llvm.func @per_group(
// CHECK:         gpu.launch_func
// KERNELS-LABEL: func.func @per_group(
// KERNELS-NOT:     linalg.
// KERNELS:         gpu.launch
// KERNELS-NOT:     norm.rms_norm
// KERNELS:         return
func.func @per_group(%x: tensor<4x256xf32>) -> (tensor<4x256xf8E4M3FN>, tensor<4x2xf32>) {
  %e = tensor.empty() : tensor<4x256xf8E4M3FN>
  %es = tensor.empty() : tensor<4x2xf32>
  %q, %sc = norm.rms_norm ins(%x : tensor<4x256xf32>) outs(%e : tensor<4x256xf8E4M3FN>) scale_outs(%es : tensor<4x2xf32>) {group_size = 128 : i64} -> tensor<4x256xf8E4M3FN>, tensor<4x2xf32>
  return %q, %sc : tensor<4x256xf8E4M3FN>, tensor<4x2xf32>
}
