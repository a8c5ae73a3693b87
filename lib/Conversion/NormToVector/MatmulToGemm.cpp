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
// on per-batch subviews. Other contractions (several reduction dims, a
// batch dim that one operand lacks, rows or columns over several dims: the
// einsum forms of the shard partitioner and torch-mlir) become a loop nest
// of the same GEMM on collapsed, subviewed operands when
// matchLinalgContraction finds M, N and K groups for them. Other element
// types keep upstream's lowering: a bf16 C makes linalg round every partial
// sum to bf16, which the f32-accumulating kernel would not reproduce.
//
//===----------------------------------------------------------------------===//

#include "FusedGemm.h"

#include "norm/Conversion/Utils/LinalgContraction.h"
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

/// `operand`'s 2-D view for the outer loops' indices `ivs`: its memref
/// collapsed (the GEMM groups made one dim each; `collapsed`, built once
/// outside the loops) with every other dim fixed.
Value contractionView(OpBuilder &b, Location loc,
                      const ContractionOperand &operand, Value collapsed,
                      ValueRange ivs) {
  auto type = cast<MemRefType>(collapsed.getType());
  if (type.getRank() == 2)
    return collapsed;
  SmallVector<OpFoldResult> offsets, sizes;
  SmallVector<int64_t> viewShape;
  for (auto [d, fixedBy] : llvm::enumerate(operand.fixedBy)) {
    if (fixedBy >= 0) {
      offsets.push_back(ivs[fixedBy]);
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(memref::getMixedSize(b, loc, collapsed, d));
    viewShape.push_back(type.getDimSize(d));
  }
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      viewShape, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType),
                                   collapsed, offsets, sizes, strides);
}

/// The loop nest of GEMMs of `con`: the parallel outer dims over the
/// threads, the reduction ones in sequence inside (each GEMM adds its
/// share into C), `emitOne` on the 2-D views innermost.
void emitContraction(
    OpBuilder &b, Location loc, const LinalgContraction &con,
    function_ref<void(OpBuilder &, Value, Value, Value)> emitOne) {
  const ContractionOperand *operands[3] = {&con.a, &con.w, &con.c};
  Value collapsed[3];
  for (int i = 0; i < 3; ++i)
    collapsed[i] = operands[i]->needsCollapse()
                       ? memref::CollapseShapeOp::create(
                             b, loc, operands[i]->memref, operands[i]->collapse)
                             .getResult()
                       : operands[i]->memref;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> parallelUppers, reductionUppers;
  for (const LinalgContraction::OuterDim &outer : con.outerDims) {
    Value size = getValueOrCreateConstantIndexOp(
        b, loc,
        memref::getMixedSize(b, loc, operands[outer.operand]->memref,
                             outer.dim));
    (outer.reduction ? reductionUppers : parallelUppers).push_back(size);
  }
  auto emitGemm = [&](OpBuilder &gb, ValueRange ivs) {
    emitOne(gb, contractionView(gb, loc, con.a, collapsed[0], ivs),
            contractionView(gb, loc, con.w, collapsed[1], ivs),
            contractionView(gb, loc, con.c, collapsed[2], ivs));
  };
  auto emitReductions = [&](OpBuilder &rb, ValueRange ivs) {
    if (reductionUppers.empty())
      return emitGemm(rb, ivs);
    SmallVector<Value> lowers(reductionUppers.size(), zero);
    SmallVector<Value> steps(reductionUppers.size(), one);
    scf::buildLoopNest(rb, loc, lowers, reductionUppers, steps,
                       [&](OpBuilder &nb, Location, ValueRange inner) {
                         SmallVector<Value> all(ivs.begin(), ivs.end());
                         llvm::append_range(all, inner);
                         emitGemm(nb, all);
                       });
  };
  if (parallelUppers.empty())
    return emitReductions(b, ValueRange());
  SmallVector<Value> lowers(parallelUppers.size(), zero);
  SmallVector<Value> steps(parallelUppers.size(), one);
  scf::ParallelOp::create(b, loc, lowers, parallelUppers, steps,
                          [&](OpBuilder &pb, Location, ValueRange ivs) {
                            emitReductions(pb, ivs);
                          });
}

struct LowerLinalgMatmul : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LowerLinalgMatmul(MLIRContext *context,
                    const NormVectorCodegenOptions &options)
      : OpInterfaceRewritePattern<linalg::LinalgOp>(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::string whyNot;
    std::optional<LinalgGemm> gemm = matchLinalgGemm(op, whyNot);
    std::optional<LinalgContraction> contraction;
    if (!gemm) {
      std::string whyNotContraction;
      contraction = matchLinalgContraction(op, whyNotContraction);
      if (!contraction)
        return rewriter.notifyMatchFailure(op,
                                           "not a matmul (" + whyNot +
                                               ") nor a contraction the GEMM "
                                               "loops take (" +
                                               whyNotContraction + ")");
    }
    Location loc = op.getLoc();
    bool transposeW = gemm ? gemm->transposeW : contraction->transposeW;
    auto emitOne = [&](OpBuilder &b, Value a2, Value w2, Value c2) {
      auto dim = [&](Value v, int64_t d) {
        return getValueOrCreateConstantIndexOp(
            b, loc, memref::getMixedSize(b, loc, v, d));
      };
      FusedGemmProblem p;
      p.a = a2;
      p.w = w2;
      p.c = c2;
      p.transposeW = transposeW;
      p.m = dim(a2, 0);
      p.k = dim(a2, 1);
      p.n = dim(c2, 1);
      p.accumulateIntoC = true;
      emitFusedGemm(b, loc, p, options);
    };
    if (contraction) {
      emitContraction(rewriter, loc, *contraction, emitOne);
      rewriter.eraseOp(op);
      return success();
    }
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
