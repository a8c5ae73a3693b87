//===- RingCollectives.h - all_gather / reduce_scatter as rings -*- C++ -*-===//
//
// The ring lowerings of norm-lower-shard-to-mpi (RingCollectives.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_TRANSFORMS_SHARD_RINGCOLLECTIVES_H
#define NORM_LIB_TRANSFORMS_SHARD_RINGCOLLECTIVES_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace norm {

/// all_gather and reduce_scatter of contiguous chunks over the whole grid as
/// rings of mpi.send / mpi.recv (benefit 2, over the all-reduce forms), and
/// an all_reduce read only by its all_slice as a reduce_scatter.
void populateRingCollectivePatterns(RewritePatternSet &patterns,
                                    SymbolTableCollection &symbols);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_TRANSFORMS_SHARD_RINGCOLLECTIVES_H
