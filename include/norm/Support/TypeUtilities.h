//===- TypeUtilities.h - type helpers upstream lacks ------------*- C++ -*-===//
//
// Header-only, upstream includes only: any project library may use it
// without a link dependency (the LLVM-dialect transforms link no other
// project library).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_SUPPORT_TYPEUTILITIES_H
#define NORM_SUPPORT_TYPEUTILITIES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"

namespace mlir {
namespace norm {

/// `type` with the element type `elementType`: a shaped type (vector,
/// tensor, memref) of the same shape, or `elementType` itself for a scalar.
/// The inverse of upstream's getElementTypeOrSelf.
inline Type withElementType(Type type, Type elementType) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

} // namespace norm
} // namespace mlir

#endif // NORM_SUPPORT_TYPEUTILITIES_H
