//===- MatmulToGemm.cpp - f32 linalg matmuls to the packed GEMM -----------===//
//
// The matmuls around the norms (q/k/v, MLP) that were not fused still deserve
// the project's GEMM rather than upstream's scalar loops: a memref-form f32
// matmul, as `linalg.matmul` or as the `linalg.generic` that
// --linalg-generalize-named-ops makes of it (W as K×N or, by its indexing
// map, N×K), becomes the packed GEMM's kernel with no prologue, accumulating
// into C as linalg does. A bf16 or f16 A and W with an f32 C (the body
// extends both to f32) is the same f32-accumulating product, so it takes the
// GEMM too (bf16 on AVX512-BF16: the dot-product micro-kernel). Batch
// matmuls (attention) become an scf.parallel over batches of the same GEMM
// on per-batch subviews. Other element
// types keep upstream's lowering: a bf16 C makes linalg round every partial
// sum to bf16, which the f32-accumulating kernel would not reproduce.
//
//===----------------------------------------------------------------------===//

#include "FusedGemm.h"

#include "norm/Conversion/Utils/LinalgGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Batch `batch` of the identity-layout rank-3 memref `mem` whose dim
/// `batchDim` (0 or 1) is the batch, as a 2-D strided memref of the other two
/// dims (the last stays contiguous).
Value batchView(OpBuilder &b, Location loc, Value mem, int64_t batchDim,
                Value batch) {
  auto type = cast<MemRefType>(mem.getType());
  SmallVector<OpFoldResult> offsets(3, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> viewShape;
  for (int64_t d = 0; d < 3; ++d) {
    if (d == batchDim) {
      offsets[d] = batch;
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    sizes.push_back(memref::getMixedSize(b, loc, mem, d));
    viewShape.push_back(type.getDimSize(d));
  }
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      viewShape, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType), mem,
                                   offsets, sizes, strides);
}

struct LowerLinalgMatmul : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LowerLinalgMatmul(MLIRContext *context,
                    const NormVectorCodegenOptions &options)
      : OpInterfaceRewritePattern<linalg::LinalgOp>(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::string whyNot;
    std::optional<LinalgGemm> gemm = matchLinalgGemm(op, whyNot);
    if (!gemm)
      return rewriter.notifyMatchFailure(op, whyNot);
    Location loc = op.getLoc();
    auto emitOne = [&](OpBuilder &b, Value a2, Value w2, Value c2) {
      auto dim = [&](Value v, int64_t d) {
        return getValueOrCreateConstantIndexOp(
            b, loc, memref::getMixedSize(b, loc, v, d));
      };
      FusedGemmProblem p;
      p.a = a2;
      p.w = w2;
      p.c = c2;
      p.transposeW = gemm->transposeW;
      p.m = dim(a2, 0);
      p.k = dim(a2, 1);
      p.n = dim(c2, 1);
      p.accumulateIntoC = true;
      emitFusedGemm(b, loc, p, options);
    };
    const SmallVector<int64_t, 3> &batchDims = gemm->batchDims;
    if (!gemm->isBatched()) {
      emitOne(rewriter, gemm->a, gemm->w, gemm->c);
    } else {
      // Threads take whole batches (attention heads); the GEMMs' own
      // parallel loops then run nested, on the batch's thread.
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value batches = getValueOrCreateConstantIndexOp(
          rewriter, loc, memref::getMixedSize(rewriter, loc, gemm->c, batchDims[2]));
      scf::ParallelOp::create(
          rewriter, loc, ValueRange{zero}, ValueRange{batches},
          ValueRange{one}, [&](OpBuilder &pb, Location, ValueRange ivs) {
            emitOne(pb, batchView(pb, loc, gemm->a, batchDims[0], ivs[0]),
                    batchView(pb, loc, gemm->w, batchDims[1], ivs[0]),
                    batchView(pb, loc, gemm->c, batchDims[2], ivs[0]));
          });
    }
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
