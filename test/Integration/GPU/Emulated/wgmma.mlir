// sm_90a warpgroup MMA under --norm-test-emulate-gpu-on-cpu
// (test/lib/Transforms/EmulateWGMMA.cpp): one warpgroup multiplies a 64 × 64
// bf16 A by B (64 × 128) twice, with TMA-loaded 128-byte-swizzled tiles:
//   - B as K×N (MN-major, two 64-column slabs), with the descriptors
//     upstream MLIR's nvgpu.warpgroup.mma lowering makes for its sm_90 tests
//     (which run on H100s): 0x4000004002000000 | address >> 4, i.e. swizzle
//     128B, stride byte offset 1024, leading byte offset 8192 (the slab
//     stride), K steps of 32 bytes (A) and 2048 bytes (B);
//   - B as N×K (K-major, one 128 × 64 box), the same descriptor form as A's.
// Each thread writes its registers out by the m64nNk16 accumulator layout;
// the products are exact in f32, so both results must equal the host's
// exactly.
// RUN: norm-opt %s --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | FileCheck %s
// RUN: norm-opt %s --norm-test-emulate-gpu-on-cpu | FileCheck %s --check-prefix=IR

// CHECK: K x N (MN-major) mismatches: 0{{$}}
// CHECK: N x K (K-major) mismatches: 0{{$}}

// IR-LABEL: func.func @main
// IR:         omp.parallel
// IR:           memref.alloca() : memref<64xf32>
// IR:           memref.view
// IR-NOT:     nvvm.
// IR-NOT:     nvgpu.

!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
!slab = memref<64x64xbf16, #gpu.address_space<workgroup>>
!wtile = memref<128x64xbf16, #gpu.address_space<workgroup>>
!slabMap = !nvgpu.tensormap.descriptor<tensor = !slab, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!wMap = !nvgpu.tensormap.descriptor<tensor = !wtile, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// x = ((i·p + j·q) mod r − s) / d: small multiples of 1/8 and 1/4, exact in
// bf16, their products and sums of 64 of them exact in f32.
func.func @fill(%m: memref<?x?xbf16>, %p: index, %q: index, %r: index, %s: f32, %d: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xbf16>
  %cols = memref.dim %m, %c1 : memref<?x?xbf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %a = arith.muli %i, %p : index
      %b = arith.muli %j, %q : index
      %ab = arith.addi %a, %b : index
      %m1 = arith.remui %ab, %r : index
      %i32 = arith.index_cast %m1 : index to i32
      %f = arith.sitofp %i32 : i32 to f32
      %f1 = arith.subf %f, %s : f32
      %f2 = arith.divf %f1, %d : f32
      %v = arith.truncf %f2 : f32 to bf16
      memref.store %v, %m[%i, %j] : memref<?x?xbf16>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %f4 = arith.constant 4.0 : f32
  %f6 = arith.constant 6.0 : f32
  %f8 = arith.constant 8.0 : f32

  %a = memref.alloc() : memref<64x64xbf16>
  %b = memref.alloc() : memref<64x128xbf16>
  %bt = memref.alloc() : memref<128x64xbf16>
  %ad = memref.cast %a : memref<64x64xbf16> to memref<?x?xbf16>
  %bd = memref.cast %b : memref<64x128xbf16> to memref<?x?xbf16>
  call @fill(%ad, %c7, %c3, %c13, %f6, %f8) : (memref<?x?xbf16>, index, index, index, f32, f32) -> ()
  call @fill(%bd, %c5, %c11, %c9, %f4, %f4) : (memref<?x?xbf16>, index, index, index, f32, f32) -> ()
  scf.for %k = %c0 to %c64 step %c1 {
    scf.for %n = %c0 to %c128 step %c1 {
      %v = memref.load %b[%k, %n] : memref<64x128xbf16>
      memref.store %v, %bt[%n, %k] : memref<128x64xbf16>
    }
  }
  %da = gpu.alloc () : memref<64x64xbf16>
  %db = gpu.alloc () : memref<64x128xbf16>
  %dbt = gpu.alloc () : memref<128x64xbf16>
  gpu.memcpy %da, %a : memref<64x64xbf16>, memref<64x64xbf16>
  gpu.memcpy %db, %b : memref<64x128xbf16>, memref<64x128xbf16>
  gpu.memcpy %dbt, %bt : memref<128x64xbf16>, memref<128x64xbf16>
  %out = gpu.alloc () : memref<2x64x128xf32>
  %ua = memref.cast %da : memref<64x64xbf16> to memref<*xbf16>
  %ub = memref.cast %db : memref<64x128xbf16> to memref<*xbf16>
  %ubt = memref.cast %dbt : memref<128x64xbf16> to memref<*xbf16>
  %mapA = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xbf16> -> !slabMap
  %mapB = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xbf16> -> !slabMap
  %mapBt = nvgpu.tma.create.descriptor %ubt box[%c128, %c64] : memref<*xbf16> -> !wMap

  // A at 0, B's slabs at 8192 and 16384, Bt at 24576.
  %shmem = arith.constant 40960 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %shmem {
    %smem = gpu.dynamic_shared_memory : !smem
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k64 = arith.constant 64 : index
    %k8192 = arith.constant 8192 : index
    %k16384 = arith.constant 16384 : index
    %k24576 = arith.constant 24576 : index
    %k40960 = arith.constant 40960 : index
    %tileA = memref.view %smem[%k0][] : !smem to !slab
    %slab0 = memref.view %smem[%k8192][] : !smem to !slab
    %slab1 = memref.view %smem[%k16384][] : !smem to !slab
    %tileBt = memref.view %smem[%k24576][] : !smem to !wtile
    %bar = nvgpu.mbarrier.create -> !barriers
    %first = arith.cmpi eq, %tx, %k0 : index
    nvgpu.mbarrier.init %bar[%k0], %k1, predicate = %first : !barriers
    gpu.barrier
    scf.if %first {
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %k40960 : !barriers
      nvgpu.tma.async.load %mapA[%k0, %k0], %bar[%k0] to %tileA : !slabMap, !barriers -> !slab
      nvgpu.tma.async.load %mapB[%k0, %k0], %bar[%k0] to %slab0 : !slabMap, !barriers -> !slab
      nvgpu.tma.async.load %mapB[%k64, %k0], %bar[%k0] to %slab1 : !slabMap, !barriers -> !slab
      nvgpu.tma.async.load %mapBt[%k0, %k0], %bar[%k0] to %tileBt : !wMap, !barriers -> !wtile
    }
    %ticks = arith.constant 10000000 : index
    %p0 = arith.constant false
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %p0, %ticks : !barriers

    // Descriptors: 0x4000004002000000 | (shared address & 0x3FFFF) >> 4.
    %base = memref.extract_aligned_pointer_as_index %smem : !smem -> index
    %base64 = arith.index_cast %base : index to i64
    %form = arith.constant 4611686293338849280 : i64
    %mask = arith.constant 262143 : i64
    %i4 = arith.constant 4 : i64
    %o8192 = arith.constant 8192 : i64
    %o24576 = arith.constant 24576 : i64
    %addrA = arith.andi %base64, %mask : i64
    %addrB0 = arith.addi %base64, %o8192 : i64
    %addrB = arith.andi %addrB0, %mask : i64
    %addrBt0 = arith.addi %base64, %o24576 : i64
    %addrBt = arith.andi %addrBt0, %mask : i64
    %fA = arith.shrui %addrA, %i4 : i64
    %fB = arith.shrui %addrB, %i4 : i64
    %fBt = arith.shrui %addrBt, %i4 : i64
    %descA = arith.ori %form, %fA : i64
    %descB = arith.ori %form, %fB : i64
    %descBt = arith.ori %form, %fBt : i64
    %step32 = arith.constant 2 : i64
    %step2048 = arith.constant 128 : i64

    %zero = llvm.mlir.zero : !acc
    nvvm.wgmma.fence.aligned
    %k4steps = arith.constant 4 : index
    %r1 = scf.for %k = %k0 to %k4steps step %k1 iter_args(%d = %zero) -> (!acc) {
      %ki = arith.index_cast %k : index to i64
      %offA = arith.muli %ki, %step32 : i64
      %offB = arith.muli %ki, %step2048 : i64
      %dA = arith.addi %descA, %offA : i64
      %dB = arith.addi %descB, %offB : i64
      %m = nvvm.wgmma.mma_async %dA, %dB, %d, <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !acc -> !acc
      scf.yield %m : !acc
    }
    %r2 = scf.for %k = %k0 to %k64 step %k64 iter_args(%d = %zero) -> (!acc) {
      %d0 = nvvm.wgmma.mma_async %descA, %descBt, %d, <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !acc -> !acc
      %a1 = arith.addi %descA, %step32 : i64
      %b1 = arith.addi %descBt, %step32 : i64
      %d1 = nvvm.wgmma.mma_async %a1, %b1, %d0, <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !acc -> !acc
      %a2 = arith.addi %a1, %step32 : i64
      %b2 = arith.addi %b1, %step32 : i64
      %d2 = nvvm.wgmma.mma_async %a2, %b2, %d1, <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !acc -> !acc
      %a3 = arith.addi %a2, %step32 : i64
      %b3 = arith.addi %b2, %step32 : i64
      %d3 = nvvm.wgmma.mma_async %a3, %b3, %d2, <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !acc -> !acc
      scf.yield %d3 : !acc
    }
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0

    // Register i of thread t: row 16(t/32) + (t%32)/4 + 8((i%4)/2),
    // column 8(i/4) + 2(t%4) + i%2.
    %one = llvm.mlir.constant(1 : i64) : i64
    %regs1 = llvm.alloca %one x !acc : (i64) -> !llvm.ptr
    %regs2 = llvm.alloca %one x !acc : (i64) -> !llvm.ptr
    llvm.store %r1, %regs1 : !acc, !llvm.ptr
    llvm.store %r2, %regs2 : !acc, !llvm.ptr
    %k2 = arith.constant 2 : index
    %k4 = arith.constant 4 : index
    %k8 = arith.constant 8 : index
    %k16 = arith.constant 16 : index
    %k32 = arith.constant 32 : index
    %warp = arith.divui %tx, %k32 : index
    %lane = arith.remui %tx, %k32 : index
    %g = arith.divui %lane, %k4 : index
    %q = arith.remui %lane, %k4 : index
    %rowW = arith.muli %warp, %k16 : index
    %row0 = arith.addi %rowW, %g : index
    %col0 = arith.muli %q, %k2 : index
    scf.for %i = %k0 to %k64 step %k1 {
      %iq = arith.remui %i, %k4 : index
      %ih = arith.divui %iq, %k2 : index
      %rowOff = arith.muli %ih, %k8 : index
      %row = arith.addi %row0, %rowOff : index
      %chunk = arith.divui %i, %k4 : index
      %colC = arith.muli %chunk, %k8 : index
      %odd = arith.remui %i, %k2 : index
      %colA = arith.addi %colC, %col0 : index
      %col = arith.addi %colA, %odd : index
      %i64 = arith.index_cast %i : index to i64
      %p1 = llvm.getelementptr %regs1[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %p2 = llvm.getelementptr %regs2[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v1 = llvm.load %p1 : !llvm.ptr -> f32
      %v2 = llvm.load %p2 : !llvm.ptr -> f32
      memref.store %v1, %out[%k0, %row, %col] : memref<2x64x128xf32>
      memref.store %v2, %out[%k1, %row, %col] : memref<2x64x128xf32>
    }
    gpu.terminator
  }

  %host = memref.alloc() : memref<2x64x128xf32>
  gpu.memcpy %host, %out : memref<2x64x128xf32>, memref<2x64x128xf32>
  vector.print str "K x N (MN-major) mismatches: "
  call @check(%host, %c0, %a, %b) : (memref<2x64x128xf32>, index, memref<64x64xbf16>, memref<64x128xbf16>) -> ()
  vector.print str "N x K (K-major) mismatches: "
  call @check(%host, %c1, %a, %b) : (memref<2x64x128xf32>, index, memref<64x64xbf16>, memref<64x128xbf16>) -> ()
  gpu.dealloc %out : memref<2x64x128xf32>
  gpu.dealloc %da : memref<64x64xbf16>
  gpu.dealloc %db : memref<64x128xbf16>
  gpu.dealloc %dbt : memref<128x64xbf16>
  memref.dealloc %host : memref<2x64x128xf32>
  memref.dealloc %a : memref<64x64xbf16>
  memref.dealloc %b : memref<64x128xbf16>
  memref.dealloc %bt : memref<128x64xbf16>
  return
}

// Prints how many elements of result r differ from A·B summed in f32.
func.func @check(%out: memref<2x64x128xf32>, %r: index, %a: memref<64x64xbf16>, %b: memref<64x128xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant 0.0 : f32
  %count = scf.for %m = %c0 to %c64 step %c1 iter_args(%n0 = %c0) -> (index) {
    %row = scf.for %n = %c0 to %c128 step %c1 iter_args(%n1 = %n0) -> (index) {
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %z) -> (f32) {
        %x = memref.load %a[%m, %k] : memref<64x64xbf16>
        %y = memref.load %b[%k, %n] : memref<64x128xbf16>
        %xf = arith.extf %x : bf16 to f32
        %yf = arith.extf %y : bf16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s1 = arith.addf %s, %p : f32
        scf.yield %s1 : f32
      }
      %got = memref.load %out[%r, %m, %n] : memref<2x64x128xf32>
      %same = arith.cmpf oeq, %got, %sum : f32
      %inc = arith.select %same, %c0, %c1 : index
      %n2 = arith.addi %n1, %inc : index
      scf.yield %n2 : index
    }
    scf.yield %row : index
  }
  vector.print %count : index
  return
}
