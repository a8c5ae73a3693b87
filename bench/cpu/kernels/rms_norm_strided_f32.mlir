// RMSNorm over a strided view against the contiguous row of the same size,
// f32, γ, epsilon 1e-6 (as rms_norm_f32.mlir), static row lengths. For
// bench.py's strided-row cells:
//   @mla_strided:  DeepSeek MLA, the first 512 of kv_a_proj's 576 columns
//                  (x: R×576, γ: 512, y: R×512)
//   @mla_contig:   the same norm on contiguous rows of 512 (x, y: R×512)
//   @qkv_strided:  split QKV, the k slice (columns 4096..8191) of a fused
//                  [T, 3·4096] projection (x: R×12288, γ: 4096, y: R×4096)
//   @qkv_contig:   the same norm on contiguous rows of 4096
//   norm-run rms_norm_strided_f32.mlir --entry=mla_strided --dims=R,R
func.func @mla_strided(%x: memref<?x576xf32>, %g: memref<512xf32>, %y: memref<?x512xf32>) {
  %c0 = arith.constant 0 : index
  %r = memref.dim %x, %c0 : memref<?x576xf32>
  %v = memref.subview %x[0, 0] [%r, 512] [1, 1]
      : memref<?x576xf32> to memref<?x512xf32, strided<[576, 1]>>
  norm.rms_norm ins(%v : memref<?x512xf32, strided<[576, 1]>>) weight(%g : memref<512xf32>)
      outs(%y : memref<?x512xf32>) {epsilon = 1.0e-06 : f64}
  return
}

func.func @mla_contig(%x: memref<?x512xf32>, %g: memref<512xf32>, %y: memref<?x512xf32>) {
  norm.rms_norm ins(%x : memref<?x512xf32>) weight(%g : memref<512xf32>)
      outs(%y : memref<?x512xf32>) {epsilon = 1.0e-06 : f64}
  return
}

func.func @qkv_strided(%x: memref<?x12288xf32>, %g: memref<4096xf32>, %y: memref<?x4096xf32>) {
  %c0 = arith.constant 0 : index
  %r = memref.dim %x, %c0 : memref<?x12288xf32>
  %v = memref.subview %x[0, 4096] [%r, 4096] [1, 1]
      : memref<?x12288xf32> to memref<?x4096xf32, strided<[12288, 1], offset: 4096>>
  norm.rms_norm ins(%v : memref<?x4096xf32, strided<[12288, 1], offset: 4096>>)
      weight(%g : memref<4096xf32>) outs(%y : memref<?x4096xf32>) {epsilon = 1.0e-06 : f64}
  return
}

func.func @qkv_contig(%x: memref<?x4096xf32>, %g: memref<4096xf32>, %y: memref<?x4096xf32>) {
  norm.rms_norm ins(%x : memref<?x4096xf32>) weight(%g : memref<4096xf32>)
      outs(%y : memref<?x4096xf32>) {epsilon = 1.0e-06 : f64}
  return
}
