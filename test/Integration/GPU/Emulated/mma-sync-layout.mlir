// Checks of the emulator's warp-level ops against fragment layouts it did
// not write: upstream MLIR's own lowerings to nvgpu (whose layout tables
// upstream's sm80 integration tests run on GPUs) produce the per-lane code
// of a one-warp 16 × 16 · 16 × 8 f16 matmul, and --norm-test-emulate-gpu-
// on-cpu runs it:
//   - transform.nvgpu.rewrite_matmul_as_mma_sync on a linalg.matmul:
//     per-lane fragment loads from global memory and one nvgpu.mma.sync;
//   - upstream's vector → nvgpu conversion (--convert-vector-to-gpu=
//     use-nvgpu=true, applied to the launches only by the test pass
//     --norm-test-vector-to-nvgpu-in-launches) on a vector.contract whose
//     operands are read from shared memory: nvgpu.ldmatrix x4 for A,
//     ldmatrix x2 .trans for a K×N B, and nvgpu.mma.sync.
// Each result is compared with a scalar f32 matmul of the same inputs
// (products and sums exact, D rounded to f16 once): a wrong A, B or D
// mapping gives errors of order 1, the rounding at most 2^-11 relative.
// REQUIRES: mlir-runner
// RUN: norm-opt %s --transform-preload-library="transform-library-paths=%S/../Inputs/rewrite-matmul-as-mma-sync.mlir" --transform-interpreter --norm-test-vector-to-nvgpu-in-launches --canonicalize --norm-test-emulate-gpu-on-cpu --convert-linalg-to-loops %emulated_to_llvm | %emulated_run | FileCheck %s

// The warp-level ops exist before emulation.
// RUN: norm-opt %s --transform-preload-library="transform-library-paths=%S/../Inputs/rewrite-matmul-as-mma-sync.mlir" --transform-interpreter --norm-test-vector-to-nvgpu-in-launches --canonicalize | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: func.func @via_rewrite
// LOWERED:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// LOWERED-LABEL: func.func @via_vector_contract
// LOWERED:         nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// LOWERED:         nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// LOWERED:         nvgpu.mma.sync

// CHECK:      rewrite_matmul_as_mma_sync:
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [{{0|[0-9](\.[0-9]+)?e-0[4-9]}},   128]
// CHECK:      vector.contract via ldmatrix:
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [{{0|[0-9](\.[0-9]+)?e-0[4-9]}},   128]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printString(!llvm.ptr)
llvm.mlir.global internal constant @rewrite_label("rewrite_matmul_as_mma_sync:\0A\00")
llvm.mlir.global internal constant @contract_label("vector.contract via ldmatrix:\0A\00")

// ((p·i + q·k + r·i·k) mod m − ⌊m/2⌋) / 16, in f32 on small integers
// (exact), so every product and sum of the matmul is exact in f32.
func.func @hash(%i: index, %k: index, %p: f32, %q: f32, %r: f32, %m: f32) -> f16 {
  %i32 = arith.index_cast %i : index to i32
  %k32 = arith.index_cast %k : index to i32
  %x = arith.sitofp %i32 : i32 to f32
  %y = arith.sitofp %k32 : i32 to f32
  %px = arith.mulf %p, %x : f32
  %qy = arith.mulf %q, %y : f32
  %xy = arith.mulf %x, %y : f32
  %rxy = arith.mulf %r, %xy : f32
  %s0 = arith.addf %px, %qy : f32
  %s1 = arith.addf %s0, %rxy : f32
  %v = arith.remf %s1, %m : f32
  %two = arith.constant 2.0 : f32
  %halfm = arith.divf %m, %two : f32
  %h = math.floor %halfm : f32
  %d = arith.subf %v, %h : f32
  %sixteen = arith.constant 16.0 : f32
  %r16 = arith.divf %d, %sixteen : f32
  %f = arith.truncf %r16 : f32 to f16
  return %f : f16
}

// A (16 × 16) and B (16 × 8, K × N) from @hash, D zeroed.
func.func @fill(%lhs: memref<16x16xf16>, %rhs: memref<16x8xf16>, %res: memref<16x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3.0 : f32
  %c7 = arith.constant 7.0 : f32
  %c29 = arith.constant 29.0 : f32
  %c37 = arith.constant 37.0 : f32
  %c47 = arith.constant 47.0 : f32
  %c53 = arith.constant 53.0 : f32
  %c61 = arith.constant 61.0 : f32
  %c101 = arith.constant 101.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = func.call @hash(%i, %k, %c37, %c101, %c7, %c61) : (index, index, f32, f32, f32, f32) -> f16
      memref.store %v, %lhs[%i, %k] : memref<16x16xf16>
    }
  }
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = func.call @hash(%k, %j, %c53, %c29, %c3, %c47) : (index, index, f32, f32, f32, f32) -> f16
      memref.store %v, %rhs[%k, %j] : memref<16x8xf16>
    }
  }
  %z16 = arith.constant 0.0 : f16
  linalg.fill ins(%z16 : f16) outs(%res : memref<16x8xf16>)
  return
}

// Prints [max over (i, j) of |D − ref| / max(|ref|, 1), count of D ≠ 0].
func.func @report(%lhs: memref<16x16xf16>, %rhs: memref<16x8xf16>, %res: memref<16x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %z32 = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %err, %nz = scf.for %i = %c0 to %c16 step %c1 iter_args(%e0 = %z32, %n0 = %z32) -> (f32, f32) {
    %e2, %n2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%e1 = %e0, %n1 = %n0) -> (f32, f32) {
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
      %isnz = arith.cmpf une, %d, %z32 : f32
      %inc = arith.select %isnz, %one, %z32 : f32
      %n = arith.addf %n1, %inc : f32
      scf.yield %e, %n : f32, f32
    }
    scf.yield %e2, %n2 : f32, f32
  }
  %out = memref.alloc() : memref<2xf32>
  memref.store %err, %out[%c0] : memref<2xf32>
  memref.store %nz, %out[%c1] : memref<2xf32>
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<2xf32>
  return
}

func.func @via_rewrite() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %lhs = memref.alloc() : memref<16x16xf16>
  %rhs = memref.alloc() : memref<16x8xf16>
  %res = memref.alloc() : memref<16x8xf16>
  func.call @fill(%lhs, %rhs, %res) : (memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf16>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%lhs, %rhs : memref<16x16xf16>, memref<16x8xf16>)
                  outs(%res : memref<16x8xf16>)
    gpu.terminator
  }
  %label = llvm.mlir.addressof @rewrite_label : !llvm.ptr
  func.call @printString(%label) : (!llvm.ptr) -> ()
  func.call @report(%lhs, %rhs, %res) : (memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf16>) -> ()
  memref.dealloc %lhs : memref<16x16xf16>
  memref.dealloc %rhs : memref<16x8xf16>
  memref.dealloc %res : memref<16x8xf16>
  return
}

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @via_vector_contract() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %lhs = memref.alloc() : memref<16x16xf16>
  %rhs = memref.alloc() : memref<16x8xf16>
  %res = memref.alloc() : memref<16x8xf16>
  func.call @fill(%lhs, %rhs, %res) : (memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf16>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%a : memref<16x16xf16, #gpu.address_space<workgroup>>,
                       %b : memref<16x8xf16, #gpu.address_space<workgroup>>) {
    // Lane t < 16 stages row t of A and of B.
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %mine = arith.cmpi eq, %i, %tx : index
        scf.if %mine {
          %v = memref.load %lhs[%i, %k] : memref<16x16xf16>
          memref.store %v, %a[%i, %k] : memref<16x16xf16, #gpu.address_space<workgroup>>
        }
      }
      %mineB = arith.cmpi eq, %i, %tx : index
      scf.if %mineB {
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %rhs[%i, %j] : memref<16x8xf16>
          memref.store %v, %b[%i, %j] : memref<16x8xf16, #gpu.address_space<workgroup>>
        }
      }
    }
    gpu.barrier
    %pad = arith.constant 0.0 : f16
    %A = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %B = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = #transposed} : memref<16x8xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %C = vector.transfer_read %res[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf16>, vector<16x8xf16>
    %D = vector.contract {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf16>
    vector.transfer_write %D, %res[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf16>, memref<16x8xf16>
    gpu.terminator
  }
  %label = llvm.mlir.addressof @contract_label : !llvm.ptr
  func.call @printString(%label) : (!llvm.ptr) -> ()
  func.call @report(%lhs, %rhs, %res) : (memref<16x16xf16>, memref<16x8xf16>, memref<16x8xf16>) -> ()
  memref.dealloc %lhs : memref<16x16xf16>
  memref.dealloc %rhs : memref<16x8xf16>
  memref.dealloc %res : memref<16x8xf16>
  return
}

func.func @main() {
  func.call @via_rewrite() : () -> ()
  func.call @via_vector_contract() : () -> ()
  return
}
