//===- NormOps.h - norm dialect operations ----------------------*- C++ -*-===//
//
// Op classes of the norm dialect (generated from NormOps.td) and the
// attributes they use.
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

#include "norm/Dialect/Norm/IR/NormEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "norm/Dialect/Norm/IR/NormAttrs.h.inc"

#define GET_OP_CLASSES
#include "norm/Dialect/Norm/IR/NormOps.h.inc"

#endif // NORM_DIALECT_NORM_IR_NORMOPS_H
