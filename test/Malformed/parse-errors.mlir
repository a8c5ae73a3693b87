// RUN: not norm-opt %s -split-input-file 2>&1 | FileCheck %s

// Syntax errors in the custom form of the norm ops: each gets a located
// error and a non-zero exit. `not` (not `not --crash`) makes a crash (a
// signal) fail the test, and lit's pipefail propagates it through the pipe.

func.func @truncated(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected non-function type
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e :

// -----

func.func @missing_outs(%x: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.rms_norm' expected 'outs'
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @missing_ins(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.layer_norm' expected 'ins'
  %y = norm.layer_norm outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @missing_rhs(%x: tensor<8x24xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.matmul_rms_norm' expected 'rhs'
  %y = norm.matmul_rms_norm ins(%x : tensor<8x24xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}

// -----

func.func @clause_order(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.layer_norm' expected 'outs'
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) bias(%g : tensor<17xf32>) weight(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @outs_before_ins(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.rms_norm' expected 'ins'
  %y = norm.rms_norm outs(%e : tensor<4x17xf32>) ins(%x : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @duplicate_clause(%x: tensor<4x17xf32>, %g: tensor<17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.rms_norm' expected 'outs'
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) weight(%g : tensor<17xf32>) weight(%g : tensor<17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @type_mismatch(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: use of value '%x' expects different type than prior uses: 'tensor<4x16xf32>' vs 'tensor<4x17xf32>'
  %y = norm.rms_norm ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @result_type_mismatch(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x16xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: use of value '%y' expects different type than prior uses: 'tensor<4x16xf32>' vs 'tensor<4x17xf32>'
  return %y : tensor<4x16xf32>
}

// -----

func.func @undefined_value(%x: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: use of undeclared SSA value name
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%nope : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @self_use(%e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: operand #0 does not dominate this use
  %y = norm.rms_norm ins(%y : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @redefinition(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: redefinition of SSA value '%x'
  %x = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %x : tensor<4x17xf32>
}

// -----

func.func @missing_colon(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %y = norm.rms_norm ins(%x tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @unbalanced_paren(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ')'
  %y = norm.rms_norm ins(%x : tensor<4x17xf32> outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @two_inputs(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %y = norm.rms_norm ins(%x, %x : tensor<4x17xf32>, tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @empty_ins(%e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected SSA operand
  %y = norm.rms_norm ins() outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @missing_result_types(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected non-function type
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) ->
  return %y : tensor<4x17xf32>
}

// -----

func.func @unterminated_attr_dict(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected '}' in attribute dictionary
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {axis = 1 : i64 -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @unknown_op(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'norm.rmsnorm' is unknown
  %y = norm.rmsnorm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @unknown_clause(%x: memref<4x17xf32>, %e: memref<4x17xf32>, %m: memref<4xf32>) {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'mean_outs' is unknown
  norm.rms_norm ins(%x : memref<4x17xf32>) outs(%e : memref<4x17xf32>) mean_outs(%m : memref<4xf32>)
  return
}

// -----

func.func @bad_enum(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ::mlir::norm::CastMode to be one of: after_weight, before_weight
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {cast_mode = #norm.cast_mode<llama>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @bad_enum_syntax(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected '<'
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {eps_mode = #norm.eps_mode} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @unknown_attr_mnemonic(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}nosuch
  %y = norm.layer_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) {eps_mode = #norm.nosuch<x>} -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @unknown_element_type(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %y = norm.rms_norm ins(%x : tensor<4x17xfoo>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// -----

func.func @scalar_operands(%x: f32, %e: f32) -> f32 {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'f32'
  %y = norm.rms_norm ins(%x : f32) outs(%e : f32) -> f32
  return %y : f32
}

// -----

func.func @vector_operands(%x: vector<4x17xf32>, %e: vector<4x17xf32>) -> vector<4x17xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.layer_norm' op operand #0 must be ranked tensor or memref of f16, bf16, f32 or f64 values, but got 'vector<4x17xf32>'
  %y = norm.layer_norm ins(%x : vector<4x17xf32>) outs(%e : vector<4x17xf32>) -> vector<4x17xf32>
  return %y : vector<4x17xf32>
}

// -----

func.func @rhs_rank1_fused(%x: tensor<8x33xf32>, %w: tensor<33xf32>, %e: tensor<8x20xf32>) -> tensor<8x20xf32> {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'norm.rms_norm_matmul' op 'rhs' must be a 2-D matrix, got rank 1
  %c = norm.rms_norm_matmul ins(%x : tensor<8x33xf32>) rhs(%w : tensor<33xf32>) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %c : tensor<8x20xf32>
}
