//===- DeadProducers.h - erasing rewritten ops and what fed them -*- C++ -*-===//
//
// A fusion replaces a norm and its matmuls; the transposes, broadcasts, zero
// fills and empties that fed only them die too and go with them.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_DEADPRODUCERS_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_DEADPRODUCERS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Erases `ops` (which must have no uses left once erased in order: users
/// first), then every producer of their operands that is left trivially
/// dead, transitively.
void eraseWithDeadProducers(RewriterBase &rewriter, ArrayRef<Operation *> ops);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_DEADPRODUCERS_H
