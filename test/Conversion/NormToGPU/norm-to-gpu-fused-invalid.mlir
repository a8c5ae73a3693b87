// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file -verify-diagnostics
// RUN: not norm-opt %s --convert-norm-to-gpu=chip=sm_75 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75

// Memref-form fused ops the GPU GEMM kernels cannot compute are errors at
// the op: nothing is left to compute something else.

// f64 has no GPU kernel (f32 runs on the FMA units, bf16/f16 on tensor
// cores).
func.func @f64_elements(%a: memref<16x64xf64>, %w: memref<64x32xf64>, %y: memref<16x32xf64>) {
  // expected-error @+1 {{'norm.matmul_layer_norm' op cannot be lowered to a GPU kernel: the fused GEMM kernels take bf16 or f16 (tensor cores) or f32 (FMA units), got f64}}
  norm.matmul_layer_norm ins(%a : memref<16x64xf64>) rhs(%w : memref<64x32xf64>)
    outs(%y : memref<16x32xf64>)
  return
}

// -----

// The kernels accumulate in f32; an f64 acc_type is not silently narrowed
// (with f32 elements neither).
func.func @f64_accumulation(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>) {
  // expected-error @+1 {{'norm.layer_norm_matmul' op cannot be lowered to a GPU kernel: the GPU GEMM kernels accumulate in f32, got acc_type f64}}
  norm.layer_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>) {acc_type = f64}
  return
}

// -----

// Every bad op is reported, not only the first.
func.func @two_errors(%x: memref<16x64xf64>, %w: memref<64x32xf64>, %c: memref<16x32xf64>,
                      %xh: memref<16x64xf16>, %wh: memref<64x32xf16>, %ch: memref<16x32xf16>) {
  // expected-error @+1 {{got f64}}
  norm.matmul_rms_norm ins(%x : memref<16x64xf64>) rhs(%w : memref<64x32xf64>)
    outs(%c : memref<16x32xf64>)
  // expected-error @+1 {{acc_type f64}}
  norm.rms_norm_matmul ins(%xh : memref<16x64xf16>) rhs(%wh : memref<64x32xf16>)
    outs(%ch : memref<16x32xf16>) {acc_type = f64}
  return
}

// -----

// sm_75 has no bf16 mma.sync m16n8k16 nor cp.async.
// SM75: norm-to-gpu-fused-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'norm.rms_norm_matmul' op cannot be lowered to a GPU kernel: the fused GEMM needs sm_80 or newer (mma.sync m16n8k16 with bf16/f16, ldmatrix, cp.async), the target is sm_75
func.func @bf16_ok_on_sm80(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>)
  return
}

// -----

// A residual on norm → matmul is lowered (the GEMM adds it to the A tiles),
// but it does not lift the element-type requirement.
func.func @residual_norm_matmul_f64(%x: memref<16x64xf64>, %r: memref<16x64xf64>, %w: memref<64x32xf64>, %c: memref<16x32xf64>, %s: memref<16x64xf64>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op cannot be lowered to a GPU kernel: the fused GEMM kernels take bf16 or f16 (tensor cores) or f32 (FMA units), got f64}}
  norm.rms_norm_matmul ins(%x : memref<16x64xf64>) residual(%r : memref<16x64xf64>)
    rhs(%w : memref<64x32xf64>) outs(%c : memref<16x32xf64>) sum_outs(%s : memref<16x64xf64>)
  return
}
