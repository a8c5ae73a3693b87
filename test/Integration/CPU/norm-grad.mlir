// Execution tests of the gradient ops through --norm-lower-to-cpu (the
// vector kernel, GradKernel.cpp; pRMSNorm through the decomposition): norm-run
// fills every input with seeded random data, runs the compiled function and
// compares dx, dγ and dβ with the float64 reference (referenceNormGrad,
// itself checked against finite differences in test/Reference), each
// within its element type's tolerance (dγ, dβ in f32: 1e-5, DESIGN.md §9).
// Rows of x with |mean| = 10⁴·std (x uniform in [10⁴ − √3, 10⁴ + √3]: std
// 1; dy and γ centred on 0) check the recomputed LayerNorm statistics.
//
// DEFINE: %{run} = norm-run %s --warmup=0 --repeat=1 --check
// RUN: %{run} --entry=rms | FileCheck %s
// RUN: %{run} --entry=rms --seed=7 --dist=normal --mean=0.5 | FileCheck %s
// RUN: %{run} --entry=rms_saved_partial_outside | FileCheck %s
// RUN: %{run} --entry=rms_bf16_offset --dims=37,37 | FileCheck %s
// RUN: %{run} --entry=ln | FileCheck %s
// RUN: %{run} --entry=ln --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --entry=rms --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --entry=ln_f16_saved_residual | FileCheck %s
// RUN: %{run} --entry=ln_param_grads --dims=300,300 --mean=-3 | FileCheck %s
// RUN: %{run} --entry=ln --threads=2 | FileCheck %s
// The kernel's threaded chunks (forced on), AVX2 and plain 128-bit vectors
// with one accumulator:
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --entry=ln_param_grads --dims=300,300 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --entry=rms_bf16_offset --dims=130,130 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' --entry=ln_f16_saved_residual | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=generic vector-options={accumulators=1}})' --entry=rms | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=generic vector-options={accumulators=1}})' --entry=ln --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// dx with streaming stores (forced on: the threshold at 1 byte): rows of
// 130 f32 (each row starts 8 bytes further from the 32-byte alignment)
// and of 37 bf16 (a different head each row), 1 and 2 threads, the
// residual form; and the same bits as ordinary stores.
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={streaming-threshold=1}})' --entry=rms | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=rms_bf16_offset --dims=37,37 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{vector-options={streaming-threshold=1}})' --entry=ln_f16_saved_residual | FileCheck %s
// RUN: %{run} --entry=rms_bf16_offset --dims=37,37 --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={streaming-threshold=-1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// The chunked column sums give the same bits on 2 threads as serially:
// RUN: %{run} --entry=ln_param_grads --dims=300,300 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{vector-options={parallel-threshold=-1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// AVX2 takes 16 lanes for bf16 rows (two f32 registers): rows of 203 (12
// vectors and a masked tail of 11), recomputed LayerNorm statistics (also
// on rows with |mean| = 10⁴·std), dγ and dβ over 37 rows, dx streamed
// (each row's head a different length) on 2 threads, and the same bits
// streamed as not:
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' --entry=ln_bf16 --dims=37,203,37,203,203 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2})' --entry=ln_bf16 --dims=37,203,37,203,203 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=ln_bf16 --dims=37,203,37,203,203 | FileCheck %s
// RUN: %{run} --entry=ln_bf16 --dims=37,203,37,203,203 --pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{target=avx2 vector-options={streaming-threshold=-1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// The sweeps prefetch 2 rows ahead, clamped to the last row: problems of 1
// and 2 rows, f32 and bf16, dx wanted or not (then the dx sweep prefetches
// dy too), 1 and 2 threads, rows with |mean| = 10⁴·std:
// RUN: %{run} --entry=ln_bf16 --dims=1,203,1,203,203 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=ln_bf16 --dims=2,203,2,203,203 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --entry=ln_param_grads --dims=2,2 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --entry=ln_param_grads --dims=2,2 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=rms_bf16_offset --dims=2,2 | FileCheck %s
// Blocks of rows (grad-block-rows, default 2) share each load and store
// of the partial column sums; they need chunks of several rows (R > 64)
// and rows whose dy and x take over 32 KiB (f32 rows of 4100 and 4112,
// bf16 rows of 8200 and 8208). 203 rows (chunks of 3 and 4: a row left over
// after the blocks), f32 and bf16, dx or not, dγ only, 1 and 2 threads, dx
// streamed with rows a whole number of vectors (blocks) or not (a row at a
// time), rows with |mean| = 10⁴·std, blocks of 3 and 8; then the same bits
// as a row at a time (the rows' terms are added in row order either way):
// RUN: %{run} --entry=ln_bf16 --dims=203,8208,203,8208,8208 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=ln_bf16 --dims=203,8208,203,8208,8208 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --entry=ln_bf16 --dims=203,8200,203,8200,8200 | FileCheck %s
// RUN: %{run} --entry=ln_dx_dg --dims=203,4100,203,4100,4100 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1 grad-block-rows=3}})' --entry=ln_dx_dg --dims=203,4112,203,4112,4112 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{vector-options={grad-block-rows=8}})' --entry=rms_dx_dg --dims=203,4100,203,4100,4100 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 grad-block-rows=3}})' --entry=ln_param_grads_wide --dims=203,4100,203,4100 --arg-mean=1:1e4 --scale=1.7320508 | FileCheck %s
// RUN: %{run} --entry=ln_bf16 --dims=203,8208,203,8208,8208 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1 grad-block-rows=1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// RUN: %{run} --entry=ln_dx_dg --dims=203,4100,203,4100,4100 --pipeline='builtin.module(norm-lower-to-cpu{vector-options={grad-block-rows=3}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{vector-options={grad-block-rows=1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// RUN: %{run} --entry=rms_dx_dg --dims=203,4100,203,4100,4100 --pipeline='builtin.module(norm-lower-to-cpu{vector-options={grad-block-rows=8}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{vector-options={grad-block-rows=1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// RUN: %{run} --entry=ln_param_grads_wide --dims=203,4100,203,4100 --pipeline='builtin.module(norm-lower-to-cpu{num-threads=2 vector-options={parallel-threshold=0}})' --compare-pipeline='builtin.module(norm-lower-to-cpu{vector-options={parallel-threshold=-1 grad-block-rows=1}})' --compare-tol=1e-30 | FileCheck %s --check-prefix=SAME
// SAME: cmp_rel_err=0.000e+00 cmp_tol=1e-30 PASS
// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline={{project|custom}} threads={{[02]}} bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-06|1e-05|2e-03|1e-02}} PASS{{$}}

// f32, γ, recomputed rstd, a 3-D input normalized over its last dim.
func.func @rms(%dy: tensor<6x5x130xf32>, %x: tensor<6x5x130xf32>, %g: tensor<130xf32>)
    -> (tensor<6x5x130xf32>, tensor<130xf32>) {
  %e0 = tensor.empty() : tensor<6x5x130xf32>
  %e1 = tensor.empty() : tensor<130xf32>
  %dx, %dg = norm.rms_norm_grad grad(%dy : tensor<6x5x130xf32>) ins(%x : tensor<6x5x130xf32>)
      weight(%g : tensor<130xf32>) outs(%e0 : tensor<6x5x130xf32>)
      weight_grad_outs(%e1 : tensor<130xf32>) -> tensor<6x5x130xf32>, tensor<130xf32>
  return %dx, %dg : tensor<6x5x130xf32>, tensor<130xf32>
}

// Saved rstd (random here: the formula holds for any r), pRMSNorm over
// the first ⌈0.3 · 120⌉ of two normalized dims, ε outside the sqrt; on
// memrefs.
func.func @rms_saved_partial_outside(%dy: memref<16x3x40xf32>, %x: memref<16x3x40xf32>,
                                     %r: memref<16xf32>, %dx: memref<16x3x40xf32>,
                                     %dg: memref<3x40xf32>) {
  norm.rms_norm_grad grad(%dy : memref<16x3x40xf32>) ins(%x : memref<16x3x40xf32>)
      rstd(%r : memref<16xf32>) outs(%dx : memref<16x3x40xf32>)
      weight_grad_outs(%dg : memref<3x40xf32>)
      {axis = 1 : i64, partial = 0.3 : f32, eps_mode = #norm.eps_mode<outside_sqrt>,
       epsilon = 1.0e-3 : f32}
  return
}

// bf16 activations, f32 γ with Gemma's offset, f32 dγ; dynamic rows.
func.func @rms_bf16_offset(%dy: tensor<?x96xbf16>, %x: tensor<?x96xbf16>, %g: tensor<96xf32>)
    -> (tensor<?x96xbf16>, tensor<96xf32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x96xbf16>
  %e0 = tensor.empty(%rows) : tensor<?x96xbf16>
  %e1 = tensor.empty() : tensor<96xf32>
  %dx, %dg = norm.rms_norm_grad grad(%dy : tensor<?x96xbf16>) ins(%x : tensor<?x96xbf16>)
      weight(%g : tensor<96xf32>) outs(%e0 : tensor<?x96xbf16>)
      weight_grad_outs(%e1 : tensor<96xf32>) {weight_offset = 1.0 : f32}
      -> tensor<?x96xbf16>, tensor<96xf32>
  return %dx, %dg : tensor<?x96xbf16>, tensor<96xf32>
}

// f32 LayerNorm, recomputed statistics, all three results.
func.func @ln(%dy: tensor<24x200xf32>, %x: tensor<24x200xf32>, %g: tensor<200xf32>)
    -> (tensor<24x200xf32>, tensor<200xf32>, tensor<200xf32>) {
  %e0 = tensor.empty() : tensor<24x200xf32>
  %e1 = tensor.empty() : tensor<200xf32>
  %e2 = tensor.empty() : tensor<200xf32>
  %dx, %dg, %db = norm.layer_norm_grad grad(%dy : tensor<24x200xf32>) ins(%x : tensor<24x200xf32>)
      weight(%g : tensor<200xf32>) outs(%e0 : tensor<24x200xf32>)
      weight_grad_outs(%e1 : tensor<200xf32>) bias_grad_outs(%e2 : tensor<200xf32>)
      -> tensor<24x200xf32>, tensor<200xf32>, tensor<200xf32>
  return %dx, %dg, %db : tensor<24x200xf32>, tensor<200xf32>, tensor<200xf32>
}

// f16 with saved mean/rstd and the residual form's incoming gradient.
func.func @ln_f16_saved_residual(%dy: tensor<8x64xf16>, %x: tensor<8x64xf16>,
                                 %ds: tensor<8x64xf16>, %g: tensor<64xf16>,
                                 %m: tensor<8xf32>, %r: tensor<8xf32>)
    -> (tensor<8x64xf16>, tensor<64xf16>, tensor<64xf16>) {
  %e0 = tensor.empty() : tensor<8x64xf16>
  %e1 = tensor.empty() : tensor<64xf16>
  %e2 = tensor.empty() : tensor<64xf16>
  %dx, %dg, %db = norm.layer_norm_grad grad(%dy : tensor<8x64xf16>) ins(%x : tensor<8x64xf16>)
      sum_grad(%ds : tensor<8x64xf16>) weight(%g : tensor<64xf16>)
      mean(%m : tensor<8xf32>) rstd(%r : tensor<8xf32>)
      outs(%e0 : tensor<8x64xf16>) weight_grad_outs(%e1 : tensor<64xf16>)
      bias_grad_outs(%e2 : tensor<64xf16>)
      -> tensor<8x64xf16>, tensor<64xf16>, tensor<64xf16>
  return %dx, %dg, %db : tensor<8x64xf16>, tensor<64xf16>, tensor<64xf16>
}

// Only dγ and dβ, over 300 dynamic rows (sums over many rows).
func.func @ln_param_grads(%dy: tensor<?x48xf32>, %x: tensor<?x48xf32>)
    -> (tensor<48xf32>, tensor<48xf32>) {
  %e1 = tensor.empty() : tensor<48xf32>
  %e2 = tensor.empty() : tensor<48xf32>
  %dg, %db = norm.layer_norm_grad grad(%dy : tensor<?x48xf32>) ins(%x : tensor<?x48xf32>)
      weight_grad_outs(%e1 : tensor<48xf32>) bias_grad_outs(%e2 : tensor<48xf32>)
      -> tensor<48xf32>, tensor<48xf32>
  return %dg, %db : tensor<48xf32>, tensor<48xf32>
}

// bf16 LayerNorm, recomputed statistics, all three results (dγ, dβ in f32);
// rows of any length.
func.func @ln_bf16(%dy: tensor<?x?xbf16>, %x: tensor<?x?xbf16>, %g: tensor<?xbf16>)
    -> (tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %cols = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %e0 = tensor.empty(%rows, %cols) : tensor<?x?xbf16>
  %e1 = tensor.empty(%cols) : tensor<?xf32>
  %e2 = tensor.empty(%cols) : tensor<?xf32>
  %dx, %dg, %db = norm.layer_norm_grad grad(%dy : tensor<?x?xbf16>) ins(%x : tensor<?x?xbf16>)
      weight(%g : tensor<?xbf16>) outs(%e0 : tensor<?x?xbf16>)
      weight_grad_outs(%e1 : tensor<?xf32>) bias_grad_outs(%e2 : tensor<?xf32>)
      -> tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %dx, %dg, %db : tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
}

// f32 LayerNorm, recomputed statistics, dx and dγ but no dβ; rows of any
// length.
func.func @ln_dx_dg(%dy: tensor<?x?xf32>, %x: tensor<?x?xf32>, %g: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %e1 = tensor.empty(%cols) : tensor<?xf32>
  %dx, %dg = norm.layer_norm_grad grad(%dy : tensor<?x?xf32>) ins(%x : tensor<?x?xf32>)
      weight(%g : tensor<?xf32>) outs(%e0 : tensor<?x?xf32>)
      weight_grad_outs(%e1 : tensor<?xf32>) -> tensor<?x?xf32>, tensor<?xf32>
  return %dx, %dg : tensor<?x?xf32>, tensor<?xf32>
}

// f32 RMSNorm, recomputed rstd, dx and dγ; rows of any length.
func.func @rms_dx_dg(%dy: tensor<?x?xf32>, %x: tensor<?x?xf32>, %g: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %e1 = tensor.empty(%cols) : tensor<?xf32>
  %dx, %dg = norm.rms_norm_grad grad(%dy : tensor<?x?xf32>) ins(%x : tensor<?x?xf32>)
      weight(%g : tensor<?xf32>) outs(%e0 : tensor<?x?xf32>)
      weight_grad_outs(%e1 : tensor<?xf32>) -> tensor<?x?xf32>, tensor<?xf32>
  return %dx, %dg : tensor<?x?xf32>, tensor<?xf32>
}

// Only dγ and dβ, rows of any length.
func.func @ln_param_grads_wide(%dy: tensor<?x?xf32>, %x: tensor<?x?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>) {
  %c1 = arith.constant 1 : index
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e1 = tensor.empty(%cols) : tensor<?xf32>
  %e2 = tensor.empty(%cols) : tensor<?xf32>
  %dg, %db = norm.layer_norm_grad grad(%dy : tensor<?x?xf32>) ins(%x : tensor<?x?xf32>)
      weight_grad_outs(%e1 : tensor<?xf32>) bias_grad_outs(%e2 : tensor<?xf32>)
      -> tensor<?xf32>, tensor<?xf32>
  return %dg, %db : tensor<?xf32>, tensor<?xf32>
}
