// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx2
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.generic
// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.host
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.avx2 > %t.avx2.data
// RUN: grep -v base@ %t.generic > %t.generic.data
// RUN: grep -v base@ %t.host > %t.host.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.avx2.data %t.upstream.data
// RUN: diff %t.generic.data %t.upstream.data
// RUN: diff %t.host.data %t.upstream.data
// RUN: FileCheck %s < %t.avx2
// RUN: norm-opt %s --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=KERNEL

// The row kernel's fp8 bytes on 16-bit rows, where AVX2 takes 16 lanes (two
// 256-bit registers, encoded by QuantizedRow.cpp's quantizeFloat8ByMadd:
// one FMA, vpmaddwd, the signed packs and a vpshufb; the generic target
// and f32 rows on AVX2, 8 lanes, keep the truncation of quantizeFloat8): y = γ exactly (x all ones, ε below an ulp of 1, so 1/σ =
// 1) with a static scale of 1, and γ every one of the 65536 bf16 values (every exponent, the E4M3 and E5M2
// rounding boundaries that bf16's 7 mantissa bits hold, saturation, ±0,
// ±inf, NaNs), lane i holding bits (i · 40503) mod 2^16 (odd: each value
// once) so that neighbouring lanes' codes differ and a byte moved to the
// wrong lane shows (a byte gather by vpshufb was tried and dropped,
// docs/performance.md; this test caught a mutant of it). The kernel's
// bytes, on AVX2 and on the generic target, must equal the decomposition's
// (diff). Then the same with a scale of 3: t = γ · f32(1/3) has all 24
// bits of an f32 mantissa, so the roundings see bits below bf16's (the
// sticky bits past a tie). The host's kernel too (its 512-bit form where
// the host has AVX-512; quantized-encode-bf16-avx512.mlir runs that form
// built for target=avx512 and avx512-bf16).

// KERNEL-LABEL: func.func @quantize_all
//       KERNEL: math.fma
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx2.pshuf.b"
//   KERNEL-NOT: arith.trunci
//       KERNEL: vector.store %{{.*}} : memref<1x65536xf8E4M3FN>, vector<16xf8E4M3FN>

// CHECK-COUNT-4: rank = 1 offset = 0 sizes = [65536] strides = [1] data =

func.func private @printMemrefI32(memref<*xi32>)

func.func @quantize_all(%g: memref<65536xbf16>, %q: memref<1x65536xf8E4M3FN>, %r: memref<1x65536xf8E5M2>, %s: f32) {
  %onebf = arith.constant 1.0 : bf16
  %x = memref.alloc() : memref<1x65536xbf16>
  linalg.fill ins(%onebf : bf16) outs(%x : memref<1x65536xbf16>)
  norm.rms_norm ins(%x : memref<1x65536xbf16>) weight(%g : memref<65536xbf16>) scale(%s : f32)
    outs(%q : memref<1x65536xf8E4M3FN>) {epsilon = 1.0e-30 : f32}
  norm.rms_norm ins(%x : memref<1x65536xbf16>) weight(%g : memref<65536xbf16>) scale(%s : f32)
    outs(%r : memref<1x65536xf8E5M2>) {epsilon = 1.0e-30 : f32}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %mult = arith.constant 40503 : i32
  %g = memref.alloc() : memref<65536xbf16>
  scf.for %i = %c0 to %n step %c1 {
    %w = arith.index_cast %i : index to i32
    %m = arith.muli %w, %mult : i32
    %h = arith.trunci %m : i32 to i16
    %v = arith.bitcast %h : i16 to bf16
    memref.store %v, %g[%i] : memref<65536xbf16>
  }
  %q = memref.alloc() : memref<1x65536xf8E4M3FN>
  %r = memref.alloc() : memref<1x65536xf8E5M2>
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  func.call @quantize_all(%g, %q, %r, %one) : (memref<65536xbf16>, memref<1x65536xf8E4M3FN>, memref<1x65536xf8E5M2>, f32) -> ()
  func.call @print_codes(%q, %r) : (memref<1x65536xf8E4M3FN>, memref<1x65536xf8E5M2>) -> ()
  func.call @quantize_all(%g, %q, %r, %three) : (memref<65536xbf16>, memref<1x65536xf8E4M3FN>, memref<1x65536xf8E5M2>, f32) -> ()
  func.call @print_codes(%q, %r) : (memref<1x65536xf8E4M3FN>, memref<1x65536xf8E5M2>) -> ()
  return
}

func.func @print_codes(%q: memref<1x65536xf8E4M3FN>, %r: memref<1x65536xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %out = memref.alloc() : memref<65536xi32>
  %out_u = memref.cast %out : memref<65536xi32> to memref<*xi32>
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %q[%c0, %i] : memref<1x65536xf8E4M3FN>
    %byte = arith.bitcast %b : f8E4M3FN to i8
    %w = arith.extui %byte : i8 to i32
    memref.store %w, %out[%i] : memref<65536xi32>
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %r[%c0, %i] : memref<1x65536xf8E5M2>
    %byte = arith.bitcast %b : f8E5M2 to i8
    %w = arith.extui %byte : i8 to i32
    memref.store %w, %out[%i] : memref<65536xi32>
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
