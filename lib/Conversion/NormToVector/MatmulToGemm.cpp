//===- MatmulToGemm.cpp - f32 linalg matmuls to the packed GEMM -----------===//
//
// The matmuls around the norms (q/k/v, MLP) that were not fused still deserve
// the project's GEMM rather than upstream's scalar loops: a memref-form f32
// matmul, as `linalg.matmul` or as the `linalg.generic` that
// --linalg-generalize-named-ops makes of it (W as K×N or, by its indexing
// map, N×K), becomes FusedGemm.cpp's kernel with no prologue, accumulating
// into C as linalg does. A bf16 or f16 A and W with an f32 C (the body
// extends both to f32) is the same f32-accumulating product, so it takes the
// GEMM too (bf16 on AVX512-BF16: the dot-product micro-kernel). Other element
// types keep upstream's lowering: a bf16 C makes linalg round every partial
// sum to bf16, which the f32-accumulating kernel would not reproduce.
//
//===----------------------------------------------------------------------===//

#include "FusedGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `v`, or the operand of the `arith.extf` that defines it.
Value stripExtension(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return v;
}

/// Whether `body` is `yield(out + a·b)` (in either operand order) over its
/// block arguments (a, b, out), a and b possibly extended to out's type.
bool isMultiplyAccumulate(Block &body) {
  if (body.getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2);
  Value other = add.getLhs() == out ? add.getRhs()
                : add.getRhs() == out ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  Value lhs = stripExtension(mul.getLhs()), rhs = stripExtension(mul.getRhs());
  return (lhs == a && rhs == b) || (lhs == b && rhs == a);
}

/// The element type of a 2-D identity-layout memref, or null.
Type identityMatrixElementType(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != 2 || !type.getLayout().isIdentity())
    return Type();
  return type.getElementType();
}

struct LowerLinalgMatmul : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LowerLinalgMatmul(MLIRContext *context,
                    const NormVectorCodegenOptions &options)
      : OpInterfaceRewritePattern<linalg::LinalgOp>(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<linalg::MatmulOp, linalg::GenericOp>(op.getOperation()))
      return rewriter.notifyMatchFailure(op, "not a matmul or generic");
    if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "needs 2 memref ins, 1 out");
    Value a = op.getDpsInputOperand(0)->get();
    Value w = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    Type inputType = identityMatrixElementType(a);
    if (!inputType || identityMatrixElementType(w) != inputType ||
        !isa_and_nonnull<Float32Type>(identityMatrixElementType(c)) ||
        !isa<Float32Type, BFloat16Type, Float16Type>(inputType))
      return rewriter.notifyMatchFailure(
          op, "needs 2-D identity memrefs: A, W of one type (f32, bf16, f16), "
              "C f32");
    if (op.getNumLoops() != 3 || op.getNumReductionLoops() != 1 ||
        op.getIteratorTypesArray()[2] != utils::IteratorType::reduction)
      return rewriter.notifyMatchFailure(op, "not (m, n, k) loops");
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](AffineExpr x, AffineExpr y) {
      return AffineMap::get(3, 0, {x, y}, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps[0] != map(m, k) || maps[2] != map(m, n))
      return rewriter.notifyMatchFailure(op, "A or C not indexed (m,k)/(m,n)");
    bool transposeW = maps[1] == map(n, k);
    if (!transposeW && maps[1] != map(k, n))
      return rewriter.notifyMatchFailure(op, "W not indexed (k,n) or (n,k)");
    if (!isMultiplyAccumulate(*op.getBlock()))
      return rewriter.notifyMatchFailure(op, "body is not out + a·b");

    Location loc = op.getLoc();
    auto dim = [&](Value v, int64_t d) {
      return getValueOrCreateConstantIndexOp(
          rewriter, loc, memref::getMixedSize(rewriter, loc, v, d));
    };
    FusedGemmProblem p;
    p.a = a;
    p.w = w;
    p.c = c;
    p.transposeW = transposeW;
    p.m = dim(a, 0);
    p.k = dim(a, 1);
    p.n = dim(c, 1);
    p.accumulateIntoC = true;
    emitFusedGemm(rewriter, loc, p, options);
    rewriter.eraseOp(op);
    return success();
  }

  NormVectorCodegenOptions options;
};

} // namespace

void mlir::norm::populateLinalgMatmulToGemmPatterns(
    RewritePatternSet &patterns, const NormVectorCodegenOptions &options) {
  patterns.add<LowerLinalgMatmul>(patterns.getContext(), options);
}
