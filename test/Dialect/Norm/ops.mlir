// RUN: norm-opt %s | norm-opt | FileCheck %s
// RUN: norm-opt %s --mlir-print-op-generic | norm-opt | FileCheck %s

// Round-trip of every op and every optional clause, in the custom and the
// generic form, on tensors and memrefs, static and dynamic.

// CHECK-LABEL: func.func @rms_norm_minimal
// CHECK: norm.rms_norm ins(%{{.*}} : tensor<4x17xf32>) outs(%{{.*}} : tensor<4x17xf32>) -> tensor<4x17xf32>
func.func @rms_norm_minimal(%x: tensor<4x17xf32>, %e: tensor<4x17xf32>) -> tensor<4x17xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x17xf32>) outs(%e : tensor<4x17xf32>) -> tensor<4x17xf32>
  return %y : tensor<4x17xf32>
}

// CHECK-LABEL: func.func @rms_norm_everything
// CHECK: %{{.*}}:3 = norm.rms_norm ins(%{{.*}} : tensor<?x8x16xbf16>) residual(%{{.*}} : tensor<?x8x16xbf16>) weight(%{{.*}} : tensor<8x16xbf16>) outs(%{{.*}} : tensor<?x8x16xbf16>) sum_outs(%{{.*}} : tensor<?x8x16xbf16>) rstd_outs(%{{.*}} : tensor<?xf32>)
// CHECK-SAME: acc_type = f32
// CHECK-SAME: axis = 1 : i64
// CHECK-SAME: cast_mode = #norm.cast_mode<before_weight>
// CHECK-SAME: eps_mode = #norm.eps_mode<outside_sqrt>
// CHECK-SAME: epsilon = 9.99999997E-7 : f32
// CHECK-SAME: partial = 6.250000e-02 : f64
// CHECK-SAME: weight_offset = 1.000000e+00 : f32
// CHECK-SAME: -> tensor<?x8x16xbf16>, tensor<?x8x16xbf16>, tensor<?xf32>
func.func @rms_norm_everything(%x: tensor<?x8x16xbf16>, %r: tensor<?x8x16xbf16>, %g: tensor<8x16xbf16>,
    %e: tensor<?x8x16xbf16>, %s: tensor<?x8x16xbf16>, %rs: tensor<?xf32>)
    -> (tensor<?x8x16xbf16>, tensor<?x8x16xbf16>, tensor<?xf32>) {
  %y, %sum, %rstd = norm.rms_norm ins(%x : tensor<?x8x16xbf16>) residual(%r : tensor<?x8x16xbf16>)
      weight(%g : tensor<8x16xbf16>) outs(%e : tensor<?x8x16xbf16>) sum_outs(%s : tensor<?x8x16xbf16>)
      rstd_outs(%rs : tensor<?xf32>)
      {axis = 1 : i64, epsilon = 1.0e-6 : f32, weight_offset = 1.0 : f32, partial = 0.0625 : f64,
       acc_type = f32, cast_mode = #norm.cast_mode<before_weight>, eps_mode = #norm.eps_mode<outside_sqrt>}
      -> tensor<?x8x16xbf16>, tensor<?x8x16xbf16>, tensor<?xf32>
  return %y, %sum, %rstd : tensor<?x8x16xbf16>, tensor<?x8x16xbf16>, tensor<?xf32>
}

// Default-valued attributes are elided when printed.
// CHECK-LABEL: func.func @defaults_elided
// CHECK: norm.rms_norm
// CHECK-NOT: axis
// CHECK-NOT: cast_mode
// CHECK-SAME: -> tensor<2x3xf16>
func.func @defaults_elided(%x: tensor<2x3xf16>, %e: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %y = norm.rms_norm ins(%x : tensor<2x3xf16>) outs(%e : tensor<2x3xf16>)
      {axis = -1 : i64, cast_mode = #norm.cast_mode<after_weight>, eps_mode = #norm.eps_mode<inside_sqrt>} -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}

// CHECK-LABEL: func.func @rms_norm_memref
// CHECK: norm.rms_norm ins(%{{.*}} : memref<?x?xf64>) weight(%{{.*}} : memref<?xf64>) outs(%{{.*}} : memref<?x?xf64>) rstd_outs(%{{.*}} : memref<?xf64>)
// CHECK-NOT: ->
func.func @rms_norm_memref(%x: memref<?x?xf64>, %g: memref<?xf64>, %y: memref<?x?xf64>, %r: memref<?xf64>) {
  norm.rms_norm ins(%x : memref<?x?xf64>) weight(%g : memref<?xf64>) outs(%y : memref<?x?xf64>) rstd_outs(%r : memref<?xf64>)
  return
}

// CHECK-LABEL: func.func @layer_norm_everything
// CHECK: %{{.*}}:4 = norm.layer_norm ins(%{{.*}} : tensor<4x768xf16>) residual(%{{.*}} : tensor<4x768xf16>) weight(%{{.*}} : tensor<768xf16>) bias(%{{.*}} : tensor<768xf16>) outs(%{{.*}} : tensor<4x768xf16>) sum_outs(%{{.*}} : tensor<4x768xf16>) mean_outs(%{{.*}} : tensor<4xf32>) rstd_outs(%{{.*}} : tensor<4xf32>) {eps_mode = #norm.eps_mode<outside_sqrt>, epsilon = 1.000000e-05 : f64}
func.func @layer_norm_everything(%x: tensor<4x768xf16>, %r: tensor<4x768xf16>, %g: tensor<768xf16>, %b: tensor<768xf16>,
    %e: tensor<4x768xf16>, %s: tensor<4x768xf16>, %m: tensor<4xf32>, %rs: tensor<4xf32>)
    -> (tensor<4x768xf16>, tensor<4x768xf16>, tensor<4xf32>, tensor<4xf32>) {
  %y, %sum, %mean, %rstd = norm.layer_norm ins(%x : tensor<4x768xf16>) residual(%r : tensor<4x768xf16>)
      weight(%g : tensor<768xf16>) bias(%b : tensor<768xf16>) outs(%e : tensor<4x768xf16>)
      sum_outs(%s : tensor<4x768xf16>) mean_outs(%m : tensor<4xf32>) rstd_outs(%rs : tensor<4xf32>)
      {epsilon = 1.0e-5 : f64, eps_mode = #norm.eps_mode<outside_sqrt>}
      -> tensor<4x768xf16>, tensor<4x768xf16>, tensor<4xf32>, tensor<4xf32>
  return %y, %sum, %mean, %rstd : tensor<4x768xf16>, tensor<4x768xf16>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @layer_norm_whole_tensor
// CHECK: norm.layer_norm ins(%{{.*}} : tensor<3x5xf32>) outs(%{{.*}} : tensor<3x5xf32>) mean_outs(%{{.*}} : tensor<f32>) {axis = 0 : i64}
func.func @layer_norm_whole_tensor(%x: tensor<3x5xf32>, %e: tensor<3x5xf32>, %m: tensor<f32>) -> (tensor<3x5xf32>, tensor<f32>) {
  %y, %mean = norm.layer_norm ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) mean_outs(%m : tensor<f32>) {axis = 0 : i64}
      -> tensor<3x5xf32>, tensor<f32>
  return %y, %mean : tensor<3x5xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @rms_norm_matmul
// CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<16x4096xbf16>) weight(%{{.*}} : tensor<4096xbf16>) rhs(%{{.*}} : tensor<11008x4096xbf16>) outs(%{{.*}} : tensor<16x11008xbf16>) {transpose_rhs} -> tensor<16x11008xbf16>
func.func @rms_norm_matmul(%x: tensor<16x4096xbf16>, %g: tensor<4096xbf16>, %w: tensor<11008x4096xbf16>,
    %e: tensor<16x11008xbf16>) -> tensor<16x11008xbf16> {
  %c = norm.rms_norm_matmul ins(%x : tensor<16x4096xbf16>) weight(%g : tensor<4096xbf16>)
      rhs(%w : tensor<11008x4096xbf16>) outs(%e : tensor<16x11008xbf16>) {transpose_rhs} -> tensor<16x11008xbf16>
  return %c : tensor<16x11008xbf16>
}

// CHECK-LABEL: func.func @layer_norm_matmul
// CHECK: norm.layer_norm_matmul ins(%{{.*}} : tensor<?x?x768xf32>) weight(%{{.*}} : tensor<768xf32>) bias(%{{.*}} : tensor<768xf32>) rhs(%{{.*}} : tensor<768x3072xf32>) matmul_bias(%{{.*}} : tensor<3072xf32>) outs(%{{.*}} : tensor<?x?x3072xf32>) -> tensor<?x?x3072xf32>
func.func @layer_norm_matmul(%x: tensor<?x?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>,
    %w: tensor<768x3072xf32>, %mb: tensor<3072xf32>, %e: tensor<?x?x3072xf32>) -> tensor<?x?x3072xf32> {
  %c = norm.layer_norm_matmul ins(%x : tensor<?x?x768xf32>) weight(%g : tensor<768xf32>) bias(%b : tensor<768xf32>)
      rhs(%w : tensor<768x3072xf32>) matmul_bias(%mb : tensor<3072xf32>) outs(%e : tensor<?x?x3072xf32>) -> tensor<?x?x3072xf32>
  return %c : tensor<?x?x3072xf32>
}

// The residual-add → norm → matmul form: residual and sum_outs.
// CHECK-LABEL: func.func @residual_rms_norm_matmul
// CHECK: norm.rms_norm_matmul ins(%{{.*}} : tensor<?x64xbf16>) residual(%{{.*}} : tensor<?x64xbf16>) weight(%{{.*}} : tensor<64xbf16>) rhs(%{{.*}} : tensor<64x32xbf16>) outs(%{{.*}} : tensor<?x32xbf16>) sum_outs(%{{.*}} : tensor<?x64xbf16>) {weight_offset = 1.000000e+00 : f32} -> tensor<?x32xbf16>, tensor<?x64xbf16>
func.func @residual_rms_norm_matmul(%x: tensor<?x64xbf16>, %r: tensor<?x64xbf16>, %g: tensor<64xbf16>,
    %w: tensor<64x32xbf16>, %e: tensor<?x32xbf16>, %s: tensor<?x64xbf16>) -> (tensor<?x32xbf16>, tensor<?x64xbf16>) {
  %c, %sum = norm.rms_norm_matmul ins(%x : tensor<?x64xbf16>) residual(%r : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>)
      rhs(%w : tensor<64x32xbf16>) outs(%e : tensor<?x32xbf16>) sum_outs(%s : tensor<?x64xbf16>) {weight_offset = 1.0 : f32}
      -> tensor<?x32xbf16>, tensor<?x64xbf16>
  return %c, %sum : tensor<?x32xbf16>, tensor<?x64xbf16>
}

// CHECK-LABEL: func.func @residual_layer_norm_matmul_memref
// CHECK: norm.layer_norm_matmul ins(%{{.*}} : memref<8x64xf32>) residual(%{{.*}} : memref<8x64xf32>) bias(%{{.*}} : memref<64xf32>) rhs(%{{.*}} : memref<32x64xf32>) outs(%{{.*}} : memref<8x32xf32>) sum_outs(%{{.*}} : memref<8x64xf32>) {transpose_rhs}
func.func @residual_layer_norm_matmul_memref(%x: memref<8x64xf32>, %r: memref<8x64xf32>, %b: memref<64xf32>,
    %w: memref<32x64xf32>, %e: memref<8x32xf32>, %s: memref<8x64xf32>) {
  norm.layer_norm_matmul ins(%x : memref<8x64xf32>) residual(%r : memref<8x64xf32>) bias(%b : memref<64xf32>)
      rhs(%w : memref<32x64xf32>) outs(%e : memref<8x32xf32>) sum_outs(%s : memref<8x64xf32>) {transpose_rhs}
  return
}

// CHECK-LABEL: func.func @matmul_rms_norm
// CHECK: %{{.*}}:2 = norm.matmul_rms_norm ins(%{{.*}} : tensor<16x4096xf32>) rhs(%{{.*}} : tensor<4096x4096xf32>) matmul_bias(%{{.*}} : tensor<4096xf32>) residual(%{{.*}} : tensor<16x4096xf32>) weight(%{{.*}} : tensor<4096xf32>) outs(%{{.*}} : tensor<16x4096xf32>) sum_outs(%{{.*}} : tensor<16x4096xf32>) {epsilon = 9.99999974E-6 : f32, weight_offset = 1.000000e+00 : f32} -> tensor<16x4096xf32>, tensor<16x4096xf32>
func.func @matmul_rms_norm(%a: tensor<16x4096xf32>, %w: tensor<4096x4096xf32>, %mb: tensor<4096xf32>,
    %h: tensor<16x4096xf32>, %g: tensor<4096xf32>, %e: tensor<16x4096xf32>, %s: tensor<16x4096xf32>)
    -> (tensor<16x4096xf32>, tensor<16x4096xf32>) {
  %y, %sum = norm.matmul_rms_norm ins(%a : tensor<16x4096xf32>) rhs(%w : tensor<4096x4096xf32>)
      matmul_bias(%mb : tensor<4096xf32>) residual(%h : tensor<16x4096xf32>) weight(%g : tensor<4096xf32>)
      outs(%e : tensor<16x4096xf32>) sum_outs(%s : tensor<16x4096xf32>) {epsilon = 1.0e-5 : f32, weight_offset = 1.0 : f32}
      -> tensor<16x4096xf32>, tensor<16x4096xf32>
  return %y, %sum : tensor<16x4096xf32>, tensor<16x4096xf32>
}

// CHECK-LABEL: func.func @matmul_layer_norm_memref
// CHECK: norm.matmul_layer_norm ins(%{{.*}} : memref<?x3072xf32>) rhs(%{{.*}} : memref<768x3072xf32>) weight(%{{.*}} : memref<768xf32>) bias(%{{.*}} : memref<768xf32>) outs(%{{.*}} : memref<?x768xf32>) {transpose_rhs}
func.func @matmul_layer_norm_memref(%a: memref<?x3072xf32>, %w: memref<768x3072xf32>, %g: memref<768xf32>,
    %b: memref<768xf32>, %y: memref<?x768xf32>) {
  norm.matmul_layer_norm ins(%a : memref<?x3072xf32>) rhs(%w : memref<768x3072xf32>) weight(%g : memref<768xf32>)
      bias(%b : memref<768xf32>) outs(%y : memref<?x768xf32>) {transpose_rhs}
  return
}
