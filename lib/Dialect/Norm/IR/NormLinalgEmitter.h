//===- NormLinalgEmitter.h - linalg building blocks of the norms -*- C++
//-*-===//
//
// The pieces every norm decomposition is built from (the forward norms in
// NormDecomposition.cpp, their gradients in NormGradDecomposition.cpp):
// linalg.generic on tensors or memrefs through one code path, the indexing
// maps of a row-normalized iteration space, the compensated row sum, and the
// statistics of RMSNorm and LayerNorm exactly as DESIGN.md §4 fixes them.
// Internal to the dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_IR_NORMLINALGEMITTER_H
#define NORM_LIB_DIALECT_NORM_IR_NORMLINALGEMITTER_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormSplitDecomposition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace norm {
namespace detail {

using BodyBuilder = function_ref<void(OpBuilder &, Location, ValueRange)>;
using utils::IteratorType;

//===----------------------------------------------------------------------===//
// Scalar helpers (used inside linalg.generic bodies)
//===----------------------------------------------------------------------===//

Value floatConstant(OpBuilder &b, Location loc, Type type, double value);

/// Converts between float types; the accumulation type is never narrower
/// than the element type, so this is extf on the way in, truncf on the way
/// out.
Value castFloat(OpBuilder &b, Location loc, Value value, Type type);

/// The op's numerics, its input element type (the rounding point of the
/// residual sum and of a before_weight normalized value) and the element
/// type of its result `y` (the input's or wider).
struct DecompositionNumerics : NormNumerics {
  Type elementType;
  Type outputType;
};

//===----------------------------------------------------------------------===//
// LinalgEmitter: linalg on tensors or on memrefs, one code path
//===----------------------------------------------------------------------===//

class LinalgEmitter {
public:
  LinalgEmitter(OpBuilder &b, Location loc, bool onTensors)
      : b(b), loc(loc), onTensors(onTensors) {}

  SmallVector<OpFoldResult> sizesOf(Value shaped) {
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0, e = cast<ShapedType>(shaped.getType()).getRank(); d < e;
         ++d)
      sizes.push_back(linalg::createFoldedDimOp(b, loc, shaped, d));
    return sizes;
  }

  /// A fresh destination: tensor.empty, or memref.alloc freed by finish().
  Value temp(ArrayRef<OpFoldResult> sizes, Type elementType) {
    if (onTensors)
      return tensor::EmptyOp::create(b, loc, sizes, elementType);
    SmallVector<int64_t> staticSizes;
    SmallVector<Value> dynamicSizes;
    dispatchIndexOpFoldResults(sizes, dynamicSizes, staticSizes);
    Value alloc = memref::AllocOp::create(
        b, loc, MemRefType::get(staticSizes, elementType), dynamicSizes);
    temps.push_back(alloc);
    return alloc;
  }

  Value filled(ArrayRef<OpFoldResult> sizes, Type elementType, double value) {
    Value dest = temp(sizes, elementType);
    Value scalar = floatConstant(b, loc, elementType, value);
    auto fill =
        linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{dest});
    return onTensors ? fill.getResult(0) : dest;
  }

  Value generic(ValueRange ins, Value out, ArrayRef<AffineMap> maps,
                ArrayRef<IteratorType> iterators, BodyBuilder body) {
    SmallVector<Type> resultTypes;
    if (onTensors)
      resultTypes.push_back(out.getType());
    auto op = linalg::GenericOp::create(b, loc, resultTypes, ins,
                                        ValueRange{out}, maps, iterators, body);
    return onTensors ? op.getResult(0) : out;
  }

  /// A generic with several outputs; returns one value per output.
  SmallVector<Value> genericMulti(ValueRange ins, ValueRange outs,
                                  ArrayRef<AffineMap> maps,
                                  ArrayRef<IteratorType> iterators,
                                  BodyBuilder body) {
    SmallVector<Type> resultTypes;
    if (onTensors)
      resultTypes = llvm::to_vector(outs.getTypes());
    auto op = linalg::GenericOp::create(b, loc, resultTypes, ins, outs, maps,
                                        iterators, body);
    return onTensors ? SmallVector<Value>(op.getResults())
                     : SmallVector<Value>(outs);
  }

  /// `v` ([..., N], N static) as [..., N / d, d]: a per-head norm's heads.
  Value splitLastDim(Value v, int64_t d) {
    auto type = cast<ShapedType>(v.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> sizes = sizesOf(v);
    sizes.back() = b.getIndexAttr(type.getShape().back() / d);
    sizes.push_back(b.getIndexAttr(d));
    SmallVector<ReassociationIndices> groups = headGroups(rank + 1);
    SmallVector<int64_t> shape(type.getShape());
    shape.back() /= d;
    shape.push_back(d);
    if (onTensors)
      return tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get(shape, type.getElementType()), v,
          groups, sizes);
    return memref::ExpandShapeOp::create(b, loc, shape, v, groups, sizes);
  }

  /// The inverse of splitLastDim on tensors (memrefs need none: the norm
  /// wrote through the view).
  Value mergeLastDims(Value v, Type type) {
    return tensor::CollapseShapeOp::create(
        b, loc, type, v, headGroups(cast<ShapedType>(type).getRank() + 1));
  }

  /// [[0], ..., [rank − 3], [rank − 2, rank − 1]]: the last two dims of a
  /// rank-`rank` shape are one dim of the other shape.
  static SmallVector<ReassociationIndices> headGroups(int64_t rank) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0; i < rank - 2; ++i)
      groups.push_back({i});
    groups.push_back({rank - 2, rank - 1});
    return groups;
  }

  /// The elementwise cast of a whole tensor/memref to `type`.
  Value castAll(Value value, Type type) {
    auto shaped = cast<ShapedType>(value.getType());
    if (shaped.getElementType() == type)
      return value;
    int64_t rank = shaped.getRank();
    AffineMap id = b.getMultiDimIdentityMap(rank);
    SmallVector<IteratorType> par(rank, IteratorType::parallel);
    return generic(value, temp(sizesOf(value), type), {id, id}, par,
                   [&](OpBuilder &nb, Location l, ValueRange args) {
                     linalg::YieldOp::create(nb, l,
                                             castFloat(nb, l, args[0], type));
                   });
  }

  /// The product of `sizes` as an index value.
  Value product(ArrayRef<OpFoldResult> sizes) {
    Value result = arith::ConstantIndexOp::create(b, loc, 1);
    for (OpFoldResult size : sizes)
      result = arith::MulIOp::create(
          b, loc, result, getValueOrCreateConstantIndexOp(b, loc, size));
    return result;
  }

  Value indexToFloat(Value index, Type type) {
    Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, type, asInt);
  }

  /// Frees the memref temporaries (after the last use, which is the last op
  /// emitted so far).
  void finish() {
    for (Value alloc : temps)
      memref::DeallocOp::create(b, loc, alloc);
  }

  OpBuilder &b;
  Location loc;
  bool onTensors;

private:
  SmallVector<Value> temps;
};

/// Indexing maps over the iteration space of a rank-`rank` input whose
/// dimensions [axis, rank) are normalized.
struct NormMaps {
  NormMaps(OpBuilder &b, int64_t rank, int64_t axis) : rank(rank), axis(axis) {
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> rowExprs, normExprs, pivotExprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr dim = getAffineDimExpr(d, ctx);
      (d < axis ? rowExprs : normExprs).push_back(dim);
      pivotExprs.push_back(d < axis ? dim : getAffineConstantExpr(0, ctx));
    }
    identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    rows = AffineMap::get(rank, 0, rowExprs, ctx);
    norm = AffineMap::get(rank, 0, normExprs, ctx);
    pivot = AffineMap::get(rank, 0, pivotExprs, ctx);
    // Over the row space only.
    rowIdentity = AffineMap::getMultiDimIdentityMap(axis, ctx);
    rowPivot = AffineMap::get(axis, 0, ArrayRef<AffineExpr>(pivotExprs), ctx);
    allParallel.assign(rank, IteratorType::parallel);
    rowsParallel.assign(axis, IteratorType::parallel);
    reduceNorm.assign(rank, IteratorType::parallel);
    reduceRows.assign(rank, IteratorType::reduction);
    for (int64_t d = axis; d < rank; ++d)
      reduceNorm[d] = IteratorType::reduction;
    for (int64_t d = axis; d < rank; ++d)
      reduceRows[d] = IteratorType::parallel;
  }

  int64_t rank, axis;
  AffineMap identity, rows, norm, pivot, rowIdentity, rowPivot;
  /// reduceNorm: rows parallel, normalized dims reduced (row sums);
  /// reduceRows: the converse (column sums, as dγ and dβ).
  SmallVector<IteratorType> allParallel, rowsParallel, reduceNorm, reduceRows;
};

/// Σ of term(args) over the `reduction` iterators of the iteration space
/// of `ins` (indexed by `inMaps`) into a fresh value of `sizes` indexed by
/// `outMap`, in `accType`, with Kahan compensation: a second output carries
/// the running rounding error, so the sum is accurate to a few ulps whatever
/// its length (a plain sequential f32 sum loses ~sqrt(n) ulps, 1e-5
/// relative at n = 16384). linalg's order is sequential, so every run gives
/// the same bits.
Value emitCompensatedSum(
    LinalgEmitter &em, ValueRange ins, ArrayRef<AffineMap> inMaps,
    AffineMap outMap, ArrayRef<IteratorType> iterators,
    ArrayRef<OpFoldResult> sizes, FloatType accType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> term);

/// The compensated Σ over the normalized dims, per row.
Value emitCompensatedRowSum(
    LinalgEmitter &em, const NormMaps &maps, ValueRange ins,
    ArrayRef<AffineMap> inMaps, FloatType accType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> term);

/// pRMSNorm's prefix: the first k = ⌈partial · n⌉ of the n elements of the
/// flattened normalized dims (all of them when partial = 1).
struct PartialPrefix {
  PartialPrefix(LinalgEmitter &em, const NormMaps &maps,
                ArrayRef<OpFoldResult> normSizes, Value n, double partial);
  /// Inside a generic over the norm's iteration space: `value` when the
  /// current element is in the prefix, else the constant `otherwise` (of
  /// `value`'s type). Emits nothing when the prefix is the whole row.
  Value select(OpBuilder &b, Location loc, Value value, double otherwise) const;

  /// k, an index value.
  Value count;

private:
  int64_t axis;
  /// Row-major strides of the normalized dims; empty when partial = 1.
  SmallVector<Value> strides;
};

/// The RMSNorm statistic of `x`: rstd per row (row space, accumulation
/// type), over the first ⌈partial · n⌉ elements of the normalized dims, into
/// `rstdDest` when non-null. With `split` splitting the normalized dims, `x`
/// is this process's part of each row and Σx² is summed over the processes.
Value emitRMSStatistics(LinalgEmitter &em, const NormMaps &maps, Value x,
                        Value rstdDest, double partial,
                        const DecompositionNumerics &num,
                        const ProcessSplit *split = nullptr);

/// LayerNorm statistics of `x`: the pivot-shifted mean (row space) and rstd.
/// The true mean is pivot + shiftedMean, the pivot being each row's first
/// element (`maps.pivot`). With `split` splitting the normalized dims, `x`
/// is this process's part of each row, the pivot this process's first
/// element, and the statistics those of the whole rows.
std::pair<Value, Value>
emitLayerNormStatistics(LinalgEmitter &em, const NormMaps &maps, Value x,
                        Value rstdDest, const DecompositionNumerics &num,
                        const ProcessSplit *split = nullptr);

} // namespace detail
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_IR_NORMLINALGEMITTER_H
