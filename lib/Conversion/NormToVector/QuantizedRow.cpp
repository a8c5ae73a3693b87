//===- QuantizedRow.cpp - the row kernel's quantized output ---------------===//
//
// Writes the quantized y of the row kernel (QuantizedRow.h): the static
// scale's q in the normalize sweep, the dynamic scales' amax, scales and q
// from the row buffer. The rounding gives createQuantize's byte
// (NormQuantization.h, the decomposition's) for every y, in fewer x86
// instructions than its vector form.
//
//===----------------------------------------------------------------------===//

#include "QuantizedRow.h"

#include "norm/Support/FoldTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;

QuantizedRowWriter::QuantizedRowWriter(Location loc, const RowNormProblem &p,
                                       int64_t lanes,
                                       const NormVectorCodegenOptions &options,
                                       bool pairOrder)
    : VectorArith(loc, lanes, p.accType, options.nativeBF16Conversion), p(p),
      quant(*p.quant), accumulators(std::max<int64_t>(1, options.accumulators)),
      vectorBits(options.vectorBits),
      x86RoundingConversion(options.x86RoundingConversion),
      pairOrder(pairOrder) {}

/// 1/s in f32, as the decomposition computes it, widened to acc_type.
static Value inverseOf(OpBuilder &b, Location loc, Value scale) {
  return arith::DivFOp::create(
      b, loc,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0)).getResult(),
      scale);
}

/// The one result of the LLVM intrinsic `name`: the x86 instructions that
/// the encodings need and that no arith or vector op lowers to.
Value QuantizedRowWriter::callIntrinsic(OpBuilder &b, StringRef name,
                                        Type result, ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name),
                                       args)
      .getResult(0);
}

void QuantizedRowWriter::emitPrologue(OpBuilder &b) {
  if (buffersRows())
    return;
  Value scale = quant.scale;
  if (isa<MemRefType>(scale.getType()))
    scale = memref::LoadOp::create(b, loc, scale, ValueRange{});
  inverseScale = splat(b, toAcc(b, inverseOf(b, loc, scale)));
}

void QuantizedRowWriter::allocateRowBuffer(OpBuilder &b) {
  if (!buffersRows())
    return;
  // Pair layout: the tail's block of L is written in pair order, its odd
  // elements up to L/2 places past the row's end, so n rounds up to L.
  Value size = p.n;
  if (pairOrder)
    size =
        mulC(b, arith::CeilDivUIOp::create(b, loc, p.n, index(b, vectorLanes)),
             vectorLanes);
  rowBuffer = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, acc), ValueRange{size},
      b.getI64IntegerAttr(64));
  if (groupBatchLanes())
    groupInverses = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, acc),
        ValueRange{divC(b, p.n, quant.groupSize)}, b.getI64IntegerAttr(64));
}

void QuantizedRowWriter::releaseRowBuffer(OpBuilder &b) {
  if (!buffersRows())
    return;
  memref::DeallocOp::create(b, loc, rowBuffer);
  rowBuffer = Value();
  if (groupInverses)
    memref::DeallocOp::create(b, loc, groupInverses);
  groupInverses = Value();
}

/// q = sat(rne(y · inverse)) for fp8 as createQuantize computes it, in
/// fewer vector instructions (the kernel is compute-bound on fp8): the
/// sign stays in the wide integer until one final truncation; |t| is
/// clamped to the largest finite value by a select that x86 matches to one
/// vminps and that keeps a NaN (createQuantize's minimumf / maximumf need
/// several instructions each), and a NaN then becomes the value that code
/// 0x7F (NaN in both formats) would have on the format's grid, 480 for
/// E4M3 (a second vminps). The rounding is one f32 addition for normal and
/// subnormal results alike: with e' = max(e, 1 - bias), e the exponent of
/// |t| and 1 - bias the format's smallest normal exponent, C = 2^(e' +
/// shift) · (1 + k · 2^-sourceMantissa) (shift = source mantissa bits -
/// format mantissa bits, k = (e' + bias - 1) · 2^mantissa, below 2^7) has
/// an ulp of 2^(e' - mantissa), the format's step at |t|, and |t| <
/// 2^(e' + 1) keeps |t| + C in C's binade, so the addition rounds |t| half
/// to even (k is even) onto the format's grid: bits(|t| + C) = bits(C) + n,
/// n |t|'s rounded value in steps (2^mantissa + the mantissa for a normal,
/// which may carry into the exponent; the subnormal's code itself). The
/// code, n + k (a carry included; below 0x80), is then the low byte of
/// |t| + C. e' comes from |t|'s exponent field by one saturating
/// subtraction (vpsubusw on x86: the field lies in the upper 16 bits of an
/// f32). The same byte for every t: test/Integration/CPU/quantized-encode.mlir
/// compares the two on every rounding boundary, saturation and special
/// value (and the commits that brought this form compared it with the
/// earlier one, which had a separate subnormal path, on all 2^32 f32).
Value QuantizedRowWriter::quantizeFloat8(OpBuilder &b, Value t,
                                         FloatType type) {
  unsigned width = acc.getWidth();
  auto [sourceMantissa, sourceBias] = getFloatLayout(acc);
  auto [mantissa, bias] = getFloatLayout(type);
  Type intType = vecType(b.getIntegerType(width));
  auto intConst = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            cast<ShapedType>(intType),
            b.getIntegerAttr(b.getIntegerType(width), value)));
  };
  auto floatConst = [&](double value) -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(cast<ShapedType>(vecType(acc)),
                               b.getFloatAttr(acc, value)));
  };
  auto shr = [&](Value v, int64_t k) -> Value {
    return arith::ShRUIOp::create(b, loc, v, intConst(k));
  };
  auto bitcast = [&](Type to, Value v) -> Value {
    return arith::BitcastOp::create(b, loc, to, v);
  };
  // bound < v ? bound : v is vminps(bound, v), NaN → v; v < bound ? v :
  // bound is vminps(v, bound), NaN → bound.
  auto minKeepingNaN = [&](Value v, Value bound) -> Value {
    return arith::SelectOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, bound, v),
        bound, v);
  };
  auto minReplacingNaN = [&](Value v, Value bound) -> Value {
    return arith::SelectOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v, bound), v,
        bound);
  };

  Value largest = floatConst(
      APFloat::getLargest(type.getFloatSemantics()).convertToDouble());
  // 0x7F: exponent field 0x7F >> mantissa, mantissa field all ones.
  double nanValue =
      std::ldexp(2.0 - std::ldexp(1.0, -mantissa), (0x7F >> mantissa) - bias);
  Value magnitude =
      minReplacingNaN(minKeepingNaN(math::AbsFOp::create(b, loc, t), largest),
                      floatConst(nanValue));
  if (Value q = quantizeFloat8ByMadd(b, t, magnitude, type))
    return q;
  Value sign = arith::AndIOp::create(
      b, loc, shr(bitcast(intType, t), width - 8), intConst(0x80));
  Value magnitudeBits = bitcast(intType, magnitude);

  // P = (e' + bias - 1) << sourceMantissa: the exponent field less that of
  // 2^(1 - bias), saturated at 0, as max(field, m) - m on the half-width
  // lanes that hold the field (x86 matches it to one vpsubusw).
  int64_t shift = sourceMantissa - mantissa;
  int64_t exponentMask =
      ((int64_t(1) << (width - 1)) - 1) & ~((int64_t(1) << sourceMantissa) - 1);
  int64_t smallestNormal = (sourceBias + 1 - bias) << sourceMantissa;
  Value exponentBits =
      arith::AndIOp::create(b, loc, magnitudeBits, intConst(exponentMask));
  unsigned half = width / 2;
  Type halvesType = VectorType::get({2 * vectorLanes}, b.getIntegerType(half));
  SmallVector<APInt> floor;
  for (int64_t lane = 0; lane < vectorLanes; ++lane) {
    APInt wide(width, smallestNormal);
    floor.push_back(wide.trunc(half));            // low half first:
    floor.push_back(wide.lshr(half).trunc(half)); // little endian
  }
  Value floorHalves = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(cast<ShapedType>(halvesType), floor));
  Value exponentHalves =
      vector::BitCastOp::create(b, loc, halvesType, exponentBits);
  Value excess = vector::BitCastOp::create(
      b, loc, intType,
      arith::SubIOp::create(
          b, loc, arith::MaxUIOp::create(b, loc, exponentHalves, floorHalves),
          floorHalves));
  // C: exponent e' + shift, mantissa field k = P >> shift.
  Value c = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, excess,
          intConst((sourceBias + 1 - bias + shift) << sourceMantissa)),
      shr(excess, shift));
  Value sum =
      arith::AddFOp::create(b, loc, magnitude, bitcast(vecType(acc), c));
  // Bit 7 of the sum is 0 (the code is below 0x80), so the sign goes there
  // and the truncation drops the rest.
  Value byte = arith::TruncIOp::create(
      b, loc, vecType(b.getI8Type()),
      arith::OrIOp::create(b, loc, bitcast(intType, sum), sign));
  return bitcast(vecType(type), inElementOrder(b, byte));
}

/// quantizeFloat8's byte from its clamped |t|, `magnitude`, in fewer
/// instructions on AVX2 and AVX-512 (L a multiple of 16). The rounding is
/// the same addition, |t| + C, but C = 2^e' · K with K = 2^shift · (1 + k ·
/// 2^-sourceMantissa) for one k for all binades: 2^e' is max(2^e, 2^(1 -
/// bias)), the exponent field of |t| masked (0 for a subnormal or zero |t|)
/// and one vmaxps, and C · ... + |t| is one FMA (the product is exact). The
/// code then lies in two places of the sum's bits, n in its low 16-bit word
/// (as k + n) and e' in its exponent field (bits 7 to 14 of the high word,
/// e' + shift + sourceBias); vpmaddwd's 256 · low + 2^(mantissa + 1) · high
/// word of each i32, with k chosen so that the low word read as signed is
/// n + 2^mantissa · (bias - 1 - shift - sourceBias), gives 256 · code, code
/// = n + 2^mantissa · (e' + bias - 1) below 0x80. Then t's sign joins it:
/// - 256 bits (8 f32 lanes a register; 41 vector instructions a step of 16
///   values in the bench's bf16 loop against 50): vpackssdw of two
///   registers' results keeps the codes, vpackssdw of t's bits gives the
///   sign (saturation keeps an i32's sign) into bit 15 by a vpand and a
///   vpor, and one vpshufb, vextracti128 and vpor gather the 16 high bytes
///   in lane order;
/// - 512 bits (16 f32 lanes a register): byte 1 of each i32 of 256 · code
///   and byte 3 of t's bits (its sign in bit 7) gathered by byte shuffles
///   (one vpermt2b each for 32 values on VBMI, in element order, pair order
///   included) and merged by one vpternlogd: 9.5 vector instructions a 16
///   values after the multiply, where the sign's shift and vpternlogd, the
///   word's shift and vpmovdb took 11 (pair order 10.5: the sign's two,
///   then a shift, vpord and vpmovdw a 32).
/// The same byte as quantizeFloat8 on all 2^32 f32
/// (bench/cpu/quant-probe/exhaustive.c; the 512-bit form, variant 7, also
/// against a scalar rounding, for f8E4M3FN and f8E5M2) and in
/// test/Integration/CPU/quantized-encode*.mlir. Null where it does not
/// apply (not x86, acc_type not f32, registers neither 256 nor 512 bits, L
/// not a multiple of 16).
Value QuantizedRowWriter::quantizeFloat8ByMadd(OpBuilder &b, Value t,
                                               Value magnitude,
                                               FloatType type) {
  // vpmaddwd's lanes: one register of i32.
  int64_t pieceLanes = vectorBits / 32;
  if (!x86RoundingConversion || !acc.isF32() ||
      (vectorBits != 256 && vectorBits != 512) || vectorLanes % 16)
    return Value();
  auto [sourceMantissa, sourceBias] = getFloatLayout(acc);
  auto [mantissa, bias] = getFloatLayout(type);
  int64_t shift = sourceMantissa - mantissa;
  // k as a signed low word: below -2^mantissa (n + k stays in the low word,
  // n ≤ 2^(mantissa + 1)) and even (the addition's tie to even is n's).
  int64_t lowWord = (int64_t(1) << mantissa) * (bias - 1 - shift - sourceBias);
  int64_t k = lowWord + 65536;
  if (k < 0 || k + (int64_t(1) << (mantissa + 1)) >= 65536 || k % 2)
    return Value();

  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  auto vec = [&](int64_t lanes, Type element) {
    return VectorType::get({lanes}, element);
  };
  auto slice = [&](Value v, int64_t offset, int64_t size) -> Value {
    if (size == cast<VectorType>(v.getType()).getNumElements())
      return v;
    return vector::ExtractStridedSliceOp::create(b, loc, v, offset, size, 1);
  };
  VectorType intType = vec(vectorLanes, i32);
  Type floatType = vecType(acc);

  // 2^e' = max(2^e, 2^(1 - bias)): (floor < e) ? e : floor is one vmaxps.
  int64_t exponentMask =
      ((int64_t(1) << 31) - 1) & ~((int64_t(1) << sourceMantissa) - 1);
  Value exponent = arith::BitcastOp::create(
      b, loc, floatType,
      arith::AndIOp::create(
          b, loc, arith::BitcastOp::create(b, loc, intType, magnitude),
          createScalarOrSplatConstant(b, loc, intType, exponentMask)));
  Value floor = splat(b, accConst(b, std::ldexp(1.0, 1 - bias)));
  Value binade = arith::SelectOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, floor, exponent),
      exponent, floor);
  double factor =
      std::ldexp(1.0 + std::ldexp(double(k), -sourceMantissa), shift);
  Value sum = math::FmaOp::create(b, loc, binade, splat(b, accConst(b, factor)),
                                  magnitude);

  Value sumWords =
      vector::BitCastOp::create(b, loc, vec(2 * vectorLanes, i16), sum);
  Value tBits = arith::BitcastOp::create(b, loc, intType, t);
  SmallVector<int16_t> weights;
  for (int64_t lane = 0; lane < pieceLanes; ++lane)
    weights.append({256, int16_t(1 << (mantissa + 1))});
  Value weightWords = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(vec(2 * pieceLanes, i16),
                             ArrayRef<int16_t>(weights)));
  // 256 · code of the i32 lanes [lane, lane + pieceLanes).
  auto codesAt = [&](int64_t lane) -> Value {
    return callIntrinsic(
        b,
        vectorBits == 512 ? "llvm.x86.avx512.pmaddw.d.512"
                          : "llvm.x86.avx2.pmadd.wd",
        vec(pieceLanes, i32),
        {slice(sumWords, 2 * lane, 2 * pieceLanes), weightWords});
  };

  if (vectorBits == 512) {
    // The codes and t's signs gathered by byte shuffles (one vpermt2b each
    // for 32 values on VBMI): byte 1 of each i32 of 256 · code (bit 7 is
    // 0, code < 0x80) and byte 3 of t's bits (bit 7 is t's sign), taken in
    // element order (pair order too), then code | (sign byte & 0x80), one
    // vpternlogd: 2.5 vector instructions a 16 values where the sign's
    // shift and vpternlogd, then the word's shift and vpmovdb took 4 (pair
    // order: the sign's 2, and a shift, vpord and vpmovdw a 32).
    Value codes = vectorLanes == pieceLanes
                      ? Value()
                      : createScalarOrSplatConstant(b, loc, intType, 0);
    for (int64_t lane = 0; lane < vectorLanes; lane += pieceLanes) {
      Value piece = codesAt(lane);
      codes = vectorLanes == pieceLanes ? piece
                                        : vector::InsertStridedSliceOp::create(
                                              b, loc, piece, codes, lane, 1)
                                              .getResult();
    }
    // The lane of element e: e itself, or in pair order e / 2 (even) and
    // L/2 + e / 2 (odd).
    auto laneOf = [&](int64_t e) {
      return pairOrder ? (e % 2) * (vectorLanes / 2) + e / 2 : e;
    };
    auto byteAt = [&](Value words, int64_t byte) -> Value {
      Value bytes =
          vector::BitCastOp::create(b, loc, vec(4 * vectorLanes, i8), words);
      SmallVector<int64_t> picks;
      for (int64_t e = 0; e < vectorLanes; ++e)
        picks.push_back(4 * laneOf(e) + byte);
      return vector::ShuffleOp::create(b, loc, bytes, bytes, picks);
    };
    Value signBytes = byteAt(tBits, 3);
    Value signBit = createScalarOrSplatConstant(b, loc, vec(vectorLanes, i8),
                                                APInt::getSignMask(8));
    Value signs = arith::AndIOp::create(b, loc, signBytes, signBit);
    Value codeBytes = byteAt(codes, 1);
    Value bytes = arith::OrIOp::create(b, loc, codeBytes, signs);
    return arith::BitcastOp::create(b, loc, vecType(type), bytes);
  }

  // The i16 sign bit, 0x8000 as an unsigned 16-bit pattern (-32768 read
  // signed; the int64_t overload wants a value that fits unsigned).
  Value signBit = createScalarOrSplatConstant(b, loc, vec(2 * pieceLanes, i16),
                                              APInt::getSignMask(16));
  // vpshufb: the high byte of each word, in lane order (the packs
  // interleave the two registers' 128-bit halves), zero elsewhere.
  SmallVector<int8_t> gather(32, -1);
  for (int64_t i = 0; i < 4; ++i) {
    gather[i] = static_cast<int8_t>(2 * i + 1);           // low half, 0-3
    gather[8 + i] = static_cast<int8_t>(2 * i + 9);       // high half, 0-3
    gather[16 + 4 + i] = static_cast<int8_t>(2 * i + 1);  // low half, 4-7
    gather[16 + 12 + i] = static_cast<int8_t>(2 * i + 9); // high half, 4-7
  }
  Value gatherMask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vec(32, i8), ArrayRef<int8_t>(gather)));

  // The destination of the groups of 16 bytes, where there are several.
  Value bytes =
      vectorLanes == 16
          ? Value()
          : createScalarOrSplatConstant(b, loc, vec(vectorLanes, i8), 0);
  for (int64_t offset = 0; offset < vectorLanes; offset += 2 * pieceLanes) {
    Value codes[2], signs[2];
    for (int64_t piece = 0; piece < 2; ++piece) {
      int64_t lane = offset + piece * pieceLanes;
      codes[piece] = codesAt(lane);
      signs[piece] = slice(tBits, lane, pieceLanes);
    }
    Value words = callIntrinsic(b, "llvm.x86.avx2.packssdw",
                                vec(2 * pieceLanes, i16), {codes[0], codes[1]});
    Value signWords =
        callIntrinsic(b, "llvm.x86.avx2.packssdw", vec(2 * pieceLanes, i16),
                      {signs[0], signs[1]});
    words = arith::OrIOp::create(
        b, loc, words, arith::AndIOp::create(b, loc, signWords, signBit));
    Value gathered = callIntrinsic(
        b, "llvm.x86.avx2.pshuf.b", vec(32, i8),
        {vector::BitCastOp::create(b, loc, vec(32, i8), words), gatherMask});
    Value merged = arith::OrIOp::create(b, loc, slice(gathered, 0, 16),
                                        slice(gathered, 16, 16));
    bytes = vectorLanes == 16 ? merged
                              : vector::InsertStridedSliceOp::create(
                                    b, loc, merged, bytes, offset, 1)
                                    .getResult();
  }
  return arith::BitcastOp::create(b, loc, vecType(type),
                                  inElementOrder(b, bytes));
}

/// q = sat(rne(y · inverse)) for i8 as createQuantize computes it, with its
/// NaN-sending maxnumf / minnumf written as the selects x86 matches to one
/// vmaxps / vminps each (the NaN-propagating forms need three instructions
/// each): t > -128 ? t : -128 gives -128 for a NaN, as maxnumf does, and
/// the second clamp sees no NaN.
Value QuantizedRowWriter::quantizeInt8(OpBuilder &b, Value t) {
  auto clamp = [&](arith::CmpFPredicate predicate, Value v, double bound) {
    Value boundVec = splat(b, accConst(b, bound));
    return arith::SelectOp::create(
        b, loc, arith::CmpFOp::create(b, loc, predicate, v, boundVec), v,
        boundVec);
  };
  double qmax = getQuantizedMax(quant.type);
  if (Value q = quantizeInt8ByConversion(b, t, qmax))
    return q;
  Value r = math::RoundEvenOp::create(b, loc, t);
  r = clamp(arith::CmpFPredicate::OGT, r, -qmax - 1);
  r = clamp(arith::CmpFPredicate::OLT, r, qmax);
  return inElementOrder(
      b, arith::FPToSIOp::create(b, loc, vecType(quant.type), r));
}

/// The same byte through x86's vcvtps2dq, which rounds by MXCSR: to
/// nearest even in every function the project compiles (docs/design.md,
/// "The i8 rounding by vcvtps2dq"). Three instructions per vector on
/// AVX-512 (vminps, vcvtps2dq, a saturating vpmovsdb store) where the
/// roundeven path needs six: qmax < t ? qmax : t is one vminps that keeps a
/// NaN; the conversion gives INT_MIN for a NaN, -inf and anything below
/// -2^31 (Intel SDM, "integer indefinite"), and the saturation to
/// [-qmax - 1, qmax] that follows is the signed pack (vpackssdw /
/// vpacksswb, vpmovsdb) of the narrowing: -128 for those, as the
/// decomposition's maxnumf gives, and rounding commutes with clamping to
/// integer bounds. Null where the target has no such conversion (not x86,
/// acc_type not f32, or no 128/256/512-bit vector of f32).
Value QuantizedRowWriter::quantizeInt8ByConversion(OpBuilder &b, Value t,
                                                   double qmax) {
  // One conversion per register: L may be twice the register's f32 lanes
  // (16-bit rows on AVX2 take 16), and the intrinsics are per register.
  int64_t pieceLanes = std::min<int64_t>(vectorLanes, vectorBits / 32);
  if (!x86RoundingConversion || !acc.isF32() || vectorLanes % pieceLanes)
    return Value();
  StringRef intrinsic;
  switch (pieceLanes) {
  case 4:
    intrinsic = "llvm.x86.sse2.cvtps2dq";
    break;
  case 8:
    intrinsic = "llvm.x86.avx.cvt.ps2dq.256";
    break;
  case 16:
    intrinsic = "llvm.x86.avx512.mask.cvtps2dq.512";
    break;
  default:
    return Value();
  }
  Type i32 = b.getI32Type();
  auto intSplat = [&](int64_t lanes, int64_t value) -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({lanes}, i32),
                               b.getIntegerAttr(i32, value)));
  };
  Value bound = splat(b, accConst(b, qmax));
  Value clamped = arith::SelectOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, bound, t), bound,
      t);
  VectorType pieceType = VectorType::get({pieceLanes}, i32);
  // The destination of the pieces' insertion, only where there are pieces.
  Value converted =
      pieceLanes == vectorLanes ? Value() : intSplat(vectorLanes, 0);
  for (int64_t offset = 0; offset < vectorLanes; offset += pieceLanes) {
    Value piece = clamped;
    if (pieceLanes != vectorLanes)
      piece = vector::ExtractStridedSliceOp::create(b, loc, clamped, offset,
                                                    pieceLanes, 1);
    SmallVector<Value> args{piece};
    if (pieceLanes == 16) {
      // Pass-through, all-lanes mask, and rounding 4: MXCSR's (the
      // current direction), as the 128/256-bit forms have.
      args.push_back(intSplat(pieceLanes, 0));
      args.push_back(arith::ConstantIntOp::create(b, loc, b.getI16Type(), -1));
      args.push_back(arith::ConstantIntOp::create(b, loc, i32, 4));
    }
    Value result = callIntrinsic(b, intrinsic, pieceType, args);
    converted = pieceLanes == vectorLanes
                    ? result
                    : vector::InsertStridedSliceOp::create(b, loc, result,
                                                           converted, offset, 1)
                          .getResult();
  }
  auto qmaxInt = static_cast<int64_t>(qmax);
  if (pairOrder && pieceLanes == 16 && vectorLanes == 32 && qmaxInt == 127) {
    // Pair order: one vpackssdw of the even and the odd half saturates to
    // i16 and interleaves them by 4 in each 128-bit lane (even 4k..4k+3,
    // then odd 4k..4k+3); a word shuffle within those lanes (vpshufb) puts
    // the words in element order and vpmovswb saturates them to bytes,
    // stored: three instructions for 32 values where natural order takes
    // two vpmovsdb. (The saturation as smax/smin + trunc is not matched to
    // vpmovswb once LLVM moves the shuffle below the clamps, hence the
    // intrinsic.)
    auto [even, odd] = pairHalves(b, converted);
    Type i16 = b.getI16Type();
    auto words = VectorType::get({32}, i16);
    Value packed =
        callIntrinsic(b, "llvm.x86.avx512.packssdw.512", words, {even, odd});
    SmallVector<int64_t> order;
    for (int64_t e = 0; e < 32; ++e) {
      int64_t i = e / 2;
      order.push_back(8 * (i / 4) + (e % 2) * 4 + i % 4);
    }
    Value ordered = vector::ShuffleOp::create(b, loc, packed, packed, order);
    auto bytes = VectorType::get({32}, b.getI8Type());
    Value passThrough = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(bytes, b.getI8IntegerAttr(0)));
    Value allLanes = arith::ConstantIntOp::create(b, loc, i32, -1);
    return callIntrinsic(b, "llvm.x86.avx512.mask.pmovs.wb.512", bytes,
                         {ordered, passThrough, allLanes});
  }
  converted = arith::MaxSIOp::create(b, loc, converted,
                                     intSplat(vectorLanes, -qmaxInt - 1));
  converted =
      arith::MinSIOp::create(b, loc, converted, intSplat(vectorLanes, qmaxInt));
  return inElementOrder(
      b, arith::TruncIOp::create(b, loc, vecType(quant.type), converted));
}

void QuantizedRowWriter::storeQuantized(OpBuilder &b, Value row, Value j,
                                        Value y, Value inverse, Value mask,
                                        bool nontemporal) {
  storeScaled(b, row, j, arith::MulFOp::create(b, loc, y, inverse), mask,
              nontemporal);
}

/// q of t = y · 1/s, stored at [j, j + L) of `row`.
void QuantizedRowWriter::storeScaled(OpBuilder &b, Value row, Value j, Value t,
                                     Value mask, bool nontemporal) {
  auto fp8 = dyn_cast<FloatType>(quant.type);
  Value q = fp8 ? quantizeFloat8(b, t, fp8) : quantizeInt8(b, t);
  writeVector(b, q, p.y, {row, j}, mask, nontemporal,
              /*alignment=*/vectorLanes);
}

bool QuantizedRowWriter::pipelinesSweep() const {
  return !buffersRows() && isa<FloatType>(quant.type);
}

Value QuantizedRowWriter::scaleY(OpBuilder &b, Value y) {
  return arith::MulFOp::create(b, loc, y, inverseScale);
}

void QuantizedRowWriter::storeScaledY(OpBuilder &b, Value row, Value j, Value t,
                                      bool nontemporal) {
  storeScaled(b, row, j, t, /*mask=*/Value(), nontemporal);
}

void QuantizedRowWriter::storeY(OpBuilder &b, Value row, Value j, Value y,
                                Value mask, bool nontemporal) {
  if (!buffersRows()) {
    storeQuantized(b, row, j, y, inverseScale, mask, nontemporal);
    return;
  }
  writeVector(b, y, rowBuffer, {j}, bufferMask(b, mask),
              /*nontemporal=*/false, /*alignment=*/0);
}

/// max |y| over [offset, offset + length) of the row buffer, in acc_type:
/// U independent maxima over whole steps of U·L, then single vectors, then a
/// masked tail (its lanes past the end read as 0, which changes no maximum).
/// The maxima are taken on the bits of |y| as unsigned integers: for
/// non-negative floats that is the float order, with NaN above +inf, so a
/// NaN row still gets a NaN scale (as maximumf gives the decomposition), in
/// one instruction where x86 needs several for a NaN-propagating maximumf.
Value QuantizedRowWriter::segmentMax(OpBuilder &b, Value offset, Value length) {
  Type bitsType = vecType(b.getIntegerType(acc.getWidth()));
  auto maxOf = [&](OpBuilder &nb, Value a, Value c) -> Value {
    return arith::MaxUIOp::create(nb, loc, a, c);
  };
  auto magnitude = [&](OpBuilder &nb, Value j, Value m) -> Value {
    Value v = loadAcc(nb, rowBuffer, {add(nb, offset, j)}, m);
    return arith::BitcastOp::create(nb, loc, bitsType,
                                    math::AbsFOp::create(nb, loc, v));
  };
  Value zero = index(b, 0);
  Value end = sub(b, length, remC(b, length, vectorLanes));
  Value wideEnd = sub(b, length, remC(b, length, vectorLanes * accumulators));
  SmallVector<Value> init(
      accumulators,
      arith::BitcastOp::create(b, loc, bitsType, zeros(b)).getResult());
  auto wide = scf::ForOp::create(
      b, loc, zero, wideEnd, index(b, vectorLanes * accumulators), init,
      [&](OpBuilder &nb, Location, Value j, ValueRange accs) {
        SmallVector<Value> next;
        for (int64_t u = 0; u < accumulators; ++u)
          next.push_back(maxOf(
              nb, accs[u], magnitude(nb, addC(nb, j, u * vectorLanes), {})));
        scf::YieldOp::create(nb, loc, next);
      });
  SmallVector<Value> parts(wide.getResults());
  while (parts.size() > 1) {
    Value last = parts.pop_back_val();
    parts.back() = maxOf(b, parts.back(), last);
  }
  auto single = scf::ForOp::create(
      b, loc, wideEnd, end, index(b, vectorLanes), ValueRange{parts[0]},
      [&](OpBuilder &nb, Location, Value j, ValueRange accs) {
        scf::YieldOp::create(nb, loc, maxOf(nb, accs[0], magnitude(nb, j, {})));
      });
  Value remainder = sub(b, length, end);
  auto tail = scf::IfOp::create(
      b, loc, ult(b, zero, remainder),
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(
            nb, loc,
            maxOf(nb, single.getResult(0),
                  magnitude(nb, end, bufferMask(nb, mask(nb, remainder)))));
      },
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc, single.getResult(0));
      });
  Value amax = vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXUI,
                                           tail.getResult(0));
  return arith::BitcastOp::create(b, loc, acc, amax);
}

/// One row's (or group's) scale s = max(amax / qmax, s_min) into
/// scales[scaleIndices], then q = quantize(y · 1/s) over the segment.
void QuantizedRowWriter::quantizeSegment(OpBuilder &b, Value row, Value offset,
                                         Value length, ValueRange scaleIndices,
                                         RowSegmentSweepFn sweep) {
  // The decomposition takes max |y| in f32; rounding is monotonic, so the
  // f32 of the acc_type maximum is the same value.
  Value amax = segmentMax(b, offset, length);
  Value scale =
      createDynamicScale(b, loc, narrow(b, amax, b.getF32Type()), quant);
  memref::StoreOp::create(b, loc, scale, quant.scales, scaleIndices);
  Value inverse = splat(b, toAcc(b, inverseOf(b, loc, scale)));
  sweep(b, length, [&](OpBuilder &nb, Value j, Value m, bool nontemporal) {
    Value at = add(nb, offset, j);
    storeQuantized(nb, row, at, loadAcc(nb, rowBuffer, {at}, bufferMask(nb, m)),
                   inverse, m, nontemporal);
  });
}

/// Groups are batched on 512-bit registers of f32 (B = 16 lanes) where a
/// group is whole vectors of L lanes and L is whole registers: each group's
/// maximum of |y| is then a vertical maximum of its vectors, folded to one
/// register, and the maxima of B groups are reduced together.
int64_t QuantizedRowWriter::groupBatchLanes() const {
  if (!buffersRows() || quant.groupSize == 0 || vectorBits != 512 ||
      !acc.isF32())
    return 0;
  int64_t lanes = vectorBits / 32;
  if (vectorLanes % lanes || quant.groupSize % vectorLanes)
    return 0;
  return lanes;
}

/// The per-group sweep of quantizeSegment pays, per group, a horizontal
/// maximum (a shuffle tree of log2(B) steps), a scalar scale and a scalar
/// division. Here B groups' maxima are reduced at once, transpose-free:
/// each group's vertical maximum is a register of B lanes; two registers
/// whose lanes hold blocks of s lanes per group become one with blocks of
/// s/2 (two two-source shuffles, vpermt2d, and one maximum), so B
/// registers take B - 1 such steps and leave lane i = group i's maximum.
/// The scales, max(amax / qmax, s_min), and 1/s are then one vector
/// division each, as the decomposition computes them lane by lane; the
/// scales are stored, 1/s kept in a buffer of the row's groups and
/// broadcast per group in the quantize sweep.
void QuantizedRowWriter::emitGroupBatches(OpBuilder &b, Value row,
                                          Value batches,
                                          RowSegmentSweepFn sweep) {
  int64_t lanes = groupBatchLanes();
  int64_t groupSize = quant.groupSize;
  Type i32 = b.getI32Type();
  Type bitsType = vecType(i32);
  auto maxOf = [&](OpBuilder &nb, Value a, Value c) -> Value {
    return arith::MaxUIOp::create(nb, loc, a, c);
  };
  scf::ForOp::create(
      b, loc, index(b, 0), batches, index(b, 1), ValueRange{},
      [&](OpBuilder &nb, Location, Value batch, ValueRange) {
        Value first = mulC(nb, batch, lanes);
        Value start = mulC(nb, first, groupSize);
        SmallVector<Value> maxima;
        for (int64_t g = 0; g < lanes; ++g) {
          // The group's vectors, then its register halves, as a tree.
          SmallVector<Value> parts;
          for (int64_t j = 0; j < groupSize; j += vectorLanes) {
            Value v = loadAcc(nb, rowBuffer,
                              {addC(nb, start, g * groupSize + j)}, {});
            parts.push_back(arith::BitcastOp::create(
                nb, loc, bitsType, math::AbsFOp::create(nb, loc, v)));
          }
          Value m = foldTree(parts,
                             [&](Value x, Value y) { return maxOf(nb, x, y); });
          for (int64_t width = vectorLanes; width > lanes; width /= 2) {
            Value low = vector::ExtractStridedSliceOp::create(nb, loc, m, 0,
                                                              width / 2, 1);
            Value high = vector::ExtractStridedSliceOp::create(
                nb, loc, m, width / 2, width / 2, 1);
            m = maxOf(nb, low, high);
          }
          maxima.push_back(m);
        }
        // Blocks of `block` lanes per group, halved each level.
        for (int64_t block = lanes; block > 1; block /= 2) {
          SmallVector<int64_t> lowHalves, highHalves;
          for (int64_t source = 0; source < 2; ++source)
            for (int64_t start = 0; start < lanes; start += block)
              for (int64_t i = 0; i < block / 2; ++i) {
                lowHalves.push_back(source * lanes + start + i);
                highHalves.push_back(source * lanes + start + block / 2 + i);
              }
          SmallVector<Value> next;
          for (size_t i = 0; i < maxima.size(); i += 2) {
            Value lo = vector::ShuffleOp::create(nb, loc, maxima[i],
                                                 maxima[i + 1], lowHalves);
            Value hi = vector::ShuffleOp::create(nb, loc, maxima[i],
                                                 maxima[i + 1], highHalves);
            next.push_back(maxOf(nb, lo, hi));
          }
          maxima = std::move(next);
        }
        Value amax = arith::BitcastOp::create(
            nb, loc, VectorType::get({lanes}, acc), maxima[0]);
        Value scales = createDynamicScale(nb, loc, amax, quant);
        for (int64_t g = 0; g < lanes; ++g)
          memref::StoreOp::create(nb, loc,
                                  vector::ExtractOp::create(nb, loc, scales, g),
                                  quant.scales, {row, addC(nb, first, g)});
        Value ones = arith::ConstantOp::create(
            nb, loc,
            DenseElementsAttr::get(VectorType::get({lanes}, acc),
                                   nb.getFloatAttr(acc, 1.0)));
        Value inverses = arith::DivFOp::create(nb, loc, ones, scales);
        vector::StoreOp::create(nb, loc, inverses, groupInverses, {first});
        scf::YieldOp::create(nb, loc);
      });
  scf::ForOp::create(
      b, loc, index(b, 0), mulC(b, batches, lanes), index(b, 1), ValueRange{},
      [&](OpBuilder &nb, Location, Value g, ValueRange) {
        Value offset = mulC(nb, g, groupSize);
        Value inverse = splat(
            nb, memref::LoadOp::create(nb, loc, groupInverses, ValueRange{g}));
        sweep(nb, index(nb, groupSize),
              [&](OpBuilder &sb, Value j, Value m, bool nontemporal) {
                Value at = add(sb, offset, j);
                storeQuantized(sb, row, at,
                               loadAcc(sb, rowBuffer, {at}, bufferMask(sb, m)),
                               inverse, m, nontemporal);
              });
        scf::YieldOp::create(nb, loc);
      });
}

void QuantizedRowWriter::emitDynamicRow(OpBuilder &b, Value row,
                                        RowSegmentSweepFn sweep) {
  if (quant.groupSize == 0) {
    quantizeSegment(b, row, index(b, 0), p.n, {row}, sweep);
    return;
  }
  // Groups of G (a multiple of the store alignment, L bytes): the row's
  // streaming head is each group's, so one sweep per group keeps every
  // vector inside its group. Whole batches first where groups batch, then
  // the remaining groups one by one.
  int64_t groupSize = quant.groupSize;
  Value groups = divC(b, p.n, groupSize);
  Value firstSingle = index(b, 0);
  if (int64_t lanes = groupBatchLanes()) {
    Value batches = divC(b, groups, lanes);
    emitGroupBatches(b, row, batches, sweep);
    firstSingle = mulC(b, batches, lanes);
  }
  scf::ForOp::create(b, loc, firstSingle, groups, index(b, 1), ValueRange{},
                     [&](OpBuilder &nb, Location, Value g, ValueRange) {
                       quantizeSegment(nb, row, mulC(nb, g, groupSize),
                                       index(nb, groupSize), {row, g}, sweep);
                       scf::YieldOp::create(nb, loc);
                     });
}
