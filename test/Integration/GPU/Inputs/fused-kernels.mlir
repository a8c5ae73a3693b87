// Every kind of tensor-core fused GEMM kernel (input of ptxas-fused.test):
// norm → matmul for RMSNorm and LayerNorm, W as N×K and K×N, bf16 and f16,
// the cp.async kernel and the guarded-load fallback, norm → matmul with a
// residual (R staged beside A, S written by the first column tile), and
// matmul → norm (whose row kernels normalize the pre-norm sum).

func.func @rms_nk_bf16(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<?x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    rhs(%w : memref<4096x4096xbf16>) outs(%c : memref<?x4096xbf16>) {transpose_rhs, weight_offset = 1.0 : f32}
  return
}

func.func @rms_kn_f16(%x: memref<?x512xf16>, %w: memref<512x1024xf16>, %mb: memref<1024xf16>, %c: memref<?x1024xf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x512xf16>) rhs(%w : memref<512x1024xf16>)
    matmul_bias(%mb : memref<1024xf16>) outs(%c : memref<?x1024xf16>)
  return
}

func.func @ln_kn_bf16(%x: memref<?x768xbf16>, %g: memref<768xbf16>, %b: memref<768xbf16>,
                      %w: memref<768x3072xbf16>, %mb: memref<3072xbf16>, %c: memref<?x3072xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xbf16>) weight(%g : memref<768xbf16>)
    bias(%b : memref<768xbf16>) rhs(%w : memref<768x3072xbf16>)
    matmul_bias(%mb : memref<3072xbf16>) outs(%c : memref<?x3072xbf16>)
  return
}

func.func @ln_nk_f16_odd(%x: memref<?x1000xf16>, %w: memref<300x1000xf16>, %c: memref<?x300xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xf16>) rhs(%w : memref<300x1000xf16>)
    outs(%c : memref<?x300xf16>) {transpose_rhs}
  return
}

func.func @mm_rms_bf16(%a: memref<?x512xbf16>, %w: memref<512x1024xbf16>, %r: memref<?x1024xbf16>,
                       %g: memref<1024xbf16>, %y: memref<?x1024xbf16>, %s: memref<?x1024xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x512xbf16>) rhs(%w : memref<512x1024xbf16>)
    residual(%r : memref<?x1024xbf16>) weight(%g : memref<1024xbf16>)
    outs(%y : memref<?x1024xbf16>) sum_outs(%s : memref<?x1024xbf16>)
  return
}

func.func @mm_ln_f16(%a: memref<?x512xf16>, %w: memref<1024x512xf16>, %mb: memref<1024xf16>,
                     %g: memref<1024xf16>, %b: memref<1024xf16>, %y: memref<?x1024xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x512xf16>) rhs(%w : memref<1024x512xf16>)
    matmul_bias(%mb : memref<1024xf16>) weight(%g : memref<1024xf16>) bias(%b : memref<1024xf16>)
    outs(%y : memref<?x1024xf16>) {transpose_rhs}
  return
}

func.func @rms_res_nk_bf16(%x: memref<?x4096xbf16>, %r: memref<?x4096xbf16>, %g: memref<4096xbf16>,
                           %w: memref<4096x4096xbf16>, %c: memref<?x4096xbf16>, %s: memref<?x4096xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) residual(%r : memref<?x4096xbf16>)
    weight(%g : memref<4096xbf16>) rhs(%w : memref<4096x4096xbf16>) outs(%c : memref<?x4096xbf16>)
    sum_outs(%s : memref<?x4096xbf16>) {transpose_rhs}
  return
}

func.func @rms_res_kn_f16(%x: memref<?x512xf16>, %r: memref<?x512xf16>, %w: memref<512x1024xf16>,
                          %c: memref<?x1024xf16>, %s: memref<?x512xf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x512xf16>) residual(%r : memref<?x512xf16>)
    rhs(%w : memref<512x1024xf16>) outs(%c : memref<?x1024xf16>) sum_outs(%s : memref<?x512xf16>)
  return
}

func.func @ln_res_kn_bf16(%x: memref<?x768xbf16>, %r: memref<?x768xbf16>, %g: memref<768xbf16>, %b: memref<768xbf16>,
                          %w: memref<768x3072xbf16>, %mb: memref<3072xbf16>, %c: memref<?x3072xbf16>, %s: memref<?x768xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xbf16>) residual(%r : memref<?x768xbf16>)
    weight(%g : memref<768xbf16>) bias(%b : memref<768xbf16>) rhs(%w : memref<768x3072xbf16>)
    matmul_bias(%mb : memref<3072xbf16>) outs(%c : memref<?x3072xbf16>) sum_outs(%s : memref<?x768xbf16>)
  return
}

func.func @ln_res_nk_f16_odd(%x: memref<?x1000xf16>, %r: memref<?x1000xf16>, %w: memref<300x1000xf16>,
                             %c: memref<?x300xf16>, %s: memref<?x1000xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xf16>) residual(%r : memref<?x1000xf16>)
    rhs(%w : memref<300x1000xf16>) outs(%c : memref<?x300xf16>) sum_outs(%s : memref<?x1000xf16>) {transpose_rhs}
  return
}
