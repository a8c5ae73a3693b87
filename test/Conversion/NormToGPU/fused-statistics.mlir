// RUN: norm-opt %s --convert-norm-to-gpu --canonicalize -split-input-file -verify-diagnostics | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu=chip=sm_90a --canonicalize -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=SM90A

// The fused ops' saved statistics on the GPU. matmul → norm: the GEMM writes
// S, and the row kernel that normalizes it writes the statistics, as the
// standalone norm's do. norm → matmul: whoever computes a row's statistics
// writes them, once per row: the epilogue of the mma.sync kernel (blocks of
// the first column tile, the even thread of the row's pair), the split-K
// reduction (the column-0 thread, after the slices' sums), the wgmma
// kernel's epilogue, the statistics pass of the normalize-first forms.

// CHECK-LABEL: func.func @mm_ln_stats
//       CHECK: gpu.launch
//       CHECK: gpu.launch
//       CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
//       CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
//   CHECK-NOT: norm.matmul_layer_norm
func.func @mm_ln_stats(%a: memref<16x64xbf16>, %w: memref<64x32xbf16>, %y: memref<16x32xbf16>, %m: memref<16xf32>, %r: memref<16xf32>) {
  norm.matmul_layer_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%y : memref<16x32xbf16>) mean_outs(%m : memref<16xf32>) rstd_outs(%r : memref<16xf32>)
  return
}

// -----

// RMSNorm → matmul: r of the row in the epilogue, stored as the rstd by
// the first column of blocks (the cp.async kernel, then the guarded one);
// at sm_90a the wgmma kernel's epilogue stores it.
// CHECK-LABEL: func.func @rms_mm_stats
//  CHECK-SAME:   %[[RSTD:[a-z0-9]+]]: memref<16xf32>
//       CHECK:   gpu.launch
//       CHECK:     nvgpu.mma.sync
//       CHECK:     gpu.shuffle  xor
//       CHECK:     math.sqrt
//       CHECK:     scf.if
//       CHECK:       memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<16xf32>
//       CHECK:   gpu.launch
//       CHECK:       memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<16xf32>
//   CHECK-NOT: norm.rms_norm_matmul
// SM90A-LABEL: func.func @rms_mm_stats
//  SM90A-SAME:   %[[RSTD:[a-z0-9]+]]: memref<16xf32>
//       SM90A:   gpu.launch
//       SM90A:     nvvm.wgmma.mma_async
//       SM90A:     math.sqrt
//       SM90A:       memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<16xf32>
func.func @rms_mm_stats(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>, %r: memref<16xf32>) {
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>) rstd_outs(%r : memref<16xf32>)
  return
}

// -----

// LayerNorm → matmul split over K (decode: 9 slices): each slice stores
// its pivot beside its row sums (a third column), and the reduction's
// column-0 thread saves mean = p + (μ − p) and rstd = r from the sums over
// all slices.
// CHECK-LABEL: func.func @ln_mm_split_stats
//  CHECK-SAME:   %[[MEAN:[a-z0-9]+]]: memref<16xf32>, %[[RSTD:[a-z0-9]+]]: memref<16xf32>
//       CHECK:   %[[ROWS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}, %{{.*}}) : memref<?x?x3xf32>
//       CHECK:   gpu.launch
//       CHECK:     memref.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}, %c2{{.*}}] : memref<?x?x3xf32>
//       CHECK:   gpu.launch
//       CHECK:     memref.load %[[ROWS]][%c0{{.*}}, %{{.*}}, %c2{{.*}}] : memref<?x?x3xf32>
//       CHECK:     scf.if
//       CHECK:       memref.store %{{.*}}, %[[MEAN]][%{{.*}}] : memref<16xf32>
//       CHECK:       memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<16xf32>
func.func @ln_mm_split_stats(%x: memref<16x4096xbf16>, %w: memref<4096x4096xbf16>, %c: memref<16x4096xbf16>, %m: memref<16xf32>, %r: memref<16xf32>) {
  norm.layer_norm_matmul ins(%x : memref<16x4096xbf16>) rhs(%w : memref<4096x4096xbf16>)
    outs(%c : memref<16x4096xbf16>) mean_outs(%m : memref<16xf32>) rstd_outs(%r : memref<16xf32>)
  return
}

// -----

// cast_mode: each row normalized before the product; its statistics pass
// (before the K loop) saves the rstd.
// CHECK-LABEL: func.func @rms_mm_cast_stats
//  CHECK-SAME:   %[[RSTD:[a-z0-9]+]]: memref<16xf32>
//       CHECK:   gpu.launch
//       CHECK:     math.sqrt
//       CHECK:     memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<16xf32>
//       CHECK:     scf.for
//       CHECK:       nvgpu.mma.sync
func.func @rms_mm_cast_stats(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>, %r: memref<16xf32>) {
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>) rstd_outs(%r : memref<16xf32>) {cast_mode = #norm.cast_mode<after_weight>}
  return
}

// -----

// N = 0: no column of C, but one column of blocks (the guarded kernel)
// still runs and saves the statistics.
// CHECK-LABEL: func.func @ln_mm_n0_stats
//  CHECK-SAME:   %[[MEAN:[a-z0-9]+]]: memref<3xf32>, %[[RSTD:[a-z0-9]+]]: memref<3xf32>
//       CHECK:   gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
//       CHECK:       memref.store %{{.*}}, %[[MEAN]][%{{.*}}] : memref<3xf32>
//       CHECK:       memref.store %{{.*}}, %[[RSTD]][%{{.*}}] : memref<3xf32>
func.func @ln_mm_n0_stats(%x: memref<3x64xbf16>, %w: memref<64x0xbf16>, %c: memref<3x0xbf16>, %m: memref<3xf32>, %r: memref<3xf32>) {
  norm.layer_norm_matmul ins(%x : memref<3x64xbf16>) rhs(%w : memref<64x0xbf16>)
    outs(%c : memref<3x0xbf16>) mean_outs(%m : memref<3xf32>) rstd_outs(%r : memref<3xf32>)
  return
}

// -----

// The kernels write the statistics one element per row of a contiguous
// view; a strided one is refused at the op.
func.func @rms_mm_strided_stats(%x: memref<16x64xbf16>, %w: memref<64x32xbf16>, %c: memref<16x32xbf16>, %r: memref<16xf32, strided<[2]>>) {
  // expected-error @+1 {{'norm.rms_norm_matmul' op is left by convert-norm-to-gpu: operand #3 (memref<16xf32, strided<[2]>>) has non-contiguous rows, which are not supported by the GPU GEMM kernels}}
  norm.rms_norm_matmul ins(%x : memref<16x64xbf16>) rhs(%w : memref<64x32xbf16>)
    outs(%c : memref<16x32xbf16>) rstd_outs(%r : memref<16xf32, strided<[2]>>)
  return
}
