// REQUIRES: avx512bf16
// RUN: norm-opt %S/quantized-encode-i8.mlir --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avx512
// RUN: norm-opt %S/quantized-encode-i8.mlir --norm-lower-to-cpu="target=avx512 vector-options={bf16-pair-order=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.natural
// RUN: norm-opt %S/quantized-encode-i8.mlir --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.upstream
// RUN: grep -v base@ %t.avx512 > %t.avx512.data
// RUN: grep -v base@ %t.natural > %t.natural.data
// RUN: grep -v base@ %t.upstream > %t.upstream.data
// RUN: diff %t.avx512.data %t.upstream.data
// RUN: diff %t.natural.data %t.upstream.data
// RUN: FileCheck %S/quantized-encode-i8.mlir < %t.avx512
// RUN: norm-opt %S/quantized-encode-i8.mlir --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=KERNEL
// RUN: norm-opt %S/quantized-encode-i8.mlir --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 bf16-pair-order=false" | FileCheck %s --check-prefix=NATURAL

// quantized-encode-i8.mlir's i8 bytes (every tie and saturation bound, ±inf,
// NaNs; its second function every bf16 γ) from the row kernel built for
// 512-bit registers. On the bf16 rows the kernel is in pair order by default
// (32 lanes: the even elements, then the odd ones): vcvtps2dq per zmm, one
// vpackssdw of the two halves, a word shuffle to element order (vpshufb)
// and the signed saturation to bytes (vpmovswb); with
// bf16-pair-order=false, 16 lanes and vpmovsdb. Both must give the
// decomposition's bytes (diff). The f32 rows keep 16 lanes.

// KERNEL-LABEL: func.func @quantize_all
//   KERNEL-NOT: llvm.x86.avx512.packssdw.512
//       KERNEL: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// KERNEL-LABEL: func.func @quantize_all_bf16
//       KERNEL: vector.load %{{.*}} : memref<65536xbf16>, vector<32xbf16>
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
//       KERNEL: llvm.call_intrinsic "llvm.x86.avx512.mask.pmovs.wb.512"
//       KERNEL: vector.store %{{.*}} : memref<1x65536xi8>, vector<32xi8>

// NATURAL-LABEL: func.func @quantize_all_bf16
//   NATURAL-NOT: llvm.x86.avx512.packssdw.512
//       NATURAL: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
//       NATURAL: vector.store %{{.*}} : memref<1x65536xi8>, vector<16xi8>
