// REQUIRES: norm-jit
// --check sees each operand and result of a norm op in the op's own frame:
// through the views (reshapes and transposes) between it and the function
// argument or the returned value, applied or undone, with dynamic sizes
// taken from the buffers. Sizes it cannot tell fail the check, never pass.
//
// An input transposed from the argument (strides permuted), the result
// returned transposed back:
// RUN: norm-run %s --entry=transposed --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
//
// Dynamic rows: the input split to heads by an expand whose dynamic size
// comes from the argument's, the result merged back by a collapse:
// RUN: norm-run %s --entry=dynamic_heads --dims=6 --seed=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=dynamic_heads --dims=5 --seed=3 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s
//
// CHECK: {{^}}norm-run: entry={{[a-z_]+}} pipeline=project {{.*}} tol=1e-06 PASS{{$}}
//
// The result of two dynamic sizes merged into one before it is returned:
// the 32 elements returned do not say which sizes the op had, the IR does
// (its outs is a tensor.empty of the argument's dims), so the check
// follows it; and rows split at two dynamic sizes given by tensor.dim of
// the arguments (x's rows as [y's rows, z's rows]):
// RUN: norm-run %s --entry=merged_dynamic --dims=4,8 --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=split_by_args --dims=12,3,4 --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
//
// Rows split at sizes the function computes (arith on a dim): the runner
// does not evaluate them, and does not guess them from the input. The
// check fails and says why:
// RUN: not norm-run %s --entry=split_computed --dims=8 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: norm-run: check: norm.rms_norm at {{.*}}check-views.mlir:[[@LINE+73]]:{{[0-9]+}}: argument #0: --check cannot follow its views: the shape [?x?x8] on one side of 'tensor.expand_shape' has two dynamic sizes in one group, which cannot be told apart from the [8x8] on its other (the IR does not say they are dims of the function's arguments) FAIL
// AMBIGUOUS: {{^}}norm-run: entry=split_computed {{.*}} rel_err=nan {{.*}} FAIL{{$}}
//
// Sizes from the arguments that do not multiply to the rows they split:
// the function's own expand_shape does not fit those arguments, so the
// run is refused before the call (with or without --check):
// RUN: not norm-run %s --entry=split_by_args --dims=12,3,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: norm-run: error: {{.*}}check-views.mlir:{{[0-9]+}}:{{[0-9]+}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: ins (argument #0): the shape [?x?x8] on one side of 'tensor.expand_shape' has sizes taken from the function's arguments whose product 15 in group 0 is not the size 12 from the [12x8] on its other
//
// The other operands' views are checked the same way before the run: a
// residual split by the input's sizes it does not have, a γ whose static
// sizes do not divide the buffer --dims gives it, each a located error
// naming the operand (not a read out of bounds or a --check failure); a γ
// of the wrong size through its view is the size error it is without one.
// RUN: not norm-run %s --entry=residual_split --dims=3,4,10 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=RESIDUAL
// RESIDUAL: norm-run: error: {{.*}}check-views.mlir:{{[0-9]+}}:{{[0-9]+}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: residual (argument #1): the shape [?x?x8] on one side of 'tensor.expand_shape' has sizes taken from the function's arguments whose product 12 in group 0 is not the size 10 from the [10x8] on its other{{$}}
// RUN: not norm-run %s --entry=residual_split --dims=3,4,10 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=RESIDUAL
// RUN: norm-run %s --entry=residual_split --dims=3,4,12 --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: not norm-run %s --entry=weight_view --dims=3,20 --warmup=0 --repeat=1 --check 2>&1 | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: norm-run: error: {{.*}}check-views.mlir:{{[0-9]+}}:{{[0-9]+}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: weight (argument #1): the shape [?x8] on one side of 'tensor.expand_shape' has static sizes whose product 8 in group 0 does not divide the size 20 from the [20] on its other{{$}}
// RUN: not norm-run %s --entry=weight_view --dims=3,16 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=WEIGHT-SIZE
// WEIGHT-SIZE: norm-run: error: {{.*}}check-views.mlir:{{[0-9]+}}:{{[0-9]+}}: the argument shapes (from the signature and --dims) do not fit norm.rms_norm: weight (argument #1) has shape [2x8], expected [3x8]
// RUN: norm-run %s --entry=weight_view --dims=2,16 --seed=7 --warmup=0 --repeat=1 --check | FileCheck %s

func.func @transposed(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %te = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%te : tensor<4x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x8xf32>
  %y = norm.rms_norm ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %be = tensor.empty() : tensor<8x4xf32>
  %b = linalg.transpose ins(%y : tensor<4x8xf32>) outs(%be : tensor<8x4xf32>) permutation = [1, 0]
  return %b : tensor<8x4xf32>
}

func.func @dynamic_heads(%x: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x32xf32>
  %h = tensor.expand_shape %x [[0], [1, 2]] output_shape [%m, 4, 8] : tensor<?x32xf32> into tensor<?x4x8xf32>
  %e = tensor.empty(%m) : tensor<?x4x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x4x8xf32>) outs(%e : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  %r = tensor.collapse_shape %y [[0], [1, 2]] : tensor<?x4x8xf32> into tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

func.func @merged_dynamic(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = tensor.collapse_shape %y [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @split_by_args(%x: tensor<?x8xf32>, %u: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.dim %u, %c0 : tensor<?xf32>
  %b = tensor.dim %v, %c0 : tensor<?xf32>
  %h = tensor.expand_shape %x [[0, 1], [2]] output_shape [%a, %b, 8] : tensor<?x8xf32> into tensor<?x?x8xf32>
  %e = tensor.empty(%a, %b) : tensor<?x?x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

func.func @split_computed(%x: tensor<?x8xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %a = arith.divui %n, %c2 : index
  %b = arith.divui %n, %a : index
  %h = tensor.expand_shape %x [[0, 1], [2]] output_shape [%a, %b, 8] : tensor<?x8xf32> into tensor<?x?x8xf32>
  %e = tensor.empty(%a, %b) : tensor<?x?x8xf32>
  %y = norm.rms_norm ins(%h : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

// The residual stream as [B·T, C], split by the input's B and T.
func.func @residual_split(%x: tensor<?x?x8xf32>, %r: tensor<?x8xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x8xf32>
  %t = tensor.dim %x, %c1 : tensor<?x?x8xf32>
  %rv = tensor.expand_shape %r [[0, 1], [2]] output_shape [%b, %t, 8] : tensor<?x8xf32> into tensor<?x?x8xf32>
  %e = tensor.empty(%b, %t) : tensor<?x?x8xf32>
  %y = norm.rms_norm ins(%x : tensor<?x?x8xf32>) residual(%rv : tensor<?x?x8xf32>) outs(%e : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

// A norm over the last two dims, its γ given flat and viewed as [?, 8].
func.func @weight_view(%x: tensor<4x?x8xf32>, %g: tensor<?xf32>) -> tensor<4x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<4x?x8xf32>
  %gv = tensor.expand_shape %g [[0, 1]] output_shape [%n, 8] : tensor<?xf32> into tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<4x?x8xf32>
  %y = norm.rms_norm ins(%x : tensor<4x?x8xf32>) weight(%gv : tensor<?x8xf32>) outs(%e : tensor<4x?x8xf32>) {axis = 1 : i64} -> tensor<4x?x8xf32>
  return %y : tensor<4x?x8xf32>
}
