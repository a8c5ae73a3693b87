// RUN: norm-opt %s -split-input-file | norm-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: norm-opt %s --norm-decompose -split-input-file | FileCheck %s --check-prefix=DECOMP
// RUN: norm-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file | FileCheck %s --check-prefix=BUF

// The fused ops' saved statistics: the assembly round-trips, the
// decomposition's norm op writes them, bufferization keeps them.

// ROUNDTRIP-LABEL: func.func @ln_mm
//       ROUNDTRIP: norm.layer_norm_matmul ins(%{{.*}} : tensor<4x8xbf16>) residual(%{{.*}} : tensor<4x8xbf16>) rhs(%{{.*}} : tensor<8x2xbf16>) outs(%{{.*}} : tensor<4x2xbf16>) sum_outs(%{{.*}} : tensor<4x8xbf16>) mean_outs(%{{.*}} : tensor<4xf32>) rstd_outs(%{{.*}} : tensor<4xf32>) -> tensor<4x2xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>
// DECOMP-LABEL: func.func @ln_mm
//   DECOMP-NOT: norm.
//       DECOMP: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x2xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>
// BUF-LABEL: func.func @ln_mm
//       BUF: norm.layer_norm_matmul {{.*}} sum_outs(%{{.*}} : memref<4x8xbf16{{.*}}>) mean_outs(%{{.*}} : memref<4xf32{{.*}}>) rstd_outs(%{{.*}} : memref<4xf32{{.*}}>){{$}}
func.func @ln_mm(%x: tensor<4x8xbf16>, %h: tensor<4x8xbf16>, %w: tensor<8x2xbf16>) -> (tensor<4x2xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %c = tensor.empty() : tensor<4x2xbf16>
  %s = tensor.empty() : tensor<4x8xbf16>
  %st = tensor.empty() : tensor<4xf32>
  %0:4 = norm.layer_norm_matmul ins(%x : tensor<4x8xbf16>) residual(%h : tensor<4x8xbf16>) rhs(%w : tensor<8x2xbf16>) outs(%c : tensor<4x2xbf16>) sum_outs(%s : tensor<4x8xbf16>) mean_outs(%st : tensor<4xf32>) rstd_outs(%st : tensor<4xf32>) -> tensor<4x2xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>
  return %0#0, %0#1, %0#2, %0#3 : tensor<4x2xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>
}

// -----

// ROUNDTRIP-LABEL: func.func @mm_rms
//       ROUNDTRIP: norm.matmul_rms_norm ins(%{{.*}} : tensor<?x8xf32>) rhs(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<?x16xf32>) rstd_outs(%{{.*}} : tensor<?xf32>) -> tensor<?x16xf32>, tensor<?xf32>
// DECOMP-LABEL: func.func @mm_rms
//   DECOMP-NOT: norm.
//       DECOMP: return %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<?xf32>
// BUF-LABEL: func.func @mm_rms
//       BUF: norm.matmul_rms_norm {{.*}} rstd_outs(%{{.*}} : memref<?xf32{{.*}}>){{$}}
func.func @mm_rms(%a: tensor<?x8xf32>, %w: tensor<8x16xf32>, %y: tensor<?x16xf32>, %r: tensor<?xf32>) -> (tensor<?x16xf32>, tensor<?xf32>) {
  %0:2 = norm.matmul_rms_norm ins(%a : tensor<?x8xf32>) rhs(%w : tensor<8x16xf32>) outs(%y : tensor<?x16xf32>) rstd_outs(%r : tensor<?xf32>) -> tensor<?x16xf32>, tensor<?xf32>
  return %0#0, %0#1 : tensor<?x16xf32>, tensor<?xf32>
}
