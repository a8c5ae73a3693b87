//===- NormToGPU.cpp - norm ops to GPU row kernels ------------------------===//
//
// The patterns of --convert-norm-to-gpu and the pass itself. A memref-form
// standalone norm is viewed as rows of n contiguous elements and replaced by
// host code that picks a kernel shape and launches it (GPURowKernel.cpp):
//
//   - the thread count per row: a warp for short rows, up to 16 warps for
//     mid-sized rows (the fewest that keep the row in registers), a whole
//     block for rows of at least `block-row-threshold` elements;
//   - the access width: 16-byte vectors when n is a multiple of the vector
//     length and every row buffer is 16-byte aligned, tested on the host at
//     run time, with a scalar kernel as the fallback;
//   - dynamic row counts size the grid at run time; a dynamic row length
//     chooses between the warp and the block kernel at run time.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/Passes.h"

#include "GPURowKernel.h"
#include "TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOGPUPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

//===----------------------------------------------------------------------===//
// Kernel shapes
//===----------------------------------------------------------------------===//

/// Elements per 16-byte access.
int64_t maxVectorWidth(Type elementType) {
  return std::max<int64_t>(1, NVIDIATargetInfo::kMaxAccessBytes /
                                  (elementType.getIntOrFloatBitWidth() / 8));
}

/// The shape for threads per row `t` and access width `v`; holds the row in
/// registers when n is static and each thread's share fits the budget.
GPURowKernelShape makeShape(int64_t threadsPerRow, int64_t vectorWidth,
                            std::optional<int64_t> staticN,
                            const NormGPUCodegenOptions &options) {
  GPURowKernelShape shape;
  shape.threadsPerRow = threadsPerRow;
  shape.rowsPerBlock = std::max<int64_t>(
      1, NVIDIATargetInfo::kRowBlockThreads / threadsPerRow);
  shape.vectorWidth = vectorWidth;
  if (staticN) {
    int64_t chunks =
        llvm::divideCeilSigned(*staticN, threadsPerRow * vectorWidth);
    if (chunks * vectorWidth <= options.maxRegisterElements)
      shape.heldChunks = chunks;
  }
  return shape;
}

/// Threads per row for a static row length: a block for long rows, else the
/// fewest warps (a power of two) that keep the row in registers.
int64_t threadsPerRowFor(int64_t n, int64_t vectorWidth,
                         const NormGPUCodegenOptions &options) {
  if (n >= options.blockRowThreshold)
    return NVIDIATargetInfo::kBlockThreads;
  for (int64_t t = NVIDIATargetInfo::kWarpSize;
       t <= NVIDIATargetInfo::kBlockThreads; t *= 2)
    if (llvm::divideCeilSigned(n, t * vectorWidth) * vectorWidth <=
        options.maxRegisterElements)
      return t;
  return NVIDIATargetInfo::kBlockThreads;
}

/// Whether every row buffer's aligned pointer is a multiple of `bytes`.
Value buffersAligned(OpBuilder &b, Location loc, const RowNormProblem &p,
                     int64_t vectorWidth) {
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (Value mem : {p.x, p.residual, p.weight, p.bias, p.y, p.sum}) {
    if (!mem)
      continue;
    int64_t bytes = vectorWidth *
                    (cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8);
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
    Value misalignment = arith::RemUIOp::create(
        b, loc, address, arith::ConstantIndexOp::create(b, loc, bytes));
    Value aligned = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, misalignment,
        arith::ConstantIndexOp::create(b, loc, 0));
    all = arith::AndIOp::create(b, loc, all, aligned);
  }
  return all;
}

/// Emits `then` under `condition`, `otherwise` else (no results).
void emitIfElse(OpBuilder &b, Location loc, Value condition,
                function_ref<void(OpBuilder &)> then,
                function_ref<void(OpBuilder &)> otherwise) {
  scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &nb, Location) {
        then(nb);
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        otherwise(nb);
        scf::YieldOp::create(nb, loc);
      });
}

/// The vector kernel when the run-time checks allow it, else the scalar one.
/// `vectorOK` (may be null) is an extra condition, e.g. n % V == 0.
void emitVectorOrScalar(OpBuilder &b, Location loc, const RowNormProblem &p,
                        int64_t threadsPerRow, int64_t vectorWidth,
                        Value vectorOK, const NormGPUCodegenOptions &options) {
  GPURowKernelShape scalarShape =
      makeShape(threadsPerRow, 1, p.staticRowLength(), options);
  if (vectorWidth == 1) {
    emitGPURowKernel(b, loc, p, scalarShape);
    return;
  }
  GPURowKernelShape vectorShape =
      makeShape(threadsPerRow, vectorWidth, p.staticRowLength(), options);
  Value condition = buffersAligned(b, loc, p, vectorWidth);
  if (vectorOK)
    condition = arith::AndIOp::create(b, loc, condition, vectorOK);
  emitIfElse(
      b, loc, condition,
      [&](OpBuilder &nb) { emitGPURowKernel(nb, loc, p, vectorShape); },
      [&](OpBuilder &nb) { emitGPURowKernel(nb, loc, p, scalarShape); });
}

void emitDispatch(OpBuilder &b, Location loc, const RowNormProblem &p,
                  const NormGPUCodegenOptions &options) {
  int64_t widest = maxVectorWidth(p.elementType());
  if (std::optional<int64_t> staticN = p.staticRowLength()) {
    int64_t vectorWidth = widest;
    while (vectorWidth > 1 && *staticN % vectorWidth != 0)
      vectorWidth /= 2;
    int64_t threads = threadsPerRowFor(*staticN, vectorWidth, options);
    emitVectorOrScalar(b, loc, p, threads, vectorWidth, Value(), options);
    return;
  }
  // Dynamic n: a warp below the block threshold, a block above; vectors when
  // n is a multiple of the vector length.
  Value isLong = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, p.n,
      arith::ConstantIndexOp::create(b, loc, options.blockRowThreshold));
  Value divisible = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, p.n,
                             arith::ConstantIndexOp::create(b, loc, widest)),
      arith::ConstantIndexOp::create(b, loc, 0));
  emitIfElse(
      b, loc, isLong,
      [&](OpBuilder &nb) {
        emitVectorOrScalar(nb, loc, p, NVIDIATargetInfo::kBlockThreads, widest,
                           divisible, options);
      },
      [&](OpBuilder &nb) {
        emitVectorOrScalar(nb, loc, p, NVIDIATargetInfo::kWarpSize, widest,
                           divisible, options);
      });
}

//===----------------------------------------------------------------------===//
// Patterns and pass
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct LowerNormToGPUKernel : OpRewritePattern<OpTy> {
  LowerNormToGPUKernel(MLIRContext *context,
                       const NormGPUCodegenOptions &options)
      : OpRewritePattern<OpTy>(context), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    for (Value operand : op->getOperands())
      if (!hasIdentityLayout(operand))
        return rewriter.notifyMatchFailure(
            op, "needs memrefs with identity layouts (tensors and strided "
                "memrefs are left for --norm-decompose)");
    Location loc = op.getLoc();
    RowNormProblem problem = describeRowNorm(op, rewriter);
    // An empty grid is not a valid launch: skip the kernel for zero rows.
    Value hasRows = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, problem.rows,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    scf::IfOp::create(rewriter, loc, hasRows, [&](OpBuilder &b, Location) {
      emitDispatch(b, loc, problem, options);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }

  NormGPUCodegenOptions options;
};

struct ConvertNormToGPUPass
    : public norm::impl::ConvertNormToGPUPassBase<ConvertNormToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockRowThreshold < 1) {
      getOperation()->emitError()
          << "convert-norm-to-gpu: block-row-threshold must be at least 1, "
             "got "
          << static_cast<int64_t>(blockRowThreshold);
      return signalPassFailure();
    }
    if (registerElements < 0 || registerElements > 128) {
      getOperation()->emitError()
          << "convert-norm-to-gpu: register-elements must be in [0, 128], got "
          << static_cast<int64_t>(registerElements);
      return signalPassFailure();
    }
    NormGPUCodegenOptions codegen;
    codegen.blockRowThreshold = blockRowThreshold;
    codegen.maxRegisterElements = registerElements;

    RewritePatternSet patterns(&getContext());
    populateNormToGPUConversionPatterns(patterns, codegen);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.enableFolding(false);
    // Only the standalone norm ops match, so only they are rewritten.
    SmallVector<Operation *> normOps;
    getOperation()->walk([&](Operation *op) {
      if (isa<RMSNormOp, LayerNormOp>(op))
        normOps.push_back(op);
    });
    if (failed(applyOpPatternsGreedily(normOps, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateNormToGPUConversionPatterns(
    RewritePatternSet &patterns, const NormGPUCodegenOptions &options) {
  patterns.add<LowerNormToGPUKernel<RMSNormOp>, LowerNormToGPUKernel<LayerNormOp>>(
      patterns.getContext(), options);
}
