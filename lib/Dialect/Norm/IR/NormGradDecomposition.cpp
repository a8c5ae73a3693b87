//===- NormGradDecomposition.cpp - the gradient ops into linalg -----------===//
//
// AggregatedOpInterface::decomposeOperation for norm.rms_norm_grad and
// norm.layer_norm_grad: linalg.generic ops (on tensors or memrefs, like the
// op) that compute DESIGN.md §9's formulas in the accumulation type, the
// numerical reference of the gradients:
//  - the statistics are the operands, or recomputed by the forward
//    decomposition's own code (NormLinalgEmitter.h), so that a recomputed
//    rstd is bit-identical to the one the forward op would have saved;
//  - the two row sums (Σ dŷ and Σ dŷ·x̂) and the column sums of dγ and dβ
//    are Kahan-compensated, in linalg's sequential order;
//  - each result is rounded to its element type once.
//
//===----------------------------------------------------------------------===//

#include "NormLinalgEmitter.h"
#include "norm/Dialect/Norm/IR/NormGradOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::detail;

namespace {
/// The operands of a gradient op (absent ones are null).
struct GradOperands {
  Value grad, input, sumGrad, weight, mean, rstd;
  Value init, weightGradInit, biasGradInit;
};

/// How the body of a generic over the norm's iteration space computes
/// x̂ = (x − centre) · rstd from its block arguments: the values to pass
/// (after the op's own), their maps, and the arithmetic.
class NormalizedInput {
public:
  NormalizedInput(const NormMaps &maps, Value x, Value pivotShiftedMean,
                  Value mean, Value rstd, FloatType accType)
      : accType(accType), shifted(static_cast<bool>(pivotShiftedMean)),
        centred(static_cast<bool>(mean)) {
    ins.push_back(x);
    indexing.push_back(maps.identity);
    if (shifted) {
      // Recomputed LayerNorm statistics: x − p − shiftedMean, the
      // forward's own (Sterbenz-exact) centring.
      ins.append({x, pivotShiftedMean});
      indexing.append({maps.pivot, maps.rows});
    } else if (centred) {
      ins.push_back(mean);
      indexing.push_back(maps.rows);
    }
    ins.push_back(rstd);
    indexing.push_back(maps.rows);
  }

  /// x̂ in the accumulation type, from this object's block arguments.
  Value emit(OpBuilder &b, Location loc, ValueRange args) const {
    Value v = castFloat(b, loc, args[0], accType);
    if (shifted) {
      v = arith::SubFOp::create(b, loc, v, castFloat(b, loc, args[1], accType));
      v = arith::SubFOp::create(b, loc, v, args[2]);
    } else if (centred) {
      v = arith::SubFOp::create(b, loc, v, args[1]);
    }
    return arith::MulFOp::create(b, loc, v, rstdOf(args));
  }

  /// rstd, from this object's block arguments.
  Value rstdOf(ValueRange args) const { return args[ins.size() - 1]; }

  SmallVector<Value> ins;
  SmallVector<AffineMap> indexing;

private:
  FloatType accType;
  bool shifted, centred;
};

/// Decomposes norm.rms_norm_grad (isLayerNorm = false) or
/// norm.layer_norm_grad. Returns the tensor results in `outs` order (none on
/// memrefs).
SmallVector<Value> decomposeGrad(OpBuilder &b, Location loc, bool isLayerNorm,
                                 int64_t axis, double partial,
                                 const GradOperands &ops,
                                 const DecompositionNumerics &num) {
  auto inputType = cast<ShapedType>(ops.input.getType());
  LinalgEmitter em(b, loc, isa<RankedTensorType>(inputType));
  int64_t rank = inputType.getRank();
  NormMaps maps(b, rank, axis);
  FloatType acc = num.accType;
  SmallVector<OpFoldResult> sizes = em.sizesOf(ops.input);
  ArrayRef<OpFoldResult> normSizes = ArrayRef(sizes).drop_front(axis);
  Value n = em.product(normSizes);
  PartialPrefix prefix(em, maps, normSizes, n, partial);

  // The statistics: given, or recomputed exactly as the forward op does.
  Value rstd = ops.rstd, shiftedMean;
  if (!rstd) {
    if (isLayerNorm)
      std::tie(shiftedMean, rstd) =
          emitLayerNormStatistics(em, maps, ops.input, Value(), num);
    else
      rstd = emitRMSStatistics(em, maps, ops.input, Value(), partial, num);
  }
  NormalizedInput xhat(maps, ops.input, shiftedMean, ops.mean, rstd, acc);
  unsigned numXHat = xhat.ins.size();

  // dŷ = dy · (γ + offset), from the block arguments (dy, [γ]).
  bool hasWeight = static_cast<bool>(ops.weight);
  bool scaled = hasWeight || num.weightOffset != 0.0;
  auto gradOfNormalized = [&](OpBuilder &nb, Location l, ValueRange args) {
    Value dy = castFloat(nb, l, args[0], acc);
    if (!scaled)
      return dy;
    Value gain = hasWeight ? castFloat(nb, l, args[1], acc)
                           : floatConstant(nb, l, acc, 1.0);
    if (num.weightOffset != 0.0)
      gain = arith::AddFOp::create(nb, l, gain,
                                   floatConstant(nb, l, acc, num.weightOffset));
    return Value(arith::MulFOp::create(nb, l, dy, gain));
  };
  SmallVector<Value> dyIns{ops.grad};
  SmallVector<AffineMap> dyMaps{maps.identity};
  if (hasWeight) {
    dyIns.push_back(ops.weight);
    dyMaps.push_back(maps.norm);
  }
  unsigned numDy = dyIns.size();
  SmallVector<Value> dyXHatIns(dyIns);
  dyXHatIns.append(xhat.ins);
  SmallVector<AffineMap> dyXHatMaps(dyMaps);
  dyXHatMaps.append(xhat.indexing);

  Value dx;
  if (ops.init) {
    // Row sums: Σ dŷ·x̂ (over all n elements: every output depends on
    // rstd) and, for LayerNorm, Σ dŷ.
    Value sumDyXHat = emitCompensatedRowSum(
        em, maps, dyXHatIns, dyXHatMaps, acc,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          return Value(arith::MulFOp::create(
              nb, l, gradOfNormalized(nb, l, args.take_front(numDy)),
              xhat.emit(nb, l, args.drop_front(numDy))));
        });
    Value sumDy;
    if (isLayerNorm)
      sumDy =
          emitCompensatedRowSum(em, maps, dyIns, dyMaps, acc, gradOfNormalized);
    Value count = em.indexToFloat(prefix.count, acc);

    SmallVector<Value> ins(dyXHatIns);
    SmallVector<AffineMap> indexing(dyXHatMaps);
    ins.push_back(sumDyXHat);
    indexing.push_back(maps.rows);
    if (sumDy) {
      ins.push_back(sumDy);
      indexing.push_back(maps.rows);
    }
    if (ops.sumGrad) {
      ins.push_back(ops.sumGrad);
      indexing.push_back(maps.identity);
    }
    indexing.push_back(maps.identity);
    unsigned firstSum = numDy + numXHat;
    Type dxType = getElementTypeOrSelf(ops.init);
    dx = em.generic(
        ins, ops.init, indexing, maps.allParallel,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value dyHat = gradOfNormalized(nb, l, args.take_front(numDy));
          ValueRange xhatArgs = args.slice(numDy, numXHat);
          Value xh = xhat.emit(nb, l, xhatArgs);
          Value r = xhat.rstdOf(xhatArgs);
          // c · x̂ · mean(dŷ·x̂), c = 1 inside the sqrt; outside it,
          // c = (σ + ε)/σ = (1/r)/(1/r − ε).
          Value meanDyXHat =
              arith::DivFOp::create(nb, l, args[firstSum], count);
          Value term = arith::MulFOp::create(nb, l, xh, meanDyXHat);
          if (num.epsMode == EpsMode::outside_sqrt) {
            Value inverse =
                arith::DivFOp::create(nb, l, floatConstant(nb, l, acc, 1.0), r);
            Value sigma = arith::SubFOp::create(
                nb, l, inverse, floatConstant(nb, l, acc, num.epsilon));
            term = arith::MulFOp::create(
                nb, l, term, arith::DivFOp::create(nb, l, inverse, sigma));
          }
          Value inner = arith::SubFOp::create(nb, l, dyHat,
                                              prefix.select(nb, l, term, 0.0));
          if (sumDy)
            inner = arith::SubFOp::create(
                nb, l, inner,
                arith::DivFOp::create(nb, l, args[firstSum + 1], count));
          Value result = arith::MulFOp::create(nb, l, r, inner);
          if (ops.sumGrad)
            result = arith::AddFOp::create(
                nb, l, result, castFloat(nb, l, args[args.size() - 2], acc));
          linalg::YieldOp::create(nb, l, castFloat(nb, l, result, dxType));
        });
  }

  // Column sums over the rows, rounded into their destination.
  AffineMap normIdentity =
      AffineMap::getMultiDimIdentityMap(rank - axis, b.getContext());
  SmallVector<IteratorType> normParallel(rank - axis, IteratorType::parallel);
  auto columnSum =
      [&](Value dest, ValueRange ins, ArrayRef<AffineMap> inMaps,
          function_ref<Value(OpBuilder &, Location, ValueRange)> term)
      -> Value {
    if (!dest)
      return Value();
    Value sum = emitCompensatedSum(em, ins, inMaps, maps.norm, maps.reduceRows,
                                   normSizes, acc, term);
    Type type = getElementTypeOrSelf(dest);
    return em.generic(sum, dest, {normIdentity, normIdentity}, normParallel,
                      [&](OpBuilder &nb, Location l, ValueRange args) {
                        linalg::YieldOp::create(
                            nb, l, castFloat(nb, l, args[0], type));
                      });
  };
  // dγ = Σ_rows dy · x̂; dβ = Σ_rows dy.
  SmallVector<Value> dyXIns{ops.grad};
  dyXIns.append(xhat.ins);
  SmallVector<AffineMap> dyXMaps{maps.identity};
  dyXMaps.append(xhat.indexing);
  Value weightGrad = columnSum(ops.weightGradInit, dyXIns, dyXMaps,
                               [&](OpBuilder &nb, Location l, ValueRange args) {
                                 return Value(arith::MulFOp::create(
                                     nb, l, castFloat(nb, l, args[0], acc),
                                     xhat.emit(nb, l, args.drop_front())));
                               });
  Value biasGrad = columnSum(ops.biasGradInit, ops.grad, {maps.identity},
                             [&](OpBuilder &nb, Location l, ValueRange args) {
                               return castFloat(nb, l, args[0], acc);
                             });
  em.finish();

  if (!em.onTensors)
    return {};
  SmallVector<Value> results;
  for (Value result : {dx, weightGrad, biasGrad})
    if (result)
      results.push_back(result);
  return results;
}

template <typename OpTy> DecompositionNumerics gradNumerics(OpTy op) {
  DecompositionNumerics num;
  num.accType = op.getAccumulationType();
  num.epsilon = op.getEpsilonValue();
  num.weightOffset = op.getWeightOffsetValue();
  num.epsMode = op.getEpsMode();
  num.elementType = op.getInputType().getElementType();
  num.weightType =
      op.getWeight() ? getElementTypeOrSelf(op.getWeight()) : num.elementType;
  num.outputType = num.elementType;
  return num;
}
} // namespace

FailureOr<SmallVector<Value>> RMSNormGradOp::decomposeOperation(OpBuilder &b) {
  GradOperands ops{getGrad(), getInput(), getSumGrad(), getWeight(),
                   Value(),   getRstd(),  getInit(),    getWeightGradInit(),
                   Value()};
  return decomposeGrad(b, getLoc(), /*isLayerNorm=*/false, getNormalizedAxis(),
                       getPartialValue(), ops, gradNumerics(*this));
}

FailureOr<SmallVector<Value>>
LayerNormGradOp::decomposeOperation(OpBuilder &b) {
  GradOperands ops{getGrad(),   getInput(),          getSumGrad(),
                   getWeight(), getMean(),           getRstd(),
                   getInit(),   getWeightGradInit(), getBiasGradInit()};
  return decomposeGrad(b, getLoc(), /*isLayerNorm=*/true, getNormalizedAxis(),
                       /*partial=*/1.0, ops, gradNumerics(*this));
}
