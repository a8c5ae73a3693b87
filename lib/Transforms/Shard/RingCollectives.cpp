//===- RingCollectives.cpp - all_gather / reduce_scatter as MPI rings -----===//
//
// MLIR 22's convert-shard-to-mpi lowers only all_reduce, so a gather or a
// reduce-scatter written as an all-reduce moves the whole tensor both ways
// (twice the bytes a ring moves with two processes). These patterns lower
// them as the textbook rings with mpi.send / mpi.recv, P − 1 steps of one
// chunk each, where the chunks are contiguous and the grid's processes are
// the MPI world; the all-reduce forms (LowerShardToMPI.cpp) stay the
// fallback. An all_reduce whose only reader is the all_slice of the same
// processes (how 22's partition writes a reduce-scatter) becomes one first.
//
//===----------------------------------------------------------------------===//

#include "RingCollectives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;

namespace {

/// The element types MLIR 22's mpi → LLVM lowering gives an MPI datatype.
bool hasMPIDatatype(Type element) {
  return element.isF32() || element.isF64() || isa<IntegerType>(element);
}

/// The number of processes of the ring over `gridAxes`, when they are the
/// whole grid in its own order (the linear index in the group is then the
/// MPI world rank, so the ring's neighbours are ranks the pipeline can
/// name; the processes are as many as the grid's, as everywhere in the
/// lowering).
std::optional<int64_t> ringSize(Operation *op, FlatSymbolRefAttr gridName,
                                ArrayRef<shard::GridAxis> gridAxes,
                                SymbolTableCollection &symbols) {
  shard::GridOp grid = shard::getGridOrNull(op, gridName, symbols);
  if (!grid)
    return std::nullopt;
  ArrayRef<int64_t> shape = grid.getShape();
  if (gridAxes.size() != shape.size() || ShapedType::isDynamicShape(shape))
    return std::nullopt;
  for (auto [i, axis] : llvm::enumerate(gridAxes))
    if (axis != static_cast<shard::GridAxis>(i))
      return std::nullopt;
  int64_t processes = 1;
  for (int64_t size : shape)
    processes *= size;
  return processes;
}

/// Whether the P chunks of `whole` along `axis` (each of `part`'s shape)
/// are contiguous runs of a row-major buffer: every dim before `axis` is 1.
bool chunksAreContiguous(RankedTensorType part, RankedTensorType whole,
                         int64_t axis, int64_t processes) {
  if (!part.hasStaticShape() || !whole.hasStaticShape() ||
      part.getElementType() != whole.getElementType() ||
      !hasMPIDatatype(part.getElementType()) || axis < 0 ||
      axis >= whole.getRank() ||
      whole.getNumElements() != part.getNumElements() * processes)
    return false;
  return llvm::all_of(whole.getShape().take_front(axis),
                      [](int64_t size) { return size == 1; });
}

/// The processes of a ring moving `part`-shaped chunks of `whole` along
/// `axis` over `gridAxes`, or nothing when the ring does not apply.
std::optional<int64_t> ringProcesses(Operation *op, FlatSymbolRefAttr grid,
                                     ArrayRef<shard::GridAxis> gridAxes,
                                     Type part, Type whole, int64_t axis,
                                     SymbolTableCollection &symbols) {
  auto partType = dyn_cast<RankedTensorType>(part);
  auto wholeType = dyn_cast<RankedTensorType>(whole);
  std::optional<int64_t> processes = ringSize(op, grid, gridAxes, symbols);
  if (!partType || !wholeType || !processes ||
      !chunksAreContiguous(partType, wholeType, axis, *processes))
    return std::nullopt;
  return processes;
}

/// The reassociation that flattens a value of `rank` dims to one.
SmallVector<ReassociationIndices> flatten(int64_t rank) {
  ReassociationIndices all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  return {all};
}

/// A ring over the world: this process's rank r, its neighbours, and
/// chunk i of a flat buffer of P chunks.
class Ring {
public:
  Ring(ImplicitLocOpBuilder &b, StringRef grid,
       ArrayRef<shard::GridAxis> gridAxes, int64_t processes, int64_t chunk)
      : processes(processes), chunk(chunk) {
    rank = shard::createProcessLinearIndex(grid, gridAxes, b);
    Value p = index(b, processes);
    next = toI32(b, arith::RemUIOp::create(b, add(b, rank, 1), p));
    prev = toI32(b, arith::RemUIOp::create(b, add(b, rank, processes - 1), p));
    comm = mpi::CommWorldOp::create(b, mpi::CommType::get(b.getContext()));
    tag = arith::ConstantIntOp::create(b, b.getI32Type(), 0);
  }

  /// (r − s − back) mod P for step `s`.
  Value behind(OpBuilder &b, Location loc, Value step, int64_t back) const {
    ImplicitLocOpBuilder ib(loc, b);
    Value ahead = add(ib, rank, 2 * processes - back);
    return arith::RemUIOp::create(ib, arith::SubIOp::create(ib, ahead, step),
                                  index(ib, processes));
  }

  /// Chunk `i` of the flat buffer `buffer`.
  Value chunkOf(OpBuilder &b, Location loc, Value buffer, Value i) const {
    ImplicitLocOpBuilder ib(loc, b);
    Value offset = arith::MulIOp::create(ib, i, index(ib, chunk));
    return memref::SubViewOp::create(
        ib, buffer, ArrayRef<OpFoldResult>{offset},
        ArrayRef<OpFoldResult>{ib.getIndexAttr(chunk)},
        ArrayRef<OpFoldResult>{ib.getIndexAttr(1)});
  }

  /// Sends `out` to the next process and receives `in` from the previous
  /// one, even ranks sending first and odd ranks receiving first: blocking
  /// calls that cannot all wait on each other around the ring.
  void exchange(OpBuilder &b, Location loc, Value out, Value in) const {
    ImplicitLocOpBuilder ib(loc, b);
    Value odd = arith::CmpIOp::create(
        ib, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(ib, rank, index(ib, 2)), index(ib, 0));
    auto send = [&](OpBuilder &b, Location loc) {
      mpi::SendOp::create(b, loc, TypeRange(), out, tag, next, comm);
    };
    auto recv = [&](OpBuilder &b, Location loc) {
      mpi::RecvOp::create(b, loc, TypeRange(), in, tag, prev, comm);
    };
    scf::IfOp::create(
        ib, odd,
        [&](OpBuilder &b, Location loc) {
          recv(b, loc);
          send(b, loc);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &b, Location loc) {
          send(b, loc);
          recv(b, loc);
          scf::YieldOp::create(b, loc);
        });
  }

  /// `body(step)` for the P − 1 steps.
  void forEachStep(ImplicitLocOpBuilder &b,
                   function_ref<void(OpBuilder &, Location, Value)> body) {
    scf::ForOp::create(b, index(b, 0), index(b, processes - 1), index(b, 1),
                       ValueRange(),
                       [&](OpBuilder &b, Location loc, Value step, ValueRange) {
                         body(b, loc, step);
                         scf::YieldOp::create(b, loc);
                       });
  }

  Value rank;

private:
  static Value index(ImplicitLocOpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, v);
  }
  static Value add(ImplicitLocOpBuilder &b, Value v, int64_t c) {
    return arith::AddIOp::create(b, v, index(b, c));
  }
  static Value toI32(ImplicitLocOpBuilder &b, Value v) {
    return arith::IndexCastOp::create(b, b.getI32Type(), v);
  }

  int64_t processes, chunk;
  Value next, prev, comm, tag;
};

/// A flat buffer of `whole`'s elements, and the tensor of `whole`'s shape
/// that reads it.
Value allocFlat(ImplicitLocOpBuilder &b, RankedTensorType whole) {
  return memref::AllocOp::create(
      b, MemRefType::get({whole.getNumElements()}, whole.getElementType()));
}
Value tensorOfFlat(ImplicitLocOpBuilder &b, Value flat, RankedTensorType type) {
  Value shaped = memref::ExpandShapeOp::create(
      b, MemRefType::get(type.getShape(), type.getElementType()), flat,
      flatten(type.getRank()));
  return bufferization::ToTensorOp::create(b, type, shaped, /*restrict=*/true,
                                           /*writable=*/true);
}
/// `value`'s elements, flat and read-only.
Value flatBufferOf(ImplicitLocOpBuilder &b, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Value buffer = bufferization::ToBufferOp::create(
      b, MemRefType::get(type.getShape(), type.getElementType()), value,
      /*read_only=*/true);
  return memref::CollapseShapeOp::create(b, buffer, flatten(type.getRank()));
}

/// all_gather: the own part into its slot, then at step s each process
/// passes on chunk (r − s) mod P (its own at s = 0, the one it received
/// at s − 1 after) and receives chunk (r − s − 1) mod P.
struct RingAllGather : OpRewritePattern<shard::AllGatherOp> {
  RingAllGather(MLIRContext *ctx, SymbolTableCollection &symbols)
      : OpRewritePattern(ctx, /*benefit=*/2), symbols(symbols) {}
  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> processes = ringProcesses(
        op, op.getGridAttr(), op.getGridAxes(), op.getInput().getType(),
        op.getResult().getType(), op.getGatherAxis().getSExtValue(), symbols);
    if (!processes)
      return failure();
    auto part = cast<RankedTensorType>(op.getInput().getType());
    auto whole = cast<RankedTensorType>(op.getResult().getType());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Ring ring(b, op.getGrid(), op.getGridAxes(), *processes,
              part.getNumElements());
    Value gathered = allocFlat(b, whole);
    memref::CopyOp::create(b, flatBufferOf(b, op.getInput()),
                           ring.chunkOf(b, b.getLoc(), gathered, ring.rank));
    ring.forEachStep(b, [&](OpBuilder &b, Location loc, Value step) {
      Value out = ring.chunkOf(b, loc, gathered, ring.behind(b, loc, step, 0));
      Value in = ring.chunkOf(b, loc, gathered, ring.behind(b, loc, step, 1));
      ring.exchange(b, loc, out, in);
    });
    rewriter.replaceOp(op, tensorOfFlat(b, gathered, whole));
    return success();
  }
  SymbolTableCollection &symbols;
};

/// Whether the ring combines `kind` on `element`s: sum, and max/min of
/// floats (linalg.max/min); the all-reduce fallback takes the rest.
bool canCombine(shard::ReductionKind kind, Type element) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return true;
  case shard::ReductionKind::Max:
  case shard::ReductionKind::Min:
    return isa<FloatType>(element);
  default:
    return false;
  }
}
/// acc ← acc ⊕ received, elementwise.
void combineInto(OpBuilder &b, Location loc, shard::ReductionKind kind,
                 Value received, Value acc) {
  SmallVector<Value, 2> ins = {received, acc};
  switch (kind) {
  case shard::ReductionKind::Max:
    linalg::MaxOp::create(b, loc, ins, acc);
    return;
  case shard::ReductionKind::Min:
    linalg::MinOp::create(b, loc, ins, acc);
    return;
  default:
    linalg::AddOp::create(b, loc, ins, acc);
    return;
  }
}

/// reduce_scatter: a copy of the whole input; at step s each process sends
/// its partial chunk (r − s − 1) mod P and combines the received partial of
/// chunk (r − s − 2) mod P into its own; after P − 1 steps chunk r holds
/// every process's contribution.
struct RingReduceScatter : OpRewritePattern<shard::ReduceScatterOp> {
  RingReduceScatter(MLIRContext *ctx, SymbolTableCollection &symbols)
      : OpRewritePattern(ctx, /*benefit=*/2), symbols(symbols) {}
  LogicalResult matchAndRewrite(shard::ReduceScatterOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> processes = ringProcesses(
        op, op.getGridAttr(), op.getGridAxes(), op.getResult().getType(),
        op.getInput().getType(), op.getScatterAxis().getSExtValue(), symbols);
    if (!processes)
      return failure();
    auto whole = cast<RankedTensorType>(op.getInput().getType());
    auto part = cast<RankedTensorType>(op.getResult().getType());
    if (!canCombine(op.getReduction(), part.getElementType()))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Ring ring(b, op.getGrid(), op.getGridAxes(), *processes,
              part.getNumElements());
    Value partials = allocFlat(b, whole);
    memref::CopyOp::create(b, flatBufferOf(b, op.getInput()), partials);
    Value received = allocFlat(b, part);
    shard::ReductionKind kind = op.getReduction();
    ring.forEachStep(b, [&](OpBuilder &b, Location loc, Value step) {
      Value out = ring.chunkOf(b, loc, partials, ring.behind(b, loc, step, 1));
      Value acc = ring.chunkOf(b, loc, partials, ring.behind(b, loc, step, 2));
      ring.exchange(b, loc, out, received);
      combineInto(b, loc, kind, received, acc);
    });
    Value result = allocFlat(b, part);
    memref::CopyOp::create(b, ring.chunkOf(b, b.getLoc(), partials, ring.rank),
                           result);
    rewriter.replaceOp(op, tensorOfFlat(b, result, part));
    return success();
  }
  SymbolTableCollection &symbols;
};

/// all_reduce read only by the all_slice of the same processes: each
/// process keeps its slice of the sum, which is a reduce_scatter.
struct AllReduceThenSliceAsReduceScatter : OpRewritePattern<shard::AllSliceOp> {
  AllReduceThenSliceAsReduceScatter(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(shard::AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto allReduce = op.getInput().getDefiningOp<shard::AllReduceOp>();
    if (!allReduce || !allReduce->hasOneUse() ||
        allReduce.getGrid() != op.getGrid() ||
        allReduce.getGridAxes() != op.getGridAxes() ||
        allReduce.getResult().getType() != allReduce.getInput().getType())
      return failure();
    rewriter.replaceOpWithNewOp<shard::ReduceScatterOp>(
        op, op.getResult().getType(), allReduce.getGrid(),
        allReduce.getGridAxes(), allReduce.getInput(), allReduce.getReduction(),
        op.getSliceAxis());
    return success();
  }
};

} // namespace

void mlir::norm::populateRingCollectivePatterns(
    RewritePatternSet &patterns, SymbolTableCollection &symbols) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AllReduceThenSliceAsReduceScatter>(ctx);
  patterns.add<RingAllGather, RingReduceScatter>(ctx, symbols);
}
