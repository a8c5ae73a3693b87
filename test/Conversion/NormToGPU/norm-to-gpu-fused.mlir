// The kernels themselves, with split-K off (max-split-k=1;
// norm-to-gpu-split-k.mlir has the split form).
// RUN: norm-opt %s --convert-norm-to-gpu=max-split-k=1 -split-input-file | FileCheck %s

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

// RMSNorm → matmul with a residual and sum_outs, bf16, W as N×K, no γ. R's
// tile is staged beside A's ([2][64][40], right after it) by the same
// cp.async group, chunk for chunk; the prologue forms s = round(x + r)
// (f32 add, one truncf), stores it to S when the block is in the first
// column tile (blockIdx.x = 0; one 16-byte store a chunk), sums s² and
// writes s back to the A tile without a multiply (no γ); the MMAs read s.
// The grid keeps at least one column of blocks (max(⌈N/128⌉, 1)), and R and
// S join the alignment test.
// CHECK-LABEL: func.func @rms_res_sum_nk_bf16
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x512xbf16>, %[[R:[^:]*]]: memref<?x512xbf16>, %{{[^:]*}}: memref<1024x512xbf16>, %{{[^:]*}}: memref<?x1024xbf16>, %[[S:[^:]*]]: memref<?x512xbf16>)
// CHECK:         %[[XV:.*]] = memref.reinterpret_cast %[[X]]
// CHECK:         %[[RV:.*]] = memref.reinterpret_cast %[[R]]
// CHECK:         %[[SV:.*]] = memref.reinterpret_cast %[[S]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[RV]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[SV]]
// CHECK:         scf.if
// CHECK:           %[[GX0:.*]] = arith.ceildivui %c1024, %c128
// CHECK:           %[[GX:.*]] = arith.maxui %[[GX0]], %c1
// CHECK:           gpu.launch blocks(%[[BX:[^,]*]], %{{[^,]*}}, %{{[^)]*}}) in (%{{.*}} = %[[GX]],
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[BX]], %c0
// CHECK:             %[[AT:.*]] = memref.view {{.*}} to memref<2x64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             %[[RT:.*]] = memref.view {{.*}} to memref<2x64x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<2x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK:             nvgpu.device_async_copy %[[XV]][{{.*}}], %[[AT]]
// CHECK-NEXT:        nvgpu.device_async_copy %[[RV]][{{.*}}], %[[RT]]
// CHECK:             scf.for
// CHECK:               nvgpu.device_async_copy %[[XV]][{{.*}}], %[[AT]]
// CHECK-NEXT:          nvgpu.device_async_copy %[[RV]][{{.*}}], %[[RT]]
// CHECK:               nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT:          gpu.barrier
// CHECK:               vector.load %[[AT]]
// CHECK:               vector.load %[[RT]]
// CHECK:               %[[SUM:.*]] = arith.addf
// CHECK-NEXT:          arith.truncf %[[SUM]] : f32 to bf16
// CHECK:               arith.andi %[[FIRST]],
// CHECK:               scf.if
// CHECK:                 vector.store %{{.*}}, %[[SV]][{{.*}}] {alignment = 16 : i64} : memref<?x512xbf16>, vector<8xbf16>
// CHECK:               math.fma
// CHECK-NOT:           arith.mulf
// CHECK:               vector.store %{{.*}}, %[[AT]][{{.*}}] {alignment = 16 : i64}
// CHECK:               gpu.barrier
// CHECK:               nvgpu.ldmatrix %[[AT]]
// CHECK:               nvgpu.mma.sync
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:             memref.load %[[XV]]
// CHECK:             memref.load %[[RV]]
// CHECK:             memref.store %{{.*}}, %[[SV]]
// CHECK:             nvgpu.mma.sync
func.func @rms_res_sum_nk_bf16(%x: memref<?x512xbf16>, %r: memref<?x512xbf16>, %w: memref<1024x512xbf16>,
                               %c: memref<?x1024xbf16>, %s: memref<?x512xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x512xbf16>) residual(%r : memref<?x512xbf16>)
    rhs(%w : memref<1024x512xbf16>) outs(%c : memref<?x1024xbf16>)
    sum_outs(%s : memref<?x512xbf16>) {transpose_rhs}
  return
}

// -----

// LayerNorm → matmul with a residual and sum_outs, f16, W as K×N with a
// dynamic N, γ and β. The pivot (before the loop) is the mean of s =
// round(x + r) over tile 0; per tile, S is stored by the first column tile,
// then s − p feeds the statistics and (s − p)·γ the A tile. N may be 0 at
// run time (S is still written): the cp.async kernel is only taken for
// N > 0.
// CHECK-LABEL: func.func @ln_res_sum_kn_f16
// CHECK-SAME:    %{{[^:]*}}: memref<?x768xf16>, %{{[^:]*}}: memref<?x768xf16>, %{{[^:]*}}: memref<768xf16>, %{{[^:]*}}: memref<768xf16>, %{{[^:]*}}: memref<768x?xf16>, %[[C:[^:]*]]: memref<?x?xf16>, %[[S:[^:]*]]: memref<?x768xf16>)
// CHECK:         %[[N:.*]] = memref.dim %[[C]], %c1
// CHECK:         %[[SV:.*]] = memref.reinterpret_cast %[[S]]
// CHECK:         scf.if
// CHECK:           arith.cmpi ugt, %[[N]], %c0
// CHECK:           scf.if
// CHECK:             %[[GX0:.*]] = arith.ceildivui %[[N]], %c128
// CHECK:             arith.maxui %[[GX0]], %c1
// CHECK:             gpu.launch
// CHECK:               %[[AT:.*]] = memref.view {{.*}} to memref<2x64x40xf16, #gpu.address_space<workgroup>>
// CHECK:               %[[RT:.*]] = memref.view {{.*}} to memref<2x64x40xf16, #gpu.address_space<workgroup>>
// CHECK:               nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK-NEXT:          gpu.barrier
// CHECK:               vector.load %[[AT]]
// CHECK:               vector.load %[[RT]]
// CHECK:               arith.addf
// CHECK-NEXT:          arith.truncf %{{.*}} : f32 to f16
// CHECK:               gpu.shuffle  xor
// CHECK:               %[[PIVOT:.*]] = arith.divf
// CHECK:               scf.for
// CHECK:                 nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:                 vector.load %[[RT]]
// CHECK:                 arith.truncf %{{.*}} : f32 to f16
// CHECK:                 scf.if
// CHECK:                   vector.store %{{.*}}, %[[SV]][{{.*}}] {alignment = 16 : i64} : memref<?x768xf16>, vector<8xf16>
// CHECK:                 arith.subf %{{.*}}, %[[PIVOT]] : f32
// CHECK:                 arith.mulf
// CHECK:                 vector.store %{{.*}}, %[[AT]]
// CHECK:                 nvgpu.mma.sync
// CHECK:           } else {
// CHECK:             gpu.launch
// CHECK-NOT:           nvgpu.device_async_copy
// CHECK:               memref.store %{{.*}}, %[[SV]]
func.func @ln_res_sum_kn_f16(%x: memref<?x768xf16>, %r: memref<?x768xf16>, %g: memref<768xf16>, %b: memref<768xf16>,
                             %w: memref<768x?xf16>, %c: memref<?x?xf16>, %s: memref<?x768xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x768xf16>) residual(%r : memref<?x768xf16>)
    weight(%g : memref<768xf16>) bias(%b : memref<768xf16>) rhs(%w : memref<768x?xf16>)
    outs(%c : memref<?x?xf16>) sum_outs(%s : memref<?x768xf16>)
  return
}

// -----

// A residual without sum_outs, f16, with γ: s = round(x + r) feeds the
// statistics and round(s·γ) the A tile; nothing is stored but C, and the
// grid is ⌈N/128⌉ wide.
// CHECK-LABEL: func.func @rms_res_nosum_f16
// CHECK-NOT:     arith.maxui
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK-NEXT:        arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT:         memref<8x256xf16>, vector<8xf16>
// CHECK:             arith.mulf
// CHECK:             nvgpu.mma.sync
func.func @rms_res_nosum_f16(%x: memref<8x256xf16>, %r: memref<8x256xf16>, %g: memref<256xf16>,
                             %w: memref<256x128xf16>, %c: memref<8x128xf16>) {
  norm.rms_norm_matmul ins(%x : memref<8x256xf16>) residual(%r : memref<8x256xf16>)
    weight(%g : memref<256xf16>) rhs(%w : memref<256x128xf16>) outs(%c : memref<8x128xf16>)
  return
}

// -----

// K = 100: the guarded-load kernel only; R is loaded element by element
// beside A, and S is written with element stores guarded by the first
// column tile, the row and the column.
// CHECK-LABEL: func.func @rms_res_guarded_bf16
// CHECK-SAME:    %[[S:[^:]*]]: memref<?x100xbf16>)
// CHECK-NOT:     memref.extract_aligned_pointer_as_index
// CHECK:         %[[SV:.*]] = memref.reinterpret_cast %[[S]]
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK-NEXT:        arith.truncf %{{.*}} : f32 to bf16
// CHECK:             scf.if
// CHECK-COUNT-8:       memref.store %{{.*}}, %[[SV]]
// CHECK:             nvgpu.mma.sync
// CHECK-NOT:     gpu.launch
func.func @rms_res_guarded_bf16(%x: memref<?x100xbf16>, %r: memref<?x100xbf16>, %g: memref<100xbf16>,
                                %w: memref<100x70xbf16>, %c: memref<?x70xbf16>, %s: memref<?x100xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x100xbf16>) residual(%r : memref<?x100xbf16>)
    weight(%g : memref<100xbf16>) rhs(%w : memref<100x70xbf16>) outs(%c : memref<?x70xbf16>)
    sum_outs(%s : memref<?x100xbf16>)
  return
}

// -----

// N = 0 with sum_outs: there is no C, but S = round(X + R) must still be
// written. One column of blocks runs the guarded-load kernel (which reads
// nothing of the empty W); the launch is guarded by M > 0 only.
// CHECK-LABEL: func.func @rms_res_n0
// CHECK-SAME:    %[[S:[^:]*]]: memref<4x64xbf16>)
// CHECK-NOT:     memref.extract_aligned_pointer_as_index
// CHECK:         %[[SV:.*]] = memref.reinterpret_cast %[[S]]
// CHECK:         %[[GX0:.*]] = arith.ceildivui %c0{{.*}}, %c128
// CHECK:         %[[GX:.*]] = arith.maxui %[[GX0]], %c1
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX]],
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           memref.store %{{.*}}, %[[SV]]
// CHECK-NOT:     gpu.launch
func.func @rms_res_n0(%x: memref<4x64xbf16>, %r: memref<4x64xbf16>, %w: memref<64x0xbf16>,
                      %c: memref<4x0xbf16>, %s: memref<4x64xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<4x64xbf16>) residual(%r : memref<4x64xbf16>)
    rhs(%w : memref<64x0xbf16>) outs(%c : memref<4x0xbf16>) sum_outs(%s : memref<4x64xbf16>)
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

// matmul → LayerNorm without sum_outs: S goes to a device temporary,
// allocated and freed in the async form that gpu-to-llvm lowers (a
// synchronous gpu.alloc/gpu.dealloc stays in the host code and fails
// translation to LLVM IR), each completed on the host (the blocking
// gpu.wait) before it goes on; the launches are synchronous, so both
// kernels have finished with S when it is freed.
// CHECK-LABEL: func.func @matmul_ln_temp
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[TMP:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?x1024xf16>
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           vector.store %{{.*}}, %[[TMP]]
// CHECK:         gpu.launch
// CHECK:           math.sqrt
// CHECK:         %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[TMP]] : memref<?x1024xf16>
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    return
func.func @matmul_ln_temp(%a: memref<?x512xf16>, %w: memref<1024x512xf16>, %mb: memref<1024xf16>,
                          %y: memref<?x1024xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x512xf16>) rhs(%w : memref<1024x512xf16>)
    matmul_bias(%mb : memref<1024xf16>) outs(%y : memref<?x1024xf16>) {transpose_rhs}
  return
}

// -----

// A dynamic K may be 0 at run time: the row statistics divide by max(K, 1),
// so an empty row has mean 0 and a finite r, and C = bias (the op's
// definition: the product's sum is empty), where 0/0 gave NaN everywhere.
// CHECK-LABEL: func.func @rms_dynamic_k
// CHECK-SAME:    %[[X:[^:]*]]: memref<16x?xbf16>
// CHECK:         %[[K:.*]] = memref.dim %[[X]], %c1
// CHECK:         gpu.launch
// CHECK:           %[[K1:.*]] = arith.maxui %[[K]], %c1
// CHECK:           %[[KI:.*]] = arith.index_cast{{.*}} %[[K1]] : index to i64
// CHECK:           %[[KF:.*]] = arith.uitofp %[[KI]] : i64 to f32
// CHECK:           arith.divf %{{.*}}, %[[KF]] : f32
// CHECK:           math.sqrt
func.func @rms_dynamic_k(%x: memref<16x?xbf16>, %w: memref<?x64xbf16>, %mb: memref<64xbf16>,
                         %c: memref<16x64xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<16x?xbf16>) rhs(%w : memref<?x64xbf16>)
    matmul_bias(%mb : memref<64xbf16>) outs(%c : memref<16x64xbf16>)
  return
}

// -----

// LayerNorm: μ − p and the mean square both divide by max(K, 1).
// CHECK-LABEL: func.func @ln_dynamic_k
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf16>
// CHECK:         %[[K:.*]] = memref.dim %[[X]], %c1
// CHECK:         gpu.launch
// CHECK:           %[[K1:.*]] = arith.maxui %[[K]], %c1
// CHECK:           %[[KI:.*]] = arith.index_cast{{.*}} %[[K1]] : index to i64
// CHECK:           %[[KF:.*]] = arith.uitofp %[[KI]] : i64 to f32
// CHECK:           arith.divf %{{.*}}, %[[KF]] : f32
// CHECK:           arith.divf %{{.*}}, %[[KF]] : f32
// CHECK:           math.sqrt
func.func @ln_dynamic_k(%x: memref<?x?xf16>, %w: memref<?x32xf16>, %c: memref<?x32xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf16>) rhs(%w : memref<?x32xf16>)
    outs(%c : memref<?x32xf16>)
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

// -----

// f32: the SIMT kernel (FMA units; TF32 tensor cores would round the
// operands to 10 bits). The same grid, staging and prologue as the
// tensor-core kernels with 4-element (16-byte) chunks and a K tile of 16
// (shared tiles [2][64][20] and, W as K×N, [2][16][132]); per k, each
// thread reads 8 A and 8 W values from shared memory and issues 8 vector
// FMAs on its 8 × 8 f32 accumulators; no ldmatrix or mma.sync. The
// epilogue stores element by element, each guarded. K = 100 and N = 68 are
// multiples of 4, so the host can pick the cp.async kernel.
// CHECK-LABEL: func.func @rms_kn_f32_simt
// CHECK:         scf.if
// CHECK:           gpu.launch
// CHECK:             memref.view {{.*}} to memref<2x64x20xf32, #gpu.address_space<workgroup>>
// CHECK:             memref.view {{.*}} to memref<2x16x132xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-6:     nvgpu.device_async_copy {{.*}}, 4, %{{.*}} {bypassL1} : memref<{{.*}}xf32> to memref<{{.*}}xf32, #gpu.address_space<workgroup>>
// CHECK:             scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, f32, f32)
// CHECK:               nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:               vector.load %{{.*}} {alignment = 16 : i64} : memref<2x64x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT:           arith.truncf
// CHECK:               gpu.barrier
// CHECK-COUNT-8:       vector.fma %{{.*}} : vector<8xf32>
// CHECK-NOT:           nvgpu.mma.sync
// CHECK:               gpu.barrier
// CHECK-NEXT:          scf.yield
// CHECK:             gpu.shuffle  xor
// CHECK:             scf.if
// CHECK:               vector.extract %{{.*}}[0] : f32 from vector<8xf32>
// CHECK:               memref.store %{{.*}} : memref<33x68xf32>
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:             vector.fma
// CHECK-NOT:     nvgpu.ldmatrix
// CHECK-NOT:     norm.rms_norm_matmul
func.func @rms_kn_f32_simt(%x: memref<33x100xf32>, %g: memref<100xf32>, %w: memref<100x68xf32>, %c: memref<33x68xf32>) {
  norm.rms_norm_matmul ins(%x : memref<33x100xf32>) weight(%g : memref<100xf32>)
    rhs(%w : memref<100x68xf32>) outs(%c : memref<33x68xf32>)
  return
}

// -----

// f32 with K = 30 (not a multiple of 4): only the guarded-load kernel; W as
// N×K is staged as [2][128][20].
// CHECK-LABEL: func.func @ln_nk_f32_guarded
// CHECK:         gpu.launch
// CHECK:           memref.view {{.*}} to memref<2x128x20xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:       nvgpu.
// CHECK:           vector.fma
// CHECK-NOT:     gpu.launch
func.func @ln_nk_f32_guarded(%x: memref<5x30xf32>, %g: memref<30xf32>, %b: memref<30xf32>, %w: memref<7x30xf32>, %c: memref<5x7xf32>) {
  norm.layer_norm_matmul ins(%x : memref<5x30xf32>) weight(%g : memref<30xf32>) bias(%b : memref<30xf32>)
    rhs(%w : memref<7x30xf32>) outs(%c : memref<5x7xf32>) {transpose_rhs}
  return
}
