// REQUIRES: norm-jit
// A norm on a tensor.reshape to run-time sizes, and a reshape of a norm's
// result: the memref.reshapes they bufferize to run as views
// (memref-expand in the pipeline), compared with the upstream pipeline on
// 1 and 2 threads:
// RUN: norm-run %s --entry=reshape_in --dims=12,3,4 --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// RUN: norm-run %s --entry=reshape_in --dims=40,5,8 --seed=2 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// SAME: {{^}}norm-run: entry=reshape_in pipeline=project {{.*}} cmp_rel_err={{.*}} PASS{{$}}
//
// --check follows such a reshape when the IR says which argument dims its
// sizes are (a shape built by tensor.from_elements of tensor.dims), and
// refuses before the run argument dims that do not fit the reshaped buffer:
// RUN: norm-run %s --entry=reshape_in --dims=12,3,4 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: norm-run %s --entry=reshape_in --dims=40,5,8 --seed=4 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=CHECKED
// CHECKED: {{^}}norm-run: entry=reshape_in pipeline=project {{.*}} rel_err={{.*}} PASS{{$}}
// RUN: not norm-run %s --entry=reshape_in --dims=12,3,5 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=MISFIT
// MISFIT: error: {{.*}}dynamic-reshape.mlir:[[@LINE+17]]:8: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: ins (argument #0): the shape [?x?x8] on one side of 'tensor.reshape' has sizes taken from the function's arguments whose product 120 is not the element count 96
//
// Sizes computed with arith are not evaluated: --check fails and says why,
// never passes on a guess (the run itself is compared with upstream).
// RUN: not norm-run %s --entry=reshape_computed --dims=24 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: norm-run: check: norm.rms_norm at {{.*}}dynamic-reshape.mlir:[[@LINE+26]]:{{[0-9]+}}: argument #0: --check cannot follow its views: the shape [?x?x8] on one side of 'tensor.reshape' has more than one dynamic size, which cannot be told from the [24x8] on its other (the IR does not say they are dims of the function's arguments)
// RUN: norm-run %s --entry=reshape_computed --dims=24 --seed=5 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: {{^}}norm-run: entry=reshape_computed pipeline=project {{.*}} cmp_rel_err={{.*}} PASS{{$}}

func.func @reshape_in(%x: tensor<?x8xf32>, %u: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %a = tensor.dim %u, %c0 : tensor<?xf32>
  %b = tensor.dim %v, %c0 : tensor<?xf32>
  %s = tensor.from_elements %a, %b, %c8 : tensor<3xindex>
  %h = tensor.reshape %x(%s) : (tensor<?x8xf32>, tensor<3xindex>) -> tensor<?x?x8xf32>
  %e = tensor.empty(%a, %b) : tensor<?x?x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

// The rows split in two halves, the sizes computed: [2·h, 8] → [2, h, 8].
func.func @reshape_computed(%x: tensor<?x8xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %h = arith.divui %n, %c2 : index
  %s = tensor.from_elements %c2, %h, %c8 : tensor<3xindex>
  %r = tensor.reshape %x(%s) : (tensor<?x8xf32>, tensor<3xindex>) -> tensor<?x?x8xf32>
  %e = tensor.empty(%c2, %h) : tensor<?x?x8xf32>
  %y = norm.rms_norm ins(%r : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}
