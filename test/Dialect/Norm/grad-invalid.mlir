// RUN: norm-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of norm.rms_norm_grad and norm.layer_norm_grad; one
// case per split.

func.func @grad_shape(%dy: tensor<4x9xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'grad' shape [4, 9] must equal the input shape [4, 8]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x9xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @grad_type(%dy: tensor<4x8xf16>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'grad' element type 'f16' does not match the input element type 'f32'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf16>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @sum_grad_shape(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %ds: tensor<4x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'sum_grad' shape [4, 4] must equal the input shape [4, 8]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) sum_grad(%ds : tensor<4x4xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @weight_shape(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %g: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'weight' shape [4] must equal the normalized dimensions of the input [8]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @weight_narrower(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %e: tensor<4x8xbf16>, %g: tensor<8xf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'weight' element type 'f16' does not match the input element type 'bf16' and is not a wider float type up to the accumulation type 'f32'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xbf16>) ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xf16>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

func.func @rstd_type(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %rs: tensor<4xf64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'rstd' element type 'f64' must be the accumulation type 'f32'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) rstd(%rs : tensor<4xf64>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @rstd_shape(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %rs: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'rstd' shape [8] must equal the non-normalized dimensions of the input [4]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) rstd(%rs : tensor<8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @no_result(%dy: memref<4x8xf32>, %x: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm_grad' op has no result: give at least one of 'outs', 'weight_grad_outs'}}
  norm.rms_norm_grad grad(%dy : memref<4x8xf32>) ins(%x : memref<4x8xf32>)
  return
}

// -----

func.func @ln_no_result(%dy: memref<4x8xf32>, %x: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.layer_norm_grad' op has no result: give at least one of 'outs', 'weight_grad_outs' or 'bias_grad_outs'}}
  norm.layer_norm_grad grad(%dy : memref<4x8xf32>) ins(%x : memref<4x8xf32>)
  return
}

// -----

func.func @outs_shape(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'outs' shape [8, 4] must equal the input shape [4, 8]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func @outs_narrower(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'outs' element type 'bf16' does not match the input element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

func.func @weight_grad_shape(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'weight_grad_outs' shape [4] must equal the normalized dimensions of the input [8]}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) weight_grad_outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @weight_grad_narrower_than_weight(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %g: tensor<8xf32>, %e: tensor<8xbf16>) -> tensor<8xbf16> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'weight_grad_outs' element type 'bf16' does not match the 'weight' element type 'f32' and is not a wider float type up to the accumulation type 'f32'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xbf16>) ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xf32>) weight_grad_outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  return %r : tensor<8xbf16>
}

// -----

func.func @bias_grad_type(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>, %e: tensor<8xbf16>) -> tensor<8xbf16> {
  // expected-error @+1 {{'norm.layer_norm_grad' op 'bias_grad_outs' element type 'bf16' does not match the input element type 'f16' and is not a wider float type up to the accumulation type 'f32'}}
  %r = norm.layer_norm_grad grad(%dy : tensor<4x8xf16>) ins(%x : tensor<4x8xf16>) bias_grad_outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  return %r : tensor<8xbf16>
}

// -----

func.func @ln_mean_without_rstd(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %m: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.layer_norm_grad' op 'mean' and 'rstd' must be given together (without them both are recomputed from the input)}}
  %r = norm.layer_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) mean(%m : tensor<4xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @axis_range(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'axis' = 2 is out of range for an input of rank 2 (expected -2 <= axis < 2)}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {axis = 2 : i64} -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @partial_range(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'partial' must be in (0, 1], got 1.500000e+00 : f32}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {partial = 1.5 : f32} -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @epsilon_negative(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'norm.layer_norm_grad' op 'epsilon' must be finite and >= 0, got -1.000000e+00 : f32}}
  %r = norm.layer_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {epsilon = -1.0 : f32} -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @acc_narrower(%dy: tensor<4x8xf64>, %x: tensor<4x8xf64>, %e: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error @+1 {{'norm.rms_norm_grad' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x8xf64>) ins(%x : tensor<4x8xf64>) outs(%e : tensor<4x8xf64>) {acc_type = f32} -> tensor<4x8xf64>
  return %r : tensor<4x8xf64>
}

// -----

func.func @empty_normalized(%dy: tensor<4x0xf32>, %x: tensor<4x0xf32>, %e: tensor<4x0xf32>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'norm.rms_norm_grad' op the normalized dimensions must not be empty (dimension 1 has size 0)}}
  %r = norm.rms_norm_grad grad(%dy : tensor<4x0xf32>) ins(%x : tensor<4x0xf32>) outs(%e : tensor<4x0xf32>) -> tensor<4x0xf32>
  return %r : tensor<4x0xf32>
}

// -----

func.func @mixed_kinds(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %e: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm_grad' op operands must be all tensors or all memrefs; operand #2 is 'memref<4x8xf32>'}}
  norm.rms_norm_grad grad(%dy : tensor<4x8xf32>) ins(%x : tensor<4x8xf32>) outs(%e : memref<4x8xf32>)
  return
}

// -----

// Generic IR whose required segment is empty is refused before any accessor reads it.
func.func @generic_missing_grad(%x: memref<4x8xf32>, %e: memref<4x8xf32>) {
  // expected-error @+1 {{'norm.rms_norm_grad' op required operand segment #0 must hold exactly one operand, got 0}}
  "norm.rms_norm_grad"(%x, %e) <{operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 1, 0>}> : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}
