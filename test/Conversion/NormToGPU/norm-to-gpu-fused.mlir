// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s

// RMSNorm → matmul, bf16, W as N×K (PyTorch layout), with γ. The host picks
// the cp.async kernel when every buffer is 16-byte aligned (K and N are
// static multiples of 8), the guarded-load kernel otherwise. A grid of
// ⌈N/128⌉ × ⌈M/64⌉ blocks of 128 threads, dynamic shared memory for the two
// A and W buffers, γ and the row scales. Per K tile: prefetch the next tile
// (16-byte cp.async, source size for the tails), wait for the current one,
// the statistics and x·γ from the A tile in shared memory (written back,
// then a barrier), 2 k16 steps × (2 A + 4 W ldmatrix, 16 mma.sync).
// CHECK-LABEL: func.func @rms_nk_bf16
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         scf.if
// CHECK:           %[[GX:.*]] = arith.ceildivui %{{.*}}, %c128
// CHECK:           %[[GY:.*]] = arith.ceildivui %{{.*}}, %c64
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[GY]], %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size
// CHECK:             gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<2x64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<2x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<2x32xbf16, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-6:     nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<{{.*}}xbf16> to memref<{{.*}}xbf16, #gpu.address_space<workgroup>>
// CHECK:             nvgpu.device_async_create_group
// CHECK:             scf.for
// CHECK-COUNT-6:       nvgpu.device_async_copy
// CHECK:               nvgpu.device_async_create_group
// CHECK:               nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT:          gpu.barrier
// CHECK:               vector.load %{{.*}} {alignment = 16 : i64} : memref<2x64x40xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:               math.fma
// CHECK:               arith.truncf %{{.*}} : f32 to bf16
// CHECK:               vector.store %{{.*}} {alignment = 16 : i64} : memref<2x64x40xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:               gpu.barrier
// CHECK-COUNT-2:       nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-4:       nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x128x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-16:      nvgpu.mma.sync(%{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-2:       nvgpu.ldmatrix
// CHECK-COUNT-4:       nvgpu.ldmatrix
// CHECK-COUNT-16:      nvgpu.mma.sync
// CHECK:               gpu.barrier
// CHECK:               scf.yield
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:             gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:             math.sqrt
// CHECK:             gpu.barrier
// CHECK:             arith.mulf
// CHECK:             arith.truncf %{{.*}} : f32 to bf16
// CHECK:             vector.store %{{.*}} {alignment = 4 : i64} : memref<?x11008xbf16>, vector<2xbf16>
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:             memref.load %{{.*}} : memref<?x4096xbf16>
// CHECK:             nvgpu.mma.sync
// CHECK:             memref.store %{{.*}} : memref<?x11008xbf16>
// CHECK-NOT:     norm.rms_norm_matmul
func.func @rms_nk_bf16(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %w: memref<11008x4096xbf16>, %c: memref<?x11008xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    rhs(%w : memref<11008x4096xbf16>) outs(%c : memref<?x11008xbf16>) {transpose_rhs}
  return
}

// -----

// RMSNorm → matmul, f16, W as K×N, no γ: the MMAs run on the raw x (no
// rewrite of the A tile, one barrier fewer) and W's fragments come from
// ldmatrix.trans of the [k][n] tile (rows padded to 136 elements).
// CHECK-LABEL: func.func @rms_kn_f16_raw
// CHECK:         gpu.launch
// CHECK:           memref.view {{.*}} to memref<2x32x136xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT:        gpu.barrier
// CHECK-NOT:         vector.store
// CHECK-NOT:         gpu.barrier
// CHECK:             nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:             nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<2x32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:             nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             gpu.barrier
// CHECK-NEXT:        scf.yield
func.func @rms_kn_f16_raw(%x: memref<16x512xf16>, %w: memref<512x256xf16>, %c: memref<16x256xf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x512xf16>) rhs(%w : memref<512x256xf16>)
    outs(%c : memref<16x256xf16>)
  return
}

// -----

// LayerNorm → matmul, W as K×N, with γ, β and a bias. The pivot (the mean
// of each row's first K tile) is taken before the loop, from tile 0 waited
// for at once; per tile, (x − p)·γ is written back to the A tile while
// Σ(x − p) and Σ(x − p)² are summed, and each thread sums its column's
// c = Σγ·W and Σβ·W from the W tile. The epilogue is
// r·acc − r·(μ − p)·c + (Σβ·W + bias).
// CHECK-LABEL: func.func @ln_kn_f16
// CHECK:         gpu.launch
// CHECK:           memref.view {{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.view {{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK-NEXT:      gpu.barrier
// CHECK:           gpu.shuffle  xor
// CHECK:           %[[PIVOT:.*]] = arith.divf
// CHECK:           scf.for
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:             arith.subf %{{.*}}, %[[PIVOT]] : f32
// CHECK:             vector.store
// CHECK:             memref.load %{{.*}} : memref<2x32x136xf16, #gpu.address_space<workgroup>>
// CHECK:             math.fma
// CHECK:             gpu.barrier
// CHECK:             nvgpu.ldmatrix {{.*}}transpose = true
// CHECK:             nvgpu.mma.sync
// CHECK:           scf.if
// CHECK:             memref.load %{{.*}} : memref<3072xf16>
// CHECK:           gpu.barrier
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:           arith.subf
// CHECK:           arith.addf
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @ln_kn_f16(%x: memref<?x768xf16>, %g: memref<768xf16>, %b: memref<768xf16>,
                     %w: memref<768x3072xf16>, %mb: memref<3072xf16>, %c: memref<?x3072xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xf16>) weight(%g : memref<768xf16>)
    bias(%b : memref<768xf16>) rhs(%w : memref<768x3072xf16>)
    matmul_bias(%mb : memref<3072xf16>) outs(%c : memref<?x3072xf16>)
  return
}

// -----

// K = 1000 is not a multiple of 8: only the kernel with guarded element
// loads (no cp.async, no alignment test); the LayerNorm statistics mask the
// last, partial K tile.
// CHECK-LABEL: func.func @ln_nk_k1000
// CHECK-NOT:     memref.extract_aligned_pointer_as_index
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           scf.for
// CHECK:             memref.load %{{.*}} : memref<?x1000xbf16>
// CHECK:             memref.store %{{.*}} : memref<2x64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             arith.cmpi slt
// CHECK:             arith.select
// CHECK:             nvgpu.mma.sync
// CHECK-NOT:     gpu.launch
func.func @ln_nk_k1000(%x: memref<?x1000xbf16>, %w: memref<300x1000xbf16>, %c: memref<?x300xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x1000xbf16>) rhs(%w : memref<300x1000xbf16>)
    outs(%c : memref<?x300xbf16>) {transpose_rhs}
  return
}

// -----

// matmul → RMSNorm with a residual and sum_outs: the GEMM's epilogue writes
// S = A·W + residual, rounded to bf16, into sum_outs; then the row kernel
// normalizes S into outs.
// CHECK-LABEL: func.func @matmul_rms_sum
// CHECK-SAME:    %{{.*}}: memref<?x512xbf16>, %{{.*}}: memref<512x1024xbf16>, %[[RES:.*]]: memref<?x1024xbf16>, %{{.*}}: memref<1024xbf16>, %{{.*}}: memref<?x1024xbf16>, %[[SUM:.*]]: memref<?x1024xbf16>)
// CHECK-NOT:     gpu.alloc
// CHECK:         %[[S:.*]] = memref.reinterpret_cast %[[SUM]]
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           vector.load %{{.*}} {alignment = 4 : i64} : memref<?x1024xbf16>, vector<2xbf16>
// CHECK:           arith.addf
// CHECK:           vector.store %{{.*}}, %[[S]][{{.*}}] {alignment = 4 : i64} : memref<?x1024xbf16>, vector<2xbf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.mma.sync
// CHECK:           gpu.shuffle
// CHECK-NOT:     norm.
func.func @matmul_rms_sum(%a: memref<?x512xbf16>, %w: memref<512x1024xbf16>, %r: memref<?x1024xbf16>,
                          %g: memref<1024xbf16>, %y: memref<?x1024xbf16>, %s: memref<?x1024xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x512xbf16>) rhs(%w : memref<512x1024xbf16>)
    residual(%r : memref<?x1024xbf16>) weight(%g : memref<1024xbf16>)
    outs(%y : memref<?x1024xbf16>) sum_outs(%s : memref<?x1024xbf16>)
  return
}

// -----

// matmul → LayerNorm without sum_outs: S goes to a device temporary.
// CHECK-LABEL: func.func @matmul_ln_temp
// CHECK:         %[[TMP:.*]] = gpu.alloc (%{{.*}}) : memref<?x1024xf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           vector.store %{{.*}}, %[[TMP]]
// CHECK:         gpu.launch
// CHECK:           math.sqrt
// CHECK:         gpu.dealloc %[[TMP]] : memref<?x1024xf16>
func.func @matmul_ln_temp(%a: memref<?x512xf16>, %w: memref<1024x512xf16>, %mb: memref<1024xf16>,
                          %y: memref<?x1024xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x512xf16>) rhs(%w : memref<1024x512xf16>)
    matmul_bias(%mb : memref<1024xf16>) outs(%y : memref<?x1024xf16>) {transpose_rhs}
  return
}

// -----

// Fused ops on tensors are left alone (as the standalone norms are).
// CHECK-LABEL: func.func @tensor_form
// CHECK:         norm.rms_norm_matmul
// CHECK-NOT:     gpu.launch
func.func @tensor_form(%x: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %i: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %c = norm.rms_norm_matmul ins(%x : tensor<4x64xbf16>) rhs(%w : tensor<64x32xbf16>)
    outs(%i : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %c : tensor<4x32xbf16>
}
