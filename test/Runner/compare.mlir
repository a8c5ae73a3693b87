// REQUIRES: norm-jit
// --compare-pipeline: the function also goes through a second pipeline, runs
// on identical inputs, and every result and argument buffer is compared with
// its counterpart (‖a − b‖₂ / ‖b‖₂, the worst one reported).
//
// The project kernels against the upstream decomposition: the same values to
// rounding. Both times are reported; speedup = compare median / median.
// RUN: norm-run %s --entry=rms_t --dims=6,40,40 --check --compare-pipeline=upstream | FileCheck %s --check-prefix=UP
// UP: {{^}}norm-run: entry=rms_t pipeline=project threads=0 bytes=2080 median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol=1e-06 PASS cmp_pipeline=upstream cmp_median_ms={{[0-9.]+}} cmp_min_ms={{[0-9.]+}} speedup={{[0-9.]+}} cmp_rel_err={{[0-9.e+-]+}} cmp_tol=1e-04 PASS{{$}}
//
// Memref outputs are compared as arguments; bf16 gets the 2e-2 default.
// RUN: norm-run %s --entry=rms_bf16 --dims=5,24,24,5,24 --pipeline=upstream --compare-pipeline=project --repeat=1 | FileCheck %s --check-prefix=BF16
// BF16: {{^}}norm-run: entry=rms_bf16 pipeline=upstream {{.*}} cmp_pipeline=project {{.*}} cmp_tol=2e-02 PASS{{$}}
//
// A custom pipeline on either side (reported as custom), e.g. norm-fuse-matmul
// before lowering against the unfused function.
// RUN: norm-run %s --entry=norm_matmul --pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' --compare-pipeline=upstream --repeat=1 | FileCheck %s --check-prefix=FUSED
// FUSED: {{^}}norm-run: entry=norm_matmul pipeline=custom {{.*}} cmp_pipeline=upstream {{.*}} cmp_tol=1e-04 PASS{{$}}
//
// A difference above --compare-tol fails: exit code 1, FAIL on the line and
// one line per compared buffer on stderr. (Blocked Kahan sums against a
// sequential sum over 1000 elements never agree to 1e-12.)
// RUN: not norm-run %s --entry=rms --dims=64,1000,1000,64,1000 --compare-pipeline=upstream --compare-tol=1e-12 --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL-DAG: norm-run: compare: argument #0: rel_err=0.000e+00 tol=1e-12 PASS
// FAIL-DAG: norm-run: compare: argument #1: rel_err=0.000e+00 tol=1e-12 PASS
// FAIL-DAG: norm-run: compare: argument #2: rel_err={{[0-9.e+-]+}} tol=1e-12 FAIL
// FAIL: {{^}}norm-run: entry=rms pipeline=project {{.*}} cmp_pipeline=upstream {{.*}} cmp_tol=1e-12 FAIL{{$}}
//
// Options are validated.
// RUN: not norm-run %s --entry=rms --compare-tol=0 2>&1 | FileCheck %s --check-prefix=TOL
// TOL: norm-run: error: --compare-tol must be > 0, got '0'
// RUN: not norm-run %s --entry=rms --dims=2,8,8,2,8 --compare-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BADPIPE
// BADPIPE: norm-run: error: cannot parse the pass pipeline 'builtin.module(no-such-pass)'
// RUN: norm-run --help | FileCheck %s --check-prefix=HELP
// HELP: --compare-pipeline=<p>
// HELP: --compare-tol=<t>

func.func @rms(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xf32>)
  return
}

func.func @rms_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      outs(%y : memref<?x?xbf16>)
  return
}

func.func @rms_t(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%r, %n) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @norm_matmul(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %w: tensor<64x32xf32>)
    -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>)
      outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%y, %w : tensor<16x64xf32>, tensor<64x32xf32>)
      outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}
