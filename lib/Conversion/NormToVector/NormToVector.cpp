//===- NormToVector.cpp - norm ops to vector code ------------------------===//
//
// The patterns of --convert-norm-to-vector and the pass itself. A memref-form
// norm op is viewed as rows of n contiguous elements (its buffers
// reinterpreted as 2-D row views; any `axis` works because the normalized
// dims are the trailing ones) and handed to the row-kernel emitter
// (RowKernel.cpp). Fused ops become the packed GEMM of Gemm/: with
// the norm folded in (norm → matmul), or followed by the row kernel on the
// pre-norm sum (matmul → norm).
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Passes.h"

#include "FusedGemm.h"
#include "RowKernel.h"
#include "SegmentStatistics.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Target/CPUTarget.h"
#include "norm/Transforms/CheckLowered.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_CONVERTNORMTOVECTORPASS
#include "norm/Conversion/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Whether the vector kernel handles `op`: memref form, identity layouts.
LogicalResult checkLowerable(Operation *op, PatternRewriter &rewriter) {
  for (Value operand : op->getOperands())
    if (!hasIdentityLayout(operand))
      return rewriter.notifyMatchFailure(
          op, "needs memrefs with identity layouts (tensors and strided "
              "memrefs are left for --norm-decompose)");
  return success();
}

template <typename OpTy>
struct LowerStandaloneNorm : OpRewritePattern<OpTy> {
  LowerStandaloneNorm(MLIRContext *context,
                      const NormVectorCodegenOptions &options)
      : OpRewritePattern<OpTy>(context), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkLowerable(op, rewriter)))
      return failure();
    RowNormProblem problem = describeRowNorm(op, rewriter);
    emitRowNormKernel(rewriter, op.getLoc(), problem, options);
    rewriter.eraseOp(op);
    return success();
  }

  NormVectorCodegenOptions options;
};

/// The CPU GEMM of a fused op: the shared description (GemmProblem.h).
FusedGemmProblem onCPU(GemmProblem gemm) {
  FusedGemmProblem p;
  static_cast<GemmProblem &>(p) = gemm;
  return p;
}

/// Whether the fused GEMM handles `op`: memrefs with identity layouts and
/// an f32 accumulation type.
template <typename OpTy>
LogicalResult checkGemmLowerable(OpTy op, PatternRewriter &rewriter) {
  if (!op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "needs memrefs");
  if (failed(checkLowerable(op, rewriter)))
    return failure();
  if (!canEmitFusedGemm(op.getAccumulationType()))
    return rewriter.notifyMatchFailure(
        op, "the fused GEMM accumulates in f32 only (split instead)");
  return success();
}

/// norm → matmul: one GEMM on the raw rows, the statistics gathered while A
/// is packed, the scale applied as C is stored.
template <typename OpTy>
struct LowerNormMatmul : OpRewritePattern<OpTy> {
  LowerNormMatmul(MLIRContext *context, const NormVectorCodegenOptions &options)
      : OpRewritePattern<OpTy>(context, /*benefit=*/2), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkGemmLowerable(op, rewriter)))
      return failure();
    FusedGemmProblem p = onCPU(describeNormMatmulGemm(op, rewriter));
    emitFusedGemm(rewriter, op.getLoc(), p, options);
    rewriter.eraseOp(op);
    return success();
  }

  NormVectorCodegenOptions options;
};

/// matmul → norm: the GEMM writes the pre-norm sum S = A·W + bias +
/// residual, rounded to the element type as the op defines it (into
/// sum_outs, or a temporary), and gathers per-segment statistics of S in its
/// epilogue (SegmentStatistics.cpp); these are merged per row (Chan), and
/// the row kernel, given them, normalizes S into outs in one sweep: per row
/// block in the GEMM's epilogue when N fits one column chunk, else after
/// the GEMM.
template <typename OpTy>
struct LowerMatmulNorm : OpRewritePattern<OpTy> {
  LowerMatmulNorm(MLIRContext *context, const NormVectorCodegenOptions &options)
      : OpRewritePattern<OpTy>(context, /*benefit=*/2), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkGemmLowerable(op, rewriter)))
      return failure();
    Location loc = op.getLoc();
    FusedGemmProblem p = onCPU(describeMatmulNormGemm(op, rewriter));
    SmallVector<OpFoldResult> rowView{getAsOpFoldResult(p.m),
                                      getAsOpFoldResult(p.n)};
    Value temp;
    if (!p.c) {
      SmallVector<Value> dynamicSizes;
      SmallVector<int64_t> staticSizes;
      splitMixedSizes(rewriter, loc, rowView, staticSizes, dynamicSizes);
      temp = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get(staticSizes, op.getInputType().getElementType()),
          dynamicSizes, rewriter.getI64IntegerAttr(64));
      p.c = temp;
    }
    // The norm of S as the op defines it (its attributes, through the
    // standalone op the GPU path also uses), described for the row kernel,
    // which the GEMM calls per block of finished rows with their statistics
    // (p.finishRows); the op itself is not kept.
    Operation *norm = createNormOfSum(
        rewriter, loc, op, p.c, viewAs(rewriter, loc, op.getInit(), rowView));
    RowNormProblem rows;
    if constexpr (std::is_same_v<OpTy, MatmulLayerNormOp>)
      rows = describeRowNorm(cast<LayerNormOp>(norm), rewriter);
    else
      rows = describeRowNorm(cast<RMSNormOp>(norm), rewriter);
    rewriter.eraseOp(norm);
    int64_t lanes = statisticsSegmentWidth(options);
    allocateSegmentStatistics(rewriter, loc, p, rows, lanes);
    p.finishRows = [&](OpBuilder &b, Value first, Value end) {
      normalizeRowsFromSegments(b, loc, p, rows, lanes, first, end, options);
    };
    emitFusedGemm(rewriter, loc, p, options);
    deallocateSegmentStatistics(rewriter, loc, p, rows);
    if (temp)
      memref::DeallocOp::create(rewriter, loc, temp);
    rewriter.eraseOp(op);
    return success();
  }

  NormVectorCodegenOptions options;
};

/// A memref-form fused op the GEMM does not handle (acc_type f64) becomes
/// its norm op (in acc_type, lowered by the pattern above) and a linalg
/// matmul, through its decomposition.
template <typename OpTy>
struct SplitFusedNorm : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "needs memrefs");
    FailureOr<SmallVector<Value>> replacements =
        cast<linalg::AggregatedOpInterface>(op.getOperation())
            .decomposeOperation(rewriter);
    if (failed(replacements))
      return failure();
    rewriter.replaceOp(op, *replacements);
    return success();
  }
};

struct ConvertNormToVectorPass
    : public norm::impl::ConvertNormToVectorPassBase<ConvertNormToVectorPass> {
  using Base::Base;

  /// The micro-tile must fit the register file (≤ 16 × 4 accumulators is
  /// already past it; beyond that LLVM spills every k step), and the blocks
  /// must be positive when given.
  LogicalResult checkGemmOptions() {
    auto checkRange = [&](int64_t value, int64_t min, int64_t max,
                          StringRef name) {
      if (value >= min && value <= max)
        return success();
      getOperation()->emitError()
          << "convert-norm-to-vector: " << name << " must be in [" << min
          << ", " << max << "], got " << value;
      return failure();
    };
    auto check = [&](int64_t value, int64_t max, StringRef name) {
      return checkRange(value, 0, max, name);
    };
    constexpr int64_t kMaxBlock = int64_t(1) << 16;
    return success(succeeded(check(gemmTileRows, 16, "gemm-tile-rows")) &&
                   succeeded(check(gemmTileVectors, 4, "gemm-tile-vectors")) &&
                   succeeded(check(gemmBlockK, kMaxBlock, "gemm-block-k")) &&
                   succeeded(check(gemmBlockM, kMaxBlock, "gemm-block-m")) &&
                   succeeded(check(gemmBlockN, kMaxBlock, "gemm-block-n")) &&
                   succeeded(check(gemmUnroll, 16, "gemm-unroll")) &&
                   succeeded(checkRange(gemmGemvRows, -1, 64, "gemm-gemv-rows")));
  }

  void runOnOperation() override {
    NormVectorCodegenOptions codegen;
    codegen.vectorBits = getVectorBitsForTarget(target);
    if (codegen.vectorBits == 0) {
      getOperation()->emitError()
          << "convert-norm-to-vector: unknown target '" << target
          << "' (expected host, avx512, avx512-bf16, avx2 or generic)";
      return signalPassFailure();
    }
    if (accumulators < 1 || accumulators > 16) {
      getOperation()->emitError()
          << "convert-norm-to-vector: accumulators must be in [1, 16], got "
          << static_cast<int64_t>(accumulators);
      return signalPassFailure();
    }
    codegen.accumulators = accumulators;
    if (failed(checkGemmOptions()))
      return signalPassFailure();
    codegen.gemmTileRows = gemmTileRows;
    codegen.gemmTileVectors = gemmTileVectors;
    codegen.gemmBlockK = gemmBlockK;
    codegen.gemmBlockM = gemmBlockM;
    codegen.gemmBlockN = gemmBlockN;
    codegen.gemmUnroll = gemmUnroll;
    codegen.gemmGemvRows = gemmGemvRows;
    codegen.nativeBF16Conversion = targetHasNativeBF16(target);
    codegen.bf16DotProducts = gemmBF16Dot && targetHasNativeBF16(target) &&
                              codegen.vectorBits == 512;
    codegen.prefetchNextRow = prefetch;
    codegen.pipelineRows = pipelineRows;
    codegen.parallelThresholdBytes = parallelThreshold;
    codegen.streamingThresholdBytes =
        streamingThreshold == 0 ? getHostLastLevelCacheBytes()
                                : streamingThreshold;

    RewritePatternSet patterns(&getContext());
    populateNormToVectorConversionPatterns(patterns, codegen);
    if (lowerMatmuls)
      populateLinalgMatmulToGemmPatterns(patterns, codegen);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    // Only norm ops (and, with lower-matmuls, linalg matmuls) match, so
    // only they are rewritten.
    SmallVector<Operation *> normOps;
    getOperation()->walk([&](Operation *op) {
      if (isa<RMSNormOp, LayerNormOp, RMSNormMatmulOp, LayerNormMatmulOp,
              MatmulRMSNormOp, MatmulLayerNormOp>(op) ||
          (lowerMatmuls && isa<linalg::MatmulOp, linalg::GenericOp>(op)))
        normOps.push_back(op);
    });
    if (failed(applyOpPatternsGreedily(normOps, std::move(patterns), config)))
      return signalPassFailure();
    // Norm ops on identity-layout memrefs were promised vector code; ops on
    // tensors or strided memrefs are --norm-decompose's.
    if (failed(checkLowered(
            getOperation(), "convert-norm-to-vector", [](Operation *op) {
              if (!isa_and_nonnull<NormDialect>(op->getDialect()) ||
                  !llvm::all_of(op->getOperands(), hasIdentityLayout))
                return std::string();
              return std::string("no vector kernel takes it");
            })))
      return signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateNormToVectorConversionPatterns(
    RewritePatternSet &patterns, const NormVectorCodegenOptions &options) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LowerStandaloneNorm<RMSNormOp>, LowerStandaloneNorm<LayerNormOp>>(
      context, options);
  patterns.add<LowerNormMatmul<RMSNormMatmulOp>,
               LowerNormMatmul<LayerNormMatmulOp>,
               LowerMatmulNorm<MatmulRMSNormOp>,
               LowerMatmulNorm<MatmulLayerNormOp>>(context,
                                                                options);
  patterns.add<SplitFusedNorm<RMSNormMatmulOp>, SplitFusedNorm<LayerNormMatmulOp>,
               SplitFusedNorm<MatmulRMSNormOp>, SplitFusedNorm<MatmulLayerNormOp>>(
      context);
}
