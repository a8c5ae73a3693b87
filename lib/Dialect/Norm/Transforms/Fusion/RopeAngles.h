//===- RopeAngles.h - rotary angles moved between frames --------*- C++ -*-===//
//
// A norm's `cos`/`sin` are shaped against its input, each dim its size or a
// broadcast 1. When the fusion moves the rotation to another view of the
// same data (the elementwise rotation's dims into the norm's, the norm's
// transposed heads into the product's [..., H, D]), only the broadcast unit
// dims move: the angles are reshaped, never copied.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H

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

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_ROPEANGLES_H
