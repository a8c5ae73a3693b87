// --norm-lower-to-nvvm's host-code options: async-launches (a function's
// GPU work on one stream, a wait only where the host needs results) and
// device-intermediates (buffers only kernels touch in device memory). The
// host code translates to LLVM IR.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa async-launches=1 device-intermediates=1" -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir | FileCheck %s
// The large Llama layer, raised and fused (43 launches, split-K branches,
// the dispatch functions of shared kernels inlined): one stream, one
// synchronization, only the returned buffer managed.
// RUN: norm-opt %norm_src_root/examples/llama-decoder-layer-large.mlir --norm-raise --norm-fuse-matmul --norm-lower-to-nvvm="chip=sm_90a format=isa async-launches=1 device-intermediates=1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLAMA
// RUN: norm-opt %norm_src_root/examples/gpt2-block-large.mlir --norm-raise --norm-fuse-matmul --norm-lower-to-nvvm="chip=sm_90 format=isa async-launches=1 device-intermediates=1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLAMA
// LLAMA:         define {{.*}} @{{llama_decoder_layer|gpt2_block}}(
// LLAMA-NOT:     {{@mgpuStream|i8 1\)}}
// LLAMA:         call ptr @mgpuStreamCreate()
// LLAMA-NOT:     {{@mgpuStream|i8 1\)}}
// LLAMA:         call ptr @mgpuMemAlloc({{.*}}, i8 1)
// LLAMA-NOT:     {{@mgpuStream|i8 1\)}}
// LLAMA:         call void @mgpuStreamSynchronize(
// LLAMA-NEXT:    call void @mgpuStreamDestroy(
// LLAMA-NOT:     @mgpu
// LLAMA:         ret {
// LLAMA-NEXT:  {{^}}}
// Either option alone lowers too.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa async-launches=1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=ASYNC
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa device-intermediates=1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=DEVICE

#id = affine_map<(d0, d1) -> (d0, d1)>

// fill → matmul → exp: three kernels on one stream, created once; the
// matmul's output (only kernels touch it) in device memory (i8 0), the
// returned result managed (i8 1); freed on the stream, one synchronization
// before the return, none around the launches.
// CHECK-LABEL: define {{.*}} @layer(
// CHECK:         %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK-NEXT:    %[[M:.*]] = call ptr @mgpuMemAlloc(i64 4096, ptr %[[S]], i8 0)
// CHECK-NOT:     @mgpuStream
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S]], ptr
// CHECK-NOT:     @mgpuStream
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S]], ptr
// CHECK-NOT:     @mgpuStream
// CHECK:         call ptr @mgpuMemAlloc(i64 4096, ptr null, i8 1)
// CHECK-NOT:     @mgpuStream
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S]], ptr
// CHECK-NEXT:    call void @mgpuMemFree(ptr %[[M]], ptr %[[S]])
// CHECK-NEXT:    call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK-NEXT:    call void @mgpuStreamDestroy(ptr %[[S]])
// CHECK-NOT:     @mgpu
// CHECK:         ret
// ASYNC-LABEL: define {{.*}} @layer(
// ASYNC-NOT:     @mgpuStreamSynchronize
// ASYNC-COUNT-3: call void @mgpuLaunchKernel(
// ASYNC-NOT:     @mgpuStream
// ASYNC:         call void @mgpuMemFree(
// ASYNC-NEXT:    call void @mgpuStreamSynchronize(
// ASYNC-NEXT:    call void @mgpuStreamDestroy(
// DEVICE-LABEL: define {{.*}} @layer(
// DEVICE:         call ptr @mgpuMemAlloc(i64 4096, ptr %{{.*}}, i8 0)
// DEVICE:         call ptr @mgpuMemAlloc(i64 4096, ptr null, i8 1)
// DEVICE-COUNT-3: call void @mgpuStreamDestroy(
func.func @layer(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x64xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// The host reads one element of the matmul's output in the middle: the
// host waits for the stream before the load (synchronize, destroy), the
// buffer stays managed, and the last kernel goes on a second stream.
// CHECK-LABEL: define {{.*}} @host_read(
// CHECK:         call ptr @mgpuMemAlloc(i64 4096, ptr null, i8 1)
// CHECK-NEXT:    %[[S0:.*]] = call ptr @mgpuStreamCreate()
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S0]], ptr
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S0]], ptr
// CHECK-NEXT:    call void @mgpuStreamSynchronize(ptr %[[S0]])
// CHECK-NEXT:    call void @mgpuStreamDestroy(ptr %[[S0]])
// CHECK:         load float
// CHECK:         %[[S1:.*]] = call ptr @mgpuStreamCreate()
// CHECK:         call void @mgpuLaunchKernel({{.*}}, ptr %[[S1]], ptr
// CHECK:         call void @mgpuStreamSynchronize(ptr %[[S1]])
// CHECK-NEXT:    call void @mgpuStreamDestroy(ptr %[[S1]])
// CHECK-NOT:     @mgpuStream
// CHECK:         ret
func.func @host_read(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %v = tensor.extract %m[%c0, %c0] : tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x64xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
