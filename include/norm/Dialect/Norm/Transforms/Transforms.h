//===- Transforms.h - norm dialect rewrite entry points ---------*- C++ -*-===//
//
// Pattern populators and external-model registration for the norm dialect,
// for use by passes and by downstream compilers.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H
#define NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
class Operation;
class RewritePatternSet;
class RewriterBase;
namespace linalg {
class GenericOp;
} // namespace linalg

namespace norm {

/// Patterns that decompose every norm op into linalg (through
/// AggregatedOpInterface::decomposeOperation).
void populateNormDecompositionPatterns(RewritePatternSet &patterns);

/// norm → matmul (DESIGN.md §3): replaces `norm` (a norm.rms_norm or
/// norm.layer_norm on tensors) and every matmul that reads its result as the
/// activation by one fused norm.*_norm_matmul op per matmul, and erases the
/// norm. With `foldWeights` and constant W, γ, β, bias, folds γ and β into
/// W' = diag(γ)·W and b' = β·W + bias. Fails, with the reason in `why` and
/// nothing changed, when any user needs the normalized value materialized or
/// the norm has no fused form (more than the last dim, pRMSNorm, used
/// statistics). `numFused` receives the number of fused ops.
LogicalResult fuseNormIntoConsumerMatmuls(RewriterBase &rewriter,
                                          Operation *norm, bool foldWeights,
                                          std::string &why,
                                          unsigned *numFused = nullptr);

/// matmul → norm: replaces `norm` and the matmul (+ bias add) (+ residual
/// add) producing its input by one norm.matmul_*_norm, which also returns the
/// pre-norm sum when the norm's `sum_outs` or the residual stream reads it.
/// Fails, with the reason in `why` and nothing changed, otherwise.
LogicalResult fuseProducerMatmulIntoNorm(RewriterBase &rewriter,
                                         Operation *norm, std::string &why);

/// Whether the input of `norm` (a norm.rms_norm or norm.layer_norm on
/// tensors) is a product whose fused op could carry a rotary embedding:
/// a norm.rms_norm_matmul's product, directly or through reshapes and
/// transposes to heads (norm → matmul → norm), or, for an RMSNorm, a
/// matmul's product through such views (QK-norm on a plain projection).
/// Such a norm takes the rotation after it before it fuses.
bool readsProductHeads(Operation *norm);

/// The permutation of a `linalg.generic` on tensors that only copies its one
/// input through permutation maps (out dim i is input dim perm[i]), if it
/// is one: a transpose as torch-mlir writes it, or a plain copy. The head
/// views of the fusion and norm-run's `--check` follow such copies.
std::optional<SmallVector<int64_t>> copyPermutation(linalg::GenericOp op);

/// A same-shape elementwise add producing the input of `norm` (a
/// norm.rms_norm or norm.layer_norm on tensors without a residual) becomes
/// the norm's residual: `y = norm(x + r)` is rebuilt as
/// `y, s = norm(x) residual(r) sum_outs(...)`, the sum result present when
/// anything after the norm reads the add's result, and the add is erased.
/// Returns the new norm. Fails with nothing changed otherwise: `why` stays
/// empty when there is no such add (or the norm has a residual already) and
/// says why not when there is one (its sum read before the norm, the add in
/// another block).
FailureOr<Operation *> absorbResidualAdd(RewriterBase &rewriter,
                                         Operation *norm, std::string &why);

/// The rotary embedding right after `norm` (a norm.rms_norm or
/// norm.layer_norm on tensors without statistics results or a rotation):
/// `v·cos + rot(v)·sin` with v the norm's result, maybe through a transpose
/// that keeps the last dim last, and rot(v) rotate_half or the interleaved
/// pairs of v's last dim, becomes the norm's `rope(cos, sin)` (the angles
/// viewed in the norm's dims; `rope_rounding = each_step` when the steps
/// each round to a type narrower than acc_type), followed by the
/// transpose. Returns the new
/// norm. Fails with nothing changed otherwise: `why` stays empty when no
/// product with v follows, and says why not when one does.
FailureOr<Operation *> absorbRotaryEmbedding(RewriterBase &rewriter,
                                             Operation *norm, std::string &why);

/// What `raiseNorms` looks for and says.
struct RaiseNormsOptions {
  bool rmsNorm = true;
  bool layerNorm = true;
  /// A remark per raised norm and per near miss (with the reason).
  bool remarks = false;
  /// The LayerNorm backward: take a saved mean that is not shown to be the
  /// forward's mean(x) to be it (the `assume-saved-mean` option).
  bool assumeSavedMean = false;
};

/// Raises every decomposed RMSNorm / LayerNorm on tensors nested in `scope`
/// (linalg, tensor, arith/math or TOSA IR) to norm.rms_norm /
/// norm.layer_norm, erasing the ops it replaces. Returns how many were
/// raised. The --norm-raise pass.
unsigned raiseNorms(RewriterBase &rewriter, Operation *scope,
                    const RaiseNormsOptions &options);

/// Registers the BufferizableOpInterface models of the norm ops, so that
/// one-shot bufferization turns their tensor form into their memref form.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H
