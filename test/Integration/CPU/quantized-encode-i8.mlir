// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.vector
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.vector > %t.vector.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.vector.data %t.upstream.data
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.generic
// RUN: grep -v base@ %t.generic > %t.generic.data
// RUN: diff %t.generic.data %t.upstream.data
// RUN: FileCheck %s < %t.vector
// RUN: norm-opt %s --norm-lower-to-cpu --mlir-print-ir-after=norm-decompose -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL

// The row kernel's i8 rounding (QuantizedRow.cpp, quantizeInt8: its clamps
// are selects; on x86, the host target, vcvtps2dq after one clamp, the
// third RUN's target=generic keeps math.roundeven) gives the
// decomposition's byte (createQuantize: maxnumf / minnumf) for every value near a rounding or saturation decision: y = γ
// exactly (x all ones, ε below an ulp of 1, so 1/σ = 1) with a static
// scale of 1, and γ every f32 whose top 16 bits (sign, exponent, 7
// mantissa bits) take each of their 65536 values and whose low 16 bits
// are 0, 1, 0x8000 or 0xFFFF: every tie k + 0.5 (|k| ≤ 128) and its
// neighbours one ulp away, the saturation bounds -128.5, -128, 127, 127.5
// and beyond, ±0, ±inf and NaNs of both signs (a NaN is undefined in i8,
// DESIGN.md §8, but both paths write -128). The two pipelines' bytes must
// be equal (diff); the first is the kernel's (no norm op and none of
// createQuantize's clamps are left for norm-decompose). Then the same with
// bf16 x and γ, γ every bf16: 16-bit rows take 16 lanes on AVX2, which the
// kernel converts as two 8-lane vcvtps2dq.

// KERNEL: IR Dump After NormDecomposePass
// KERNEL-NOT: norm.rms_norm
// KERNEL-NOT: arith.maxnumf

// CHECK: rank = 1 offset = 0 sizes = [262144] strides = [1] data =
// CHECK: rank = 1 offset = 0 sizes = [65536] strides = [1] data =

func.func private @printMemrefI32(memref<*xi32>)

func.func @quantize_all(%g: memref<262144xf32>, %q: memref<1x262144xi8>) {
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<1x262144xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1x262144xf32>)
  norm.rms_norm ins(%x : memref<1x262144xf32>) weight(%g : memref<262144xf32>) scale(%one : f32)
    outs(%q : memref<1x262144xi8>) {epsilon = 1.0e-30 : f32}
  return
}

func.func @quantize_all_bf16(%g: memref<65536xbf16>, %q: memref<1x65536xi8>) {
  %one = arith.constant 1.0 : f32
  %onebf = arith.constant 1.0 : bf16
  %x = memref.alloc() : memref<1x65536xbf16>
  linalg.fill ins(%onebf : bf16) outs(%x : memref<1x65536xbf16>)
  norm.rms_norm ins(%x : memref<1x65536xbf16>) weight(%g : memref<65536xbf16>) scale(%one : f32)
    outs(%q : memref<1x65536xi8>) {epsilon = 1.0e-30 : f32}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 262144 : index
  %c16 = arith.constant 16 : i32
  %lows = arith.constant dense<[0, 1, 32768, 65535]> : tensor<4xi32>
  %g = memref.alloc() : memref<262144xf32>
  scf.for %i = %c0 to %n step %c1 {
    %h = arith.divui %i, %c4 : index
    %k = arith.remui %i, %c4 : index
    %low = tensor.extract %lows[%k] : tensor<4xi32>
    %hi = arith.index_cast %h : index to i32
    %top = arith.shli %hi, %c16 : i32
    %bits = arith.ori %top, %low : i32
    %v = arith.bitcast %bits : i32 to f32
    memref.store %v, %g[%i] : memref<262144xf32>
  }
  %q = memref.alloc() : memref<1x262144xi8>
  func.call @quantize_all(%g, %q) : (memref<262144xf32>, memref<1x262144xi8>) -> ()
  %out = memref.alloc() : memref<262144xi32>
  %out_u = memref.cast %out : memref<262144xi32> to memref<*xi32>
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %q[%c0, %i] : memref<1x262144xi8>
    %w = arith.extsi %b : i8 to i32
    memref.store %w, %out[%i] : memref<262144xi32>
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()

  %m = arith.constant 65536 : index
  %gb = memref.alloc() : memref<65536xbf16>
  scf.for %i = %c0 to %m step %c1 {
    %w = arith.index_cast %i : index to i16
    %v = arith.bitcast %w : i16 to bf16
    memref.store %v, %gb[%i] : memref<65536xbf16>
  }
  %qb = memref.alloc() : memref<1x65536xi8>
  func.call @quantize_all_bf16(%gb, %qb) : (memref<65536xbf16>, memref<1x65536xi8>) -> ()
  %outb = memref.alloc() : memref<65536xi32>
  %outb_u = memref.cast %outb : memref<65536xi32> to memref<*xi32>
  scf.for %i = %c0 to %m step %c1 {
    %b = memref.load %qb[%c0, %i] : memref<1x65536xi8>
    %w = arith.extsi %b : i8 to i32
    memref.store %w, %outb[%i] : memref<65536xi32>
  }
  func.call @printMemrefI32(%outb_u) : (memref<*xi32>) -> ()
  return
}
