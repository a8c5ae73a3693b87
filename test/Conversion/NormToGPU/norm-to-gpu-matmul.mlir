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

// The generic form (--linalg-generalize-named-ops, torch-mlir) takes the
// GEMM too, with the bf16 inputs extended to f32 in its body.
// CHECK-LABEL: func.func @generic_matmul
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     linalg.generic
// OFF-LABEL:     func.func @generic_matmul
// OFF:             linalg.generic
func.func @generic_matmul(%a: memref<64x256xbf16>, %b: memref<256x96xbf16>, %c: memref<64x96xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x256xbf16>, memref<256x96xbf16>) outs(%c : memref<64x96xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: matmuls on tensors (bufferize first), generics that are not
// matmuls, and generic matmuls the GEMM cannot take (not this option's
// business: the named ones are errors, see norm-to-gpu-matmul-invalid.mlir).
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.matmul
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     gpu.launch
func.func @left_alone(%ta: tensor<64x256xf32>, %tb: tensor<256x96xf32>, %tc: tensor<64x96xf32>,
                      %x: memref<64x96xf32>, %y: memref<64x96xf32>,
                      %a: memref<64x256xf64>, %b: memref<256x96xf64>, %c: memref<64x96xf64>) -> tensor<64x96xf32> {
  %r = linalg.matmul ins(%ta, %tb : tensor<64x256xf32>, tensor<256x96xf32>)
                     outs(%tc : tensor<64x96xf32>) -> tensor<64x96xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x96xf32>) outs(%y : memref<64x96xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x256xf64>, memref<256x96xf64>) outs(%c : memref<64x96xf64>) {
  ^bb0(%u: f64, %v: f64, %acc: f64):
    %p = arith.mulf %u, %v : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return %r : tensor<64x96xf32>
}
