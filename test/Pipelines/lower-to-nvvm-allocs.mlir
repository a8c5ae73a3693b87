// --norm-lower-to-nvvm output that allocates device memory translates to
// LLVM IR: the device temporary S of a matmul → norm op without sum_outs,
// and a user's synchronous gpu.alloc / gpu.dealloc (as the GPU execution
// tests write them). MLIR 22's gpu-to-llvm lowers only the async forms of
// device allocations and deallocations; the synchronous ones used to stay
// in the host code, and mlir-translate failed on them ("unsupported GPU
// operation: gpu.alloc"). The checks are of the synchronous host code
// (async-launches=0 device-intermediates=0); lower-to-nvvm-async.mlir
// checks the default, one stream a function.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa async-launches=0 device-intermediates=0" -o %t.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir | FileCheck %s
// RUN: %if ptxas %{ rm -rf %t.ptx && %python %S/../Integration/GPU/Inputs/extract-ptx.py %t.mlir %t.ptx --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=PTXAS %}

// Only LLVM-dialect host code is left.
// HOST-NOT: gpu.alloc
// HOST-NOT: gpu.dealloc
// HOST-NOT: gpu.wait

// matmul → RMSNorm, bf16, no sum_outs: S is allocated (a fresh stream,
// synchronized), both GEMM variants and both row-kernel variants may run
// (each launch synchronizes its own stream before the host goes on), and
// S is freed only after the last launch.
// CHECK-LABEL: define void @mrn_temp(
// CHECK:         %[[S0:.*]] = call ptr @mgpuStreamCreate()
// CHECK-NEXT:    %[[S:.*]] = call ptr @mgpuMemAlloc(i64 4096, ptr %[[S0]], i8 0)
// CHECK-NEXT:    call void @mgpuStreamSynchronize(ptr %[[S0]])
// CHECK-NEXT:    call void @mgpuStreamDestroy(ptr %[[S0]])
// CHECK-COUNT-4: call void @mgpuLaunchKernel(
// CHECK-NEXT:    call void @mgpuStreamSynchronize(
// CHECK-NEXT:    call void @mgpuStreamDestroy(
// CHECK-NOT:     @mgpuLaunchKernel
// CHECK:         %[[F0:.*]] = call ptr @mgpuStreamCreate()
// CHECK-NEXT:    call void @mgpuMemFree(ptr %[[S]], ptr %[[F0]])
// CHECK-NEXT:    call void @mgpuStreamSynchronize(ptr %[[F0]])
// CHECK-NEXT:    call void @mgpuStreamDestroy(ptr %[[F0]])
// CHECK-NEXT:    ret void
func.func @mrn_temp(%a: memref<16x64xbf16>, %w: memref<64x128xbf16>, %g: memref<128xbf16>,
                    %y: memref<16x128xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<16x64xbf16>) rhs(%w : memref<64x128xbf16>)
    weight(%g : memref<128xbf16>) outs(%y : memref<16x128xbf16>)
  return
}

// matmul → LayerNorm, f16, W as N×K, dynamic M: S has M rows. (K = 256
// is too short to split over K.)
// CHECK-LABEL: define void @mln_temp(
// CHECK:         call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %{{.*}}, i8 0)
// CHECK:         call void @mgpuLaunchKernel(
// CHECK:         call void @mgpuMemFree(
// CHECK-NOT:     @mgpuLaunchKernel
// CHECK:         ret void
func.func @mln_temp(%a: memref<?x256xf16>, %w: memref<384x256xf16>, %mb: memref<384xf16>,
                    %y: memref<?x384xf16>) {
  norm.matmul_layer_norm ins(%a : memref<?x256xf16>) rhs(%w : memref<384x256xf16>)
    matmul_bias(%mb : memref<384xf16>) outs(%y : memref<?x384xf16>) {transpose_rhs}
  return
}

// Split-K (16 × 2048 → 256: 2 blocks, 8 slices): the slices' partial
// accumulators are a second device temporary, allocated after S and freed
// right after the reduction kernel, S after the row kernels.
// CHECK-LABEL: define void @mrn_split(
// CHECK:         %[[S:.*]] = call ptr @mgpuMemAlloc(i64 8192,
// CHECK:         %[[ACC:.*]] = call ptr @mgpuMemAlloc(i64 131072,
// CHECK-COUNT-2: call void @mgpuLaunchKernel(
// CHECK:         call void @mgpuMemFree(ptr %[[ACC]],
// CHECK:         call void @mgpuMemFree(ptr %[[S]],
// CHECK-NOT:     @mgpuLaunchKernel
// CHECK:         ret void
func.func @mrn_split(%a: memref<16x2048xbf16>, %w: memref<2048x256xbf16>, %g: memref<256xbf16>,
                     %y: memref<16x256xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<16x2048xbf16>) rhs(%w : memref<2048x256xbf16>)
    weight(%g : memref<256xbf16>) outs(%y : memref<16x256xbf16>)
  return
}

// A user's buffers, as the execution tests allocate them: managed memory
// (gpu.alloc host_shared, lowered as it is), a device buffer, and
// synchronous gpu.dealloc of both after the kernel.
// CHECK-LABEL: define void @user_buffers(
// CHECK:         call ptr @mgpuMemAlloc(i64 1024, ptr null, i8 1)
// CHECK:         call ptr @mgpuMemAlloc(i64 1024, ptr %{{.*}}, i8 0)
// CHECK:         call void @mgpuLaunchKernel(
// CHECK:         call void @mgpuMemFree(
// CHECK:         call void @mgpuMemFree(
// CHECK-NOT:     @mgpuLaunchKernel
// CHECK:         ret void
func.func @user_buffers() {
  %x = gpu.alloc host_shared () : memref<4x64xf32>
  %y = gpu.alloc () : memref<4x64xf32>
  norm.rms_norm ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>)
  gpu.dealloc %y : memref<4x64xf32>
  gpu.dealloc %x : memref<4x64xf32>
  return
}

// PTXAS-NOT: error
// PTXAS:     Compiling entry function 'mrn_temp_kernel'
