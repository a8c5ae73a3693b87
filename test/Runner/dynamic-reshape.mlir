// REQUIRES: norm-jit
// A norm on a tensor.reshape to run-time sizes, and a reshape of a norm's
// result: the memref.reshapes they bufferize to run as views
// (memref-expand in the pipeline), compared with the upstream pipeline on
// 1 and 2 threads:
// RUN: norm-run %s --entry=reshape_in --dims=12,3,4 --seed=1 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// RUN: norm-run %s --entry=reshape_in --dims=40,5,8 --seed=2 --threads=2 --warmup=0 --repeat=1 --compare-pipeline=upstream | FileCheck %s --check-prefix=SAME
// SAME: {{^}}norm-run: entry=reshape_in pipeline=project {{.*}} cmp_rel_err={{.*}} PASS{{$}}
//
// --check cannot tell the sizes of a reshape whose shape is a tensor: it
// fails and says why, never passes on a guess.
// RUN: not norm-run %s --entry=reshape_in --dims=12,3,4 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: norm-run: check: norm.rms_norm at {{.*}}dynamic-reshape.mlir:[[@LINE+10]]:{{[0-9]+}}: argument #0: --check cannot follow its views: the shape [?x?x8] on one side of 'tensor.reshape' has more than one dynamic size

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
