// RUN: norm-opt %s --norm-raise -split-input-file | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -split-input-file -verify-diagnostics -o /dev/null

// --norm-raise on norms whose γ/β (and result) are wider than x, as real
// models write them (docs/design.md, "Mixed element types"): the weight
// multiply that follows the cast is absorbed into the op, which takes the
// f32 γ as it is.

// Gemma as torch-mlir decomposes it, with an f32 weight and bf16
// activations: `norm(x.float()) * (1 + weight.float())`, `.type_as(x)`.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#col1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @gemma_f32_weight
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @gemma_f32_weight(%x: tensor<16x64xbf16>, %g: tensor<64xf32>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %ew = tensor.empty() : tensor<64xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xbf16>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %c = arith.extf %in : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %pow = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf : tensor<16x64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%pow : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<16x1xf32>
  %xn = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %rstd : tensor<16x64xf32>, tensor<16x1xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  %w1 = linalg.generic {indexing_maps = [#col1, #col1], iterator_types = ["parallel"]}
      ins(%g : tensor<64xf32>) outs(%ew : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %one : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %yw = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xn, %w1 : tensor<16x64xf32>, tensor<64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.mulf %in, %w : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%yw : tensor<16x64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// -----

// Hugging Face Llama with an f32 weight (mixed-precision training):
// `weight * hidden.to(input_dtype)` promotes to f32, so the normalized value
// rounds to bf16, is widened, multiplied by the f32 γ, and the result is f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @llama_f32_weight
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @llama_f32_weight(%x: tensor<16x64xbf16>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %xb = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x64xbf16>, tensor<16x1xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %s: f32, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %c, %r : f32
    %t = arith.truncf %xr : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  // expected-remark @+1 {{norm-raise: raised norm.rms_norm}}
  %y = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %xb : tensor<64xf32>, tensor<16x64xbf16>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%w: f32, %in: bf16, %out: f32):
    %c = arith.extf %in : bf16 to f32
    %m = arith.mulf %w, %c : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// Mixed-precision LayerNorm: f16 x, f32 γ and β, an f32 result.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @ln_f16_f32
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf16>) weight(%{{.*}} : tensor<64xf32>) bias(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @ln_f16_f32(%x: tensor<16x64xf16>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %c = arith.extf %in : f16 to f32
    %a = arith.addf %c, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %v = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %s : tensor<16x64xf16>, tensor<16x1xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f16, %ss: f32, %acc: f32):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %ss, %n : f32
    %d = arith.subf %c, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: raised norm.layer_norm}}
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %v, %g, %b : tensor<16x64xf16>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f16, %ss: f32, %vv: f32, %w: f32, %bb: f32, %out: f32):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %ss, %n : f32
    %d = arith.subf %c, %mu : f32
    %var = arith.divf %vv, %n : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %d, %r : f32
    %o = arith.mulf %xr, %w : f32
    %o2 = arith.addf %o, %bb : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// -----

// γ in f32 and β in f16: the op takes them in one type; not raised.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @ln_mixed_gamma_beta
//   CHECK-NOT: norm.layer_norm
func.func @ln_mixed_gamma_beta(%x: tensor<16x64xf16>, %g: tensor<64xf32>, %b: tensor<64xf16>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %c = arith.extf %in : f16 to f32
    %a = arith.addf %c, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %v = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %s : tensor<16x64xf16>, tensor<16x1xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f16, %ss: f32, %acc: f32):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %ss, %n : f32
    %d = arith.subf %c, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  // expected-remark @+1 {{norm-raise: not raised: γ and β have different element types}}
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %v, %g, %b : tensor<16x64xf16>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<64xf32>, tensor<64xf16>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: f16, %ss: f32, %vv: f32, %w: f32, %bb: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %ss, %n : f32
    %d = arith.subf %c, %mu : f32
    %var = arith.divf %vv, %n : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %d, %r : f32
    %o = arith.mulf %xr, %w : f32
    %bf = arith.extf %bb : f16 to f32
    %o2 = arith.addf %o, %bf : f32
    linalg.yield %o2 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}


