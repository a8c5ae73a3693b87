// RUN: norm-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of norm.group_norm; one case per split.

func.func @gn_not_divisible(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op 'num_groups' = 4 must be >= 1 and divide the 6 channels}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) {num_groups = 4 : i64} -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}

// -----

func.func @gn_zero_groups(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op 'num_groups' = 0 must be >= 1 and divide the 6 channels}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) {num_groups = 0 : i64} -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}

// -----

func.func @gn_rank_1(%x: tensor<6xf32>, %e: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'norm.group_norm' op input must have rank >= 2 ([N, C, spatial...]), got rank 1}}
  %y = norm.group_norm ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {num_groups = 2 : i64} -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// -----

func.func @gn_dynamic_channels(%x: tensor<2x?x4xf32>, %e: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op the channel dimension (1) must be static and non-empty, got [2, ?, 4]}}
  %y = norm.group_norm ins(%x : tensor<2x?x4xf32>) outs(%e : tensor<2x?x4xf32>) {num_groups = 2 : i64} -> tensor<2x?x4xf32>
  return %y : tensor<2x?x4xf32>
}

// -----

func.func @gn_weight_shape(%x: tensor<2x6x4xf32>, %g: tensor<4xf32>, %e: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op 'weight' shape [4] must equal [C] (the channel dimension) = [6]}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) weight(%g : tensor<4xf32>) outs(%e : tensor<2x6x4xf32>) {num_groups = 2 : i64} -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}

// -----

func.func @gn_bias_type(%x: tensor<2x6x4xf16>, %b: tensor<6xf32>, %e: tensor<2x6x4xf16>) -> tensor<2x6x4xf16> {
  // expected-error @+1 {{'norm.group_norm' op 'bias' element type 'f32' does not match the input element type 'f16'}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf16>) bias(%b : tensor<6xf32>) outs(%e : tensor<2x6x4xf16>) {num_groups = 2 : i64} -> tensor<2x6x4xf16>
  return %y : tensor<2x6x4xf16>
}

// -----

func.func @gn_outs_shape(%x: tensor<2x6x4xf32>, %e: tensor<2x6x5xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{'norm.group_norm' op 'outs' shape [2, 6, 5] must equal the input shape [2, 6, 4]}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x5xf32>) {num_groups = 2 : i64} -> tensor<2x6x5xf32>
  return %y : tensor<2x6x5xf32>
}

// -----

func.func @gn_rstd_shape(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>, %r: tensor<2x6xf32>) -> (tensor<2x6x4xf32>, tensor<2x6xf32>) {
  // expected-error @+1 {{'norm.group_norm' op 'rstd_outs' shape [2, 6] must equal the non-normalized dimensions of the input [2, 3]}}
  %y, %rs = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) rstd_outs(%r : tensor<2x6xf32>) {num_groups = 3 : i64} -> tensor<2x6x4xf32>, tensor<2x6xf32>
  return %y, %rs : tensor<2x6x4xf32>, tensor<2x6xf32>
}

// -----

func.func @gn_mean_type(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>, %m: tensor<2x3xf64>) -> (tensor<2x6x4xf32>, tensor<2x3xf64>) {
  // expected-error @+1 {{'norm.group_norm' op 'mean_outs' element type 'f64' must be the accumulation type 'f32'}}
  %y, %mean = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) mean_outs(%m : tensor<2x3xf64>) {num_groups = 3 : i64} -> tensor<2x6x4xf32>, tensor<2x3xf64>
  return %y, %mean : tensor<2x6x4xf32>, tensor<2x3xf64>
}

// -----

func.func @gn_empty_spatial(%x: tensor<2x6x0xf32>, %e: tensor<2x6x0xf32>) -> tensor<2x6x0xf32> {
  // expected-error @+1 {{'norm.group_norm' op the normalized dimensions must not be empty (dimension 2 has size 0)}}
  %y = norm.group_norm ins(%x : tensor<2x6x0xf32>) outs(%e : tensor<2x6x0xf32>) {num_groups = 3 : i64} -> tensor<2x6x0xf32>
  return %y : tensor<2x6x0xf32>
}

// -----

func.func @gn_negative_epsilon(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op 'epsilon' must be finite and >= 0, got -1.000000e+00 : f32}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) {num_groups = 3 : i64, epsilon = -1.0 : f32} -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}

// -----

func.func @gn_acc_narrow(%x: tensor<2x6x4xf64>, %e: tensor<2x6x4xf64>) -> tensor<2x6x4xf64> {
  // expected-error @+1 {{'norm.group_norm' op 'acc_type' 'f32' is narrower than the element type 'f64'}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf64>) outs(%e : tensor<2x6x4xf64>) {num_groups = 3 : i64, acc_type = f32} -> tensor<2x6x4xf64>
  return %y : tensor<2x6x4xf64>
}

// -----

func.func @gn_mixed_kinds(%x: tensor<2x6x4xf32>, %e: memref<2x6x4xf32>) {
  // expected-error @+1 {{'norm.group_norm' op operands must be all tensors or all memrefs; operand #1 is 'memref<2x6x4xf32>'}}
  norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : memref<2x6x4xf32>) {num_groups = 3 : i64}
  return
}

// -----

func.func @gn_missing_groups(%x: tensor<2x6x4xf32>, %e: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'norm.group_norm' op requires attribute 'num_groups'}}
  %y = norm.group_norm ins(%x : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}
