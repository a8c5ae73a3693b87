//===- NormDecomposition.cpp - norm ops into linalg
//-------------------------===//
//
// AggregatedOpInterface::decomposeOperation for every norm op: the ops become
// `linalg.generic` ops (on tensors or memrefs, like the op) that follow the
// numerics of DESIGN.md §4 exactly:
//  - statistics are accumulated in the accumulation type, inputs converted
//    before squaring;
//  - LayerNorm uses two passes over values shifted by a per-row pivot (the
//    row's first element). The shift x - p is exact in floating point
//    whenever p/2 <= x <= 2p (Sterbenz), which is precisely the |mean| >> std
//    case where E[x²] - E[x]² or even an unshifted two-pass mean loses
//    everything;
//  - the result is rounded where `cast_mode` says;
//  - a quantized result (DESIGN.md §8) is quantized from the unrounded y:
//    in the normalize sweep with a static scale; with dynamic scales, y goes
//    to a temporary in the accumulation type, an amax reduction per row (or
//    group) gives the scales, and a last sweep quantizes.
// Fused ops become the unfused sequence in the accumulation type (a norm op
// and a matmul), which the caller decomposes in turn.
//
//===----------------------------------------------------------------------===//

#include "NormLinalgEmitter.h"
#include "NormOpsSupport.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::detail;

namespace {

/// From the normalized value `v` (accumulation type) to the output element:
/// `v · (γ + offset) + β`, rounded before or after the weight per cast_mode.
/// A missing γ is 1, a missing β is 0. after_weight: all in acc_type, one
/// rounding to the output type. before_weight: `v` rounds to the input's
/// element type, the weight step runs in γ's type (PyTorch's promotion of
/// `weight * hidden.to(input_dtype)`; acc_type for a quantized y, which
/// NormNumerics::weightType says), then rounds to the output type.
Value applyWeightAndBias(OpBuilder &b, Location loc, Value v, Value gamma,
                         Value beta, const DecompositionNumerics &num) {
  bool scaled = gamma || num.weightOffset != 0.0;
  Type computeType = num.castMode == CastMode::after_weight ? Type(num.accType)
                                                            : num.weightType;
  Value result = v;
  if (num.castMode == CastMode::before_weight)
    result = castFloat(b, loc, result, num.elementType);
  result = castFloat(b, loc, result, computeType);
  if (scaled) {
    Value factor = gamma ? castFloat(b, loc, gamma, computeType)
                         : floatConstant(b, loc, computeType, 1.0);
    if (num.weightOffset != 0.0)
      factor = arith::AddFOp::create(
          b, loc, factor, floatConstant(b, loc, computeType, num.weightOffset));
    result = arith::MulFOp::create(b, loc, result, factor);
  }
  if (beta)
    result = arith::AddFOp::create(b, loc, result,
                                   castFloat(b, loc, beta, computeType));
  return castFloat(b, loc, result, num.outputType);
}

/// The operands of a standalone norm (absent ones are null).
struct NormOperands {
  Value input, residual, weight, bias;
  Value init, sumInit, meanInit, rstdInit;
  /// How γ and β are indexed from the iteration space (null: by the
  /// normalized dims; GroupNorm's per-channel γ/β differ).
  AffineMap paramMap;
  /// Set when `init` is quantized.
  std::optional<NormQuantization> quant;
  /// The rotary embedding's angles (null without one), pairing and
  /// rounding points.
  Value cos, sin;
  RopeMode ropeMode = RopeMode::rotate_half;
  RopeRounding ropeRounding = RopeRounding::once;
};

/// 1/s of a static scale (an f32 or a 0-d tensor/memref), computed once in
/// f32 and converted to the accumulation type.
Value emitInverseStaticScale(LinalgEmitter &em, Value scale, FloatType acc) {
  OpBuilder &b = em.b;
  if (isa<RankedTensorType>(scale.getType()))
    scale = tensor::ExtractOp::create(b, em.loc, scale, ValueRange{});
  else if (isa<MemRefType>(scale.getType()))
    scale = memref::LoadOp::create(b, em.loc, scale, ValueRange{});
  Value inverse = arith::DivFOp::create(
      b, em.loc, floatConstant(b, em.loc, b.getF32Type(), 1.0), scale);
  return castFloat(b, em.loc, inverse, acc);
}

/// How a dynamic scale is indexed from the norm's iteration space: by the
/// row, and per group by ⌊(flattened normalized index) / group_size⌋ (the
/// normalized dims are static).
AffineMap scalesMap(const NormMaps &maps, ShapedType inputType,
                    int64_t groupSize) {
  if (groupSize == 0)
    return maps.rows;
  MLIRContext *ctx = maps.rows.getContext();
  SmallVector<AffineExpr> exprs(maps.rows.getResults());
  AffineExpr flat = getAffineConstantExpr(0, ctx);
  for (int64_t d = maps.axis; d < maps.rank; ++d)
    flat = flat * inputType.getDimSize(d) + getAffineDimExpr(d, ctx);
  exprs.push_back(flat.floorDiv(groupSize));
  return AffineMap::get(maps.rank, 0, exprs, ctx);
}

/// The dynamic scales of `y` (the unrounded result, accumulation type) into
/// `quant.scales`: amax of |y| per row or group, then max(amax / qmax,
/// s_min), all in f32.
Value emitDynamicScales(LinalgEmitter &em, const NormMaps &maps, Value y,
                        const NormQuantization &quant) {
  Type f32 = em.b.getF32Type();
  auto yType = cast<ShapedType>(y.getType());
  AffineMap toScales = scalesMap(maps, yType, quant.groupSize);
  Value zero = floatConstant(em.b, em.loc, f32, 0.0);
  auto fill = linalg::FillOp::create(em.b, em.loc, ValueRange{zero},
                                     ValueRange{quant.scales});
  Value scales = em.onTensors ? fill.getResult(0) : quant.scales;
  // maximumf: a NaN in the row makes its scale NaN (and its fp8 values NaN).
  Value amax = em.generic(
      y, scales, {maps.identity, toScales}, maps.reduceNorm,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value magnitude =
            castFloat(nb, l, math::AbsFOp::create(nb, l, args[0]), f32);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::MaximumFOp::create(nb, l, magnitude, args[1])});
      });
  int64_t rank = cast<ShapedType>(amax.getType()).getRank();
  AffineMap id = em.b.getMultiDimIdentityMap(rank);
  return em.generic(ValueRange{}, amax, {id},
                    SmallVector<IteratorType>(rank, IteratorType::parallel),
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          nb, l, createDynamicScale(nb, l, args[0], quant));
                    });
}

/// q = quantize(y · 1/s) into `init`, s the dynamic scale of each element's
/// row or group.
Value emitDynamicQuantize(LinalgEmitter &em, const NormMaps &maps, Value y,
                          Value scales, Value init,
                          const NormQuantization &quant) {
  auto yType = cast<ShapedType>(y.getType());
  Type acc = yType.getElementType();
  return em.generic(
      {y, scales}, init,
      {maps.identity, scalesMap(maps, yType, quant.groupSize), maps.identity},
      maps.allParallel, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value inverse = arith::DivFOp::create(
            nb, l, floatConstant(nb, l, nb.getF32Type(), 1.0), args[1]);
        linalg::YieldOp::create(nb, l,
                                createQuantize(nb, l, args[0],
                                               castFloat(nb, l, inverse, acc),
                                               quant.type));
      });
}

/// The rotary embedding of `v` (the unrounded normalized value, acc type,
/// normalized over its last dim of static even size D) into `init`:
/// y_d = round(v_d · cos_d + sign_d · v_p(d) · sin_d), the partner p(d) read
/// through an affine map ((d + D/2) mod D, or d + 1 − 2·(d mod 2)) and the
/// angles through one that pins their broadcast (size-1) dims to 0. With
/// `rope_rounding = each_step`, `v` is already rounded to the output type
/// and each product and the sum round to it (in acc, then truncated: the
/// correctly rounded narrow operations, docs of `rope_rounding`).
Value emitRotation(LinalgEmitter &em, const NormMaps &maps, Value v,
                   const NormOperands &ops, FloatType acc, Type outputType) {
  MLIRContext *ctx = em.b.getContext();
  bool eachStep = ops.ropeRounding == RopeRounding::each_step;
  int64_t rank = maps.rank;
  int64_t d = cast<ShapedType>(v.getType()).getShape().back();
  bool half = ops.ropeMode == RopeMode::rotate_half;
  SmallVector<AffineExpr> partner, angles;
  ArrayRef<int64_t> angleShape = cast<ShapedType>(ops.cos.getType()).getShape();
  for (int64_t i = 0; i < rank; ++i) {
    AffineExpr dim = getAffineDimExpr(i, ctx);
    partner.push_back(dim);
    angles.push_back(angleShape[i] == 1 ? getAffineConstantExpr(0, ctx) : dim);
  }
  AffineExpr last = partner.back();
  partner.back() = half ? (last + d / 2) % d : last + 1 - 2 * (last % 2);
  AffineMap partnerMap = AffineMap::get(rank, 0, partner, ctx);
  AffineMap angleMap = AffineMap::get(rank, 0, angles, ctx);
  return em.generic(
      {v, v, ops.cos, ops.sin}, ops.init,
      {maps.identity, partnerMap, angleMap, angleMap, maps.identity},
      maps.allParallel, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value index = linalg::IndexOp::create(nb, l, rank - 1);
        // The first element of each pair takes −sin: d < D/2, or d even.
        Value first = half ? arith::CmpIOp::create(
                                 nb, l, arith::CmpIPredicate::ult, index,
                                 arith::ConstantIndexOp::create(nb, l, d / 2))
                           : arith::CmpIOp::create(
                                 nb, l, arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(
                                     nb, l, index,
                                     arith::ConstantIndexOp::create(nb, l, 2)),
                                 arith::ConstantIndexOp::create(nb, l, 0));
        // Each step rounds to the output type when asked to: round-trips
        // through it, in acc.
        auto step = [&](Value value) {
          return eachStep ? castFloat(nb, l,
                                      castFloat(nb, l, value, outputType), acc)
                          : value;
        };
        Value own = castFloat(nb, l, args[0], acc);
        Value other = castFloat(nb, l, args[1], acc);
        Value cosine = castFloat(nb, l, args[2], acc);
        Value sine = castFloat(nb, l, args[3], acc);
        Value term = step(arith::MulFOp::create(nb, l, other, sine));
        term = arith::SelectOp::create(
            nb, l, first, arith::NegFOp::create(nb, l, term), term);
        Value rotated = arith::AddFOp::create(
            nb, l, step(arith::MulFOp::create(nb, l, own, cosine)), term);
        linalg::YieldOp::create(nb, l, castFloat(nb, l, rotated, outputType));
      });
}

/// Adds the residual: s = x + r, rounded to the element type, written to
/// `sum_outs` when the op has it.
Value emitResidualAdd(LinalgEmitter &em, const NormMaps &maps,
                      const NormOperands &ops) {
  Type elementType = cast<ShapedType>(ops.input.getType()).getElementType();
  Value dest = ops.sumInit ? ops.sumInit
                           : em.temp(em.sizesOf(ops.input), elementType);
  return em.generic({ops.input, ops.residual}, dest,
                    {maps.identity, maps.identity, maps.identity},
                    maps.allParallel,
                    [](OpBuilder &nb, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          nb, l, ValueRange{arith::AddFOp::create(
                                     nb, l, args[0], args[1])});
                    });
}

/// Chan et al.'s combination of the LayerNorm statistics of rows split over
/// processes, in one sum over them: each process writes its (mean, M2) into
/// its own slot of an otherwise zero [2, P, rows...] tensor, so the sum is
/// every process's pair exactly (x + 0 = x), and every process combines the
/// pairs in the same order, so all get the same bits. 2P values per row
/// move, never the row, and E[x²] − E[x]² is never formed. `count` is this
/// process's part of a row (the same on all). Returns the whole rows' mean
/// shifted by this process's pivot, their M2 and their count.
std::tuple<Value, Value, Value>
combineSplitLayerNormStatistics(LinalgEmitter &em, const NormMaps &maps,
                                Value x, Value shiftedMean, Value m2,
                                Value count, const ProcessSplit &split) {
  OpBuilder &b = em.b;
  MLIRContext *ctx = b.getContext();
  auto acc = cast<FloatType>(getElementTypeOrSelf(m2.getType()));
  SmallVector<OpFoldResult> rowSizes = em.sizesOf(m2);
  int64_t axis = maps.axis;
  auto addPivot = [&](Value rowValue, bool subtract) {
    return em.generic(
        {x, rowValue}, em.temp(rowSizes, acc),
        {maps.rowPivot, maps.rowIdentity, maps.rowIdentity}, maps.rowsParallel,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value pivot = castFloat(nb, l, args[0], acc);
          Value v = subtract
                        ? Value(arith::SubFOp::create(nb, l, args[1], pivot))
                        : Value(arith::AddFOp::create(nb, l, pivot, args[1]));
          linalg::YieldOp::create(nb, l, v);
        });
  };
  Value mean = addPivot(shiftedMean, /*subtract=*/false);

  // The slots: loops (k, p, rows...).
  SmallVector<AffineExpr> slotRows, rows;
  for (int64_t d = 0; d < axis; ++d) {
    slotRows.push_back(getAffineDimExpr(d + 2, ctx));
    rows.push_back(getAffineDimExpr(d, ctx));
  }
  AffineMap slotRowMap = AffineMap::get(axis + 2, 0, slotRows, ctx);
  SmallVector<OpFoldResult> slotSizes{b.getIndexAttr(2),
                                      b.getIndexAttr(split.normParts)};
  slotSizes.append(rowSizes);
  Value self = split.normIndex;
  Value slots = em.generic(
      {mean, m2}, em.temp(slotSizes, acc),
      {slotRowMap, slotRowMap, b.getMultiDimIdentityMap(axis + 2)},
      SmallVector<IteratorType>(axis + 2, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value zero = arith::ConstantIndexOp::create(nb, l, 0);
        Value isMean =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                  linalg::IndexOp::create(nb, l, 0), zero);
        Value isMine =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                  linalg::IndexOp::create(nb, l, 1), self);
        Value v = arith::SelectOp::create(nb, l, isMean, args[0], args[1]);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(
                nb, l, isMine, v, floatConstant(nb, l, acc, 0.0))});
      });
  slots = split.sumOverNormParts(b, em.loc, slots);

  // The combination: loops (rows..., p), p reduced in its order.
  auto slotMap = [&](int64_t k) {
    SmallVector<AffineExpr> exprs{getAffineConstantExpr(k, ctx),
                                  getAffineDimExpr(axis, ctx)};
    exprs.append(rows);
    return AffineMap::get(axis + 1, 0, exprs, ctx);
  };
  AffineMap rowMap = AffineMap::get(axis + 1, 0, rows, ctx);
  SmallVector<IteratorType> overParts(axis, IteratorType::parallel);
  overParts.push_back(IteratorType::reduction);
  Value parts = floatConstant(b, em.loc, acc, split.normParts);
  Value meanSum = em.generic(
      slots, em.filled(rowSizes, acc, 0.0), {slotMap(0), rowMap}, overParts,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::AddFOp::create(nb, l, args[1], args[0])});
      });
  // Every part has the same count, so the mean is the parts' mean.
  Value wholeMean = em.generic(
      meanSum, em.temp(rowSizes, acc), {maps.rowIdentity, maps.rowIdentity},
      maps.rowsParallel, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::DivFOp::create(nb, l, args[0], parts)});
      });
  Value wholeM2 = em.generic(
      {slots, slots, wholeMean}, em.filled(rowSizes, acc, 0.0),
      {slotMap(1), slotMap(0), rowMap, rowMap}, overParts,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value delta = arith::SubFOp::create(nb, l, args[1], args[2]);
        Value spread = arith::MulFOp::create(
            nb, l, count, arith::MulFOp::create(nb, l, delta, delta));
        Value term = arith::AddFOp::create(nb, l, args[0], spread);
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::AddFOp::create(nb, l, args[3], term)});
      });
  return {addPivot(wholeMean, /*subtract=*/true), wholeM2,
          arith::MulFOp::create(b, em.loc, count, parts)};
}

} // namespace

Value norm::detail::emitRMSStatistics(LinalgEmitter &em, const NormMaps &maps,
                                      Value x, Value rstdDest, double partial,
                                      const DecompositionNumerics &num,
                                      const ProcessSplit *split) {
  SmallVector<OpFoldResult> sizes = em.sizesOf(x);
  ArrayRef<OpFoldResult> rowSizes = ArrayRef(sizes).take_front(maps.axis);
  ArrayRef<OpFoldResult> normSizes = ArrayRef(sizes).drop_front(maps.axis);
  Value n = em.product(normSizes);

  // pRMSNorm: only the first k = ceil(partial · n) elements of the flattened
  // normalized dims contribute.
  PartialPrefix prefix(em, maps, normSizes, n, partial);

  FloatType acc = num.accType;
  Value sumSq = emitCompensatedRowSum(
      em, maps, x, {maps.identity}, acc,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = castFloat(nb, l, args[0], acc);
        Value square = arith::MulFOp::create(nb, l, v, v);
        return prefix.select(nb, l, square, 0.0);
      });

  Value count = em.indexToFloat(prefix.count, acc);
  if (split && split->splitsNorm()) {
    // Σx² of the whole rows: one value per row moves, never the row.
    sumSq = split->sumOverNormParts(em.b, em.loc, sumSq);
    count = arith::MulFOp::create(
        em.b, em.loc, count,
        floatConstant(em.b, em.loc, acc, split->normParts));
  }
  Value dest = rstdDest ? rstdDest : em.temp(rowSizes, acc);
  return em.generic(sumSq, dest, {maps.rowIdentity, maps.rowIdentity},
                    maps.rowsParallel,
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value meanSq = arith::DivFOp::create(nb, l, args[0], count);
                      Value rstd = createReciprocalStd(
                          nb, l, meanSq, num.epsMode, num.epsilon);
                      linalg::YieldOp::create(nb, l, rstd);
                    });
}

std::pair<Value, Value> norm::detail::emitLayerNormStatistics(
    LinalgEmitter &em, const NormMaps &maps, Value x, Value rstdDest,
    const DecompositionNumerics &num, const ProcessSplit *split) {
  SmallVector<OpFoldResult> sizes = em.sizesOf(x);
  ArrayRef<OpFoldResult> rowSizes = ArrayRef(sizes).take_front(maps.axis);
  FloatType acc = num.accType;
  Value count =
      em.indexToFloat(em.product(ArrayRef(sizes).drop_front(maps.axis)), acc);

  // Pass 1: Σ (x − p).
  Value sum = emitCompensatedRowSum(
      em, maps, {x, x}, {maps.identity, maps.pivot}, acc,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return Value(arith::SubFOp::create(nb, l,
                                           castFloat(nb, l, args[0], acc),
                                           castFloat(nb, l, args[1], acc)));
      });
  Value shiftedMean = em.generic(
      sum, em.temp(rowSizes, acc), {maps.rowIdentity, maps.rowIdentity},
      maps.rowsParallel, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::DivFOp::create(nb, l, args[0], count)});
      });

  // Pass 2: Σ ((x − p) − mean_shifted)².
  Value m2 = emitCompensatedRowSum(
      em, maps, {x, x, shiftedMean}, {maps.identity, maps.pivot, maps.rows},
      acc, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value shifted = arith::SubFOp::create(
            nb, l, castFloat(nb, l, args[0], acc),
            castFloat(nb, l, args[1], acc));
        Value centered = arith::SubFOp::create(nb, l, shifted, args[2]);
        return Value(arith::MulFOp::create(nb, l, centered, centered));
      });
  if (split && split->splitsNorm())
    std::tie(shiftedMean, m2, count) = combineSplitLayerNormStatistics(
        em, maps, x, shiftedMean, m2, count, *split);
  Value dest = rstdDest ? rstdDest : em.temp(rowSizes, acc);
  Value rstd = em.generic(
      m2, dest, {maps.rowIdentity, maps.rowIdentity}, maps.rowsParallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value variance = arith::DivFOp::create(nb, l, args[0], count);
        linalg::YieldOp::create(
            nb, l,
            createReciprocalStd(nb, l, variance, num.epsMode, num.epsilon));
      });
  return {shiftedMean, rstd};
}

namespace {

/// Decomposes norm.rms_norm (isLayerNorm = false) or norm.layer_norm.
/// Returns the tensor results in `outs` order (none on memrefs).
SmallVector<Value> decomposeStandaloneNorm(OpBuilder &b, Location loc,
                                           bool isLayerNorm, int64_t axis,
                                           double partial,
                                           const NormOperands &ops,
                                           const DecompositionNumerics &num,
                                           const ProcessSplit *split) {
  auto inputType = cast<ShapedType>(ops.input.getType());
  LinalgEmitter em(b, loc, isa<RankedTensorType>(inputType));
  NormMaps maps(b, inputType.getRank(), axis);
  FloatType acc = num.accType;

  Value x = ops.residual ? emitResidualAdd(em, maps, ops) : ops.input;
  Value sum = ops.sumInit ? x : Value();

  Value shiftedMean, rstd, mean;
  if (isLayerNorm) {
    std::tie(shiftedMean, rstd) =
        emitLayerNormStatistics(em, maps, x, ops.rstdInit, num, split);
    if (ops.meanInit)
      mean = em.generic(
          {x, shiftedMean}, ops.meanInit,
          {maps.rowPivot, maps.rowIdentity, maps.rowIdentity},
          maps.rowsParallel, [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(
                    nb, l, castFloat(nb, l, args[0], acc), args[1])});
          });
  } else {
    rstd = emitRMSStatistics(em, maps, x, ops.rstdInit, partial, num, split);
  }

  // The normalize sweep: y = normalized · (γ + offset) + β. A quantized y
  // stays in the accumulation type: with a static scale it is quantized
  // here; with dynamic scales it goes to a temporary first. So does a y
  // the rotary embedding rotates before its one rounding.
  const std::optional<NormQuantization> &quant = ops.quant;
  DecompositionNumerics yNum = num;
  Value inverseScale, yDest = ops.init;
  // (Rounded to the output type first when each step of the rotation
  // rounds: w = round(v), as the op without rope stores it.)
  if (ops.cos) {
    if (ops.ropeRounding == RopeRounding::once)
      yNum.outputType = acc;
    yDest = em.temp(em.sizesOf(x), yNum.outputType);
  }
  if (quant) {
    yNum.outputType = acc;
    if (quant->isDynamic())
      yDest = em.temp(em.sizesOf(x), acc);
    else
      inverseScale = emitInverseStaticScale(em, quant->scale, acc);
  }
  SmallVector<Value> ins{x};
  SmallVector<AffineMap> indexing{maps.identity};
  if (isLayerNorm) {
    ins.append({x, shiftedMean});
    indexing.append({maps.pivot, maps.rows});
  }
  ins.push_back(rstd);
  indexing.push_back(maps.rows);
  int64_t firstParam = ins.size();
  for (Value param : {ops.weight, ops.bias}) {
    if (!param)
      continue;
    ins.push_back(param);
    indexing.push_back(ops.paramMap ? ops.paramMap : maps.norm);
  }
  indexing.push_back(maps.identity);
  bool hasWeight = static_cast<bool>(ops.weight);
  bool hasBias = static_cast<bool>(ops.bias);
  Value y = em.generic(
      ins, yDest, indexing, maps.allParallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = castFloat(nb, l, args[0], acc);
        if (isLayerNorm) {
          v = arith::SubFOp::create(nb, l, v, castFloat(nb, l, args[1], acc));
          v = arith::SubFOp::create(nb, l, v, args[2]);
        }
        v = arith::MulFOp::create(nb, l, v, args[firstParam - 1]);
        Value gamma = hasWeight ? args[firstParam] : Value();
        Value beta = hasBias ? args[firstParam + hasWeight] : Value();
        Value result = applyWeightAndBias(nb, l, v, gamma, beta, yNum);
        if (inverseScale)
          result = createQuantize(nb, l, result, inverseScale, quant->type);
        linalg::YieldOp::create(nb, l, result);
      });
  if (ops.cos)
    y = emitRotation(em, maps, y, ops, acc, num.outputType);
  Value scales;
  if (quant && quant->isDynamic()) {
    scales = emitDynamicScales(em, maps, y, *quant);
    y = emitDynamicQuantize(em, maps, y, scales, ops.init, *quant);
  }
  em.finish();

  if (!em.onTensors)
    return {};
  SmallVector<Value> results{y};
  for (Value result : {sum, mean})
    if (result)
      results.push_back(result);
  if (ops.rstdInit)
    results.push_back(rstd);
  if (scales)
    results.push_back(scales);
  return results;
}

//===----------------------------------------------------------------------===//
// Fused ops
//===----------------------------------------------------------------------===//

/// acc += lhs[rows, k] · rhs[k, n] (rhs[n, k] when transposed) over the
/// iteration space (rows..., n, k), into `acc` of shape [rows..., n].
Value emitMatmul(LinalgEmitter &em, Value lhs, Value rhs, bool transposeRhs,
                 Value accumulator, FloatType accType) {
  MLIRContext *ctx = em.b.getContext();
  int64_t rowRank = cast<ShapedType>(lhs.getType()).getRank() - 1;
  int64_t loops = rowRank + 2;
  SmallVector<AffineExpr> lhsExprs, outExprs;
  for (int64_t d = 0; d < rowRank; ++d) {
    lhsExprs.push_back(getAffineDimExpr(d, ctx));
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  AffineExpr n = getAffineDimExpr(rowRank, ctx);
  AffineExpr k = getAffineDimExpr(rowRank + 1, ctx);
  lhsExprs.push_back(k);
  outExprs.push_back(n);
  SmallVector<AffineExpr> rhsExprs =
      transposeRhs ? SmallVector<AffineExpr>{n, k} : SmallVector<AffineExpr>{k, n};
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, lhsExprs, ctx),
                              AffineMap::get(loops, 0, rhsExprs, ctx),
                              AffineMap::get(loops, 0, outExprs, ctx)};
  SmallVector<IteratorType> iterators(loops, IteratorType::parallel);
  iterators.back() = IteratorType::reduction;
  return em.generic({lhs, rhs}, accumulator, maps, iterators,
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value product = arith::MulFOp::create(
                          nb, l, castFloat(nb, l, args[0], accType),
                          castFloat(nb, l, args[1], accType));
                      linalg::YieldOp::create(
                          nb, l,
                          ValueRange{arith::AddFOp::create(nb, l, args[2], product)});
                    });
}

/// dest = round(acc + Σ addends), where addends are [N] (broadcast over rows)
/// or full-shape values, all converted to the accumulation type first.
Value emitAddAndRound(LinalgEmitter &em, Value accumulator,
                      ArrayRef<Value> addends, Value dest) {
  MLIRContext *ctx = em.b.getContext();
  auto destType = cast<ShapedType>(dest.getType());
  int64_t rank = destType.getRank();
  Type accType = cast<ShapedType>(accumulator.getType()).getElementType();
  Type elementType = destType.getElementType();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap lastDim = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
  SmallVector<Value> ins{accumulator};
  SmallVector<AffineMap> maps{id};
  for (Value addend : addends) {
    if (!addend)
      continue;
    ins.push_back(addend);
    maps.push_back(cast<ShapedType>(addend.getType()).getRank() == rank ? id
                                                                        : lastDim);
  }
  maps.push_back(id);
  return em.generic(ins, dest, maps,
                    SmallVector<IteratorType>(rank, IteratorType::parallel),
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value v = args[0];
                      for (Value addend : args.drop_front().drop_back())
                        v = arith::AddFOp::create(
                            nb, l, v, castFloat(nb, l, addend, accType));
                      linalg::YieldOp::create(nb, l,
                                              castFloat(nb, l, v, elementType));
                    });
}

/// The attributes a fused op passes on to the norm op it decomposes into.
template <typename FusedOp>
SmallVector<NamedAttribute> normAttributesOf(FusedOp op, FloatType accType) {
  SmallVector<NamedAttribute> attrs;
  if (Attribute eps = op.getEpsilonAttr())
    attrs.emplace_back(op.getEpsilonAttrName(), eps);
  if (Attribute offset = op.getWeightOffsetAttr())
    attrs.emplace_back(op.getWeightOffsetAttrName(), offset);
  attrs.emplace_back(op.getAccTypeAttrName(), TypeAttr::get(accType));
  attrs.emplace_back(op.getEpsModeAttrName(), op.getEpsModeAttr());
  if constexpr (std::is_same_v<FusedOp, RMSNormMatmulOp> ||
                std::is_same_v<FusedOp, LayerNormMatmulOp>)
    if (Attribute castMode = op.getCastModeAttr())
      attrs.emplace_back(op.getCastModeAttrName(), castMode);
  if constexpr (std::is_same_v<FusedOp, RMSNormMatmulOp>)
    if (Attribute partial = op.getPartialAttr())
      attrs.emplace_back(op.getPartialAttrName(), partial);
  if constexpr (std::is_same_v<FusedOp, MatmulRMSNormOp>) {
    if (Attribute ropeMode = op.getRopeModeAttr())
      attrs.emplace_back(op.getRopeModeAttrName(), ropeMode);
    if (Attribute ropeRounding = op.getRopeRoundingAttr())
      attrs.emplace_back(op.getRopeRoundingAttrName(), ropeRounding);
  }
  return attrs;
}

/// Creates norm.rms_norm / norm.layer_norm (NormOpTy) of `x` with γ (and,
/// for LayerNorm, β) into `init`, without a residual, with the statistics
/// outputs `stats` (mean, rstd; null where not asked) and the rotary angles
/// `rope` (cos, sin; null without), through its generic builder, with the
/// operand segments given explicitly. Returns y, then the statistics asked
/// for (on memrefs, the buffers written).
template <typename NormOpTy>
SmallVector<Value> createNorm(LinalgEmitter &em, Value x, Value gamma,
                              Value beta, ArrayRef<NamedAttribute> attrs,
                              Value init, std::pair<Value, Value> stats = {},
                              std::pair<Value, Value> rope = {}) {
  constexpr bool isLayerNorm = std::is_same_v<NormOpTy, LayerNormOp>;
  SmallVector<Value> segments{x, /*residual=*/Value(), gamma};
  if (isLayerNorm)
    segments.push_back(beta);
  segments.append(
      {/*scale=*/Value(), rope.first, rope.second, init, /*sum_outs=*/Value()});
  if (isLayerNorm)
    segments.push_back(stats.first);
  segments.append({stats.second, /*scale_outs=*/Value()});
  SmallVector<Value> operands;
  SmallVector<int32_t> segmentSizes;
  for (Value v : segments) {
    segmentSizes.push_back(v ? 1 : 0);
    if (v)
      operands.push_back(v);
  }
  SmallVector<NamedAttribute> allAttrs(attrs);
  allAttrs.emplace_back(em.b.getStringAttr("operandSegmentSizes"),
                        em.b.getDenseI32ArrayAttr(segmentSizes));
  SmallVector<Value> outs{init};
  for (Value stat : {stats.first, stats.second})
    if (stat)
      outs.push_back(stat);
  SmallVector<Type> resultTypes;
  if (em.onTensors)
    resultTypes = llvm::to_vector(ValueRange(outs).getTypes());
  auto op = NormOpTy::create(em.b, em.loc, resultTypes, operands, allAttrs);
  if (em.onTensors)
    return SmallVector<Value>(op->getResults());
  return outs;
}

template <typename OpTy>
FailureOr<SmallVector<Value>> decompose(OpTy op, OpBuilder &b,
                                        const ProcessSplit *split);

/// `norm`, the results of createNorm on this process's part of the rows, as
/// the decomposition of its norm op with the statistics summed over the
/// processes of `split` (the op, unused yet, is erased). Tensors only (the
/// partitioning runs on tensors).
template <typename NormOpTy>
SmallVector<Value> decomposeSplitNorm(ArrayRef<Value> norm, OpBuilder &b,
                                      const ProcessSplit &split) {
  auto normOp = norm[0].getDefiningOp<NormOpTy>();
  SmallVector<Value> results = *decompose(normOp, b, &split);
  normOp.erase();
  return results;
}

/// Finishes `em` and returns a fused op's results: on tensors, its output
/// `out` and, when non-null, the sum (the op has sum_outs), then the
/// statistics `stats`; on memrefs none.
SmallVector<Value> fusedResults(LinalgEmitter &em, Value out, Value sum,
                                ArrayRef<Value> stats) {
  em.finish();
  if (!em.onTensors)
    return {};
  SmallVector<Value> results{out};
  if (sum)
    results.push_back(sum);
  llvm::append_range(results, stats);
  return results;
}

/// norm → matmul: C = round(norm(X) · W + b), all in the accumulation type.
/// With a residual, X is first replaced by S = round(X + R) (into sum_outs
/// when given), as the standalone norms define it. With `cast_mode` the
/// norm is the standalone one on X (or S) at its element type T, γ and β at
/// theirs, rounding its result to T where `cast_mode` says; the product
/// reads that T result.
template <typename FusedOp, typename NormOpTy>
SmallVector<Value> decomposeNormMatmul(OpBuilder &b, FusedOp op, Value beta,
                                       const ProcessSplit *split) {
  LinalgEmitter em(b, op.getLoc(), isa<RankedTensorType>(op.getInputType()));
  FloatType acc = op.getAccumulationType();
  Type elementType = op.getInputType().getElementType();
  Value x = op.getInput();
  Value sum;
  if (Value residual = op.getResidual()) {
    Value xAcc = em.castAll(x, acc);
    Value sumDest = op.getSumInit()
                        ? op.getSumInit()
                        : em.temp(em.sizesOf(op.getInput()), elementType);
    sum = emitAddAndRound(em, xAcc, {residual}, sumDest);
    x = sum;
  }
  Value gamma = op.getWeight(), betaIn = beta;
  Type normType = elementType;
  if (!op.getCastModeAttr()) {
    // Never rounded: the norm runs on, and yields, acc_type values.
    x = em.castAll(x, acc);
    gamma = gamma ? em.castAll(gamma, acc) : Value();
    betaIn = beta ? em.castAll(beta, acc) : Value();
    normType = acc;
  }
  Value normalizedDest = em.temp(em.sizesOf(x), normType);
  SmallVector<Value> norm =
      createNorm<NormOpTy>(em, x, gamma, betaIn, normAttributesOf(op, acc),
                           normalizedDest, norm::detail::fusedStatisticsOf(op));
  if (split && split->splitsNorm())
    norm = decomposeSplitNorm<NormOpTy>(norm, b, *split);
  Value product =
      emitMatmul(em, norm[0], op.getRhs(), op.getTransposeRhs(),
                 em.filled(em.sizesOf(op.getInit()), acc, 0.0), acc);
  if (split && split->sumOverContractionParts)
    product = split->sumOverContractionParts(b, em.loc, product);
  Value c = emitAddAndRound(em, product, {op.getMatmulBias()}, op.getInit());
  return fusedResults(em, c, op.getSumInit() ? sum : Value(),
                      ArrayRef(norm).drop_front());
}

/// The input norm of a matmul → norm op (`input_epsilon`): the
/// norm.rms_norm_matmul that writes S = round(rms_norm(A) · W + b) into
/// `sumDest`, the first of the unfused pair. Returns S.
Value createInputNormMatmul(LinalgEmitter &em, MatmulRMSNormOp op,
                            Value sumDest) {
  SmallVector<Type> resultTypes;
  if (em.onTensors)
    resultTypes.push_back(sumDest.getType());
  auto normMatmul = RMSNormMatmulOp::create(
      em.b, em.loc, resultTypes, op.getInput(), /*residual=*/Value(),
      op.getInputWeight(), op.getRhs(), op.getMatmulBias(), sumDest,
      /*sum_outs=*/Value(), /*rstd_outs=*/Value(), op.getInputEpsilonAttr(),
      op.getInputWeightOffsetAttr(), TypeAttr::get(op.getAccumulationType()),
      op.getEpsModeAttr(), op.getTransposeRhsAttr(), op.getInputCastModeAttr(),
      /*partial=*/Attribute());
  return em.onTensors ? normMatmul->getResult(0) : sumDest;
}

/// matmul → norm: S = round(A · W + b + r); Y = norm(S). S rounds to the
/// output's element type (f32 for bf16 A and W with an f32 output: the f32
/// product is normalized as it is). With an input norm, S is the result of
/// the norm.rms_norm_matmul that the op stands for, so the op decomposes
/// into exactly the unfused pair.
template <typename FusedOp, typename NormOpTy>
SmallVector<Value> decomposeMatmulNorm(OpBuilder &b, FusedOp op, Value beta,
                                       const ProcessSplit *split) {
  LinalgEmitter em(b, op.getLoc(), isa<RankedTensorType>(op.getInputType()));
  FloatType acc = op.getAccumulationType();
  SmallVector<OpFoldResult> outSizes = em.sizesOf(op.getInit());
  auto sumDest = [&] {
    return op.getSumInit()
               ? op.getSumInit()
               : em.temp(outSizes, getElementTypeOrSelf(op.getInit()));
  };
  Value sum;
  if constexpr (std::is_same_v<FusedOp, MatmulRMSNormOp>)
    if (op.hasInputNorm())
      sum = createInputNormMatmul(em, op, sumDest());
  if (!sum) {
    Value product =
        emitMatmul(em, op.getInput(), op.getRhs(), op.getTransposeRhs(),
                   em.filled(outSizes, acc, 0.0), acc);
    if (split && split->sumOverContractionParts)
      product = split->sumOverContractionParts(b, em.loc, product);
    sum = emitAddAndRound(em, product, {op.getMatmulBias(), op.getResidual()},
                          sumDest());
  }
  std::optional<uint64_t> headDim = op.getHeadDim();
  if (!headDim) {
    SmallVector<Value> norm = createNorm<NormOpTy>(
        em, sum, op.getWeight(), beta, normAttributesOf(op, acc), op.getInit(),
        norm::detail::fusedStatisticsOf(op));
    if (split && split->splitsNorm())
      norm = decomposeSplitNorm<NormOpTy>(norm, b, *split);
    return fusedResults(em, norm[0], op.getSumInit() ? sum : Value(),
                        ArrayRef(norm).drop_front());
  }
  // Per head (no statistics outputs): the norm of S viewed as [..., H, D]
  // over D, into Y so viewed, with the rotation when there is one (its
  // angles are shaped against that view).
  int64_t d = static_cast<int64_t>(*headDim);
  std::pair<Value, Value> rope;
  if constexpr (std::is_same_v<FusedOp, MatmulRMSNormOp>)
    rope = {op.getCos(), op.getSin()};
  Value y = createNorm<NormOpTy>(em, em.splitLastDim(sum, d), op.getWeight(),
                                 beta, normAttributesOf(op, acc),
                                 em.splitLastDim(op.getInit(), d), {}, rope)[0];
  if (em.onTensors)
    y = em.mergeLastDims(y, op.getInit().getType());
  return fusedResults(em, y, op.getSumInit() ? sum : Value(), {});
}

//===----------------------------------------------------------------------===//
// GroupNorm
//===----------------------------------------------------------------------===//

/// `v` ([.., C, ..] with C at `channelDim`) viewed with C split into
/// [G, C/G]: tensor.expand_shape or memref.expand_shape, no copy. Null for
/// a null `v`; failure for a memref whose layout cannot be expanded.
FailureOr<Value> splitChannels(LinalgEmitter &em, Value v, int64_t channelDim,
                               int64_t groups) {
  if (!v)
    return Value();
  auto type = cast<ShapedType>(v.getType());
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(em.sizesOf(v))) {
    int64_t first = shape.size();
    if (int64_t(d) == channelDim) {
      int64_t perGroup = type.getDimSize(d) / groups;
      shape.append({groups, perGroup});
      sizes.append({em.b.getIndexAttr(groups), em.b.getIndexAttr(perGroup)});
      reassociation.push_back({first, first + 1});
      continue;
    }
    shape.push_back(type.getDimSize(d));
    sizes.push_back(size);
    reassociation.push_back({first});
  }
  if (em.onTensors)
    return Value(tensor::ExpandShapeOp::create(
        em.b, em.loc, RankedTensorType::get(shape, type.getElementType()), v,
        reassociation, sizes));
  FailureOr<MemRefType> expanded = memref::ExpandShapeOp::computeExpandedType(
      cast<MemRefType>(type), shape, reassociation);
  if (failed(expanded))
    return failure();
  return Value(memref::ExpandShapeOp::create(em.b, em.loc, *expanded, v,
                                             reassociation, sizes));
}

/// GroupNorm is the LayerNorm of the [N, G, C/G, S...] view of x over its
/// dims [2, rank] whose γ and β are indexed by (g, c mod C/G): the
/// statistics rows are exactly the op's [N, G], and everything after them
/// (one rounding, after γ and β) is the LayerNorm decomposition's.
FailureOr<SmallVector<Value>> decomposeGroupNorm(GroupNormOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  bool onTensors = isa<RankedTensorType>(op.getInputType());
  LinalgEmitter em(b, loc, onTensors);
  int64_t groups = op.getNumGroups();
  NormOperands ops;
  ops.meanInit = op.getMeanInit();
  ops.rstdInit = op.getRstdInit();
  for (auto [target, value, dim] :
       {std::tuple<Value *, Value, int64_t>{&ops.input, op.getInput(), 1},
        {&ops.init, op.getInit(), 1},
        {&ops.weight, op.getWeight(), 0},
        {&ops.bias, op.getBias(), 0}}) {
    FailureOr<Value> view = splitChannels(em, value, dim, groups);
    if (failed(view))
      return failure();
    *target = *view;
  }
  int64_t rank = op.getInputType().getRank() + 1;
  MLIRContext *ctx = b.getContext();
  ops.paramMap = AffineMap::get(
      rank, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)}, ctx);
  DecompositionNumerics num;
  num.accType = op.getAccumulationType();
  num.epsilon = op.getEpsilonValue();
  num.elementType = op.getInputType().getElementType();
  // One element type throughout: γ, β and y have x's.
  num.weightType = num.elementType;
  num.outputType = num.elementType;
  SmallVector<Value> results = decomposeStandaloneNorm(
      b, loc, /*isLayerNorm=*/true, /*axis=*/2, /*partial=*/1.0, ops, num,
      /*split=*/nullptr);
  if (!onTensors)
    return results;
  // y back to [N, C, S...]; the statistics are [N, G] already.
  results[0] = tensor::CollapseShapeOp::create(
      b, loc, op.getInit().getType(), results[0],
      cast<tensor::ExpandShapeOp>(ops.init.getDefiningOp())
          .getReassociationIndices());
  return results;
}

template <typename OpTy> DecompositionNumerics numericsOf(OpTy op) {
  DecompositionNumerics num;
  static_cast<NormNumerics &>(num) = getNormNumerics(op);
  num.elementType = op.getInputType().getElementType();
  num.outputType = getElementTypeOrSelf(op.getInit().getType());
  return num;
}
/// The decomposition of any norm op `op`; with `split`, of one process's
/// part of it (decomposeSplitOperation).
template <typename OpTy>
FailureOr<SmallVector<Value>> decompose(OpTy op, OpBuilder &b,
                                        const ProcessSplit *split) {
  constexpr bool isLayerNorm = std::is_same_v<OpTy, LayerNormOp> ||
                               std::is_same_v<OpTy, LayerNormMatmulOp> ||
                               std::is_same_v<OpTy, MatmulLayerNormOp>;
  using NormOpTy = std::conditional_t<isLayerNorm, LayerNormOp, RMSNormOp>;
  Value beta;
  if constexpr (isLayerNorm)
    beta = op.getBias();
  if constexpr (std::is_same_v<OpTy, NormOpTy>) {
    NormOperands ops;
    ops.input = op.getInput();
    ops.residual = op.getResidual();
    ops.weight = op.getWeight();
    ops.bias = beta;
    ops.init = op.getInit();
    ops.sumInit = op.getSumInit();
    ops.rstdInit = op.getRstdInit();
    ops.quant = getNormQuantization(op);
    ops.cos = op.getCos();
    ops.sin = op.getSin();
    ops.ropeMode = op.getRopeMode().value_or(RopeMode::rotate_half);
    ops.ropeRounding = op.getRopeRounding().value_or(RopeRounding::once);
    double partial = 1.0;
    if constexpr (isLayerNorm)
      ops.meanInit = op.getMeanInit();
    else
      partial = op.getPartialValue();
    return decomposeStandaloneNorm(b, op.getLoc(), isLayerNorm,
                                   op.getNormalizedAxis(), partial, ops,
                                   numericsOf(op), split);
  } else if constexpr (std::is_same_v<OpTy, RMSNormMatmulOp> ||
                       std::is_same_v<OpTy, LayerNormMatmulOp>) {
    return decomposeNormMatmul<OpTy, NormOpTy>(b, op, beta, split);
  } else {
    // The input norm's statistics are over K, which a split may divide.
    if constexpr (std::is_same_v<OpTy, MatmulRMSNormOp>)
      if (split && op.hasInputNorm())
        return failure();
    return decomposeMatmulNorm<OpTy, NormOpTy>(b, op, beta, split);
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// AggregatedOpInterface
//===----------------------------------------------------------------------===//

#define NORM_DEFINE_DECOMPOSITION(OpTy)                                        \
  FailureOr<SmallVector<Value>> OpTy::decomposeOperation(OpBuilder &b) {       \
    return decompose(*this, b, /*split=*/nullptr);                             \
  }

NORM_DEFINE_DECOMPOSITION(RMSNormOp)
NORM_DEFINE_DECOMPOSITION(LayerNormOp)
NORM_DEFINE_DECOMPOSITION(RMSNormMatmulOp)
NORM_DEFINE_DECOMPOSITION(LayerNormMatmulOp)
NORM_DEFINE_DECOMPOSITION(MatmulRMSNormOp)
NORM_DEFINE_DECOMPOSITION(MatmulLayerNormOp)
#undef NORM_DEFINE_DECOMPOSITION

FailureOr<SmallVector<Value>> GroupNormOp::decomposeOperation(OpBuilder &b) {
  return decomposeGroupNorm(*this, b);
}

FailureOr<SmallVector<Value>>
mlir::norm::decomposeSplitOperation(Operation *op, OpBuilder &b,
                                    const ProcessSplit &split) {
  return TypeSwitch<Operation *, FailureOr<SmallVector<Value>>>(op)
      .Case<RMSNormOp, LayerNormOp, RMSNormMatmulOp, LayerNormMatmulOp,
            MatmulRMSNormOp, MatmulLayerNormOp>(
          [&](auto typed) { return decompose(typed, b, &split); })
      .Default([](Operation *) { return failure(); });
}
