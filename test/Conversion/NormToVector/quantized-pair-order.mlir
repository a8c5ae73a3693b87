// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=PIPE
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false bf16-pair-order=false" | FileCheck %s --check-prefix=OFF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 parallel-threshold=-1 streaming-threshold=-1 pipeline-rows=false" | FileCheck %s --check-prefix=AVX2
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=0 pipeline-rows=false" | FileCheck %s --check-prefix=STREAM

// A quantized y with a static scale on bf16 rows on AVX-512 (docs/design.md,
// "bf16 rows in pair order"; RowKernel.cpp, quantizedBF16Pairs): vectors of
// 32 lanes (two zmm of f32) in pair order. 32 bf16 load as 16 words, the
// even elements widened by a shift (word << 16) and the odd ones by a mask
// (word & 0xffff0000), and the encodings give the bytes back in element
// order (QuantizedRow.cpp).
// fp8: quantizeFloat8ByMadd's vpmaddwd per zmm; the two registers' byte 1
// (the code) and t's byte 3 (its sign in bit 7) are gathered in element
// order by byte shuffles (even element e from lane e/2, odd e from lane
// 16 + e/2: one vpermt2b each) and merged: 32 bytes, no vpmovdb/vpmovdw.
// CHECK-LABEL: func.func @static_fp8
//       CHECK: vector.broadcast %{{.*}} : f32 to vector<32xf32>
//       CHECK: scf.for
//       CHECK:   %[[X:.*]] = vector.load %{{.*}} : memref<?x?xbf16>, vector<32xbf16>
//       CHECK:   %[[W:.*]] = vector.bitcast %[[X]] : vector<32xbf16> to vector<16xi32>
//       CHECK:   %[[EVEN:.*]] = arith.shli %[[W]], %{{.*}} : vector<16xi32>
//       CHECK:   %[[ODD:.*]] = arith.andi %[[W]], %{{.*}} : vector<16xi32>
//       CHECK:   %[[EF:.*]] = arith.bitcast %[[EVEN]] : vector<16xi32> to vector<16xf32>
//       CHECK:   %[[OF:.*]] = arith.bitcast %[[ODD]] : vector<16xi32> to vector<16xf32>
//       CHECK:   vector.shuffle %[[EF]], %[[OF]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
//       CHECK:   math.fma %{{.*}} : vector<32xf32>
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       CHECK:   %[[TB:.*]] = vector.bitcast %{{.*}} : vector<32xi32> to vector<128xi8>
//       CHECK:   %[[SB:.*]] = vector.shuffle %[[TB]], %[[TB]] [3, 67, 7, 71, 11, 75, 15, 79, 19, 83, 23, 87, 27, 91, 31, 95, 35, 99, 39, 103, 43, 107, 47, 111, 51, 115, 55, 119, 59, 123, 63, 127] : vector<128xi8>, vector<128xi8>
//       CHECK:   %[[SIGN:.*]] = arith.andi %[[SB]], %{{.*}} : vector<32xi8>
//       CHECK:   %[[CB:.*]] = vector.bitcast %{{.*}} : vector<32xi32> to vector<128xi8>
//       CHECK:   %[[C:.*]] = vector.shuffle %[[CB]], %[[CB]] [1, 65, 5, 69, 9, 73, 13, 77, 17, 81, 21, 85, 25, 89, 29, 93, 33, 97, 37, 101, 41, 105, 45, 109, 49, 113, 53, 117, 57, 121, 61, 125] : vector<128xi8>, vector<128xi8>
//       CHECK:   %[[BYTES:.*]] = arith.ori %[[C]], %[[SIGN]] : vector<32xi8>
//       CHECK:   %[[Q:.*]] = arith.bitcast %[[BYTES]] : vector<32xi8> to vector<32xf8E4M3FN>
//       CHECK:   vector.store %[[Q]], %{{.*}} : memref<?x?xf8E4M3FN>, vector<32xf8E4M3FN>
//   CHECK-NOT: arith.trunci
//   CHECK-NOT: vector<16xi8>
// The masked tail: a natural-order mask on the loads and the store.
//       CHECK:   vector.maskedload {{.*}} : memref<?x?xbf16>, vector<32xi1>, vector<32xbf16> into vector<32xbf16>
//       CHECK:   vector.maskedstore {{.*}} : memref<?x?xf8E4M3FN>, vector<32xi1>, vector<32xf8E4M3FN>
// Row pipelining: one chain of two registers, so the fp8 sweep is
// software-pipelined (QuantizedRow.h, pipelinesSweep) as on AVX2.
// PIPE-LABEL: func.func @static_fp8
//       PIPE: scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>)
//       PIPE:   vector.load %{{.*}} : memref<?x?xbf16>, vector<32xbf16>
//       PIPE:   arith.ori %{{.*}}, %{{.*}} : vector<32xi8>
//       PIPE:   vector.store %{{.*}} : memref<?x?xf8E4M3FN>, vector<32xf8E4M3FN>
// The option off keeps natural order: 16 lanes, extf, the bytes of one
// register gathered.
// OFF-LABEL: func.func @static_fp8
//   OFF-NOT:   vector<32xbf16>
//       OFF:   arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//       OFF:   vector.shuffle %{{.*}} [1, 5, 9, 13, {{.*}}] : vector<64xi8>, vector<64xi8>
//       OFF:   arith.ori %{{.*}}, %{{.*}} : vector<16xi8>
//       OFF:   vector.store %{{.*}} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
// AVX2 keeps its 16 lanes in natural order and its vpshufb gather.
// AVX2-LABEL: func.func @static_fp8
//   AVX2-NOT:   arith.shli
//       AVX2:   llvm.call_intrinsic "llvm.x86.avx2.pshuf.b"
//       AVX2:   vector.store %{{.*}} : memref<?x?xf8E4M3FN>, vector<16xf8E4M3FN>
func.func @static_fp8(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xf8E4M3FN>)
  return
}

// -----

// i8: vcvtps2dq per zmm; one vpackssdw of the even and the odd half
// (saturated to i16, interleaved by 4 in each 128-bit lane), a word shuffle
// within those lanes to element order (vpshufb), the signed saturation to
// bytes (vpmovswb).
// CHECK-LABEL: func.func @static_i8
//       CHECK:   vector.load %{{.*}} : memref<?x?xbf16>, vector<32xbf16>
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"
//       CHECK:   %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%{{.*}}, %{{.*}}) : (vector<16xi32>, vector<16xi32>) -> vector<32xi16>
//       CHECK:   %[[O:.*]] = vector.shuffle %[[P]], %[[P]] [0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15, 16, 20, 17, 21, 18, 22, 19, 23, 24, 28, 25, 29, 26, 30, 27, 31] : vector<32xi16>, vector<32xi16>
//       CHECK:   %[[ZERO:.*]] = arith.constant dense<0> : vector<32xi8>
//       CHECK:   %[[ALL:.*]] = arith.constant -1 : i32
//       CHECK:   %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.pmovs.wb.512"(%[[O]], %[[ZERO]], %[[ALL]]) : (vector<32xi16>, vector<32xi8>, i32) -> vector<32xi8>
//       CHECK:   vector.store %[[B]], %{{.*}} : memref<?x?xi8>, vector<32xi8>
// OFF-LABEL: func.func @static_i8
//   OFF-NOT:   llvm.x86.avx512.packssdw.512
//       OFF:   arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
//   OFF-NOT:   llvm.x86.avx512.packssdw.512
func.func @static_i8(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %s: f32, %q: memref<?x?xi8>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) scale(%s : f32) outs(%q : memref<?x?xi8>)
  return
}

// -----

// Dynamic scales on bf16 rows take pair order too (QuantizedRow.h): the
// row buffer, n rounded up to 32, holds each block of 32 as the kernel's
// vector has it (the even elements, then the odd ones); the masked tail
// stores it with the mask in pair order. amax reads the buffer (its tail
// with that mask) and q is encoded from it by the pair-order encoding,
// stored in element order with the natural mask.
// CHECK-LABEL: func.func @per_token_bf16
//       CHECK:   %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %c32 : index
//       CHECK:   %[[SIZE:.*]] = arith.muli %[[BLOCKS]], %c32{{.*}} : index
//       CHECK:   %[[BUF:.*]] = memref.alloc(%[[SIZE]]) {alignment = 64 : i64} : memref<?xf32>
//       CHECK:   vector.load %{{.*}} : memref<?x?xbf16>, vector<32xbf16>
//       CHECK:   vector.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<?xf32>, vector<32xf32>
//       CHECK:   %[[M:.*]] = vector.create_mask %{{.*}} : vector<32xi1>
//       CHECK:   %[[PM:.*]] = vector.shuffle %[[M]], %[[M]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xi1>, vector<32xi1>
//       CHECK:   vector.maskedstore %[[BUF]][%{{.*}}], %[[PM]], %{{.*}} : memref<?xf32>, vector<32xi1>, vector<32xf32>
//       CHECK:   arith.maxui %{{.*}} : vector<32xi32>
//       CHECK:   vector.reduction <maxui>, %{{.*}} : vector<32xi32> into i32
//       CHECK:   scf.for
//       CHECK:     vector.load %[[BUF]][%{{.*}}] : memref<?xf32>, vector<32xf32>
//       CHECK:     llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
//       CHECK:     arith.ori %{{.*}}, %{{.*}} : vector<32xi8>
//       CHECK:     vector.store %{{.*}} : memref<?x?xf8E4M3FN>, vector<32xf8E4M3FN>
//       CHECK:   %[[TM:.*]] = vector.create_mask %{{.*}} : vector<32xi1>
//       CHECK:   %[[TPM:.*]] = vector.shuffle %[[TM]], %[[TM]] [0, 2, 4
//       CHECK:   vector.maskedload %[[BUF]][%{{.*}}], %[[TPM]], %{{.*}} : memref<?xf32>, vector<32xi1>, vector<32xf32> into vector<32xf32>
//       CHECK:   vector.maskedstore %{{.*}}, %[[TM]], %{{.*}} : memref<?x?xf8E4M3FN>, vector<32xi1>, vector<32xf8E4M3FN>
// With streaming stores, the store sweep from the pair-layout buffer has no
// alignment head: it streams where the row's start is aligned (head 0) and
// stores plainly elsewhere.
// STREAM-LABEL: func.func @per_token_bf16
//       STREAM:   scf.if %{{.*}} {
//       STREAM:     %[[HEAD:.*]] = arith.minui %{{.*}}, %dim{{.*}} : index
//       STREAM:     vector.store %{{.*}} : memref<?xf32>, vector<32xf32>
//       STREAM:     %[[ALIGNED:.*]] = arith.cmpi eq, %[[HEAD]], %{{.*}} : index
//       STREAM:     scf.if %[[ALIGNED]] {
//       STREAM:       vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<?x?xf8E4M3FN>, vector<32xf8E4M3FN>
//       STREAM:     } else {
//   STREAM-NOT:       nontemporal
//       STREAM:       vector.store %{{.*}} : memref<?x?xf8E4M3FN>, vector<32xf8E4M3FN>
//       STREAM:     }
// The option off, and AVX2, keep natural order.
// OFF-LABEL: func.func @per_token_bf16
//   OFF-NOT:   vector<32xbf16>
//       OFF:   arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//       OFF:   vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
//   OFF-NOT:   vector<32xbf16>
// AVX2-LABEL: func.func @per_token_bf16
//   AVX2-NOT:   arith.shli
//       AVX2:   vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
//   AVX2-NOT:   arith.shli
func.func @per_token_bf16(%x: memref<?x?xbf16>, %g: memref<?xbf16>, %q: memref<?x?xf8E4M3FN>, %sc: memref<?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xbf16>) outs(%q : memref<?x?xf8E4M3FN>) scale_outs(%sc : memref<?xf32>)
  return
}

// -----

// Groups of 32 on i8: one vector a group, the group's scale from its one
// vector of the buffer, q by the pair-order i8 encoding.
// CHECK-LABEL: func.func @per_group_i8
//       CHECK:   vector.store %{{.*}} : memref<?xf32>, vector<32xf32>
//       CHECK:   scf.for
//       CHECK:     arith.maxui %{{.*}} : vector<32xi32>
//       CHECK:     memref.store %{{.*}} : memref<4x2xf32>
//       CHECK:     vector.load %{{.*}} : memref<?xf32>, vector<32xf32>
//       CHECK:     llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
//       CHECK:     vector.store %{{.*}} : memref<4x64xi8>, vector<32xi8>
// OFF-LABEL: func.func @per_group_i8
//   OFF-NOT:   llvm.x86.avx512.packssdw.512
//       OFF:   vector.store %{{.*}} : memref<4x64xi8>, vector<16xi8>
func.func @per_group_i8(%x: memref<4x64xbf16>, %g: memref<64xbf16>, %q: memref<4x64xi8>, %sc: memref<4x2xf32>) {
  norm.rms_norm ins(%x : memref<4x64xbf16>) weight(%g : memref<64xbf16>) outs(%q : memref<4x64xi8>) scale_outs(%sc : memref<4x2xf32>) {group_size = 32 : i64}
  return
}

// -----

// Natural order where pair order does not apply on AVX-512: an f32 γ.
// CHECK-LABEL: func.func @static_f32_weight
//   CHECK-NOT:   vector<32xbf16>
//       CHECK:   arith.extf %{{.*}} : vector<16xbf16> to vector<16xf32>
//   CHECK-NOT:   vector<32xbf16>
func.func @static_f32_weight(%x: memref<?x?xbf16>, %g: memref<?xf32>, %s: f32, %q: memref<?x?xf8E4M3FN>) {
  norm.rms_norm ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>) scale(%s : f32) outs(%q : memref<?x?xf8E4M3FN>)
  return
}
