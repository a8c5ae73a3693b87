// RUN: norm-opt %s -split-input-file -verify-diagnostics

// The verifier rules of `head_dim` on the matmul → norm ops (QK-norm).

func.func @head_dim_not_dividing_n(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'head_dim' 16 does not divide N = 24 (the output's last dimension)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) {head_dim = 16 : i64} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @head_dim_gamma_of_n(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %g: tensor<24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'weight' shape [24] must equal [head_dim] = [8]}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) weight(%g : tensor<24xf32>) outs(%i : tensor<4x24xf32>) {head_dim = 8 : i64} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @head_dim_beta_shape(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %g: tensor<8xf32>, %b: tensor<4xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'bias' shape [4] must equal [head_dim] = [8]}}
  %y = norm.matmul_layer_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) weight(%g : tensor<8xf32>) bias(%b : tensor<4xf32>) outs(%i : tensor<4x24xf32>) {head_dim = 8 : i64} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}

// -----

func.func @head_dim_dynamic_n(%a: tensor<4x16xf32>, %w: tensor<16x?xf32>, %i: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'head_dim' needs a static N (the output's last dimension)}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x?xf32>) outs(%i : tensor<4x?xf32>) {head_dim = 8 : i64} -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

func.func @head_dim_not_positive(%a: tensor<4x16xf32>, %w: tensor<16x24xf32>, %i: tensor<4x24xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{attribute 'head_dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %y = norm.matmul_rms_norm ins(%a : tensor<4x16xf32>) rhs(%w : tensor<16x24xf32>) outs(%i : tensor<4x24xf32>) {head_dim = 0 : i64} -> tensor<4x24xf32>
  return %y : tensor<4x24xf32>
}
