// REQUIRES: avx512bf16
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx512
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx512 num-threads=2 vector-options={parallel-threshold=0 streaming-threshold=1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.stream
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.avx512 > %t.avx512.data
// RUN: grep -v base@ %t.stream > %t.stream.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.avx512.data %t.upstream.data
// RUN: diff %t.stream.data %t.upstream.data
// RUN: FileCheck %s < %t.avx512
// RUN: norm-opt %s --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=KERNEL

// The 512-bit fp8 encoding's byte gather (QuantizedRow.cpp,
// quantizeFloat8ByMadd: byte 1 of vpmaddwd's 256 · code and byte 3 of t,
// merged) on f32 rows of 16 lanes, natural order, with a masked tail and a
// streaming head: y = γ exactly (x all ones, ε below an ulp of 1, static
// scale 1), γ taken from the 24576 values of quantized-encode.mlir (every
// f8E4M3FN and f8E5M2 rounding boundary, normal and subnormal, its
// neighbours, exact values, saturation at ±448 / ±57344, ±0, ±inf, NaNs of
// both signs) in a scattered order (element i takes value (7919 · i) mod
// 24576), so that tails and heads hold boundaries too: one row of 24573
// (a tail of 13) and 3 rows of 8191 (rows starting off the 64-byte
// alignment: a head, a tail). Each byte must equal the decomposition's
// (diff), on one thread and on two with streaming stores (a head a row).

// KERNEL-LABEL: func.func @quantize_rows
//       KERNEL:   llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL:   %[[TB:.*]] = vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
//       KERNEL:   %[[SB:.*]] = vector.shuffle %[[TB]], %[[TB]] [3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63] : vector<64xi8>, vector<64xi8>
//       KERNEL:   %[[SIGN:.*]] = arith.andi %[[SB]], %{{.*}} : vector<16xi8>
//       KERNEL:   %[[CB:.*]] = vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
//       KERNEL:   %[[C:.*]] = vector.shuffle %[[CB]], %[[CB]] [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61] : vector<64xi8>, vector<64xi8>
//       KERNEL:   arith.ori %[[C]], %[[SIGN]] : vector<16xi8>
//       KERNEL:   vector.maskedstore {{.*}} vector<16xf8E4M3FN>
//       KERNEL:   llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL:   vector.maskedstore {{.*}} vector<16xf8E5M2>
//   KERNEL-NOT:   arith.trunci {{.*}} to vector<16xi8>

// CHECK-COUNT-4: rank = 1 offset = 0 sizes = [24573] strides = [1] data =

func.func private @printMemrefI32(memref<*xi32>)

func.func @quantize_rows(%x: memref<?x?xf32>, %g: memref<?xf32>, %q: memref<?x?xf8E4M3FN>, %r: memref<?x?xf8E5M2>) {
  %one = arith.constant 1.0 : f32
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) scale(%one : f32)
    outs(%q : memref<?x?xf8E4M3FN>) {epsilon = 1.0e-30 : f32}
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) scale(%one : f32)
    outs(%r : memref<?x?xf8E5M2>) {epsilon = 1.0e-30 : f32}
  return
}

// The bytes of rows × cols (rows · cols = 24573) with γ the first cols
// scattered values, printed as i32.
func.func @run(%rows: index, %cols: index, %vals: memref<24576xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %g = memref.alloc(%cols) : memref<?xf32>
  scf.for %i = %c0 to %cols step %c1 {
    %v = memref.load %vals[%i] : memref<24576xf32>
    memref.store %v, %g[%i] : memref<?xf32>
  }
  %x = memref.alloc(%rows, %cols) : memref<?x?xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<?x?xf32>)
  %q = memref.alloc(%rows, %cols) : memref<?x?xf8E4M3FN>
  %r = memref.alloc(%rows, %cols) : memref<?x?xf8E5M2>
  func.call @quantize_rows(%x, %g, %q, %r) : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>) -> ()
  %out = memref.alloc() : memref<24573xi32>
  %out_u = memref.cast %out : memref<24573xi32> to memref<*xi32>
  scf.for %a = %c0 to %rows step %c1 {
    scf.for %b = %c0 to %cols step %c1 {
      %e = memref.load %q[%a, %b] : memref<?x?xf8E4M3FN>
      %byte = arith.bitcast %e : f8E4M3FN to i8
      %w = arith.extui %byte : i8 to i32
      %base = arith.muli %a, %cols : index
      %i = arith.addi %base, %b : index
      memref.store %w, %out[%i] : memref<24573xi32>
    }
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  scf.for %a = %c0 to %rows step %c1 {
    scf.for %b = %c0 to %cols step %c1 {
      %e = memref.load %r[%a, %b] : memref<?x?xf8E5M2>
      %byte = arith.bitcast %e : f8E5M2 to i8
      %w = arith.extui %byte : i8 to i32
      %base = arith.muli %a, %cols : index
      %i = arith.addi %base, %b : index
      memref.store %w, %out[%i] : memref<24573xi32>
    }
  }
  func.call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7919 = arith.constant 7919 : index
  %n = arith.constant 24576 : index
  %c8191 = arith.constant 8191 : index
  %c24573 = arith.constant 24573 : index
  %c20 = arith.constant 20 : i32
  %lows = arith.constant dense<[0, 1, 524287, 524288, 524289, 1048575]> : tensor<6xi32>
  %vals = memref.alloc() : memref<24576xf32>
  scf.for %i = %c0 to %n step %c1 {
    %p = arith.muli %i, %c7919 : index
    %j = arith.remui %p, %n : index
    %h = arith.divui %j, %c6 : index
    %k = arith.remui %j, %c6 : index
    %low = tensor.extract %lows[%k] : tensor<6xi32>
    %hi = arith.index_cast %h : index to i32
    %top = arith.shli %hi, %c20 : i32
    %bits = arith.ori %top, %low : i32
    %v = arith.bitcast %bits : i32 to f32
    memref.store %v, %vals[%i] : memref<24576xf32>
  }
  func.call @run(%c1, %c24573, %vals) : (index, index, memref<24576xf32>) -> ()
  func.call @run(%c3, %c8191, %vals) : (index, index, memref<24576xf32>) -> ()
  return
}
