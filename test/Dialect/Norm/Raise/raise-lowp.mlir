// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --norm-raise on f16 / bf16 inputs with extf / truncf around the
// computation: the type the statistics are computed in becomes `acc_type`
// (written only when it is not the default), and where the result is rounded
// becomes `cast_mode`: one truncf at the end is `after_weight` (the
// default); a truncf of x·rstd before γ is applied in the element type is
// Hugging Face Llama's `before_weight`. test/Integration/CPU/raise-lowp.test
// runs each function before and after raising and compares.

// REMARK-COUNT-6: remark: norm-raise: raised norm.
// REMARK-NOT: remark

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// Llama (transformers' LlamaRMSNorm) as torch-mlir emits it:
//   h = x.to(f32); h = h * rsqrt(h.pow(2).mean(-1) + eps); w * h.to(bf16)
// CHECK-LABEL: func.func @llama_bf16
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xbf16>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xbf16>) outs(%{{.*}} : tensor<16x64xbf16>) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Y]]
func.func @llama_bf16(%x: tensor<16x64xbf16>, %g: tensor<64xbf16>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %two = arith.constant 2.0 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
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
  %xb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xn : tensor<16x64xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  %y = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g, %xb : tensor<64xbf16>, tensor<16x64xbf16>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%w: bf16, %in: bf16, %out: bf16):
    %m = arith.mulf %w, %in : bf16
    linalg.yield %m : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// Gemma: everything in f32, x · rstd · (1 + γ), one truncf at the end; the
// casts are inside the (fused) bodies.
// CHECK-LABEL: func.func @gemma_bf16
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xbf16>) weight(%{{.*}} : tensor<64xbf16>) outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32, weight_offset = 1.000000e+00 : f32}
//   CHECK-NOT: linalg.generic
func.func @gemma_bf16(%x: tensor<16x64xbf16>, %g: tensor<64xbf16>) -> tensor<16x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
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
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<16x64xbf16>, tensor<16x1xf32>, tensor<64xbf16>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: bf16, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %c, %r : f32
    %wf = arith.extf %w : bf16 to f32
    %w1 = arith.addf %wf, %one : f32
    %o = arith.mulf %xr, %w1 : f32
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  return %y : tensor<16x64xbf16>
}

// LayerNorm in f16 computed in f32 (PyTorch autocast): rounded once.
// CHECK-LABEL: func.func @ln_f16
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf16>) weight(%{{.*}} : tensor<64xf16>) bias(%{{.*}} : tensor<64xf16>) outs(%{{.*}} : tensor<16x64xf16>) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.generic
func.func @ln_f16(%x: tensor<16x64xf16>, %g: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<16x64xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %eh = tensor.empty() : tensor<16x64xf16>
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
  ^bb0(%in: f16, %sum: f32, %acc: f32):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %sum, %n : f32
    %d = arith.subf %c, %mu : f32
    %p = arith.mulf %d, %d : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %v, %g, %b : tensor<16x64xf16>, tensor<16x1xf32>, tensor<16x1xf32>, tensor<64xf16>, tensor<64xf16>) outs(%eh : tensor<16x64xf16>) {
  ^bb0(%in: f16, %sum: f32, %vs: f32, %w: f16, %bb: f16, %out: f16):
    %c = arith.extf %in : f16 to f32
    %mu = arith.divf %sum, %n : f32
    %var = arith.divf %vs, %n : f32
    %a = arith.addf %var, %eps : f32
    %r = math.rsqrt %a : f32
    %d = arith.subf %c, %mu : f32
    %m = arith.mulf %d, %r : f32
    %wf = arith.extf %w : f16 to f32
    %bf = arith.extf %bb : f16 to f32
    %m2 = arith.mulf %m, %wf : f32
    %o = arith.addf %m2, %bf : f32
    %t = arith.truncf %o : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}

// f32 data with f64 statistics: acc_type = f64.
// CHECK-LABEL: func.func @rms_f64_acc
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<16x64xf32>) {acc_type = f64, epsilon = 9.9999999999999995E-7 : f64}
func.func @rms_f64_acc(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 64.0 : f64
  %eps = arith.constant 1.0e-6 : f64
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x1xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e1 : tensor<16x1xf64>) -> tensor<16x1xf64>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%z : tensor<16x1xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %c = arith.extf %in : f32 to f64
    %p = arith.mulf %c, %c : f64
    %a = arith.addf %p, %acc : f64
    linalg.yield %a : f64
  } -> tensor<16x1xf64>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x64xf32>, tensor<16x1xf64>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %s: f64, %out: f32):
    %c = arith.extf %in : f32 to f64
    %m = arith.divf %s, %n : f64
    %a = arith.addf %m, %eps : f64
    %r = math.rsqrt %a : f64
    %o = arith.mulf %c, %r : f64
    %t = arith.truncf %o : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// Llama's post-attention norm in bf16: the residual add in bf16, its sum
// returned for the residual stream: residual form with sum_outs.
// CHECK-LABEL: func.func @llama_residual_bf16
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>, %[[R:.*]]: tensor<16x64xbf16>, %[[G:.*]]: tensor<64xbf16>
//       CHECK: %[[N:.*]]:2 = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) residual(%[[R]] : tensor<16x64xbf16>) weight(%[[G]] : tensor<64xbf16>) outs(%{{.*}}) sum_outs(%{{.*}}) {cast_mode = #norm.cast_mode<before_weight>, epsilon = 9.99999997E-7 : f32}
//       CHECK: return %[[N]]#0, %[[N]]#1
func.func @llama_residual_bf16(%x: tensor<16x64xbf16>, %res: tensor<16x64xbf16>, %g: tensor<64xbf16>) -> (tensor<16x64xbf16>, tensor<16x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %res : tensor<16x64xbf16>, tensor<16x64xbf16>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %s = arith.addf %a, %b : bf16
    linalg.yield %s : bf16
  } -> tensor<16x64xbf16>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<16x64xbf16>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %c = arith.extf %in : bf16 to f32
    %p = arith.mulf %c, %c : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %sum, %g : tensor<16x64xbf16>, tensor<16x1xf32>, tensor<64xbf16>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: bf16, %s: f32, %w: bf16, %out: bf16):
    %c = arith.extf %in : bf16 to f32
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %xr = arith.mulf %c, %r : f32
    %t = arith.truncf %xr : f32 to bf16
    %o = arith.mulf %t, %w : bf16
    linalg.yield %o : bf16
  } -> tensor<16x64xbf16>
  return %y, %h : tensor<16x64xbf16>, tensor<16x64xbf16>
}

// x.to(f32) is also returned: the conversion is no intermediate of the norm
// (nothing of the statistics), so it stays and the norm is raised.
// CHECK-LABEL: func.func @converted_input_used
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xbf16>
//       CHECK: %[[XF:.*]] = linalg.generic
//       CHECK: arith.extf
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xbf16>) outs(%{{.*}} : tensor<16x64xbf16>) {epsilon = 9.99999997E-7 : f32}
//       CHECK: return %[[Y]], %[[XF]]
func.func @converted_input_used(%x: tensor<16x64xbf16>) -> (tensor<16x64xbf16>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %ef = tensor.empty() : tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xbf16>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xbf16>) outs(%ef : tensor<16x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %c = arith.extf %in : bf16 to f32
    linalg.yield %c : f32
  } -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xf : tensor<16x64xf32>) outs(%z : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %a = arith.addf %p, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %sum : tensor<16x64xf32>, tensor<16x1xf32>) outs(%eb : tensor<16x64xbf16>) {
  ^bb0(%in: f32, %s: f32, %out: bf16):
    %m = arith.divf %s, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x64xbf16>
  return %y, %xf : tensor<16x64xbf16>, tensor<16x64xf32>
}
