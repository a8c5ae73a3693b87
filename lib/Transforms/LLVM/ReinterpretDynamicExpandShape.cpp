//===- ReinterpretDynamicExpandShape.cpp - expand_shape as a view --------===//
//
// MLIR 22's expand-strided-metadata crashes on a memref.expand_shape that
// splits one dim into several dynamic sizes (a null OpFoldResult reaches
// memref.reinterpret_cast's builder). Bufferization makes such ops of the
// reshapes frontends write to [batch, seq, ...], so the pipelines rewrite
// them first into the strided view they are.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMREINTERPRETDYNAMICEXPANDSHAPEPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Whether some group of `op` has more than one dynamic size.
bool splitsIntoSeveralDynamicSizes(memref::ExpandShapeOp op) {
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  return llvm::any_of(op.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return ShapedType::isDynamic(shape[dim]);
                               }) > 1;
                      });
}

/// Replaces `op` with the reinterpret_cast of its source that it is.
void reinterpretAsStridedView(memref::ExpandShapeOp op,
                              RewriterBase &rewriter) {
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  MemRefType resultType = op.getResultType();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(resultType.getRank());
  for (auto [sourceDim, group] :
       llvm::enumerate(op.getReassociationIndices())) {
    // Row-major within the group: the last dim keeps the source dim's
    // stride, each one before it steps over the sizes after it.
    Value stride = metadata.getStrides()[sourceDim];
    for (auto [position, dim] : llvm::enumerate(llvm::reverse(group))) {
      if (position != 0)
        stride = arith::MulIOp::create(
            rewriter, loc, stride,
            getValueOrCreateConstantIndexOp(
                rewriter, loc, sizes[group[group.size() - position]]));
      strides[dim] = stride;
    }
  }
  SmallVector<int64_t> dynamicStrides(resultType.getRank(),
                                      ShapedType::kDynamic);
  auto viewType = MemRefType::get(
      resultType.getShape(), resultType.getElementType(),
      StridedLayoutAttr::get(op.getContext(), ShapedType::kDynamic,
                             dynamicStrides),
      resultType.getMemorySpace());
  Value view =
      memref::ReinterpretCastOp::create(rewriter, loc, viewType, op.getSrc(),
                                        metadata.getOffset(), sizes, strides);
  rewriter.replaceOpWithNewOp<memref::CastOp>(op, resultType, view);
}

struct NormReinterpretDynamicExpandShapePass
    : public norm::impl::NormReinterpretDynamicExpandShapePassBase<
          NormReinterpretDynamicExpandShapePass> {
  void runOnOperation() override {
    // A walk, not the greedy driver: only these ops change, and nothing
    // else in the module is folded on the way.
    SmallVector<memref::ExpandShapeOp> targets;
    getOperation()->walk([&](memref::ExpandShapeOp op) {
      if (splitsIntoSeveralDynamicSizes(op))
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::ExpandShapeOp op : targets)
      reinterpretAsStridedView(op, rewriter);
  }
};

} // namespace
