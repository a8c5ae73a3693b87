//===- ExpandBF16Truncation.cpp - f32 to bf16 rounding, NaNs in f32 -------===//
//
// arith-expand rounds f32 to bf16 with integer arithmetic and then selects
// the quiet NaN among the 16-bit results. LLVM keeps that select on 16-bit
// lanes, which x86 without AVX512-BF16 pays for with a mask narrowing and a
// byte blend (four instructions per 8 values on AVX2). Choosing the NaN
// among the f32 lanes before the rounding gives the same bits with one
// vblendvps. InstCombine cannot move the select below the rounding: the
// rounding's operands all depend on it. The rounding itself
// (createBF16RoundedWords, BF16Rounding.h) is shared with the row kernels'
// bf16 pair order.
//
//===----------------------------------------------------------------------===//

#include "norm/Support/TypeUtilities.h"
#include "norm/Transforms/BF16Rounding.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMEXPANDBF16TRUNCATIONPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

Value mlir::norm::createBF16RoundedWords(OpBuilder &b, Location loc, Value x) {
  Type i32 = withElementType(x.getType(), b.getI32Type());
  auto intConstant = [&](int64_t value) {
    return createScalarOrSplatConstant(b, loc, i32, value);
  };
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value quietNaN = createScalarOrSplatConstant(
      b, loc, x.getType(), APFloat::getQNaN(APFloat::IEEEsingle()));
  Value bits = arith::BitcastOp::create(
      b, loc, i32, arith::SelectOp::create(b, loc, isNaN, quietNaN, x));
  Value shifted = arith::ShRUIOp::create(b, loc, bits, intConstant(16));
  Value lowestKeptBit = arith::AndIOp::create(b, loc, shifted, intConstant(1));
  return arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, bits, intConstant(0x7fff)),
      lowestKeptBit);
}

namespace {

struct ExpandTruncFToBF16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type inType = op.getIn().getType();
    Type outType = op.getType();
    if (!getElementTypeOrSelf(inType).isF32() ||
        !getElementTypeOrSelf(outType).isBF16())
      return rewriter.notifyMatchFailure(op, "not f32 to bf16");
    if (std::optional<arith::RoundingMode> mode = op.getRoundingmode())
      if (*mode != arith::RoundingMode::to_nearest_even)
        return rewriter.notifyMatchFailure(op, "not to nearest even");
    Location loc = op.getLoc();
    Value words = createBF16RoundedWords(rewriter, loc, op.getIn());
    Value sixteen =
        createScalarOrSplatConstant(rewriter, loc, words.getType(), 16);
    Value high = arith::TruncIOp::create(
        rewriter, loc, withElementType(inType, rewriter.getI16Type()),
        arith::ShRUIOp::create(rewriter, loc, words, sixteen));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, outType, high);
    return success();
  }
};

struct NormExpandBF16TruncationPass
    : public norm::impl::NormExpandBF16TruncationPassBase<
          NormExpandBF16TruncationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandTruncFToBF16>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
