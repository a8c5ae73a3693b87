//===- NormDialect.h - norm dialect declaration -----------------*- C++ -*-===//
//
// The `norm` dialect: normalization layers as first-class ops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMDIALECT_H
#define NORM_DIALECT_NORM_IR_NORMDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "norm/Dialect/Norm/IR/NormOpsDialect.h.inc"

#endif // NORM_DIALECT_NORM_IR_NORMDIALECT_H
