//===- RowKernel.h - vector row kernels for the norm ops --------*- C++ -*-===//
//
// Private to NormToVector: the description of one standalone norm (operands
// as 2-D row views, numerics) and the emitter that writes its row loops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Conversion/Utils/RowNormProblem.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// Emits the row loops (threaded above the parallel threshold, with
/// streaming stores above the streaming threshold) at the rewriter's
/// insertion point.
void emitRowNormKernel(RewriterBase &rewriter, Location loc,
                       const RowNormProblem &problem,
                       const NormVectorCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
