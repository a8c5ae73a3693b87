// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s --check-prefixes=COMMON,DECOMPOSE
// RUN: norm-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefixes=COMMON,CANON
// RUN: norm-opt %s -split-input-file --one-shot-bufferize=bufferize-function-boundaries --norm-decompose | FileCheck %s --check-prefixes=COMMON,DECOMPOSE

// Positive controls for the malformed corpus: valid edge cases (fully dynamic
// memrefs, strided layouts, rank-1 inputs with rank-0 statistics, ε = 0 and
// -0.0, a tiny `partial`, zero rows) must be accepted and go through the
// passes without a crash. (Memrefs through --norm-lower-to-cpu: see
// memref-lower-to-cpu.mlir.)

// COMMON-LABEL: func.func @rms_norm_dynamic_memref
// DECOMPOSE-NOT: norm.
// CANON: norm.rms_norm
func.func @rms_norm_dynamic_memref(%x: memref<?x?x?xf16>, %r: memref<?x?x?xf16>, %g: memref<?x?xf16>,
    %e: memref<?x?x?xf16>, %s: memref<?x?x?xf16>, %rs: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?x?xf16>) residual(%r : memref<?x?x?xf16>) weight(%g : memref<?x?xf16>)
      outs(%e : memref<?x?x?xf16>) sum_outs(%s : memref<?x?x?xf16>) rstd_outs(%rs : memref<?xf32>)
      {axis = -2 : i64, partial = 1.0e-300 : f64, weight_offset = 1.0 : f32}
  return
}

// -----

// COMMON-LABEL: func.func @layer_norm_strided_memref
// DECOMPOSE-NOT: norm.
// CANON: norm.layer_norm
func.func @layer_norm_strided_memref(%x: memref<?x?xbf16, strided<[?, ?], offset: ?>>,
    %e: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %m: memref<?xf64, strided<[2]>>, %rs: memref<?xf64>) {
  norm.layer_norm ins(%x : memref<?x?xbf16, strided<[?, ?], offset: ?>>) outs(%e : memref<?x?xbf16, strided<[?, 1], offset: ?>>)
      mean_outs(%m : memref<?xf64, strided<[2]>>) rstd_outs(%rs : memref<?xf64>)
      {acc_type = f64, epsilon = 0.0 : f32, eps_mode = #norm.eps_mode<outside_sqrt>}
  return
}

// -----

// COMMON-LABEL: func.func @fused_dynamic_memref
// DECOMPOSE-NOT: norm.
// CANON: norm.rms_norm_matmul
// CANON: norm.layer_norm_matmul
// CANON: norm.matmul_rms_norm
// CANON: norm.matmul_layer_norm
func.func @fused_dynamic_memref(%x: memref<?x?xf32>, %g: memref<?xf32>, %w: memref<?x?xf32>, %mb: memref<?xf32>,
    %e: memref<?x?xf32>, %s: memref<?x?xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) rhs(%w : memref<?x?xf32>)
      matmul_bias(%mb : memref<?xf32>) outs(%e : memref<?x?xf32>) {transpose_rhs}
  norm.layer_norm_matmul ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) bias(%g : memref<?xf32>)
      rhs(%w : memref<?x?xf32>) outs(%e : memref<?x?xf32>) {epsilon = -0.0 : f64}
  norm.matmul_rms_norm ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>) matmul_bias(%mb : memref<?xf32>)
      residual(%s : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%e : memref<?x?xf32>) sum_outs(%s : memref<?x?xf32>)
  norm.matmul_layer_norm ins(%x : memref<?x?xf32>) rhs(%w : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%g : memref<?xf32>) outs(%e : memref<?x?xf32>) {transpose_rhs, acc_type = f64}
  return
}

// -----

// A 1-D input: the statistics are rank 0.
// COMMON-LABEL: func.func @rank1_rank0_stats
// DECOMPOSE-NOT: norm.
// CANON: norm.layer_norm
func.func @rank1_rank0_stats(%x: tensor<?xf64>, %e: tensor<?xf64>, %m: tensor<f64>, %rs: tensor<f64>)
    -> (tensor<?xf64>, tensor<f64>, tensor<f64>) {
  %y, %mean, %rstd = norm.layer_norm ins(%x : tensor<?xf64>) weight(%x : tensor<?xf64>) bias(%x : tensor<?xf64>)
      outs(%e : tensor<?xf64>) mean_outs(%m : tensor<f64>) rstd_outs(%rs : tensor<f64>)
      {cast_mode = #norm.cast_mode<before_weight>} -> tensor<?xf64>, tensor<f64>, tensor<f64>
  return %y, %mean, %rstd : tensor<?xf64>, tensor<f64>, tensor<f64>
}

// -----

// Zero rows, static and dynamic, and results that feed further ops.
// COMMON-LABEL: func.func @zero_rows
// DECOMPOSE-NOT: norm.
// CANON: norm.layer_norm
// CANON: norm.rms_norm
func.func @zero_rows(%x: tensor<0x?xf32>, %g: tensor<?xf32>) -> (tensor<0x?xf32>, tensor<0xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<0x?xf32>
  %e = tensor.empty(%n) : tensor<0x?xf32>
  %m = tensor.empty() : tensor<0xf32>
  %y, %mean = norm.layer_norm ins(%x : tensor<0x?xf32>) weight(%g : tensor<?xf32>) outs(%e : tensor<0x?xf32>)
      mean_outs(%m : tensor<0xf32>) -> tensor<0x?xf32>, tensor<0xf32>
  %e2 = tensor.empty(%n) : tensor<0x?xf32>
  %z = norm.rms_norm ins(%y : tensor<0x?xf32>) residual(%x : tensor<0x?xf32>) outs(%e2 : tensor<0x?xf32>)
      {partial = 0.5 : f32} -> tensor<0x?xf32>
  %d = tensor.dim %z, %c1 : tensor<0x?xf32>
  return %z, %mean, %d : tensor<0x?xf32>, tensor<0xf32>, index
}

// -----

// COMMON-LABEL: func.func @zero_rows_fused
// DECOMPOSE-NOT: norm.
// CANON: norm.matmul_layer_norm
func.func @zero_rows_fused(%a: tensor<?x24xf32>, %w: tensor<20x24xf32>, %s: tensor<?x20xf32>) -> (tensor<?x20xf32>, tensor<?x20xf32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x24xf32>
  %e = tensor.empty(%rows) : tensor<?x20xf32>
  %y, %sum = norm.matmul_layer_norm ins(%a : tensor<?x24xf32>) rhs(%w : tensor<20x24xf32>) residual(%s : tensor<?x20xf32>)
      outs(%e : tensor<?x20xf32>) sum_outs(%s : tensor<?x20xf32>) {transpose_rhs} -> tensor<?x20xf32>, tensor<?x20xf32>
  return %y, %sum : tensor<?x20xf32>, tensor<?x20xf32>
}
