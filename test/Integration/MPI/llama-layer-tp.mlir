// REQUIRES: mpi
// RUN: norm-opt %norm_src_root/examples/llama-layer-tp.mlir \
// RUN:     --norm-lower-to-cpu=num-threads=1 \
// RUN:   | sed -e 's/^module attributes {mpi.dlti = .*} {$/module {/' > %t.mlir
// RUN: %mpirun mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%libmpich \
// RUN:   | FileCheck %s
// RUN: norm-opt %norm_src_root/examples/llama-layer-tp.mlir --norm-partition-shards \
// RUN:   | FileCheck %s --check-prefix=PARTITION

// The Megatron-style Llama layer of examples/ on 2 processes against the
// same layer on one (examples/llama-layer-tp.mlir): both processes print
// [1], max relative difference ≤ 1e-6. And what moves: two all-reduces of
// 8×64 f32 per layer (o and down), the weights sliced locally, the norms
// whole on each process.

// CHECK-COUNT-2: [1]
// CHECK-NOT: [0]

// PARTITION-LABEL: func.func @llama_layer_tp
// PARTITION-COUNT-7: shard.all_slice
// PARTITION: norm.rms_norm ins(%{{.*}} : tensor<8x64xf32>)
// PARTITION: shard.all_reduce %{{.*}} on @tp grid_axes = [0] : tensor<8x64xf32> -> tensor<8x64xf32>
// PARTITION: norm.rms_norm_matmul ins(%{{.*}} : tensor<8x64xf32>) weight(%{{.*}} : tensor<64xf32>) rhs(%{{.*}} : tensor<64x64xf32>) outs(%{{.*}} : tensor<8x64xf32>) {transpose_rhs}
// PARTITION: shard.all_reduce %{{.*}} on @tp grid_axes = [0] : tensor<8x64xf32> -> tensor<8x64xf32>
// PARTITION-NOT: shard.all_
// PARTITION-LABEL: func.func @llama_layer(
// PARTITION-NOT: shard.
