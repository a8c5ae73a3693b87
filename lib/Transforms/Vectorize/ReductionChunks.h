//===- ReductionChunks.h - row reductions in vector-sized chunks -*- C++ -*-===//
//
// The row reductions of norm-vectorize-elementwise whose row is too long
// (or of unknown length) to be one vector: a loop over the row in chunks of
// one vector, reduced into vector accumulators, one horizontal reduction at
// the end.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_TRANSFORMS_VECTORIZE_REDUCTIONCHUNKS_H
#define NORM_LIB_TRANSFORMS_VECTORIZE_REDUCTIONCHUNKS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Whether emitReductionInChunks can replace `op`: buffer semantics, one
/// output, reduced over the innermost loop (which every input reads as its
/// last dim, with unit stride, or not at all) by one combiner op whose kind
/// and neutral element are known (add, mul, max, min, and, or, xor), and a
/// body of scalar elementwise-mappable int/float ops otherwise (no
/// linalg.index, no integer division, which a masked lane could trap on).
bool canReduceInChunks(linalg::GenericOp op);

/// Replaces `op` (canReduceInChunks, every loop but the innermost of extent
/// 1, as after tiling them by 1) with a loop over its row in chunks of
/// `lanes` elements: the body computed on vectors, folded into
/// `accumulators` vector accumulators (independent chains, so the
/// combiner's latency overlaps), the last partial chunk masked (its missing
/// lanes replaced by the neutral element), and one vector.reduction into
/// the output element.
void emitReductionInChunks(RewriterBase &rewriter, linalg::GenericOp op,
                           int64_t lanes, int64_t accumulators);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_TRANSFORMS_VECTORIZE_REDUCTIONCHUNKS_H
