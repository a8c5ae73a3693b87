// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false bf16-pair-order=false" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=0 streaming-threshold=1 bf16-pair-order=false" | FileCheck %s --check-prefix=STREAM
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=generic parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=GENERIC

// Quantized outputs (DESIGN.md §8) in the row kernel (QuantizedRow.cpp). A
// static scale: 1/s once, and each normalized vector quantized and stored
// in the normalize sweep. fp8 on x86 with 512-bit registers (16 f32 lanes,
// one zmm; QuantizedRow.cpp's quantizeFloat8ByMadd): |t| clamped by a
// select that keeps a NaN, a NaN then replaced by 480 (code 0x7F's value);
// C = max(2^e, 2^-6) · K in one fma with |t| (the rounding addition);
// vpmaddwd gives 256 · code; byte 1 of each i32 (the code) and byte 3 of
// t's bits (its sign in bit 7) are gathered by byte shuffles and merged
// (no shift, no vpmovdb). The generic target keeps quantizeFloat8's
// truncation and AVX2 its packs (below).
// The AVX-512 runs here keep natural order (bf16-pair-order=false); the
// default, bf16 rows in pair order, is quantized-pair-order.mlir's.
// CHECK-LABEL: func.func @static
//  CHECK-SAME:   %[[S:[a-z0-9]+]]: f32
//       CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
//       CHECK: %[[INVV:.*]] = vector.broadcast %[[INV]] : f32 to vector<16xf32>
//       CHECK: scf.for
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   scf.for
//       CHECK:     %[[T:.*]] = arith.mulf %{{.*}}, %[[INVV]] : vector<16xf32>
//       CHECK:     %[[ABS:.*]] = math.absf %[[T]] : vector<16xf32>
//       CHECK:     %[[BIG:.*]] = arith.cmpf olt, %[[LARGEST:.*]], %[[ABS]] : vector<16xf32>
//       CHECK:     %[[MAG:.*]] = arith.select %[[BIG]], %[[LARGEST]], %[[ABS]]
//       CHECK:     %[[NANV:.*]] = arith.constant dense<4.800000e+02> : vector<16xf32>
//       CHECK:     %[[ORD:.*]] = arith.cmpf olt, %[[MAG]], %[[NANV]] : vector<16xf32>
//       CHECK:     %[[A:.*]] = arith.select %[[ORD]], %[[MAG]], %[[NANV]]
//       CHECK:     %[[ABITS:.*]] = arith.bitcast %[[A]] : vector<16xf32> to vector<16xi32>
//       CHECK:     %[[EMASK:.*]] = arith.constant dense<2139095040> : vector<16xi32>
//       CHECK:     %[[EXP:.*]] = arith.andi %[[ABITS]], %[[EMASK]] : vector<16xi32>
//       CHECK:     %[[EXPF:.*]] = arith.bitcast %[[EXP]] : vector<16xi32> to vector<16xf32>
//       CHECK:     %[[FLOORS:.*]] = arith.constant 1.562500e-02 : f32
//       CHECK:     %[[FLOOR:.*]] = vector.broadcast %[[FLOORS]] : f32 to vector<16xf32>
//       CHECK:     %[[GT:.*]] = arith.cmpf olt, %[[FLOOR]], %[[EXPF]] : vector<16xf32>
//       CHECK:     %[[BINADE:.*]] = arith.select %[[GT]], %[[EXPF]], %[[FLOOR]]
//       CHECK:     %[[KS:.*]] = arith.constant 0x4980FB98 : f32
//       CHECK:     %[[K:.*]] = vector.broadcast %[[KS]] : f32 to vector<16xf32>
//       CHECK:     %[[SUM:.*]] = math.fma %[[BINADE]], %[[K]], %[[A]] : vector<16xf32>
//       CHECK:     %[[WORDS:.*]] = vector.bitcast %[[SUM]] : vector<16xf32> to vector<32xi16>
//       CHECK:     %[[TBITS:.*]] = arith.bitcast %[[T]] : vector<16xf32> to vector<16xi32>
//       CHECK:     %[[W:.*]] = arith.constant dense<[256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16, 256, 16]> : vector<32xi16>
//   CHECK-NOT:     vector.extract_strided_slice
//       CHECK:     %[[CODES:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%[[WORDS]], %[[W]]) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
//       CHECK:     %[[TB:.*]] = vector.bitcast %[[TBITS]] : vector<16xi32> to vector<64xi8>
//       CHECK:     %[[SB:.*]] = vector.shuffle %[[TB]], %[[TB]] [3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63] : vector<64xi8>, vector<64xi8>
//       CHECK:     %[[SIGNBIT:.*]] = arith.constant dense<-128> : vector<16xi8>
//       CHECK:     %[[SIGN:.*]] = arith.andi %[[SB]], %[[SIGNBIT]] : vector<16xi8>
//       CHECK:     %[[CB:.*]] = vector.bitcast %[[CODES]] : vector<16xi32> to vector<64xi8>
//       CHECK:     %[[C:.*]] = vector.shuffle %[[CB]], %[[CB]] [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61] : vector<64xi8>, vector<64xi8>
//       CHECK:     %[[BYTES:.*]] = arith.ori %[[C]], %[[SIGN]] : vector<16xi8>
//   CHECK-NOT:     arith.trunci
//       CHECK:     %[[Q:.*]] = arith.bitcast %[[BYTES]] : vector<16xi8> to vector<16xf8E4M3FN>
//       CHECK:     vector.store %[[Q]], %{{.*}} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   vector.maskedstore {{.*}} vector<16xf8E4M3FN>
//   CHECK-NOT: memref.alloc
// AVX2 (16-bit rows: 16 lanes, two 256-bit registers; QuantizedRow.cpp's
// quantizeFloat8ByMadd): the same clamped |t|, then C = max(2^e, 2^-6) · K
// in one fma with |t|, vpmaddwd per register (256 · code), the two
// registers' signed packs, t's sign from the signed packs of its bits into
// bit 15, and the high bytes gathered by vpshufb.
// AVX2-LABEL: func.func @static
//       AVX2:   scf.for
//       AVX2:     %[[ABS:.*]] = math.absf %[[T:.*]] : vector<16xf32>
//       AVX2:     %[[MAG:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ABS]] : vector<16xi1>, vector<16xf32>
//       AVX2:     %[[A:.*]] = arith.select %{{.*}}, %[[MAG]], %{{.*}} : vector<16xi1>, vector<16xf32>
//       AVX2:     %[[ABITS:.*]] = arith.bitcast %[[A]] : vector<16xf32> to vector<16xi32>
//       AVX2:     %[[EXP:.*]] = arith.andi %[[ABITS]], %{{.*}} : vector<16xi32>
//       AVX2:     %[[EXPF:.*]] = arith.bitcast %[[EXP]] : vector<16xi32> to vector<16xf32>
//       AVX2:     %[[FLOORS:.*]] = arith.constant 1.562500e-02 : f32
//       AVX2:     %[[FLOOR:.*]] = vector.broadcast %[[FLOORS]] : f32 to vector<16xf32>
//       AVX2:     %[[GT:.*]] = arith.cmpf olt, %[[FLOOR]], %[[EXPF]] : vector<16xf32>
//       AVX2:     %[[BINADE:.*]] = arith.select %[[GT]], %[[EXPF]], %[[FLOOR]]
//       AVX2:     %[[KS:.*]] = arith.constant 0x4980FB98 : f32
//       AVX2:     %[[K:.*]] = vector.broadcast %[[KS]] : f32 to vector<16xf32>
//       AVX2:     %[[SUM:.*]] = math.fma %[[BINADE]], %[[K]], %[[A]] : vector<16xf32>
//       AVX2:     %[[WORDS:.*]] = vector.bitcast %[[SUM]] : vector<16xf32> to vector<32xi16>
//       AVX2:     %[[TBITS:.*]] = arith.bitcast %[[T]] : vector<16xf32> to vector<16xi32>
//       AVX2:     %[[W:.*]] = arith.constant dense<[256, 16, 256, 16,
//       AVX2:     %[[SIGNBIT:.*]] = arith.constant dense<-32768> : vector<16xi16>
//       AVX2:     %[[LO:.*]] = vector.extract_strided_slice %[[WORDS]] {offsets = [0], sizes = [16], strides = [1]}
//       AVX2:     %[[RLO:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[LO]], %[[W]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
//       AVX2:     %[[TLO:.*]] = vector.extract_strided_slice %[[TBITS]] {offsets = [0], sizes = [8], strides = [1]}
//       AVX2:     %[[HI:.*]] = vector.extract_strided_slice %[[WORDS]] {offsets = [16], sizes = [16], strides = [1]}
//       AVX2:     %[[RHI:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[HI]], %[[W]])
//       AVX2:     %[[THI:.*]] = vector.extract_strided_slice %[[TBITS]] {offsets = [8], sizes = [8], strides = [1]}
//       AVX2:     %[[CODES:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"(%[[RLO]], %[[RHI]]) : (vector<8xi32>, vector<8xi32>) -> vector<16xi16>
//       AVX2:     %[[SIGNS:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"(%[[TLO]], %[[THI]])
//       AVX2:     %[[SIGN:.*]] = arith.andi %[[SIGNS]], %[[SIGNBIT]] : vector<16xi16>
//       AVX2:     %[[SIGNED:.*]] = arith.ori %[[CODES]], %[[SIGN]] : vector<16xi16>
//       AVX2:     %[[BYTES:.*]] = vector.bitcast %[[SIGNED]] : vector<16xi16> to vector<32xi8>
//       AVX2:     %[[G:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pshuf.b"(%[[BYTES]], %{{.*}}) : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
//       AVX2:     %[[G0:.*]] = vector.extract_strided_slice %[[G]] {offsets = [0], sizes = [16], strides = [1]}
//       AVX2:     %[[G1:.*]] = vector.extract_strided_slice %[[G]] {offsets = [16], sizes = [16], strides = [1]}
//       AVX2:     %[[Q8:.*]] = arith.ori %[[G0]], %[[G1]] : vector<16xi8>
//       AVX2:     %[[Q:.*]] = arith.bitcast %[[Q8]] : vector<16xi8> to vector<16xf8E4M3FN>
//       AVX2:     vector.store %[[Q]], %{{.*}} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
//   AVX2-NOT:     arith.trunci
//   AVX2-NOT:     vector<64xi8>
//       AVX2:   vector.maskedstore {{.*}} vector<16xf8E4M3FN>
// The generic target (no ISA assumed) keeps quantizeFloat8's truncation
// (4 lanes): an f32 addition of C = 2^(e' + 20) · (1 + k·2^-23), e' |t|'s
// exponent saturated at the smallest normal one by a max and a sub on the
// 16-bit halves (vpsubusw on x86), k = (e' + 6)·8; the code is the sum's
// low byte, the sign or'ed into its bit 7, then truncated.
// GENERIC-LABEL: func.func @static
//   GENERIC-NOT:   llvm.call_intrinsic
//   GENERIC-NOT:   math.fma
//       GENERIC:   %[[HALVES:.*]] = vector.bitcast %{{.*}} : vector<4xi32> to vector<8xi16>
//       GENERIC:   %[[MAX:.*]] = arith.maxui %[[HALVES]], %[[FLOOR:.*]] : vector<8xi16>
//       GENERIC:   arith.subi %[[MAX]], %[[FLOOR]] : vector<8xi16>
//       GENERIC:   %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
//       GENERIC:   %[[SUMBITS:.*]] = arith.bitcast %[[SUM]] : vector<4xf32> to vector<4xi32>
//       GENERIC:   %[[SIGNED:.*]] = arith.ori %[[SUMBITS]], %{{.*}} : vector<4xi32>
//       GENERIC:   arith.trunci %[[SIGNED]] : vector<4xi32> to vector<4xi8>
//   GENERIC-NOT:   llvm.call_intrinsic
//   GENERIC-NOT:   vector.shuffle
// STREAM-LABEL: func.func @static
//       STREAM: scf.parallel
//       STREAM: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
//       STREAM: llvm.x86.sse.sfence
func.func @static(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xf8E4M3FN>)
  return
}

// -----

// Per token: y goes to a row buffer of n f32 (one per thread task), then
// amax over it (4 maxima of |y|'s bits as unsigned integers), s =
// max(amax / 127, s_min) stored, and q from the buffer. i8 on x86:
// min(127, t) by a select that keeps a NaN, vcvtps2dq (rounds by MXCSR, to
// nearest even), a signed saturation and the truncation; on generic
// (no ISA assumed) math.roundeven, the clamps and fptosi.
// CHECK-LABEL: func.func @per_token
//  CHECK-SAME:   %[[SC:[a-z0-9]+]]: memref<?xf32>
//       CHECK: scf.for %[[ROW:[a-z0-9]+]] =
//       CHECK:   %[[BUF:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       CHECK:   vector.extract %{{.*}}[0] : f32 from vector<1xf32>
//       CHECK:   vector.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<?xf32>, vector<16xf32>
//       CHECK:   scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
//       CHECK:     math.absf
//       CHECK:     arith.maxui
//       CHECK:   %[[AMAXBITS:.*]] = vector.reduction <maxui>
//       CHECK:   %[[AMAX:.*]] = arith.bitcast %[[AMAXBITS]] : i32 to f32
//       CHECK:   %[[D:.*]] = arith.divf %[[AMAX]], %cst{{.*}} : f32
//       CHECK:   %[[SCALE:.*]] = arith.maximumf %[[D]], %cst{{.*}} : f32
//       CHECK:   memref.store %[[SCALE]], %{{.*}}[%[[ROW]]] : memref<?xf32>
//       CHECK:   %[[INV:.*]] = arith.divf %cst{{.*}}, %[[SCALE]] : f32
//       CHECK:   scf.for
//       CHECK:     vector.load %[[BUF]]
//       CHECK:     %[[T:.*]] = arith.mulf
//       CHECK:     %[[BIG:.*]] = arith.cmpf olt, %[[QMAX:.*]], %[[T]] : vector<16xf32>
//       CHECK:     %[[CL:.*]] = arith.select %[[BIG]], %[[QMAX]], %[[T]]
//       CHECK:     %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"(%[[CL]], %{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<16xi32>, i16, i32) -> vector<16xi32>
//       CHECK:     %[[LO:.*]] = arith.maxsi %[[R]], %cst{{.*}} : vector<16xi32>
//       CHECK:     %[[HI:.*]] = arith.minsi %[[LO]], %cst{{.*}} : vector<16xi32>
//       CHECK:     arith.trunci %[[HI]] : vector<16xi32> to vector<16xi8>
//   CHECK-NOT:     vector<64xi8>
//       CHECK:     vector.store {{.*}} : memref<?x?xi8>, vector<16xi8>
//       CHECK:   memref.dealloc %[[BUF]]
// STREAM-LABEL: func.func @per_token
//       STREAM: scf.parallel
//       STREAM:   memref.alloc
//       STREAM:   vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<?x?xi8>, vector<16xi8>
//       STREAM:   memref.dealloc
// AVX2-LABEL: func.func @per_token
//       AVX2:   llvm.call_intrinsic "llvm.x86.avx.cvt.ps2dq.256"(%{{.*}}) : (vector<8xf32>) -> vector<8xi32>
//       AVX2:   arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
// GENERIC-LABEL: func.func @per_token
//   GENERIC-NOT:   llvm.call_intrinsic
//       GENERIC:   math.roundeven %{{.*}} : vector<4xf32>
//       GENERIC:   arith.fptosi %{{.*}} : vector<4xf32> to vector<4xi8>
//   GENERIC-NOT:   llvm.call_intrinsic
func.func @per_token(%x: memref<?x?xf32>, %q: memref<?x?xi8>, %sc: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) outs(%q : memref<?x?xi8>) scale_outs(%sc : memref<?xf32>)
  return
}

// -----

// Per group of 128: one scale and one quantize sweep per group.
// CHECK-LABEL: func.func @per_group
//       CHECK: scf.for %[[ROW:[a-z0-9]+]] =
//       CHECK:   memref.alloc(%c256)
//       CHECK:   scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:     vector.reduction <maxui>
//       CHECK:     memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[G]]] : memref<?x2xf32>
// f32 rows on AVX-512 are 16 lanes too: E5M2 by vpmaddwd with weights 256
// and 2^(2 + 1), the bytes gathered.
//       CHECK:     arith.constant dense<[256, 8, 256, 8,
//       CHECK:     llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       CHECK:     vector.shuffle %{{.*}} [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61] : vector<64xi8>, vector<64xi8>
//       CHECK:     arith.ori %{{.*}}, %{{.*}} : vector<16xi8>
//       CHECK:     vector.store {{.*}} : memref<?x256xf8E5M2>, vector<16xf8E5M2>
// f32 rows on AVX2 take 8 lanes, one register: no pair to pack, so the
// fp8 codes keep the truncation.
// AVX2-LABEL: func.func @per_group
//   AVX2-NOT:   llvm.x86.avx2.pmadd.wd
//       AVX2:   arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
//   AVX2-NOT:   llvm.x86.avx2.pmadd.wd
func.func @per_group(%x: memref<?x256xf32>, %q: memref<?x256xf8E5M2>, %sc: memref<?x2xf32>) {
  norm.layer_norm ins(%x : memref<?x256xf32>) outs(%q : memref<?x256xf8E5M2>) scale_outs(%sc : memref<?x2xf32>) {group_size = 128 : i64}
  return
}

// -----

// Per group of 64 in rows of 1216 (19 groups): on 512-bit registers the groups go in
// batches of 16 (QuantizedRow.cpp, emitGroupBatches): each group's vertical
// maximum of |y| (no horizontal reduction), 16 maxima reduced together by
// two-source shuffles, the scales and 1/s as vectors of 16 (1/s into a
// buffer of the row's groups), then per group q with its 1/s broadcast;
// the n/G mod 16 groups left take the single-group path. AVX2 and the
// generic target keep the single-group path for every group.
// CHECK-LABEL: func.func @per_group_batched
//       CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       CHECK: scf.for
//       CHECK:   scf.for
//       CHECK:     arith.maxui %{{.*}} : vector<16xi32>
//       CHECK:     vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi32>, vector<16xi32>
//       CHECK:     vector.shuffle %{{.*}}, %{{.*}} [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi32>, vector<16xi32>
//       CHECK:     vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<16xi32>, vector<16xi32>
//       CHECK:     arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK:     arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK:     memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x19xf32>
//       CHECK:     arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK:     vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>, vector<16xf32>
//       CHECK:   scf.for
//       CHECK:     memref.load %{{.*}}[%{{.*}}] : memref<?xf32>
//       CHECK:     vector.broadcast %{{.*}} : f32 to vector<16xf32>
//       CHECK:     llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       CHECK:   scf.for
//       CHECK:     vector.reduction <maxui>
// AVX2-LABEL: func.func @per_group_batched
//   AVX2-NOT:   vector.shuffle {{.*}} : vector<{{[0-9]+}}xi32>
//   AVX2-NOT:   arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
//       AVX2:   vector.reduction <maxui>
//   AVX2-NOT:   arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// GENERIC-LABEL: func.func @per_group_batched
//   GENERIC-NOT:   vector.shuffle {{.*}} : vector<{{[0-9]+}}xi32>
//       GENERIC:   vector.reduction <maxui>
//   GENERIC-NOT:   vector.shuffle {{.*}} : vector<{{[0-9]+}}xi32>
func.func @per_group_batched(%x: memref<?x1216xf32>, %q: memref<?x1216xf8E4M3FN>, %sc: memref<?x19xf32>) {
  norm.rms_norm ins(%x : memref<?x1216xf32>) outs(%q : memref<?x1216xf8E4M3FN>) scale_outs(%sc : memref<?x19xf32>) {group_size = 64 : i64}
  return
}

// -----

// E5M2 on 16-bit rows (AVX2): K = 2^21 · (1 + 65000 · 2^-23), 2^-14 the
// smallest normal, weights 256 and 2^(2 + 1) (QuantizedRow.cpp,
// quantizeFloat8ByMadd).
// AVX2-LABEL: func.func @static_e5m2
//       AVX2:   %[[FLOOR:.*]] = arith.constant 6.10351563E-5 : f32
//       AVX2:   %[[K:.*]] = arith.constant 0x4A00FDE8 : f32
//       AVX2:   math.fma
//       AVX2:   arith.constant dense<[256, 8, 256, 8,
//       AVX2:   llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
//       AVX2:   arith.bitcast %{{.*}} : vector<16xi8> to vector<16xf8E5M2>
func.func @static_e5m2(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xf8E5M2>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xf8E5M2>)
  return
}
