//===- RopeAngles.h - rotary angles moved between frames --------*- C++ -*-===//
//
// A norm's `cos`/`sin` are shaped against its input, each dim its size or a
// broadcast 1. When the fusion moves the rotation to another view of the
// same data (the elementwise rotation's dims into the norm's, the norm's
// transposed, merged or split heads into the product's [..., H, D]), the
// angles are reshaped, never copied.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H

#include "HeadViews.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace mlir {
namespace norm {

/// `angles` reshaped to `shape`, which has the same dims but the unit ones
/// (a collapse to the other dims, then an expand); `angles` itself when its
/// shape is `shape`.
Value reshapeUnitDims(OpBuilder &builder, Location loc, Value angles,
                      ArrayRef<int64_t> shape);

/// The shape of a per-head norm's angles (`angleShape`, against the norm's
/// input) in the product's heads view `headsShape` [..., H, D], the norm's
/// input dims being `split.dimPieces` of it. The dims the angles vary along
/// (not a static 1), taken in order, must index whole dims of the heads
/// view in their order, merged or split as they may be ([T·H, D] angles
/// are [T, H, D]; [B, T, 1, D] over rows B·T split are [B·T, 1, D]): then
/// the angles are a reshape of the table, never a copy. Fails with `why`
/// naming the norm's dim that breaks it.
FailureOr<SmallVector<int64_t>> anglesInHeadsView(ArrayRef<int64_t> angleShape,
                                                  const HeadSplit &split,
                                                  ArrayRef<int64_t> headsShape,
                                                  std::string &why);

/// `angles` reshaped to `shape`, which holds the same elements in the same
/// order: by moving unit dims (reshapeUnitDims) when the other dims agree,
/// else through one flat dim (static shapes).
Value reshapeAngles(OpBuilder &builder, Location loc, Value angles,
                    ArrayRef<int64_t> shape);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H
