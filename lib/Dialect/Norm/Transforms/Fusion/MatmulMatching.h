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
  /// The elementwise `arith.truncf` of a wider product (bf16 A and W
  /// accumulated into f32) to the activation's type, if the product is
  /// rounded so before anything else reads it (matchMatmulProducing only).
  Operation *truncation = nullptr;
  /// What the fused op replaces: the truncation's result, else the bias
  /// add's, else the matmul's. Its element type is the fused op's output
  /// type: the activation's, or a wider one (f32 from bf16 A and W).
  Value result;

  /// The last op the fused op replaces (the one that defines `result`).
  Operation *lastOp() const { return result.getDefiningOp(); }
};

/// Matches `op` as a matmul whose activation is `lhs`. On failure, `why`
/// says what does not fit (for remarks).
FailureOr<MatmulMatch> matchMatmulWithLhs(Operation *op, Value lhs,
                                          std::string &why);

/// When the product of `match` (with no bias) is wider than the activation
/// and read only by an elementwise `arith.truncf` back to the activation's
/// type (bf16 · bf16 accumulated into f32, then rounded to bf16: how
/// frontends spell a bf16 linear layer), takes the truncation in: the fused
/// op's output then has the activation's type and rounds where it did.
void takeTruncationOfProduct(MatmulMatch &match);

/// Matches the matmul (or the bias add after it, or the truncation of either
/// to the activation's type) that produces `value`. On failure, `why` says
/// what does not fit.
FailureOr<MatmulMatch> matchMatmulProducing(Value value, std::string &why);

/// `type`'s element type as MLIR prints it ("bf16"), for the reasons the
/// fusion gives in its remarks.
std::string elementTypeName(Type type);

/// Why a rounding of a matmul's product (of element type `productType`,
/// from operands of type `operands`) to `to`, right after the product,
/// cannot be where a matmul → norm op rounds its S, or empty when it can:
/// a rounding to the operands' type (bf16 A and W accumulated into f32,
/// truncated to bf16), or of the f32 product of f32 operands to bf16 or
/// f16 (isNarrowedOutputType), with no matmul bias added before it
/// (`biasFirst`: the fused op adds the bias at its output type). `where`
/// names the rounding op in the reason.
std::string whyRoundingNotFused(Type productType, Type to, Type operands,
                                bool biasFirst, StringRef where = "");

/// Why a fused op with input element type `inputType` and the accumulation
/// type `accType` (null: the default) cannot have an output of element type
/// `outputType` (the product's), or empty when it can: the input's type, or
/// a wider float type up to the accumulation type.
std::string whyNotFusedOutputType(Type outputType, Type inputType,
                                  TypeAttr accType);

/// A `tensor.empty` of exactly `resultType` ([..., N]) for a fused op's
/// output: its dynamic sizes come from `activation` (the fused op's input,
/// [..., K]) and, for N, from W.
Value createFusedInit(OpBuilder &b, Location loc, const MatmulMatch &match,
                      Value activation, RankedTensorType resultType);

/// A `tensor.empty` of exactly `type` whose dynamic dim i is dim i of
/// `sizesFrom` (a fused op's residual sum or statistics: the activation's
/// shape, or its leading dims).
Value createInitLike(OpBuilder &b, Location loc, Value sizesFrom,
                     RankedTensorType type);

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
