//===- Recognize.h - recognizing RMSNorm / LayerNorm algebraically -*- C++ -*-===//
//
// Given the Expr of a candidate tensor's element, finds x, γ, β, ε, the
// weight offset, eps_mode, the accumulation type and the cast placement such
// that the op's definition, built as a Poly, equals the candidate's Poly.
// Recognition proposes the pieces (x from the reductions' bodies, ε from the
// roots' constant terms, γ/β from the per-column leaves) and then checks the
// whole equation, so a wrong guess can only fail, never raise.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_RECOGNIZE_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_RECOGNIZE_H

#include "NormExpr.h"
#include "Tracing.h"

#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace norm {
namespace raise {

struct NormMatch {
  bool isLayerNorm = false;
  unsigned axis = 0;
  /// The op's input and (residual form) the residual added to it; `sum` is
  /// the tensor holding input + residual in the IR, if materialized.
  Value input, residual, sum;
  /// γ and β as the IR reads them (possibly with leading unit dims).
  Value gamma, beta;
  double epsilon = 0.0;
  double weightOffset = 0.0;
  EpsMode epsMode = EpsMode::inside_sqrt;
  CastMode castMode = CastMode::after_weight;
  /// The input's element type, the statistics' type and the result's (the
  /// input's or wider).
  FloatType elemType, accType, resultType;
  /// μ and rstd per row, for recognizing statistics tensors other ops use.
  Poly mean, rstd;
  /// pRMSNorm: the fraction p (1 for all of the row), and whether it needs
  /// an f64 attribute to give the op the IR's prefix size exactly.
  double partial = 1.0;
  bool partialF64 = false;
  /// γ/β are narrower than the input (f16 γ with an f32 x) and read widened:
  /// the op takes them widened to the input's type.
  bool widenParams = false;
  /// The IR rounds the A-typed result to this narrower type at the end: the
  /// raise emits the op with an A result and this arith.truncf after it.
  FloatType truncatedResult;
};

/// True if every `narrow` value is a `wide` value (f16/bf16 into f32/f64).
bool isExactlyWidened(Type narrow, Type wide);

/// The outcome of one candidate.
struct Recognition {
  std::optional<NormMatch> match;
  /// Why not (empty when there is no reduction at all: not a candidate).
  std::string reason;
  /// The candidate looks like a norm but one thing prevents it (reported
  /// even when it is not the last value of a chain).
  bool nearMiss = false;
  /// The op the reason is about, when it is not the candidate's own.
  Operation *at = nullptr;
};

struct RecognizeOptions {
  bool rmsNorm = true;
  bool layerNorm = true;
  /// The backward: take a saved mean that is not shown to be the forward's
  /// mean(x) to be it (an assumption; GradRecognizer.cpp).
  bool assumeSavedMean = false;
};

Recognition recognizeNorm(Tracer &tracer, Canonicalizer &canon, Value root,
                          const Expr *rootExpr, const RecognizeOptions &opts);

/// The pRMSNorm fraction p for which the op's k = ⌈p·n⌉ (computed in
/// double, as the op defines it) is exactly `k`: an f32 value if one
/// exists (`isF64` false), else an f64 one; nullopt if none does.
std::optional<double> partialFraction(int64_t k, int64_t n, bool &isF64);

/// True if `b` reads a row tensor: its non-empty groups are the root dims
/// [0, axis) other than unit dims, one per group, in order.
bool isRowBinding(const Tracer &tracer, const Binding &b, unsigned axis);

/// The outcome of raiseGroupNorm: the new op (null if none), the remark's
/// description of it, or why a GroupNorm-shaped chain was not raised.
struct GroupNormRaise {
  Operation *raised = nullptr;
  std::string description;
  std::string nearMiss;
};

/// Raises the chain ending at `v` into norm.group_norm when it is a
/// GroupNorm with per-channel γ/β (GroupNormRecognizer.cpp); `erase` erases
/// each op that became dead.
GroupNormRaise raiseGroupNorm(RewriterBase &rewriter, Value v,
                              function_ref<void(Operation *)> erase);

/// The outcome of raiseNormGrad: the new gradient op (null if none), the
/// remark's description of it, or why a backward was not raised.
struct GradRaise {
  Operation *raised = nullptr;
  std::string description;
  std::string nearMiss;
};

/// Raises the backward of a RMSNorm / LayerNorm that `v` is a part of (dx,
/// dγ or dβ) into norm.rms_norm_grad / norm.layer_norm_grad, with the other
/// parts found in its block (GradRecognizer.cpp); `erase` erases each op
/// that became dead.
GradRaise raiseNormGrad(RewriterBase &rewriter, Value v,
                        const RecognizeOptions &opts,
                        function_ref<void(Operation *)> erase);

/// The outcome of raiseNormQuantization: the quantized op (null if none),
/// the remark's description of it, or why the quantization at `at` was not
/// raised.
struct QuantRaise {
  Operation *raised = nullptr;
  std::string description;
  std::string nearMiss;
  Operation *at = nullptr;
};

/// Raises the quantization that follows the norm op `op` (static, per token
/// or per group; DESIGN.md §8) into its quantized result
/// (QuantRecognizer.cpp); `erase` erases each op that became dead.
QuantRaise raiseNormQuantization(RewriterBase &rewriter, Operation *op,
                                 function_ref<void(Operation *)> erase);

/// Ops whose results may end a norm (and that the Tracer looks through).
bool isTraceable(Operation *op);
/// The ops a match replaces: `rootOp` and, back through operands, every
/// op in `traced` up to the values in `stops`; the producers of the linalg
/// ops' inits go to `initProducers`.
void collectCone(Operation *rootOp, const llvm::SetVector<Operation *> &traced,
                 ArrayRef<Value> stops, llvm::SetVector<Operation *> &cone,
                 llvm::SetVector<Operation *> &initProducers);
/// Erases what became dead after a match replaced its uses: the ops of
/// `cone`, latest first, then the inits (and their tensor.empty / fill
/// producers) no op uses any more.
void eraseDeadChain(llvm::SetVector<Operation *> &cone,
                    llvm::SetVector<Operation *> &initProducers,
                    function_ref<void(Operation *)> erase);

/// `d` as printf's %g writes it, for remarks.
std::string formatDouble(double d);
/// Can `from` be turned into `to` by a collapse/expand_shape (+ cast)?
bool canReshape(RankedTensorType from, RankedTensorType to);
/// `v` reshaped to `to` (see canReshape).
Value reshapeTo(RewriterBase &rewriter, Location loc, Value v,
                RankedTensorType to);
/// `v` widened to the element type `type` (arith.extf) when it is narrower.
Value widenTo(RewriterBase &rewriter, Location loc, Value v, Type type);

} // namespace raise
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_RECOGNIZE_H
