//===- NormOpView.h - one view of the two standalone norms ------*- C++ -*-===//
//
// The fusion rewrites treat both standalone norms alike; this gives them one
// accessor surface (LayerNorm-only parts are null for RMSNorm).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_NORMOPVIEW_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_NORMOPVIEW_H

#include "norm/Dialect/Norm/IR/NormOps.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

struct NormOpView {
  Operation *op;
  bool isLayerNorm;
  Value input, residual, weight, bias;
  /// The rotary embedding's `cos`, `sin`, `rope_mode` and `rope_rounding`
  /// (null without one).
  Value cos, sin;
  RopeModeAttr ropeMode;
  RopeRoundingAttr ropeRounding;
  /// Result values (null when the op has no such output).
  Value y, sum, mean, rstd;
  /// The attributes the fused ops take over.
  Attribute epsilon, weightOffset;
  TypeAttr accType;
  EpsMode epsMode;
  CastMode castMode;
  /// RMSNorm's `partial` (null for LayerNorm).
  Attribute partial;
  int64_t rank;
  int64_t normalizedAxis;

  /// The view of a norm.rms_norm / norm.layer_norm on tensors, else nullopt.
  static std::optional<NormOpView> get(Operation *op);

  /// Why no fused op can take this norm's place (empty if none): more than
  /// the last dim normalized, a result wider than the input, a rotary
  /// embedding but on a per-head matmul_rms_norm (the fusion checks that it
  /// is per head); and for matmul → norm (`normFirst` false), which has no
  /// `partial` or `cast_mode`, pRMSNorm and a before_weight rounding ahead
  /// of a wider γ/β. norm → matmul carries both (castModeToCarry).
  std::string whyNoFusedForm(bool normFirst) const;

  /// The `cast_mode` a norm → matmul op takes from this norm: the norm's
  /// own when its element type is narrower than acc_type, null when
  /// rounding to it is the identity (f32 data, f32 statistics), so that
  /// such fused ops stay as they were.
  CastModeAttr castModeToCarry() const;

  /// The statistics results a fused op must return (mean, rstd): those in
  /// use, null where absent or unused.
  std::pair<Value, Value> usedStatistics() const;

  /// "norm.rms_norm" or "norm.layer_norm".
  StringRef name() const { return op->getName().getStringRef(); }
};

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_NORMOPVIEW_H
