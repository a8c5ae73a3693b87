// REQUIRES: avx512bf16
// RUN: norm-opt %S/quantized-encode-bf16.mlir --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx512
// RUN: norm-opt %S/quantized-encode-bf16.mlir --norm-lower-to-cpu="target=avx512-bf16" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx512bf16
// RUN: norm-opt %S/quantized-encode-bf16.mlir --norm-lower-to-cpu="target=avx512-bf16 vector-options={bf16-pair-order=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.natural
// RUN: norm-opt %S/quantized-encode-bf16.mlir --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.avx512 > %t.avx512.data
// RUN: grep -v base@ %t.avx512bf16 > %t.avx512bf16.data
// RUN: grep -v base@ %t.natural > %t.natural.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.avx512.data %t.upstream.data
// RUN: diff %t.avx512bf16.data %t.upstream.data
// RUN: diff %t.natural.data %t.upstream.data
// RUN: FileCheck %S/quantized-encode-bf16.mlir < %t.avx512
// RUN: norm-opt %S/quantized-encode-bf16.mlir --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=KERNEL
// RUN: norm-opt %S/quantized-encode-bf16.mlir --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 bf16-pair-order=false" | FileCheck %s --check-prefix=NATURAL

// quantized-encode-bf16.mlir's fp8 bytes (every bf16 γ, scaled by 1 and by
// 3, E4M3 and E5M2) from the row kernel built for 512-bit registers, where
// QuantizedRow.cpp's quantizeFloat8ByMadd encodes zmm of 16 f32 lanes: one
// FMA, a 512-bit vpmaddwd, the code's byte and t's sign byte gathered by
// byte shuffles (vpermt2b). By default the bf16 rows are in pair order (32
// lanes, two zmm: the even elements, then the odd ones), and the gather
// takes each element's bytes from its lane; with bf16-pair-order=false, 16
// lanes in natural order. Both must give the decomposition's bytes (diff), with
// and without native bf16 conversions. Lane i holds γ bits (i · 40503) mod
// 2^16, so neighbouring lanes' codes differ and a byte in the wrong place
// shows. Code built for AVX-512 runs only where the host has it
// (mlir-runner compiles for the host CPU).

// KERNEL-LABEL: func.func @quantize_all
//       KERNEL: vector.load %{{.*}} : memref<65536xbf16>, vector<32xbf16>
//       KERNEL: math.fma
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL: vector.shuffle %{{.*}} [1, 65, 5, 69, {{.*}}] : vector<128xi8>, vector<128xi8>
//       KERNEL: arith.ori %{{.*}}, %{{.*}} : vector<32xi8>
//       KERNEL: vector.store %{{.*}} : memref<1x65536xf8E4M3FN>, vector<32xf8E4M3FN>
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       KERNEL: vector.store %{{.*}} : memref<1x65536xf8E5M2>, vector<32xf8E5M2>

// NATURAL-LABEL: func.func @quantize_all
//   NATURAL-NOT: vector<32xbf16>
//       NATURAL: math.fma
//       NATURAL: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       NATURAL: vector.shuffle %{{.*}} [1, 5, 9, 13, {{.*}}] : vector<64xi8>, vector<64xi8>
//       NATURAL: arith.ori %{{.*}}, %{{.*}} : vector<16xi8>
//       NATURAL: vector.store %{{.*}} : memref<1x65536xf8E4M3FN>, vector<16xf8E4M3FN>
