//===- QuantizedRow.cpp - the row kernel's quantized output ---------------===//
//
// Writes the quantized y of the row kernel (QuantizedRow.h): the static
// scale's q in the normalize sweep, the dynamic scales' amax, scales and q
// from the row buffer. The rounding is createQuantize (NormQuantization.h)
// applied to whole vectors, the same arithmetic as the decomposition's, so
// the two give the same byte for the same y.
//
//===----------------------------------------------------------------------===//

#include "QuantizedRow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

QuantizedRowWriter::QuantizedRowWriter(Location loc, const RowNormProblem &p,
                                       int64_t lanes,
                                       const NormVectorCodegenOptions &options)
    : VectorArith(loc, lanes, p.accType, options.nativeBF16Conversion), p(p),
      quant(*p.quant),
      accumulators(std::max<int64_t>(1, options.accumulators)) {}

/// 1/s in f32, as the decomposition computes it, widened to acc_type.
static Value inverseOf(OpBuilder &b, Location loc, Value scale) {
  return arith::DivFOp::create(
      b, loc,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0)).getResult(),
      scale);
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
  rowBuffer = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, acc), ValueRange{p.n},
      b.getI64IntegerAttr(64));
}

void QuantizedRowWriter::releaseRowBuffer(OpBuilder &b) {
  if (!buffersRows())
    return;
  memref::DeallocOp::create(b, loc, rowBuffer);
  rowBuffer = Value();
}

void QuantizedRowWriter::storeQuantized(OpBuilder &b, Value row, Value j,
                                        Value y, Value inverse, Value mask,
                                        bool nontemporal) {
  Value q = createQuantize(b, loc, y, inverse, quant.type);
  writeVector(b, q, p.y, {row, j}, mask, nontemporal,
              /*alignment=*/vectorLanes);
}

void QuantizedRowWriter::storeY(OpBuilder &b, Value row, Value j, Value y,
                                Value mask, bool nontemporal) {
  if (!buffersRows()) {
    storeQuantized(b, row, j, y, inverseScale, mask, nontemporal);
    return;
  }
  writeVector(b, y, rowBuffer, {j}, mask, /*nontemporal=*/false,
              /*alignment=*/0);
}

/// max |y| over [offset, offset + length) of the row buffer, in acc_type:
/// U independent maxima over whole steps of U·L, then single vectors, then a
/// masked tail (its lanes past the end read as 0, which changes no maximum).
/// maximumf keeps a NaN, so a NaN row gets a NaN scale, as in the
/// decomposition.
Value QuantizedRowWriter::segmentMax(OpBuilder &b, Value offset, Value length) {
  auto maxOf = [&](OpBuilder &nb, Value a, Value c) -> Value {
    return arith::MaximumFOp::create(nb, loc, a, c);
  };
  auto magnitude = [&](OpBuilder &nb, Value j, Value m) -> Value {
    return math::AbsFOp::create(
        nb, loc, loadAcc(nb, rowBuffer, {add(nb, offset, j)}, m));
  };
  Value zero = index(b, 0);
  Value end = sub(b, length, remC(b, length, vectorLanes));
  Value wideEnd = sub(b, length, remC(b, length, vectorLanes * accumulators));
  SmallVector<Value> init(accumulators, zeros(b));
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
        scf::YieldOp::create(nb, loc,
                             maxOf(nb, single.getResult(0),
                                   magnitude(nb, end, mask(nb, remainder))));
      },
      [&](OpBuilder &nb, Location) {
        scf::YieldOp::create(nb, loc, single.getResult(0));
      });
  return vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF,
                                     tail.getResult(0));
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
    storeQuantized(nb, row, at, loadAcc(nb, rowBuffer, {at}, m), inverse, m,
                   nontemporal);
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
  // vector inside its group.
  int64_t groupSize = quant.groupSize;
  Value groups = divC(b, p.n, groupSize);
  scf::ForOp::create(b, loc, index(b, 0), groups, index(b, 1), ValueRange{},
                     [&](OpBuilder &nb, Location, Value g, ValueRange) {
                       quantizeSegment(nb, row, mulC(nb, g, groupSize),
                                       index(nb, groupSize), {row, g}, sweep);
                       scf::YieldOp::create(nb, loc);
                     });
}
