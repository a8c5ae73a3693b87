//===- LoweringPattern.h - the shape of the conversions' patterns -*- C++
//-*-===//
//
// The shape every norm-op lowering of NormToVector and NormToGPU shares: a
// check that the kernels take the op (first of all, memrefs with identity
// layouts), the kernel code in its place, the op erased; with the
// conversion's code generation options.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_LOWERINGPATTERN_H
#define NORM_CONVERSION_UTILS_LOWERINGPATTERN_H

#include "norm/Conversion/Utils/GemmProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Fails to match `op` unless every operand is a memref with an identity
/// layout, the form both back ends' kernels view as rows: tensors and
/// strided memrefs are left for --norm-decompose.
inline LogicalResult matchIdentityMemrefs(Operation *op,
                                          PatternRewriter &rewriter) {
  if (llvm::all_of(op->getOperands(), hasIdentityLayout))
    return success();
  return rewriter.notifyMatchFailure(
      op, "needs memrefs with identity layouts (tensors and strided memrefs "
          "are left for --norm-decompose)");
}

/// matchIdentityMemrefs as the check of a NormLoweringPattern.
template <typename OpTy, typename OptionsT>
LogicalResult matchIdentityMemrefs(OpTy op, PatternRewriter &rewriter,
                                   const OptionsT &) {
  return matchIdentityMemrefs(op.getOperation(), rewriter);
}

/// Fails to match the standalone norm `op` unless every operand is a memref
/// the row views take (unsupportedRowOperandReason): identity layouts, and
/// strided views with unit-stride, evenly spaced rows. Tensors and other
/// strided memrefs are left for --norm-decompose; so is a quantized output
/// unless `quantizedOutputs` (the caller's row kernel writes one).
inline LogicalResult matchRowViewOperands(Operation *op,
                                          PatternRewriter &rewriter,
                                          bool quantizedOutputs) {
  std::string reason = unsupportedRowOperandReason(op, quantizedOutputs);
  if (reason.empty())
    return success();
  return rewriter.notifyMatchFailure(op, reason);
}

/// matchRowViewOperands as the check of a NormLoweringPattern whose kernel
/// writes no quantized output.
template <typename OpTy, typename OptionsT>
LogicalResult matchRowViewMemrefs(OpTy op, PatternRewriter &rewriter,
                                  const OptionsT &) {
  return matchRowViewOperands(op, rewriter, /*quantizedOutputs=*/false);
}

/// The shell every lowering of a norm op shares: `check` says whether the
/// kernels take the op (before anything is created), `lower` writes the
/// kernel code in its place, and the op is erased. OptionsT is the
/// conversion's code generation options (NormVectorCodegenOptions,
/// NormGPUCodegenOptions).
template <typename OpTy, typename OptionsT>
class NormLoweringPattern : public OpRewritePattern<OpTy> {
public:
  using CheckFn = LogicalResult (*)(OpTy, PatternRewriter &, const OptionsT &);
  using LowerFn = void (*)(OpTy, PatternRewriter &, const OptionsT &);

  NormLoweringPattern(MLIRContext *context, const OptionsT &options,
                      CheckFn check, LowerFn lower, PatternBenefit benefit)
      : OpRewritePattern<OpTy>(context, benefit), options(options),
        check(check), lower(lower) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (failed(check(op, rewriter, options)))
      return failure();
    lower(op, rewriter, options);
    rewriter.eraseOp(op);
    return success();
  }

private:
  OptionsT options;
  CheckFn check;
  LowerFn lower;
};

/// Adds the NormLoweringPattern of `OpTy` made of `check` and `lower` (each
/// may name a function template, instantiated for OpTy).
template <typename OpTy, typename OptionsT>
void addNormLowering(
    RewritePatternSet &patterns, const OptionsT &options,
    typename NormLoweringPattern<OpTy, OptionsT>::CheckFn check,
    typename NormLoweringPattern<OpTy, OptionsT>::LowerFn lower,
    PatternBenefit benefit = 1) {
  patterns.add(std::make_unique<NormLoweringPattern<OpTy, OptionsT>>(
      patterns.getContext(), options, check, lower, benefit));
}

/// Where a matmul → norm lowering writes the pre-norm sum S (M × N, `rows`
/// its sizes): the op's sum_outs (`gemm.c`) when it has one, else a
/// temporary of `elementType` that `alloc` makes from the static shape and
/// the dynamic sizes. The temporary is set as `gemm.c` and returned, for the
/// caller to free once the kernels are done with S (null without one).
inline Value
allocateSumIfAbsent(OpBuilder &b, Location loc, GemmProblem &gemm,
                    Type elementType, ArrayRef<OpFoldResult> rows,
                    function_ref<Value(MemRefType, ValueRange)> alloc) {
  if (gemm.c)
    return nullptr;
  SmallVector<Value> dynamicSizes;
  SmallVector<int64_t> staticSizes;
  splitMixedSizes(b, loc, rows, staticSizes, dynamicSizes);
  gemm.c = alloc(MemRefType::get(staticSizes, elementType), dynamicSizes);
  return gemm.c;
}

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_LOWERINGPATTERN_H
