// REQUIRES: norm-jit
// Tensor results that alias an argument: a norm whose `outs` is a tensor
// argument that is returned, and a function that returns its argument. The
// deallocation pipeline leaves a bufferization.clone for these, which
// norm-lower-to-cpu converts to memref.alloc + memref.copy (it once reached
// the LLVM translation and failed there).
// RUN: norm-run %s --entry=outs_arg --dims=4,17,4,17 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=OUTS
// RUN: norm-run %s --entry=outs_arg --dims=4,17,4,17 --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s --check-prefix=OUTS
// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s --check-prefix=IR

// OUTS: norm-run: entry=outs_arg {{.*}} PASS
// IR-NOT: bufferization.
// IR: llvm.func @outs_arg
// IR: llvm.func @identity

func.func @outs_arg(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = norm.rms_norm ins(%x : tensor<?x?xf32>) outs(%y : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @identity(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  return %x : tensor<4x16xf32>
}
