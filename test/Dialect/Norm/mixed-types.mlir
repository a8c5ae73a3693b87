// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s

// Mixed element types (docs/design.md, "Mixed element types"): γ and β may
// be wider than x (f32 with f16/bf16) and the result may be wider than x.
// The decomposition is the reference semantics of the rounding points.

// Gemma: `norm(x.float()) * (1 + weight.float())`, then `.type_as(x)`:
// γ is used at f32, one rounding at the end, to x's type.
// ROUNDTRIP-LABEL: func.func @gemma
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<4x8xbf16>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK-LABEL: func.func @gemma
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<4xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK: ^bb0(%[[X:.*]]: bf16, %[[R:.*]]: f32, %[[G:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[XA:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[XA]], %[[R]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[F:.*]] = arith.addf %[[G]], %[[ONE]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[N]], %[[F]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[Y]] : bf16
func.func @gemma(%x: tensor<4x8xbf16>, %g: tensor<8xf32>, %e: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %y = norm.rms_norm ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xbf16>) {weight_offset = 1.0 : f32} -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// Hugging Face Llama with an f32 weight: `weight * hidden.to(input_dtype)`:
// the normalized value rounds to bf16, is widened, multiplied by the f32 γ
// in f32, and the result is f32 (PyTorch's type promotion).
// ROUNDTRIP-LABEL: func.func @llama
// ROUNDTRIP: norm.rms_norm ins(%{{.*}} : tensor<4x8xbf16>) weight(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {cast_mode = #norm.cast_mode<before_weight>}
// CHECK-LABEL: func.func @llama
// CHECK: ^bb0(%[[X:.*]]: bf16, %[[R:.*]]: f32, %[[G:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[XA:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[XA]], %[[R]] : f32
// CHECK-NEXT: %[[NR:.*]] = arith.truncf %[[N]] : f32 to bf16
// CHECK-NEXT: %[[NW:.*]] = arith.extf %[[NR]] : bf16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NW]], %[[G]] : f32
// CHECK-NEXT: linalg.yield %[[P]] : f32
func.func @llama(%x: tensor<4x8xbf16>, %g: tensor<8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {cast_mode = #norm.cast_mode<before_weight>} -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Llama with a bf16 weight and an f32 result: the weight step stays in bf16
// (γ's type), then widens to the result type.
// CHECK-LABEL: func.func @llama_bf16_weight_f32_result
// CHECK: ^bb0(%[[X:.*]]: bf16, %[[R:.*]]: f32, %[[G:.*]]: bf16, %{{.*}}: f32):
// CHECK: %[[NR:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[NR]], %[[G]] : bf16
// CHECK-NEXT: %[[Y:.*]] = arith.extf %[[P]] : bf16 to f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @llama_bf16_weight_f32_result(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x8xbf16>) weight(%g : tensor<8xbf16>) outs(%e : tensor<4x8xf32>) {cast_mode = #norm.cast_mode<before_weight>} -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Mixed-precision LayerNorm: f16 x, f32 γ and β, f32 result; the residual
// sum stays f16 (the residual stream has x's type).
// ROUNDTRIP-LABEL: func.func @layer_norm_f16
// ROUNDTRIP: norm.layer_norm ins(%{{.*}} : memref<?x64xf16>) residual(%{{.*}} : memref<?x64xf16>) weight(%{{.*}} : memref<64xf32>) bias(%{{.*}} : memref<64xf32>) outs(%{{.*}} : memref<?x64xf32>) sum_outs(%{{.*}} : memref<?x64xf16>)
// CHECK-LABEL: func.func @layer_norm_f16
// CHECK: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f32, %[[G:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[N:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[N]], %[[G]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[P]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @layer_norm_f16(%x: memref<?x64xf16>, %r: memref<?x64xf16>, %g: memref<64xf32>, %b: memref<64xf32>, %y: memref<?x64xf32>, %s: memref<?x64xf16>) {
  norm.layer_norm ins(%x : memref<?x64xf16>) residual(%r : memref<?x64xf16>) weight(%g : memref<64xf32>) bias(%b : memref<64xf32>) outs(%y : memref<?x64xf32>) sum_outs(%s : memref<?x64xf16>)
  return
}

// -----

// f32 x with f64 γ is allowed when acc_type is f64 (γ no wider than it).
// ROUNDTRIP-LABEL: func.func @f64_weight
// CHECK-LABEL: func.func @f64_weight
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @f64_weight(%x: tensor<2x8xf32>, %g: tensor<8xf64>, %e: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %y = norm.rms_norm ins(%x : tensor<2x8xf32>) weight(%g : tensor<8xf64>) outs(%e : tensor<2x8xf32>) {acc_type = f64} -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
