//===- ExpandBF16Truncation.cpp - f32 to bf16 rounding, NaNs in f32 -------===//
//
// arith-expand rounds f32 to bf16 with integer arithmetic and then selects
// the quiet NaN among the 16-bit results. LLVM keeps that select on 16-bit
// lanes, which x86 without AVX512-BF16 pays for with a mask narrowing and a
// byte blend (four instructions per 8 values on AVX2). Choosing the NaN
// among the f32 lanes before the rounding gives the same bits with one
// vblendvps. InstCombine cannot move the select below the rounding: the
// rounding's operands all depend on it.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
    auto shaped = [&](Type elementType) -> Type {
      if (auto vector = dyn_cast<VectorType>(inType))
        return vector.clone(elementType);
      return elementType;
    };
    Location loc = op.getLoc();
    Type i32 = shaped(rewriter.getI32Type());
    auto constant = [&](Type type, TypedAttr scalar) -> Value {
      if (auto vector = dyn_cast<VectorType>(type))
        return arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(vector, scalar));
      return arith::ConstantOp::create(rewriter, loc, scalar);
    };
    auto intConstant = [&](int64_t value) {
      return constant(i32, rewriter.getI32IntegerAttr(value));
    };
    Value x = op.getIn();
    Value isNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    Value quietNaN = constant(
        inType, rewriter.getFloatAttr(rewriter.getF32Type(),
                                      APFloat::getQNaN(APFloat::IEEEsingle())));
    Value bits = arith::BitcastOp::create(
        rewriter, loc, i32,
        arith::SelectOp::create(rewriter, loc, isNaN, quietNaN, x));
    Value sixteen = intConstant(16);
    Value lowestKeptBit = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, sixteen),
        intConstant(1));
    Value biased = arith::AddIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, bits, intConstant(0x7fff)),
        lowestKeptBit);
    Value high = arith::TruncIOp::create(
        rewriter, loc, shaped(rewriter.getI16Type()),
        arith::ShRUIOp::create(rewriter, loc, biased, sixteen));
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
