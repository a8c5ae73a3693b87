//===- NormToVector.cpp - norm ops to vector code ------------------------===//
//
// The patterns of --convert-norm-to-vector and the pass itself. A memref-form
// norm op is viewed as rows of n contiguous elements (its buffers
// reinterpreted as 2-D row views, with their row stride when they are
// strided views; any `axis` works because the normalized dims are the
// trailing ones) and handed to the row-kernel emitter
// (RowKernel.cpp). Fused ops become the packed GEMM of Gemm/: with
// the norm folded in (norm → matmul), or followed by the row kernel on the
// pre-norm sum (matmul → norm).
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Passes.h"

#include "FusedGemm.h"
#include "RowKernel.h"
#include "norm/Conversion/Utils/LoweringPattern.h"
#include "norm/Conversion/Utils/PassOptionText.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Target/CPUTarget.h"
#include "norm/Target/ParallelThreshold.h"
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

/// A standalone norm: the row kernel.
template <typename OpTy>
void lowerStandaloneNorm(OpTy op, PatternRewriter &rewriter,
                         const NormVectorCodegenOptions &options) {
  emitRowNormKernel(rewriter, op.getLoc(), describeRowNorm(op, rewriter),
                    options);
}

/// Whether the row kernel takes the standalone norm `op`: memrefs the row
/// views take; a quantized output it writes itself (QuantizedRow.h).
template <typename OpTy>
LogicalResult checkRowKernel(OpTy op, PatternRewriter &rewriter,
                             const NormVectorCodegenOptions &) {
  return matchRowViewOperands(op, rewriter, /*quantizedOutputs=*/true);
}

/// Whether the gradient kernel takes `op` (GradKernel.cpp).
template <typename OpTy>
LogicalResult checkGradKernel(OpTy op, PatternRewriter &rewriter,
                              const NormVectorCodegenOptions &) {
  std::string reason = unsupportedGradKernelReason(op);
  if (reason.empty())
    return success();
  return rewriter.notifyMatchFailure(op, reason);
}

/// The CPU GEMM of a fused op: the shared description (GemmProblem.h).
FusedGemmProblem onCPU(GemmProblem gemm) {
  FusedGemmProblem p;
  static_cast<GemmProblem &>(p) = gemm;
  return p;
}

/// Whether the fused GEMM handles `op`: memrefs with identity layouts and
/// an f32 accumulation type.
template <typename OpTy>
LogicalResult checkGemmLowerable(OpTy op, PatternRewriter &rewriter,
                                 const NormVectorCodegenOptions &) {
  if (!op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "needs memrefs");
  if (failed(matchIdentityMemrefs(op, rewriter)))
    return failure();
  if (!canEmitFusedGemm(op.getAccumulationType()))
    return rewriter.notifyMatchFailure(
        op, "the fused GEMM accumulates in f32 only (split instead)");
  // A per-head rotation whose angles the row kernel does not index (split
  // instead: the standalone norm is then decomposed).
  std::string angles = unsupportedRotaryAnglesReason(op);
  if (!angles.empty())
    return rewriter.notifyMatchFailure(op, angles);
  return success();
}

/// norm → matmul: one GEMM on the raw rows, the statistics gathered while A
/// is packed, the scale applied as C is stored.
template <typename OpTy>
void lowerNormMatmul(OpTy op, PatternRewriter &rewriter,
                     const NormVectorCodegenOptions &options) {
  emitFusedGemm(rewriter, op.getLoc(),
                onCPU(describeNormMatmulGemm(op, rewriter)), options);
}

/// matmul → norm: the GEMM writes the pre-norm sum S = A·W + bias +
/// residual, rounded to the output's type as the op defines it (into
/// sum_outs, or a temporary), and gathers per-segment statistics of S in its
/// epilogue (SegmentStatistics.cpp); these are merged per row (Chan), and
/// the row kernel, given them, normalizes S into outs in one sweep: per row
/// block in the GEMM's epilogue when N fits one column chunk, else after
/// the GEMM. Per head (`head_dim` D, a multiple of L), the same with each
/// head of D columns a row of its own (SegmentStatistics.cpp).
template <typename OpTy>
void lowerMatmulNorm(OpTy op, PatternRewriter &rewriter,
                     const NormVectorCodegenOptions &options) {
  Location loc = op.getLoc();
  FusedGemmProblem p = onCPU(describeMatmulNormGemm(op, rewriter));
  SmallVector<OpFoldResult> rowView{getAsOpFoldResult(p.m),
                                    getAsOpFoldResult(p.n)};
  Value temp = allocateSumIfAbsent(
      rewriter, loc, p, getElementTypeOrSelf(op.getInit()), rowView,
      [&](MemRefType type, ValueRange sizes) -> Value {
        return memref::AllocOp::create(rewriter, loc, type, sizes,
                                       rewriter.getI64IntegerAttr(64));
      });
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
  if (p.headDim % lanes != 0) {
    // Heads that are not whole segments of L columns: after the GEMM, the
    // row kernel normalizes S one head a row, with its own statistics.
    emitFusedGemm(rewriter, loc, p, options);
    emitRowNormKernel(rewriter, loc, rows, options);
    if (temp)
      memref::DeallocOp::create(rewriter, loc, temp);
    return;
  }
  allocateSegmentStatistics(rewriter, loc, p, rows, lanes);
  p.finishRows = [&](OpBuilder &b, Value first, Value end) {
    normalizeRowsFromSegments(b, loc, p, rows, lanes, first, end, options);
  };
  emitFusedGemm(rewriter, loc, p, options);
  deallocateSegmentStatistics(rewriter, loc, p, rows);
  if (temp)
    memref::DeallocOp::create(rewriter, loc, temp);
}

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

/// The code generation options that the pass's (checked) options ask for.
NormVectorCodegenOptions
getCodegenOptions(const ConvertNormToVectorPassOptions &options) {
  NormVectorCodegenOptions codegen;
  codegen.vectorBits = getVectorBitsForTarget(options.target);
  codegen.accumulators = options.accumulators;
  codegen.gemmTileRows = options.gemmTileRows;
  codegen.gemmTileVectors = options.gemmTileVectors;
  codegen.gemmBlockK = options.gemmBlockK;
  codegen.gemmBlockM = options.gemmBlockM;
  codegen.gemmBlockN = options.gemmBlockN;
  codegen.gemmUnroll = options.gemmUnroll;
  codegen.gemmGemvRows = options.gemmGemvRows;
  codegen.nativeBF16Conversion = targetHasNativeBF16(options.target);
  codegen.x86RoundingConversion = targetIsX86(options.target);
  codegen.bf16DotProducts = options.gemmBF16Dot &&
                            targetHasNativeBF16(options.target) &&
                            codegen.vectorBits == 512;
  codegen.prefetchNextRow = options.prefetch;
  codegen.pipelineRows = options.pipelineRows;
  codegen.gradBlockRows = options.gradBlockRows;
  codegen.bf16PairOrder = options.bf16PairOrder;
  codegen.parallelThresholdBytes = resolveParallelThreshold(
      options.target, options.hostCpu, options.parallelThreshold,
      options.numThreads, options.forkJoinNs, options.coreBytesPerNs);
  codegen.streamingThresholdBytes = options.streamingThreshold == 0
                                        ? getHostLastLevelCacheBytes()
                                        : options.streamingThreshold;
  return codegen;
}

struct ConvertNormToVectorPass
    : public norm::impl::ConvertNormToVectorPassBase<ConvertNormToVectorPass> {
  using Base::Base;

  /// The options as the pass holds them (the inverse of the generated
  /// constructor from the struct).
  ConvertNormToVectorPassOptions getOptions() const {
    ConvertNormToVectorPassOptions options;
    options.target = target;
    options.accumulators = accumulators;
    options.parallelThreshold = parallelThreshold;
    options.numThreads = numThreads;
    options.forkJoinNs = forkJoinNs;
    options.coreBytesPerNs = coreBytesPerNs;
    options.hostCpu = hostCpu;
    options.streamingThreshold = streamingThreshold;
    options.pipelineRows = pipelineRows;
    options.prefetch = prefetch;
    options.gradBlockRows = gradBlockRows;
    options.bf16PairOrder = bf16PairOrder;
    options.lowerMatmuls = lowerMatmuls;
    options.gemmTileRows = gemmTileRows;
    options.gemmTileVectors = gemmTileVectors;
    options.gemmBlockK = gemmBlockK;
    options.gemmBlockM = gemmBlockM;
    options.gemmBlockN = gemmBlockN;
    options.gemmUnroll = gemmUnroll;
    options.gemmGemvRows = gemmGemvRows;
    options.gemmBF16Dot = gemmBF16Dot;
    return options;
  }

  void runOnOperation() override {
    ConvertNormToVectorPassOptions options = getOptions();
    if (failed(verifyConvertNormToVectorPassOptions(
            options, [&](const Twine &message) {
              getOperation()->emitError()
                  << "convert-norm-to-vector: " << message;
            })))
      return signalPassFailure();
    NormVectorCodegenOptions codegen = getCodegenOptions(options);

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
              MatmulRMSNormOp, MatmulLayerNormOp, GroupNormOp, RMSNormGradOp,
              LayerNormGradOp>(op) ||
          (lowerMatmuls && isa<linalg::MatmulOp, linalg::BatchMatmulOp,
                               linalg::ContractOp, linalg::GenericOp>(op)))
        normOps.push_back(op);
    });
    if (failed(applyOpPatternsGreedily(normOps, std::move(patterns), config)))
      return signalPassFailure();
    // Standalone norms on memrefs the row views take, and fused ops on
    // identity-layout memrefs, were promised vector code; ops on tensors or
    // other strided memrefs are --norm-decompose's.
    if (failed(checkLowered(
            getOperation(), "convert-norm-to-vector", [](Operation *op) {
              if (!isa_and_nonnull<NormDialect>(op->getDialect()))
                return std::string();
              // The gradients' kernel takes identity layouts and no
              // pRMSNorm; the rest is the decomposition's.
              if (isa<RMSNormGradOp, LayerNormGradOp>(op))
                return unsupportedGradKernelReason(op).empty()
                           ? std::string("no vector kernel takes it")
                           : std::string();
              bool promised =
                  isa<RMSNormOp, LayerNormOp>(op)
                      ? unsupportedRowOperandReason(op,
                                                    /*quantizedOutputs=*/true)
                            .empty()
                      : llvm::all_of(op->getOperands(), hasIdentityLayout);
              if (!promised)
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
  addNormLowering<RMSNormOp>(patterns, options, checkRowKernel,
                             lowerStandaloneNorm);
  addNormLowering<LayerNormOp>(patterns, options, checkRowKernel,
                               lowerStandaloneNorm);
  addNormLowering<GroupNormOp>(patterns, options, matchIdentityMemrefs,
                               emitGroupNormKernel);
  addNormLowering<RMSNormGradOp>(patterns, options, checkGradKernel,
                                 emitRMSNormGradKernel);
  addNormLowering<LayerNormGradOp>(patterns, options, checkGradKernel,
                                   emitLayerNormGradKernel);
  // Over SplitFusedNorm, which also matches the fused ops: the GEMM when it
  // takes the op, the split only when it does not.
  const PatternBenefit overSplit = 2;
  addNormLowering<RMSNormMatmulOp>(patterns, options, checkGemmLowerable,
                                   lowerNormMatmul, overSplit);
  addNormLowering<LayerNormMatmulOp>(patterns, options, checkGemmLowerable,
                                     lowerNormMatmul, overSplit);
  addNormLowering<MatmulRMSNormOp>(patterns, options, checkGemmLowerable,
                                   lowerMatmulNorm, overSplit);
  addNormLowering<MatmulLayerNormOp>(patterns, options, checkGemmLowerable,
                                     lowerMatmulNorm, overSplit);
  patterns.add<SplitFusedNorm<RMSNormMatmulOp>, SplitFusedNorm<LayerNormMatmulOp>,
               SplitFusedNorm<MatmulRMSNormOp>, SplitFusedNorm<MatmulLayerNormOp>>(
      context);
}

LogicalResult mlir::norm::parseConvertNormToVectorPassOptions(
    StringRef text, ConvertNormToVectorPassOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  return parsePassOptionsInto<ConvertNormToVectorPass>(text, options,
                                                       errorHandler);
}

LogicalResult mlir::norm::verifyConvertNormToVectorPassOptions(
    const ConvertNormToVectorPassOptions &options,
    function_ref<void(const Twine &)> emitError) {
  PassOptionChecker checker(emitError);
  checker.check(getVectorBitsForTarget(options.target) != 0,
                "unknown target '" + options.target +
                    "' (expected host, avx512, avx512-bf16, avx2 or generic)");
  checker.checkRange(options.accumulators, 1, 16, "accumulators");
  checker.checkRange(options.gradBlockRows, 1, 8, "grad-block-rows");
  std::string threadsMessage = checkParallelThresholdOptions(
      options.target, options.hostCpu, options.parallelThreshold,
      options.numThreads, options.forkJoinNs, options.coreBytesPerNs);
  checker.check(threadsMessage.empty(), threadsMessage);
  // The micro-tile must fit the register file (16 × 4 accumulators is
  // already past it; beyond that LLVM spills every k step), and the blocks
  // must be positive when given.
  constexpr int64_t kMaxBlock = int64_t(1) << 16;
  checker.checkRange(options.gemmTileRows, 0, 16, "gemm-tile-rows");
  checker.checkRange(options.gemmTileVectors, 0, 4, "gemm-tile-vectors");
  checker.checkRange(options.gemmBlockK, 0, kMaxBlock, "gemm-block-k");
  checker.checkRange(options.gemmBlockM, 0, kMaxBlock, "gemm-block-m");
  checker.checkRange(options.gemmBlockN, 0, kMaxBlock, "gemm-block-n");
  checker.checkRange(options.gemmUnroll, 0, 16, "gemm-unroll");
  checker.checkRange(options.gemmGemvRows, -1, 64, "gemm-gemv-rows");
  return checker.result();
}
