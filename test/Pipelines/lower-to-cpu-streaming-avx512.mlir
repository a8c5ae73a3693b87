// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=1" | FileCheck %s --check-prefix=IR
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=1" | mlir-translate --mlir-to-llvmir | opt -O3 -mcpu=znver4 | llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=ASM
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 num-threads=1" | mlir-translate --mlir-to-llvmir | opt -O3 -mcpu=znver4 | llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=ASM
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=1" | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512-bf16 num-threads=1" --mlir-disable-threading --mlir-print-ir-before=norm-x86-nontemporal-stores -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE

// Streamed bf16 rows on AVX-512 (norm-x86-nontemporal-stores): LLVM 22's
// AVX-512 back end writes a non-temporal store of 16 bf16 as a plain
// vmovaps (no AVX-512 non-temporal pattern for bf16 vectors, and
// InstCombine stores the bitcast bf16 value as bfloat again), and one of a
// truncated i16 vector (target=avx512's integer rounding) as a truncating
// vpmovdw store; either way y was written through the cache. As inline
// assembly the streamed sweeps' whole-vector stores of y are vmovntdq:
// RMSNorm, LayerNorm with a residual and its sum (the sum is not streamed).
// These rows are all-bf16, so they take 32 lanes in pair order (docs/
// design.md, "bf16 rows in pair order"): 64-byte stores of 32 bf16.

// Before the pass, the streamed stores are non-temporal i16 stores.
//      BEFORE: IR Dump Before NormX86NontemporalStoresPass
//      BEFORE: llvm.store %{{.*}} {alignment = 64 : i64, nontemporal} : vector<32xi16>, !llvm.ptr

//  IR-LABEL: llvm.func internal @__norm_kernel_0_norm_rms_norm
//        IR: llvm.inline_asm has_side_effects asm_dialect = att "vmovntdq $0, ($1)", "x,r,~{memory}" %{{.*}}, %{{.*}} : (vector<32xi16>, !llvm.ptr) -> ()
//    IR-NOT: nontemporal
//        IR: llvm.call_intrinsic "llvm.x86.sse.sfence"
//  IR-LABEL: llvm.func internal @__norm_kernel_1_norm_layer_norm
//        IR: llvm.inline_asm has_side_effects asm_dialect = att "vmovntdq $0, ($1)"
//    IR-NOT: nontemporal
//        IR: llvm.call_intrinsic "llvm.x86.sse.sfence"
// f32 rows keep LLVM's own non-temporal stores (vmovntps).
//  IR-LABEL: llvm.func internal @__norm_kernel_2_norm_rms_norm
//    IR-NOT: llvm.inline_asm
//        IR: llvm.store %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
//    IR-NOT: llvm.inline_asm
//        IR: llvm.call_intrinsic "llvm.x86.sse.sfence"

// The machine code: bf16 y streamed with vmovntdq of 32 bf16, f32 y with
// vmovntps.
// ASM-LABEL: __norm_kernel_0_norm_rms_norm:
//       ASM: vmovntdq %zmm{{[0-9]+}}, (%r{{[a-z0-9]+}})
//       ASM: sfence
// ASM-LABEL: __norm_kernel_1_norm_layer_norm:
//       ASM: vmovntdq %zmm{{[0-9]+}}, (%r{{[a-z0-9]+}})
//       ASM: sfence
// ASM-LABEL: __norm_kernel_2_norm_rms_norm:
//   ASM-NOT: vmovntdq
//       ASM: vmovntps %zmm
//   ASM-NOT: vmovntdq
//       ASM: sfence

// Negative: AVX2 keeps the hint itself (it has the patterns); no pass, no
// inline assembly.
//  AVX2-NOT: llvm.inline_asm
//      AVX2: llvm.store %{{.*}} {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
//  AVX2-NOT: llvm.inline_asm

func.func @rms_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}

func.func @ln_bf16_residual(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>) weight(%g : memref<?xbf16>) bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
  return
}

func.func @rms_f32(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
  return
}
