// sm_90 mbarriers and TMA tile loads under --norm-test-emulate-gpu-on-cpu
// (test/lib/Transforms/EmulateTMA.cpp, test/lib/Runtime/EmulatedAsyncProxy.cpp):
// one block loads three 64 × 64 f16 boxes of a 100 × 64 tensor into shared
// memory, two with the 128-byte swizzle and one plain, completing on two
// mbarriers, then reuses the first barrier in its second phase; each tile is
// copied out raw and compared on the host with the source under PTX's
// swizzle (16-byte chunk c of row r at c ^ (r % 8), the table of upstream
// MLIR's sm_90 test tma_load_128x64_swizzle128b.mlir) and zero fill past
// row 100.
// RUN: norm-opt %s --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | FileCheck %s
// RUN: norm-opt %s --norm-test-emulate-gpu-on-cpu | FileCheck %s --check-prefix=IR

// CHECK: swizzled rows 0-63: 0{{$}}
// CHECK: swizzled rows 64-127: 0{{$}}
// CHECK: plain rows 0-63: 0{{$}}
// CHECK: second phase, swizzled rows 36-99: 0{{$}}

// IR-LABEL: func.func @main
// IR:         memref.alloc() {alignment = 8 : i64} : memref<2xi64>
// IR:         omp.parallel
// IR:           call @norm_emu_mbarrier_init
// IR:           call @norm_emu_mbarrier_arrive_expect_tx
// IR:           call @norm_emu_tma_load_2d
// IR:           call @norm_emu_mbarrier_try_wait_parity
// IR-NOT:     nvgpu.
// IR-NOT:     gpu.

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!tile = memref<64x64xf16, #gpu.address_space<workgroup>>
!swizzledMap = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!plainMap = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = none, l2promo = none, oob = zero, interleave = none>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c36 = arith.constant 36 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %c2048 = arith.constant 2048 : index
  %true = arith.constant true
  %false = arith.constant false

  // A[r][c] = (64 r + c) mod 2048: distinct per chunk, exact in f16.
  %a = memref.alloc() : memref<100x64xf16>
  scf.for %r = %c0 to %c100 step %c1 {
    scf.for %c = %c0 to %c64 step %c1 {
      %lin = arith.muli %r, %c64 : index
      %v0 = arith.addi %lin, %c : index
      %v1 = arith.remui %v0, %c2048 : index
      %v2 = arith.index_cast %v1 : index to i32
      %v = arith.sitofp %v2 : i32 to f16
      memref.store %v, %a[%r, %c] : memref<100x64xf16>
    }
  }
  %da = gpu.alloc () : memref<100x64xf16>
  gpu.memcpy %da, %a : memref<100x64xf16>, memref<100x64xf16>
  %out = gpu.alloc () : memref<4x64x64xf16>
  %unranked = memref.cast %da : memref<100x64xf16> to memref<*xf16>
  %swizzled = nvgpu.tma.create.descriptor %unranked box[%c64, %c64] : memref<*xf16> -> !swizzledMap
  %plain = nvgpu.tma.create.descriptor %unranked box[%c64, %c64] : memref<*xf16> -> !plainMap

  %shmem = arith.constant 24576 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %shmem {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %k0 = arith.constant 0 : index
    %k8192 = arith.constant 8192 : index
    %k16384 = arith.constant 16384 : index
    %tile0 = memref.view %smem[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %tile1 = memref.view %smem[%k8192][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %tile2 = memref.view %smem[%k16384][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %bar = nvgpu.mbarrier.create -> !barriers
    %first = arith.cmpi eq, %tx, %k0 : index
    %k1 = arith.constant 1 : index
    nvgpu.mbarrier.init %bar[%k0], %k1, predicate = %first : !barriers
    nvgpu.mbarrier.init %bar[%k1], %k1, predicate = %first : !barriers
    gpu.barrier
    nvgpu.tma.prefetch.descriptor %swizzled : !swizzledMap
    scf.if %first {
      %k64 = arith.constant 64 : index
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %k16384 : !barriers
      nvgpu.tma.async.load %swizzled[%k0, %k0], %bar[%k0] to %tile0 : !swizzledMap, !barriers -> !tile
      nvgpu.tma.async.load %swizzled[%k0, %k64], %bar[%k0] to %tile1 : !swizzledMap, !barriers -> !tile
      nvgpu.tma.async.load %plain[%k0, %k0], %bar[%k1] to %tile2 : !plainMap, !barriers -> !tile
      nvgpu.mbarrier.arrive.expect_tx %bar[%k1], %k8192 : !barriers
    }
    %ticks = arith.constant 10000000 : index
    %p0 = arith.constant false
    %p1 = arith.constant true
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %p0, %ticks : !barriers
    nvgpu.mbarrier.try_wait.parity %bar[%k1], %p0, %ticks : !barriers
    // Thread t copies column pairs of its row half: rows t/2, 32 columns.
    %k2 = arith.constant 2 : index
    %k32 = arith.constant 32 : index
    %row = arith.divui %tx, %k2 : index
    %half = arith.remui %tx, %k2 : index
    %col0 = arith.muli %half, %k32 : index
    %k3 = arith.constant 3 : index
    scf.for %j = %k0 to %k32 step %k1 {
      %col = arith.addi %col0, %j : index
      %v0 = memref.load %tile0[%row, %col] : !tile
      memref.store %v0, %out[%k0, %row, %col] : memref<4x64x64xf16>
      %v1 = memref.load %tile1[%row, %col] : !tile
      memref.store %v1, %out[%k1, %row, %col] : memref<4x64x64xf16>
      %v2 = memref.load %tile2[%row, %col] : !tile
      memref.store %v2, %out[%k2, %row, %col] : memref<4x64x64xf16>
    }
    // Phase 1 of barrier 0: tile 0 again, from row 36.
    gpu.barrier
    scf.if %first {
      %k36 = arith.constant 36 : index
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %k8192 : !barriers
      nvgpu.tma.async.load %swizzled[%k0, %k36], %bar[%k0] to %tile0 : !swizzledMap, !barriers -> !tile
    }
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %p1, %ticks : !barriers
    scf.for %j = %k0 to %k32 step %k1 {
      %col = arith.addi %col0, %j : index
      %v = memref.load %tile0[%row, %col] : !tile
      memref.store %v, %out[%k3, %row, %col] : memref<4x64x64xf16>
    }
    gpu.terminator
  }

  %host = memref.alloc() : memref<4x64x64xf16>
  gpu.memcpy %host, %out : memref<4x64x64xf16>, memref<4x64x64xf16>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  vector.print str "swizzled rows 0-63: "
  call @check(%host, %c0, %a, %c0, %true) : (memref<4x64x64xf16>, index, memref<100x64xf16>, index, i1) -> ()
  vector.print str "swizzled rows 64-127: "
  call @check(%host, %c1, %a, %c64, %true) : (memref<4x64x64xf16>, index, memref<100x64xf16>, index, i1) -> ()
  vector.print str "plain rows 0-63: "
  call @check(%host, %c2, %a, %c0, %false) : (memref<4x64x64xf16>, index, memref<100x64xf16>, index, i1) -> ()
  vector.print str "second phase, swizzled rows 36-99: "
  call @check(%host, %c3, %a, %c36, %true) : (memref<4x64x64xf16>, index, memref<100x64xf16>, index, i1) -> ()
  gpu.dealloc %out : memref<4x64x64xf16>
  gpu.dealloc %da : memref<100x64xf16>
  memref.dealloc %host : memref<4x64x64xf16>
  memref.dealloc %a : memref<100x64xf16>
  return
}

// Prints the number of elements of tile `t` of `out` that differ from rows
// rowBase.. of `a` stored with (or without) the 128-byte swizzle.
func.func @check(%out: memref<4x64x64xf16>, %t: index, %a: memref<100x64xf16>, %rowBase: index, %swizzle: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f16
  %n0 = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %n0) -> (i64) {
    %inner = scf.for %c = %c0 to %c64 step %c1 iter_args(%m = %n) -> (i64) {
      %chunk = arith.divui %c, %c8 : index
      %within = arith.remui %c, %c8 : index
      %phase = arith.remui %r, %c8 : index
      %swapped = arith.xori %chunk, %phase : index
      %srcChunk = arith.select %swizzle, %swapped, %chunk : index
      %base = arith.muli %srcChunk, %c8 : index
      %srcCol = arith.addi %base, %within : index
      %srcRow = arith.addi %rowBase, %r : index
      %inside = arith.cmpi ult, %srcRow, %c100 : index
      %want = scf.if %inside -> (f16) {
        %v = memref.load %a[%srcRow, %srcCol] : memref<100x64xf16>
        scf.yield %v : f16
      } else {
        scf.yield %zero : f16
      }
      %got = memref.load %out[%t, %r, %c] : memref<4x64x64xf16>
      %same = arith.cmpf oeq, %got, %want : f16
      %add = arith.select %same, %n0, %one : i64
      %next = arith.addi %m, %add : i64
      scf.yield %next : i64
    }
    scf.yield %inner : i64
  }
  vector.print %bad : i64
  return
}
