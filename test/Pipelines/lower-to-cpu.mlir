// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=vector target=avx2 num-threads=2" | FileCheck %s --check-prefixes=CHECK,VECTOR
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | FileCheck %s --check-prefixes=CHECK,UPSTREAM
// RUN: norm-opt %s --norm-lower-to-cpu="outline-kernels=false" | FileCheck %s --check-prefix=INLINE
// Unknown or bad pipeline options are diagnostics, not crashes.
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-width=512" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not norm-opt %s --norm-lower-to-cpu="codegen=magic" 2>&1 | FileCheck %s --check-prefix=BADCODEGEN
// RUN: not norm-opt %s --norm-lower-to-cpu="target=neon" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={accumulators=99}" 2>&1 | FileCheck %s --check-prefix=BADACC
// The tuning knobs are convert-norm-to-vector's options, forwarded as
// written and judged by the pass's own parser and checks: a bad one is a
// diagnostic before anything runs, in either spelling of the pipeline.
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-lower-to-cpu{vector-options={gemm-gemv-rows=99}})' 2>&1 | FileCheck %s --check-prefix=BADGEMV
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={nosuch=1}" 2>&1 | FileCheck %s --check-prefix=BADKNOB
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={accumulators=banana}" 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-options={target=avx2}" 2>&1 | FileCheck %s --check-prefix=OWNOPT
// The knobs reach the pass: 2 accumulators, one row loop (no threads).
// RUN: norm-opt %s --pass-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={accumulators=2 parallel-threshold=-1}})' | FileCheck %s --check-prefix=KNOBS
// RUN: not norm-opt %s --norm-lower-to-cpu="num-threads=1000000" 2>&1 | FileCheck %s --check-prefix=BADTHREADS

// The whole module, norm ops and upstream tensor IR together, ends in the
// LLVM dialect: nothing of norm, linalg, tensor, memref or scf is left.
// With codegen=vector (the default), the norm is vector code whose rows run
// on OpenMP threads (num_threads from the option); with codegen=upstream it
// is the decomposition's scalar loops. With codegen=vector each kernel is a
// function the layer calls (norm-outline-kernels), after the layer's own.
// CHECK-LABEL: llvm.func @block
// VECTOR: llvm.call @__norm_kernel_0_norm_rms_norm(
// UPSTREAM-NOT: omp.
// UPSTREAM-NOT: llvm.intr.masked
// CHECK-NOT: norm.
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-NOT: scf.
// CHECK: llvm.return
// CHECK: llvm.func @_mlir_ciface_block
// VECTOR-LABEL: llvm.func internal @__norm_kernel_0_norm_rms_norm(
// VECTOR: omp.parallel num_threads(%{{.*}} : i32)
// One barrier per call, the join (norm-omp-loop-nowait).
// VECTOR: omp.wsloop nowait
// bf16 rows: masked loads of i16 (norm-bf16-memory-as-i16), 16 lanes on
// AVX2 (one register of bf16), widened in pair order (even and odd
// elements of each 32-bit word).
// VECTOR: llvm.intr.masked.load %{{.*}} : (!llvm.ptr, vector<16xi1>, vector<16xi16>) -> vector<16xi16>
// VECTOR-NEXT: llvm.bitcast %{{.*}} : vector<16xi16> to vector<8xi32>
// INLINE-LABEL: llvm.func @block
// INLINE-NOT: llvm.call @__norm_kernel
// INLINE: omp.parallel
// INLINE: llvm.return
// INLINE-NOT: @__norm_kernel

// BADOPT: no such option vector-width
// BADCODEGEN: norm-lower-to-cpu: codegen must be 'vector' or 'upstream', got 'magic'
// BADTARGET: norm-lower-to-cpu: unknown target 'neon' (expected host, avx512, avx512-bf16, avx2 or generic)
// BADACC: norm-lower-to-cpu: accumulators must be in [1, 16]
// BADGEMV: error: norm-lower-to-cpu: gemm-gemv-rows must be in [-1, 64], got 99
// BADKNOB: error: norm-lower-to-cpu: vector-options: no such option nosuch
// BADVALUE: for the --accumulators option: 'banana' value invalid
// BADVALUE: error: norm-lower-to-cpu: vector-options: cannot parse 'accumulators=banana'
// OWNOPT: error: norm-lower-to-cpu: target, lower-matmuls and num-threads are options of the pipeline, not of vector-options
// KNOBS-LABEL: llvm.func internal @__norm_kernel_0_norm_rms_norm(
// KNOBS-NOT: omp.
// KNOBS: llvm.return
// libomp would abort the process at run time.
// BADTHREADS: norm-lower-to-cpu: num-threads must be in [0, 1024], got 1000000

func.func @block(%x: tensor<?x64xbf16>, %r: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<64x32xbf16>)
    -> (tensor<?x32xbf16>, tensor<?x64xbf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xbf16>
  %e = tensor.empty(%n) : tensor<?x64xbf16>
  %es = tensor.empty(%n) : tensor<?x64xbf16>
  %y, %h = norm.rms_norm ins(%x : tensor<?x64xbf16>) residual(%r : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>)
      outs(%e : tensor<?x64xbf16>) sum_outs(%es : tensor<?x64xbf16>) -> tensor<?x64xbf16>, tensor<?x64xbf16>
  %zero = arith.constant 0.0 : bf16
  %eo = tensor.empty(%n) : tensor<?x32xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%eo : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %o = linalg.matmul ins(%y, %w : tensor<?x64xbf16>, tensor<64x32xbf16>) outs(%acc : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %o, %h : tensor<?x32xbf16>, tensor<?x64xbf16>
}
