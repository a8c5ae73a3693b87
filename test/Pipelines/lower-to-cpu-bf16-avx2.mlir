// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | FileCheck %s --check-prefix=IR
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-translate --mlir-to-llvmir | opt -O3 -mcpu=znver3 | llc -O3 -mcpu=znver3 | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-translate --mlir-to-llvmir | opt -O3 -mcpu=znver3 | llc -O3 -mcpu=znver3 | FileCheck %s --check-prefix=NOBLEND
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" --mlir-disable-threading --mlir-print-ir-before=norm-bf16-memory-as-i16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE

// The bf16 kernels' machine code on AVX2 (no bf16 instructions; Zen 3),
// forward and backward, rows of any length (masked tails): arith-expand
// rounds f32 to bf16 with integer vector ops, and norm-bf16-memory-as-i16
// loads and stores the bits as i16, so that LLVM keeps the rounding in
// vector registers (its NaN select was eight vucomiss/cmov/movw per vector
// when stored as <8 x bfloat>) and a masked tail calls no __truncsfbf2.

// Before the pass the LLVM dialect accesses bf16 (what the pass is for).
//      BEFORE: IR Dump Before NormBF16MemoryAsI16Pass
//      BEFORE: llvm.intr.masked.store %{{.*}} : vector<16xbf16>, vector<16xi1> into !llvm.ptr

// After the pipeline, no bf16 memory access is left.
//  IR-LABEL: llvm.func @rms
//    IR-NOT: -> vector<8xbf16>
//    IR-NOT: : vector<8xbf16>, !llvm.ptr
//    IR-NOT: : vector<8xbf16>, vector<8xi1> into
//        IR: llvm.intr.masked.store %{{.*}} : vector<16xi16>, vector<16xi1> into !llvm.ptr

// The NaN case is chosen among f32 lanes (norm-expand-bf16-truncation): a
// vblendvps, no byte blend of a narrowed mask anywhere (NOBLEND).
// NOBLEND-NOT: vpblendvb
// The RMSNorm and LayerNorm rows take 16 lanes in pair order (docs/
// design.md, "bf16 rows in pair order"): x, γ and β widen with a vpslld
// (even elements) and a vpblendw with zero (odd ones), and y's two f32
// registers of rounded bits blend into one of bf16 with a vpsrld and a
// vpblendw: no vpmovzxwd, no pack, no lane-crossing vpermq (the gradient
// keeps natural order and packs).
// CHECK-NOT: __truncsfbf2
// CHECK-NOT: __extendbfsf2
// CHECK-LABEL: rms:
// CHECK-NOT: vpermq
// CHECK-NOT: vpackusdw
// CHECK-NOT: vpmovzxwd
// CHECK: vblendvps
// CHECK: vpsrld $16, %ymm[[R:[0-9]+]], %ymm[[R]]
// CHECK-NEXT: vpblendw $170, %ymm{{[0-9]+}}, %ymm[[R]], %ymm
// CHECK-NOT: vpermq
// CHECK-NOT: vpackusdw
// CHECK-NOT: vpmovzxwd
// CHECK-LABEL: ln:
// CHECK-NOT: vpermq
// CHECK-NOT: vpackusdw
// CHECK: vpblendw $170, %ymm
// CHECK-NOT: vpermq
// CHECK-NOT: vpackusdw
// The gradient's sweeps take 16 lanes in natural order (dx packed).
// CHECK-LABEL: grad:
// CHECK: vpackusdw %ymm
// CHECK: vpermq $216
// CHECK-NOT: __truncsfbf2
// CHECK-NOT: __extendbfsf2

func.func @rms(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      outs(%y : memref<?x?xbf16>) {epsilon = 1.0e-05 : f32}
  return
}

func.func @ln(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %b: memref<?xbf16>, %y: memref<?x?xbf16>) {
  norm.layer_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>)
      bias(%b : memref<?xbf16>) outs(%y : memref<?x?xbf16>)
  return
}

func.func @grad(%dy: memref<?x?xbf16>, %x: memref<?x?xbf16>, %g: memref<?xbf16>,
                %dx: memref<?x?xbf16>, %dg: memref<?xf32>) {
  norm.rms_norm_grad grad(%dy : memref<?x?xbf16>) ins(%x : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) outs(%dx : memref<?x?xbf16>)
      weight_grad_outs(%dg : memref<?xf32>)
  return
}
