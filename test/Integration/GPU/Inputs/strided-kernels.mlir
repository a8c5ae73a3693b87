// Norms on strided views for --convert-norm-to-gpu; used by
// ptxas-strided.test. Each becomes a vector and a scalar kernel (the
// dynamic one four).

// DeepSeek MLA: the first 512 of kv_a_proj's 576 columns, f32, static.
func.func @mla_kv_a(%x: memref<?x512xf32, strided<[576, 1]>>, %g: memref<512xf32>,
                    %y: memref<?x512xf32>) {
  norm.rms_norm ins(%x : memref<?x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
    outs(%y : memref<?x512xf32>)
  return
}

// Split QKV: a slice of a fused projection, bf16, sizes, offset and row
// stride known at run time, written into a slice of a fused output; with a
// residual slice, its sum and the rstd.
func.func @qkv_dynamic(%x: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                       %r: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                       %g: memref<?xbf16>,
                       %y: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                       %s: memref<?x?xbf16>, %rs: memref<?xf32, strided<[?], offset: ?>>) {
  norm.rms_norm ins(%x : memref<?x?xbf16, strided<[?, 1], offset: ?>>)
    residual(%r : memref<?x?xbf16, strided<[?, 1], offset: ?>>) weight(%g : memref<?xbf16>)
    outs(%y : memref<?x?xbf16, strided<[?, 1], offset: ?>>) sum_outs(%s : memref<?x?xbf16>)
    rstd_outs(%rs : memref<?xf32, strided<[?], offset: ?>>)
  return
}
