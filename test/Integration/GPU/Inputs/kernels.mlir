// One norm op per kernel kind of --convert-norm-to-gpu; each becomes a
// vector and a scalar kernel (the dynamic one four). Used by ptxas.test.

// A warp per row, the row held in registers.
func.func @rms_warp_f32(%x: memref<?x1024xf32>, %g: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.rms_norm ins(%x : memref<?x1024xf32>) weight(%g : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>)
  return
}

// A warp per row with a partly masked last chunk; every output.
func.func @ln_warp_masked(%x: memref<?x1000xf32>, %r: memref<?x1000xf32>,
                          %g: memref<1000xf32>, %b: memref<1000xf32>,
                          %y: memref<?x1000xf32>, %s: memref<?x1000xf32>,
                          %m: memref<?xf32>, %rs: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x1000xf32>) residual(%r : memref<?x1000xf32>)
    weight(%g : memref<1000xf32>) bias(%b : memref<1000xf32>)
    outs(%y : memref<?x1000xf32>) sum_outs(%s : memref<?x1000xf32>)
    mean_outs(%m : memref<?xf32>) rstd_outs(%rs : memref<?xf32>)
  return
}

// Several warps per row through shared memory, bf16.
func.func @rms_warps_bf16(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%y : memref<?x4096xbf16>) {weight_offset = 1.0 : f32}
  return
}

// Several warps per row, LayerNorm in bf16 (8192 elements: 256 threads).
func.func @ln_warps_bf16(%x: memref<?x8192xbf16>, %g: memref<8192xbf16>, %b: memref<8192xbf16>, %y: memref<?x8192xbf16>) {
  norm.layer_norm ins(%x : memref<?x8192xbf16>) weight(%g : memref<8192xbf16>)
    bias(%b : memref<8192xbf16>) outs(%y : memref<?x8192xbf16>)
  return
}

// A block per row, re-reading the row.
func.func @ln_block_f32(%x: memref<?x65536xf32>, %g: memref<65536xf32>, %b: memref<65536xf32>,
                        %y: memref<?x65536xf32>, %m: memref<?xf32>, %r: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x65536xf32>) weight(%g : memref<65536xf32>)
    bias(%b : memref<65536xf32>) outs(%y : memref<?x65536xf32>)
    mean_outs(%m : memref<?xf32>) rstd_outs(%r : memref<?xf32>)
  return
}

// Dynamic row length: block or warp, vector or scalar, chosen at run time.
func.func @ln_dynamic_f16(%x: memref<?x?xf16>, %y: memref<?x?xf16>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) outs(%y : memref<?x?xf16>)
    {eps_mode = #norm.eps_mode<outside_sqrt>}
  return
}

// Residual, pRMSNorm, Llama's cast order, 8-byte vectors.
func.func @rms_residual_partial(%x: memref<16x100xbf16>, %res: memref<16x100xbf16>,
                                %y: memref<16x100xbf16>, %s: memref<16x100xbf16>,
                                %r: memref<16xf32>) {
  norm.rms_norm ins(%x : memref<16x100xbf16>) residual(%res : memref<16x100xbf16>)
    outs(%y : memref<16x100xbf16>) sum_outs(%s : memref<16x100xbf16>)
    rstd_outs(%r : memref<16xf32>)
    {partial = 0.5 : f32, cast_mode = #norm.cast_mode<before_weight>}
  return
}

// f64 data: f64 statistics and 64-bit shuffles.
func.func @rms_f64(%x: memref<?x512xf64>, %y: memref<?x512xf64>) {
  norm.rms_norm ins(%x : memref<?x512xf64>) outs(%y : memref<?x512xf64>)
  return
}
