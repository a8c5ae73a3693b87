// RUN: norm-opt %s --convert-norm-to-gpu -split-input-file | FileCheck %s
// RUN: norm-opt %s --convert-norm-to-gpu=register-elements=0 -split-input-file | FileCheck %s --check-prefix=REREAD

// Short rows: a warp per row (32 × 8 threads, 8 rows a block), 16-byte
// loads, the row held in registers (8 chunks of 4 per thread), a shuffle
// butterfly and no shared memory. The host tests the buffers' alignment and
// falls back to a scalar kernel.
// CHECK-LABEL: func.func @rms_warp_f32
// CHECK:         %[[ROWS:.*]] = memref.dim
// CHECK:         %[[HAS_ROWS:.*]] = arith.cmpi ugt, %[[ROWS]]
// CHECK:         scf.if %[[HAS_ROWS]] {
// CHECK:           memref.extract_aligned_pointer_as_index
// CHECK:           arith.remui %{{.*}}, %c16
// CHECK:           scf.if
// CHECK:             %[[GRID:.*]] = arith.ceildivui %[[ROWS]], %c8
// CHECK:             gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) {
// CHECK-COUNT-8:       vector.load %{{.*}} {alignment = 16 : i64} : memref<?x1024xf32>, vector<4xf32>
// CHECK-NOT:           vector.load
// CHECK-COUNT-5:       gpu.shuffle  xor %{{.*}} : f32
// CHECK-NOT:           gpu.barrier
// CHECK:               math.sqrt
// CHECK:               arith.divf
// CHECK:               vector.store %{{.*}} {alignment = 16 : i64} : memref<?x1024xf32>, vector<4xf32>
// CHECK:           } else {
// CHECK:             gpu.launch
// CHECK:               memref.load %{{.*}} : memref<?x1024xf32>
// REREAD-LABEL: func.func @rms_warp_f32
// REREAD:         gpu.launch
// REREAD:           scf.for
// REREAD:             vector.load
func.func @rms_warp_f32(%x: memref<?x1024xf32>, %g: memref<1024xf32>, %y: memref<?x1024xf32>) {
  norm.rms_norm ins(%x : memref<?x1024xf32>) weight(%g : memref<1024xf32>)
    outs(%y : memref<?x1024xf32>)
  return
}

// -----

// Mid-sized rows: the fewest warps that hold the row (4 warps = 128
// threads × 32 bf16 values, 2 rows a block); the warps of a row combine their
// sums through shared memory (2 stages × 2 rows × 4 warps × 2 values) after
// one barrier. bf16 is widened to f32 before any arithmetic; Gemma's offset
// is added to γ.
// CHECK-LABEL: func.func @rms_bf16_4096
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c2, %{{.*}} = %c1) workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) {
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 16 : i64} : memref<?x4096xbf16>, vector<8xbf16>
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           memref.store %{{.*}}, %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK-COUNT-4:   memref.load %[[SMEM]]
// CHECK:           vector.load %{{.*}} : memref<4096xbf16>, vector<8xbf16>
// CHECK:           %[[OFFSET:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.addf %{{.*}}, %[[OFFSET]] : f32
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<?x4096xbf16>, vector<8xbf16>
func.func @rms_bf16_4096(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%y : memref<?x4096xbf16>) {weight_offset = 1.0 : f32}
  return
}

// -----

// Long rows (≥ 65536): a block of 512 threads per row; the row does not fit
// in registers, so each sweep re-reads it. LayerNorm is two-pass: Σs, then Σd
// and Σd² (an FMA) over d = s − mean, each reduced by shuffles then shared
// memory; the variance is clamped at 0. Thread 0 writes mean and rstd.
// CHECK-LABEL: func.func @ln_block_f32
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c512, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1) workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>) {
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK:             arith.addf
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           gpu.barrier
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK:             arith.subf
// CHECK:             math.fma
// CHECK-COUNT-10:  gpu.shuffle  xor
// CHECK:           gpu.barrier
// CHECK:           arith.maximumf
// CHECK:           math.sqrt
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}} : memref<?xf32>
// CHECK:             memref.store %{{.*}} : memref<?xf32>
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               vector.store {{.*}} : memref<?x65536xf32>, vector<4xf32>
func.func @ln_block_f32(%x: memref<?x65536xf32>, %g: memref<65536xf32>, %b: memref<65536xf32>,
                        %y: memref<?x65536xf32>, %m: memref<?xf32>, %r: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x65536xf32>) weight(%g : memref<65536xf32>)
    bias(%b : memref<65536xf32>) outs(%y : memref<?x65536xf32>)
    mean_outs(%m : memref<?xf32>) rstd_outs(%r : memref<?xf32>)
  return
}

// -----

// A dynamic row length picks the block or the warp kernel at run time, and
// vectors only when n is a multiple of 8 (f16) and the buffers are aligned.
// ε outside the root: sqrt(var) + ε.
// CHECK-LABEL: func.func @ln_dynamic
// CHECK:         %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK:         %[[LONG:.*]] = arith.cmpi uge, %[[N]], %c65536
// CHECK:         arith.remui %[[N]], %c8
// CHECK:         scf.if %[[LONG]] {
// CHECK:           gpu.launch {{.*}} in (%{{.*}} = %c512,
// CHECK:             vector.load {{.*}} : memref<?x?xf16>, vector<8xf16>
// CHECK:             math.sqrt
// CHECK-NEXT:        arith.addf
// CHECK:           gpu.launch {{.*}} in (%{{.*}} = %c512,
// CHECK:             memref.load {{.*}} : memref<?x?xf16>
// CHECK:         } else {
// CHECK:           gpu.launch {{.*}} in (%{{.*}} = %c32,
// CHECK:           gpu.launch {{.*}} in (%{{.*}} = %c32,
func.func @ln_dynamic(%x: memref<?x?xf16>, %y: memref<?x?xf16>) {
  norm.layer_norm ins(%x : memref<?x?xf16>) outs(%y : memref<?x?xf16>)
    {eps_mode = #norm.eps_mode<outside_sqrt>}
  return
}

// -----

// n = 100 is not a multiple of 8: 8-byte vectors of 4 bf16. The residual sum
// is rounded to bf16 and stored to sum_outs; pRMSNorm masks elements at or
// past ⌈0.5·n⌉ out of the sum of squares; the last chunk of the row is
// masked (select) from the statistics and skipped in the stores.
// CHECK-LABEL: func.func @rms_residual_partial
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} : memref<16x100xbf16>, vector<4xbf16>
// CHECK:           vector.load %{{.*}} {alignment = 8 : i64} : memref<16x100xbf16>, vector<4xbf16>
// CHECK:           arith.addf
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           math.ceil %{{.*}} : f64
// CHECK:           arith.cmpi ult
// CHECK:           arith.select
// CHECK:           memref.store %{{.*}} : memref<16xf32>
// CHECK:           vector.store %{{.*}} : memref<16x100xbf16>, vector<4xbf16>
// CHECK:           vector.store %{{.*}} : memref<16x100xbf16>, vector<4xbf16>
func.func @rms_residual_partial(%x: memref<16x100xbf16>, %res: memref<16x100xbf16>,
                                %y: memref<16x100xbf16>, %s: memref<16x100xbf16>,
                                %r: memref<16xf32>) {
  norm.rms_norm ins(%x : memref<16x100xbf16>) residual(%res : memref<16x100xbf16>)
    outs(%y : memref<16x100xbf16>) sum_outs(%s : memref<16x100xbf16>)
    rstd_outs(%r : memref<16xf32>)
    {partial = 0.5 : f32, cast_mode = #norm.cast_mode<before_weight>}
  return
}

// -----

// Tensors (bufferize first) are not lowered; strided views are lowered
// (norm-to-gpu-strided.mlir) unless their rows are not unit-stride and
// evenly spaced, an error (norm-to-gpu-invalid.mlir).
// CHECK-LABEL: func.func @left_alone
// CHECK:         norm.rms_norm ins(%{{.*}} : tensor<4x8xf32>)
// CHECK-NOT:     gpu.launch
func.func @left_alone(%x: tensor<4x8xf32>, %i: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// axis = 1 normalizes the trailing 3×5 = 15 elements together; 15 is odd,
// so there is only the scalar kernel (no host alignment test). acc_type =
// f64: f16 widened to f64, f64 shuffles.
// CHECK-LABEL: func.func @rms_axis_f64_acc
// CHECK-NOT:     memref.extract_aligned_pointer_as_index
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 15], strides: [15, 1]
// CHECK:         gpu.launch
// CHECK:           arith.extf %{{.*}} : f16 to f64
// CHECK:           gpu.shuffle  xor %{{.*}} : f64
// CHECK-NOT:     gpu.launch
func.func @rms_axis_f64_acc(%x: memref<2x3x5xf16>, %g: memref<3x5xf16>, %y: memref<2x3x5xf16>) {
  norm.rms_norm ins(%x : memref<2x3x5xf16>) weight(%g : memref<3x5xf16>)
    outs(%y : memref<2x3x5xf16>) {axis = 1 : i64, acc_type = f64}
  return
}
