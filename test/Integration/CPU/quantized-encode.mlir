// RUN: norm-opt %s --norm-lower-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.vector
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx2
// RUN: grep -v base@ %t.avx2 > %t.avx2.data
// RUN: grep -v base@ %t.vector > %t.vector.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.vector.data %t.upstream.data
// RUN: diff %t.avx2.data %t.upstream.data
// RUN: FileCheck %s < %t.vector
// RUN: norm-opt %s --norm-lower-to-cpu --mlir-print-ir-after=norm-decompose -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL

// The row kernel's fp8 rounding (QuantizedRow.cpp, quantizeFloat8) gives
// the decomposition's byte (createQuantize) for every value near a
// rounding decision: y = γ exactly (x all ones, ε below an ulp of 1, so
// 1/σ = 1) with a static scale of 1, and γ every f32 whose top 12 bits
// (sign, exponent, 3 mantissa bits) take each of their 4096 values and
// whose low 20 bits are 0, 1, 0x7FFFF, 0x80000, 0x80001 or 0xFFFFF: each
// f8E4M3FN and f8E5M2 rounding boundary (normal and subnormal) and its
// neighbours one ulp away, exact values, saturation, ±0, ±inf and NaNs of
// both signs. The two pipelines' bytes must be equal (diff); the first is
// the kernel's (no norm op and none of createQuantize's clamps are left
// for norm-decompose). The first is built for the host: on an AVX-512
// host, 16 f32 lanes in one zmm, quantizeFloat8ByMadd's 512-bit form. The
// kernel built for AVX2 whatever the host (8 f32 lanes: the truncation)
// must give the same bytes too; quantized-encode-bf16.mlir covers AVX2's
// 16 lanes.

// KERNEL: IR Dump After NormDecomposePass
// KERNEL-NOT: norm.rms_norm
// KERNEL-NOT: arith.minimumf

// CHECK-COUNT-2: rank = 1 offset = 0 sizes = [24576] strides = [1] data =

func.func private @printMemrefI32(memref<*xi32>)

func.func @quantize_all(%g: memref<24576xf32>, %q: memref<1x24576xf8E4M3FN>, %r: memref<1x24576xf8E5M2>) {
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<1x24576xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<1x24576xf32>)
  norm.rms_norm ins(%x : memref<1x24576xf32>) weight(%g : memref<24576xf32>) scale(%one : f32)
    outs(%q : memref<1x24576xf8E4M3FN>) {epsilon = 1.0e-30 : f32}
  norm.rms_norm ins(%x : memref<1x24576xf32>) weight(%g : memref<24576xf32>) scale(%one : f32)
    outs(%r : memref<1x24576xf8E5M2>) {epsilon = 1.0e-30 : f32}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %n = arith.constant 24576 : index
  %c20 = arith.constant 20 : i32
  %lows = arith.constant dense<[0, 1, 524287, 524288, 524289, 1048575]> : tensor<6xi32>
  %g = memref.alloc() : memref<24576xf32>
  scf.for %i = %c0 to %n step %c1 {
    %h = arith.divui %i, %c6 : index
    %k = arith.remui %i, %c6 : index
    %low = tensor.extract %lows[%k] : tensor<6xi32>
    %hi = arith.index_cast %h : index to i32
    %top = arith.shli %hi, %c20 : i32
    %bits = arith.ori %top, %low : i32
    %v = arith.bitcast %bits : i32 to f32
    memref.store %v, %g[%i] : memref<24576xf32>
  }
  %q = memref.alloc() : memref<1x24576xf8E4M3FN>
  %r = memref.alloc() : memref<1x24576xf8E5M2>
  func.call @quantize_all(%g, %q, %r) : (memref<24576xf32>, memref<1x24576xf8E4M3FN>, memref<1x24576xf8E5M2>) -> ()
  %out = memref.alloc() : memref<24576xi32>
  %out_u = memref.cast %out : memref<24576xi32> to memref<*xi32>
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %q[%c0, %i] : memref<1x24576xf8E4M3FN>
    %byte = arith.bitcast %b : f8E4M3FN to i8
    %w = arith.extui %byte : i8 to i32
    memref.store %w, %out[%i] : memref<24576xi32>
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %r[%c0, %i] : memref<1x24576xf8E5M2>
    %byte = arith.bitcast %b : f8E5M2 to i8
    %w = arith.extui %byte : i8 to i32
    memref.store %w, %out[%i] : memref<24576xi32>
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
