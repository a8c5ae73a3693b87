// norm-lower-to-cpu's num-threads reaches the derived parallel-threshold of
// both the norm kernels and the elementwise code (target=avx2: from 160000
// bytes at 2 threads). RMSNorm f32 16x4096 (512 KiB) and an add of three
// 16x4096 f32 buffers (768 KiB) run on threads at num-threads=2, below the
// old 1 MiB default; 2x4096 stays serial; one thread never splits.
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx2 num-threads=2" | FileCheck %s --check-prefixes=TWO
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx2 num-threads=1" | FileCheck %s --check-prefixes=ONE
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx2 num-threads=1 vector-options={parallel-threshold=0}" | FileCheck %s --check-prefixes=ONE
// The explicit threshold and the cost model's constants reach the
// elementwise code too (a 10 us fork/join: from 800000 bytes).
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={parallel-threshold=1048576}" | FileCheck %s --check-prefixes=ONE
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={fork-join-ns=10000}" | FileCheck %s --check-prefixes=ONE
// num-threads is the pipeline's, and the cost model's options are judged
// before anything runs.
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={num-threads=2}" 2>&1 | FileCheck %s --check-prefix=OWNOPT
// With target=host the constants are the host CPU's where they were
// measured; host-cpu names the CPU instead, and reaches both passes: on
// znver4 (56 B/ns, 900 ns: from 100800 bytes) RMSNorm f32 4x4096 (128 KiB)
// and an add of three 4x4096 f32 buffers (192 KiB) split, on znver5 (128
// B/ns, 2000 ns: from 512000 bytes) neither does.
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=host num-threads=2 vector-options={host-cpu=znver4}" | FileCheck %s --check-prefixes=ZEN4
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=host num-threads=2 vector-options={host-cpu=znver5}" | FileCheck %s --check-prefixes=ZEN5
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={fork-join-ns=-2}" 2>&1 | FileCheck %s --check-prefix=BADFORK
// RUN: not norm-opt %s --norm-lower-to-cpu="target=host vector-options={host-cpu=zen9}" 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not norm-opt %s --norm-lower-to-cpu="target=avx2 vector-options={host-cpu=znver4}" 2>&1 | FileCheck %s --check-prefix=CPUTARGET
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={parallel-threshold=-7}" 2>&1 | FileCheck %s --check-prefix=BADTHRESH

// OWNOPT: error: norm-lower-to-cpu: target, lower-matmuls and num-threads are options of the pipeline, not of vector-options
// BADFORK: error: norm-lower-to-cpu: fork-join-ns must be in [-1, 1000000000], got -2
// BADCPU: error: norm-lower-to-cpu: host-cpu must be an x86-64 CPU name LLVM knows (e.g. znver4, sapphirerapids), got 'zen9'
// CPUTARGET: error: norm-lower-to-cpu: host-cpu applies to target=host only, got host-cpu=znver4 with target=avx2
// BADTHRESH: error: norm-lower-to-cpu: parallel-threshold must be a byte count, -1 (never) or -2 (derived), got -7

// TWO-LABEL: llvm.func @rows16
// TWO: llvm.func internal @__norm_kernel_0_norm_rms_norm(
// TWO: omp.parallel
// ONE-LABEL: llvm.func @rows16
// ONE-NOT: omp.parallel
func.func @rows16(%x: tensor<16x4096xf32>, %g: tensor<4096xf32>) -> tensor<16x4096xf32> {
  %e = tensor.empty() : tensor<16x4096xf32>
  %y = norm.rms_norm ins(%x : tensor<16x4096xf32>) weight(%g : tensor<4096xf32>) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

// -----

// TWO-LABEL: llvm.func @rows2
// TWO-NOT: omp.parallel
// ONE-LABEL: llvm.func @rows2
// ONE-NOT: omp.parallel
func.func @rows2(%x: tensor<2x4096xf32>, %g: tensor<4096xf32>) -> tensor<2x4096xf32> {
  %e = tensor.empty() : tensor<2x4096xf32>
  %y = norm.rms_norm ins(%x : tensor<2x4096xf32>) weight(%g : tensor<4096xf32>) outs(%e : tensor<2x4096xf32>) -> tensor<2x4096xf32>
  return %y : tensor<2x4096xf32>
}

// -----

// TWO-LABEL: llvm.func @add16
// TWO: omp.parallel
// ONE-LABEL: llvm.func @add16
// ONE-NOT: omp.parallel
func.func @add16(%a: tensor<16x4096xf32>, %b: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
  %s = arith.addf %a, %b : tensor<16x4096xf32>
  return %s : tensor<16x4096xf32>
}

// -----

// ZEN4-LABEL: llvm.func @rows4
// ZEN4: omp.parallel
// ZEN5-LABEL: llvm.func @rows4
// ZEN5-NOT: omp.parallel
func.func @rows4(%x: tensor<4x4096xf32>, %g: tensor<4096xf32>) -> tensor<4x4096xf32> {
  %e = tensor.empty() : tensor<4x4096xf32>
  %y = norm.rms_norm ins(%x : tensor<4x4096xf32>) weight(%g : tensor<4096xf32>) outs(%e : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  return %y : tensor<4x4096xf32>
}

// -----

// ZEN4-LABEL: llvm.func @add4
// ZEN4: omp.parallel
// ZEN5-LABEL: llvm.func @add4
// ZEN5-NOT: omp.parallel
// ZEN5: llvm.return
func.func @add4(%a: tensor<4x4096xf32>, %b: tensor<4x4096xf32>) -> tensor<4x4096xf32> {
  %s = arith.addf %a, %b : tensor<4x4096xf32>
  return %s : tensor<4x4096xf32>
}
