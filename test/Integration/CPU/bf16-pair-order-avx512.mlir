// REQUIRES: avx512bf16
// RUN: norm-opt %S/bf16-pair-order.mlir --norm-lower-to-cpu="target=avx512" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %S/bf16-pair-order.mlir
// RUN: norm-opt %S/bf16-pair-order.mlir --norm-lower-to-cpu="target=avx512 num-threads=2 vector-options={streaming-threshold=1 parallel-threshold=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %S/bf16-pair-order.mlir
// RUN: norm-opt %S/bf16-pair-order.mlir --norm-lower-to-cpu="target=avx512-bf16" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | grep -v base@ > %t.pair
// RUN: norm-opt %S/bf16-pair-order.mlir --norm-lower-to-cpu="target=avx512-bf16 num-threads=2 vector-options={streaming-threshold=1 parallel-threshold=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | grep -v base@ > %t.pair2
// RUN: norm-opt %S/bf16-pair-order.mlir --norm-lower-to-cpu="target=avx512-bf16 vector-options={bf16-pair-order=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | grep -v base@ > %t.natural
// RUN: diff %t.pair %t.natural
// RUN: diff %t.pair2 %t.natural
// RUN: FileCheck %s < %t.pair
// RUN: norm-opt %S/bf16-pair-order.mlir --convert-norm-to-vector="target=avx512-bf16" | FileCheck %s --check-prefix=KERNEL

// bf16-pair-order.mlir's rows (every bf16 β, ties, ±inf, NaNs, subnormals;
// rows of 131078 = 32·4096 + 6 elements, a masked tail each, masked
// alignment heads when streamed) on AVX-512's 32-lane pair order
// (docs/design.md, "bf16 rows in pair order"). Without AVX512-BF16 the
// integer rounding must give @expected's bits. With it, y is rounded by
// vcvtne2ps2bf16, as natural order's vcvtneps2bf16 rounds it: a NaN keeps
// its sign and payload (quieted), not @expected's 0x7FC0, and subnormal
// results flush to zero; so that kernel is compared with the natural-order
// one bit for bit (every element, through the weighted checksum), and the
// ties still go to even.

// CHECK: [17280, 17280, 17282, 17282, 17284, 17284, 17286, 17286]
// CHECK: [32640, {{.*}}]
// KERNEL: llvm.call_intrinsic "llvm.x86.avx512bf16.cvtne2ps2bf16.512"
// KERNEL: vector.maskedstore {{.*}} vector<32xi1>, vector<32xbf16>
