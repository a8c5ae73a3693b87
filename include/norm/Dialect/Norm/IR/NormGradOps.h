//===- NormGradOps.h - gradients of the norm ops ----------------*- C++ -*-===//
//
// Op classes of norm.rms_norm_grad and norm.layer_norm_grad (generated from
// NormGradOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMGRADOPS_H
#define NORM_DIALECT_NORM_IR_NORMGRADOPS_H

#include "norm/Dialect/Norm/IR/NormOps.h"

#define GET_OP_CLASSES
#include "norm/Dialect/Norm/IR/NormGradOps.h.inc"

#endif // NORM_DIALECT_NORM_IR_NORMGRADOPS_H
