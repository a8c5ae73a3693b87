// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=avx2 vector-options={streaming-threshold=0 parallel-threshold=-1}" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="target=generic" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu="codegen=upstream" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp | FileCheck %s

// The row kernel's f32 -> bf16 rounding (arith-expand's integer sequence,
// its loads and stores as i16: norm-bf16-memory-as-i16) against an
// independent integer round-to-nearest-even, bit for bit, for every value
// near a bf16 rounding decision: y = γ exactly (x all ones, ε below an ulp
// of 1, so 1/σ = 1), γ each f32 with sign and exponent taking all 512
// values, the bf16 mantissa's low bits 0, 1, 0x7E or 0x7F (its lsb 0 and
// 1, and the carry into the exponent) and the 16 bits rounded away 0, 1,
// 0x7FFF, 0x8000 (the tie), 0x8001 or 0xFFFF: ties to even both ways,
// overflow to ±inf, ±0, subnormals, ±inf and NaNs of both signs (the
// quiet NaN 0x7fc0). Rows of 12291 elements (12291 = 8·1536 + 3): each
// row ends in a masked tail; with streaming stores (second RUN) the second
// and third rows start with a masked alignment head. The last run is the
// upstream pipeline (scalar code), which must agree too.

// CHECK: mismatches 0
// 1.0 and its neighbours (sign 0, exponent 127), lsb 0 then 1: ties go to
// the even neighbour, 0x3F80 = 16256.
// CHECK: [16256, 16256, 16256, 16256, 16257, 16257, 16257, 16257, 16257, 16258, 16258, 16258, 16382, 16382, 16382, 16382, 16383, 16383, 16383, 16383, 16383, 16384, 16384, 16384]
// Exponent 254 rounding up to +inf (0x7F80 = 32640), then exponent 255:
// +inf, then NaNs (0x7FC0 = 32704) of every payload.
// CHECK: [32512, 32512, 32512, 32512, 32513, 32513, 32513, 32513, 32513, 32514, 32514, 32514, 32638, 32638, 32638, 32638, 32639, 32639, 32639, 32639, 32639, 32640, 32640, 32640]
// CHECK: [32640, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704]
// Sign 1, exponent 255: -inf (0xFF80 = 65408), then NaNs, sign dropped.
// CHECK: [65408, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704, 32704]

func.func private @printMemrefI32(memref<*xi32>)

func.func @norm(%x: memref<3x12291xbf16>, %g: memref<12291xf32>, %y: memref<3x12291xbf16>) {
  norm.rms_norm ins(%x : memref<3x12291xbf16>) weight(%g : memref<12291xf32>)
    outs(%y : memref<3x12291xbf16>) {epsilon = 1.0e-30 : f32}
  return
}

// The expected bits of γ[i], without arith.truncf: NaN (magnitude above
// inf's bits) is 0x7FC0, anything else rounds to nearest even.
func.func @expected(%bits: i32) -> i32 {
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

// Row 0's bits at [start, start + 24).
func.func @print_at(%y: memref<3x12291xbf16>, %start: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %out = memref.alloc() : memref<24xi32>
  scf.for %k = %c0 to %c24 step %c1 {
    %i = arith.addi %start, %k : index
    %b = memref.load %y[%c0, %i] : memref<3x12291xbf16>
    %h = arith.bitcast %b : bf16 to i16
    %w = arith.extui %h : i16 to i32
    memref.store %w, %out[%k] : memref<24xi32>
  }
  %u = memref.cast %out : memref<24xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %c12288 = arith.constant 12288 : index
  %n = arith.constant 12291 : index
  %c16 = arith.constant 16 : i32
  %c23 = arith.constant 23 : i32
  %zero = arith.constant 0 : i32
  %one_i = arith.constant 1 : i32
  %lows = arith.constant dense<[0, 1, 32767, 32768, 32769, 65535]> : tensor<6xi32>
  %mants = arith.constant dense<[0, 1, 126, 127]> : tensor<4xi32>
  %g = memref.alloc() : memref<12291xf32>
  scf.for %i = %c0 to %n step %c1 {
    %j = arith.remui %i, %c12288 : index
    %h = arith.divui %j, %c24 : index
    %mk = arith.divui %j, %c6 : index
    %m = arith.remui %mk, %c4 : index
    %k = arith.remui %j, %c6 : index
    %low = tensor.extract %lows[%k] : tensor<6xi32>
    %mant = tensor.extract %mants[%m] : tensor<4xi32>
    %hi = arith.index_cast %h : index to i32
    %top = arith.shli %hi, %c23 : i32
    %mid = arith.shli %mant, %c16 : i32
    %t = arith.ori %top, %mid : i32
    %bits = arith.ori %t, %low : i32
    %v = arith.bitcast %bits : i32 to f32
    memref.store %v, %g[%i] : memref<12291xf32>
  }
  %one = arith.constant 1.0 : bf16
  %x = memref.alloc() : memref<3x12291xbf16>
  linalg.fill ins(%one : bf16) outs(%x : memref<3x12291xbf16>)
  %y = memref.alloc() : memref<3x12291xbf16>
  func.call @norm(%x, %g, %y) : (memref<3x12291xbf16>, memref<12291xf32>, memref<3x12291xbf16>) -> ()
  %mismatches = scf.for %r = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (i32) {
    %row = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (i32) {
      %gv = memref.load %g[%i] : memref<12291xf32>
      %gb = arith.bitcast %gv : f32 to i32
      %want = func.call @expected(%gb) : (i32) -> i32
      %b = memref.load %y[%r, %i] : memref<3x12291xbf16>
      %h = arith.bitcast %b : bf16 to i16
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
  // Sign 0 exponent 127; exponent 254; exponent 255; sign 1 exponent 255.
  %s1 = arith.constant 3048 : index
  %s2 = arith.constant 6096 : index
  %s3 = arith.constant 6120 : index
  %s4 = arith.constant 12264 : index
  func.call @print_at(%y, %s1) : (memref<3x12291xbf16>, index) -> ()
  func.call @print_at(%y, %s2) : (memref<3x12291xbf16>, index) -> ()
  func.call @print_at(%y, %s3) : (memref<3x12291xbf16>, index) -> ()
  func.call @print_at(%y, %s4) : (memref<3x12291xbf16>, index) -> ()
  return
}
