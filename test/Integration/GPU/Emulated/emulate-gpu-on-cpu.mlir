// --norm-test-emulate-gpu-on-cpu (test/lib/Transforms), the test-only pass
// that runs gpu.launch kernels on host threads: the launch becomes a loop
// over the grid around one omp.parallel team per block, the thread ids come
// from omp_get_thread_num (x fastest), barriers become omp.barrier, shuffles
// and the nvgpu warp ops exchange lane values through the two alternating
// halves of scratch buffers with one barrier, cp.async into shared memory
// lands at the wait that covers it (elsewhere it is a synchronous
// zero-filling copy), and host gpu ops become memref ops. Forms it does
// not emulate are located errors (wgmma of other types or outside shared
// memory, NVVM ops other than wgmma). The kernels' results are checked by the
// execution tests beside this file.
// RUN: norm-opt %s --split-input-file --norm-test-emulate-gpu-on-cpu --verify-diagnostics | FileCheck %s

// CHECK-DAG: func.func private @omp_get_thread_num() -> i32
// CHECK-DAG: func.func private @omp_get_num_threads() -> i32
// CHECK-LABEL: func.func @block_of_two_warps
// CHECK:         %[[HOST:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x2xf32>
// CHECK:         %[[SHARED:.*]] = memref.alloc(%{{.*}}) {alignment = 1024 : i64} : memref<?xi8>
// CHECK:         %[[WG:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %[[SLOTS:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         scf.for %[[BZ:.*]] =
// CHECK:           scf.for %[[BY:.*]] =
// CHECK:             scf.for %[[BX:.*]] =
// CHECK:               omp.parallel num_threads(%{{.*}} : i32) {
// CHECK:                 %[[TEAM:.*]] = func.call @omp_get_num_threads()
// CHECK:                 cf.assert
// CHECK:                 %[[T:.*]] = func.call @omp_get_thread_num()
// CHECK:                 %[[TID:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK:                 %[[PARITY:.*]] = memref.alloca() : memref<index>
// CHECK:                 %[[TX:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK:                 memref.view %[[SHARED]][%{{.*}}][] : memref<?xi8> to memref<2xf32>
// CHECK:                 %[[HALF:.*]] = memref.load %[[PARITY]][]
// CHECK:                 %[[BASE:.*]] = arith.muli %[[HALF]]
// CHECK:                 %[[MINE:.*]] = arith.addi %[[BASE]], %[[TID]]
// CHECK:                 memref.store %{{.*}}, %[[SLOTS]][%[[MINE]]] : memref<?xf32>
// CHECK-NEXT:            omp.barrier
// CHECK:                 arith.xori
// CHECK:                 %[[FROM:.*]] = arith.select
// CHECK:                 %[[SOURCE:.*]] = arith.addi %[[BASE]], %[[FROM]]
// CHECK:                 memref.load %[[SLOTS]][%[[SOURCE]]]
// CHECK-NOT:             omp.barrier
// CHECK:                 memref.store %{{.*}}, %[[WG]]
// CHECK:                 omp.barrier
// CHECK:                 memref.store %{{.*}}, %[[HOST]][%[[TX]], %[[BX]]]
// CHECK:                 omp.terminator
// CHECK-DAG:     memref.dealloc %[[SHARED]]
// CHECK-DAG:     memref.dealloc %[[WG]]
// CHECK-DAG:     memref.dealloc %[[SLOTS]]
// CHECK:         memref.dealloc %[[HOST]]
// CHECK-NOT:     gpu.
func.func @block_of_two_warps() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bytes = arith.constant 64 : i32
  %out = gpu.alloc host_shared () : memref<8x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1)
             dynamic_shared_memory_size %bytes
             workgroup(%wg : memref<4xf32, #gpu.address_space<workgroup>>) {
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
    %x = arith.index_cast %tx : index to i32
    %v = arith.sitofp %x : i32 to f32
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %other, %valid = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
    %sum = arith.addf %v, %other : f32
    memref.store %sum, %wg[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %sum, %view[%c1] : memref<2xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    memref.store %sum, %out[%tx, %bx] : memref<8x2xf32>
    gpu.terminator
  }
  gpu.dealloc %out : memref<8x2xf32>
  return
}

// -----

// cp.async into a workgroup attribution (not dynamic shared memory): a
// synchronous copy of 4 elements, zero past the source size; the commit
// group and the wait have nothing to order.
// CHECK-LABEL: func.func @async_copy
// CHECK:         omp.parallel
// CHECK-COUNT-4:   scf.if %{{.*}} -> (f32)
// CHECK-NOT:     nvgpu.
func.func @async_copy(%src: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<128xf32, #gpu.address_space<workgroup>>) {
    %t = nvgpu.device_async_copy %src[%c0], %tile[%tx], 4, %n {bypassL1} : memref<64xf32> to memref<128xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.terminator
  }
  return
}

// -----

// cp.async into dynamic shared memory lands late: the copy reads the chunk
// and queues its 16 bytes in the thread's open group (on the thread's
// stack), the commit counts the group, and the wait writes the oldest
// groups to shared memory until at most numGroups are pending.
// CHECK-LABEL: func.func @async_copy_deferred
// CHECK:         omp.parallel
// CHECK:           %[[OFFSETS:.*]] = memref.alloca() : memref<4x32xindex>
// CHECK:           %[[BYTES:.*]] = memref.alloca() : memref<4x32x16xi8>
// CHECK:           vector.bitcast %{{.*}} : vector<4xf32> to vector<16xi8>
// CHECK:           vector.store %{{.*}}, %[[BYTES]]
// CHECK:           scf.while
// CHECK:             arith.cmpi ugt, %{{.*}}, %c1
// CHECK:             scf.for
// CHECK:               memref.load %[[OFFSETS]]
// CHECK:               memref.view %{{.*}}[%{{.*}}][] : memref<?xi8> to memref<16xi8>
// CHECK-NOT:     nvgpu.
func.func @async_copy_deferred(%src: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %bytes = arith.constant 512 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
    %i = arith.muli %tx, %c4 : index
    %t = nvgpu.device_async_copy %src[%c0], %tile[%i], 4, %c4 {bypassL1} : memref<64xf32> to memref<128xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 1 : i32}
    gpu.terminator
  }
  return
}

// -----

// Host side: an async allocation chain becomes a plain allocation.
// CHECK-LABEL: func.func @host_async_alloc
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[M]]
// CHECK-NEXT:    return
func.func @host_async_alloc() {
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  gpu.wait [%t1]
  %t2 = gpu.wait async
  %t3 = gpu.dealloc async [%t2] %m : memref<16xf32>
  gpu.wait [%t3]
  return
}

// -----

func.func @async_launch() {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-error @+1 {{emulation: asynchronous launches are not emulated}}
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}

// -----

func.func @op_not_emulated(%x: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{emulation: this op is not emulated}}
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

func.func @mma_shape_not_emulated(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{emulation: only mma.sync m16n8k16 with 16-bit inputs and an f32 or f16 accumulator is emulated}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

// The emulated TMA load reads the tensor and box from the create op, so the
// descriptor must be made in the launch's function.
!tmaBarriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmaTile = memref<8x8xf32, #gpu.address_space<workgroup>>
!tmaMap = !nvgpu.tensormap.descriptor<tensor = !tmaTile, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @tma_descriptor_from_argument(%map: !tmaMap, %tile: !tmaTile) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bar = nvgpu.mbarrier.create -> !tmaBarriers
    nvgpu.mbarrier.init %bar[%c0], %c1 : !tmaBarriers
    // expected-error @+1 {{emulation: a TMA descriptor not made by nvgpu.tma.create.descriptor in this function is not emulated}}
    nvgpu.tma.async.load %map[%c0, %c0], %bar[%c0] to %tile : !tmaMap, !tmaBarriers -> !tmaTile
    gpu.terminator
  }
  return
}

// -----

!tmaBarriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmaTile3 = memref<2x8x8xf32, #gpu.address_space<workgroup>>
!tmaMap3 = !nvgpu.tensormap.descriptor<tensor = !tmaTile3, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @tma_rank_3(%src: memref<*xf32>, %tile: !tmaTile3) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %map = nvgpu.tma.create.descriptor %src box[%c2, %c8, %c8] : memref<*xf32> -> !tmaMap3
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bar = nvgpu.mbarrier.create -> !tmaBarriers
    nvgpu.mbarrier.init %bar[%c0], %c1 : !tmaBarriers
    // expected-error @+1 {{emulation: TMA loads of rank other than 2 are not emulated}}
    nvgpu.tma.async.load %map[%c0, %c0, %c0], %bar[%c0] to %tile : !tmaMap3, !tmaBarriers -> !tmaTile3
    gpu.terminator
  }
  return
}

// -----

func.func @wgmma_tf32(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a: i64, %b: i64) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %smem = arith.constant 1024 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
    // expected-error @+1 {{emulation: only wgmma with bf16 or f16 operands and an f32 accumulator is emulated}}
    %r = nvvm.wgmma.mma_async %a, %b, %d, <m = 64, n = 16, k = 8>, D[<f32>, <one>, <wrapped>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
    gpu.terminator
  }
  return
}

// -----

func.func @wgmma_no_shared_memory(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a: i64, %b: i64) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{emulation: wgmma operands must be in the launch's dynamic shared memory}}
    %r = nvvm.wgmma.mma_async %a, %b, %d, <m = 64, n = 16, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
    gpu.terminator
  }
  return
}

// -----

func.func @nvvm_other_op() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{emulation: this op is not emulated}}
    %t = nvvm.read.ptx.sreg.laneid : i32
    gpu.terminator
  }
  return
}
