//===- RowKernel.h - vector row kernels for the norm ops --------*- C++ -*-===//
//
// Private to NormToVector: the description of one standalone norm (operands
// as 2-D row views, numerics) and the emitter that writes its row loops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Utils/GradProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Called for one vector of a statistics sweep: folds the elements at
/// [j, j + L) (lanes outside `mask` when it is non-null contribute nothing)
/// into `accs`, returning the new accumulators.
using RowAccumulateFn = function_ref<SmallVector<Value>(
    OpBuilder &, Value j, Value mask, ValueRange accs)>;
/// Called for one vector of the normalize sweep: computes and stores the
/// outputs at [j, j + L) (masked when `mask` is non-null).
using RowStoreFn =
    function_ref<void(OpBuilder &, Value j, Value mask, bool nontemporal)>;

/// The register width in `problem`'s acc_type: the lanes of a target
/// vector register, at least 1.
int64_t registerLanes(const RowNormProblem &problem,
                      const NormVectorCodegenOptions &options);

/// The lanes (L) of a whole row kernel over `problem`'s rows: the register
/// width in acc_type, or two registers' worth for rows of 16-bit x on a
/// 256-bit target. The sweeps below take L from the caller (`lanes`, 0 for
/// the register width), whose callbacks build vectors of L lanes.
int64_t rowKernelLanes(const RowNormProblem &problem,
                       const NormVectorCodegenOptions &options);

/// The row kernel's statistics sweep over [0, length) of one row, for
/// kernels built from its parts: `numStats` sums in `problem`'s
/// accumulation type, blocked and Kahan-compensated, reduced to scalars.
SmallVector<Value> emitRowSums(OpBuilder &b, Location loc,
                               const RowNormProblem &problem,
                               const NormVectorCodegenOptions &options,
                               Value length, unsigned numStats,
                               RowAccumulateFn accumulate, int64_t lanes = 0);

/// The row kernel's store sweep over [0, length): whole vectors, then one
/// masked vector for the tail (ordinary stores).
void emitRowSweep(OpBuilder &b, Location loc, const RowNormProblem &problem,
                  const NormVectorCodegenOptions &options, Value length,
                  RowStoreFn store, int64_t lanes = 0);

/// The row kernel's choice of streaming (non-temporal) stores for an
/// output of `elements` elements of `elementBytes` bytes: an i1 that holds
/// when the output reaches the streaming threshold (too big to stay in
/// cache, so the write-allocate read of ordinary stores is wasted), or null
/// when the options never stream.
Value emitStreamingChoice(OpBuilder &b, Location loc,
                          const NormVectorCodegenOptions &options,
                          Value elements, int64_t elementBytes);

/// The row kernel's streaming store sweep over row `row` of `problem`'s y
/// (identity layout, rows of `problem.n`): a masked head with ordinary
/// stores up to the first vector-aligned address of the row, whole vectors
/// with non-temporal stores, a masked tail with ordinary stores. `store`
/// gets `nontemporal` true for the body; only the y store should stream.
void emitStreamingRowSweep(OpBuilder &b, Location loc,
                           const RowNormProblem &problem,
                           const NormVectorCodegenOptions &options, Value row,
                           RowStoreFn store, int64_t lanes = 0);

/// The sfence that ends a kernel with streaming stores (outside any
/// parallel body; nothing unless options.emitStoreFence).
void emitStreamingStoreFence(OpBuilder &b, Location loc,
                             const NormVectorCodegenOptions &options);

/// norm.rms_norm_grad / norm.layer_norm_grad on identity-layout memrefs
/// (GradKernel.cpp), when unsupportedGradKernelReason (GradProblem.h)
/// accepts them.
void emitRMSNormGradKernel(RMSNormGradOp op, PatternRewriter &rewriter,
                           const NormVectorCodegenOptions &options);
void emitLayerNormGradKernel(LayerNormGradOp op, PatternRewriter &rewriter,
                             const NormVectorCodegenOptions &options);

/// norm.group_norm on identity-layout memrefs (GroupNormKernel.cpp).
void emitGroupNormKernel(GroupNormOp op, PatternRewriter &rewriter,
                         const NormVectorCodegenOptions &options);

/// Emits the row loops (threaded above the parallel threshold, with
/// streaming stores above the streaming threshold) at the rewriter's
/// insertion point.
void emitRowNormKernel(RewriterBase &rewriter, Location loc,
                       const RowNormProblem &problem,
                       const NormVectorCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
