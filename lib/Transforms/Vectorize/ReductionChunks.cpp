//===- ReductionChunks.cpp - row reductions in vector-sized chunks -------===//
//
// A row reduction too long to be one vector (or of unknown length), as
// norm-vectorize-elementwise meets it in model IR (a softmax over the
// vocabulary, or over a dynamic key length):
//
//   acc[0..U) = splat(neutral)
//   for k in [0, n − n mod U·L) step U·L: acc[u] = acc[u] ⊕ f(x[k + u·L ..])
//   acc = acc[0] ⊕ … ⊕ acc[U−1]
//   for k in [.., n − n mod L) step L:     acc = acc ⊕ f(x[k ..])
//   if n mod L ≠ 0:   acc = acc ⊕ select(mask, f(masked x), neutral)
//   out = vector.reduction ⊕ acc, out
//
// f is the op's body without its combiner ⊕, each scalar op cloned on
// vectors of L lanes (L = the target's width in the op's widest type).
// The accumulators stay in registers; U independent ones let ⊕'s latency
// overlap. Elements are combined in a different order than the scalar
// loop's (lane-wise partial results, then a tree), as any vectorized
// reduction does.
//
//===----------------------------------------------------------------------===//

#include "ReductionChunks.h"

#include "norm/Support/FoldTree.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

/// The one combiner op of `op`'s one output when its kind and neutral
/// element are known, else null.
Operation *combinerOf(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return nullptr;
  Operation *combiner = combiners.front();
  if (!linalg::getCombinerOpKind(combiner) ||
      !arith::getNeutralElement(combiner))
    return nullptr;
  return combiner;
}

/// An op of the body that clones onto vectors lane by lane.
bool isLanewise(Operation &op) {
  auto scalar = [](Type t) { return t.isIntOrFloat(); };
  if (!llvm::all_of(op.getOperandTypes(), scalar) ||
      !llvm::all_of(op.getResultTypes(), scalar))
    return false;
  if (isa<arith::ConstantOp>(op))
    return true;
  // A masked-off lane holds 0, which an integer division would trap on.
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return false;
  return op.getNumRegions() == 0 && OpTrait::hasElementwiseMappableTraits(&op);
}

/// Whether `map` reads along loop dim `row` (as its last result, which
/// canReduceInChunks checks).
bool readsRow(AffineMap map, unsigned row) {
  return map.getResultPosition(getAffineDimExpr(row, map.getContext()))
      .has_value();
}

} // namespace

bool mlir::norm::canReduceInChunks(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return false;
  unsigned row = op.getNumLoops() - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < row; ++d)
    if (iterators[d] != utils::IteratorType::parallel)
      return false;
  if (iterators[row] != utils::IteratorType::reduction || !combinerOf(op))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !type.getElementType().isIntOrFloat() ||
        !map.isProjectedPermutation())
      return false;
    std::optional<unsigned> position = map.getResultPosition(
        getAffineDimExpr(row, op.getContext()));
    if (!position)
      continue;
    // Along the row: one contiguous vector load per chunk. The output never
    // reads along the reduced dim.
    if (op.isDpsInit(&operand) || *position + 1 != map.getNumResults() ||
        !type.isLastDimUnitStride())
      return false;
  }
  return llvm::all_of(op.getBlock()->without_terminator(), isLanewise);
}

void mlir::norm::emitReductionInChunks(RewriterBase &rewriter,
                                       linalg::GenericOp op, int64_t lanes,
                                       int64_t accumulators) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);

  Operation *combiner = combinerOf(op);
  vector::CombiningKind kind = *linalg::getCombinerOpKind(combiner);
  BlockArgument outArg = op.getRegionOutputArgs().front();
  Value reduced = combiner->getOperand(0) == outArg ? combiner->getOperand(1)
                                                    : combiner->getOperand(0);
  auto lanesOf = [&](Type element) {
    return VectorType::get({lanes}, element);
  };
  VectorType accType = lanesOf(outArg.getType());
  Attribute neutralElement = *arith::getNeutralElement(combiner);
  Value neutral = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(accType, ArrayRef<Attribute>(neutralElement)));
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value zero = index(0);
  unsigned row = op.getNumLoops() - 1;
  Value length = getValueOrCreateConstantIndexOp(
      rewriter, loc,
      cast<linalg::LinalgOp>(op.getOperation())
          .createLoopRanges(rewriter, loc)[row]
          .size);

  // An operand's element at row position k (every other loop has extent 1).
  auto indicesAt = [&](OpOperand *operand, Value k) {
    SmallVector<Value> indices;
    for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults())
      indices.push_back(cast<AffineDimExpr>(e).getPosition() == row ? k
                                                                    : zero);
    return indices;
  };

  // Inputs constant along the row (a softmax's row max): one scalar, one
  // broadcast, before the loops.
  IRMapping rowInvariant;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (readsRow(op.getMatchingIndexingMap(input), row))
      continue;
    Value scalar = memref::LoadOp::create(rewriter, loc, input->get(),
                                          indicesAt(input, zero));
    rowInvariant.map(op.getMatchingBlockArgument(input),
                     vector::BroadcastOp::create(
                         rewriter, loc, lanesOf(scalar.getType()), scalar));
  }

  // f on the chunk at k; `mask` (the in-range lanes of a partial chunk, or
  // null) guards its loads.
  auto chunkValue = [&](OpBuilder &b, Value k, Value mask) -> Value {
    IRMapping lanewise = rowInvariant;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!readsRow(op.getMatchingIndexingMap(input), row))
        continue;
      VectorType type =
          lanesOf(cast<MemRefType>(input->get().getType()).getElementType());
      SmallVector<Value> indices = indicesAt(input, k);
      Value chunk;
      if (mask) {
        Value padding = arith::ConstantOp::create(
            b, loc, type, b.getZeroAttr(type));
        chunk = vector::MaskedLoadOp::create(b, loc, type, input->get(),
                                             indices, mask, padding);
      } else {
        chunk = vector::LoadOp::create(b, loc, type, input->get(), indices);
      }
      lanewise.map(op.getMatchingBlockArgument(input), chunk);
    }
    // Values from outside the body are the same in every lane.
    auto vectorOf = [&](Value v) -> Value {
      if (Value mapped = lanewise.lookupOrNull(v))
        return mapped;
      return vector::BroadcastOp::create(b, loc, lanesOf(v.getType()), v);
    };
    for (Operation &bodyOp : op.getBlock()->without_terminator()) {
      if (&bodyOp == combiner)
        continue;
      if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp)) {
        Attribute value = constant.getValue();
        lanewise.map(constant.getResult(),
                     arith::ConstantOp::create(
                         b, loc,
                         DenseElementsAttr::get(lanesOf(constant.getType()),
                                                ArrayRef<Attribute>(value))));
        continue;
      }
      SmallVector<Value> operands =
          llvm::map_to_vector(bodyOp.getOperands(), vectorOf);
      SmallVector<Type> types;
      for (Type type : bodyOp.getResultTypes())
        types.push_back(lanesOf(type));
      OperationState state(loc, bodyOp.getName(), operands, types,
                           bodyOp.getAttrs());
      lanewise.map(bodyOp.getResults(), b.create(state)->getResults());
    }
    return vectorOf(reduced);
  };
  auto combine = [&](OpBuilder &b, Value acc, Value value) {
    return vector::makeArithReduction(b, loc, kind, value, acc);
  };
  // [from, to) in whole chunks of `width` vectors, one accumulator each.
  auto wholeChunks = [&](Value from, Value to, SmallVector<Value> accs) {
    int64_t width = accs.size();
    auto loop = scf::ForOp::create(
        rewriter, loc, from, to, index(width * lanes), accs,
        [&](OpBuilder &b, Location, Value k, ValueRange carried) {
          SmallVector<Value> next;
          for (int64_t u = 0; u < width; ++u) {
            Value at = arith::AddIOp::create(
                b, loc, k, arith::ConstantIndexOp::create(b, loc, u * lanes));
            next.push_back(combine(b, carried[u], chunkValue(b, at, Value())));
          }
          scf::YieldOp::create(b, loc, next);
        });
    return SmallVector<Value>(loop.getResults());
  };
  auto roundDown = [&](Value v, int64_t multiple) {
    Value rest = arith::RemUIOp::create(rewriter, loc, v, index(multiple));
    return arith::SubIOp::create(rewriter, loc, v, rest).getResult();
  };

  Value acc = neutral;
  Value wideEnd = zero;
  if (accumulators > 1) {
    wideEnd = roundDown(length, accumulators * lanes);
    SmallVector<Value> accs = wholeChunks(
        zero, wideEnd, SmallVector<Value>(accumulators, neutral));
    // A tree, so the fold is as short as the accumulators allow.
    acc = foldTree(accs, [&](Value x, Value y) -> Value {
      return combine(rewriter, x, y);
    });
  }
  Value end = roundDown(length, lanes);
  acc = wholeChunks(wideEnd, end, {acc}).front();

  Value rest = arith::SubIOp::create(rewriter, loc, length, end);
  Value partial = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ne, rest, zero);
  auto tail = scf::IfOp::create(
      rewriter, loc, partial,
      [&](OpBuilder &b, Location) {
        Value mask = vector::CreateMaskOp::create(
            b, loc, lanesOf(b.getI1Type()), ValueRange{rest});
        Value value = arith::SelectOp::create(
            b, loc, mask, chunkValue(b, end, mask), neutral);
        scf::YieldOp::create(b, loc, combine(b, acc, value));
      },
      [&](OpBuilder &b, Location) { scf::YieldOp::create(b, loc, acc); });
  acc = tail.getResult(0);

  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> outIndices = indicesAt(init, zero);
  Value initial =
      memref::LoadOp::create(rewriter, loc, init->get(), outIndices);
  Value result =
      vector::ReductionOp::create(rewriter, loc, kind, acc, initial);
  memref::StoreOp::create(rewriter, loc, result, init->get(), outIndices);
  rewriter.eraseOp(op);
}
