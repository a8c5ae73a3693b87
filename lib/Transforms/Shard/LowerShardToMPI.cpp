//===- LowerShardToMPI.cpp - partitioned shard IR to mpi, or an error -----===//
//
// norm-lower-shard-to-mpi: what MLIR 22's convert-shard-to-mpi needs around
// it to be a lowering that either succeeds or says why not. Before it, the
// collectives 22 cannot lower become ones it can (exactly: gathers and
// scatters as all-reduces of zero-padded slots); what is still out of reach
// is an error at the op. After it, the communicator leak of 1-D reductions
// is removed, the grids erased and the MPI ABI recorded for the LLVM
// lowering.
//
//===----------------------------------------------------------------------===//

#include "RingCollectives.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMLOWERSHARDTOMPIPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

constexpr StringLiteral kImplementationKey = "MPI:Implementation";

/// The offsets, sizes and strides of this process's slot of `whole` along
/// `axis`: its slices are `part` (static), in the order of the linear index
/// of the processes over `gridAxes`.
void slotOf(ImplicitLocOpBuilder &b, StringRef grid,
            ArrayRef<shard::GridAxis> gridAxes, RankedTensorType part,
            int64_t axis, SmallVector<OpFoldResult> &offsets,
            SmallVector<OpFoldResult> &sizes,
            SmallVector<OpFoldResult> &strides) {
  Value index = shard::createProcessLinearIndex(grid, gridAxes, b);
  offsets.assign(part.getRank(), b.getIndexAttr(0));
  offsets[axis] =
      arith::MulIOp::create(
          b, index, arith::ConstantIndexOp::create(b, part.getDimSize(axis)))
          .getResult();
  sizes.clear();
  for (int64_t size : part.getShape())
    sizes.push_back(b.getIndexAttr(size));
  strides.assign(part.getRank(), b.getIndexAttr(1));
}

bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// all_gather as the sum over the processes of a zero tensor of the result's
/// shape holding each process's part in its slot: exact (x + 0 = x).
struct AllGatherAsAllReduce : OpRewritePattern<shard::AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStaticTensor(op.getInput().getType()) ||
        !isStaticTensor(op.getResult().getType()))
      return failure();
    auto part = cast<RankedTensorType>(op.getInput().getType());
    auto whole = cast<RankedTensorType>(op.getResult().getType());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value zero =
        arith::ConstantOp::create(b, b.getZeroAttr(whole.getElementType()));
    Value zeros =
        linalg::FillOp::create(
            b, zero,
            tensor::EmptyOp::create(b, whole.getShape(), whole.getElementType())
                .getResult())
            .getResult(0);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    slotOf(b, op.getGrid(), op.getGridAxes(), part,
           op.getGatherAxis().getSExtValue(), offsets, sizes, strides);
    Value slotted = tensor::InsertSliceOp::create(b, op.getInput(), zeros,
                                                  offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<shard::AllReduceOp>(op, whole, op.getGrid(),
                                                    op.getGridAxes(), slotted,
                                                    shard::ReductionKind::Sum);
    return success();
  }
};

/// reduce_scatter as the all-reduce of the whole tensor and this process's
/// slice of it: exact, at twice the ideal bytes for two processes.
struct ReduceScatterAsAllReduce : OpRewritePattern<shard::ReduceScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(shard::ReduceScatterOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStaticTensor(op.getInput().getType()) ||
        !isStaticTensor(op.getResult().getType()))
      return failure();
    auto part = cast<RankedTensorType>(op.getResult().getType());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value reduced = shard::AllReduceOp::create(
        b, op.getInput().getType(), op.getGrid(), op.getGridAxes(),
        op.getInput(), op.getReduction());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    slotOf(b, op.getGrid(), op.getGridAxes(), part,
           op.getScatterAxis().getSExtValue(), offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, part, reduced, offsets, sizes, strides);
    return success();
  }
};

/// The size of the axes of a grid of static shape, as constants (the
/// all_slice lowering asks for them; convert-shard-to-mpi does not lower
/// the query).
struct StaticGridShape : OpRewritePattern<shard::GridShapeOp> {
  StaticGridShape(MLIRContext *ctx, SymbolTableCollection &symbols)
      : OpRewritePattern(ctx), symbols(symbols) {}
  LogicalResult matchAndRewrite(shard::GridShapeOp op,
                                PatternRewriter &rewriter) const override {
    shard::GridOp grid = shard::getGridOrNull(op, op.getGridAttr(), symbols);
    if (!grid)
      return failure();
    ArrayRef<int64_t> shape = grid.getShape();
    SmallVector<Value> sizes;
    for (int64_t i = 0, e = op->getNumResults(); i < e; ++i) {
      int64_t size = shape[op.getAxes().empty() ? i : op.getAxes()[i]];
      if (ShapedType::isDynamic(size))
        return failure();
      sizes.push_back(
          arith::ConstantIndexOp::create(rewriter, op.getLoc(), size));
    }
    rewriter.replaceOp(op, sizes);
    return success();
  }
  SymbolTableCollection &symbols;
};

/// Why MLIR 22 cannot lower `op` to MPI, or "" when it can.
std::string unsupportedReason(Operation *op) {
  if (isa<shard::GridOp, shard::ProcessLinearIndexOp,
          shard::ProcessMultiIndexOp, shard::NeighborsLinearIndicesOp,
          shard::ShardShapeOp, shard::ShardingOp, shard::GetShardingOp,
          shard::UpdateHaloOp>(op))
    return "";
  auto allReduce = dyn_cast<shard::AllReduceOp>(op);
  if (!allReduce)
    return "is not lowered to MPI by MLIR 22 (convert-shard-to-mpi lowers "
           "all_reduce and the process queries; norm-lower-shard-to-mpi adds "
           "all_slice, all_gather and reduce_scatter of static tensors)";
  auto type = cast<ShapedType>(allReduce.getResult().getType());
  if (!type.hasStaticShape())
    return "with a dynamic shape is not lowered correctly by MLIR 22 "
           "(convert-shard-to-mpi reads a dimension out of range)";
  Type element = type.getElementType();
  if (!element.isF32() && !element.isF64() && !isa<IntegerType>(element))
    return "on elements other than f32, f64 and integers is not lowered by "
           "MLIR 22 (its MPI datatype would be 0); reduce in f32";
  return "";
}

bool hasImplementationKey(ModuleOp module) {
  return succeeded(dlti::query(module, {kImplementationKey},
                               /*emitError=*/false));
}

struct NormLowerShardToMPIPass
    : public norm::impl::NormLowerShardToMPIPassBase<NormLowerShardToMPIPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (mpiImplementation != "MPICH" && mpiImplementation != "OpenMPI") {
      module.emitError("norm-lower-shard-to-mpi: mpi-implementation must be "
                       "MPICH or OpenMPI, got '")
          << mpiImplementation << "'";
      return signalPassFailure();
    }
    if (module.getOps<shard::GridOp>().empty())
      return;

    // What 22 cannot lower, as what it can.
    SymbolTableCollection symbols;
    RewritePatternSet patterns(ctx);
    shard::populateAllSliceOpLoweringPatterns(patterns, symbols);
    norm::populateRingCollectivePatterns(patterns, symbols);
    patterns.add<AllGatherAsAllReduce, ReduceScatterAsAllReduce>(ctx);
    patterns.add<StaticGridShape>(ctx, symbols);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    bool refused = false;
    module.walk([&](Operation *op) {
      if (!isa_and_nonnull<shard::ShardDialect>(op->getDialect()))
        return;
      std::string reason = unsupportedReason(op);
      if (reason.empty())
        return;
      op->emitOpError(reason);
      refused = true;
    });
    if (refused)
      return signalPassFailure();

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertShardToMPIPass());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
    // convert-shard-to-mpi succeeds even when it rolled everything back.
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<shard::ShardDialect>(op->getDialect()) &&
          !isa<shard::GridOp>(op)) {
        op->emitOpError("was left by convert-shard-to-mpi");
        refused = true;
      }
    });
    if (refused)
      return signalPassFailure();

    // A split of the world with one color for every process is the world
    // (the processes are as many as the grid's): no communicator per call.
    module.walk([](mpi::CommSplitOp split) {
      if (!matchPattern(split.getColor(), m_Constant()) ||
          !split.getComm().getDefiningOp<mpi::CommWorldOp>())
        return;
      split->getResult(0).replaceAllUsesWith(split.getComm());
      split->erase();
    });
    for (shard::GridOp grid :
         llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      grid->erase();
    if (!hasImplementationKey(module))
      module->setAttr(
          "mpi.dlti",
          MapAttr::get(ctx, {DataLayoutEntryAttr::get(
                                StringAttr::get(ctx, kImplementationKey),
                                StringAttr::get(ctx, mpiImplementation))}));
  }
};

} // namespace
