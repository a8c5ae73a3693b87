//===- MatmulMatching.h - recognizing the matmuls frontends emit -*- C++ -*-===//
//
// What norm-fuse-matmul needs to know about a matmul next to a norm: which
// operand is the activation, the 2-D weight W (looking through the transpose
// and broadcast producers frontends put in front of it), whether W is N×K,
// and the bias (a broadcast init or an add right after the product).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_MATMULMATCHING_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_MATMULMATCHING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace norm {

/// A tensor matmul `C = A · W (+ bias)` in one of the forms frontends emit:
/// `linalg.matmul` (W as K×N, or N×K through its indexing maps or a
/// `linalg.transpose` producer) and `linalg.batch_matmul` whose W is shared by
/// every batch (a broadcast indexing map or a `linalg.broadcast` producer).
struct MatmulMatch {
  linalg::LinalgOp matmul;
  /// The activation: [M, K], or [B, M, K] for a batch matmul.
  Value lhs;
  /// W as the fused ops take it: [K, N], or [N, K] when `transposeRhs`.
  Value rhs;
  bool transposeRhs = false;
  /// A bias of shape [N] (from a broadcast init, or `biasAdd`), or null.
  Value bias;
  /// The elementwise add of `bias` that follows the matmul, if any.
  Operation *biasAdd = nullptr;
  /// What the fused op replaces: the bias add's result, else the matmul's.
  Value result;
};

/// Matches `op` as a matmul whose activation is `lhs`. On failure, `why`
/// says what does not fit (for remarks).
FailureOr<MatmulMatch> matchMatmulWithLhs(Operation *op, Value lhs,
                                          std::string &why);

/// Matches the matmul (or the bias add after it) that produces `value`. On
/// failure, `why` says what does not fit.
FailureOr<MatmulMatch> matchMatmulProducing(Value value, std::string &why);

/// A `tensor.empty` of exactly `resultType` ([..., N]) for a fused op's
/// output: its dynamic sizes come from `activation` (the fused op's input,
/// [..., K]) and, for N, from W.
Value createFusedInit(OpBuilder &b, Location loc, const MatmulMatch &match,
                      Value activation, RankedTensorType resultType);

/// If `op` adds a tensor of shape [N] broadcast along every other dim to
/// `value` (`linalg.add` with a `linalg.broadcast` operand, or an
/// elementwise `linalg.generic` whose body is one `arith.addf`), returns the
/// [N] tensor.
Value matchBroadcastBiasAdd(Operation *op, Value value);

/// If `op` adds `value` to another tensor of the same shape (`linalg.add`, or
/// an elementwise `linalg.generic` `arith.addf` with identity maps), returns
/// that other tensor.
Value matchSameShapeAdd(Operation *op, Value value);

/// The uses of `sum` (the result of an add that a norm absorbs) other than
/// by `norm`: they will read the norm's sum result, which is defined where
/// the norm is, so each must come after `norm` in its block. Fails (with
/// `readers` partly filled) when one does not.
LogicalResult collectSumReadersAfter(Value sum, Operation *norm,
                                     SmallVectorImpl<OpOperand *> &readers);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_MATMULMATCHING_H
