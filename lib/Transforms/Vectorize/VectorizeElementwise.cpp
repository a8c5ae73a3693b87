//===- VectorizeElementwise.cpp - vector code for the ops around norms ---===//
//
// --norm-vectorize-elementwise: the linalg.generic ops of model IR that are
// neither norms nor matmuls (activations, RoPE, softmax, residual adds,
// transposes) get vector code instead of convert-linalg-to-loops' scalar
// loops: after their unit dims are dropped, each is tiled to one vector
// (one row for a row reduction) with scf.for and the tile vectorized by
// upstream's linalg::vectorize, masked where the last tile is partial; then
// the vectors' leading unit dims are cast away and the math functions get
// polynomial approximations.
//
//===----------------------------------------------------------------------===//

#include "ReductionChunks.h"

#include "norm/Target/CPUTarget.h"
#include "norm/Target/ParallelThreshold.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMVECTORIZEELEMENTWISEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// How one op is vectorized.
struct VectorizationPlan {
  /// The vector sizes of a tile for linalg::vectorize: 1 × … × 1 × `lanes`,
  /// or × the whole row for a reduction (whose dim is never tiled). With
  /// `reduceInChunks`, 0 along the row: the chunks are the vectors.
  SmallVector<int64_t> tileSizes;
  /// Each tile's row is reduced in vector chunks (ReductionChunks.h).
  bool reduceInChunks = false;
};

/// Independent vector accumulators of a row reduced in chunks: enough to
/// cover an add's latency at two per cycle, and few enough to leave the
/// body its registers.
constexpr int64_t kChunkAccumulators = 4;

/// How `op` is vectorized, or nothing when it is left alone: all dims
/// parallel (tiles of 1 × … × 1 × `lanes`; any bound may be dynamic, the
/// last tile of a row is masked), or only the innermost a reduction (a
/// static row of up to `maxRow` elements as one vector, a longer or
/// dynamic one in chunks).
std::optional<VectorizationPlan> planFor(linalg::GenericOp op, int64_t lanes,
                                         int64_t maxRow) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return std::nullopt;
  // Maps with constant results that dropping unit dims did not remove sent
  // the vector clean-up patterns into an endless rewrite; such ops keep
  // the loops.
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  // Each operand reads the innermost loop dim contiguously (its last
  // result) or not at all (a broadcast along it): a tile is then one vector
  // load or store per operand, never a gather.
  unsigned innermostDim = op.getNumLoops() - 1;
  for (AffineMap map : op.getIndexingMapsArray()) {
    std::optional<unsigned> position = map.getResultPosition(
        getAffineDimExpr(innermostDim, op.getContext()));
    if (position && *position + 1 != map.getNumResults())
      return std::nullopt;
  }
  // ... and contiguous in memory: a memref whose innermost stride is not a
  // static 1 (every other column of a row) would need a gather, which the
  // transfer lowering leaves as a vector.transfer_read nothing lowers.
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || type.getRank() == 0 ||
        !op.getMatchingIndexingMap(&operand).getResultPosition(
            getAffineDimExpr(innermostDim, op.getContext())))
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return std::nullopt;
  }
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  // Empty iteration spaces are the loops' (no tile, nothing to compute).
  if (llvm::is_contained(bounds, 0))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t innermost = bounds.size() - 1;
  for (int64_t d = 0; d < innermost; ++d)
    if (iterators[d] != utils::IteratorType::parallel)
      return std::nullopt;
  VectorizationPlan plan;
  plan.tileSizes.assign(bounds.size(), 1);
  if (iterators[innermost] == utils::IteratorType::parallel) {
    // A dynamic row runs in whole vectors and a masked last one.
    plan.tileSizes[innermost] = ShapedType::isDynamic(bounds[innermost])
                                    ? lanes
                                    : std::min(lanes, bounds[innermost]);
  } else if (!ShapedType::isDynamic(bounds[innermost]) &&
             bounds[innermost] <= maxRow) {
    // A short reduction is one vector of the whole row.
    plan.tileSizes[innermost] = bounds[innermost];
  } else {
    if (!canReduceInChunks(op))
      return std::nullopt;
    plan.tileSizes[innermost] = 0;
    plan.reduceInChunks = true;
  }
  return plan;
}

/// The bytes `op`'s operands span, when their shapes are static.
std::optional<int64_t> bytesTouched(linalg::GenericOp op) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    if (!type.hasStaticShape())
      return std::nullopt;
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

/// The bytes `op`'s memref operands span, computed at run time (for
/// dynamic shapes).
Value emitBytesTouched(OpBuilder &b, linalg::GenericOp op) {
  Location loc = op.getLoc();
  Value bytes = arith::ConstantIndexOp::create(b, loc, 0);
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    Value elements = arith::ConstantIndexOp::create(
        b, loc, llvm::divideCeil(type.getElementTypeBitWidth(), 8));
    for (int64_t d = 0; d < type.getRank(); ++d)
      elements = arith::MulIOp::create(
          b, loc, elements, memref::DimOp::create(b, loc, operand, d));
    bytes = arith::AddIOp::create(b, loc, bytes, elements);
  }
  return bytes;
}

/// Whether `op` has a parallel dim that tiling would split across threads.
bool hasParallelDim(linalg::GenericOp op) {
  return llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
    return t == utils::IteratorType::parallel;
  });
}

struct NormVectorizeElementwisePass
    : public norm::impl::NormVectorizeElementwisePassBase<
          NormVectorizeElementwisePass> {
  using Base::Base;

  /// Tiles `op` to the plan's vector sizes (scf.forall made scf.parallel
  /// when `parallel`, else scf.for; a reduced row is never split) and
  /// vectorizes each tile, or reduces it in chunks. An op that does not
  /// tile stays for the loops lowering. Fails (with a located error) only
  /// when a forall cannot become an scf.parallel.
  LogicalResult tileAndVectorize(RewriterBase &rewriter, linalg::GenericOp op,
                                 const VectorizationPlan &plan, int64_t lanes,
                                 bool parallel) {
    scf::SCFTilingOptions options;
    if (parallel)
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    // A reduced row is one tile whatever its vector size: not tiled (0),
    // so the loops, scf.parallel included, run over parallel dims only.
    SmallVector<OpFoldResult> tileSizes;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [size, iterator] : llvm::zip(plan.tileSizes, iterators))
      tileSizes.push_back(rewriter.getIndexAttr(
          iterator == utils::IteratorType::reduction ? 0 : size));
    options.setTileSizes(tileSizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return success();
    rewriter.eraseOp(op);
    // scf.forall → scf.parallel, which convert-scf-to-openmp takes.
    if (parallel && !tiled->loops.empty()) {
      rewriter.setInsertionPoint(tiled->loops.front());
      if (failed(scf::forallToParallelLoop(
              rewriter, cast<scf::ForallOp>(tiled->loops.front()))))
        return tiled->loops.front()->emitError()
               << "norm-vectorize-elementwise: cannot make the tile loop an "
                  "scf.parallel";
    }
    for (Operation *tile : tiled->tiledOps) {
      if (plan.reduceInChunks) {
        emitReductionInChunks(rewriter, cast<linalg::GenericOp>(tile), lanes,
                              kChunkAccumulators);
        continue;
      }
      rewriter.setInsertionPoint(tile);
      SmallVector<bool> scalable(plan.tileSizes.size(), false);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tile, plan.tileSizes, scalable);
      if (failed(vectorized))
        continue; // stays a (tiled) linalg op for the loops lowering
      rewriter.eraseOp(tile);
    }
    return success();
  }

  void runOnOperation() override {
    int64_t bits = getVectorBitsForTarget(target);
    if (bits == 0) {
      getOperation().emitError()
          << "norm-vectorize-elementwise: unknown target '" << target << "'";
      return signalPassFailure();
    }
    if (maxRow < 1) {
      getOperation().emitError()
          << "norm-vectorize-elementwise: max-row must be at least 1";
      return signalPassFailure();
    }
    std::string threadsMessage =
        checkParallelThresholdOptions(target, hostCpu, parallelThreshold,
                                      numThreads, forkJoinNs, coreBytesPerNs);
    if (!threadsMessage.empty()) {
      getOperation().emitError()
          << "norm-vectorize-elementwise: " << threadsMessage;
      return signalPassFailure();
    }
    int64_t threshold =
        resolveParallelThreshold(target, hostCpu, parallelThreshold, numThreads,
                                 forkJoinNs, coreBytesPerNs);
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });

    IRRewriter rewriter(&getContext());
    // Unit dims first: a keepdim reduction into a [.., 1] buffer (a
    // softmax's max and sum as frontends emit them) reads through a
    // constant map result, which the vector clean-up cannot handle; with
    // the unit dims collapsed away (memref.collapse_shape) it is a plain
    // innermost-row reduction.
    linalg::ControlDropUnitDims dropUnitDimsOptions;
    for (linalg::GenericOp &op : candidates) {
      if (!op.hasPureBufferSemantics())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::DropUnitDimsResult> dropped =
          linalg::dropUnitDims(rewriter, op, dropUnitDimsOptions);
      if (failed(dropped))
        continue;
      rewriter.eraseOp(op);
      op = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
    }
    for (linalg::GenericOp op : candidates) {
      // The vector width in elements of the op's widest type; index and
      // other non-scalar element types have no width here: left alone.
      unsigned widest = 8;
      bool scalarTypes = true;
      for (Value v : op->getOperands()) {
        Type element = getElementTypeOrSelf(v.getType());
        if (!element.isIntOrFloat()) {
          scalarTypes = false;
          break;
        }
        widest = std::max(widest, element.getIntOrFloatBitWidth());
      }
      if (!scalarTypes)
        continue;
      int64_t lanes = std::max<int64_t>(1, bits / widest);
      std::optional<VectorizationPlan> plan = planFor(op, lanes, maxRow);
      if (!plan)
        continue;
      // A row reduced in chunks with no dim around it needs no tiling.
      if (plan->reduceInChunks && plan->tileSizes.size() == 1) {
        emitReductionInChunks(rewriter, op, lanes, kChunkAccumulators);
        continue;
      }
      // The op as a whole (its body, its maps); the sizes are the tile's.
      if (!plan->reduceInChunks && failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      std::optional<int64_t> bytes = bytesTouched(op);
      if (bytes || threshold < 0 || !hasParallelDim(op)) {
        bool parallel = threshold >= 0 && bytes && *bytes >= threshold;
        if (failed(tileAndVectorize(rewriter, op, *plan, lanes, parallel)))
          return signalPassFailure();
        continue;
      }
      // A dynamic shape: its size is known at run time only, so both loop
      // nests are emitted, threads taken when the operands span at least
      // parallel-threshold bytes (a small op would pay a fork/join of a few
      // microseconds for nothing).
      rewriter.setInsertionPoint(op);
      Value large = arith::CmpIOp::create(
          rewriter, op.getLoc(), arith::CmpIPredicate::sge,
          emitBytesTouched(rewriter, op),
          arith::ConstantIndexOp::create(rewriter, op.getLoc(), threshold));
      auto choice = scf::IfOp::create(rewriter, op.getLoc(), large,
                                      /*withElseRegion=*/true);
      rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
      auto threaded = cast<linalg::GenericOp>(rewriter.clone(*op));
      rewriter.setInsertionPoint(choice.elseBlock()->getTerminator());
      auto serial = cast<linalg::GenericOp>(rewriter.clone(*op));
      rewriter.eraseOp(op);
      if (failed(tileAndVectorize(rewriter, threaded, *plan, lanes,
                                  /*parallel=*/true)) ||
          failed(tileAndVectorize(rewriter, serial, *plan, lanes,
                                  /*parallel=*/false)))
        return signalPassFailure();
    }

    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    // A partial last tile is vectorized under vector.mask: the masks move
    // into the transfers.
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    // Broadcast reads (a row's scalar, e.g. the softmax max) get minor
    // identity maps, and 1-D transfers become (masked) loads and stores.
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    // A row's reduction (vector<1x…x1xN> → vector<1x…x1>) becomes one
    // vector.reduction, which convert-vector-to-llvm lowers.
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // Math functions on the new vectors only: scalar ones (ops left to the
    // loops) keep their libm calls and numerics. bf16/f16 ones are computed
    // in f32 (extended, approximated, rounded back): the approximations are
    // f32 only.
    auto approximated = [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained({"exp", "expm1", "tanh", "log", "log1p",
                                 "log2", "erf", "sin", "cos", "atan", "atan2"},
                                name);
    };
    SmallVector<Operation *> vectorMath;
    getOperation().walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "math" &&
          op->getNumResults() == 1 &&
          isa<VectorType>(op->getResult(0).getType())) {
        vectorMath.push_back(op);
        // An fpowi's exponent, broadcast from the scalar body's constant:
        // folded to a constant first, so that the expansion sees it.
        if (auto powi = dyn_cast<math::FPowIOp>(op))
          if (Operation *exponent = powi.getRhs().getDefiningOp())
            vectorMath.push_back(exponent);
      }
    });
    RewritePatternSet mathPatterns(&getContext());
    populateMathF32ExpansionPatterns(mathPatterns, approximated);
    populateMathPolynomialApproximationPatterns(mathPatterns, approximated);
    // A vector fpowi has a vector exponent, which LLVM's powi (and so
    // convert-math-to-llvm's lowering) does not take: a constant exponent
    // (torch-mlir's x.pow(2)) becomes multiplies, any other one powf.
    math::populateExpansionPatterns(mathPatterns, {"fpowi"});
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (!vectorMath.empty() &&
        failed(applyOpPatternsGreedily(vectorMath, std::move(mathPatterns),
                                       config)))
      return signalPassFailure();
  }
};

} // namespace
