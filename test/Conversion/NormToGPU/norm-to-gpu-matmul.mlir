// RUN: norm-opt %s --convert-norm-to-gpu=lower-matmuls --canonicalize -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s --check-prefix=OFF

// With lower-matmuls, a memref linalg.matmul with an f32 C runs on the fused
// ops' GEMM kernel with no prologue: C is read back as the epilogue's
// residual (C += A·B), no row statistics; bf16 inputs on tensor cores.
// Without the option it is left alone.
// (Static 128 × 256 from K = 512: 4 blocks, so the cp.async kernel is
// split over K in 2 slices, and the reduction reads C and writes it back.)
// CHECK-LABEL: func.func @bf16_in_f32_out
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK-NOT:       gpu.shuffle
// CHECK:           memref.load %{{.*}} : memref<128x256xf32>
// CHECK:           memref.store %{{.*}} : memref<128x256xf32>
// CHECK-NOT:     linalg.matmul
// OFF-LABEL:     func.func @bf16_in_f32_out
// OFF:             linalg.matmul
// OFF-NOT:         gpu.launch
func.func @bf16_in_f32_out(%a: memref<128x512xbf16>, %b: memref<512x256xbf16>, %c: memref<128x256xf32>) {
  linalg.matmul ins(%a, %b : memref<128x512xbf16>, memref<512x256xbf16>)
                outs(%c : memref<128x256xf32>)
  return
}

// -----

// W as N×K through the indexing maps: ldmatrix without .trans; f32 runs
// the SIMT kernel.
// CHECK-LABEL: func.func @transposed_maps
// CHECK:         nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x128x40xf16
// CHECK-LABEL: func.func @f32_simt
// CHECK:         vector.fma
// CHECK-NOT:     nvgpu.mma.sync
func.func @transposed_maps(%a: memref<64x256xf16>, %b: memref<96x256xf16>, %c: memref<64x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                ins(%a, %b : memref<64x256xf16>, memref<96x256xf16>)
                outs(%c : memref<64x96xf32>)
  return
}
func.func @f32_simt(%a: memref<64x256xf32>, %b: memref<256x96xf32>, %c: memref<64x96xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x96xf32>)
                outs(%c : memref<64x96xf32>)
  return
}

// -----

// Left alone: a bf16 C (linalg rounds every partial sum to bf16, which the
// f32-accumulating kernel would not reproduce), mixed input types,
// tensors, a transposed A.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT:     gpu.launch
func.func @left_alone(%a: memref<64x256xbf16>, %b: memref<256x96xbf16>, %c: memref<64x96xbf16>,
                      %bh: memref<256x96xf16>, %cf: memref<64x96xf32>,
                      %ta: tensor<64x256xf32>, %tb: tensor<256x96xf32>, %tc: tensor<64x96xf32>,
                      %at: memref<256x64xf32>, %bf: memref<256x96xf32>) -> tensor<64x96xf32> {
  linalg.matmul ins(%a, %b : memref<64x256xbf16>, memref<256x96xbf16>)
                outs(%c : memref<64x96xbf16>)
  linalg.matmul ins(%a, %bh : memref<64x256xbf16>, memref<256x96xf16>)
                outs(%cf : memref<64x96xf32>)
  %r = linalg.matmul ins(%ta, %tb : tensor<64x256xf32>, tensor<256x96xf32>)
                     outs(%tc : tensor<64x96xf32>) -> tensor<64x96xf32>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
                ins(%at, %bf : memref<256x64xf32>, memref<256x96xf32>)
                outs(%cf : memref<64x96xf32>)
  return %r : tensor<64x96xf32>
}
