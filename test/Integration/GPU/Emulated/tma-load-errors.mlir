// What the emulated TMA loads and mbarriers catch
// (test/lib/Runtime/EmulatedAsyncProxy.cpp): a tile read without waiting on
// its barrier still holds the old shared memory (a TMA tile lands at a wait,
// the latest point the hardware allows), and a wait whose phase cannot
// complete (here: more transaction bytes expected than any load brings)
// aborts with the barrier's state instead of hanging like a GPU would; a
// 128-byte-swizzled tile placed where the hardware's swizzle pattern would
// not line up with the emulated one is refused, naming the load.
// RUN: norm-opt %s --norm-test-emulate-gpu-on-cpu --convert-linalg-to-loops %emulated_to_llvm > %t.mlir
// RUN: env OMP_WAIT_POLICY=passive mlir-runner %t.mlir -e missing_wait -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp | FileCheck %s --check-prefix=MISSING
// RUN: env OMP_WAIT_POLICY=passive NORM_EMU_WAIT_TIMEOUT_S=1 not --crash mlir-runner %t.mlir -e wrong_bytes -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: env OMP_WAIT_POLICY=passive not --crash mlir-runner %t.mlir -e misaligned_swizzle -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%norm_test_runtime,%libomp 2>&1 | FileCheck %s --check-prefix=MISALIGNED

// MISSING: loaded before the wait: 0{{$}}
// BYTES: emulation: mbarrier at {{.*}}: try_wait.parity 0 never completed: 0 arrivals and 64 transaction bytes still missing in phase 0
// MISALIGNED: emulation: TMA load into {{.*}} (mbarrier at {{.*}}): a swizzled tile must start on a multiple of 8 swizzle rows of shared memory

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<8x8xf32, #gpu.address_space<workgroup>>
!map = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = none, l2promo = none, oob = zero, interleave = none>

// One thread loads an 8 × 8 tile of ones and counts the ones it sees: before
// waiting on the barrier (none), then after.
func.func @missing_wait() {
  %c1 = arith.constant 1 : index
  %ones = memref.alloc() : memref<8x8xf32>
  %f1 = arith.constant 1.0 : f32
  linalg.fill ins(%f1 : f32) outs(%ones : memref<8x8xf32>)
  %unranked = memref.cast %ones : memref<8x8xf32> to memref<*xf32>
  %c8 = arith.constant 8 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c8, %c8] : memref<*xf32> -> !map
  %result = gpu.alloc () : memref<1xi64>
  %shmem = arith.constant 256 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %shmem {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k8 = arith.constant 8 : index
    %tile = memref.view %smem[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %zero = arith.constant 0.0 : f32
    scf.for %i = %k0 to %k8 step %k1 {
      scf.for %j = %k0 to %k8 step %k1 {
        memref.store %zero, %tile[%i, %j] : !tile
      }
    }
    %bar = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %bar[%k0], %k1 : !barriers
    %bytes = arith.constant 256 : index
    nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barriers
    nvgpu.tma.async.load %map[%k0, %k0], %bar[%k0] to %tile : !map, !barriers -> !tile
    %f1k = arith.constant 1.0 : f32
    %n0 = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %early = scf.for %i = %k0 to %k8 step %k1 iter_args(%a = %n0) -> (i64) {
      %m = scf.for %j = %k0 to %k8 step %k1 iter_args(%b = %a) -> (i64) {
        %v = memref.load %tile[%i, %j] : !tile
        %is = arith.cmpf oeq, %v, %f1k : f32
        %add = arith.select %is, %one, %n0 : i64
        %next = arith.addi %b, %add : i64
        scf.yield %next : i64
      }
      scf.yield %m : i64
    }
    memref.store %early, %result[%k0] : memref<1xi64>
    gpu.terminator
  }
  %host = memref.alloc() : memref<1xi64>
  gpu.memcpy %host, %result : memref<1xi64>, memref<1xi64>
  %c0 = arith.constant 0 : index
  %early = memref.load %host[%c0] : memref<1xi64>
  vector.print str "loaded before the wait: "
  vector.print %early : i64
  return
}

// The barrier expects 320 bytes; the 8 × 8 f32 box brings 256.
func.func @wrong_bytes() {
  %c1 = arith.constant 1 : index
  %src = memref.alloc() : memref<8x8xf32>
  %unranked = memref.cast %src : memref<8x8xf32> to memref<*xf32>
  %c8 = arith.constant 8 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c8, %c8] : memref<*xf32> -> !map
  %shmem = arith.constant 256 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %shmem {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %tile = memref.view %smem[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %bar = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %bar[%k0], %k1 : !barriers
    %bytes = arith.constant 320 : index
    nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barriers
    nvgpu.tma.async.load %map[%k0, %k0], %bar[%k0] to %tile : !map, !barriers -> !tile
    %ticks = arith.constant 10000000 : index
    %p0 = arith.constant false
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %p0, %ticks : !barriers
    gpu.terminator
  }
  memref.dealloc %src : memref<8x8xf32>
  return
}

!swizzled_tile = memref<8x32xf32, #gpu.address_space<workgroup>>
!swizzled_map = !nvgpu.tensormap.descriptor<tensor = !swizzled_tile, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// A 128-byte-swizzled 8 × 32 f32 tile at shared offset 128: the swizzle
// repeats every 8 rows of 128 bytes, so the tile must start on 1024.
func.func @misaligned_swizzle() {
  %c1 = arith.constant 1 : index
  %src = memref.alloc() : memref<8x32xf32>
  %unranked = memref.cast %src : memref<8x32xf32> to memref<*xf32>
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c8, %c32] : memref<*xf32> -> !swizzled_map
  %shmem = arith.constant 1152 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %shmem {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k128 = arith.constant 128 : index
    %tile = memref.view %smem[%k128][] : memref<?xi8, #gpu.address_space<workgroup>> to !swizzled_tile
    %bar = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %bar[%k0], %k1 : !barriers
    %bytes = arith.constant 1024 : index
    nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !barriers
    nvgpu.tma.async.load %map[%k0, %k0], %bar[%k0] to %tile : !swizzled_map, !barriers -> !swizzled_tile
    gpu.terminator
  }
  memref.dealloc %src : memref<8x32xf32>
  return
}
