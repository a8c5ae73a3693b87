// A check of the emulator's mma.sync m16n8k16 against fragment layouts it
// did not write: upstream MLIR's transform.nvgpu.rewrite_matmul_as_mma_sync
// turns a 16 × 16 · 16 × 8 f16 linalg.matmul in a one-warp gpu.launch into
// per-lane fragment loads (its own layout tables, the ones upstream's sm80
// integration tests run on GPUs) and one nvgpu.mma.sync, which
// --norm-test-emulate-gpu-on-cpu then runs. The result is compared with a
// scalar f32 matmul of the same inputs (products exact, the emulated D
// rounded to f16 once): a wrong A, B or D mapping gives errors of order 1,
// the rounding at most 2^-11 relative.
// REQUIRES: mlir-runner
// RUN: norm-opt %s --transform-preload-library="transform-library-paths=%S/Inputs/rewrite-matmul-as-mma-sync.mlir" --transform-interpreter --norm-test-emulate-gpu-on-cpu --convert-linalg-to-loops %emulated_to_llvm | %emulated_run | FileCheck %s

// The rewrite produced the warp-level op (checked before emulation).
// RUN: norm-opt %s --transform-preload-library="transform-library-paths=%S/Inputs/rewrite-matmul-as-mma-sync.mlir" --transform-interpreter | FileCheck %s --check-prefix=REWRITE
// REWRITE: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>

// CHECK: max relative error:
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [{{0|[0-9](\.[0-9]+)?e-0[4-9]}}]
// CHECK: nonzero outputs:
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [128]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printString(!llvm.ptr)
llvm.mlir.global internal constant @err_label("max relative error:\0A\00")
llvm.mlir.global internal constant @nz_label("nonzero outputs:\0A\00")

// ((p·i + q·k + r·i·k) mod m − m/2) / 16: small integers / 16, so every
// product and sum is exact in f32.
func.func @hash(%i: index, %k: index, %p: index, %q: index, %r: index, %m: index) -> f16 {
  %a = arith.muli %i, %p : index
  %b = arith.muli %k, %q : index
  %ik = arith.muli %i, %k : index
  %c = arith.muli %ik, %r : index
  %s0 = arith.addi %a, %b : index
  %s1 = arith.addi %s0, %c : index
  %v = arith.remui %s1, %m : index
  %vi = arith.index_cast %v : index to i32
  %mi = arith.index_cast %m : index to i32
  %c2 = arith.constant 2 : i32
  %h = arith.divsi %mi, %c2 : i32
  %d = arith.subi %vi, %h : i32
  %f = arith.sitofp %d : i32 to f16
  %sixteen = arith.constant 16.0 : f16
  %r16 = arith.divf %f, %sixteen : f16
  return %r16 : f16
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c29 = arith.constant 29 : index
  %c32 = arith.constant 32 : index
  %c37 = arith.constant 37 : index
  %c47 = arith.constant 47 : index
  %c53 = arith.constant 53 : index
  %c61 = arith.constant 61 : index
  %c101 = arith.constant 101 : index
  %lhs = memref.alloc() : memref<16x16xf16>
  %rhs = memref.alloc() : memref<16x8xf16>
  %res = memref.alloc() : memref<16x8xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = func.call @hash(%i, %k, %c37, %c101, %c7, %c61) : (index, index, index, index, index, index) -> f16
      memref.store %v, %lhs[%i, %k] : memref<16x16xf16>
    }
  }
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = func.call @hash(%k, %j, %c53, %c29, %c3, %c47) : (index, index, index, index, index, index) -> f16
      memref.store %v, %rhs[%k, %j] : memref<16x8xf16>
    }
  }
  %z16 = arith.constant 0.0 : f16
  linalg.fill ins(%z16 : f16) outs(%res : memref<16x8xf16>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%lhs, %rhs : memref<16x16xf16>, memref<16x8xf16>)
                  outs(%res : memref<16x8xf16>)
    gpu.terminator
  }
  // max over (i, j) of |D − ref| / max(|ref|, 1), and how many D ≠ 0.
  %z32 = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %z64 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64
  %err, %nz = scf.for %i = %c0 to %c16 step %c1 iter_args(%e0 = %z32, %n0 = %z64) -> (f32, i64) {
    %e2, %n2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%e1 = %e0, %n1 = %n0) -> (f32, i64) {
      %ref = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %z32) -> f32 {
        %a = memref.load %lhs[%i, %k] : memref<16x16xf16>
        %b = memref.load %rhs[%k, %j] : memref<16x8xf16>
        %a32 = arith.extf %a : f16 to f32
        %b32 = arith.extf %b : f16 to f32
        %next = math.fma %a32, %b32, %acc : f32
        scf.yield %next : f32
      }
      %d16 = memref.load %res[%i, %j] : memref<16x8xf16>
      %d = arith.extf %d16 : f16 to f32
      %diff = arith.subf %d, %ref : f32
      %adiff = math.absf %diff : f32
      %aref = math.absf %ref : f32
      %den = arith.maximumf %aref, %one : f32
      %rel = arith.divf %adiff, %den : f32
      %e = arith.maximumf %e1, %rel : f32
      %isz = arith.cmpf une, %d, %z32 : f32
      %inc = arith.select %isz, %i1, %z64 : i64
      %n = arith.addi %n1, %inc : i64
      scf.yield %e, %n : f32, i64
    }
    scf.yield %e2, %n2 : f32, i64
  }
  %err_buf = memref.alloc() : memref<1xf32>
  memref.store %err, %err_buf[%c0] : memref<1xf32>
  %nz_buf = memref.alloc() : memref<1xi64>
  memref.store %nz, %nz_buf[%c0] : memref<1xi64>
  %l0 = llvm.mlir.addressof @err_label : !llvm.ptr
  func.call @printString(%l0) : (!llvm.ptr) -> ()
  %eu = memref.cast %err_buf : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%eu) : (memref<*xf32>) -> ()
  %l1 = llvm.mlir.addressof @nz_label : !llvm.ptr
  func.call @printString(%l1) : (!llvm.ptr) -> ()
  %nu = memref.cast %nz_buf : memref<1xi64> to memref<*xi64>
  func.call @printMemrefI64(%nu) : (memref<*xi64>) -> ()
  memref.dealloc %lhs : memref<16x16xf16>
  memref.dealloc %rhs : memref<16x8xf16>
  memref.dealloc %res : memref<16x8xf16>
  memref.dealloc %err_buf : memref<1xf32>
  memref.dealloc %nz_buf : memref<1xi64>
  return
}
