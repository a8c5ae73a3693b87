// REQUIRES: norm-jit
// A dynamic rotary angle dim is the input's size at run time. norm-run
// checks the shapes of the arguments it passes; angles the function
// computes (here a window of a longer table, from row 1: a position offset)
// it cannot see, and the compiled code checks them itself
// (--norm-check-rope-sizes in both pipelines): a mismatched table stops the
// run with a message on stderr naming the op, the operand, the dim and both
// sizes, instead of rotating with a table the kernel wraps around.
//
// Tables of the right length run, against the float64 reference (direct
// arguments) and against the same IR through upstream (the windows):
// RUN: norm-run %s --entry=direct --dims=7,7,7 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PASS
// RUN: norm-run %s --entry=direct --dims=33,33,33 --seed=2 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PASS
// RUN: norm-run %s --entry=window --dims=7,8,8 --compare-pipeline=upstream --seed=3 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=window --dims=33,34,34 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --compare-pipeline=upstream --seed=4 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
// RUN: norm-run %s --entry=fused_window --dims=2,5,6,6 --compare-pipeline=upstream --seed=5 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CMP
//
// A table one row short (6 angle rows for 7 positions), one row long, and
// sin shorter than cos: the run aborts with the message (abort, as a failed
// C assert: `not --crash`). norm-run adds one line saying the compiled
// function aborted, and no LLVM crash report (a stack dump of norm-run,
// which did not crash).
// RUN: not --crash norm-run %s --entry=window --dims=7,7,7 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not --crash norm-run %s --entry=window --dims=7,9,9 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2})' --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not --crash norm-run %s --entry=window --dims=7,8,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SIN
// RUN: not --crash norm-run %s --entry=fused_window --dims=2,5,5,5 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=FUSED
// The IR through upstream's loops (codegen=upstream) is checked too:
// RUN: not --crash norm-run %s --entry=window --dims=7,7,7 --pipeline=upstream --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=SHORT

// PASS: {{^}}norm-run: entry=direct pipeline=project {{.*}} rel_err={{[0-9.e+-]+}} tol={{1e-05|1e-06}} PASS{{$}}
// CMP: {{^}}norm-run: entry={{[a-z_]+}} pipeline={{project|custom}} {{.*}} cmp_pipeline=upstream {{.*}} PASS{{$}}
// SHORT: rope-size-check.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'norm.rms_norm': rope angle operand 'cos' has size 6 in dim 0, the input has size 7 there (a dynamic angle dim is that size, never a broadcast)
// SHORT-NEXT: norm-run: error: the compiled function aborted (SIGABRT): the program stopped itself, e.g. on a failed run-time check reported above
// SHORT-NOT: {{PLEASE submit a bug report|Stack dump}}
// SHORT-NOT: norm-run: entry=
// LONG: error: 'norm.rms_norm': rope angle operand 'cos' has size 8 in dim 0, the input has size 7 there
// LONG-NEXT: norm-run: error: the compiled function aborted (SIGABRT): the program stopped itself, e.g. on a failed run-time check reported above
// LONG-NOT: {{PLEASE submit a bug report|Stack dump}}
// LONG-NOT: norm-run: entry=
// SIN: error: 'norm.rms_norm': rope angle operand 'sin' has size 4 in dim 0, the input has size 7 there
// SIN-NEXT: norm-run: error: the compiled function aborted (SIGABRT): the program stopped itself, e.g. on a failed run-time check reported above
// SIN-NOT: {{PLEASE submit a bug report|Stack dump}}
// SIN-NOT: norm-run: entry=
// FUSED: error: 'norm.matmul_rms_norm': rope angle operand 'cos' has size 4 in dim 1, the output viewed as [..., H, D] has size 5 there
// FUSED-NEXT: norm-run: error: the compiled function aborted (SIGABRT): the program stopped itself, e.g. on a failed run-time check reported above
// FUSED-NOT: {{PLEASE submit a bug report|Stack dump}}
// FUSED-NOT: norm-run: entry=

func.func @direct(%x: tensor<?x4x64xf32>, %c: tensor<?x1x64xf32>, %s: tensor<?x1x64xf32>) -> tensor<?x4x64xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x4x64xf32>
  %e = tensor.empty(%t) : tensor<?x4x64xf32>
  %y = norm.rms_norm ins(%x : tensor<?x4x64xf32>) rope(%c, %s : tensor<?x1x64xf32>, tensor<?x1x64xf32>) outs(%e : tensor<?x4x64xf32>) -> tensor<?x4x64xf32>
  return %y : tensor<?x4x64xf32>
}

// The angles of positions 1.. of the tables (a decoding step's offset).
func.func @window(%x: tensor<?x4x64xf32>, %cos: tensor<?x64xf32>, %sin: tensor<?x64xf32>) -> tensor<?x4x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tensor.dim %x, %c0 : tensor<?x4x64xf32>
  %nc = tensor.dim %cos, %c0 : tensor<?x64xf32>
  %ns = tensor.dim %sin, %c0 : tensor<?x64xf32>
  %mc = arith.subi %nc, %c1 : index
  %ms = arith.subi %ns, %c1 : index
  %cw = tensor.extract_slice %cos[1, 0] [%mc, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %sw = tensor.extract_slice %sin[1, 0] [%ms, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %c = tensor.expand_shape %cw [[0, 1], [2]] output_shape [%mc, 1, 64] : tensor<?x64xf32> into tensor<?x1x64xf32>
  %s = tensor.expand_shape %sw [[0, 1], [2]] output_shape [%ms, 1, 64] : tensor<?x64xf32> into tensor<?x1x64xf32>
  %e = tensor.empty(%t) : tensor<?x4x64xf32>
  %y = norm.rms_norm ins(%x : tensor<?x4x64xf32>) rope(%c, %s : tensor<?x1x64xf32>, tensor<?x1x64xf32>) outs(%e : tensor<?x4x64xf32>) -> tensor<?x4x64xf32>
  return %y : tensor<?x4x64xf32>
}

// The per-head fused op over [B, T] rows, the window's T against the
// output's.
func.func @fused_window(%a: tensor<?x?x16xf32>, %w: tensor<16x64xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x?x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %a, %c0 : tensor<?x?x16xf32>
  %t = tensor.dim %a, %c1 : tensor<?x?x16xf32>
  %nc = tensor.dim %cos, %c0 : tensor<?x32xf32>
  %m = arith.subi %nc, %c1 : index
  %cw = tensor.extract_slice %cos[1, 0] [%m, 32] [1, 1] : tensor<?x32xf32> to tensor<?x32xf32>
  %sw = tensor.extract_slice %sin[1, 0] [%m, 32] [1, 1] : tensor<?x32xf32> to tensor<?x32xf32>
  %c = tensor.expand_shape %cw [[0, 1, 2], [3]] output_shape [1, %m, 1, 32] : tensor<?x32xf32> into tensor<1x?x1x32xf32>
  %s = tensor.expand_shape %sw [[0, 1, 2], [3]] output_shape [1, %m, 1, 32] : tensor<?x32xf32> into tensor<1x?x1x32xf32>
  %e = tensor.empty(%b, %t) : tensor<?x?x64xf32>
  %y = norm.matmul_rms_norm ins(%a : tensor<?x?x16xf32>) rhs(%w : tensor<16x64xf32>) rope(%c, %s : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>) outs(%e : tensor<?x?x64xf32>) {head_dim = 32 : i64} -> tensor<?x?x64xf32>
  return %y : tensor<?x?x64xf32>
}
