// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s

// Valid IR: a norm op inside an scf.for whose result is loop-carried (a loop
// over layers). Its `outs` is not the iter_arg, so the yielded value is not
// equivalent to the iter_arg buffer: the pipeline bufferizes with
// allow-return-allocs-from-loops (it used to reject this with "Yield operand
// #0 is not equivalent to the corresponding iter bbArg").

// CHECK-LABEL: llvm.func @layers
// CHECK-NOT: norm.
func.func @layers(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %n: index) -> tensor<4x17xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> tensor<4x17xf32> {
    %e = tensor.empty() : tensor<4x17xf32>
    %y = norm.rms_norm ins(%h : tensor<4x17xf32>) weight(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
    scf.yield %y : tensor<4x17xf32>
  }
  return %r : tensor<4x17xf32>
}
