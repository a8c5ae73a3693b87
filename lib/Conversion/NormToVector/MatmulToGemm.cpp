//===- MatmulToGemm.cpp - f32 linalg matmuls to the packed GEMM -----------===//
//
// The matmuls around the norms (q/k/v, MLP) that were not fused still deserve
// the project's GEMM rather than upstream's scalar loops: a memref-form f32
// matmul, as `linalg.matmul` or as the `linalg.generic` that
// --linalg-generalize-named-ops makes of it (W as K×N or, by its indexing
// map, N×K), becomes FusedGemm.cpp's kernel with no prologue, accumulating
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

/// The element type of an identity-layout memref of `rank`, or null.
Type identityElementType(Value v, int64_t rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.getLayout().isIdentity())
    return Type();
  return type.getElementType();
}

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
    if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::GenericOp>(
            op.getOperation()))
      return rewriter.notifyMatchFailure(op, "not a matmul or generic");
    if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "needs 2 memref ins, 1 out");
    // (m, n, k), or (b, m, n, k) for a batch of independent matmuls.
    int64_t numLoops = op.getNumLoops();
    bool batched = numLoops == 4;
    if ((numLoops != 3 && !batched) || op.getNumReductionLoops() != 1 ||
        op.getIteratorTypesArray()[numLoops - 1] !=
            utils::IteratorType::reduction)
      return rewriter.notifyMatchFailure(op, "not (m, n, k) or (b, m, n, k) loops");
    Value a = op.getDpsInputOperand(0)->get();
    Value w = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    int64_t rank = batched ? 3 : 2;
    Type inputType = identityElementType(a, rank);
    if (!inputType || identityElementType(w, rank) != inputType ||
        !isa_and_nonnull<Float32Type>(identityElementType(c, rank)) ||
        !isa<Float32Type, BFloat16Type, Float16Type>(inputType))
      return rewriter.notifyMatchFailure(
          op, "needs identity memrefs: A, W of one type (f32, bf16, f16), "
              "C f32");
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineExpr> dims(numLoops);
    for (int64_t i = 0; i < numLoops; ++i)
      dims[i] = getAffineDimExpr(i, ctx);
    AffineExpr m = dims[numLoops - 3], n = dims[numLoops - 2],
               k = dims[numLoops - 1];
    auto map = [&](AffineExpr x, AffineExpr y) {
      return AffineMap::get(numLoops, 0, {x, y}, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    // Each operand's batch dim, and the map without it: the batch may sit in
    // front or in the middle (a head split folded into the matmul: V as
    // [seq, heads, dim]), not last (the rows must stay contiguous).
    SmallVector<int64_t> batchDims(3, -1);
    for (int64_t i = 0; batched && i < 3; ++i) {
      std::optional<unsigned> at =
          maps[i].getResultPosition(dims[0]);
      if (!at || *at == 2)
        return rewriter.notifyMatchFailure(op, "batch dim missing or last");
      batchDims[i] = *at;
      maps[i] = maps[i].dropResult(*at);
    }
    if (batched)
      for (AffineMap &mp : maps)
        mp = AffineMap::get(numLoops, 0, mp.getResults(), ctx);
    if (maps[0] != map(m, k) || maps[2] != map(m, n))
      return rewriter.notifyMatchFailure(op, "A or C not indexed (m,k)/(m,n)");
    bool transposeW = maps[1] == map(n, k);
    if (!transposeW && maps[1] != map(k, n))
      return rewriter.notifyMatchFailure(op, "W not indexed (k,n) or (n,k)");
    if (!isMultiplyAccumulate(*op.getBlock()))
      return rewriter.notifyMatchFailure(op, "body is not out + a·b");

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
      p.transposeW = transposeW;
      p.m = dim(a2, 0);
      p.k = dim(a2, 1);
      p.n = dim(c2, 1);
      p.accumulateIntoC = true;
      emitFusedGemm(b, loc, p, options);
    };
    if (!batched) {
      emitOne(rewriter, a, w, c);
    } else {
      // Threads take whole batches (attention heads); the GEMMs' own
      // parallel loops then run nested, on the batch's thread.
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value batches = getValueOrCreateConstantIndexOp(
          rewriter, loc, memref::getMixedSize(rewriter, loc, c, batchDims[2]));
      scf::ParallelOp::create(
          rewriter, loc, ValueRange{zero}, ValueRange{batches},
          ValueRange{one}, [&](OpBuilder &pb, Location, ValueRange ivs) {
            emitOne(pb, batchView(pb, loc, a, batchDims[0], ivs[0]),
                    batchView(pb, loc, w, batchDims[1], ivs[0]),
                    batchView(pb, loc, c, batchDims[2], ivs[0]));
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
