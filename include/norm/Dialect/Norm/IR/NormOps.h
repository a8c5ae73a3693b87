//===- NormOps.h - norm dialect operations ----------------------*- C++ -*-===//
//
// Op classes of the norm dialect (generated from NormOps.td), the
// attributes they use, and the standalone norms' rotary embedding as one
// accessor.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMOPS_H
#define NORM_DIALECT_NORM_IR_NORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "norm/Dialect/Norm/IR/NormDialect.h"

#include <optional>

#include "norm/Dialect/Norm/IR/NormEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "norm/Dialect/Norm/IR/NormAttrs.h.inc"

#define GET_OP_CLASSES
#include "norm/Dialect/Norm/IR/NormOps.h.inc"

namespace mlir {
namespace norm {

/// The rotary embedding (`rope(cos, sin)`, `rope_mode` and `rope_rounding`)
/// of a standalone norm, read once for the passes that see the op as an
/// Operation *.
struct NormRotary {
  Value cos, sin;
  RopeMode mode = RopeMode::rotate_half;
  RopeRounding rounding = RopeRounding::once;
};

/// The rotary embedding of `op`, or nullopt when `op` is not a norm.rms_norm
/// or norm.layer_norm, or has none.
std::optional<NormRotary> getNormRotary(Operation *op);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_IR_NORMOPS_H
