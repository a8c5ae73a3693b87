//===- NormTiling.cpp - TilingInterface for the norm ops -------------------===//
//
// The iteration domain of a norm op is the shape of its main output. Rows
// (the non-normalized dims) are parallel and tileable; the normalized dims
// are reductions and always taken whole, whatever tile the caller asks for,
// since a norm needs complete rows. For norm → matmul the output columns (N)
// are parallel too.
//
//===----------------------------------------------------------------------===//

#include "NormOpsSupport.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
using utils::IteratorType;

/// A tile: offsets and sizes over some of the iteration dims.
struct Tile {
  SmallVector<OpFoldResult> offsets, sizes;

  /// The sub-tile over the iteration dims `dims` (in that order).
  Tile select(ArrayRef<int64_t> dims) const {
    Tile t;
    for (int64_t d : dims) {
      t.offsets.push_back(offsets[d]);
      t.sizes.push_back(sizes[d]);
    }
    return t;
  }
};

Value extractTile(OpBuilder &b, Location loc, Value source, const Tile &tile,
                  SmallVectorImpl<Operation *> &slices) {
  SmallVector<OpFoldResult> strides(tile.offsets.size(), b.getIndexAttr(1));
  Operation *slice;
  if (isa<RankedTensorType>(source.getType()))
    slice = tensor::ExtractSliceOp::create(b, loc, source, tile.offsets,
                                           tile.sizes, strides);
  else
    slice = memref::SubViewOp::create(b, loc, source, tile.offsets, tile.sizes,
                                      strides);
  slices.push_back(slice);
  return slice->getResult(0);
}

SmallVector<Range> domainOf(OpBuilder &b, Location loc, Value shaped) {
  SmallVector<Range> domain;
  int64_t rank = cast<ShapedType>(shaped.getType()).getRank();
  for (int64_t d = 0; d < rank; ++d)
    domain.push_back(Range{b.getIndexAttr(0),
                           linalg::createFoldedDimOp(b, loc, shaped, d),
                           b.getIndexAttr(1)});
  return domain;
}

/// The requested tile with the reduction dims widened to their full extent.
Tile widenReductions(OpBuilder &b, Location loc, Value output,
                     ArrayRef<IteratorType> iterators,
                     ArrayRef<OpFoldResult> offsets,
                     ArrayRef<OpFoldResult> sizes) {
  Tile tile{SmallVector<OpFoldResult>(offsets), SmallVector<OpFoldResult>(sizes)};
  for (auto [d, kind] : llvm::enumerate(iterators)) {
    if (kind != IteratorType::reduction)
      continue;
    tile.offsets[d] = b.getIndexAttr(0);
    tile.sizes[d] = linalg::createFoldedDimOp(b, loc, output, d);
  }
  return tile;
}

SmallVector<int64_t> range(int64_t begin, int64_t end) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, end));
}

/// Which operands get which tile; operands not listed are passed whole (γ,
/// β, and whatever the op needs in full). Keyed by operand number, so that
/// the same SSA value used twice is still told apart.
class OperandTiles {
public:
  void set(MutableOperandRange operands, const Tile &tile) {
    for (OpOperand &operand : operands)
      tiles[operand.getOperandNumber()] = tile;
  }
  void set(ArrayRef<MutableOperandRange> operandGroups, const Tile &tile) {
    for (MutableOperandRange operands : operandGroups)
      set(operands, tile);
  }
  const Tile *lookup(OpOperand &operand) const {
    auto it = tiles.find(operand.getOperandNumber());
    return it == tiles.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<unsigned, Tile> tiles;
};

/// Clones `op` onto the sliced operands.
FailureOr<TilingResult> cloneOnTiles(Operation *op, OpBuilder &b,
                                     const OperandTiles &tiles) {
  Location loc = op->getLoc();
  SmallVector<Operation *> slices;
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    const Tile *tile = tiles.lookup(operand);
    operands.push_back(tile ? extractTile(b, loc, operand.get(), *tile, slices)
                            : operand.get());
  }
  auto dps = cast<DestinationStyleOpInterface>(op);
  SmallVector<Type> resultTypes;
  if (dps.hasPureTensorSemantics())
    for (OpOperand &init : dps.getDpsInitsMutable())
      resultTypes.push_back(operands[init.getOperandNumber()].getType());
  Operation *tiled = mlir::clone(b, op, resultTypes, operands);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

/// Standalone norms iterate over their input's shape, fused ops over their
/// output's.
template <typename OpTy>
constexpr bool isStandalone =
    std::is_same_v<OpTy, RMSNormOp> || std::is_same_v<OpTy, LayerNormOp>;

template <typename OpTy> Value domainOperand(OpTy op) {
  if constexpr (isStandalone<OpTy>)
    return op.getInput();
  else
    return op.getInit();
}

//===----------------------------------------------------------------------===//
// Standalone norms: domain = input shape
//===----------------------------------------------------------------------===//

template <typename OpTy>
SmallVector<IteratorType> standaloneIterators(OpTy op) {
  int64_t rank = op.getInputType().getRank();
  SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
  for (int64_t d = op.getNormalizedAxis(); d < rank; ++d)
    iterators[d] = IteratorType::reduction;
  return iterators;
}

//===----------------------------------------------------------------------===//
// Fused ops: domain = output shape [rows..., N]
//===----------------------------------------------------------------------===//

/// The iterators of a fused op's domain [rows..., N]: rows are parallel; N
/// is a reduction for matmul → norm (the norm needs whole rows) and for a
/// norm → matmul that returns its residual sum or its statistics (every N
/// tile would write the same rows of them), else parallel.
template <typename OpTy>
SmallVector<IteratorType> fusedIterators(OpTy op) {
  SmallVector<IteratorType> iterators(op.getInitType().getRank(),
                                      IteratorType::parallel);
  auto [mean, rstd] = norm::detail::fusedStatisticsOf(op);
  if (isa<MatmulRMSNormOp, MatmulLayerNormOp>(op.getOperation()) ||
      op.getSumInit() || mean || rstd)
    iterators.back() = IteratorType::reduction;
  return iterators;
}

template <typename OpTy> SmallVector<IteratorType> iteratorsOf(OpTy op) {
  if constexpr (isStandalone<OpTy>)
    return standaloneIterators(op);
  else
    return fusedIterators(op);
}

/// The requested tile of `op`'s domain, reductions widened to their full
/// extent.
template <typename OpTy>
Tile domainTile(OpTy op, OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                ArrayRef<OpFoldResult> sizes) {
  return widenReductions(b, op.getLoc(), domainOperand(op), iteratorsOf(op),
                         offsets, sizes);
}

/// The tile of a standalone norm's `scale_outs`: the rows of `tile`, and all
/// the groups of a row when the scales are per group.
template <typename OpTy>
Tile scalesTileOf(OpTy op, OpBuilder &b, const Tile &tile) {
  int64_t axis = op.getNormalizedAxis();
  Tile scalesTile = tile.select(range(0, axis));
  if (op.getGroupSize()) {
    scalesTile.offsets.push_back(b.getIndexAttr(0));
    scalesTile.sizes.push_back(
        linalg::createFoldedDimOp(b, op.getLoc(), op.getScaleInit(), axis));
  }
  return scalesTile;
}

/// The tile of a rotary embedding's angles (`cos`, `sin`): the input's tile,
/// except over their broadcast (size-1) dims, which keep their one index.
Tile anglesTileOf(OpBuilder &b, Value angles, const Tile &tile) {
  Tile anglesTile = tile;
  for (auto [d, size] :
       llvm::enumerate(cast<ShapedType>(angles.getType()).getShape())) {
    if (size != 1)
      continue;
    anglesTile.offsets[d] = b.getIndexAttr(0);
    anglesTile.sizes[d] = b.getIndexAttr(1);
  }
  return anglesTile;
}

/// The rows of a fused op's tile with the whole input row [0, K).
Tile inputRowsOf(OpBuilder &b, Location loc, Value input, const Tile &tile) {
  int64_t rank = tile.offsets.size();
  Tile inputTile = tile.select(range(0, rank - 1));
  inputTile.offsets.push_back(b.getIndexAttr(0));
  inputTile.sizes.push_back(linalg::createFoldedDimOp(b, loc, input, rank - 1));
  return inputTile;
}

//===----------------------------------------------------------------------===//
// Tiling
//===----------------------------------------------------------------------===//

/// The op on the tiles of its operands: operands not given a tile are
/// passed whole (γ, β).
template <typename OpTy>
FailureOr<TilingResult> tileOp(OpTy op, OpBuilder &b,
                               ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes) {
  Location loc = op.getLoc();
  Tile tile = domainTile(op, b, offsets, sizes);
  OperandTiles tiles;
  if constexpr (isStandalone<OpTy>) {
    // Statistics outputs live in the row space; everything full-rank is
    // tiled like the input.
    Tile rowTile = tile.select(range(0, op.getNormalizedAxis()));
    tiles.set({op.getInputMutable(), op.getResidualMutable(),
               op.getInitMutable(), op.getSumInitMutable()},
              tile);
    tiles.set(op.getRstdInitMutable(), rowTile);
    if (op.getScaleInit())
      tiles.set(op.getScaleInitMutable(), scalesTileOf(op, b, tile));
    if (op.getCos())
      tiles.set({op.getCosMutable(), op.getSinMutable()},
                anglesTileOf(b, op.getCos(), tile));
    if constexpr (std::is_same_v<OpTy, LayerNormOp>)
      tiles.set(op.getMeanInitMutable(), rowTile);
  } else if constexpr (std::is_same_v<OpTy, RMSNormMatmulOp> ||
                       std::is_same_v<OpTy, LayerNormMatmulOp>) {
    // norm → matmul: X, the residual and the sum are tiled over rows (K
    // whole), `rhs` and `matmul_bias` over N.
    int64_t rank = op.getInitType().getRank();
    Tile inputTile = inputRowsOf(b, loc, op.getInput(), tile);
    Tile columns = tile.select({rank - 1});
    Tile rhsTile;
    unsigned kDim = op.getTransposeRhs() ? 1 : 0;
    for (unsigned d = 0; d < 2; ++d) {
      bool isK = d == kDim;
      rhsTile.offsets.push_back(isK ? b.getIndexAttr(0) : columns.offsets[0]);
      rhsTile.sizes.push_back(
          isK ? linalg::createFoldedDimOp(b, loc, op.getRhs(), d)
              : columns.sizes[0]);
    }
    tiles.set(
        {op.getInputMutable(), op.getResidualMutable(), op.getSumInitMutable()},
        inputTile);
    tiles.set(op.getRhsMutable(), rhsTile);
    tiles.set(op.getMatmulBiasMutable(), columns);
    tiles.set(op.getInitMutable(), tile);
  } else {
    // matmul → norm: X over rows (K whole), the rest like the output.
    tiles.set(op.getInputMutable(), inputRowsOf(b, loc, op.getInput(), tile));
    tiles.set(
        {op.getResidualMutable(), op.getInitMutable(), op.getSumInitMutable()},
        tile);
    if constexpr (std::is_same_v<OpTy, MatmulRMSNormOp>) {
      if (op.getCos()) {
        // The angles, [rows..., H or 1, D]: the tile's rows, all of a row.
        int64_t rank = op.getInitType().getRank();
        Tile headsTile = tile.select(range(0, rank - 1));
        for (int64_t d : {rank - 1, rank}) {
          headsTile.offsets.push_back(b.getIndexAttr(0));
          headsTile.sizes.push_back(
              linalg::createFoldedDimOp(b, loc, op.getCos(), d));
        }
        tiles.set({op.getCosMutable(), op.getSinMutable()},
                  anglesTileOf(b, op.getCos(), headsTile));
      }
    }
  }
  if constexpr (!isStandalone<OpTy>) {
    // The statistics: one per row of the tile.
    Tile rowTile = tile.select(range(0, op.getInitType().getRank() - 1));
    tiles.set(op.getRstdInitMutable(), rowTile);
    if constexpr (std::is_same_v<OpTy, LayerNormMatmulOp> ||
                  std::is_same_v<OpTy, MatmulLayerNormOp>)
      tiles.set(op.getMeanInitMutable(), rowTile);
  }
  return cloneOnTiles(op, b, tiles);
}

/// The tile of result `resultNumber`: the domain's over the result's dims
/// (the statistics live in the row space), except for the sum of norm →
/// matmul (result 1), which covers the tile's rows and all of K.
template <typename OpTy>
LogicalResult resultTile(OpTy op, OpBuilder &b, unsigned resultNumber,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes,
                         SmallVector<OpFoldResult> &resultOffsets,
                         SmallVector<OpFoldResult> &resultSizes) {
  Tile tile = domainTile(op, b, offsets, sizes);
  if constexpr (isStandalone<OpTy>) {
    int64_t resultRank =
        cast<ShapedType>(op->getResult(resultNumber).getType()).getRank();
    // `scale_outs` is the last output when present.
    bool isScales =
        op.getScaleInit() && resultNumber + 1 == op->getNumResults();
    tile = isScales ? scalesTileOf(op, b, tile)
                    : tile.select(range(0, resultRank));
  } else {
    int64_t rank = op.getInitType().getRank();
    if (cast<ShapedType>(op->getResult(resultNumber).getType()).getRank() <
        rank)
      tile = tile.select(range(0, rank - 1));
    else if (resultNumber != 0 &&
             isa<RMSNormMatmulOp, LayerNormMatmulOp>(op.getOperation()))
      tile = inputRowsOf(b, op.getLoc(), op.getInput(), tile);
  }
  resultOffsets = tile.offsets;
  resultSizes = tile.sizes;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// TilingInterface methods
//===----------------------------------------------------------------------===//

#define NORM_DEFINE_TILING(OpTy)                                               \
  SmallVector<IteratorType> OpTy::getLoopIteratorTypes() {                     \
    return iteratorsOf(*this);                                                 \
  }                                                                            \
  SmallVector<Range> OpTy::getIterationDomain(OpBuilder &b) {                  \
    return domainOf(b, getLoc(), domainOperand(*this));                        \
  }                                                                            \
  FailureOr<TilingResult> OpTy::getTiledImplementation(                        \
      OpBuilder &b, ArrayRef<OpFoldResult> offsets,                            \
      ArrayRef<OpFoldResult> sizes) {                                          \
    return tileOp(*this, b, offsets, sizes);                                   \
  }                                                                            \
  LogicalResult OpTy::getResultTilePosition(                                   \
      OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,     \
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,  \
      SmallVector<OpFoldResult> &resultSizes) {                                \
    return resultTile(*this, b, resultNumber, offsets, sizes, resultOffsets,   \
                      resultSizes);                                            \
  }

NORM_DEFINE_TILING(RMSNormOp)
NORM_DEFINE_TILING(LayerNormOp)
NORM_DEFINE_TILING(RMSNormMatmulOp)
NORM_DEFINE_TILING(LayerNormMatmulOp)
NORM_DEFINE_TILING(MatmulRMSNormOp)
NORM_DEFINE_TILING(MatmulLayerNormOp)
#undef NORM_DEFINE_TILING
