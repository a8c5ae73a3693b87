// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 num-threads=2 vector-options={streaming-threshold=1 parallel-threshold=0}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 vector-options={bf16-pair-order=false}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s

// The bf16 row kernel in pair order (AVX2: x, γ, β widened as even and odd
// elements, y rounded and blended back; docs/design.md, "bf16 rows in pair
// order") against an independent integer round-to-nearest-even of the same
// f32 value, bit for bit. LayerNorm of rows x = +1, -1, +1, ... (mean 0,
// variance 1, ε below an ulp of 1: 1/σ = 1), so y = x·γ + β exactly as
// the f32 arithmetic gives it: β takes every bf16 bit pattern twice, with
// γ = 1 (y = β ± 1: ties to even both ways where β's ulp is 2, ±inf, NaNs
// of both signs, subnormals) and with γ pseudo-random bf16 (any sign,
// exponent, NaN or inf; inf - inf is NaN). Rows of 131078 = 16·8192 + 6
// elements: every row ends in a masked tail; with streaming stores (second
// RUN, two threads) rows 1 and 2 start with a masked alignment head. The
// natural-order kernels (pair order off, the 128-bit generic target) must
// agree too.

// CHECK: mismatches 0
// β = 256, 258, 260, ... (0x4380 = 17280 on) plus or minus 1: each a tie,
// to the even neighbour.
// CHECK: [17280, 17280, 17282, 17282, 17284, 17284, 17286, 17286]
// β = +inf (0x7F80 = 32640), then NaNs: the quiet NaN 0x7FC0 = 32704.
// CHECK: [32640, 32704, 32704, 32704, 32704, 32704, 32704, 32704]

func.func private @printMemrefI32(memref<*xi32>)

func.func @norm(%x: memref<3x131078xbf16>, %g: memref<131078xbf16>,
                %b: memref<131078xbf16>, %y: memref<3x131078xbf16>) {
  norm.layer_norm ins(%x : memref<3x131078xbf16>)
    weight(%g : memref<131078xbf16>) bias(%b : memref<131078xbf16>)
    outs(%y : memref<3x131078xbf16>) {epsilon = 1.0e-30 : f32}
  return
}

// The expected bits of f32 `v`, without arith.truncf: NaN (magnitude above
// inf's bits) is 0x7FC0, anything else rounds to nearest even.
func.func @expected(%v: f32) -> i32 {
  %bits = arith.bitcast %v : f32 to i32
  %abs_mask = arith.constant 2147483647 : i32
  %inf = arith.constant 2139095040 : i32
  %qnan = arith.constant 32704 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %half = arith.constant 32767 : i32
  %abs = arith.andi %bits, %abs_mask : i32
  %is_nan = arith.cmpi ugt, %abs, %inf : i32
  %hi = arith.shrui %bits, %c16 : i32
  %lsb = arith.andi %hi, %c1 : i32
  %bias = arith.addi %half, %lsb : i32
  %sum = arith.addi %bits, %bias : i32
  %rounded = arith.shrui %sum, %c16 : i32
  %r = arith.select %is_nan, %qnan, %rounded : i32
  return %r : i32
}

func.func @bf16_of(%bits: i32) -> bf16 {
  %h = arith.trunci %bits : i32 to i16
  %v = arith.bitcast %h : i16 to bf16
  return %v : bf16
}

// Row 0's bits at [start, start + 8).
func.func @print_at(%y: memref<3x131078xbf16>, %start: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<8xi32>
  scf.for %k = %c0 to %c8 step %c1 {
    %i = arith.addi %start, %k : index
    %b = memref.load %y[%c0, %i] : memref<3x131078xbf16>
    %h = arith.bitcast %b : bf16 to i16
    %w = arith.extui %h : i16 to i32
    memref.store %w, %out[%k] : memref<8xi32>
  }
  %u = memref.cast %out : memref<8xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 131078 : index
  %c65536 = arith.constant 65536 : index
  %mask16 = arith.constant 65535 : i32
  %mult = arith.constant 40503 : i32
  %one_bits = arith.constant 16256 : i32
  %zero = arith.constant 0 : i32
  %one_i = arith.constant 1 : i32
  %plus = arith.constant 1.0 : bf16
  %minus = arith.constant -1.0 : bf16
  %g = memref.alloc() : memref<131078xbf16>
  %b = memref.alloc() : memref<131078xbf16>
  %x = memref.alloc() : memref<3x131078xbf16>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %bbits = arith.andi %ii, %mask16 : i32
    %prod = arith.muli %bbits, %mult : i32
    %pseudo = arith.andi %prod, %mask16 : i32
    %first = arith.cmpi ult, %i, %c65536 : index
    %gbits = arith.select %first, %one_bits, %pseudo : i32
    %gv = func.call @bf16_of(%gbits) : (i32) -> bf16
    %bv = func.call @bf16_of(%bbits) : (i32) -> bf16
    memref.store %gv, %g[%i] : memref<131078xbf16>
    memref.store %bv, %b[%i] : memref<131078xbf16>
    %parity = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    %xv = arith.select %even, %plus, %minus : bf16
    scf.for %r = %c0 to %c3 step %c1 {
      memref.store %xv, %x[%r, %i] : memref<3x131078xbf16>
    }
  }
  %y = memref.alloc() : memref<3x131078xbf16>
  func.call @norm(%x, %g, %b, %y) : (memref<3x131078xbf16>, memref<131078xbf16>, memref<131078xbf16>, memref<3x131078xbf16>) -> ()
  %mismatches = scf.for %r = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
    %row = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (i32) {
      %xv = memref.load %x[%r, %i] : memref<3x131078xbf16>
      %gv = memref.load %g[%i] : memref<131078xbf16>
      %bv = memref.load %b[%i] : memref<131078xbf16>
      %xf = arith.extf %xv : bf16 to f32
      %gf = arith.extf %gv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %xg = arith.mulf %xf, %gf : f32
      %v = arith.addf %xg, %bf : f32
      %want = func.call @expected(%v) : (f32) -> i32
      %yv = memref.load %y[%r, %i] : memref<3x131078xbf16>
      %h = arith.bitcast %yv : bf16 to i16
      %got = arith.extui %h : i16 to i32
      %ne = arith.cmpi ne, %got, %want : i32
      %inc = arith.select %ne, %one_i, %zero : i32
      %next = arith.addi %a, %inc : i32
      scf.yield %next : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches "
  vector.print %mismatches : i32
  // Every bit of y, weighted by position: the avx512 twin compares kernels
  // whose NaNs and subnormals differ from @expected with it.
  %checksum = scf.for %r = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
    %row = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (i32) {
      %yv = memref.load %y[%r, %i] : memref<3x131078xbf16>
      %h = arith.bitcast %yv : bf16 to i16
      %got = arith.extui %h : i16 to i32
      %ii = arith.index_cast %i : index to i32
      %rr = arith.index_cast %r : index to i32
      %pos = arith.muli %rr, %mult : i32
      %pos1 = arith.addi %pos, %ii : i32
      %w = arith.addi %pos1, %one_i : i32
      %term = arith.muli %got, %w : i32
      %next = arith.addi %a, %term : i32
      scf.yield %next : i32
    }
    scf.yield %row : i32
  }
  vector.print str "checksum "
  vector.print %checksum : i32
  %s1 = arith.constant 17280 : index
  %s2 = arith.constant 32640 : index
  func.call @print_at(%y, %s1) : (memref<3x131078xbf16>, index) -> ()
  func.call @print_at(%y, %s2) : (memref<3x131078xbf16>, index) -> ()
  return
}
