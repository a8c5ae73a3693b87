// The fused GEMM's micro-kernel on AVX512-BF16 dot products: bf16 A and W
// (RMSNorm or no norm) on a target with AVX512-BF16 pack k-pairs and run
// x86vector.avx512.dot; LayerNorm, f32, targets without AVX512-BF16 and
// gemm-bf16-dot=false keep the f32 FMA micro-kernel.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 parallel-threshold=-1 streaming-threshold=-1 gemm-gemv-rows=-1" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 gemm-bf16-dot=false gemm-gemv-rows=-1" | FileCheck %s --check-prefix=OFF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 gemm-gemv-rows=-1" | FileCheck %s --check-prefix=OFF
// The whole CPU pipeline turns the dot into the AVX512-BF16 intrinsic:
// RUN: norm-opt %s --split-input-file --norm-lower-to-cpu="target=avx512-bf16" | FileCheck %s --check-prefix=LLVM

// OFF-NOT: x86vector.avx512.dot

// W as K×N: Ã holds round(x·γ') (an f32 multiply, rounded once to bf16);
// W's rows k and k+1 are interleaved into pairs as they are (no multiply:
// B̃ is the plain matmul's); per pair step, each row's pair of Ã is
// broadcast as one 32-bit word.
// CHECK-LABEL: func.func @rms_matmul
// CHECK:         %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xbf16>
// CHECK:         scf.parallel
// CHECK:           arith.mulf {{.*}} : vector<16xf32>
// CHECK:           x86vector.avx512.cvt.packed.f32_to_bf16
// CHECK:           vector.store {{.*}}, %[[A]]
// CHECK:         scf.parallel
// CHECK:           memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xbf16>
// CHECK-NOT:       arith.mulf
// CHECK:           vector.interleave {{.*}} : vector<16xbf16> -> vector<32xbf16>
// CHECK:         vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK:         vector.broadcast {{.*}} : i32 to vector<16xi32>
// CHECK:         vector.bitcast {{.*}} : vector<16xi32> to vector<32xbf16>
// CHECK:         x86vector.avx512.dot {{.*}} : vector<32xbf16> -> vector<16xf32>
// LLVM-LABEL:  llvm.func @rms_matmul
// LLVM:          llvm.x86.avx512bf16.dpbf16ps.512
func.func @rms_matmul(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>,
                      %w: memref<4096x512xbf16>, %c: memref<?x512xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
      rhs(%w : memref<4096x512xbf16>) outs(%c : memref<?x512xbf16>)
  return
}

// -----

// W as N×K: 16 rows × 32 k's read as 16×16 words and transposed (a row's
// k-pairs are adjacent); no γ: nothing is multiplied or converted.
// CHECK-LABEL: func.func @plain_rms_matmul_t
// CHECK-NOT:     arith.mulf {{.*}} : vector<16xf32>
// CHECK:         vector.bitcast {{.*}} : vector<32xbf16> to vector<16xi32>
// CHECK:         vector.transpose {{.*}} : vector<16x16xi32> to vector<16x16xi32>
// CHECK:         x86vector.avx512.dot
// LLVM-LABEL:  llvm.func @plain_rms_matmul_t
// LLVM:          llvm.x86.avx512bf16.dpbf16ps.512
func.func @plain_rms_matmul_t(%x: memref<?x1000xbf16>, %w: memref<300x1000xbf16>,
                              %c: memref<?x300xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x1000xbf16>) rhs(%w : memref<300x1000xbf16>)
      outs(%c : memref<?x300xbf16>) {transpose_rhs}
  return
}

// -----

// matmul → norm: the plain GEMM of A and W runs on dot products.
// CHECK-LABEL: func.func @matmul_rms
// CHECK:         x86vector.avx512.dot
func.func @matmul_rms(%a: memref<?x256xbf16>, %w: memref<256x64xbf16>,
                      %y: memref<?x64xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x256xbf16>) rhs(%w : memref<256x64xbf16>)
      outs(%y : memref<?x64xbf16>)
  return
}

// -----

// LayerNorm runs on dot products too: Ã holds round((x − p)·γ') (here γ'
// = 1: round(x − p)), B̃ W as it is, and c = Σ_k W_k· (γ' = 1) is summed in
// f32 from W beside the pair packing (FMAs into the chunk's column sums).
// f32 keeps the FMA micro-kernel.
// CHECK-LABEL: func.func @ln_matmul
// CHECK:         scf.parallel
// CHECK:           arith.subf {{.*}} : vector<16xf32>
// CHECK:           x86vector.avx512.cvt.packed.f32_to_bf16
// CHECK:         scf.parallel
// CHECK:           vector.interleave
// CHECK:           scf.for
// CHECK:             vector.fma
// CHECK:             vector.store
// CHECK:           x86vector.avx512.dot
// CHECK-LABEL: func.func @rms_matmul_f32
// CHECK-NOT:     x86vector.avx512.dot
// CHECK:         vector.fma
// CHECK-NOT:     x86vector.avx512.dot
func.func @ln_matmul(%x: memref<?x256xbf16>, %w: memref<256x64xbf16>,
                     %c: memref<?x64xbf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x256xbf16>) rhs(%w : memref<256x64xbf16>)
      outs(%c : memref<?x64xbf16>)
  return
}
func.func @rms_matmul_f32(%x: memref<?x256xf32>, %w: memref<256x64xf32>,
                          %c: memref<?x64xf32>) {
  norm.rms_norm_matmul ins(%x : memref<?x256xf32>) rhs(%w : memref<256x64xf32>)
      outs(%c : memref<?x64xf32>)
  return
}
