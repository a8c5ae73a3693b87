// REQUIRES: norm-jit
// Randomized execution of norm.group_norm (and InstanceNorm, G = C) on the
// CPU, memref and tensor forms, f32/f16/bf16, checked by norm-run --check
// against the float64 reference (y, mean and rstd), including rows with
// |mean| ≫ std, odd spatial sizes (masked tails in every channel segment)
// and a size that makes the kernel thread the groups.
//
// @gn_f32(x: ?x8x?x?, g, b: 8, y: ?x8x?x?), G = 4:    N,H,W, N,H,W
// RUN: norm-run %s --entry=gn_f32 --dims=2,5,3,2,5,3 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=gn_f32 --dims=3,16,16,3,16,16 --seed=2 --mean=0.5 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=gn_f32 --dims=1,1,1,1,1,1 --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=gn_f32 --dims=4,9,13,4,9,13 --seed=4 --mean=1000 --scale=0.1 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=gn_f32 --dims=8,64,64,8,64,64 --seed=5 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
//
// @gn_stats_f32 (mean and rstd outputs, no γ), G = 2: N,L, N,L, N, N
// RUN: norm-run %s --entry=gn_stats_f32 --dims=3,37,3,37,3,3 --seed=11 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @in_f16 (InstanceNorm, G = C = 6, β only):          N,L, N,L
// RUN: norm-run %s --entry=in_f16 --dims=5,49,5,49 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=in_f16 --dims=2,1000,2,1000 --seed=22 --mean=3 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @gn_bf16 (G = 1: one group of all channels; no spatial dims)
// RUN: norm-run %s --entry=gn_bf16 --dims=7,7 --seed=31 --warmup=0 --repeat=1 --check | FileCheck %s
//
// @gn_tensor (tensor form, static shapes, G = 8 of 32 channels)
// RUN: norm-run %s --entry=gn_tensor --seed=41 --warmup=0 --repeat=1 --check | FileCheck %s

// CHECK: {{^}}norm-run: entry={{(gn|in)_[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{1e-06|1e-05|2e-03|1e-02}} PASS{{$}}

func.func @gn_f32(%x: memref<?x8x?x?xf32>, %g: memref<8xf32>, %b: memref<8xf32>, %y: memref<?x8x?x?xf32>) {
  norm.group_norm ins(%x : memref<?x8x?x?xf32>) weight(%g : memref<8xf32>)
      bias(%b : memref<8xf32>) outs(%y : memref<?x8x?x?xf32>) {num_groups = 4 : i64}
  return
}

func.func @gn_stats_f32(%x: memref<?x6x?xf32>, %b: memref<6xf32>, %y: memref<?x6x?xf32>,
                        %mean: memref<?x2xf32>, %rstd: memref<?x2xf32>) {
  norm.group_norm ins(%x : memref<?x6x?xf32>) bias(%b : memref<6xf32>)
      outs(%y : memref<?x6x?xf32>) mean_outs(%mean : memref<?x2xf32>)
      rstd_outs(%rstd : memref<?x2xf32>) {num_groups = 2 : i64, epsilon = 1.0e-06 : f64}
  return
}

func.func @in_f16(%x: memref<?x6x?xf16>, %b: memref<6xf16>, %y: memref<?x6x?xf16>) {
  norm.group_norm ins(%x : memref<?x6x?xf16>) bias(%b : memref<6xf16>)
      outs(%y : memref<?x6x?xf16>) {num_groups = 6 : i64}
  return
}

func.func @gn_bf16(%x: memref<?x12xbf16>, %g: memref<12xbf16>, %y: memref<?x12xbf16>) {
  norm.group_norm ins(%x : memref<?x12xbf16>) weight(%g : memref<12xbf16>)
      outs(%y : memref<?x12xbf16>) {num_groups = 1 : i64}
  return
}

func.func @gn_tensor(%x: tensor<2x32x7x5xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x32x7x5xf32> {
  %e = tensor.empty() : tensor<2x32x7x5xf32>
  %y = norm.group_norm ins(%x : tensor<2x32x7x5xf32>) weight(%g : tensor<32xf32>)
      bias(%b : tensor<32xf32>) outs(%e : tensor<2x32x7x5xf32>) {num_groups = 8 : i64}
      -> tensor<2x32x7x5xf32>
  return %y : tensor<2x32x7x5xf32>
}
