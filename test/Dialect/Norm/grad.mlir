// RUN: norm-opt %s --split-input-file | norm-opt --split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s --split-input-file --norm-decompose | FileCheck %s --check-prefix=DECOMP
// RUN: norm-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// norm.rms_norm_grad and norm.layer_norm_grad: the assembly round-trips
// with every optional operand; the decomposition (the reference semantics,
// DESIGN.md §9) is compensated row sums, one dx sweep rounded once and
// compensated column sums for dγ/dβ; bufferization makes the memref form.

// ROUNDTRIP-LABEL: func.func @rms_saved
//       ROUNDTRIP: norm.rms_norm_grad grad(%{{.*}} : tensor<4x8xbf16>) ins(%{{.*}} : tensor<4x8xbf16>) weight(%{{.*}} : tensor<8xf32>) rstd(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xbf16>) weight_grad_outs(%{{.*}} : tensor<8xf32>) -> tensor<4x8xbf16>, tensor<8xf32>

// Σ dŷ·x̂ per row (Kahan: two outputs), dŷ = dy·γ, x̂ = x·rstd.
// DECOMP-LABEL: func.func @rms_saved
//  DECOMP-SAME: (%[[DY:.*]]: tensor<4x8xbf16>, %[[X:.*]]: tensor<4x8xbf16>, %[[G:.*]]: tensor<8xf32>, %[[R:.*]]: tensor<4xf32>, %[[E0:.*]]: tensor<4x8xbf16>, %[[E1:.*]]: tensor<8xf32>)
//       DECOMP: %[[S:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[DY]], %[[G]], %[[X]], %[[R]] :
//       DECOMP:   arith.mulf
//       DECOMP:   linalg.yield %{{.*}}, %{{.*}} : f32, f32
// dx = rstd · (dŷ − x̂ · S / n), rounded to bf16 once.
//       DECOMP: %[[DX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[DY]], %[[G]], %[[X]], %[[R]], %[[S]]#0 : {{.*}}) outs(%[[E0]] : tensor<4x8xbf16>)
//       DECOMP:   arith.divf
//       DECOMP:   arith.subf
//       DECOMP:   %[[V:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
//  DECOMP-NEXT:   %[[T:.*]] = arith.truncf %[[V]] : f32 to bf16
//  DECOMP-NEXT:   linalg.yield %[[T]] : bf16
// dγ = Σ_rows dy · x̂: the rows are the reduction.
//       DECOMP: %[[C:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[DY]], %[[X]], %[[R]] :
//       DECOMP: %[[DG:.*]] = linalg.generic {{.*}} ins(%[[C]]#0 : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
//       DECOMP: return %[[DX]], %[[DG]]
//   DECOMP-NOT: norm.rms_norm_grad

// BUF-LABEL: func.func @rms_saved
//       BUF: norm.rms_norm_grad grad(%{{.*}} : memref<4x8xbf16, {{.*}}>) ins(%{{.*}} : memref<4x8xbf16, {{.*}}>) weight(%{{.*}} : memref<8xf32, {{.*}}>) rstd(%{{.*}} : memref<4xf32, {{.*}}>) outs(%{{.*}} : memref<4x8xbf16{{.*}}>) weight_grad_outs(%{{.*}} : memref<8xf32{{.*}}>)
//   BUF-NOT: -> tensor
func.func @rms_saved(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %g: tensor<8xf32>,
                     %r: tensor<4xf32>, %e0: tensor<4x8xbf16>, %e1: tensor<8xf32>)
    -> (tensor<4x8xbf16>, tensor<8xf32>) {
  %dx, %dg = norm.rms_norm_grad grad(%dy : tensor<4x8xbf16>) ins(%x : tensor<4x8xbf16>)
      weight(%g : tensor<8xf32>) rstd(%r : tensor<4xf32>)
      outs(%e0 : tensor<4x8xbf16>) weight_grad_outs(%e1 : tensor<8xf32>)
      -> tensor<4x8xbf16>, tensor<8xf32>
  return %dx, %dg : tensor<4x8xbf16>, tensor<8xf32>
}

// -----

// Recomputed statistics, pRMSNorm, outside-sqrt ε, the weight offset and
// the residual form's incoming gradient; dx only.
// ROUNDTRIP-LABEL: func.func @rms_recomputed
//       ROUNDTRIP: norm.rms_norm_grad grad(%{{.*}} : tensor<?x3x16xf32>) ins(%{{.*}} : tensor<?x3x16xf32>) sum_grad(%{{.*}} : tensor<?x3x16xf32>) outs(%{{.*}} : tensor<?x3x16xf32>) {axis = 1 : i64, eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 1.000000e-03 : f32, partial = 5.000000e-01 : f32, weight_offset = 1.000000e+00 : f32} -> tensor<?x3x16xf32>

// The forward's statistics (the squares masked past k = ⌈0.5 · 48⌉ by
// the linear index), then Σ dŷ·x̂ over all 48, then dx with the masked
// term, c = (1/r)/(1/r − ε) and ds added.
// DECOMP-LABEL: func.func @rms_recomputed
//       DECOMP: math.ceil
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
//       DECOMP:   arith.cmpi ult
//       DECOMP:   arith.select
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel"]}
//       DECOMP:   math.sqrt
//  DECOMP-NEXT:   arith.addf
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
//       DECOMP:   arith.cmpi ult
//       DECOMP:   arith.select
//       DECOMP:   arith.addf
//       DECOMP:   linalg.yield
//   DECOMP-NOT: linalg.generic
//   DECOMP-NOT: norm.rms_norm_grad
func.func @rms_recomputed(%dy: tensor<?x3x16xf32>, %x: tensor<?x3x16xf32>,
                          %ds: tensor<?x3x16xf32>, %e: tensor<?x3x16xf32>) -> tensor<?x3x16xf32> {
  %dx = norm.rms_norm_grad grad(%dy : tensor<?x3x16xf32>) ins(%x : tensor<?x3x16xf32>)
      sum_grad(%ds : tensor<?x3x16xf32>) outs(%e : tensor<?x3x16xf32>)
      {axis = 1 : i64, partial = 0.5 : f32, eps_mode = #norm.eps_mode<outside_sqrt>,
       epsilon = 1.0e-3 : f32, weight_offset = 1.0 : f32} -> tensor<?x3x16xf32>
  return %dx : tensor<?x3x16xf32>
}

// -----

// LayerNorm with its saved mean and rstd, all three results.
// ROUNDTRIP-LABEL: func.func @ln_saved
//       ROUNDTRIP: norm.layer_norm_grad grad(%{{.*}} : tensor<8x32xf16>) ins(%{{.*}} : tensor<8x32xf16>) weight(%{{.*}} : tensor<32xf16>) mean(%{{.*}} : tensor<8xf32>) rstd(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8x32xf16>) weight_grad_outs(%{{.*}} : tensor<32xf32>) bias_grad_outs(%{{.*}} : tensor<32xf16>) -> tensor<8x32xf16>, tensor<32xf32>, tensor<32xf16>

// Σ dŷ·x̂ and Σ dŷ per row, x̂ = (x − μ)·rstd; dx; then dγ (f32) and dβ
// (rounded to f16 once, from the f32 sum).
// DECOMP-LABEL: func.func @ln_saved
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
//       DECOMP: %[[DX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
//       DECOMP: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
//       DECOMP: %[[DG:.*]] = linalg.generic {{.*}} ins(%{{.*}}#0 : tensor<32xf32>) outs(%{{.*}} : tensor<32xf32>)
//       DECOMP: %[[B:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
//       DECOMP: %[[DB:.*]] = linalg.generic {{.*}} ins(%[[B]]#0 : tensor<32xf32>)
//       DECOMP:   arith.truncf %{{.*}} : f32 to f16
//       DECOMP: return %[[DX]], %[[DG]], %[[DB]]
func.func @ln_saved(%dy: tensor<8x32xf16>, %x: tensor<8x32xf16>, %g: tensor<32xf16>,
                    %m: tensor<8xf32>, %r: tensor<8xf32>, %e0: tensor<8x32xf16>,
                    %e1: tensor<32xf32>, %e2: tensor<32xf16>)
    -> (tensor<8x32xf16>, tensor<32xf32>, tensor<32xf16>) {
  %dx, %dg, %db = norm.layer_norm_grad grad(%dy : tensor<8x32xf16>) ins(%x : tensor<8x32xf16>)
      weight(%g : tensor<32xf16>) mean(%m : tensor<8xf32>) rstd(%r : tensor<8xf32>)
      outs(%e0 : tensor<8x32xf16>) weight_grad_outs(%e1 : tensor<32xf32>)
      bias_grad_outs(%e2 : tensor<32xf16>)
      -> tensor<8x32xf16>, tensor<32xf32>, tensor<32xf16>
  return %dx, %dg, %db : tensor<8x32xf16>, tensor<32xf32>, tensor<32xf16>
}

// -----

// Only the parameter gradients, on memrefs: the statistics are recomputed
// the forward's way (pivot-shifted two passes), the temporaries freed.
// ROUNDTRIP-LABEL: func.func @ln_param_grads_memref
//       ROUNDTRIP: norm.layer_norm_grad grad(%{{.*}} : memref<?x64xf32>) ins(%{{.*}} : memref<?x64xf32>) weight_grad_outs(%{{.*}} : memref<64xf32>) bias_grad_outs(%{{.*}} : memref<64xf32>){{$}}

// DECOMP-LABEL: func.func @ln_param_grads_memref
//       DECOMP: memref.alloc
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
//       DECOMP: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
//       DECOMP: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
//       DECOMP: linalg.generic {{.*}} outs(%{{.*}} : memref<64xf32>)
//       DECOMP: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
//       DECOMP: linalg.generic {{.*}} outs(%{{.*}} : memref<64xf32>)
//       DECOMP: memref.dealloc
//   DECOMP-NOT: norm.layer_norm_grad
func.func @ln_param_grads_memref(%dy: memref<?x64xf32>, %x: memref<?x64xf32>,
                                 %dg: memref<64xf32>, %db: memref<64xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x64xf32>) ins(%x : memref<?x64xf32>)
      weight_grad_outs(%dg : memref<64xf32>) bias_grad_outs(%db : memref<64xf32>)
  return
}
