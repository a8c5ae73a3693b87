// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: norm-opt %s --norm-raise=raise-layer-norm=false | FileCheck %s --check-prefix=NO-LN
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANT

// --norm-raise on the norms' backward (DESIGN.md §9), in torch-mlir's
// linalg spelling: one generic per torch op, keepdim reductions
// (`(d0, d1) -> (d0, 0)`), broadcasts by indexing maps, scalars captured
// from outside the bodies. Each function becomes one norm.*_grad op with
// the results the IR uses (dx, dγ, dβ), the saved statistics reshaped to
// the op's [B] or recomputed. test/Integration/CPU/raise-norm-grad.test
// runs every function before and after raising on random inputs.

// REMARK-COUNT-17: remark: norm-raise: raised norm.{{layer|rms}}_norm_grad
// REMARK-NOT: remark

// Without LayerNorm raising, the LayerNorm backwards stay.
// NO-LN-LABEL: func.func @ln_torch
// NO-LN-NOT: norm.
// NO-LN: return
// NO-LN-LABEL: func.func @rms_autograd
// NO-LN: norm.rms_norm_grad

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// aten.native_layer_norm_backward as torch/_decomp writes it, lowered
// by torch-mlir: saved mean/rstd kept as [B, 1], N·g − Σg − x̂·Σ(g·x̂), rstd/N
// as rstd·(1/N); dγ and dβ are column sums.
// CHECK-LABEL: func.func @ln_torch
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[MEAN:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) mean(%{{.*}} : tensor<4xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) bias_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
func.func @ln_torch(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 8.0 : f32
  %c2 = arith.constant 0.125 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // x_hat = (input - mean) * rstd
  %v1 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // grad_x_hat = grad_out * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // a = grad_x_hat * N
  %v3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // b = sum(grad_x_hat, -1, keepdim)
  %v4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v2 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c1 = grad_x_hat * x_hat
  %v5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // c2 = sum(c1, -1, keepdim)
  %v6 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v5 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c3 = x_hat * c2
  %v7 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %v6 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // inner = a - b - c3
  %v8 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v4 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v8, %v7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // rstd / N, as a multiply by 1/N
  %v10 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rstd : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // d_input
  %v11 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v10, %v9 : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // d_weight = sum(grad_out * x_hat, 0)
  %v12 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v13 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v12 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // d_bias = sum(grad_out, 0)
  %v14 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v11, %v13, %v14 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// The same on bf16 data: dy and x upcast to f32, dx rounded back once;
// dγ and dβ stay f32 (γ's type).
// CHECK-LABEL: func.func @ln_torch_bf16
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[MEAN:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xbf16>) ins(%[[X]] : tensor<4x8xbf16>) weight(%[[W]] : tensor<8xf32>) mean(%{{.*}} : tensor<4xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xbf16>) weight_grad_outs(%{{.*}} : tensor<8xf32>) bias_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xbf16>, tensor<8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
func.func @ln_torch_bf16(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xbf16>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 8.0 : f32
  %c2 = arith.constant 0.125 : f32
  %e_full_bf16 = tensor.empty() : tensor<4x8xbf16>
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // upcast
  %v1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy : tensor<4x8xbf16>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: bf16, %o: f32):
    %r = arith.extf %a0 : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xbf16>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: bf16, %o: f32):
    %r = arith.extf %a0 : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // x_hat = (input - mean) * rstd
  %v3 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %mean, %rstd : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // grad_x_hat = grad_out * weight
  %v4 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // a = grad_x_hat * N
  %v5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v4 : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // b = sum(grad_x_hat, -1, keepdim)
  %v6 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c1 = grad_x_hat * x_hat
  %v7 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v4, %v3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // c2 = sum(c1, -1, keepdim)
  %v8 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v7 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c3 = x_hat * c2
  %v9 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v8 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // inner = a - b - c3
  %v10 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v6 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v11 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v10, %v9 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // rstd / N, as a multiply by 1/N
  %v12 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rstd : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // d_input, rounded to the data type
  %v13 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v12, %v11 : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_bf16 : tensor<4x8xbf16>) {
  ^bb0(%a0: f32, %a1: f32, %o: bf16):
    %p = arith.mulf %a0, %a1 : f32
    %r = arith.truncf %p : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x8xbf16>
  // d_weight = sum(grad_out * x_hat, 0)
  %v14 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %v3 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v15 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v14 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // d_bias = sum(grad_out, 0)
  %v16 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v1 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v13, %v15, %v16 : tensor<4x8xbf16>, tensor<8xf32>, tensor<8xf32>
}

// Only dx is used (γ frozen): the op has the dx result only.
// CHECK-LABEL: func.func @ln_dx_only
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[MEAN:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) mean(%{{.*}} : tensor<4xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]
func.func @ln_dx_only(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 8.0 : f32
  %c2 = arith.constant 0.125 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // x_hat = (input - mean) * rstd
  %v1 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // grad_x_hat = grad_out * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // a = grad_x_hat * N
  %v3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // b = sum(grad_x_hat, -1, keepdim)
  %v4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v2 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c1 = grad_x_hat * x_hat
  %v5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // c2 = sum(c1, -1, keepdim)
  %v6 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v5 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c3 = x_hat * c2
  %v7 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %v6 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // inner = a - b - c3
  %v8 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v4 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v8, %v7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // rstd / N, as a multiply by 1/N
  %v10 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rstd : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // d_input
  %v11 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v10, %v9 : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %v11 : tensor<4x8xf32>
}

// Only dγ and dβ (the input needs no gradient).
// CHECK-LABEL: func.func @ln_dw_db
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[MEAN:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) mean(%{{.*}} : tensor<4xf32>) rstd(%{{.*}} : tensor<4xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) bias_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
func.func @ln_dw_db(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // x_hat = (input - mean) * rstd
  %v1 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // d_weight = sum(grad_out * x_hat, 0)
  %v2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v3 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v2 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // d_bias = sum(grad_out, 0)
  %v4 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v3, %v4 : tensor<8xf32>, tensor<8xf32>
}

// Mean and rstd recomputed from x in the backward (no saved statistics):
// the op recomputes them, with the ε under the root.
// CHECK-LABEL: func.func @ln_recomputed
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) bias_grad_outs(%{{.*}} : tensor<8xf32>) {epsilon = 9.99999974E-6 : f32} -> tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
func.func @ln_recomputed(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 8.0 : f32
  %c2 = arith.constant 9.99999974E-6 : f32
  %c3 = arith.constant 0.125 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // mean and rstd recomputed from x
  %v1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v2 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v3 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v4 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %v = arith.divf %a0, %c1 : f32
    %s = arith.addf %v, %c2 : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // x_hat = (input - mean) * rstd
  %v6 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v2, %v5 : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // grad_x_hat = grad_out * weight
  %v7 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // a = grad_x_hat * N
  %v8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7 : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // b = sum(grad_x_hat, -1, keepdim)
  %v9 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v7 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c1 = grad_x_hat * x_hat
  %v10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %v6 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // c2 = sum(c1, -1, keepdim)
  %v11 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v10 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c3 = x_hat * c2
  %v12 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v6, %v11 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // inner = a - b - c3
  %v13 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v8, %v9 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v14 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v13, %v12 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // rstd / N, as a multiply by 1/N
  %v15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c3 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // d_input
  %v16 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v15, %v14 : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // d_weight = sum(grad_out * x_hat, 0)
  %v17 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v6 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v18 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v17 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // d_bias = sum(grad_out, 0)
  %v19 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v16, %v18, %v19 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// LlamaRMSNorm's backward as AOTAutograd decomposes the eager module
// (saved rstd): the mul, rsqrt (−0.5·r³), mean (1/N) and pow (2·x) backwards.
// CHECK-LABEL: func.func @rms_autograd
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0
func.func @rms_autograd(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 3.0 : f32
  %c2 = arith.constant -0.5 : f32
  %c3 = arith.constant 8.0 : f32
  %c4 = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // hidden * rsqrt(variance + eps), recomputed
  %v1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: grad * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to hidden
  %v3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to rsqrt, summed over the broadcast dim
  %v4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward: grad * -0.5 * rstd^3
  %v6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = math.powf %a1, %c1 : f32
    %q = arith.mulf %p, %c2 : f32
    %r = arith.mulf %a0, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // mean backward: expand / N
  %v7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %a0, %c3 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward: grad * 2 * hidden
  %v8 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = arith.mulf %a1, %c4 : f32
    %r = arith.mulf %a0, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the two paths to hidden
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v8 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // weight grad: sum(grad * hidden_normed, rows)
  %v10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v11 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v10 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v9, %v11 : tensor<4x8xf32>, tensor<8xf32>
}

// Only dγ of the RMSNorm.
// CHECK-LABEL: func.func @rms_dw_only
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) rstd(%{{.*}} : tensor<4xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]
func.func @rms_dw_only(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // hidden * rsqrt(variance + eps), recomputed
  %v1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // weight grad: sum(grad * hidden_normed, rows)
  %v2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v3 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v2 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v3 : tensor<8xf32>
}

// The compact form dx = r·(dŷ − x̂·mean(dŷ·x̂)) with r recomputed from x.
// CHECK-LABEL: func.func @rms_compact
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {epsilon = 9.99999997E-7 : f32} -> tensor<4x8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]
func.func @rms_compact(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.250000e-01 : f32
  %c2 = arith.constant 9.99999997E-7 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // r = rsqrt(mean(x²) + ε), recomputed
  %v1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v1 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %m = arith.mulf %a0, %c1 : f32
    %s = arith.addf %m, %c2 : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // x̂ and dŷ
  %v4 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v3 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mean(dŷ·x̂)
  %v6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v4 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v7 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v6 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // dx = r·(dŷ − x̂·mean(dŷ·x̂))
  %v8 = linalg.generic {indexing_maps = [#id, #id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v4, %v7, %v3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %m = arith.mulf %a2, %c1 : f32
    %p = arith.mulf %a1, %m : f32
    %s = arith.subf %a0, %p : f32
    %r = arith.mulf %a3, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %v8 : tensor<4x8xf32>
}



// Gemma's RMSNorm backward (the weight applied as 1 + γ), as AOTAutograd
// decomposes it with the saved rstd: dŷ = dy·(1 + γ), dγ = Σ dy·x̂.
// CHECK-LABEL: func.func @rms_gemma_autograd
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {weight_offset = 1.000000e+00 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, weight offset 1, saved rstd)
func.func @rms_gemma_autograd(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 3.0 : f32
  %c2 = arith.constant -0.5 : f32
  %c3 = arith.constant 8.0 : f32
  %c4 = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  %v1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // 1 + weight
  %wp1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<8xf32>) outs(%ec : tensor<8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.addf %a0, %one : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // mul backward: grad * (1 + weight)
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %wp1 : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = math.powf %a1, %c1 : f32
    %q = arith.mulf %p, %c2 : f32
    %r = arith.mulf %a0, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %a0, %c3 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %v8 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = arith.mulf %a1, %c4 : f32
    %r = arith.mulf %a0, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v8 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // weight grad: sum(grad * hidden_normed, rows) (the 1 + γ is constant)
  %v10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v11 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v10 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %v9, %v11 : tensor<4x8xf32>, tensor<8xf32>
}

// ε outside the square root, r = 1/(√mean(x²) + ε) recomputed, as autograd
// chains the div, add, sqrt, mean and pow backwards:
// dx = r·dŷ − x·(r²/(2σ))·(2/N)·Σ dŷ·x.
// CHECK-LABEL: func.func @rms_eps_outside
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 9.99999974E-6 : f32} -> tensor<4x8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight, recomputed statistics, epsilon 1e-05 outside the square root)
func.func @rms_eps_outside(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.250000e-01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  // σ = √mean(x²), d = σ + ε, r = 1/d
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %sigma = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %m = arith.mulf %a0, %inv_n : f32
    %r = math.sqrt %m : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sigma : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.addf %a0, %eps : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %one, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward to r: Σ dŷ·x
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // div backward (−g/d²), add backward, sqrt backward (g·0.5/σ), mean
  // backward (/N)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %d, %sigma : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %dd = arith.mulf %a1, %a1 : f32
    %q = arith.divf %a0, %dd : f32
    %gd = arith.negf %q : f32
    %h = arith.divf %half, %a2 : f32
    %gs = arith.mulf %gd, %h : f32
    %r = arith.mulf %gs, %inv_n : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward (2x) plus the direct path dŷ·r
  %dx = linalg.generic {indexing_maps = [#id, #row, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %gm, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %direct = arith.mulf %a0, %a1 : f32
    %x2 = arith.mulf %a3, %two : f32
    %viaStat = arith.mulf %a2, %x2 : f32
    %r = arith.addf %direct, %viaStat : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// A weight offset other than 1 (γ stored as γ − 2): dŷ spelled out as
// dy·γ + 2·dy, the row sum a linalg.reduce, saved rstd; the offset is
// solved from dx, dγ = Σ dy·x̂ does not read it.
// CHECK-LABEL: func.func @rms_offset_two
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {weight_offset = 2.000000e+00 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, weight offset 2, saved rstd)
func.func @rms_offset_two(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %inv_n = arith.constant 1.250000e-01 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row = tensor.empty() : tensor<4xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%e_row : tensor<4xf32>) -> tensor<4xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  %r2 = tensor.collapse_shape %rstd [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  // x̂ = x·r and dŷ = dy·γ + 2·dy
  %xh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %g = arith.mulf %a0, %a1 : f32
    %o2 = arith.mulf %a0, %two : f32
    %r = arith.addf %g, %o2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %xh : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.reduce ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  // dx = r·(dŷ − x̂·Σ(dŷ·x̂)/N)
  %dx = linalg.generic {indexing_maps = [#id, #id, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %xh, %s, %r2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %m = arith.mulf %a2, %inv_n : f32
    %q = arith.mulf %a1, %m : f32
    %d = arith.subf %a0, %q : f32
    %r = arith.mulf %a3, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // dγ = Σ_rows dy·x̂
  %pw = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %xh : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dw = linalg.reduce ins(%pw : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %dx, %dw : tensor<4x8xf32>, tensor<8xf32>
}

// ε outside the square root with the forward's σ = √mean(x²) saved and
// d = σ + ε recomputed in the backward (AOTAutograd's min-cut partition
// keeps the one row tensor): the op takes rstd = 1/(σ + ε), computed
// before it from the saved σ.
// CHECK-LABEL: func.func @rms_eps_outside_saved_sigma
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[S:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[SC:.*]] = tensor.collapse_shape %[[S]]
//       CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SC]] : tensor<4xf32>)
//       CHECK: arith.addf %{{.*}}, %{{.*}} : f32
//       CHECK: arith.divf %{{.*}}, %{{.*}} : f32
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%[[R]] : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 9.99999974E-6 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, saved sigma, epsilon 1e-05 outside the square root)
func.func @rms_eps_outside_saved_sigma(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %sigma: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.250000e-01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>

  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // div backward to d: −Σ(dŷ·x)/d²
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // add backward (identity), sqrt backward (g·0.5/σ), mean backward (/N)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %sigma : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s = arith.addf %a1, %c0 : f32
    %d = arith.addf %a1, %eps : f32
    %dd = arith.mulf %d, %d : f32
    %q = arith.divf %a0, %dd : f32
    %gd = arith.negf %q : f32
    %h = arith.divf %half, %s : f32
    %gs = arith.mulf %gd, %h : f32
    %r = arith.mulf %gs, %inv_n : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward (2x) plus the direct path dŷ/d
  %dx = linalg.generic {indexing_maps = [#id, #row, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %sigma, %gm, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %d = arith.addf %a1, %eps : f32
    %direct = arith.divf %a0, %d : f32
    %x2 = arith.mulf %a3, %two : f32
    %viaStat = arith.mulf %a2, %x2 : f32
    %r = arith.addf %direct, %viaStat : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // dγ = Σ_rows dy·x/d
  %pw = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %sigma, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a3: f32, %o: f32):
    %d = arith.addf %a1, %eps : f32
    %direct = arith.divf %a0, %d : f32
    %r = arith.mulf %direct, %a3 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dw = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%pw : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dw : tensor<4x8xf32>, tensor<8xf32>
}

// The same with the forward's r = 1/(σ + ε) saved: the backward finds
// σ + ε as 1/r and σ as 1/r − ε; the op takes r as it is.
// CHECK-LABEL: func.func @rms_eps_outside_saved_rstd
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 9.99999974E-6 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, saved rstd, epsilon 1e-05 outside the square root)
func.func @rms_eps_outside_saved_rstd(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.250000e-01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>

  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // div backward to d: −Σ(dŷ·x)/d²
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // add backward (identity), sqrt backward (g·0.5/σ), mean backward (/N)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %d = arith.divf %one, %a1 : f32
    %s = arith.subf %d, %eps : f32
    %dd = arith.mulf %d, %d : f32
    %q = arith.divf %a0, %dd : f32
    %gd = arith.negf %q : f32
    %h = arith.divf %half, %s : f32
    %gs = arith.mulf %gd, %h : f32
    %r = arith.mulf %gs, %inv_n : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward (2x) plus the direct path dŷ/d
  %dx = linalg.generic {indexing_maps = [#id, #row, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %rstd, %gm, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %direct = arith.mulf %a0, %a1 : f32
    %x2 = arith.mulf %a3, %two : f32
    %viaStat = arith.mulf %a2, %x2 : f32
    %r = arith.addf %direct, %viaStat : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // dγ = Σ_rows dy·x/d
  %pw = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %rstd, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a3: f32, %o: f32):
    %direct = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %direct, %a3 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dw = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%pw : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dw : tensor<4x8xf32>, tensor<8xf32>
}

// The same with σ + ε saved: σ = (σ + ε) − ε in the backward.
// CHECK-LABEL: func.func @rms_eps_outside_saved_denominator
//       CHECK: linalg.generic
//       CHECK: norm.rms_norm_grad {{.*}} {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 9.99999974E-6 : f32} -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, saved sigma + epsilon, epsilon 1e-05 outside the square root)
func.func @rms_eps_outside_saved_denominator(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %d_saved: tensor<4x1xf32>, %w: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.250000e-01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>

  // dŷ = dy·γ
  %dyh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // div backward to d: −Σ(dŷ·x)/d²
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %gr = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // add backward (identity), sqrt backward (g·0.5/σ), mean backward (/N)
  %gm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gr, %d_saved : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %d = arith.addf %a1, %c0 : f32
    %s = arith.subf %a1, %eps : f32
    %dd = arith.mulf %d, %d : f32
    %q = arith.divf %a0, %dd : f32
    %gd = arith.negf %q : f32
    %h = arith.divf %half, %s : f32
    %gs = arith.mulf %gd, %h : f32
    %r = arith.mulf %gs, %inv_n : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward (2x) plus the direct path dŷ/d
  %dx = linalg.generic {indexing_maps = [#id, #row, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dyh, %d_saved, %gm, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o: f32):
    %direct = arith.divf %a0, %a1 : f32
    %x2 = arith.mulf %a3, %two : f32
    %viaStat = arith.mulf %a2, %x2 : f32
    %r = arith.addf %direct, %viaStat : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // dγ = Σ_rows dy·x/d
  %pw = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %d_saved, %x : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a3: f32, %o: f32):
    %direct = arith.divf %a0, %a1 : f32
    %r = arith.mulf %direct, %a3 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %dw = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%pw : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dw : tensor<4x8xf32>, tensor<8xf32>
}

// The residual form: the forward normalized h = x + res (%x here is the
// saved h); autograd adds the incoming gradient of h from the residual
// stream (%ds) to the norm's: dh = dx + ds, which is the op's sum_grad.
// CHECK-LABEL: func.func @rms_residual_autograd
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]: {{[^,]+}}, %[[DS:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) sum_grad(%[[DS]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, sum grad, saved rstd)
func.func @rms_residual_autograd(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>, %ds: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 3.0 : f32
  %c2 = arith.constant -0.5 : f32
  %c3 = arith.constant 8.0 : f32
  %c4 = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // hidden * rsqrt(variance + eps), recomputed
  %v1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: grad * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to hidden
  %v3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to rsqrt, summed over the broadcast dim
  %v4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward: grad * -0.5 * rstd^3
  %v6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = math.powf %a1, %c1 : f32
    %q = arith.mulf %p, %c2 : f32
    %r = arith.mulf %a0, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // mean backward: expand / N
  %v7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %a0, %c3 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward: grad * 2 * hidden
  %v8 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %x : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = arith.mulf %a1, %c4 : f32
    %r = arith.mulf %a0, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the two paths to hidden
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v8 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // weight grad: sum(grad * hidden_normed, rows)
  %v10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v11 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v10 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // the residual stream's gradient of h = x + res joins the norm's
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v9, %ds : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %dh, %v11 : tensor<4x8xf32>, tensor<8xf32>
}

// The residual form of aten.native_layer_norm_backward (a pre-norm block's
// h = x + attn, %x the saved h): ds + dx, the sum first.
// CHECK-LABEL: func.func @ln_residual_torch
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[MEAN:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]: {{[^,]+}}, %[[DS:[a-z0-9]+]]:
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.layer_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[X]] : tensor<4x8xf32>) sum_grad(%[[DS]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) mean(%{{.*}} : tensor<4xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) bias_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#1, %[[G]]#2
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.layer_norm_grad (axis 1, dx, weight grad, bias grad, weight, sum grad, saved mean and rstd)
func.func @ln_residual_torch(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>, %ds: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 8.0 : f32
  %c2 = arith.constant 0.125 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // x_hat = (input - mean) * rstd
  %v1 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // grad_x_hat = grad_out * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // a = grad_x_hat * N
  %v3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // b = sum(grad_x_hat, -1, keepdim)
  %v4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v2 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c1 = grad_x_hat * x_hat
  %v5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // c2 = sum(c1, -1, keepdim)
  %v6 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v5 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // c3 = x_hat * c2
  %v7 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %v6 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // inner = a - b - c3
  %v8 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v4 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v8, %v7 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // rstd / N, as a multiply by 1/N
  %v10 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rstd : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // d_input
  %v11 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v10, %v9 : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // d_weight = sum(grad_out * x_hat, 0)
  %v12 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v13 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v12 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // d_bias = sum(grad_out, 0)
  %v14 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // GPT-2's h = x + attn: the residual stream's gradient joins
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ds, %v11 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %dh, %v13, %v14 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// The residual form with the sum recomputed in the backward: the forward
// normalized h = x + res and saved x and res (AOTAutograd recomputes the
// cheap add rather than saving h); the gradient of h flows to both inputs
// of the add. The op takes h from an add emitted before it.
// CHECK-LABEL: func.func @rms_residual_recomputed
//  CHECK-SAME: (%[[DY:[a-z0-9]+]]: {{[^,]+}}, %[[X:[a-z0-9]+]]: {{[^,]+}}, %[[RES:[a-z0-9]+]]: {{[^,]+}}, %[[RSTD:[a-z0-9]+]]: {{[^,]+}}, %[[W:[a-z0-9]+]]: {{[^,]+}}, %[[DS:[a-z0-9]+]]:
//       CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[RES]] : tensor<4x8xf32>, tensor<4x8xf32>)
//       CHECK: arith.addf
//       CHECK: %[[G:[0-9]+]]{{(:[0-9])?}} = norm.rms_norm_grad grad(%[[DY]] : tensor<4x8xf32>) ins(%[[H]] : tensor<4x8xf32>) sum_grad(%[[DS]] : tensor<4x8xf32>) weight(%[[W]] : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) weight_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xf32>
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[G]]#0, %[[G]]#0, %[[G]]#1
// VARIANT-DAG: raise-norm-grad.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: norm-raise: raised norm.rms_norm_grad (axis 1, dx, weight grad, weight, recomputed residual sum, sum grad, saved rstd)
func.func @rms_residual_recomputed(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %res: tensor<4x8xf32>, %rstd: tensor<4x1xf32>, %w: tensor<8xf32>, %ds: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 3.0 : f32
  %c2 = arith.constant -0.5 : f32
  %c3 = arith.constant 8.0 : f32
  %c4 = arith.constant 2.0 : f32
  %e_full_f32 = tensor.empty() : tensor<4x8xf32>
  %e_row_f32 = tensor.empty() : tensor<4x1xf32>
  %er = tensor.empty() : tensor<4x1xf32>
  %ec = tensor.empty() : tensor<8xf32>
  %z_row = linalg.fill ins(%c0 : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z_col = linalg.fill ins(%c0 : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
  // h = x + res, recomputed (the forward did not save it)
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %res : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // hidden * rsqrt(variance + eps), recomputed
  %v1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: grad * weight
  %v2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to hidden
  %v3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %rstd : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // mul backward: to rsqrt, summed over the broadcast dim
  %v4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %h : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v5 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<4x8xf32>) outs(%z_row : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // rsqrt backward: grad * -0.5 * rstd^3
  %v6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %rstd : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = math.powf %a1, %c1 : f32
    %q = arith.mulf %p, %c2 : f32
    %r = arith.mulf %a0, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // mean backward: expand / N
  %v7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<4x1xf32>) outs(%e_row_f32 : tensor<4x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.divf %a0, %c3 : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  // pow backward: grad * 2 * hidden
  %v8 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %h : tensor<4x1xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %p = arith.mulf %a1, %c4 : f32
    %r = arith.mulf %a0, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the two paths to hidden
  %v9 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v8 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // weight grad: sum(grad * hidden_normed, rows)
  %v10 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %v1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v11 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%v10 : tensor<4x8xf32>) outs(%z_col : tensor<8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  // the residual stream's gradient of h = x + res joins the norm's
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v9, %ds : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e_full_f32 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  // the add backward: dh to both x and res
  return %dh, %dh, %v11 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>
}
