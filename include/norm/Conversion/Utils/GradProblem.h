//===- GradProblem.h - a norm gradient as rows ------------------*- C++ -*-===//
//
// What the CPU and GPU code generators both see of a memref-form
// norm.rms_norm_grad / norm.layer_norm_grad: its buffers viewed as R rows of
// n contiguous elements (identity layouts only), and its numerics. Shared
// by NormToVector and NormToGPU.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_GRADPROBLEM_H
#define NORM_CONVERSION_UTILS_GRADPROBLEM_H

#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace norm {

/// A gradient op as rows: dy, x, ds and dx as memref<R x n>, γ, dγ and dβ
/// as memref<n>, mean and rstd as memref<R>; absent operands are null. The
/// numerics are the op's (no cast_mode: the gradients round each result
/// once).
struct GradProblem : NormNumerics {
  bool isLayerNorm = false;
  Value dy, x, sumGrad, weight, mean, rstd;
  Value dx, weightGrad, biasGrad;
  Value rows, n; // index values
};

/// The row views and numerics of a memref-form gradient op whose operands
/// unsupportedGradKernelReason accepts.
GradProblem describeGrad(RMSNormGradOp op, OpBuilder &b);
GradProblem describeGrad(LayerNormGradOp op, OpBuilder &b);

/// Why neither back end's gradient kernel takes the memref-form `op`
/// (identity layouts, no pRMSNorm), or an empty string when they do.
std::string unsupportedGradKernelReason(Operation *op);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_GRADPROBLEM_H
