// RUN: norm-opt %s --norm-fuse-matmul="remarks=true" --split-input-file --verify-diagnostics | FileCheck %s

// An f32 × f32 matmul whose f32 product is rounded to a 16-bit type (bf16
// or f16) and then normalized at that type (docs/design.md, "Mixed element
// types in the fused ops"): the fused matmul → norm op has f32 A and W and a
// 16-bit output; S = A·W is computed in f32 and rounded once to the norm's
// type, the statistics are over the rounded S, Y is rounded to that type.
// The rounding (a linalg.generic or linalg.map of one arith.truncf, an
// arith.truncf on tensors) is taken into the op.

// The rounding as a linalg.generic (torch-mlir's and IREE's spelling of
// `.to(torch.bfloat16)`), then a bf16 RMSNorm with a bf16 γ.
// CHECK-LABEL: func.func @generic_rounding_rms
//  CHECK-SAME: (%[[A:.*]]: tensor<16x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[G:.*]]: tensor<32xbf16>)
//       CHECK: %[[E:.*]] = tensor.empty() : tensor<16x32xbf16>
//       CHECK: %[[Y:.*]] = norm.matmul_rms_norm ins(%[[A]] : tensor<16x64xf32>) rhs(%[[W]] : tensor<64x32xf32>) weight(%[[G]] : tensor<32xbf16>) outs(%[[E]] : tensor<16x32xbf16>) -> tensor<16x32xbf16>
//  CHECK-NEXT: return %[[Y]]
func.func @generic_rounding_rms(%a: tensor<16x64xf32>, %w: tensor<64x32xf32>, %g: tensor<32xbf16>) -> tensor<16x32xbf16> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %eb = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%eb : tensor<16x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<16x32xbf16>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<16x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e2 : tensor<16x32xbf16>) -> tensor<16x32xbf16>
  return %y : tensor<16x32xbf16>
}

// -----

// The rounding as an arith.truncf on tensors, W as N×K (PyTorch's Linear
// through the matmul's maps), then a bf16 LayerNorm with bf16 γ and β.
// CHECK-LABEL: func.func @truncf_rounding_layer_norm
//  CHECK-SAME: (%[[A:.*]]: tensor<?x64xf32>, %[[W:.*]]: tensor<48x64xf32>, %[[G:.*]]: tensor<48xbf16>, %[[B:.*]]: tensor<48xbf16>)
//       CHECK: %[[Y:.*]] = norm.matmul_layer_norm ins(%[[A]] : tensor<?x64xf32>) rhs(%[[W]] : tensor<48x64xf32>) weight(%[[G]] : tensor<48xbf16>) bias(%[[B]] : tensor<48xbf16>) outs(%{{.*}} : tensor<?x48xbf16>) {transpose_rhs} -> tensor<?x48xbf16>
//   CHECK-NOT: arith.truncf
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]
func.func @truncf_rounding_layer_norm(%a: tensor<?x64xf32>, %w: tensor<48x64xf32>, %g: tensor<48xbf16>, %b: tensor<48xbf16>) -> tensor<?x48xbf16> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%rows) : tensor<?x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<?x64xf32>, tensor<48x64xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  %t = arith.truncf %m : tensor<?x48xf32> to tensor<?x48xbf16>
  %e2 = tensor.empty(%rows) : tensor<?x48xbf16>
  // expected-remark @+1 {{norm.layer_norm fused with its producing matmul}}
  %y = norm.layer_norm ins(%t : tensor<?x48xbf16>) weight(%g : tensor<48xbf16>) bias(%b : tensor<48xbf16>) outs(%e2 : tensor<?x48xbf16>) -> tensor<?x48xbf16>
  return %y : tensor<?x48xbf16>
}

// -----

// The rounding as a linalg.map, to f16, then an f16 RMSNorm with an f32 γ
// and weight_offset 1 (γ wider than the norm's type, as on the 16-bit
// paths).
// CHECK-LABEL: func.func @map_rounding_f16
//       CHECK: norm.matmul_rms_norm ins(%{{.*}} : tensor<8x64xf32>) rhs(%{{.*}} : tensor<64x32xf32>) weight(%{{.*}} : tensor<32xf32>) outs(%{{.*}} : tensor<8x32xf16>) {weight_offset = 1.000000e+00 : f32} -> tensor<8x32xf16>
//   CHECK-NOT: linalg.
func.func @map_rounding_f16(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %g: tensor<32xf32>) -> tensor<8x32xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eh = tensor.empty() : tensor<8x32xf16>
  %t = linalg.map { arith.truncf } ins(%m : tensor<8x32xf32>) outs(%eh : tensor<8x32xf16>)
  %e2 = tensor.empty() : tensor<8x32xf16>
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%t : tensor<8x32xf16>) weight(%g : tensor<32xf32>) outs(%e2 : tensor<8x32xf16>) {weight_offset = 1.0 : f32} -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}

// -----

// The rounded product added to the bf16 residual stream (torch-mlir: the
// linear's output `.to(bf16)`, `+ residual`, RMSNorm), the sum returned:
// the fused op takes the residual and returns S, all bf16.
// CHECK-LABEL: func.func @rounded_product_residual
//  CHECK-SAME: (%[[A:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[H:.*]]: tensor<8x32xbf16>, %[[G:.*]]: tensor<32xbf16>)
//       CHECK: %[[Y:.*]]:2 = norm.matmul_rms_norm ins(%[[A]] : tensor<8x64xf32>) rhs(%[[W]] : tensor<64x32xf32>) residual(%[[H]] : tensor<8x32xbf16>) weight(%[[G]] : tensor<32xbf16>) outs(%{{.*}} : tensor<8x32xbf16>) sum_outs(%{{.*}} : tensor<8x32xbf16>) -> tensor<8x32xbf16>, tensor<8x32xbf16>
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]#0, %[[Y]]#1
func.func @rounded_product_residual(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %h: tensor<8x32xbf16>, %g: tensor<32xbf16>) -> (tensor<8x32xbf16>, tensor<8x32xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  %s = linalg.add ins(%t, %h : tensor<8x32xbf16>, tensor<8x32xbf16>) outs(%eb : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+2 {{norm.rms_norm took the add of its input as its residual}}
  // expected-remark @+1 {{norm.rms_norm fused with its producing matmul}}
  %y = norm.rms_norm ins(%s : tensor<8x32xbf16>) weight(%g : tensor<32xbf16>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y, %s : tensor<8x32xbf16>, tensor<8x32xbf16>
}

// -----

// Not fused: the rounded product is widened back to f32 for an f32 norm;
// the fused op rounds S once, to the type the norm reads.
// CHECK-LABEL: func.func @widened_after_rounding
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @widened_after_rounding(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = arith.truncf %m : tensor<8x32xf32> to tensor<8x32xbf16>
  %x = arith.extf %t : tensor<8x32xbf16> to tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  // expected-remark @+1 {{with a producer: the product is widened from bf16 to f32 (by 'arith.extf', view 2 of 2 after the matmul) after it was rounded to bf16: the fused op rounds the product once, to the type the norm reads, so it cannot round it to bf16 first}}
  %y = norm.rms_norm ins(%x : tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Not fused: f64 operands rounded to bf16; a narrower output is bf16 or
// f16 from f32 operands only.
// CHECK-LABEL: func.func @f64_operands_rounded
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @f64_operands_rounded(%a: tensor<8x64xf64>, %w: tensor<64x32xf64>) -> tensor<8x32xbf16> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x32xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<8x32xf64>) -> tensor<8x32xf64>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf64>, tensor<64x32xf64>) outs(%z : tensor<8x32xf64>) -> tensor<8x32xf64>
  %t = arith.truncf %m : tensor<8x32xf64> to tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+1 {{with a producer: the product is rounded to bf16 (by 'arith.truncf', view 1 of 1 after the matmul), narrower than its operands' type f64: the fused op's output is narrower than its operands only as bf16 or f16 from f32 operands}}
  %y = norm.rms_norm ins(%t : tensor<8x32xbf16>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}

// -----

// Not fused: f32 operands accumulated into f64, then rounded to bf16 (the
// fused op accumulates f32 operands in f32, which can round differently).
// CHECK-LABEL: func.func @f64_product_rounded
//       CHECK: linalg.matmul
//       CHECK: linalg.generic
//       CHECK: norm.layer_norm ins
func.func @f64_product_rounded(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xbf16> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x32xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<8x32xf64>) -> tensor<8x32xf64>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf64>) -> tensor<8x32xf64>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf64>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f64, %out: bf16):
    %v = arith.truncf %in : f64 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+1 {{with a producer: the product is accumulated in f64 before its rounding to bf16 (by 'linalg.generic', view 1 of 1 after the matmul): the fused op accumulates f32 operands in f32}}
  %y = norm.layer_norm ins(%t : tensor<8x32xbf16>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}

// -----

// Not fused: two roundings, the f64 product of f32 operands to f32, then
// to bf16; the fused op rounds once.
// CHECK-LABEL: func.func @rounded_twice
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @rounded_twice(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xbf16> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x32xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<8x32xf64>) -> tensor<8x32xf64>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf64>) -> tensor<8x32xf64>
  %t1 = arith.truncf %m : tensor<8x32xf64> to tensor<8x32xf32>
  %t2 = arith.truncf %t1 : tensor<8x32xf32> to tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+1 {{with a producer: the product is rounded a second time, to bf16 (by 'arith.truncf', view 2 of 2 after the matmul): the fused op rounds it once}}
  %y = norm.rms_norm ins(%t2 : tensor<8x32xbf16>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}

// -----

// Not fused: an f32 bias added to the f32 product before its rounding; the
// fused op would add it at bf16.
// CHECK-LABEL: func.func @bias_before_rounding
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @bias_before_rounding(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>, %mb: tensor<32xf32>) -> tensor<8x32xbf16> {
  %e = tensor.empty() : tensor<8x32xf32>
  %bb = linalg.broadcast ins(%mb : tensor<32xf32>) outs(%e : tensor<8x32xf32>) dimensions = [0]
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%bb : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%eb : tensor<8x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  // expected-remark @+1 {{with a producer: the matmul bias is added at f32 before the rounding to bf16 (the fused op adds it at its output type)}}
  %y = norm.rms_norm ins(%t : tensor<8x32xbf16>) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}

// -----

// Not fused: the norm's result is wider than the rounded product it reads.
// CHECK-LABEL: func.func @wider_norm_result
//       CHECK: linalg.matmul
//       CHECK: norm.rms_norm ins
func.func @wider_norm_result(%a: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = arith.truncf %m : tensor<8x32xf32> to tensor<8x32xbf16>
  %e2 = tensor.empty() : tensor<8x32xf32>
  // expected-remark @+1 {{with a producer: its result is wider than its input}}
  %y = norm.rms_norm ins(%t : tensor<8x32xbf16>) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}
