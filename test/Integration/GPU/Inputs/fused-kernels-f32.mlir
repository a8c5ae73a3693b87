// Every kind of f32 (SIMT) fused GEMM kernel (input of
// ptxas-fused-f32.test): RMSNorm and LayerNorm → matmul, W as K×N and N×K,
// a residual with S written, the cp.async kernel and the guarded-load
// fallback (K = 1001 takes only the latter), and matmul → norm.

func.func @rms_kn_f32(%x: memref<?x4096xf32>, %g: memref<4096xf32>, %w: memref<4096x4096xf32>,
                      %mb: memref<4096xf32>, %c: memref<?x4096xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xf32>) weight(%g : memref<4096xf32>)
    rhs(%w : memref<4096x4096xf32>) matmul_bias(%mb : memref<4096xf32>) outs(%c : memref<?x4096xf32>)
  return
}

func.func @ln_res_nk_f32(%x: memref<?x768xf32>, %r: memref<?x768xf32>, %g: memref<768xf32>, %b: memref<768xf32>,
                         %w: memref<3072x768xf32>, %c: memref<?x3072xf32>, %s: memref<?x768xf32>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xf32>) residual(%r : memref<?x768xf32>)
    weight(%g : memref<768xf32>) bias(%b : memref<768xf32>) rhs(%w : memref<3072x768xf32>)
    outs(%c : memref<?x3072xf32>) sum_outs(%s : memref<?x768xf32>) {transpose_rhs}
  return
}

func.func @rms_nk_f32_odd(%x: memref<?x1001xf32>, %w: memref<300x1001xf32>, %c: memref<?x300xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x1001xf32>) rhs(%w : memref<300x1001xf32>)
    outs(%c : memref<?x300xf32>) {transpose_rhs}
  return
}

func.func @mm_ln_f32(%a: memref<?x512xf32>, %w: memref<512x1024xf32>, %r: memref<?x1024xf32>,
                     %g: memref<1024xf32>, %b: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.matmul_layer_norm ins(%a : memref<?x512xf32>) rhs(%w : memref<512x1024xf32>)
    residual(%r : memref<?x1024xf32>) weight(%g : memref<1024xf32>) bias(%b : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>)
  return
}
