//===- LowerBF16MmaSync.cpp - bf16 nvgpu.mma.sync to nvvm.mma.sync -------===//
//
// MLIR 22's convert-nvgpu-to-nvvm lowers nvgpu.mma.sync for f16, tf32, f64
// and integers, but rejects bf16 operands ("failed to deduce operand PTX
// types"), although nvvm.mma.sync (and PTX's mma.sync ... .bf16.bf16.f32)
// take them. The fused GEMM kernels emit nvgpu.mma.sync for both 16-bit
// types; this pass rewrites the bf16 m16n8k16 ones with an f32 accumulator
// into nvvm.mma.sync before the upstream conversion runs: each pair of bf16
// values becomes one i32 register (vector.bitcast), the f32 accumulator four
// scalars, and the result struct a vector<2x2xf32> again.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/GPU/GPUTransforms.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMLOWERBF16MMASYNCPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

struct LowerBF16MmaSync : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    auto cType = cast<VectorType>(op.getMatrixC().getType());
    if (!aType.getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "not bf16");
    SmallVector<int64_t> shape = llvm::to_vector(llvm::map_range(
        op.getMmaShape(), [](Attribute a) {
          return cast<IntegerAttr>(a).getInt();
        }));
    if (shape != ArrayRef<int64_t>{16, 8, 16} ||
        aType.getShape() != ArrayRef<int64_t>{4, 2} ||
        bType.getShape() != ArrayRef<int64_t>{2, 2} ||
        cType.getShape() != ArrayRef<int64_t>{2, 2} ||
        !cType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "only m16n8k16 with an f32 accumulator");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type f32 = rewriter.getF32Type();
    auto pairsToI32 = [&](Value frag, int64_t rows) {
      SmallVector<Value> regs;
      for (int64_t r = 0; r < rows; ++r) {
        Value pair = vector::ExtractOp::create(rewriter, loc, frag, r);
        Value asInt = vector::BitCastOp::create(
            rewriter, loc, VectorType::get({1}, i32), pair);
        regs.push_back(vector::ExtractOp::create(rewriter, loc, asInt, 0));
      }
      return regs;
    };
    SmallVector<Value> a = pairsToI32(op.getMatrixA(), 4);
    SmallVector<Value> b = pairsToI32(op.getMatrixB(), 2);
    SmallVector<Value> c;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        c.push_back(vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                              ArrayRef<int64_t>{i, j}));
    auto structType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    Value mma = NVVM::MmaOp::create(
        rewriter, loc, structType, a, b, c, shape, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    Value result = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(cType, rewriter.getF32FloatAttr(0)));
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value v = LLVM::ExtractValueOp::create(rewriter, loc, mma, i * 2 + j);
        result = vector::InsertOp::create(rewriter, loc, v, result,
                                          ArrayRef<int64_t>{i, j});
      }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct NormLowerBF16MmaSyncPass
    : public norm::impl::NormLowerBF16MmaSyncPassBase<NormLowerBF16MmaSyncPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateBF16MmaSyncToNVVMPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::norm::populateBF16MmaSyncToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerBF16MmaSync>(patterns.getContext());
}
