//===- NormShardingInterface.cpp - the norm ops under shard partitioning -===//
//
// shard::ShardingInterface for norm.rms_norm, norm.layer_norm and the four
// fused norm/matmul ops (DESIGN.md §10), so that sharding-propagation and
// shard-partition take them: the loop space of each op and how its operands
// index it, and the op's partition. Rows (and, for norm → matmul, the
// columns N of W) split: each process runs the op on its slices, a clone, no
// communication. The normalized dims split: the op is decomposed on its
// slices with the row statistics all-reduced (Σx², or the LayerNorm (mean,
// M2) pairs), so a few values per row move, never the row. The matmul's K
// split: the f32 product is all-reduced before the epilogue. A split the op
// cannot honour is an error at the op.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/IR/NormSplitDecomposition.h"
#include "norm/Dialect/Norm/Transforms/ShardingInterfaceImpl.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::norm;
using utils::IteratorType;

namespace {

/// The loop space of a norm op for sharding: its loops, which of them are
/// normalized, which is the matmul's K, and each operand's indexing map.
/// Every loop is parallel but the K of matmul → norm: the row statistics are
/// complete after partition (they are all-reduced there), so a result's
/// normalized dims are split like the input's; norm → matmul's K indexes its
/// sum_outs result and is split like X.
struct LoopSpace {
  SmallVector<IteratorType> iterators;
  /// The normalized loops [normBegin, normEnd).
  int64_t normBegin = 0, normEnd = 0;
  /// The contraction loop K, or -1.
  int64_t contraction = -1;
  /// By operand number.
  SmallVector<AffineMap> operandMaps;
};

class MapsBuilder {
public:
  MapsBuilder(Operation *op, int64_t loops)
      : ctx(op->getContext()), loops(loops),
        maps(op->getNumOperands(), AffineMap()) {}

  /// The map (d_first, ..., d_{last-1}) followed by `extra` dims.
  AffineMap range(int64_t first, int64_t last, ArrayRef<int64_t> extra = {}) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = first; d < last; ++d)
      exprs.push_back(getAffineDimExpr(d, ctx));
    for (int64_t d : extra)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(loops, 0, exprs, ctx);
  }

  void set(OpOperand &operand, AffineMap map) {
    maps[operand.getOperandNumber()] = map;
  }
  void set(MutableOperandRange range, AffineMap map) {
    for (OpOperand &operand : range)
      set(operand, map);
  }
  /// An optional operand of the non-normalized (row) dims, plus as many
  /// trailing loops as it has more dims (the grouped scale_outs).
  void setRows(MutableOperandRange operands, int64_t rowDims) {
    for (OpOperand &operand : operands) {
      int64_t rank = cast<ShapedType>(operand.get().getType()).getRank();
      SmallVector<int64_t> extra;
      for (int64_t d = rowDims; d < rank; ++d)
        extra.push_back(loops - rank + d);
      set(operand, range(0, rowDims, extra));
    }
  }
  /// A static scale: a scalar or a 0-d tensor.
  void setScalar(MutableOperandRange operands) {
    for (OpOperand &operand : operands)
      set(operand, AffineMap::get(loops, 0, {}, ctx));
  }

  MLIRContext *ctx;
  int64_t loops;
  SmallVector<AffineMap> maps;
};

/// norm.rms_norm / norm.layer_norm: the input's dims, the normalized ones
/// last.
template <typename OpTy> LoopSpace standaloneLoopSpace(OpTy op) {
  constexpr bool isLayerNorm = std::is_same_v<OpTy, LayerNormOp>;
  int64_t rank = op.getInputType().getRank();
  int64_t axis = op.getNormalizedAxis();
  MapsBuilder m(op, rank);
  AffineMap id = m.range(0, rank), norm = m.range(axis, rank);
  m.set(op.getInputMutable(), id);
  m.set(op.getResidualMutable(), id);
  m.set(op.getWeightMutable(), norm);
  if constexpr (isLayerNorm) {
    m.set(op.getBiasMutable(), norm);
    m.setRows(op.getMeanInitMutable(), axis);
  }
  m.setScalar(op.getScaleMutable());
  m.set(op.getInitMutable(), id);
  m.set(op.getSumInitMutable(), id);
  m.setRows(op.getRstdInitMutable(), axis);
  m.setRows(op.getScaleInitMutable(), axis);
  return {SmallVector<IteratorType>(rank, IteratorType::parallel), axis, rank,
          -1, std::move(m.maps)};
}

/// The fused ops: the rows of the output, N and K. rhs is [K, N], or [N, K]
/// with transpose_rhs.
template <typename OpTy>
LoopSpace fusedLoopSpace(OpTy op, bool normBeforeMatmul) {
  int64_t rows = cast<ShapedType>(op.getInit().getType()).getRank() - 1;
  int64_t n = rows, k = rows + 1;
  MapsBuilder m(op, rows + 2);
  AffineMap overK = m.range(0, rows, {k}), overN = m.range(0, rows, {n});
  m.set(op.getInputMutable(), overK);
  m.set(op.getRhsMutable(),
        op.getTransposeRhs() ? m.range(n, k + 1) : m.range(0, 0, {k, n}));
  m.set(op.getMatmulBiasMutable(), m.range(n, n + 1));
  AffineMap normed = normBeforeMatmul ? overK : overN;
  AffineMap param = normBeforeMatmul ? m.range(k, k + 1) : m.range(n, n + 1);
  m.set(op.getResidualMutable(), normed);
  m.set(op.getWeightMutable(), param);
  if constexpr (std::is_same_v<OpTy, LayerNormMatmulOp> ||
                std::is_same_v<OpTy, MatmulLayerNormOp>) {
    m.set(op.getBiasMutable(), param);
    m.setRows(op.getMeanInitMutable(), rows);
  }
  m.set(op.getInitMutable(), overN);
  m.set(op.getSumInitMutable(), normed);
  m.setRows(op.getRstdInitMutable(), rows);
  SmallVector<IteratorType> iterators(rows + 2, IteratorType::parallel);
  if (!normBeforeMatmul)
    iterators[k] = IteratorType::reduction;
  int64_t normLoop = normBeforeMatmul ? k : n;
  return {iterators, normLoop, normLoop + 1, k, std::move(m.maps)};
}

LoopSpace loopSpaceOf(Operation *op) {
  return TypeSwitch<Operation *, LoopSpace>(op)
      .Case<RMSNormOp, LayerNormOp>(
          [](auto typed) { return standaloneLoopSpace(typed); })
      .Case<RMSNormMatmulOp, LayerNormMatmulOp>(
          [](auto typed) { return fusedLoopSpace(typed, true); })
      .Case<MatmulRMSNormOp, MatmulLayerNormOp>(
          [](auto typed) { return fusedLoopSpace(typed, false); });
}

/// The grid of the shardings, or null when every value is unsharded.
FlatSymbolRefAttr gridOf(ArrayRef<shard::Sharding> operandShardings,
                         ArrayRef<shard::Sharding> resultShardings) {
  for (ArrayRef<shard::Sharding> shardings :
       {operandShardings, resultShardings})
    for (const shard::Sharding &sharding : shardings)
      if (sharding)
        return sharding.getGridAttr();
  return nullptr;
}

/// The part of DESIGN.md §10 this op cannot do: halos and explicit shard
/// offsets, grids of unknown size, static dims the group does not divide,
/// the normalized dims over several grid axes, and norm splits of the forms
/// whose statistics are not row sums (pRMSNorm's prefix, quantized outputs,
/// per-head matmul → norm).
LogicalResult checkSplit(Operation *op, shard::GridOp grid,
                         ArrayRef<shard::Sharding> operandShardings,
                         ArrayRef<shard::Sharding> resultShardings,
                         ArrayRef<SmallVector<shard::GridAxis>> normAxes) {
  SmallVector<std::pair<Type, shard::Sharding>, 4> values;
  for (auto [value, sharding] :
       llvm::zip_equal(op->getOperands(), operandShardings))
    values.emplace_back(value.getType(), sharding);
  for (auto [value, sharding] :
       llvm::zip_equal(op->getResults(), resultShardings))
    values.emplace_back(value.getType(), sharding);
  for (auto [type, sharding] : values) {
    if (!sharding)
      continue;
    if (!sharding.getStaticHaloSizes().empty() ||
        !sharding.getDynamicHaloSizes().empty() ||
        !sharding.getStaticShardedDimsOffsets().empty() ||
        !sharding.getDynamicShardedDimsOffsets().empty())
      return op->emitOpError(
          "cannot be partitioned with halos or explicit shard offsets");
    auto shaped = dyn_cast<RankedTensorType>(type);
    if (!shaped)
      continue;
    for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
      if (axes.empty())
        continue;
      int64_t parts =
          shard::collectiveProcessGroupSize(axes.asArrayRef(), grid);
      if (ShapedType::isDynamic(parts))
        return op->emitOpError("cannot be partitioned over grid axes of "
                               "dynamic size");
      int64_t size = shaped.getDimSize(dim);
      if (!ShapedType::isDynamic(size) && size % parts != 0)
        return op->emitOpError("cannot split dimension ")
               << dim << " of size " << size << " of " << shaped << " into "
               << parts << " equal parts";
    }
  }
  SmallVector<shard::GridAxis> axes;
  for (ArrayRef<shard::GridAxis> loopAxes : normAxes)
    axes.append(loopAxes.begin(), loopAxes.end());
  if (axes.empty())
    return success();
  if (axes.size() > 1)
    return op->emitOpError("cannot split its normalized dims over more than "
                           "one grid axis");
  auto rejects = [&](StringRef what) {
    return op->emitOpError("cannot split the normalized dims of ") << what;
  };
  if (auto rms = dyn_cast<RMSNormOp>(op); rms && rms.getPartialValue() < 1.0)
    return rejects("a partial RMSNorm (its prefix is not a row sum)");
  if (auto rms = dyn_cast<RMSNormMatmulOp>(op);
      rms && rms.getPartialValue() < 1.0)
    return rejects("a partial RMSNorm (its prefix is not a row sum)");
  if (auto rms = dyn_cast<RMSNormOp>(op); rms && rms.getScaleInit())
    return rejects("a norm with dynamic quantization scales");
  if (auto ln = dyn_cast<LayerNormOp>(op); ln && ln.getScaleInit())
    return rejects("a norm with dynamic quantization scales");
  if (auto mm = dyn_cast<MatmulRMSNormOp>(op); mm && mm.getHeadDim())
    return rejects("a per-head norm");
  if (auto mm = dyn_cast<MatmulRMSNormOp>(op); mm && mm.hasInputNorm())
    return rejects("a matmul → norm with an input norm");
  if (auto mm = dyn_cast<MatmulLayerNormOp>(op); mm && mm.getHeadDim())
    return rejects("a per-head norm");
  return success();
}

template <typename OpTy>
struct NormShardingModel
    : public shard::ShardingInterface::ExternalModel<NormShardingModel<OpTy>,
                                                     OpTy> {
  SmallVector<IteratorType> getLoopIteratorTypes(Operation *op) const {
    return loopSpaceOf(op).iterators;
  }

  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    SmallVector<shard::ReductionKind> kinds;
    for (IteratorType iterator : loopSpaceOf(op).iterators)
      if (iterator == IteratorType::reduction)
        kinds.push_back(shard::ReductionKind::Sum);
    return kinds;
  }

  /// One map per operand, then one per result (its init's).
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    SmallVector<AffineMap> maps = loopSpaceOf(op).operandMaps;
    for (OpOperand &init :
         cast<DestinationStyleOpInterface>(op).getDpsInitsMutable())
      maps.push_back(maps[init.getOperandNumber()]);
    return maps;
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<shard::Sharding> operandShardings,
                          ArrayRef<shard::Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    auto iface = cast<shard::ShardingInterface>(op);
    if (op->getNumResults() == 0)
      return op->emitOpError("cannot be partitioned in its memref form");
    FlatSymbolRefAttr gridName = gridOf(operandShardings, resultShardings);
    if (!gridName) {
      shard::partitionFullyReplicatedOperation(
          *op, partitionedOperands, operandShardings, resultShardings,
          partitionMap, symbolTable, builder);
      return success();
    }
    shard::GridOp grid = shard::getGridOrNull(op, gridName, symbolTable);
    if (!grid)
      return op->emitOpError("refers to an unknown grid ") << gridName;
    LoopSpace space = loopSpaceOf(op);
    shard::ShardingArray loopAxes =
        shard::getGridAxisAssignmentForLoopIterators(
            operandShardings, resultShardings, space.iterators,
            iface.getIndexingMaps());
    loopAxes.resize(space.iterators.size());
    ArrayRef<SmallVector<shard::GridAxis>> normAxes = ArrayRef(loopAxes).slice(
        space.normBegin, space.normEnd - space.normBegin);
    if (failed(
            checkSplit(op, grid, operandShardings, resultShardings, normAxes)))
      return failure();
    SmallVector<shard::GridAxis> normGridAxes, contractionAxes;
    for (ArrayRef<shard::GridAxis> axes : normAxes)
      normGridAxes.append(axes.begin(), axes.end());
    if (space.contraction >= 0)
      contractionAxes = loopAxes[space.contraction];

    shard::partitionTriviallyShardableOperation(
        *op, partitionedOperands, operandShardings, resultShardings,
        partitionMap, symbolTable, builder);
    if (normGridAxes.empty() && contractionAxes.empty())
      return success();

    // The op on this process's slices, decomposed with its partial sums
    // all-reduced.
    Operation *local = partitionMap.lookup(op->getResult(0)).getDefiningOp();
    builder.setInsertionPointAfter(local);
    StringRef gridSymbol = grid.getSymName();
    auto sumOver = [gridSymbol](ArrayRef<shard::GridAxis> axes) {
      SmallVector<shard::GridAxis> copy(axes);
      return [gridSymbol, copy](OpBuilder &b, Location loc, Value value) {
        return Value(shard::AllReduceOp::create(b, loc, value.getType(),
                                                gridSymbol, copy, value,
                                                shard::ReductionKind::Sum));
      };
    };
    ProcessSplit split;
    if (!normGridAxes.empty()) {
      split.normParts = shard::collectiveProcessGroupSize(normGridAxes, grid);
      split.normIndex = shard::ProcessMultiIndexOp::create(
                            builder, op->getLoc(), gridSymbol, normGridAxes)
                            ->getResult(0);
      split.sumOverNormParts = sumOver(normGridAxes);
    }
    if (!contractionAxes.empty())
      split.sumOverContractionParts = sumOver(contractionAxes);
    FailureOr<SmallVector<Value>> results =
        decomposeSplitOperation(local, builder, split);
    if (failed(results))
      return op->emitOpError("cannot be decomposed for partitioning");
    for (auto [result, value] : llvm::zip_equal(op->getResults(), *results))
      partitionMap.map(result, value);
    local->erase();
    return success();
  }
};

} // namespace

void mlir::norm::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NormDialect *) {
    RMSNormOp::attachInterface<NormShardingModel<RMSNormOp>>(*ctx);
    LayerNormOp::attachInterface<NormShardingModel<LayerNormOp>>(*ctx);
    RMSNormMatmulOp::attachInterface<NormShardingModel<RMSNormMatmulOp>>(*ctx);
    LayerNormMatmulOp::attachInterface<NormShardingModel<LayerNormMatmulOp>>(
        *ctx);
    MatmulRMSNormOp::attachInterface<NormShardingModel<MatmulRMSNormOp>>(*ctx);
    MatmulLayerNormOp::attachInterface<NormShardingModel<MatmulLayerNormOp>>(
        *ctx);
  });
}
