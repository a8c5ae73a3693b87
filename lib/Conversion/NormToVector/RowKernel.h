//===- RowKernel.h - vector row kernels for the norm ops --------*- C++ -*-===//
//
// Private to NormToVector: the description of one standalone norm (operands
// as 2-D row views, numerics) and the emitter that writes its row loops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H

#include "norm/Conversion/NormToVector/NormToVector.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {

/// One standalone norm, with every buffer viewed as rows of `n` contiguous
/// elements: x, residual, y and sum as memref<R x n>, γ and β as memref<n>,
/// mean and rstd as memref<R>. Absent operands are null.
struct RowNormProblem {
  bool isLayerNorm = false;
  Value x, residual, weight, bias;
  Value y, sum, mean, rstd;
  Value rows, n; // index values
  FloatType accType;
  double epsilon = 0.0;
  double weightOffset = 0.0;
  double partial = 1.0; // RMSNorm only
  CastMode castMode = CastMode::after_weight;
  EpsMode epsMode = EpsMode::inside_sqrt;
};

/// Emits the row loops (threaded above the parallel threshold, with
/// streaming stores above the streaming threshold) at the rewriter's
/// insertion point.
void emitRowNormKernel(RewriterBase &rewriter, Location loc,
                       const RowNormProblem &problem,
                       const NormVectorCodegenOptions &options);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_ROWKERNEL_H
