// RUN: norm-opt %s --convert-norm-to-gpu=lower-matmuls -split-input-file -verify-diagnostics
// RUN: not norm-opt %s --convert-norm-to-gpu="lower-matmuls chip=sm_75" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not norm-opt %s --norm-lower-to-nvvm="lower-matmuls format=isa" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// With lower-matmuls, a memref-form named matmul the GPU GEMM cannot take is
// an error at the op: nothing later in the GPU pipeline lowers host linalg
// ops, which would otherwise fail there with a message about the matmul's
// body ("expected add/mul op in the body").
// PIPELINE: error: 'linalg.matmul' op cannot be lowered to the GPU GEMM (lower-matmuls): the GEMM takes identity-layout memrefs

// A bf16 C: linalg rounds every partial sum to bf16, which the
// f32-accumulating kernel would not reproduce.
func.func @bf16_accumulator(%a: memref<64x256xbf16>, %b: memref<256x96xbf16>, %c: memref<64x96xbf16>) {
  // expected-error @+1 {{'linalg.matmul' op cannot be lowered to the GPU GEMM (lower-matmuls): the GEMM takes identity-layout memrefs with A and W of one type (f32, bf16 or f16) and an f32 C}}
  linalg.matmul ins(%a, %b : memref<64x256xbf16>, memref<256x96xbf16>)
                outs(%c : memref<64x96xbf16>)
  return
}

// -----

func.func @mixed_inputs(%a: memref<64x256xbf16>, %b: memref<256x96xf16>, %c: memref<64x96xf32>) {
  // expected-error @+1 {{A and W of one type}}
  linalg.matmul ins(%a, %b : memref<64x256xbf16>, memref<256x96xf16>)
                outs(%c : memref<64x96xf32>)
  return
}

// -----

func.func @f64(%a: memref<64x256xf64>, %b: memref<256x96xf64>, %c: memref<64x96xf64>) {
  // expected-error @+1 {{A and W of one type (f32, bf16 or f16) and an f32 C}}
  linalg.matmul ins(%a, %b : memref<64x256xf64>, memref<256x96xf64>)
                outs(%c : memref<64x96xf64>)
  return
}

// -----

func.func @strided(%a: memref<64x256xf32, strided<[512, 1]>>, %b: memref<256x96xf32>, %c: memref<64x96xf32>) {
  // expected-error @+1 {{identity-layout memrefs}}
  linalg.matmul ins(%a, %b : memref<64x256xf32, strided<[512, 1]>>, memref<256x96xf32>)
                outs(%c : memref<64x96xf32>)
  return
}

// -----

func.func @transposed_a(%at: memref<256x64xf32>, %b: memref<256x96xf32>, %c: memref<64x96xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot be lowered to the GPU GEMM (lower-matmuls): A or C is not indexed (m, k) / (m, n)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
                ins(%at, %b : memref<256x64xf32>, memref<256x96xf32>)
                outs(%c : memref<64x96xf32>)
  return
}

// -----

// The CPU pipeline runs batch matmuls as one GEMM per batch; the GPU does
// not yet.
func.func @batch(%a: memref<4x64x256xbf16>, %b: memref<4x256x96xbf16>, %c: memref<4x64x96xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op cannot be lowered to the GPU GEMM (lower-matmuls): batch matmuls do not take the GPU GEMM yet}}
  linalg.batch_matmul ins(%a, %b : memref<4x64x256xbf16>, memref<4x256x96xbf16>)
                      outs(%c : memref<4x64x96xf32>)
  return
}

// -----

// A matmul the GEMM takes, on a chip without it.
// SM75: error: 'linalg.matmul' op cannot be lowered to the GPU GEMM (lower-matmuls): the GEMM kernels need sm_80 or newer, the target is sm_75
func.func @supported(%a: memref<64x256xbf16>, %b: memref<256x96xbf16>, %c: memref<64x96xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xbf16>, memref<256x96xbf16>)
                outs(%c : memref<64x96xf32>)
  return
}
